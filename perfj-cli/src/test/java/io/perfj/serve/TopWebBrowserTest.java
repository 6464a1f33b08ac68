package io.perfj.serve;

import io.perfj.record.Recorder;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code perfj top --web -g}: the command (a JVM of its own, the tests' class path) profiling
 * {@code bin/hot} live, the page in headless Chromium showing hot's loops and their caller main
 * in the flame graph and the top table, and the sample count on the page growing between two reads (the page asks
 * again every second). Skipped without Chromium and chromedriver, or where perf_event_open is
 * not permitted.
 */
class TopWebBrowserTest {
    private static final Pattern SAMPLES = Pattern.compile("\\((\\d+) samples\\)");

    private static long samples(ChromeDriver d) {
        Matcher m = SAMPLES.matcher(text(d, "recording"));
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    /** The text of the element with this id, asked in one script (an element found first may be redrawn before it is read). */
    private static String text(ChromeDriver d, String id) {
        Object t = d.executeScript("const e = document.getElementById(arguments[0]); return e ? e.textContent.trim() : '';", id);
        return t == null ? "" : t.toString();
    }

    /**
     * Clicks the top table's row of {@code symbol}: found by a script and clicked as a user
     * would; when the second's redraw replaces the row between the two, found again.
     */
    private static boolean clickRow(ChromeDriver d, String symbol) {
        try {
            Object row = d.executeScript("return Array.from(document.querySelectorAll('#top tbody tr'))"
                    + ".find(tr => tr.textContent.includes(arguments[0])) || null;", symbol);
            if (!(row instanceof WebElement tr)) {
                return false;
            }
            tr.click();
            return true;
        } catch (StaleElementReferenceException e) {
            return false;
        }
    }

    /** Whether an element matching {@code css} holds {@code text}: asked in one script, as the live page redraws every second. */
    private static boolean shows(ChromeDriver d, String css, String text) {
        return Boolean.TRUE.equals(d.executeScript("return Array.from(document.querySelectorAll(arguments[0]))"
                + ".some(e => e.textContent.includes(arguments[1]));", css, text));
    }

    @Test
    void thePageShowsHotsLoopsAndItsSampleCountGrows() throws Exception {
        Assumptions.assumeTrue(Recorder.supported(), "perf_event_open is called on Linux x86-64/aarch64 only");
        ChromeDriver driver = Browser.start();
        Process hot = new ProcessBuilder(Fixtures.file("bin/hot").toString(), "30")
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        Process top = null;
        try {
            String jvm = ProcessHandle.current().info().command().orElse("java");
            top = new ProcessBuilder(List.of(jvm, "--enable-native-access=ALL-UNNAMED", "-cp",
                    System.getProperty("java.class.path"), "io.perfj.cli.Main", "top", "--web", "-g", "-p",
                    Long.toString(hot.pid()), "-e", "cpu-clock", "-F", "999")).start();
            Process t = top;
            // threads of their own: the common pool may have one worker on a small machine
            ExecutorService readers = Executors.newCachedThreadPool(r -> {
                Thread th = new Thread(r, "top-web-test-reader");
                th.setDaemon(true);
                return th;
            });
            CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> {
                try {
                    return new String(t.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
                } catch (java.io.IOException e) {
                    return e.toString();
                }
            }, readers);
            BufferedReader out = new BufferedReader(new InputStreamReader(top.getInputStream(), StandardCharsets.UTF_8));
            String url = CompletableFuture.supplyAsync(() -> {
                try {
                    return out.readLine();
                } catch (java.io.IOException e) {
                    return null;
                }
            }, readers).get(60, TimeUnit.SECONDS);
            if (url == null) {
                top.waitFor(10, TimeUnit.SECONDS);
                String e = err.get(10, TimeUnit.SECONDS);
                Assumptions.assumeFalse(e.contains("perf_event_paranoid"), "perf_event_open is not permitted here: " + e.strip());
                throw new AssertionError("top --web printed no address: " + e);
            }
            assertTrue(url.matches("http://127\\.0\\.0\\.1:\\d+/[0-9a-f]{32}/"), url);
            driver.get(url);
            Browser.settle(driver);
            Browser.until(() -> shows(driver, "#flame .fr", "compute_a") && shows(driver, "#flame .fr", "leaf_mix"));
            // -g: the flame graph has the callers, which no sample is in (main calls both loops)
            Browser.until(() -> shows(driver, "#flame .fr", "main"));
            long first = samples(driver);
            assertTrue(first > 0, text(driver, "recording"));
            Browser.until(() -> samples(driver) > first);
            driver.findElement(By.cssSelector("#tabs button[data-view=top]")).click();
            Browser.until(() -> shows(driver, "#view-top", "compute_a") && shows(driver, "#view-top", "leaf_mix"));
            long before = samples(driver);
            Browser.until(() -> samples(driver) > before);
            // annotate compute_a from the live sums: its instructions with their shares, hot.c's lines
            Browser.until(() -> clickRow(driver, "compute_a"));
            Browser.until(() -> text(driver, "sel-name").equals("compute_a"));
            assertTrue(driver.findElement(By.id("annotate-open")).isEnabled(), "Annotate is enabled for a live profile");
            driver.findElement(By.id("annotate-open")).click();
            Browser.until(() -> text(driver, "annotate-body").contains("hot.c"));
            String annotation = text(driver, "annotate-body");
            assertTrue(annotation.contains("compute_a") && annotation.contains("%"), annotation);
            Browser.screenshot(driver, "top-web-annotate");
            Browser.screenshot(driver, "top-web");
        } finally {
            if (top != null) {
                top.destroy();
                top.waitFor(10, TimeUnit.SECONDS);
            }
            hot.destroy();
            hot.waitFor(5, TimeUnit.SECONDS);
            driver.quit();
        }
    }
}
