package io.perfj.perfdata.feature;

import io.perfj.perfdata.EventAttr;
import io.perfj.perfdata.FeatureId;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Encodes feature sections in the layouts {@link Features} decodes (perf's util/header.c
 * {@code write_*} functions), for files perfj writes itself. Only the sections a recorder
 * produces are encodable; {@link Feature.Raw} passes bytes through unchanged.
 */
public final class FeatureEncoder {
    /** perf pads feature strings (with their NUL) to this many bytes ({@code NAME_ALIGN}). */
    static final int NAME_ALIGN = 64;

    private FeatureEncoder() {
    }

    /** The section payload of {@code f} in {@code order}. */
    public static byte[] encode(Feature f, ByteOrder order) {
        Out o = new Out(order);
        switch (f) {
            case Feature.Raw r -> o.raw(r.bytes());
            case Feature.Text t -> o.string(t.value());
            case Feature.BuildIds b -> buildIds(o, b);
            case Feature.NrCpus n -> o.u32(n.available()).u32(n.online());
            case Feature.TotalMem m -> o.u64(m.kb());
            case Feature.Cmdline c -> o.strings(c.argv());
            case Feature.EventDesc d -> eventDesc(o, d);
            case Feature.CpuTopology t -> cpuTopology(o, t);
            case Feature.NumaTopology n -> {
                o.u32(n.nodes().size());
                for (Feature.NumaTopology.Node node : n.nodes()) {
                    o.u32(node.node()).u64(node.memTotal()).u64(node.memFree()).string(node.cpus());
                }
            }
            case Feature.PmuMappings p -> {
                o.u32(p.pmus().size());
                for (Feature.PmuMappings.Pmu pmu : p.pmus()) {
                    o.u32(pmu.type()).string(pmu.name());
                }
            }
            case Feature.CpuPmuCaps c -> caps(o, c.caps());
            case Feature.PmuCaps p -> {
                o.u32(p.pmus().size());
                for (Feature.PmuCaps.Pmu pmu : p.pmus()) {
                    caps(o, pmu.caps());
                    o.string(pmu.name());
                }
            }
            case Feature.SampleTime s -> o.u64(s.first()).u64(s.last());
            case Feature.ClockId c -> o.u64(c.resolutionNs());
            case Feature.ClockData c -> o.u32(c.version()).u32(c.clockid()).u64(c.wallClockNs()).u64(c.clockidNs());
            case Feature.Cache c -> {
                o.u32(c.version()).u32(c.levels().size());
                for (Feature.Cache.Level l : c.levels()) {
                    o.u32(l.level()).u32(l.lineSize()).u32(l.sets()).u32(l.ways());
                    o.string(l.type()).string(l.size()).string(l.map());
                }
            }
            case Feature.MemTopology m -> {
                o.u64(m.version()).u64(m.blockSize()).u64(m.nodes().size());
                for (Feature.MemTopology.Node n : m.nodes()) {
                    o.u64(n.node()).u64(n.size()).u64(n.bits());
                    for (long w : n.blocks()) {
                        o.u64(w);
                    }
                }
            }
            case Feature.BpfBtf b -> {
                o.u32(b.entries().size());
                for (Feature.BpfBtf.Btf btf : b.entries()) {
                    o.u32(btf.id()).u32(btf.data().length).raw(btf.data());
                }
            }
            case Feature.Flag ignored -> {
            }
            default -> throw new IllegalArgumentException("feature " + FeatureId.name(f.id()) + " is not encodable");
        }
        return o.bytes();
    }

    /** A capability list as perf writes it: the count, then each name and value string. */
    private static void caps(Out o, List<Feature.Cap> caps) {
        o.u32(caps.size());
        for (Feature.Cap c : caps) {
            o.string(c.name()).string(c.value());
        }
    }

    private static void buildIds(Out o, Feature.BuildIds b) {
        for (Feature.BuildIds.BuildId e : b.entries()) {
            byte[] name = e.filename().getBytes(StandardCharsets.UTF_8);
            int nameLen = align(name.length + 1);
            int size = 8 + 4 + Features.BUILD_ID_FIELD + nameLen;
            byte[] id = new byte[Features.BUILD_ID_FIELD];
            System.arraycopy(e.buildId(), 0, id, 0, Math.min(e.size(), Features.BUILD_ID_MAX));
            id[Features.BUILD_ID_MAX] = (byte) e.size();
            // struct build_id_event: a perf_event_header of type 0, pid, build-id (size in byte 20)
            o.u32(0).u16(e.misc() | Feature.BuildIds.BuildId.MISC_BUILD_ID_SIZE).u16(size);
            o.u32(e.pid()).raw(id).raw(name).zeros(nameLen - name.length);
        }
    }

    private static void eventDesc(Out o, Feature.EventDesc d) {
        int attrSize = d.events().isEmpty() ? EventAttr.SIZE_VER7 : d.events().getFirst().attr().size();
        o.u32(d.events().size()).u32(attrSize);
        for (Feature.EventDesc.Event e : d.events()) {
            o.raw(e.attr().encode(o.order, attrSize)).u32(e.ids().length).string(e.name());
            for (long id : e.ids()) {
                o.u64(id);
            }
        }
    }

    private static void cpuTopology(Out o, Feature.CpuTopology t) {
        o.strings(t.coreSiblings()).strings(t.threadSiblings());
        if (!t.hasCpuIds()) {
            return;
        }
        for (Feature.CpuTopology.Cpu c : t.cpus()) {
            o.u32(c.coreId()).u32(c.socketId());
        }
        if (t.hasDies()) {
            o.strings(t.dieSiblings());
            for (Feature.CpuTopology.Cpu c : t.cpus()) {
                o.u32(c.dieId());
            }
        }
    }

    static int align(int len) {
        return (len + NAME_ALIGN - 1) / NAME_ALIGN * NAME_ALIGN;
    }

    /** A growing little buffer in one byte order. */
    private static final class Out {
        final ByteOrder order;
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteBuffer word = ByteBuffer.allocate(8);

        Out(ByteOrder order) {
            this.order = order;
            word.order(order);
        }

        Out u16(int v) {
            out.write(word.clear().putShort((short) v).array(), 0, 2);
            return this;
        }

        Out u32(long v) {
            out.write(word.clear().putInt((int) v).array(), 0, 4);
            return this;
        }

        Out u64(long v) {
            out.write(word.clear().putLong(v).array(), 0, 8);
            return this;
        }

        Out raw(byte[] b) {
            out.writeBytes(b);
            return this;
        }

        Out zeros(int n) {
            out.write(new byte[n], 0, n);
            return this;
        }

        /** perf's string: u32 padded length, the bytes, NULs up to the length. */
        Out string(String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            int len = align(b.length + 1);
            return u32(len).raw(b).zeros(len - b.length);
        }

        Out strings(List<String> list) {
            u32(list.size());
            for (String s : list) {
                string(s);
            }
            return this;
        }

        byte[] bytes() {
            return out.toByteArray();
        }
    }
}
