package io.perfj.export;

import io.perfj.profile.Profile;
import io.perfj.profile.Frame;
import io.perfj.profile.StackTable;
import io.perfj.symbols.Dso;
import io.perfj.symbols.Symbol;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The shared tables of a Firefox Profiler profile, made from a {@link Profile}'s stacks: the
 * stacks the samples use (with their callers) renumbered in the profile's own order, which
 * already puts a caller before its callees as the format wants; one frame per (frame, inline
 * depth, function it is inlined into), where a function inlined at an address sits above the
 * function that holds the address, with that function's address and native symbol; one
 * function per place (object and symbol, or address without one: {@link
 * io.perfj.profile.FrameTable#canonical}); one library and one resource per object; the string
 * array.
 */
final class FirefoxTables {
    /** Category indexes, as {@link FirefoxExport} declares them. */
    static final int OTHER = 0;
    static final int USER = 1;
    static final int KERNEL = 2;

    private final Profile profile;
    /** Per stack node of the profile, its index in the stack table, or -1 when no sample uses it. */
    final int[] stackIndex;
    /** Per stack-table row: frame and the offset back to its prefix (0 at a root). */
    int[] stackFrame;
    int[] stackPrefixOffset;
    int stacks;

    // frame table
    int frames;
    int[] frameFunc = new int[256];
    int[] frameNativeSymbol = new int[256];
    int[] frameLib = new int[256];
    long[] frameAddress = new long[256];
    int[] frameInlineDepth = new int[256];
    int[] frameCategory = new int[256];
    /** Per frame of the profile, its row when not inlined into a caller (-1: none yet). */
    private final int[] ownFrameIds;
    private final Map<FrameKey, Integer> inlinedFrameIds = new HashMap<>();

    // functions (a name and a resource each)
    int funcs;
    int[] funcName = new int[256];
    int[] funcResource = new int[256];
    /** Per frame of the profile, its function when the frame is its place's canonical one (-1: none yet). */
    private final int[] funcIds;

    /** Objects: libs and resources share the index. */
    final List<Dso> libs = new ArrayList<>();
    private final Map<Dso, Integer> libIds = new IdentityHashMap<>();

    // native symbols
    int nativeSymbols;
    int[] symbolLib = new int[64];
    long[] symbolAddress = new long[64];
    int[] symbolName = new int[64];
    long[] symbolSize = new long[64];
    private final Map<SymbolKey, Integer> symbolIds = new HashMap<>();

    final List<String> strings = new ArrayList<>();
    private final Map<String, Integer> stringIds;

    private record FrameKey(int frame, int depth, int base) {
    }

    private record SymbolKey(int lib, Symbol symbol) {
    }

    FirefoxTables(Profile profile) {
        this.profile = profile;
        StackTable st = profile.stacks();
        int nFrames = profile.frames().size();
        ownFrameIds = new int[nFrames];
        Arrays.fill(ownFrameIds, -1);
        funcIds = new int[nFrames];
        Arrays.fill(funcIds, -1);
        stringIds = new HashMap<>(Math.max(16, nFrames + nFrames / 2));
        stackIndex = new int[st.size()];
        Arrays.fill(stackIndex, -1);
        boolean[] used = new boolean[st.size()];
        for (int i = 0; i < profile.sampleCount(); i++) {
            for (int s = profile.stack(i); s != StackTable.EMPTY && !used[s]; s = st.parent(s)) {
                used[s] = true;
            }
        }
        int n = 0;
        for (boolean u : used) {
            n += u ? 1 : 0;
        }
        stackFrame = new int[n];
        stackPrefixOffset = new int[n];
        // per used node: how deep its frame is inlined, and the frame holding the address
        int[] depth = new int[n];
        int[] base = new int[n];
        for (int s = 0; s < used.length; s++) {
            if (!used[s]) {
                continue;
            }
            int row = stacks++;
            stackIndex[s] = row;
            int parent = st.parent(s);
            int prefix = parent == StackTable.EMPTY ? -1 : stackIndex[parent];
            int frame = st.frame(s);
            boolean inlined = prefix >= 0 && profile.inlinedIntoCaller(s);
            depth[row] = inlined ? depth[prefix] + 1 : 0;
            base[row] = inlined ? base[prefix] : frame;
            stackFrame[row] = frame(frame, depth[row], base[row]);
            stackPrefixOffset[row] = prefix < 0 ? 0 : row - prefix;
        }
    }

    /** The index of {@code s} in {@link #strings}. */
    int str(String s) {
        Integer id = stringIds.get(s);
        if (id == null) {
            id = strings.size();
            stringIds.put(s, id);
            strings.add(s);
        }
        return id;
    }

    private int frame(int frame, int depth, int base) {
        FrameKey key = null;
        if (depth == 0) {
            if (ownFrameIds[frame] >= 0) {
                return ownFrameIds[frame];
            }
        } else {
            key = new FrameKey(frame, depth, base);
            Integer id = inlinedFrameIds.get(key);
            if (id != null) {
                return id;
            }
        }
        if (frames == frameFunc.length) {
            int cap = frames * 2;
            frameFunc = Arrays.copyOf(frameFunc, cap);
            frameNativeSymbol = Arrays.copyOf(frameNativeSymbol, cap);
            frameLib = Arrays.copyOf(frameLib, cap);
            frameAddress = Arrays.copyOf(frameAddress, cap);
            frameInlineDepth = Arrays.copyOf(frameInlineDepth, cap);
            frameCategory = Arrays.copyOf(frameCategory, cap);
        }
        Frame f = profile.frames().get(frame);
        Frame b = profile.frames().get(base);
        int lib = b.dso() == null ? -1 : lib(b.dso());
        int row = frames++;
        frameLib[row] = lib;
        frameAddress[row] = lib < 0 ? -1 : b.sym() != null ? b.sym().start() : b.addr();
        frameNativeSymbol[row] = lib >= 0 && b.sym() != null ? nativeSymbol(lib, b.sym()) : -1;
        frameInlineDepth[row] = depth;
        frameCategory[row] = category(f.level());
        frameFunc[row] = func(profile.frames().canonical(frame));
        if (key == null) {
            ownFrameIds[frame] = row;
        } else {
            inlinedFrameIds.put(key, row);
        }
        return row;
    }

    private static int category(char level) {
        return switch (level) {
            case 'k', 'g' -> KERNEL;
            case '.', 'u' -> USER;
            default -> OTHER;
        };
    }

    private int func(int frame) {
        if (funcIds[frame] >= 0) {
            return funcIds[frame];
        }
        Frame f = profile.frames().get(frame);
        String name = f.sym() != null ? f.sym().name() : "0x" + Long.toHexString(f.addr());
        int resource = f.dso() == null ? -1 : lib(f.dso());
        if (funcs == funcName.length) {
            funcName = Arrays.copyOf(funcName, funcs * 2);
            funcResource = Arrays.copyOf(funcResource, funcs * 2);
        }
        funcName[funcs] = str(name);
        funcResource[funcs] = resource;
        funcIds[frame] = funcs;
        return funcs++;
    }

    private int lib(Dso dso) {
        Integer id = libIds.get(dso);
        if (id == null) {
            id = libs.size();
            libIds.put(dso, id);
            libs.add(dso);
            str(dso.shortName()); // the resource's name
        }
        return id;
    }

    private int nativeSymbol(int lib, Symbol sym) {
        SymbolKey key = new SymbolKey(lib, sym);
        Integer id = symbolIds.get(key);
        if (id != null) {
            return id;
        }
        if (nativeSymbols == symbolLib.length) {
            int cap = nativeSymbols * 2;
            symbolLib = Arrays.copyOf(symbolLib, cap);
            symbolAddress = Arrays.copyOf(symbolAddress, cap);
            symbolName = Arrays.copyOf(symbolName, cap);
            symbolSize = Arrays.copyOf(symbolSize, cap);
        }
        symbolLib[nativeSymbols] = lib;
        symbolAddress[nativeSymbols] = sym.start();
        symbolName[nativeSymbols] = str(sym.name());
        symbolSize[nativeSymbols] = sym.size();
        symbolIds.put(key, nativeSymbols);
        return nativeSymbols++;
    }
}
