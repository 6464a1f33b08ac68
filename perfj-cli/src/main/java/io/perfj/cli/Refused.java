package io.perfj.cli;

import java.util.List;

/**
 * perf options perfj accepts on the command line but cannot honour meaningfully: each fails the
 * command with a one-line reason and exit status 1 (the list is in docs/compat.md), so a perf user's
 * command line is answered instead of being rejected as unknown.
 */
final class Refused {
    /** One refused option: its names, its value's label (null: a flag), and why it is refused. */
    record Option(List<String> names, String value, String reason) {
    }

    /** perf report's. */
    static final List<Option> REPORT = List.of(
            new Option(List.of("-T", "--threads"), null,
                    "report -T/--threads needs per-thread counter values (perf record -s) that perfj does not read"));

    /** perf script's. */
    static final List<Option> SCRIPT = List.of(
            new Option(List.of("-s", "--script"), "NAME",
                    "script -s/--script: perfj does not run perf's Perl/Python scripts; print the fields with -F, "
                            + "or convert the recording with 'perfj export'"),
            new Option(List.of("-g", "--gen-script"), "LANG",
                    "script -g/--gen-script: perfj does not run perf's Perl/Python scripts, so it writes none"),
            new Option(List.of("-l", "--list"), null,
                    "script -l/--list: perfj has none of perf's Perl/Python scripts"),
            new Option(List.of("--dlfilter"), "FILE",
                    "script --dlfilter: perfj does not load perf's dlfilter shared objects; filter with --comms, "
                            + "--pid, --tid, -C, -S or --time"),
            new Option(List.of("--per-event-dump"), null,
                    "script --per-event-dump is not supported; select one event's samples with 'perfj export' or -F"),
            new Option(List.of("--xed"), null,
                    "script --xed: perfj does not pipe its output through Intel's xed disassembler"),
            new Option(List.of("-D", "--dump-raw-trace"), null,
                    "script -D/--dump-raw-trace: print every record with 'perfj dump'"));

    /** The reason of the first refused option given, or null. */
    private String refused;

    /** Declares the options; using one makes {@link #check} fail with its reason. */
    void declare(CommandModel m, List<Option> options) {
        for (Option o : options) {
            String[] names = o.names().toArray(new String[0]);
            if (o.value() != null) {
                m.option(names).label(o.value()).describe("Refused: " + o.reason() + ".")
                        .value(String.class, v -> refuse(o));
            } else {
                m.option(names).describe("Refused: " + o.reason() + ".").flag(v -> {
                    if (v) {
                        refuse(o);
                    }
                });
            }
        }
    }

    private void refuse(Option o) {
        if (refused == null) {
            refused = o.reason();
        }
    }

    /** Fails the command when a refused option was given. */
    void check() {
        if (refused != null) {
            throw new CliError(refused);
        }
    }
}
