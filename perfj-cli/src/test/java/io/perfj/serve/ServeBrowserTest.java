package io.perfj.serve;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.interactions.Actions;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The UI in a real Chromium: load, zoom, search, time range, annotate a BPF program, diff, hostile names. */
class ServeBrowserTest {
    private static ChromeDriver driver;
    private static UiServer bpf;

    @BeforeAll
    static void start() throws Exception {
        driver = Browser.start();
        bpf = ServeFixtures.start("bpf-sys");
    }

    @AfterAll
    static void stop() {
        if (driver != null) {
            driver.quit();
        }
        if (bpf != null) {
            bpf.close();
        }
    }

    private static void open(UiServer s) {
        driver.get(s.url());
        Browser.settle(driver);
    }

    private static List<WebElement> frames(String container) {
        return driver.findElements(By.cssSelector("#" + container + " .fr"));
    }

    private static WebElement frame(String container, String nameEnd) {
        for (WebElement e : frames(container)) {
            if (e.getText().endsWith(nameEnd) || e.getAttribute("textContent").endsWith(nameEnd)) {
                return e;
            }
        }
        throw new AssertionError("no frame " + nameEnd);
    }

    private static Object js(String script) {
        return driver.executeScript(script);
    }

    @Test
    void loadZoomSearchAndAnnotateABpfProgram() throws Exception {
        open(bpf);
        assertTrue(frames("flame").size() > 10, "frames drawn");
        assertEquals("all", frames("flame").getFirst().getAttribute("textContent"));
        Browser.screenshot(driver, "flame");
        // zoom: click a frame, the breadcrumbs end with it, the graph's root is that node
        WebElement mix = frame("flame", "_perfj_mix");
        String name = mix.getAttribute("textContent");
        mix.click();
        Browser.settle(driver);
        List<WebElement> crumbs = driver.findElements(By.cssSelector("#crumbs .crumb"));
        assertEquals(name, crumbs.getLast().getText());
        assertNotEquals(0L, js("return perfjUi.state.root"));
        assertEquals(name, frames("flame").getFirst().getAttribute("textContent"), "zoomed root drawn first");
        assertEquals(name, driver.findElement(By.id("sel-name")).getText(), "the frame's function is selected");
        // hover: the details name the program's source position from its BTF line info
        new Actions(driver).moveToElement(frame("flame", "_perfj_mix")).perform();
        Browser.until(() -> tip().contains("source: "));
        assertTrue(tip().contains("source: ./src/prog.bpf.c:11"), tip());
        assertEquals("source: ./src/prog.bpf.c:11", driver.findElement(By.id("sel-source")).getText());
        Browser.screenshot(driver, "hover-source");
        // annotate the BPF program from the selected frame: JIT instructions with BTF source lines
        driver.findElement(By.id("annotate-open")).click();
        Browser.settle(driver);
        String annotation = driver.findElement(By.id("annotate-body")).getText();
        assertTrue(annotation.contains("x = (x ^ (x >> 13)) * 0x9e3779b97f4a7c15ULL"), annotation);
        assertTrue(annotation.contains("43.11%"), "the hottest instruction's share");
        assertTrue(driver.findElement(By.id("annotate-views")).isDisplayed(), "a BPF program's views");
        assertFalse(driver.findElement(By.id("annotate-xlated")).isEnabled(), "no bytecode in this recording");
        Browser.screenshot(driver, "annotate");
        driver.findElement(By.id("annotate-close")).click();
        // back to the top through the breadcrumbs
        driver.findElements(By.cssSelector("#crumbs .crumb")).getFirst().click();
        Browser.settle(driver);
        assertEquals(0L, js("return perfjUi.state.root"));
        // search: matching frames highlighted, the share of samples that match
        driver.findElement(By.id("search")).sendKeys("perfj_");
        Browser.until(() -> !driver.findElement(By.id("search-info")).getText().isEmpty());
        Browser.settle(driver);
        String info = driver.findElement(By.id("search-info")).getText();
        assertTrue(info.matches("\\d+ functions; [0-9.]+% of samples match"), info);
        assertTrue(driver.findElements(By.cssSelector("#flame .fr.match")).size() >= 2, "matches marked");
        Browser.screenshot(driver, "search");
        // linked: the selected function is selected in the top functions table too
        driver.findElement(By.cssSelector("#tabs button[data-view=top]")).click();
        Browser.settle(driver);
        WebElement row = driver.findElement(By.cssSelector("#top tr.selected"));
        assertTrue(row.getText().contains(name), row.getText());
        Browser.screenshot(driver, "top");
        driver.findElement(By.cssSelector("#tabs button[data-view=calltree]")).click();
        Browser.settle(driver);
        driver.findElements(By.cssSelector("#calltree tbody tr")).getFirst().click();
        Browser.settle(driver);
        assertTrue(driver.findElements(By.cssSelector("#calltree tbody tr")).size() > 1, "a row opens");
        assertFalse(driver.findElement(By.id("callers")).getText().isEmpty() && driver.findElement(By.id("callees")).getText().isEmpty(),
                "butterfly of the selected function");
        Browser.screenshot(driver, "calltree");
        driver.findElement(By.cssSelector("#tabs button[data-view=icicle]")).click();
        Browser.settle(driver);
        assertTrue(frames("icicle").size() > 10);
        Browser.screenshot(driver, "icicle");
    }

