package io.perfj.profile;

import io.perfj.symbols.Location;
import io.perfj.util.LongIntMap;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The distinct places of a profile's stacks, interned, as columns: one location per (address,
 * mapping, function frame, level of the inline chain at the address). A function inlined at an
 * address is a location of its own at that address, {@linkplain #inlined marked} as inlined into
 * the next location of the stack (its caller at the same address); the outermost function of
 * the chain holds the address. Each location keeps:
 *
 * <ul>
 *   <li>its address as sampled or returned to ({@link #address}, {@link #returnAddress}), and in its object's terms
 *       ({@link #objectAddress}: for a user object the file offset the symbols are kept by);
 *   <li>its mapping ({@link #mapping}, a row of {@link Mappings}, -1 outside any);
 *   <li>its function-level frame ({@link #frame}, a {@link FrameTable} id: the projection the
 *       flame graphs, folded stacks and report-like views see);
 *   <li>its kind ({@link FrameKind});
 *   <li>the source line the session named for its level of an inline chain ({@link #srcline},
 *       addr2line's text; null where the address was not expanded into its inlined functions).
 * </ul>
 */
public final class Locations {
    private static final int INLINED = 0x80;
    private static final int RETURN_ADDRESS = 0x40;
    private static final int KIND = 0x3f;

    /** By address, its last location; {@link #sameAddress} chains the others (no allocation per lookup). */
    private final LongIntMap byAddress = new LongIntMap(1024);
    private int[] sameAddress = new int[1024];
    private int size;
    private long[] address = new long[1024];
    private long[] objectAddress = new long[1024];
    private int[] mapping = new int[1024];
    private int[] frame = new int[1024];
    /** The kind's ordinal, and {@link #INLINED}. */
    private byte[] flags = new byte[1024];
    private final List<String> srclines = new ArrayList<>();
    private final Mappings mappings = new Mappings();

    /** The location of {@code loc}, whose function frame is {@code frameId}. */
    int intern(Location loc, int frameId, boolean inlined, boolean returnAddress) {
        int m = mappings.intern(loc.map());
        byte flag = (byte) (FrameKind.of(loc.dso(), loc.level()).ordinal() | (inlined ? INLINED : 0)
                | (returnAddress ? RETURN_ADDRESS : 0));
        int head = byAddress.get(loc.ip());
        for (int known = head; known >= 0; known = sameAddress[known]) {
            if (mapping[known] == m && frame[known] == frameId && flags[known] == flag
                    && Objects.equals(srclines.get(known), loc.srcline())) {
                return known;
            }
        }
        int id = size++;
        if (id == address.length) {
            int cap = id * 2;
            address = Arrays.copyOf(address, cap);
            objectAddress = Arrays.copyOf(objectAddress, cap);
            mapping = Arrays.copyOf(mapping, cap);
            frame = Arrays.copyOf(frame, cap);
            flags = Arrays.copyOf(flags, cap);
            sameAddress = Arrays.copyOf(sameAddress, cap);
        }
        address[id] = loc.ip();
        objectAddress[id] = loc.dso() == null ? loc.ip() : loc.mapIp();
        mapping[id] = m;
        frame[id] = frameId;
        flags[id] = flag;
        srclines.add(loc.srcline());
        sameAddress[id] = head;
        byAddress.put(loc.ip(), id);
        return id;
    }

    public int size() {
        return size;
    }

    /** The address as sampled (or, for a caller, returned to). */
    public long address(int loc) {
        return address[loc];
    }

    /**
     * The address in its object's terms, as the session looks its symbol up ({@code map_ip}: a
     * user object's file offset, a kernel address as it is); the address itself outside any object.
     */
    public long objectAddress(int loc) {
        return objectAddress[loc];
    }

    /** Its row of {@link #mappings()}, or -1 outside any mapping. */
    public int mapping(int loc) {
        return mapping[loc];
    }

    /** Its function-level frame, a {@link FrameTable} id. */
    public int frame(int loc) {
        return frame[loc];
    }

    public FrameKind kind(int loc) {
        return FrameKind.of(flags[loc] & KIND);
    }

    /**
     * Whether its address is one a caller returns to (a callchain entry past the sampled
     * address), not the address of the instruction being run.
     */
    public boolean returnAddress(int loc) {
        return (flags[loc] & RETURN_ADDRESS) != 0;
    }

    /** Whether it is a function inlined into the next location of its stacks (same address). */
    public boolean inlined(int loc) {
        return (flags[loc] & INLINED) != 0;
    }

    /**
     * The source line of its level of the inline chain at its address as the session named it
     * (addr2line's {@code FILE:LINE}, the call site for an outer level), or null where the
     * address was not expanded into its inlined functions.
     */
    public String srcline(int loc) {
        return srclines.get(loc);
    }

    /** The mappings the locations are in. */
    public Mappings mappings() {
        return mappings;
    }
}
