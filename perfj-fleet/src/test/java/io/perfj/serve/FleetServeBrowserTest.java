package io.perfj.serve;

import io.perfj.fleet.FleetFixtures;
import io.perfj.fleet.FleetFlame;
import io.perfj.fleet.FleetReport;
import io.perfj.fleet.FleetSpark;
import io.perfj.profile.Profile;
import io.perfj.testing.Fixtures;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code perfj fleet serve}'s UI in a real Chromium over a fleet of two hosts (c-fp.data on web1,
 * hot-20k.data on web2, both of the program hot): the flame graph of both hosts' stacks, the
 * hosts' threads, and the views that need the file answering that a fleet has none.
 */
class FleetServeBrowserTest {
    private static ChromeDriver driver;
    private static SparkSession spark;
    private static UiServer server;
    private static Profile profile;

    @BeforeAll
    static void start() throws Exception {
        // first: skips the class without Chromium before Spark is started
        driver = Browser.start();
        Path dir = Files.createDirectories(Path.of("target", "fleet-test", "serve")).toAbsolutePath();
        for (String[] h : new String[][]{{"web1", "c-fp"}, {"web2", "hot-20k"}}) {
            Path d = Files.createDirectories(dir.resolve(h[0]));
            Files.copy(Fixtures.recording(h[1]), d.resolve(h[1] + ".data"), StandardCopyOption.REPLACE_EXISTING);
        }
        spark = FleetSpark.start("local[2]", null);
        profile = FleetFlame.profile(FleetReport.samples(spark, dir.toString(), FleetFixtures.sourceOptions()),
                null, null, true);
        server = UiServer.start(new Api(Recording.ofFleet("fleet DIR", profile, -1)), "127.0.0.1", 0);
    }

    @AfterAll
    static void stop() {
        if (driver != null) {
            driver.quit();
        }
        if (server != null) {
            server.close();
        }
        if (spark != null) {
            spark.stop();
        }
    }

    private static Object js(String script) {
        return driver.executeScript(script);
    }

    @Test
    void flameGraphOfBothHostsShowsHotsFunctions() throws Exception {
        driver.get(server.url());
        Browser.settle(driver);
        long samples = 0;
        for (int i = 0; i < profile.sampleCount(); i++) {
            samples += profile.count(i);
        }
        assertTrue(samples > 20_000 && samples > profile.sampleCount(), samples + " samples");
        assertEquals("fleet DIR (" + samples + " samples)", driver.findElement(By.id("recording")).getText());
        assertFalse(driver.findElement(By.id("timeline-box")).isDisplayed(), "no timeline of sums");
        List<WebElement> frames = driver.findElements(By.cssSelector("#flame .fr"));
        assertTrue(frames.size() > 5, "frames drawn: " + frames.size());
        assertEquals("all", frames.getFirst().getAttribute("textContent"));
        List<String> names = frames.stream().map(e -> e.getAttribute("textContent")).toList();
        for (String fn : List.of("main", "work", "compute_a", "compute_b")) {
            assertTrue(names.contains(fn), fn + " drawn: " + names);
        }
        // the graph's total is both recordings' cpu-clock periods
        long total = 0;
        for (int i = 0; i < profile.sampleCount(); i++) {
            total += profile.weight(i);
        }
        assertEquals(total, ((Number) js("return perfjUi.flame.data.total")).longValue());
        Browser.screenshot(driver, "fleet-flame");
        // no annotate for a fleet: the button says why
        WebElement annotate = driver.findElement(By.id("annotate-open"));
        assertFalse(annotate.isEnabled());
        assertTrue(annotate.getAttribute("title").contains("not available for a fleet"));
        // the threads are the hosts'
        driver.findElement(By.cssSelector("#tabs button[data-view=threads]")).click();
        Browser.settle(driver);
        String threads = driver.findElement(By.id("threads")).getText();
        assertTrue(threads.contains("web1: hot") && threads.contains("web2: hot"), threads);
        Browser.screenshot(driver, "fleet-threads");
    }

    /** The samples' weight of one host (null: every host). */
    private static long weightOf(String host) {
        long w = 0;
        for (int i = 0; i < profile.sampleCount(); i++) {
            if (host == null || host.equals(profile.host(profile.thread(i)))) {
                w += profile.weight(i);
            }
        }
        return w;
    }

    @Test
    void theHostFilterSelectsOneHostsThreads() throws Exception {
        driver.get(server.url());
        Browser.settle(driver);
        WebElement select = driver.findElement(By.id("f-host"));
        assertTrue(select.isDisplayed(), "a fleet's page has a host filter");
        List<String> options = select.findElements(By.tagName("option")).stream()
                .map(o -> o.getAttribute("value")).toList();
        assertEquals(List.of("", "web1", "web2"), options);
        long all = weightOf(null);
        long web2 = weightOf("web2");
        assertTrue(web2 > 0 && web2 < all, web2 + " of " + all);
        js("const s = document.getElementById('f-host'); s.value = 'web2'; s.dispatchEvent(new Event('change'));");
        Browser.settle(driver);
        assertEquals(web2, ((Number) js("return perfjUi.flame.data.total")).longValue());
        // a thread of the threads table selects its host and tid
        driver.findElement(By.id("f-reset")).click();
        Browser.settle(driver);
        assertEquals(all, ((Number) js("return perfjUi.flame.data.total")).longValue());
        driver.findElement(By.cssSelector("#tabs button[data-view=threads]")).click();
        Browser.settle(driver);
        for (WebElement row : driver.findElements(By.cssSelector("#threads tbody tr"))) {
            if (row.getText().contains("web1: ")) {
                row.click();
                break;
            }
        }
        Browser.settle(driver);
        assertEquals("web1", select.getAttribute("value"));
        // the same pid and tid on the other host are not counted
        HttpClient c = HttpClient.newHttpClient();
        String tid = driver.findElement(By.id("f-tid")).getAttribute("value");
        long thread = 0;
        for (int i = 0; i < profile.sampleCount(); i++) {
            int t = profile.thread(i);
            if ("web1".equals(profile.host(t)) && String.valueOf(profile.tid(t)).equals(tid)) {
                thread += profile.weight(i);
            }
        }
        HttpResponse<String> r = c.send(HttpRequest.newBuilder(URI.create(server.url()
                + "api/flame?event=0&host=web1&tid=" + tid)).build(), HttpResponse.BodyHandlers.ofString());
        assertTrue(thread > 0 && r.body().matches("(?s).*\"total\":" + thread + "\\D.*"), thread + ": " + r.body());
        Browser.screenshot(driver, "fleet-host-filter");
    }

    @Test
    void viewsThatReadTheFileSayAFleetHasNone() throws Exception {
        HttpClient c = HttpClient.newHttpClient();
        for (String view : List.of("annotate", "source")) {
            HttpResponse<String> r = c.send(HttpRequest.newBuilder(URI.create(server.url() + "api/" + view + "?fn=0"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(400, r.statusCode(), r.body());
            assertEquals(view + ": not available for a fleet (its samples come from many recordings; "
                    + "serve one of them for this view)\n", r.body());
        }
        HttpResponse<String> meta = c.send(HttpRequest.newBuilder(URI.create(server.url() + "api/meta")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertTrue(meta.body().contains("\"fleet\":true") && meta.body().contains("\"host\":\"web2\""), meta.body());
    }
}
