package io.perfj.profile;

import io.perfj.perfdata.PerfData;
import io.perfj.session.Compat;
import io.perfj.session.Session;
import io.perfj.session.SessionOptions;
import io.perfj.symbols.SymbolOptions;
import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The profile keeps what its function-level frames drop: each stack is a stack of locations
 * (address, mapping, level of the inline chain, kind), projected onto the stacks of frames the
 * frame-level views see.
 */
class LocationsTest {
    private static Profile profile(String name, String cache) {
        SymbolOptions symbols = SymbolOptions.builder().buildIdDir(BuildIdCacheFixture.unpacked(cache))
                .perfMapDir(Fixtures.file("perf-maps")).noSystemFiles().build();
        try (PerfData data = PerfData.open(Fixtures.recording(name))) {
            return Profile.read(Session.of(data, SessionOptions.of(symbols)), Session.DEFAULT_MAX_STACK);
        }
    }

    /** Location stacks project onto the frame stacks level by level. */
    private static void projects(Profile p) {
        for (int i = 0; i < p.sampleCount(); i++) {
            int s = p.stack(i);
            int ls = p.locationStack(i);
            assertEquals(p.stacks().depth(s), p.locationStacks().depth(ls), "sample " + i);
            for (; ls != StackTable.EMPTY; ls = p.locationStacks().parent(ls), s = p.stacks().parent(s)) {
                assertEquals(p.stacks().frame(s), p.locations().frame(p.locationStacks().frame(ls)), "sample " + i);
                assertEquals(s, p.stackOf(ls));
                assertEquals(p.inlinedIntoCaller(s), p.locations().inlined(p.locationStacks().frame(ls)), "sample " + i);
            }
        }
    }

    @Test
    void aFunctionsSamplesKeepTheirAddressesAndMapping() {
        Profile p = profile("c-fp", "buildid-cache");
        projects(p);
        Locations l = p.locations();
        Set<Long> computeA = new HashSet<>();
        boolean kernel = false;
        for (int loc = 0; loc < l.size(); loc++) {
            Frame f = p.frames().get(l.frame(loc));
            kernel |= l.kind(loc) == FrameKind.KERNEL;
            if (f.sym() == null || !f.sym().name().equals("compute_a")) {
                continue;
            }
            computeA.add(l.address(loc));
            assertEquals(FrameKind.USER, l.kind(loc));
            int m = l.mapping(loc);
            Mappings ms = l.mappings();
            assertTrue(ms.path(m).endsWith("/bin/hot"), ms.path(m));
            assertEquals("e2db302c322df9b8b21885b46c9d468e43446773", ms.buildId(m));
            assertTrue(ms.start(m) <= l.address(loc) && l.address(loc) < ms.end(m));
            assertEquals(l.address(loc) - ms.start(m) + ms.fileOffset(m), l.objectAddress(loc));
        }
        assertTrue(computeA.size() >= 7, "compute_a's sampled addresses: " + computeA);
        assertTrue(kernel, "kernel frames");
    }

    @Test
    void inlinedFunctionsAreLocationsWithTheirLines() {
        Profile p = profile("cpp-inline", "cpp-inline.buildid-cache");
        projects(p);
        Locations l = p.locations();
        SourcePositions lines = new SourcePositions(p, null);
        int inlined = 0;
        for (int loc = 0; loc < l.size(); loc++) {
            if (!l.inlined(loc)) {
                continue;
            }
            inlined++;
            assertTrue(l.srcline(loc) != null, "an inlined function's line");
            SourcePositions.Position at = lines.of(loc);
            assertTrue(at.line() > 0 && at.file() != null, l.srcline(loc));
        }
        assertTrue(inlined > 10, "inlined locations: " + inlined);
    }

    @Test
    void addr2linesTextsAreParsed() {
        assertEquals(new SourcePositions.Position("./src/a.c", 12), SourcePositions.parse("./src/a.c:12 (discriminator 3)"));
        assertEquals(new SourcePositions.Position("b.h", 0), SourcePositions.parse("b.h:?"));
        SourcePositions.Position none = SourcePositions.parse("??:0");
        assertNull(none.file());
        assertEquals(0, none.line());
    }
}
