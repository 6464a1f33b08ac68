package io.perfj.print;

/**
 * What {@code perf report --header-only} and {@code --stats} print differently between perf
 * versions, chosen once per command.
 *
 * @param lastFeature    the first feature id the version does not know: later ids print nothing
 *                       and are not listed as missing
 * @param namesIds       whether an event line prints {@code type} and {@code config} always, each
 *                       with its name ({@code type = 1 (PERF_TYPE_SOFTWARE)}, {@code config = 0x9
 *                       (PERF_COUNT_SW_DUMMY)}, a tracepoint's {@code sys:name})
 * @param saysEmpty      whether a BPF_PROG_INFO or BPF_BTF feature with nothing in it prints
 *                       {@code # bpf_prog_info empty} / {@code # btf info empty}
 * @param statsNameWidth the width the record type's name is right-aligned to in {@code --stats}
 * @param vdsoCopy       whether {@code dump} names a sample's {@code [vdso]} the recording has no
 *                       build-id for after the temporary copy of its own machine's vdso perf
 *                       makes (perf 6.1), rather than {@code [vdso]}
 */
public record HeaderLayout(int lastFeature, boolean namesIds, boolean saysEmpty, int statsNameWidth,
                           boolean vdsoCopy) {
    /** perf 7.2's: features up to CLN_SIZE, named ids, the empty BPF lines, 20-wide stats names. */
    public static final HeaderLayout CURRENT = new HeaderLayout(35, true, true, 20, false);
    /** perf 6.1's: features up to PMU_CAPS, bare non-zero ids, nothing for empty BPF sections, 16-wide names. */
    public static final HeaderLayout PERF_6_1 = new HeaderLayout(32, false, false, 16, true);

    /** perf 6.1's layout under {@code --compat perf-6.1}, else perf 7.2's. */
    public static HeaderLayout of(boolean perf61) {
        return perf61 ? PERF_6_1 : CURRENT;
    }
}
