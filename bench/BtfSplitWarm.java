import io.perfj.btf.encode.BtfEncoder;
import io.perfj.btf.encode.EncodeOptions;
import io.perfj.btf.encode.SplitBase;
import io.perfj.elf.ElfFile;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Split BTF of one module, encoded again and again in one JVM (what perfj's encoder costs once
 * the JIT has compiled it), alternating with pahole runs of the same module on the same base.
 * Each round: pahole as a child process under /usr/bin/time, then one in-process encode (reading
 * the base and the module each time, as a perfj process does). Prints every round and the
 * medians of the rounds after the first WARMUP.
 * Arguments: MODULE.ko BASE.btf ROUNDS WARMUP SCRATCH_DIR
 */
public class BtfSplitWarm {
    public static void main(String[] a) throws Exception {
        Path ko = Path.of(a[0]);
        Path base = Path.of(a[1]);
        int rounds = Integer.parseInt(a[2]);
        int warmup = Integer.parseInt(a[3]);
        Path dir = Path.of(a[4]);
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        List<Double> perfjWall = new ArrayList<>();
        List<Double> perfjCpu = new ArrayList<>();
        List<Double> paholeWall = new ArrayList<>();
        List<Double> paholeCpu = new ArrayList<>();
        byte[] first = null;
        for (int r = 0; r < rounds; r++) {
            Path times = dir.resolve("pahole.time");
            Path out = dir.resolve("pahole.btf");
            Files.deleteIfExists(out);
            Process p = new ProcessBuilder("/usr/bin/time", "-f", "%e %U %S", "-o", times.toString(),
                    "pahole", "-J", "--btf_base", base.toString(), "--btf_encode_detached=" + out, ko.toString())
                    .inheritIO().start();
            if (p.waitFor() != 0) {
                throw new IllegalStateException("pahole failed");
            }
            String[] t = Files.readString(times).trim().split("\\s+");
            double pw = Double.parseDouble(t[0]);
            double pc = Double.parseDouble(t[1]) + Double.parseDouble(t[2]);
            long cpu0 = os.getProcessCpuTime();
            long w0 = System.nanoTime();
            byte[] btf;
            try (ElfFile elf = ElfFile.open(ko)) {
                btf = BtfEncoder.encode(elf, new EncodeOptions(EncodeOptions.Vars.PERCPU,
                        Runtime.getRuntime().availableProcessors()), w -> { }, SplitBase.deferred(base));
            }
            double jw = (System.nanoTime() - w0) / 1e9;
            double jc = (os.getProcessCpuTime() - cpu0) / 1e9;
            if (first == null) {
                first = btf;
            } else if (!java.util.Arrays.equals(first, btf)) {
                throw new IllegalStateException("round " + r + " encoded other bytes");
            }
            System.out.printf("round %d: pahole %.2f s wall %.2f s CPU, perfj in process %.2f s wall %.2f s CPU%n",
                    r, pw, pc, jw, jc);
            if (r >= warmup) {
                paholeWall.add(pw);
                paholeCpu.add(pc);
                perfjWall.add(jw);
                perfjCpu.add(jc);
            }
        }
        System.out.printf("medians of rounds %d-%d: pahole %.2f s wall %.2f s CPU, perfj warm %.2f s wall %.2f s CPU:"
                        + " %.2fx wall%n", warmup, rounds - 1, median(paholeWall), median(paholeCpu),
                median(perfjWall), median(perfjCpu), median(perfjWall) / median(paholeWall));
    }

    private static double median(List<Double> v) {
        List<Double> s = new ArrayList<>(v);
        Collections.sort(s);
        return s.get((s.size() - 1) / 2);
    }
}
