package io.perfj.trace;

/**
 * One {@code field:TYPE NAME;	offset:N;	size:N;	signed:N;} line of an event format file,
 * with the properties libtraceevent derives from the declaration: an array (brackets), a string
 * (an array of char/u8/s8), dynamic ({@code __data_loc}: a u32 of length &lt;&lt; 16 | offset) or
 * relative dynamic ({@code __rel_loc}: the offset counts from the field's end), a long, a pointer.
 */
public record FormatField(String type, String name, int offset, int size, boolean signed, int arrayLength,
                          boolean array, boolean string, boolean dynamic, boolean relative, boolean isLong,
                          boolean pointer) {
    /** The size of one element: the field's size over its array length, or the size. */
    public int elementSize() {
        return array && arrayLength > 0 ? size / arrayLength : size;
    }

    /** Derives the flags from the declaration ({@code TYPE NAME[N]}) as libtraceevent does. */
    static FormatField of(String declaration, int offset, int size, boolean signed) {
        String d = declaration.trim();
        int arrayLength = 0;
        boolean array = d.indexOf('[') >= 0;
        String decl = d;
        if (d.endsWith("]") && d.lastIndexOf('[') >= 0) {
            int open = d.lastIndexOf('[');
            String n = d.substring(open + 1, d.length() - 1).trim();
            try {
                arrayLength = n.isEmpty() ? 0 : Integer.parseInt(n);
            } catch (NumberFormatException e) {
                arrayLength = 0; // a symbolic length (an enum): the size still says how big it is
            }
            decl = d.substring(0, open).trim();
        }
        int cut = decl.length();
        while (cut > 0 && isIdent(decl.charAt(cut - 1))) {
            cut--;
        }
        String name = decl.substring(cut);
        String type = decl.substring(0, cut).trim();
        boolean dynamic = type.startsWith("__data_loc");
        boolean relative = type.startsWith("__rel_loc");
        boolean string = (array || dynamic || relative)
                && (type.contains("char") || type.contains("u8") || type.contains("s8"));
        if (dynamic || relative) {
            array = true;
        }
        return new FormatField(type, name, offset, size, signed, arrayLength, array, string, dynamic, relative,
                type.contains("long"), type.endsWith("*"));
    }

    static boolean isIdent(char c) {
        return c == '_' || Character.isLetterOrDigit(c);
    }
}
