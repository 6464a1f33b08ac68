package io.perfj.serve;

import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.BooleanSupplier;

/**
 * The system's Chromium driven through the system's chromedriver (Debian's {@code chromium} and
 * {@code chromium-driver}; other locations by {@code -Dperfj.chromium=} and
 * {@code -Dperfj.chromedriver=}), headless. Selenium Manager is never asked to download a
 * driver: the driver's path is given. Absent either program, the browser tests are skipped
 * and say so.
 */
final class Browser {
    static final Path CHROMIUM = Path.of(System.getProperty("perfj.chromium", "/usr/bin/chromium"));
    static final Path DRIVER = Path.of(System.getProperty("perfj.chromedriver", "/usr/bin/chromedriver"));

    private Browser() {
    }

    /** A headless browser; skips the calling test class when Chromium or chromedriver is not installed. */
    static ChromeDriver start() {
        Assumptions.assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(DRIVER),
                "browser tests need Chromium and chromedriver (Debian: apt-get install chromium chromium-driver); not found at "
                        + CHROMIUM + " / " + DRIVER);
        System.setProperty("webdriver.chrome.driver", DRIVER.toString());
        ChromeOptions o = new ChromeOptions();
        o.setBinary(CHROMIUM.toFile());
        o.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1400,1000", "--no-first-run", "--disable-extensions", "--lang=en-US");
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(DRIVER.toFile())
                .usingAnyFreePort().build();
        return new ChromeDriver(service, o);
    }

    /** Waits until the page has no API call in flight (body's data-busy is 0). */
    static void settle(ChromeDriver d) {
        until(() -> {
            Object err = d.executeScript("return document.body && document.body.dataset.error");
            if (err != null) {
                throw new AssertionError("page error: " + err);
            }
            return "0".equals(d.executeScript("return document.body && document.body.dataset.busy"));
        });
    }

    /** Polls {@code condition} for up to 30 s. */
    static void until(BooleanSupplier condition) {
        long end = System.nanoTime() + 30_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("timed out waiting for the page");
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    /**
     * Saves a screenshot as {@code NAME.png} under {@code -Dperfj.screenshots=DIR} (how
     * docs/screenshots is made), else under target/screenshots.
     */
    static void screenshot(WebDriver d, String name) throws IOException {
        Path dir = Path.of(System.getProperty("perfj.screenshots", "target/screenshots"));
        Files.createDirectories(dir);
        File f = ((TakesScreenshot) d).getScreenshotAs(OutputType.FILE);
        Files.copy(f.toPath(), dir.resolve(name + ".png"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
}
