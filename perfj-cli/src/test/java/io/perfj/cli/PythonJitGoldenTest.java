package io.perfj.cli;

import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * python-jit.data: CPython 3.13 with {@code -X perf_jit}, recorded with {@code --call-graph dwarf}
 * in a chroot and passed through {@code perf inject --jit} (fixtures/make-python-jit.sh). Every
 * Python call goes through a jitted trampoline, mapped from its {@code jitted-PID-N.so} at the
 * code's file offset, whose {@code .eh_frame} perf inject wrote there; the process also keeps the
 * maps of the chroot command it was exec'd from, whose libc and ld.so have the paths of its own.
 * The --symfs tree holds the objects with their code zeroed.
 */
class PythonJitGoldenTest {
    private static CliFixtures.Run script(String... extra) {
        List<String> a = new ArrayList<>(List.of("script", "--no-inline", "-i", Fixtures.recording("python-jit").toString(),
                "--symfs", BuildIdCacheFixture.unpacked("python-jit.symfs").toString(), "--no-system-files"));
        a.addAll(List.of(extra));
        CliFixtures.Run r = CliFixtures.run(a.toArray(String[]::new));
        assertEquals(0, r.rc(), r.err());
        return r;
    }

    /** perf 6.1 unwinds through the trampolines (their CFI found at the file's start) to _start. */
    @Test
    void compatScriptIsPerf61s() {
        String want = Fixtures.golden("python-jit", "script");
        assertEquals(want, script("--compat", "perf-6.1").out());
        assertEquals(133, want.split("_start\\+0x20 \\(/usr/bin/python3\\.13\\)", -1).length - 1, "stacks ending in _start");
    }

    /**
     * The python3.13 samples' frames are perf 7.2's (which prints raw addresses and pads the
     * command its own way: those are left out). The samples of the chroot command before its exec
     * are left out too: its libc and ld.so are not those of the tree.
     */
    @Test
    void defaultFramesArePerf72s() {
        List<String> want = pythonFrames(Fixtures.golden("python-jit", "script.perf72"));
        assertEquals(String.join("\n", want), String.join("\n", pythonFrames(script().out())));
        assertTrue(want.stream().anyMatch(l -> l.startsWith("py::leaf:")), "a jitted frame in perf 7.2's golden");
    }

    private static List<String> pythonFrames(String script) {
        List<String> out = new ArrayList<>();
        boolean keep = false;
        for (String l : script.split("\n")) {
            if (!l.isEmpty() && !l.startsWith("\t")) {
                keep = l.startsWith("python3.13 ");
                if (keep) {
                    out.add(l.replaceAll(" +", " "));
                }
            } else if (keep && l.startsWith("\t")) {
                out.add(l.strip().replaceFirst("^[0-9a-f]+ ", ""));
            }
        }
        return out;
    }
}
