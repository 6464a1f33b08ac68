package io.perfj.record;

import io.perfj.elf.ElfFile;
import io.perfj.perfdata.feature.Feature;
import io.perfj.session.RecordHandler;
import io.perfj.session.SampleRef;
import io.perfj.session.Session;
import io.perfj.session.SessionOptions;
import io.perfj.symbols.Dso;
import io.perfj.symbols.DsoFinder;
import io.perfj.symbols.DsoKind;
import io.perfj.symbols.Machine;
import io.perfj.symbols.Map;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * The post-processing pass over a just-written data section (perf's {@code process_buildids}):
 * reads the file back through a {@link Session}, finds the object each sample's address falls
 * in, and yields the BUILD_ID entries of those objects (read from their ELF notes, the running
 * kernel's from {@code /sys/kernel/notes}) and the first and last sample times.
 */
final class SampledObjects {
    /** perf's pid for the host machine's objects ({@code HOST_KERNEL_ID}). */
    static final int HOST_PID = -1;

    private final java.util.Map<String, DsoKind> hit = new LinkedHashMap<>();
    private long first = Long.MAX_VALUE;
    private long last = Long.MIN_VALUE;
    private long samples;
    private long lost;
    private final List<Long> loadedBpf = new ArrayList<>();

    static SampledObjects scan(Path file) {
        SampledObjects s = new SampledObjects();
        try (Session session = Session.open(file, SessionOptions.defaults())) {
            Machine m = session.machine();
            session.run(new RecordHandler() {
                @Override
                public void sample(SampleRef r) {
                    s.samples++;
                    long t = r.time();
                    if (t >= 0) {
                        s.first = Math.min(s.first, t);
                        s.last = Math.max(s.last, t);
                    }
                    // kernel addresses by the recorded maps alone: Machine.findMap would load
                    // kallsyms to fix the kernel map's extent, most of this pass's cost
                    Map map = r.cpumode() == Machine.CPUMODE_KERNEL ? m.kernelMaps().find(r.ip())
                            : m.findMap(m.findThread(r.pid(), r.tid()), r.cpumode(), r.ip());
                    if (map != null) {
                        Dso d = map.dso();
                        s.hit.putIfAbsent(d.longName(), d.kind());
                    }
                }

                @Override
                public void beforeModel(io.perfj.perfdata.record.PerfRecord r) {
                    if (r instanceof io.perfj.perfdata.record.KernelRecord.Lost l) {
                        s.lost += l.lost();
                    } else if (r instanceof io.perfj.perfdata.record.KernelRecord.LostSamples l) {
                        s.lost += l.lost();
                    }
                }

                @Override
                public boolean decodesSamples() {
                    return false;
                }

                @Override
                public boolean preloadsSymbols() {
                    return false;
                }
            });
            for (var b : m.bpfEvents()) {
                if (b.eventType() == BpfPrograms.BPF_EVENT_PROG_LOAD) {
                    s.loadedBpf.add(b.id());
                }
            }
        }
        return s;
    }

    /** Ids of the BPF programs the recording saw loaded (PERF_RECORD_BPF_EVENT PROG_LOAD). */
    List<Long> loadedBpf() {
        return loadedBpf;
    }

    long samples() {
        return samples;
    }

    /** Events the kernel reported lost (PERF_RECORD_LOST's counts and LOST_SAMPLES records). */
    long lost() {
        return lost;
    }

    /** SAMPLE_TIME, or null without timed samples. */
    Feature.SampleTime sampleTime() {
        return first > last ? null : new Feature.SampleTime(first, last);
    }

    /** BUILD_ID entries of the sampled objects that have a build-id. */
    Feature.BuildIds buildIds() {
        List<Feature.BuildIds.BuildId> out = new ArrayList<>();
        for (var e : hit.entrySet()) {
            String name = e.getKey();
            byte[] id = switch (e.getValue()) {
                case KERNEL -> DsoFinder.runningKernelBuildId(Path.of("/sys/kernel/notes"));
                case KERNEL_MODULE -> DsoFinder.runningKernelBuildId(Path.of("/sys/module",
                        Machine.moduleName(name).replaceAll("^\\[|\\]$", ""), "notes", ".note.gnu.build-id"));
                case USER -> elfBuildId(name);
                case VDSO -> name.equals(VDSO) ? runningVdsoBuildId(Path.of("/proc/self")) : null;
                default -> null;
            };
            if (id == null || id.length == 0 || id.length > 20) {
                continue;
            }
            int misc = e.getValue() == DsoKind.USER || e.getValue() == DsoKind.VDSO ? Synthesizer.MISC_USER
                    : Synthesizer.MISC_KERNEL;
            String written = e.getValue() == DsoKind.KERNEL ? Machine.KERNEL_MMAP_NAME : name;
            out.add(new Feature.BuildIds.BuildId(misc, HOST_PID, java.util.Arrays.copyOf(id, 20), id.length, written));
        }
        return new Feature.BuildIds(List.copyOf(out));
    }

    static final String VDSO = "[vdso]";

    /**
     * The build-id of the running kernel's vdso, as perf finds it: the vdso is one image for
     * every process of a kernel, so this process's own copy (its {@code [vdso]} mapping in
     * {@code PROC/maps}, read from {@code PROC/mem}) has the recorded processes' build-id. Null
     * where it cannot be read.
     */
    static byte[] runningVdsoBuildId(Path proc) {
        byte[] image = io.perfj.symbols.RunningVdso.image(proc);
        if (image == null) {
            return null;
        }
        try (ElfFile elf = ElfFile.of(image, VDSO)) {
            return elf.buildId().orElse(null);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static byte[] elfBuildId(String file) {
        Path p = Path.of(file);
        if (!file.startsWith("/") || !Files.isRegularFile(p)) {
            return null;
        }
        try (ElfFile elf = ElfFile.open(p)) {
            return elf.buildId().orElse(null);
        } catch (RuntimeException e) {
            return null;
        }
    }
}
