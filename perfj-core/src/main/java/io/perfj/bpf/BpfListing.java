package io.perfj.bpf;

import io.perfj.perfdata.feature.BpfProg;

import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

/**
 * The recorded BPF programs as a table ({@code perfj bpf}) or JSON: id, type, name, tag, BTF id,
 * func_info/line_info/jited_line_info counts, xlated and jited sizes, maps, and per sub-program
 * its ksym name, jited address and size and the samples whose ip fell inside it.
 */
public final class BpfListing {
    private BpfListing() {
    }

    /** One sub-program. */
    public record Sub(int index, String name, long address, long size, long samples) {
    }

    /** One program. */
    public record Prog(long id, String type, String name, String tag, boolean gpl, long btfId, int funcInfo,
                       int lineInfo, int jitedLineInfo, long xlatedLen, long jitedLen, long[] mapIds,
                       long verifiedInsns, List<Sub> subs, long samples) {
    }

    /** The rows for {@code bpf}; {@code samples} may be null (no counts). */
    public static List<Prog> rows(RecordedBpf bpf, BpfSamples samples) {
        return bpf.programs().stream().map(p -> row(bpf, p, samples)).toList();
    }

    private static Prog row(RecordedBpf bpf, BpfProg p, BpfSamples samples) {
        BpfProg.Info info = p.info();
        BtfText btf = bpf.btfText(p);
        long[] counts = samples == null ? new long[0] : samples.of(info.id());
        long[] ks = p.jitedKsyms();
        long[] lens = p.jitedFuncLens();
        java.util.ArrayList<Sub> subs = new java.util.ArrayList<>();
        for (int i = 0; i < ks.length; i++) {
            subs.add(new Sub(i, BpfProgSymbols.name(p, btf, i), ks[i], i < lens.length ? lens[i] : 0,
                    i < counts.length ? counts[i] : 0));
        }
        long total = 0;
        for (long c : counts) {
            total += c;
        }
        return new Prog(info.id(), ProgTypes.name(info.type()), info.name(), HexFormat.of().formatHex(info.tag()),
                info.gplCompatible(), info.btfId(), (int) info.nrFuncInfo(), (int) info.nrLineInfo(),
                (int) info.nrJitedLineInfo(), info.xlatedProgLen(), info.jitedProgLen(), p.mapIds(),
                info.verifiedInsns(), List.copyOf(subs), total);
    }

    /** The table, one block per program. */
    public static String text(List<Prog> rows, boolean withSamples) {
        StringBuilder sb = new StringBuilder();
        for (Prog p : rows) {
            sb.append(p.id()).append(": ").append(p.type()).append("  name ").append(p.name().isEmpty() ? "-" : p.name())
                    .append("  tag ").append(p.tag()).append(p.gpl() ? "  gpl" : "").append('\n');
            sb.append("\txlated ").append(p.xlatedLen()).append("B  jited ").append(p.jitedLen()).append('B');
            if (p.verifiedInsns() != 0) {
                sb.append("  verified_insns ").append(p.verifiedInsns());
            }
            if (p.mapIds().length > 0) {
                sb.append("  map_ids ");
                for (int i = 0; i < p.mapIds().length; i++) {
                    sb.append(i > 0 ? "," : "").append(p.mapIds()[i]);
                }
            }
            sb.append('\n');
            sb.append("\tbtf_id ").append(p.btfId()).append("  func_info ").append(p.funcInfo())
                    .append("  line_info ").append(p.lineInfo()).append("  jited_line_info ").append(p.jitedLineInfo());
            if (withSamples) {
                sb.append("  samples ").append(p.samples());
            }
            sb.append('\n');
            for (Sub s : p.subs()) {
                sb.append(String.format(Locale.ROOT, "\tsub_prog %d: %s addr 0x%x size %d", s.index(), s.name(),
                        s.address(), s.size()));
                if (withSamples) {
                    sb.append(" samples ").append(s.samples());
                }
                sb.append('\n');
            }
        }
        return sb.toString();
    }

    /** The same as a JSON array. */
    public static String json(List<Prog> rows, boolean withSamples) {
        StringBuilder sb = new StringBuilder("[");
        for (int k = 0; k < rows.size(); k++) {
            Prog p = rows.get(k);
            sb.append(k > 0 ? "," : "").append("\n  {");
            sb.append("\"id\": ").append(p.id());
            sb.append(", \"type\": ").append(str(p.type()));
            sb.append(", \"name\": ").append(str(p.name()));
            sb.append(", \"tag\": ").append(str(p.tag()));
            sb.append(", \"gpl_compatible\": ").append(p.gpl());
            sb.append(", \"btf_id\": ").append(p.btfId());
            sb.append(", \"nr_func_info\": ").append(p.funcInfo());
            sb.append(", \"nr_line_info\": ").append(p.lineInfo());
            sb.append(", \"nr_jited_line_info\": ").append(p.jitedLineInfo());
            sb.append(", \"bytes_xlated\": ").append(p.xlatedLen());
            sb.append(", \"bytes_jited\": ").append(p.jitedLen());
            sb.append(", \"verified_insns\": ").append(p.verifiedInsns());
            sb.append(", \"map_ids\": [");
            for (int i = 0; i < p.mapIds().length; i++) {
                sb.append(i > 0 ? ", " : "").append(p.mapIds()[i]);
            }
            sb.append(']');
            if (withSamples) {
                sb.append(", \"samples\": ").append(p.samples());
            }
            sb.append(", \"sub_progs\": [");
            for (int i = 0; i < p.subs().size(); i++) {
                Sub s = p.subs().get(i);
                sb.append(i > 0 ? "," : "").append("\n    {\"index\": ").append(s.index())
                        .append(", \"name\": ").append(str(s.name()))
                        .append(", \"addr\": ").append(str("0x" + Long.toHexString(s.address())))
                        .append(", \"size\": ").append(s.size());
                if (withSamples) {
                    sb.append(", \"samples\": ").append(s.samples());
                }
                sb.append('}');
            }
            sb.append(p.subs().isEmpty() ? "]}" : "\n  ]}");
        }
        return sb.append(rows.isEmpty() ? "]\n" : "\n]\n").toString();
    }

    static String str(String s) {
        return io.perfj.io.Json.quote(s);
    }
}
