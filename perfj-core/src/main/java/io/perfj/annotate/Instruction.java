package io.perfj.annotate;

import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongFunction;

/**
 * x86 instruction text as perf's annotate reads it: the mnemonic picks how operands are parsed
 * (moves and arithmetic, jumps, calls, returns, nops, lock prefixes, inc/dec), so that branch
 * targets become offsets into the function or symbol names, and rip-relative operands the symbol
 * the disassembler named in its comment. Mnemonics perf does not know print as they are.
 */
final class Instruction {
    enum Kind { NONE, MOV, JUMP, CALL, RET, NOP, LOCK, DEC }

    /** Parsed operands; fields used depend on the kind. */
    static final class Operands {
        String sourceRaw;
        String sourceName;
        String targetRaw;
        String targetName;
        long targetAddr;
        String targetSym;
        boolean outside;
        long targetOffset;
        boolean offsetAvail;
        int commentAt = -1;
        int funcStartAt = -1;
        // lock prefix: the locked instruction
        String lockedName;
        String lockedRaw;
        Kind lockedKind = Kind.NONE;
        Operands locked;
    }

    /** The function being annotated and where its symbol table lives. */
    record Context(long start, long end, String symName, LongFunction<String> symbolAt) {
    }

    private static final Map<String, Kind> X86 = new TreeMap<>();

    static {
        for (String n : ("adc adcb adcl add addl addq addsd addw and andb andl andpd andps andq andw bsr bt btr bts "
                + "btsq cmovbe cmove cmovae cmp cmpb cmpl cmpq cmpw cmpxch cmpxchg cs divsd divss gs imul lea mov "
                + "movapd movaps movb movdqa movdqu movl movq movsd movslq movss movupd movups movw movzbl movzwl "
                + "mulsd mulss or orb orl orps orq pand paddq pcmpeqb por rclb rcll sbb sbbl sete sub subl subq "
                + "subsd subw test testb testl ucomisd ucomiss vaddsd vandpd vmovdqa vmovq vmovsd vmulsd vorpd "
                + "vsubsd vucomisd xadd xchg xor xorb xorpd xorps").split(" ")) {
            X86.put(n, Kind.MOV);
        }
        for (String n : ("ja jae jb jbe jc jcxz je jecxz jg jge jl jle jmp jmpq jna jnae jnb jnbe jnc jne jng jnge "
                + "jnl jnle jno jnp jns jnz jo jp jpe jpo jrcxz js jz xbeginl xbeginq").split(" ")) {
            X86.put(n, Kind.JUMP);
        }
        X86.put("call", Kind.CALL);
        X86.put("callq", Kind.CALL);
        X86.put("dec", Kind.DEC);
        X86.put("decl", Kind.DEC);
        X86.put("inc", Kind.DEC);
        X86.put("incl", Kind.DEC);
        X86.put("lock", Kind.LOCK);
        X86.put("nop", Kind.NOP);
        X86.put("nopl", Kind.NOP);
        X86.put("nopw", Kind.NOP);
        X86.put("ret", Kind.RET);
        X86.put("retq", Kind.RET);
    }

    private Instruction() {
    }

    static Kind kindOf(String name) {
        Kind k = X86.get(name);
        return k == null ? Kind.NONE : k;
    }

    /** Splits an instruction's text into mnemonic and operands; null when it is blank. */
    static String[] split(String line) {
        int i = 0;
        while (i < line.length() && isSpace(line.charAt(i))) {
            i++;
        }
        if (i == line.length()) {
            return null;
        }
        int j = i + 1;
        while (j < line.length() && !isSpace(line.charAt(j))) {
            j++;
        }
        return new String[] {line.substring(i, j), line.substring(j).strip()};
    }

    /** Parses the operands of {@code al}; sets its kind to NONE when they do not parse. */
    static void parse(AnnotationLine al, Context ctx) {
        String[] nr = split(al.line);
        if (nr == null) {
            return;
        }
        al.name = nr[0];
        al.raw = nr[1];
        Kind k = kindOf(al.name);
        al.kind = parse(k, al.raw, al.ops, ctx) ? k : Kind.NONE;
    }

