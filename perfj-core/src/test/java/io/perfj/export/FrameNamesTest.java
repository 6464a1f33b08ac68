package io.perfj.export;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Frame names by stackcollapse-perf.pl's rules. The expected values are what the script
 * (FlameGraph 41fee1f) printed for a perf script text holding these frames.
 */
class FrameNamesTest {
    private static void names(String symbol, String object, boolean java, String... expected) {
        assertEquals(List.of(expected), FrameNames.of(symbol, object, java), symbol + " (" + object + ")");
    }

    @Test
    void argumentListsAndQuotesGoGoMethodsStay() {
        names("foo(int, char)", "/usr/bin/hot", false, "foo");
        names("net/http.(*Client).Do", "/usr/bin/hot", false, "net/http.(*Client).Do");
        names("say\"hi'there", "/usr/bin/hot", false, "sayhithere");
        names("semi;colon", "/usr/bin/hot", false, "semi:colon");
        // a name that starts with a parenthesis is taken for a process name and left out
        names("(anonymous namespace)::bar(long)", "/usr/bin/hot", false);
        names("ns::(anonymous namespace)::f(int)", "/usr/bin/hot", false, "ns::(anonymous namespace)::f");
        // the text is split at its last " (": the name keeps what comes before
        names("odd (name)", "/usr/bin/hot", false, "odd ");
    }

    @Test
    void arrowsSplitAFrameIntoInlinedFunctions() {
        names("outer->inner->", "/usr/bin/hot", false, "outer", "inner_[i]");
        names("->lead", "/usr/bin/hot", false, "", "lead_[i]");
        names("a_[i]->b_[i]", "/usr/bin/hot", false, "a_[i]", "b_[i]");
    }

    @Test
    void framesWithoutASymbolTakeTheirObjectsName() {
        names(null, "/usr/lib/libx.so", false, "[libx.so]");
        names(null, "[unknown]", false, "[unknown]");
        names(null, "[kernel.kallsyms]", false, "[[kernel.kallsyms]]");
    }

    @Test
    void javaClassPrefixDroppedForJavaCommands() {
        names("Lorg/x/Y;.run(I)V", "/tmp/perf-2.map", true, "org/x/Y:.run");
        names("LNoSlash", "/tmp/perf-2.map", true, "LNoSlash");
        names("Lorg/x/Y;.run(I)V", "/tmp/perf-2.map", false, "Lorg/x/Y:.run");
    }
}
