package io.perfj.perfdata.feature;

import io.perfj.io.Bytes;
import io.perfj.io.FormatException;
import io.perfj.perfdata.FeatureId;
import io.perfj.perfdata.PerfData;

/**
 * The architecture a recording was made on, from its ARCH feature (uname's machine), in perf's
 * normalised spelling (perf_env__arch): {@code x86} for x86-64 and i686, {@code arm64} for
 * aarch64, {@code arm} for 32-bit ARM, other names as recorded. A recording without the feature
 * (perf 2.x files, a pipe before its HEADER_FEATURE records) is taken as {@code x86}, as perf
 * takes it as the machine it runs on.
 */
public final class RecordedArch {
    public static final String X86 = "x86";
    public static final String ARM64 = "arm64";
    public static final String ARM = "arm";

    private RecordedArch() {
    }

    /** The normalised architecture of {@code data} (see the class comment). */
    public static String of(PerfData data) {
        Bytes f = data.features().get(FeatureId.ARCH);
        if (f == null) {
            return X86;
        }
        try {
            return normalise(f.cursor().perfString());
        } catch (FormatException e) {
            // an unreadable ARCH feature is reported by the header printer; here it is the default
            return X86;
        }
    }

    /** perf's normalised name of a uname machine string. */
    static String normalise(String machine) {
        if (machine.startsWith("aarch64") || machine.startsWith("arm64")) {
            return ARM64;
        }
        if (machine.startsWith("arm") || machine.equals("sa110")) {
            return ARM;
        }
        if (machine.equals("x86_64") || machine.equals("amd64") || machine.matches("i[3-6]86")) {
            return X86;
        }
        return machine;
    }
}
