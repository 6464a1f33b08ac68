package io.perfj.symbols;

/**
 * What a report needs to know of a map: its range, file offset and DSO. Implemented by the maps
 * model's map type.
 */
public interface MapRef {
    long start();

    long end();

    long pgoff();

    Dso dso();

    /** Sampled address to DSO address ({@code map__map_ip}). */
    long mapIp(long ip);

    /** DSO address back to a sampled address ({@code map__unmap_ip}). */
    long unmapIp(long dsoAddr);
}
