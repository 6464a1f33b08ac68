package io.perfj.report;

import io.perfj.intelpt.PtSynthOptions;
import io.perfj.session.Compat;
import io.perfj.session.Session;
import io.perfj.session.SessionOptions;
import io.perfj.symbols.SymbolOptions;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Intel PT decoded from a pipe: perf 6.1 cannot read a pipe's AUXTRACE data ("bad event header
 * size"), perfj decodes it as it decodes a file. intelpt/intel_pt-4.14.pipe.data is the corpus's
 * q-intel_pt-4.14 recording written as a pipe by {@code perf inject -o -} (the same records and
 * trace): read from a stream its script is the file's, perf's golden.
 */
class ItraceScriptTest {
    @TempDir
    Path empty;

    private String script(Session s) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        s.itrace(PtSynthOptions.scriptDefault());
        new ScriptPrinter(s, out, ScriptOptions.of(null, 127)).print();
        return out.toString(StandardCharsets.UTF_8);
    }

    private SessionOptions opts() {
        SymbolOptions sym = SymbolOptions.builder().symfs(empty).buildIdDir(empty).kallsyms(empty.resolve("kallsyms")).perfMapDir(empty).noSystemFiles().build();
        return new SessionOptions(sym, io.perfj.compat.Perf61Quirks.INSTANCE);
    }

    @Test
    void pipeOfTheRecordingPrintsWhatTheFilePrints() throws IOException {
        String golden = Files.readString(Fixtures.require(Fixtures.file("corpus/golden/q-intel_pt-4.14.script.txt")));
        Path pipe = Fixtures.require(Fixtures.file("intelpt/intel_pt-4.14.pipe.data"));
        try (InputStream in = Files.newInputStream(pipe); Session s = Session.open(in, "<stdin>", opts())) {
            assertEquals(golden, script(s));
            assertTrue(s.warnings().contains("Warning:\n114 instruction trace errors"), s.warnings().toString());
        }
        try (Session s = Session.open(pipe, opts())) {
            assertEquals(golden, script(s), "the pipe's bytes as a file");
        }
    }

    @Test
    void pipedRecordingIsDecoded() throws IOException {
        Path pipe = Fixtures.require(Fixtures.file("corpus/q-piped.intel_pt-4.14.data"));
        String streamed;
        try (InputStream in = Files.newInputStream(pipe); Session s = Session.open(in, "<stdin>", opts())) {
            streamed = script(s);
        }
        try (Session s = Session.open(pipe, opts())) {
            assertEquals(streamed, script(s));
        }
        assertTrue(streamed.contains("          psb:  psb offs: 0   "), streamed);
        assertTrue(streamed.contains("          cbr:  cbr: 29 freq: 2900 MHz (242%) "), streamed);
        assertTrue(streamed.contains("     branches:      7f314bd54d60 [unknown] (/lib64/ld-2.23.so) => "), streamed);
        assertTrue(streamed.contains(" instruction trace error type 1 time 3314.127895312 cpu 3 pid 3587 tid 3587"
                + " ip 0xffffffffb960d302 code 5: Failed to get instruction\n"), streamed);
    }

    /**
     * A damaged trace: bytes that are no packet in the middle of the second buffer. perf reports a
     * decoder error there ("Bad packet") and decodes on; perfj the same, with a warning naming the
     * file, the AUXTRACE record and where in its data the damage is; every recorded sample is still
     * printed.
     */
    @Test
    void damagedTraceIsReportedWhereItIs() throws IOException {
        byte[] f = Files.readAllBytes(Fixtures.require(Fixtures.file("corpus/q-intel_pt-4.14.data")));
        int payload = 0x7788 + 0x30; // the second AUXTRACE record (cpu 3) and its 0x30-byte header
        f[payload + 0x1000] = 0x02;
        f[payload + 0x1001] = (byte) 0xff; // an extended opcode no packet has
        Path damaged = empty.resolve("damaged.data");
        Files.write(damaged, f);
        String out;
        try (Session s = Session.open(damaged, opts())) {
            out = script(s);
            String w = String.join("\n", s.warnings());
            assertTrue(w.contains(damaged + ": Intel PT trace of the PERF_RECORD_AUXTRACE at offset 0x7788: bad packet"
                    + " at offset 0x1000 of its 137728 bytes"), w);
        }
        assertTrue(out.contains(" code 3: Bad packet\n"), out);
        assertEquals(15, out.lines().filter(l -> l.contains(" cycles: ")).count(), out);
        assertTrue(out.contains("psb offs: 0x20190"), "decoding went on after the damage: " + out);
    }
}
