package io.perfj.dwarf.info;

import io.perfj.elf.ElfFile;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Every DIE of the test binaries (depth, offset, abbreviation number, tag, name) against
 * {@code readelf --debug-dump=info}, captured by make-btf-encode-fixtures.sh; for the relocatable
 * {@code gcc-types.o} the names come through the relocations of {@code .rela.debug_info}.
 */
class DieDumpGoldenTest {
    private static final Pattern DIE = Pattern.compile("^ <(\\d+)><([0-9a-f]+)>: Abbrev Number: (\\d+) \\((.*)\\)$");
    private static final Pattern NAME = Pattern.compile("^\\s+<[0-9a-f]+>\\s+DW_AT_name\\s+: (.*)$");

    @ParameterizedTest
    @ValueSource(strings = {"clang-dwarf5", "gcc-dwarf4", "gcc-types.o"})
    void diesMatchReadelf(String name) throws Exception {
        List<String> expected = new ArrayList<>();
        for (String line : Files.readAllLines(BtfEncodeFixtures.golden(name + ".readelf-info.txt"))) {
            Matcher m = DIE.matcher(line);
            if (m.matches()) {
                if (!m.group(3).equals("0")) {
                    expected.add(String.format(" <%s><%s>: Abbrev Number: %s (%s)", m.group(1), m.group(2),
                            m.group(3), m.group(4)));
                }
                continue;
            }
            m = NAME.matcher(line);
            if (m.matches()) {
                String v = m.group(1);
                if (v.startsWith("(")) {
                    v = v.substring(v.indexOf("): ") + 3);
                }
                expected.add("    DW_AT_name: " + v.stripTrailing());
            }
        }
        StringWriter sw = new StringWriter();
        try (ElfFile elf = ElfFile.open(BtfEncodeFixtures.bin(name))) {
            DieDumper.dump(DwarfInfo.of(elf), new PrintWriter(sw));
        }
        List<String> actual = sw.toString().lines().map(String::stripTrailing).toList();
        assertEquals(String.join("\n", expected), String.join("\n", actual));
    }
}