    /**
     * Annotate shows each source line's total beside the instructions' shares: compute_a's
     * instructions under objdump's ./src/hot.c:21 marker hold 12.21% + 30.69% + 9.57% + 16.50%.
     */
    @Test
    void annotateTotalsEachSourceLine() throws Exception {
        io.perfj.testing.Objdump.assume();
        try (UiServer s = ServeFixtures.start("c-fp")) {
            open(s);
            frame("flame", "compute_a").click();
            Browser.settle(driver);
            driver.findElement(By.id("annotate-open")).click();
            Browser.until(() -> driver.findElement(By.id("annotate-body")).getText().contains("By source line"));
            String body = driver.findElement(By.id("annotate-body")).getText();
            assertTrue(body.contains("68.98% ./src/hot.c:21"), body);
            List<WebElement> totals = driver.findElements(By.cssSelector("#annotate-body td.line-total"));
            assertTrue(totals.stream().anyMatch(t -> t.getText().equals("68.98%")), "the line's total on its marker row");
            Browser.screenshot(driver, "annotate-source-lines");
            driver.findElement(By.id("annotate-close")).click();
        }
    }

    /** The text of the flame graph's tooltip shown now (empty when none is). */
    private static String tip() {
        return (String) js("return [...document.querySelectorAll('.flame-tip')].filter((t) => !t.hidden)"
                + ".map((t) => [...t.children].map((d) => d.textContent).join('\\n')).join('\\n')");
    }

    @Test
    void annotateSwitchesABpfProgramToItsBytecode() throws Exception {
        Recording plain = ServeFixtures.recording("bpf-sys");
        byte[] insns = java.nio.file.Files.readAllBytes(
                io.perfj.testing.Fixtures.file("bpf-xlated/golden/bpf-sys.xlated.bin"));
        Recording rec = new Recording("bpf-sys.data", plain.path(), plain.profile(), plain.options(), -1, insns);
        try (UiServer s = UiServer.start(new Api(rec), "127.0.0.1", 0)) {
            open(s);
            frame("flame", "_perfj_mix").click();
            Browser.settle(driver);
            driver.findElement(By.id("annotate-open")).click();
            Browser.settle(driver);
            WebElement xlated = driver.findElement(By.id("annotate-xlated"));
            assertTrue(xlated.isEnabled());
            xlated.click();
            Browser.settle(driver);
            String body = driver.findElement(By.id("annotate-body")).getText();
            assertTrue(body.contains("(b7) r2 = -1"), body);
            assertTrue(body.contains("[file:./src/prog.bpf.c line_num:16 line_col:21]"), "BTF lines in the bytecode");
            assertTrue(body.contains("73.68%"), "samples moved to the bytecode's instructions");
            assertTrue(xlated.getAttribute("class").contains("active"));
            Browser.screenshot(driver, "annotate-xlated");
            driver.findElement(By.id("annotate-jited")).click();
            Browser.settle(driver);
            assertTrue(driver.findElement(By.id("annotate-body")).getText().contains("43.11%"), "back to the JIT image");
            driver.findElement(By.id("annotate-close")).click();
        }
    }

    @Test
    void aTimeRangeFiltersEveryView() throws Exception {
        open(bpf);
        long before = (Long) js("return perfjUi.flame.data.total");
        @SuppressWarnings("unchecked")
        java.util.Map<String, Number> r = (java.util.Map<String, Number>) js(
                "const r = document.querySelector('#timeline canvas').getBoundingClientRect();"
                        + "return {x: r.left, y: r.top + r.height / 2, w: r.width};");
        int x = r.get("x").intValue() + 5;
        int y = r.get("y").intValue();
        int w = r.get("w").intValue();
        new Actions(driver).moveToLocation(x, y).clickAndHold().moveToLocation(x + w / 3, y).release().perform();
        Browser.settle(driver);
        assertTrue(driver.findElement(By.id("range-info")).getText().startsWith("range "));
        long after = (Long) js("return perfjUi.flame.data.total");
        assertTrue(after > 0 && after < before, before + " -> " + after);
        driver.findElement(By.cssSelector("#tabs button[data-view=top]")).click();
        Browser.settle(driver);
        assertEquals(after, (Long) js("return perfjUi.flame.data.total"));
        Browser.screenshot(driver, "timeline-range");
        driver.findElement(By.id("range-clear")).click();
        Browser.settle(driver);
        // a thread from the thread list filters by its tid
        driver.findElement(By.cssSelector("#tabs button[data-view=threads]")).click();
        Browser.settle(driver);
        Browser.screenshot(driver, "threads");
        driver.findElements(By.cssSelector("#threads tbody tr")).getFirst().click();
        Browser.settle(driver);
        assertFalse(((String) js("return perfjUi.state.filter.tid")).isEmpty());
    }

