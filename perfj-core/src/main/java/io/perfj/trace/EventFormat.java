package io.perfj.trace;

import io.perfj.io.FormatException;

import java.util.ArrayList;
import java.util.List;

/**
 * An event format file ({@code events/SYSTEM/EVENT/format} under tracefs): {@code name:},
 * {@code ID:}, the common fields, the event's own fields and the {@code print fmt:} line, parsed
 * into {@link #print()} — or, when the line uses something perfj cannot evaluate,
 * {@link #print()} is null and {@link #printError()} says why (the event's fields are then printed
 * as {@code name=value} pairs, as libtraceevent does for a format it failed to parse).
 */
public record EventFormat(String system, String name, int id, List<FormatField> commonFields,
                          List<FormatField> fields, String printFmt, PrintFormat print, String printError) {
    /** {@code system:name}, as perf names the event. */
    public String fullName() {
        return system + ":" + name;
    }

    /** The field called {@code n}, the event's own fields first, then the common ones; or null. */
    public FormatField field(String n) {
        for (FormatField f : fields) {
            if (f.name().equals(n)) {
                return f;
            }
        }
        for (FormatField f : commonFields) {
            if (f.name().equals(n)) {
                return f;
            }
        }
        return null;
    }

    /**
     * Parses one format file. A file without {@code name:}/{@code ID:} or with a field line that
     * does not parse is a {@link FormatException} naming {@code source}, the event format and the
     * file's offset {@code at}; a print fmt that does not parse is not (see {@link #printError()}).
     */
    public static EventFormat parse(String system, String text, String source, long at) {
        String name = null;
        Integer id = null;
        List<FormatField> common = new ArrayList<>();
        List<FormatField> own = new ArrayList<>();
        String printFmt = null;
        boolean inFormat = false;
        boolean pastCommon = false;
        long lineAt = 0;
        for (String line : text.split("\n", -1)) {
            long here = lineAt;
            lineAt += line.length() + 1;
            String t = line.strip();
            if (t.startsWith("name:") && name == null) {
                name = t.substring(5).strip();
            } else if (t.startsWith("ID:") && id == null) {
                try {
                    id = Integer.parseInt(t.substring(3).strip());
                } catch (NumberFormatException e) {
                    throw error(source, system, name, at + here, "ID '" + t.substring(3).strip() + "' is not a number");
                }
            } else if (t.equals("format:")) {
                inFormat = true;
            } else if (t.startsWith("print fmt:") && printFmt == null) {
                // the print fmt runs to the end of the file: a string in it may hold newlines
                int start = (int) here + line.indexOf("print fmt:") + 10;
                printFmt = text.substring(Math.min(start, text.length())).strip();
                inFormat = false;
            } else if (inFormat && t.isEmpty()) {
                pastCommon = !common.isEmpty() || pastCommon;
            } else if (inFormat && t.startsWith("field:")) {
                FormatField f = fieldLine(t, source, system, name, at + here);
                if (pastCommon) {
                    own.add(f);
                } else {
                    common.add(f);
                }
            }
        }
        if (name == null || id == null) {
            throw error(source, system, name, at, "no " + (name == null ? "name:" : "ID:") + " line");
        }
        PrintFormat print = null;
        String printError = null;
        if (printFmt == null) {
            printError = "no print fmt: line";
        } else {
            EventFormat shell = new EventFormat(system, name, id, List.copyOf(common), List.copyOf(own), printFmt, null, null);
            try {
                print = PrintFormatParser.parse(printFmt, shell);
            } catch (PrintFormatParser.ParseError e) {
                printError = e.getMessage();
            }
        }
        return new EventFormat(system, name, id, List.copyOf(common), List.copyOf(own), printFmt, print, printError);
    }

    private static FormatException error(String source, String system, String name, long at, String detail) {
        return new FormatException(source, "tracing_data event format " + system + ":" + (name == null ? "?" : name),
                at, detail);
    }

    /** {@code field:DECL;	offset:N;	size:N;	signed:N;} ({@code signed:} is missing before linux 2.6.33). */
    private static FormatField fieldLine(String t, String source, String system, String name, long at) {
        String[] parts = t.split(";");
        if (parts.length < 3) {
            throw error(source, system, name, at, "field line '" + t + "' has no offset and size");
        }
        String decl = parts[0].substring("field:".length());
        int offset = -1;
        int size = -1;
        boolean signed = false;
        for (int i = 1; i < parts.length; i++) {
            String p = parts[i].strip();
            int colon = p.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String key = p.substring(0, colon).strip();
            String v = p.substring(colon + 1).strip();
            try {
                switch (key) {
                    case "offset" -> offset = Integer.parseInt(v);
                    case "size" -> size = Integer.parseInt(v);
                    case "signed" -> signed = Integer.parseInt(v) != 0;
                    default -> {
                    }
                }
            } catch (NumberFormatException e) {
                throw error(source, system, name, at, "field line '" + t + "': " + key + " '" + v + "' is not a number");
            }
        }
        if (offset < 0 || size < 0) {
            throw error(source, system, name, at, "field line '" + t + "' has no offset or size");
        }
        return FormatField.of(decl, offset, size, signed);
    }
}
