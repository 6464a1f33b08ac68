import io.perfj.symbols.Demangler;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;

/** Demangles every name of golden/rust-v0-demangle.tsv.gz, ROUNDS times over, five rounds. */
public class RustV0DemangleBench {
    public static void main(String[] a) throws Exception {
        List<String> names = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(
                new GZIPInputStream(Files.newInputStream(Path.of(a[0]))), StandardCharsets.UTF_8))) {
            for (String l = r.readLine(); l != null; l = r.readLine()) {
                names.add(l.substring(0, l.indexOf('\t')));
            }
        }
        long in = names.stream().mapToLong(String::length).sum();
        int reps = 100;
        for (int round = 0; round < 5; round++) {
            long chars = 0;
            long t0 = System.nanoTime();
            for (int i = 0; i < reps; i++) {
                for (String n : names) {
                    chars += Demangler.demangle(n).length();
                }
            }
            double s = (System.nanoTime() - t0) / 1e9;
            System.out.printf("round %d: %d x %d names (%d mangled chars) in %.2f s = %.0f k names/s, %.1f MB/s in (%d chars out)%n",
                    round, reps, names.size(), in, s, reps * names.size() / s / 1e3, reps * (double) in / s / 1e6, chars);
        }
    }
}
