package io.perfj.btf;

import io.perfj.elf.ElfFile;
import io.perfj.io.FormatException;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** .BTF.ext of the fixture objects: func_info names the programs, line_info quotes the source. */
class BtfExtTest {
    static Path obj(String name) {
        Path p = Fixtures.dir().resolve("btf/obj/" + name);
        return Fixtures.require(p);
    }

    @Test
    void funcAndLineInfoMatchTheSource() throws Exception {
        List<String> src = Files.readAllLines(Fixtures.file("btf/src/kinds.bpf.c"));
        try (ElfFile elf = ElfFile.open(obj("kinds.bpf.o"))) {
            Btf btf = BtfFiles.fromElf(elf, null);
            BtfExt ext = BtfFiles.extFromElf(elf, btf).orElseThrow();
            Map<String, List<String>> funcs = new TreeMap<>();
            for (BtfExt.Sec<BtfExt.FuncInfo> s : ext.funcInfo()) {
                funcs.put(s.name(), s.records().stream().map(f -> btf.type(f.typeId()).name()).toList());
                for (BtfExt.FuncInfo f : s.records()) {
                    assertInstanceOf(BtfType.Func.class, btf.type(f.typeId()));
                }
            }
            assertEquals(Map.of(".text", List.of("mul", "add"), "tracepoint/syscalls/sys_enter_openat",
                    List.of("handle_open")), funcs);
            int lines = 0;
            for (BtfExt.Sec<BtfExt.LineInfo> s : ext.lineInfo()) {
                for (BtfExt.LineInfo l : s.records()) {
                    assertTrue(l.fileName().endsWith("kinds.bpf.c"), l.fileName());
                    if (l.lineNumber() == 0) {
                        continue;
                    }
                    assertEquals(src.get(l.lineNumber() - 1), l.line(), "line " + l.lineNumber());
                    assertTrue(l.column() <= src.get(l.lineNumber() - 1).length() + 1);
                    lines++;
                }
            }
            assertTrue(lines > 10, "line info records: " + lines);
            assertTrue(ext.coreRelo().isEmpty());
        }
    }

    @Test
    void coreRelocation() {
        try (ElfFile elf = ElfFile.open(obj("maps.bpf.o"))) {
            Btf btf = BtfFiles.fromElf(elf, null);
            BtfExt ext = BtfFiles.extFromElf(elf, btf).orElseThrow();
            assertEquals(1, ext.coreRelo().size());
            BtfExt.Sec<BtfExt.CoreRelo> s = ext.coreRelo().getFirst();
            assertEquals("kretprobe/do_sys_open", s.name());
            BtfExt.CoreRelo r = s.records().getFirst();
            assertEquals("task_struct___min", btf.type(r.typeId()).name());
            assertEquals("0:1", r.accessStr());
            assertEquals(0, r.kind());
        }
    }

    @Test
    void damagedExtIsAFormatError() throws Exception {
        try (ElfFile elf = ElfFile.open(obj("kinds.bpf.o"))) {
            Btf btf = BtfFiles.fromElf(elf, null);
            var sh = elf.section(".BTF.ext").orElseThrow();
            byte[] good = elf.sectionData(sh).bytes(0, sh.size());
            for (int i = 0; i < good.length; i++) {
                for (int v : new int[] {0, 0xff, 0x80}) {
                    byte[] m = good.clone();
                    m[i] = (byte) v;
                    try {
                        BtfExt.parse(m, 0, "mutant", btf);
                    } catch (FormatException e) {
                        // allowed
                    } catch (RuntimeException e) {
                        fail("not a FormatException at byte " + i + ": " + e, e);
                    }
                }
                try {
                    BtfExt.parse(java.util.Arrays.copyOf(good, i), 0, "short", btf);
                } catch (FormatException e) {
                    // allowed
                }
            }
            assertFalse(BtfExt.parse(good, 0, "good", btf).lineInfo().isEmpty());
        }
    }
}
