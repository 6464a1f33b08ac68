package io.perfj.trace;

import io.perfj.io.Bytes;
import io.perfj.perfdata.FeatureId;
import io.perfj.perfdata.PerfData;
import io.perfj.testing.Fixtures;

import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertNotNull;

/** The tracing_data blobs of the committed tracepoint recordings. */
final class TraceFixtures {
    private TraceFixtures() {
    }

    static byte[] blob(String name) {
        try (PerfData pd = PerfData.open(Fixtures.recording(name))) {
            Bytes b = pd.features().get(FeatureId.TRACING_DATA);
            assertNotNull(b, name + " has no TRACING_DATA feature");
            return b.bytes(0, b.size());
        }
    }

    static Bytes bytes(byte[] blob) {
        return Bytes.of(blob, ByteOrder.LITTLE_ENDIAN, "test.data", "tracing_data");
    }

    /** A format file with the common fields and {@code fields} (each "decl;offset;size;signed"). */
    static EventFormat format(String name, String printFmt, String... fields) {
        StringBuilder t = new StringBuilder("name: " + name + "\nID: 7\nformat:\n");
        t.append("\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n");
        t.append("\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n");
        t.append("\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n");
        t.append("\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n");
        for (String f : fields) {
            String[] p = f.split(";");
            t.append("\tfield:").append(p[0]).append(";\toffset:").append(p[1]).append(";\tsize:").append(p[2])
                    .append(";\tsigned:").append(p[3]).append(";\n");
        }
        t.append("\nprint fmt: ").append(printFmt).append("\n");
        return EventFormat.parse("test", t.toString(), "test.data", 0x100);
    }
}
