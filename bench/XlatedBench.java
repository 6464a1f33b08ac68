import io.perfj.bpf.*;
import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.feature.BpfProg;
import java.nio.file.*;

public class XlatedBench {
    public static void main(String[] a) throws Exception {
        Path dir = Path.of(a[0]);
        try (PerfData d = PerfData.open(dir.resolve("xlated.data"))) {
            RecordedBpf bpf = RecordedBpf.read(d);
            BpfProg p = RecordedBpf.withXlated(bpf.find("perfj_xlated").orElseThrow(),
                    Files.readAllBytes(dir.resolve("golden/perfj_xlated.xlated.bin")));
            BtfText btf = bpf.btfText(p);
            KernelSymbols syms = KernelSymbols.readKallsyms(dir.resolve("golden/kallsyms.txt"));
            XlatedPrinter.Options o = XlatedPrinter.Options.DEFAULT.withLinum(true);
            int n = p.xlatedInsns().length / 8;
            for (int round = 0; round < 3; round++) {
                long t0 = System.nanoTime();
                long chars = 0;
                int reps = 20000;
                for (int i = 0; i < reps; i++) {
                    chars += XlatedPrinter.toString(p, btf, syms, o).length();
                }
                double s = (System.nanoTime() - t0) / 1e9;
                System.out.printf("round %d: %d dumps of %d slots in %.2f s = %.2f M slots/s (%d chars)%n",
                        round, reps, n, s, reps * (double) n / s / 1e6, chars);
            }
        }
    }
}
