package io.perfj.bpf;

import io.perfj.io.Bytes;
import io.perfj.perfdata.FeatureId;
import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.feature.BpfProg;
import io.perfj.perfdata.feature.Feature;
import io.perfj.perfdata.feature.Features;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The BPF programs of a recording: its BPF_PROG_INFO feature (one {@link BpfProg} per id, the
 * first of duplicates kept, as perf does) and the BTF blobs of BPF_BTF by id.
 */
public final class RecordedBpf {
    private final List<BpfProg> programs;
    private final Map<Long, byte[]> btfs;
    private final ByteOrder order;
    private final Map<Long, BtfText> texts = new HashMap<>();

    private RecordedBpf(List<BpfProg> programs, Map<Long, byte[]> btfs, ByteOrder order) {
        this.programs = programs;
        this.btfs = btfs;
        this.order = order;
    }

    /** Programs and BTF from explicit values (tests, other containers). */
    public static RecordedBpf of(List<BpfProg> programs, Map<Long, byte[]> btfs, ByteOrder order) {
        TreeMap<Long, BpfProg> byId = new TreeMap<>();
        for (BpfProg p : programs) {
            byId.putIfAbsent(p.info().id(), p);
        }
        return new RecordedBpf(List.copyOf(byId.values()), Map.copyOf(btfs), order);
    }

    /** Reads the two features of {@code data}; a recording without them has no programs. */
    public static RecordedBpf read(PerfData data) {
        List<BpfProg> progs = new ArrayList<>();
        Bytes p = data.features().get(FeatureId.BPF_PROG_INFO);
        if (p != null && Features.decode(FeatureId.BPF_PROG_INFO, p, data) instanceof Feature.BpfProgInfo info) {
            progs.addAll(info.programs());
        }
        Map<Long, byte[]> btfs = new HashMap<>();
        Bytes b = data.features().get(FeatureId.BPF_BTF);
        if (b != null && Features.decode(FeatureId.BPF_BTF, b, data) instanceof Feature.BpfBtf bb) {
            for (Feature.BpfBtf.Btf e : bb.entries()) {
                btfs.putIfAbsent(e.id(), e.data());
            }
        }
        return of(progs, btfs, data.header().order());
    }

    /**
     * {@code p} with {@code insns} as its xlated instructions. perf does not record them (its
     * BPF_PROG_INFO has no XLATED_INSNS array); bpftool writes them with
     * {@code bpftool prog dump xlated id N file FILE}.
     */
    public static BpfProg withXlated(BpfProg p, byte[] insns) {
        BpfProg.Info i = p.info();
        BpfProg.Info info = new BpfProg.Info(i.type(), i.id(), i.tag(), i.jitedProgLen(), insns.length,
                i.jitedProgInsns(), i.xlatedProgInsns(), i.loadTime(), i.createdByUid(), i.nrMapIds(), i.mapIds(),
                i.name(), i.ifindex(), i.gplCompatible(), i.netnsDev(), i.netnsIno(), i.nrJitedKsyms(),
                i.nrJitedFuncLens(), i.jitedKsyms(), i.jitedFuncLens(), i.btfId(), i.funcInfoRecSize(), i.funcInfo(),
                i.nrFuncInfo(), i.nrLineInfo(), i.lineInfo(), i.jitedLineInfo(), i.nrJitedLineInfo(),
                i.lineInfoRecSize(), i.jitedLineInfoRecSize(), i.nrProgTags(), i.progTags(), i.runTimeNs(),
                i.runCnt(), i.recursionMisses(), i.verifiedInsns(), i.attachBtfObjId(), i.attachBtfId());
        return new BpfProg(p.infoLen(), p.dataLen(), p.arrays() | (1L << BpfProg.XLATED_INSNS), info,
                p.jitedInsns(), insns.clone(), p.mapIds(), p.jitedKsyms(), p.jitedFuncLens(), p.funcInfo(),
                p.lineInfo(), p.jitedLineInfo(), p.progTags());
    }

    /** The programs in id order. */
    public List<BpfProg> programs() {
        return programs;
    }

    /** Byte order of the recording (and of the instructions in it). */
    public ByteOrder order() {
        return order;
    }

    /** The raw BTF blob with this id. */
    public Optional<byte[]> btf(long id) {
        return Optional.ofNullable(btfs.get(id));
    }

    /**
     * The BTF text view of program {@code p}'s BTF ({@link BtfText#NONE} when it has none or the
     * blob is not usable).
     */
    public synchronized BtfText btfText(BpfProg p) {
        long id = p.info().btfId();
        if (id == 0 || !btfs.containsKey(id)) {
            return BtfText.NONE;
        }
        return texts.computeIfAbsent(id, k -> BtfSignatures.parse(btfs.get(k), "BTF id " + k));
    }

    /**
     * The program named by {@code key}: its id in decimal, or its name (the program name, or a
     * sub-program's BTF function name).
     */
    public Optional<BpfProg> find(String key) {
        if (key.chars().allMatch(Character::isDigit) && !key.isEmpty()) {
            long id = Long.parseLong(key);
            for (BpfProg p : programs) {
                if (p.info().id() == id) {
                    return Optional.of(p);
                }
            }
        }
        for (BpfProg p : programs) {
            if (p.info().name().equals(key)) {
                return Optional.of(p);
            }
        }
        for (BpfProg p : programs) {
            BtfText t = btfText(p);
            for (BpfProg.FuncInfo f : p.funcInfo()) {
                if (t.typeName(f.typeId()).filter(key::equals).isPresent()) {
                    return Optional.of(p);
                }
            }
        }
        return Optional.empty();
    }
}
