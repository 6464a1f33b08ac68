package io.perfj.annotate;

import io.perfj.elf.ElfFile;
import io.perfj.elf.SectionHeader;
import io.perfj.io.Bytes;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Disassembles x86-64 with libcapstone through the foreign function interface, in AT&T syntax,
 * when the library is installed (Debian: libcapstone4 or libcapstone5). Bytes capstone cannot
 * decode print as {@code (bad)}, one byte at a time, as objdump does.
 */
final class CapstoneDisassembler implements Disassembler {
    private static final int CS_ARCH_X86 = 3;
    private static final int CS_MODE_64 = 8;
    private static final int CS_OPT_SYNTAX = 1;
    private static final long CS_OPT_SYNTAX_ATT = 2;

    private static volatile Lib lib;

    private record Lib(MethodHandle open, MethodHandle option, MethodHandle disasm, MethodHandle free,
                       MethodHandle close, int bytesLen) {
    }

    @Override
    public String name() {
        return "capstone";
    }

    private static Lib lib() {
        Lib l = lib;
        if (l != null) {
            return l;
        }
        synchronized (CapstoneDisassembler.class) {
            if (lib == null) {
                lib = load();
            }
            return lib;
        }
    }

    private static Lib load() {
        SymbolLookup look = null;
        for (String n : new String[] {"libcapstone.so.5", "libcapstone.so.4", "libcapstone.so"}) {
            try {
                look = SymbolLookup.libraryLookup(n, Arena.global());
                break;
            } catch (IllegalArgumentException e) {
                // try the next name
            }
        }
        if (look == null) {
            throw new MissingException("libcapstone not found: install libcapstone4 (or libcapstone5),"
                    + " or pick another backend with --disassembler");
        }
        Linker linker = Linker.nativeLinker();
        MethodHandle version = linker.downcallHandle(look.find("cs_version").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS));
        int major;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment ma = a.allocate(ValueLayout.JAVA_INT);
            MemorySegment mi = a.allocate(ValueLayout.JAVA_INT);
            version.invoke(ma, mi);
            major = ma.get(ValueLayout.JAVA_INT, 0);
        } catch (Throwable t) {
            throw new MissingException("libcapstone is unusable: " + t);
        }
        return new Lib(
                linker.downcallHandle(look.find("cs_open").orElseThrow(), FunctionDescriptor.of(ValueLayout.JAVA_INT,
                        ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS)),
                linker.downcallHandle(look.find("cs_option").orElseThrow(), FunctionDescriptor.of(ValueLayout.JAVA_INT,
                        ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG)),
                linker.downcallHandle(look.find("cs_disasm").orElseThrow(), FunctionDescriptor.of(ValueLayout.JAVA_LONG,
                        ValueLayout.JAVA_LONG, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG,
                        ValueLayout.JAVA_LONG, ValueLayout.ADDRESS)),
                linker.downcallHandle(look.find("cs_free").orElseThrow(), FunctionDescriptor.ofVoid(
                        ValueLayout.ADDRESS, ValueLayout.JAVA_LONG)),
                linker.downcallHandle(look.find("cs_close").orElseThrow(), FunctionDescriptor.of(ValueLayout.JAVA_INT,
                        ValueLayout.ADDRESS)),
                major >= 5 ? 24 : 16);
    }

    @Override
    public List<String> listing(Path elf, long start, long end, Request r) throws IOException {
        byte[] code;
        String symbol = null;
        try (ElfFile f = ElfFile.open(elf)) {
            code = bytesAt(f, start, end);
            for (var sym : f.symtab().isEmpty() ? f.dynsym() : f.symtab()) {
                if (sym.value() == start && !sym.name().isEmpty()) {
                    symbol = sym.name();
                    break;
                }
            }
        }
        List<String> out = header(start, symbol == null ? "" : symbol);
        out.addAll(disassemble(code, start));
        if (r.lineNumbers() || r.source()) {
            return SourceInterleaver.interleave(out, r.debugFile() != null ? r.debugFile() : elf, r);
        }
        return out;
    }

    @Override
    public List<String> listing(byte[] code, long base, String symbol, Request r) {
        List<String> out = header(base, symbol);
        out.addAll(disassemble(code, base));
        return out;
    }

    private static List<String> header(long start, String symbol) {
        List<String> out = new ArrayList<>();
        out.add("");
        out.add("");
        out.add("Disassembly of section .text:");
        out.add("");
        out.add(String.format("%016x <%s>:", start, symbol));
        return out;
    }

    /** The bytes of [start, end) from the section holding them. */
    static byte[] bytesAt(ElfFile f, long start, long end) {
        for (SectionHeader s : f.sections()) {
            if (s.hasFileData() && s.isAlloc() && Long.compareUnsigned(start, s.addr()) >= 0
                    && Long.compareUnsigned(end, s.addr() + s.size()) <= 0) {
                Bytes b = f.sectionData(s);
                return b.bytes(start - s.addr(), end - start);
            }
        }
        throw new IllegalArgumentException(String.format("no section of %s holds [0x%x, 0x%x)", f.name(), start, end));
    }

    private List<String> disassemble(byte[] code, long base) {
        Lib l = lib();
        List<String> out = new ArrayList<>();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment handleOut = a.allocate(ValueLayout.JAVA_LONG);
            int err = (int) l.open().invoke(CS_ARCH_X86, CS_MODE_64, handleOut);
            if (err != 0) {
                throw new MissingException("capstone cannot open x86-64 (error " + err + ")");
            }
            long handle = handleOut.get(ValueLayout.JAVA_LONG, 0);
            try {
                int ignored = (int) l.option().invoke(handle, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);
                MemorySegment buf = a.allocate(Math.max(1, code.length));
                MemorySegment.copy(code, 0, buf, ValueLayout.JAVA_BYTE, 0, code.length);
                MemorySegment insnOut = a.allocate(ValueLayout.ADDRESS);
                int pos = 0;
                int mnemOff = 18 + l.bytesLen();
                int opOff = mnemOff + 32;
                int insnSize = align(opOff + 160, 8) + 8;
                while (pos < code.length) {
                    long n = (long) l.disasm().invoke(handle, buf.asSlice(pos), (long) (code.length - pos), base + pos,
                            0L, insnOut);
                    if (n > 0) {
                        MemorySegment insns = insnOut.get(ValueLayout.ADDRESS, 0).reinterpret(n * insnSize);
                        for (long i = 0; i < n; i++) {
                            MemorySegment in = insns.asSlice(i * insnSize, insnSize);
                            long addr = in.get(ValueLayout.JAVA_LONG, 8);
                            int size = Short.toUnsignedInt(in.get(ValueLayout.JAVA_SHORT, 16));
                            String mnem = in.asSlice(mnemOff, 32).getString(0, StandardCharsets.US_ASCII);
                            String ops = in.asSlice(opOff, 160).getString(0, StandardCharsets.US_ASCII);
                            out.add(String.format("%8x:\t%s", addr, ops.isEmpty() ? mnem : padTo(mnem, 6) + " " + ops));
                            pos = (int) (addr - base) + size;
                        }
                        l.free().invoke(insnOut.get(ValueLayout.ADDRESS, 0), n);
                    }
                    if (pos < code.length) {
                        // capstone stopped at something it cannot decode: one bad byte, go on
                        out.add(String.format("%8x:\t(bad)", base + pos));
                        pos++;
                    }
                }
            } finally {
                MemorySegment h = a.allocate(ValueLayout.JAVA_LONG);
                h.set(ValueLayout.JAVA_LONG, 0, handle);
                int ignored = (int) l.close().invoke(h);
            }
        } catch (MissingException e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("capstone failed: " + t, t);
        }
        return out;
    }

    private static String padTo(String s, int w) {
        return s.length() >= w ? s : s + " ".repeat(w - s.length());
    }

    private static int align(int v, int a) {
        return (v + a - 1) / a * a;
    }
}