    @Test
    void diffView() throws Exception {
        try (UiServer two = ServeFixtures.start("c-fp", "two-events")) {
            open(two);
            WebElement tab = driver.findElement(By.id("tab-diff"));
            assertTrue(tab.isDisplayed());
            tab.click();
            Browser.settle(driver);
            assertTrue(frames("diffflame").size() > 3);
            List<WebElement> rows = driver.findElements(By.cssSelector("#changed tbody tr"));
            assertFalse(rows.isEmpty());
            assertTrue(rows.getFirst().getText().matches("(?s).*[+-][0-9.]+%.*"), rows.getFirst().getText());
            Browser.screenshot(driver, "diff");
        }
    }

    @Test
    void standaloneHtmlFlameGraph(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) throws Exception {
        io.perfj.profile.Profile p = ServeFixtures.recording("hostile").profile();
        java.nio.file.Path html = tmp.resolve("hostile.html");
        try (var o = java.nio.file.Files.newOutputStream(html)) {
            new FlameHtml(io.perfj.profile.FlameTree.of(p, i -> true, true), "hostile <b>title</b>", "ns").write(o);
        }
        String text = java.nio.file.Files.readString(html);
        assertFalse(text.contains("onerror=alert") && !text.contains("\\u003cimg src=x onerror=alert(1)\\u003e"),
                "names only as escaped JSON");
        assertFalse(text.contains("</script><img"));
        assertFalse(text.matches("(?s).*(src|href)=\"(https?:)?//.*"), "nothing fetched");
        driver.get(html.toUri().toString());
        Browser.until(() -> !frames("flame").isEmpty());
        assertEquals("hostile <b>title</b>", driver.findElement(By.id("title")).getText());
        WebElement jit = frame("flame", "onerror=alert(1)>");
        assertEquals("</script><img src=x onerror=alert(1)>", jit.getAttribute("textContent"));
        frame("flame", "<svg/onload=1>").click();
        assertEquals("<svg/onload=1>", frames("flame").getFirst().getAttribute("textContent"), "zoomed in the page");
        driver.findElement(By.id("search")).sendKeys("script");
        Browser.until(() -> !driver.findElement(By.id("search-info")).getText().isEmpty());
        assertEquals("matched 100.00%", driver.findElement(By.id("search-info")).getText());
        assertEquals(0L, js("return document.querySelectorAll('img, svg, b').length"));
        assertThrows(NoAlertPresentException.class, () -> driver.switchTo().alert());
        Browser.screenshot(driver, "flamegraph-html");
        // with its recording's source positions, the page's hover names them
        Recording cfp = ServeFixtures.recording("c-fp");
        java.nio.file.Path withSources = tmp.resolve("c-fp.html");
        try (var o = java.nio.file.Files.newOutputStream(withSources)) {
            new FlameHtml(io.perfj.profile.FlameTree.of(cfp.profile(), i -> true, true), "c-fp", "ns", cfp).write(o);
        }
        driver.get(withSources.toUri().toString());
        Browser.until(() -> !frames("flame").isEmpty());
        new Actions(driver).moveToElement(frame("flame", "compute_a")).perform();
        Browser.until(() -> !tip().isEmpty());
        assertTrue(tip().contains("source: ./src/hot.c:18"), tip());
    }

    @Test
    void hostileNamesAreText() throws Exception {
        try (UiServer hostile = ServeFixtures.start("hostile")) {
            driver.get(hostile.url());
            Browser.settle(driver);
            String jit = "</script><img src=x onerror=alert(1)>";
            WebElement f = frame("flame", jit);
            assertEquals(jit, f.getAttribute("textContent"));
            f.click();
            Browser.settle(driver);
            driver.findElement(By.cssSelector("#tabs button[data-view=threads]")).click();
            Browser.settle(driver);
            assertTrue(driver.findElement(By.id("threads")).getText().contains("<svg/onload=1>"));
            new Actions(driver).moveToElement(driver.findElement(By.id("f-comm"))).perform();
            assertEquals(0L, js("return document.querySelectorAll('img, svg, script:not([src])').length"),
                    "no element made from a name");
            assertThrows(NoAlertPresentException.class, () -> driver.switchTo().alert());
            Browser.screenshot(driver, "hostile");
        }
    }
}
