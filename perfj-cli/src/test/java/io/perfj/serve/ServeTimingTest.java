package io.perfj.serve;

import io.perfj.perfdata.PerfData;
import io.perfj.profile.Profile;
import io.perfj.session.Session;
import io.perfj.session.SessionOptions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The speed targets of issue 12 on a large recording given by {@code -Dperfj.serve.big=FILE}
 * (docs/BENCHMARKS.md, "serve"): from the server being ready to the first flame graph drawn in
 * Chromium (within 2 s), and a zoom and a search each answered and drawn (within 100 ms).
 * Without the property (no large recording is committed) it is skipped.
 */
class ServeTimingTest {
    @Test
    void firstFlameGraphZoomAndSearch() throws Exception {
        String big = System.getProperty("perfj.serve.big");
        Assumptions.assumeTrue(big != null && Files.isRegularFile(Path.of(big)),
                "timing needs -Dperfj.serve.big=FILE (a large recording; none is committed)");
        Path file = Path.of(big);
        long t0 = System.nanoTime();
        Profile p;
        try (PerfData data = PerfData.open(file)) {
            p = Profile.read(Session.of(data, SessionOptions.defaults()), 127);
        }
        double read = (System.nanoTime() - t0) / 1e9;
        ChromeDriver d = Browser.start();
        Api api = new Api(new Recording(file.toString(), file, p, SessionOptions.defaults()));
        long w0 = System.nanoTime();
        api.warm();
        double warm = (System.nanoTime() - w0) / 1e9;
        try (UiServer s = UiServer.start(api, "127.0.0.1", 0)) {
            long ready = System.nanoTime();
            d.get(s.url());
            Browser.settle(d);
            double first = (System.nanoTime() - ready) / 1e9;
            int frames = d.findElements(By.cssSelector("#flame .fr")).size();
            // zoom three times into the widest frame under the root, then back; search three words
            double[] zoom = new double[3];
            double[] zoomWall = new double[3];
            for (int k = 0; k < 3; k++) {
                WebElement widest = null;
                double w = 0;
                for (WebElement e : d.findElements(By.cssSelector("#flame .fr"))) {
                    double width = e.getSize().getWidth();
                    if (!e.getAttribute("textContent").equals(d.findElements(By.cssSelector("#flame .fr")).getFirst()
                            .getAttribute("textContent")) && width > w) {
                        widest = e;
                        w = width;
                    }
                }
                long z0 = System.nanoTime();
                widest.click();
                Browser.settle(d);
                zoom[k] = ((Number) d.executeScript("return perfjUi.state.timing.zoom")).doubleValue() / 1e3;
                zoomWall[k] = (System.nanoTime() - z0) / 1e9;
            }
            String[] words = {"sched", "malloc", "e"};
            double[] search = new double[3];
            double[] searchWall = new double[3];
            for (int k = 0; k < 3; k++) {
                long q0 = System.nanoTime();
                d.executeScript("return perfjUi.search(arguments[0])", words[k]);
                Browser.settle(d);
                search[k] = ((Number) d.executeScript("return perfjUi.state.timing.search")).doubleValue() / 1e3;
                searchWall[k] = (System.nanoTime() - q0) / 1e9;
            }
            System.out.println(String.format(Locale.ROOT,
                    "serve timing: %s: %d samples, %d stacks; read %.2f s; first views aggregated %.2f s; ready -> first flame graph %.3f s (%d frames); "
                            + "zoom %s s in the page (%s s as the test waited); search %s s in the page (%s s)", file, p.sampleCount(),
                    p.stacks().size(), read, warm, first, frames, java.util.Arrays.toString(zoom),
                    java.util.Arrays.toString(zoomWall), java.util.Arrays.toString(search),
                    java.util.Arrays.toString(searchWall)));
            assertTrue(first < 2.0, "first flame graph in " + first + " s");
        } finally {
            d.quit();
        }
    }
}