    private static boolean parse(Kind k, String raw, Operands ops, Context ctx) {
        return switch (k) {
            case MOV -> parseMov(raw, ops);
            case JUMP -> {
                parseJump(raw, ops, ctx);
                yield true;
            }
            case CALL -> {
                parseCall(raw, ops, ctx);
                yield true;
            }
            case DEC -> {
                parseDec(raw, ops);
                yield true;
            }
            case LOCK -> {
                String[] nr = split(raw);
                if (nr != null) {
                    Kind lk = kindOf(nr[0]);
                    Operands inner = new Operands();
                    if (lk != Kind.NONE && parse(lk, nr[1], inner, ctx)) {
                        ops.lockedName = nr[0];
                        ops.lockedRaw = nr[1];
                        ops.lockedKind = lk;
                        ops.locked = inner;
                    }
                }
                yield true;
            }
            case NONE -> false;
            default -> true;
        };
    }

    /** After parsing: what perf fills in for every instruction line. */
    static void finish(AnnotationLine al, Context ctx) {
        if (al.kind == Kind.NONE) {
            return;
        }
        Operands o = al.ops;
        if (!(o.offsetAvail && !o.outside)) {
            o.targetOffset = o.targetAddr - ctx.start();
            o.offsetAvail = true;
        }
    }

    private static boolean parseMov(String raw, Operands ops) {
        int comma = raw.indexOf(',');
        if (comma < 0) {
            return false;
        }
        ops.sourceRaw = raw.substring(0, comma);
        int t = comma + 1;
        int comment = raw.indexOf('#', t);
        int e = comment >= 0 ? comment - 1 : raw.length() - 1;
        while (e > t && isSpace(raw.charAt(e))) {
            e--;
        }
        e++;
        ops.targetRaw = raw.substring(t, Math.max(t, e));
        if (comment >= 0) {
            String c = raw.substring(comment + 1);
            ops.sourceName = commentSymbol(ops.sourceRaw, c);
            ops.targetName = commentSymbol(ops.targetRaw, c);
        }
        return true;
    }

    private static void parseDec(String raw, Operands ops) {
        int s = 0;
        while (s < raw.length() && !isSpace(raw.charAt(s))) {
            s++;
        }
        ops.targetRaw = raw.substring(0, s);
        int comment = raw.indexOf('#', s);
        if (comment >= 0) {
            ops.targetName = commentSymbol(ops.targetRaw, raw.substring(comment + 1));
        }
    }

    /** The {@code <name>} of an objdump comment for a rip-relative operand, else null. */
    private static String commentSymbol(String operand, String comment) {
        if (!operand.contains("(%rip)")) {
            return null;
        }
        long[] end = new long[1];
        parseHex(comment, 0, end);
        if (end[0] == 0 && !startsHex(comment)) {
            return null;
        }
        int lt = comment.indexOf('<', (int) end[0]);
        if (lt < 0) {
            return null;
        }
        int gt = comment.indexOf('>', lt + 1);
        return gt < 0 ? null : comment.substring(lt + 1, gt);
    }

    private static boolean startsHex(String s) {
        int i = 0;
        while (i < s.length() && isSpace(s.charAt(i))) {
            i++;
        }
        return i < s.length() && Character.digit(s.charAt(i), 16) >= 0;
    }

    private static void parseCall(String raw, Operands ops, Context ctx) {
        long[] end = new long[1];
        ops.targetAddr = parseHex(raw, 0, end);
        int lt = raw.indexOf('<', (int) end[0]);
        if (lt >= 0) {
            int gt = raw.indexOf('>', lt + 1);
            if (gt < 0) {
                return;
            }
            ops.targetName = raw.substring(lt + 1, gt);
        } else {
            int star = raw.indexOf('*', (int) end[0]);
            if (star >= 0) {
                String after = raw.substring((int) end[0] + 1);
                if (!after.contains("(%r")) {
                    ops.targetAddr = parseHex(after, 0, null);
                }
            }
        }
        ops.targetSym = ctx.symbolAt().apply(ops.targetAddr);
    }

