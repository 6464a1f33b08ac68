package io.perfj.export;

import io.perfj.profile.Frame;
import io.perfj.profile.Locations;
import io.perfj.profile.Profile;
import io.perfj.profile.SourcePositions;
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
 * The shared tables of a Firefox Profiler profile, made from a {@link Profile}'s stacks of
 * locations: the stacks the samples use (with their callers) renumbered in the profile's own
 * order, which already puts a caller before its callees as the format wants; one frame per
 * (location, inline depth, location holding the address), where a function inlined at an
 * address sits above the function that holds the address, with that address (in its object's
 * terms, a return address nudged back into its call instruction as the format wants) and
 * native symbol, and its source line; one function per place (object and symbol, or address
 * without one: {@link io.perfj.profile.FrameTable#canonical}) with its source file and first
 * line; one library and one resource per object; one source per file; the string array.
 */
final class FirefoxTables {
    /** Category indexes, as {@link FirefoxExport} declares them. */
    static final int OTHER = 0;
    static final int USER = 1;
    static final int KERNEL = 2;

    private final Profile profile;
    private final Locations locs;
    private final SourcePositions sources;
    /** Per location stack of the profile, its index in the stack table, or -1 when no sample uses it. */
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
    /** The source line (0: unknown). */
    long[] frameLine = new long[256];
    /** Per location of the profile, its row when not inlined into a caller (-1: none yet). */
    private final int[] ownFrameIds;
    private final Map<FrameKey, Integer> inlinedFrameIds = new HashMap<>();

    // functions (a name and a resource each)
    int funcs;
    int[] funcName = new int[256];
    int[] funcResource = new int[256];
    /** The row of {@link #sourceFiles} (-1: none) and the first line (0: unknown). */
    int[] funcSource = new int[256];
    long[] funcLine = new long[256];
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

    /** Source files, as indexes of {@link #strings}. */
    final List<Integer> sourceFiles = new ArrayList<>();
    private final Map<String, Integer> sourceIds = new HashMap<>();

    final List<String> strings = new ArrayList<>();
    private final Map<String, Integer> stringIds;

    private record FrameKey(int frame, int depth, int base) {
    }

    private record SymbolKey(int lib, Symbol symbol) {
    }

    /** @param sources where the frames' and functions' lines come from */
    FirefoxTables(Profile profile, SourcePositions sources) {
        this.profile = profile;
        this.locs = profile.locations();
        this.sources = sources;
        StackTable st = profile.locationStacks();
        int nFrames = profile.frames().size();
        ownFrameIds = new int[locs.size()];
        Arrays.fill(ownFrameIds, -1);
        funcIds = new int[nFrames];
        Arrays.fill(funcIds, -1);
        stringIds = new HashMap<>(Math.max(16, nFrames + nFrames / 2));
        stackIndex = new int[st.size()];
        Arrays.fill(stackIndex, -1);
        boolean[] used = new boolean[st.size()];
        for (int i = 0; i < profile.sampleCount(); i++) {
            for (int s = profile.locationStack(i); s != StackTable.EMPTY && !used[s]; s = st.parent(s)) {
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
            boolean inlined = prefix >= 0 && locs.inlined(frame);
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

    /** The row of location {@code frame} at inline depth {@code depth} over location {@code base}. */
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
            frameLine = Arrays.copyOf(frameLine, cap);
        }
        Frame f = profile.frames().get(locs.frame(frame));
        Frame b = profile.frames().get(locs.frame(base));
        int lib = b.dso() == null ? -1 : lib(b.dso());
        int row = frames++;
        SourcePositions.Position at = sources.of(frame);
        frameLib[row] = lib;
        frameAddress[row] = lib < 0 ? -1 : locs.objectAddress(base) - (locs.returnAddress(base) ? 1 : 0);
        frameNativeSymbol[row] = lib >= 0 && b.sym() != null ? nativeSymbol(lib, b.sym()) : -1;
        frameInlineDepth[row] = depth;
        frameCategory[row] = category(f.level());
        frameLine[row] = at.line();
        frameFunc[row] = func(profile.frames().canonical(locs.frame(frame)), at);
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

    /** The function of a frame, its file from where it starts, else from the line {@code at} of it. */
    private int func(int frame, SourcePositions.Position at) {
        if (funcIds[frame] >= 0) {
            return funcIds[frame];
        }
        Frame f = profile.frames().get(frame);
        String name = f.sym() != null ? f.sym().name() : "0x" + Long.toHexString(f.addr());
        int resource = f.dso() == null ? -1 : lib(f.dso());
        if (funcs == funcName.length) {
            funcName = Arrays.copyOf(funcName, funcs * 2);
            funcResource = Arrays.copyOf(funcResource, funcs * 2);
            funcSource = Arrays.copyOf(funcSource, funcs * 2);
            funcLine = Arrays.copyOf(funcLine, funcs * 2);
        }
        SourcePositions.Position start = sources.start(frame);
        String file = start.file() != null ? start.file() : f.sym() != null ? at.file() : null;
        funcName[funcs] = str(name);
        funcResource[funcs] = resource;
        funcSource[funcs] = file == null ? -1 : source(file);
        funcLine[funcs] = start.line();
        funcIds[frame] = funcs;
        return funcs++;
    }

    private int source(String file) {
        Integer id = sourceIds.get(file);
        if (id == null) {
            id = sourceFiles.size();
            sourceIds.put(file, id);
            sourceFiles.add(str(file));
        }
        return id;
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
