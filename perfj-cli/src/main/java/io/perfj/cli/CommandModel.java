package io.perfj.cli;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.IGetter;
import picocli.CommandLine.Model.ISetter;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

/**
 * A command's picocli model, built with picocli's programmatic API: one statement per option
 * ({@code m.option("-i", "--input").label("FILE").describe("...").value(Path.class, v -> input = v)}),
 * the value delivered to the command's field by the lambda.
 *
 * <p>picocli's annotations would say the same, but reading them costs most of a short command's
 * run: reflection over every field, and a dynamic proxy class generated per annotation type
 * (bench/results/benchmarks-history.md, "Start-up"). Nothing here reflects; the command object
 * is only {@link Runnable} or {@link java.util.concurrent.Callable}, which picocli runs after
 * parsing.
 */
public final class CommandModel {
    /**
     * Paths without reflection: picocli's built-in converter for Path calls Paths.get through
     * java.lang.reflect, whose first use generates method-handle classes at run time.
     */
    private static final ITypeConverter<Path> PATH = Path::of;

    private final CommandSpec spec;

    private CommandModel(CommandSpec spec) {
        this.spec = spec;
    }

    /**
     * A command run by {@code command} (a Runnable or Callable), with {@code -h/--help} and
     * {@code -V/--version}, as picocli's standard help options are.
     */
    public static CommandModel command(Object command, String name, String... description) {
        CommandSpec s = CommandSpec.wrapWithoutInspection(command);
        s.name(name);
        s.usageMessage().description(description);
        s.addOption(OptionSpec.builder("-h", "--help").usageHelp(true)
                .description("Show this help message and exit.").build());
        s.addOption(OptionSpec.builder("-V", "--version").versionHelp(true)
                .description("Print version information and exit.").build());
        return new CommandModel(s);
    }

    public CommandSpec spec() {
        return spec;
    }

    /** Starts an option with these names; a terminal method of {@link Opt} adds it. */
    public Opt option(String... names) {
        return new Opt(OptionSpec.builder(names));
    }

    /** Starts a positional parameter at {@code index} (a picocli range such as "0" or "1..*"). */
    public Positional positional(String index, String label) {
        PositionalParamSpec.Builder b = PositionalParamSpec.builder().paramLabel(label);
        if (index != null) {
            b.index(index);
        }
        return new Positional(b);
    }

    /** The option being declared. */
    public final class Opt {
        private final OptionSpec.Builder b;

        private Opt(OptionSpec.Builder b) {
            this.b = b;
        }

        public Opt label(String paramLabel) {
            b.paramLabel(paramLabel);
            return this;
        }

        public Opt describe(String... lines) {
            b.description(lines);
            return this;
        }

        public Opt defaultValue(String value) {
            b.defaultValue(value);
            return this;
        }

        public Opt fallbackValue(String value) {
            b.fallbackValue(value);
            return this;
        }

        public Opt arity(String range) {
            b.arity(range);
            return this;
        }

        public Opt split(String regex) {
            b.splitRegex(regex);
            return this;
        }

        public Opt negatable() {
            b.negatable(true);
            return this;
        }

        /** Left out of the help (options for tools, such as AOT training). */
        public Opt hidden() {
            b.hidden(true);
            return this;
        }

        public Opt required() {
            b.required(true);
            return this;
        }

        public Opt converter(ITypeConverter<?> converter) {
            b.converters(converter);
            return this;
        }

        /** A {@code boolean} flag. */
        public CommandModel flag(Consumer<Boolean> to) {
            return value(boolean.class, to);
        }

        /** An option with one value of {@code type} (a later occurrence overrides an earlier one). */
        public <T> CommandModel value(Class<T> type, Consumer<? super T> to) {
            b.type(type);
            if (type == Path.class && (b.converters() == null || b.converters().length == 0)) {
                b.converters(PATH);
            }
            Binding<?> v = new Binding<>(to);
            b.getter(v).setter(v);
            spec.addOption(b.build());
            return CommandModel.this;
        }

        /** An option that collects its values (each occurrence, each split part) into a list. */
        public <T> CommandModel list(Class<T> element, Consumer<? super List<T>> to) {
            b.type(List.class).auxiliaryTypes(element);
            if (element == Path.class && (b.converters() == null || b.converters().length == 0)) {
                b.converters(PATH);
            }
            Binding<?> v = new Binding<>(to);
            b.getter(v).setter(v);
            spec.addOption(b.build());
            return CommandModel.this;
        }
    }

    /** The positional parameter being declared. */
    public final class Positional {
        private final PositionalParamSpec.Builder b;

        private Positional(PositionalParamSpec.Builder b) {
            this.b = b;
        }

        public Positional describe(String... lines) {
            b.description(lines);
            return this;
        }

        public Positional arity(String range) {
            b.arity(range);
            return this;
        }

        public <T> CommandModel value(Class<T> type, Consumer<? super T> to) {
            b.type(type);
            if (type == Path.class) {
                b.converters(PATH);
            }
            Binding<?> v = new Binding<>(to);
            b.getter(v).setter(v);
            add();
            return CommandModel.this;
        }

        /** Required unless its arity allows none, as picocli makes annotated ones. */
        private void add() {
            b.required(b.arity() == null || b.arity().min() > 0);
            spec.addPositional(b.build());
        }

        public <T> CommandModel list(Class<T> element, Consumer<? super List<T>> to) {
            b.type(List.class).auxiliaryTypes(element);
            if (element == Path.class) {
                b.converters(PATH);
            }
            Binding<?> v = new Binding<>(to);
            b.getter(v).setter(v);
            add();
            return CommandModel.this;
        }
    }

    /**
     * Holds what picocli last set (it reads a list back to append to it) and hands every value
     * but the initial null to the command's field.
     */
    static final class Binding<V> implements IGetter, ISetter {
        private final Consumer<V> to;
        private Object value;

        Binding(Consumer<V> to) {
            this.to = to;
        }

        @Override
        @SuppressWarnings("unchecked")
        public <T> T get() {
            return (T) value;
        }

        @Override
        @SuppressWarnings("unchecked")
        public <T> T set(T v) {
            T old = (T) value;
            value = v;
            // picocli resets each option to its (here: absent) initial value before parsing; the
            // field keeps its own, as the model is built afresh for every command line
            if (v != null) {
                to.accept((V) v);
            }
            return old;
        }
    }
}