    private static void parseJump(String raw, Operands ops, Context ctx) {
        ops.commentAt = raw.indexOf('#');
        ops.funcStartAt = raw.indexOf('<');
        int c = validComma(raw.indexOf(','), ops);
        if (c >= 0) {
            ops.targetAddr = parseHex(raw, c + 1, null);
            if (ops.targetAddr == 0) {
                c = validComma(raw.indexOf(',', c + 1), ops);
                if (c >= 0) {
                    ops.targetAddr = parseHex(raw, c + 1, null);
                }
            }
        } else {
            ops.targetAddr = parseHex(raw, 0, null);
        }
        long start = ctx.start();
        long end = ctx.end();
        ops.outside = Long.compareUnsigned(ops.targetAddr, start) < 0 || Long.compareUnsigned(ops.targetAddr, end) > 0;
        ops.targetSym = ctx.symbolAt().apply(ops.targetAddr);
        if (!ops.outside) {
            ops.targetOffset = ops.targetAddr - start;
            ops.offsetAvail = true;
        } else {
            ops.offsetAvail = false;
        }
    }

    private static int validComma(int c, Operands ops) {
        if (c < 0) {
            return -1;
        }
        if (ops.commentAt >= 0 && c > ops.commentAt) {
            return -1;
        }
        if (ops.funcStartAt >= 0 && c > ops.funcStartAt) {
            return -1;
        }
        return c;
    }

    /** C's strtoull(s + from, &end, 16): leading blanks, optional 0x; 0 when nothing parses. */
    static long parseHex(String s, int from, long[] endOut) {
        int i = from;
        while (i < s.length() && isSpace(s.charAt(i))) {
            i++;
        }
        boolean neg = false;
        if (i < s.length() && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            neg = s.charAt(i) == '-';
            i++;
        }
        if (i + 1 < s.length() && s.charAt(i) == '0' && (s.charAt(i + 1) == 'x' || s.charAt(i + 1) == 'X')
                && i + 2 < s.length() && Character.digit(s.charAt(i + 2), 16) >= 0) {
            i += 2;
        }
        int digits = i;
        long v = 0;
        while (i < s.length() && Character.digit(s.charAt(i), 16) >= 0) {
            v = v * 16 + Character.digit(s.charAt(i), 16);
            i++;
        }
        if (endOut != null) {
            endOut[0] = i == digits ? from : i;
        }
        return neg ? -v : v;
    }

    static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == 0x0b;
    }

    /** The instruction as perf prints it, mnemonic padded to {@code width}. */
    static String format(AnnotationLine al, int width, boolean raw) {
        if (al.raw == null) {
            return al.name;
        }
        if (raw || al.kind == Kind.NONE) {
            return pad(al.name, width) + " " + al.raw;
        }
        return format(al.kind, al.name, al.raw, al.ops, width);
    }

    private static String format(Kind k, String name, String raw, Operands o, int width) {
        return switch (k) {
            case MOV -> pad(name, width) + " " + (o.sourceName != null ? o.sourceName : o.sourceRaw) + ","
                    + (o.targetName != null ? o.targetName : o.targetRaw);
            case DEC -> pad(name, width) + " " + (o.targetName != null ? o.targetName : o.targetRaw);
            case NOP -> pad("nop", width);
            case CALL -> {
                if (o.targetSym != null) {
                    yield pad(name, width) + " " + o.targetSym;
                }
                if (o.targetAddr == 0) {
                    yield pad(name, width) + " " + raw;
                }
                if (o.targetName != null) {
                    yield pad(name, width) + " " + o.targetName;
                }
                yield pad(name, width) + " *" + Long.toHexString(o.targetAddr);
            }
            case JUMP -> {
                if (o.targetAddr == 0 || o.targetOffset < 0) {
                    yield pad(name, width) + " " + raw;
                }
                if (o.outside && o.targetSym != null) {
                    yield pad(name, width) + " " + o.targetSym;
                }
                int c = validComma(raw.indexOf(','), o);
                int prefix = 0;
                if (c >= 0) {
                    int c2 = validComma(raw.indexOf(',', c + 1), o);
                    if (c2 >= 0) {
                        c = c2;
                    }
                    c++;
                    if (c < raw.length() && raw.charAt(c) == ' ') {
                        c++;
                    }
                    prefix = c;
                }
                yield pad(name, width) + " " + raw.substring(0, prefix) + Long.toHexString(o.targetOffset);
            }
            case LOCK -> {
                if (o.locked == null) {
                    yield pad(name, width) + " " + raw;
                }
                yield pad(name, width) + " " + format(o.lockedKind, o.lockedName, o.lockedRaw, o.locked, width);
            }
            case RET, NONE -> pad(name, width) + " " + raw;
        };
    }

    static String pad(String s, int width) {
        if (s.length() >= width) {
            return s;
        }
        return s + " ".repeat(width - s.length());
    }
}
