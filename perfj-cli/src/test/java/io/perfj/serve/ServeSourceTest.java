package io.perfj.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.perfj.cli.Main;
import io.perfj.dwarf.LineTable;
import io.perfj.elf.ElfFile;
import io.perfj.symbols.Symbol;
import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The hover's source positions and annotate's bytecode view, checked against what the DWARF
 * reader and {@code perfj annotate} give for the same function.
 */
class ServeSourceTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String MIX = "bpf_prog_b5ae9f831328185a_perfj_mix";

    private static JsonNode answer(Api api, String call, Map<String, String> q) throws Exception {
        return JSON.readTree(api.answer(call, q));
    }

    /** The id of the function named {@code name} in the recording's top table. */
    private static int fn(Api api, String name) throws Exception {
        for (JsonNode f : answer(api, "top", Map.of("limit", "1000")).get("fns")) {
            if (f.get(1).asText().equals(name)) {
                return f.get(0).asInt();
            }
        }
        throw new AssertionError(name + " is not in the top table");
    }

    /** The source answer for the function named {@code name} in a fixture recording. */
    private static JsonNode source(String recording, String name) throws Exception {
        Api api = new Api(ServeFixtures.recording(recording));
        return answer(api, "source", Map.of("fn", String.valueOf(fn(api, name))));
    }

    /** {@code perfj annotate --json} with the symbol sources the server's fixtures use. */
    private static JsonNode annotate(String recording, String... extra) throws Exception {
        List<String> args = new ArrayList<>(List.of("annotate", "-i", Fixtures.recording(recording).toString(),
                "--buildid-dir", BuildIdCacheFixture.dir().toString(), "--no-system-files",
                "--perf-map-dir", Fixtures.file("perf-maps").toString(), "--json"));
        args.addAll(List.of(extra));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StringWriter err = new StringWriter();
        assertEquals(0, Main.execute(args.toArray(new String[0]), out, new PrintWriter(err)), err.toString());
        return JSON.readTree(out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void anElfFunctionStartsWhereItsLineTableAndAnnotateSay() throws Exception {
        Recording rec = ServeFixtures.recording("c-fp");
        Api api = new Api(rec);
        int fn = fn(api, "compute_a");
        JsonNode s = answer(api, "source", Map.of("fn", String.valueOf(fn)));
        assertEquals("dwarf", s.get("from").asText(), s.toString());
        Symbol sym = rec.frameOf(fn).sym();
        LineTable.Row row;
        try (ElfFile elf = ElfFile.open(Fixtures.file("bin/hot"))) {
            row = LineTable.of(elf).find(sym.start());
        }
        assertNotNull(row);
        assertEquals(row.file(), s.get("file").asText());
        assertEquals(row.line(), s.get("line").asInt());
        assertEquals("./src/hot.c", s.get("file").asText());
        // annotate's first source marker of the function names the same place
        String first = null;
        for (JsonNode line : annotate("c-fp", "compute_a").get(0).get("lines")) {
            String t = line.get("text").asText();
            if (line.get("offset").isNull() && t.matches(".+:\\d+( \\(discriminator \\d+\\))?")) {
                first = t;
                break;
            }
        }
        assertEquals(s.get("file").asText() + ":" + s.get("line").asInt(), first);
    }

    @Test
    void aBpfProgramStartsAtItsFirstBtfLine() throws Exception {
        JsonNode s = source("bpf-sys", MIX);
        assertEquals("btf", s.get("from").asText(), s.toString());
        // the bytecode view's first line record (bpftool's linum) names the same place
        JsonNode x = annotate("bpf-sys", "--bpf-view", "xlated", "--xlated-file", xlatedFile().toString(), MIX);
        String first = null;
        for (JsonNode line : x.get(0).get("lines")) {
            String t = line.get("text").asText();
            if (line.get("offset").isNull() && t.contains(" [file:")) {
                first = t.substring(t.indexOf(" [file:"));
                break;
            }
        }
        assertEquals(" [file:" + s.get("file").asText() + " line_num:" + s.get("line").asInt() + " line_col:"
                + s.get("column").asInt() + "]", first);
        assertEquals("./src/prog.bpf.c", s.get("file").asText());
    }

    @Test
    void whatHasNoSourceSaysWhy() throws Exception {
        // the kernel's symbols come from kallsyms only: no vmlinux, so no line table
        JsonNode s = source("c-fp", "asm_exc_page_fault");
        assertTrue(s.get("file").isNull(), s.toString());
        assertFalse(s.get("reason").asText().isEmpty());
        assertThrows(BadRequest.class, () -> new Api(ServeFixtures.recording("c-fp")).answer("source", Map.of("fn", "999999")));
    }

    private static Path xlatedFile() {
        return Fixtures.file("bpf-xlated/golden/bpf-sys.xlated.bin");
    }

    @Test
    void theBytecodeViewIsAnnotatesAndNeedsTheInstructions() throws Exception {
        Recording plain = ServeFixtures.recording("bpf-sys");
        Api without = new Api(plain);
        int fn = fn(without, MIX);
        JsonNode jited = answer(without, "annotate", Map.of("fn", String.valueOf(fn)));
        assertTrue(jited.get("bpf").asBoolean());
        assertFalse(jited.get("xlated").asBoolean(), "perf does not record the bytecode");
        assertEquals("jited", jited.get("view").asText());
        JsonNode missing = answer(without, "annotate", Map.of("fn", String.valueOf(fn), "view", "xlated"));
        assertEquals(0, missing.get("annotations").size());
        assertTrue(missing.get("warnings").toString().contains("--xlated-file"), missing.toString());

        Recording rec = new Recording("bpf-sys.data", plain.path(), plain.profile(), plain.options(), -1,
                Files.readAllBytes(xlatedFile()));
        Api api = new Api(rec);
        int id = fn(api, MIX);
        JsonNode a = answer(api, "annotate", Map.of("fn", String.valueOf(id), "view", "xlated"));
        assertEquals("xlated", a.get("view").asText());
        assertTrue(a.get("xlated").asBoolean());
        JsonNode cli = annotate("bpf-sys", "--bpf-view", "xlated", "--xlated-file", xlatedFile().toString(), MIX);
        assertEquals(cli, a.get("annotations"));
        assertTrue(a.get("annotations").toString().contains("(b7) r2 = -1"), a.toString());
        // the JIT view of the same server is still the default
        JsonNode j = answer(api, "annotate", Map.of("fn", String.valueOf(id)));
        assertEquals("jited", j.get("view").asText());
        assertEquals(annotate("bpf-sys", MIX), j.get("annotations"));
    }
}
