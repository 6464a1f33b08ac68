package io.perfj.bpf;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

class KernelSymbolsTest {

    @Test
    void parsesKallsymsLikeBpftool() {
        KernelSymbols k = KernelSymbols.parseKallsyms("""
                ffffffff814dccd0 T __bpf_call_base
                ffffffff8151fe00 T bpf_ktime_get_ns
                ffffffff8151fe00 t alias_after
                0000000000000000 A fixed_percpu_data
                ffffffffc0a01000 t mod_fn\t[some_mod]
                garbage line
                zzzz T bad_address
                """);
        assertEquals(OptionalLong.of(0xffffffff814dccd0L), k.callBase());
        assertEquals(Optional.of("bpf_ktime_get_ns"), k.at(0xffffffff8151fe00L));
        assertEquals(Optional.of("mod_fn"), k.at(0xffffffffc0a01000L));
        assertEquals(Optional.empty(), k.at(0));
        assertEquals(3, k.size());
        KernelSymbols more = k.with(Map.of(0xffffffff8151fe00L, "other", 0x10L, "ten"));
        assertEquals(Optional.of("bpf_ktime_get_ns"), more.at(0xffffffff8151fe00L));
        assertEquals(Optional.of("ten"), more.at(0x10L));
    }

    @Test
    void restrictedKallsymsGiveNothing() {
        KernelSymbols k = KernelSymbols.parseKallsyms("""
                0000000000000000 T __bpf_call_base
                0000000000000000 T bpf_ktime_get_ns
                """);
        assertEquals(OptionalLong.empty(), k.callBase());
        assertEquals(0, k.size());
        assertEquals(0, KernelSymbols.parseKallsyms("").size());
    }

    @Test
    void programTypes() {
        assertEquals("xdp", ProgTypes.name(6));
        assertEquals("netfilter", ProgTypes.name(32));
        assertEquals("type 99", ProgTypes.name(99));
        assertEquals(Optional.of("bpf_map_lookup_elem"), HelperNames.name(1));
        assertEquals("unknown", HelperNames.nameOrUnknown(-1));
        assertEquals(212, HelperNames.MAX_ID);
    }
}
