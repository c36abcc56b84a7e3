package io.derive.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import jakarta.json.Json;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The operator's console in a real browser: Debian's headless Chromium driven by Selenium through
 * {@code /usr/bin/chromedriver} (never a downloaded driver). Screenshots go to
 * {@code target/screenshots}. Where Chromium is not installed (.ci/run installs it) the tests
 * are skipped, saying so.
 */
@ExtendWith(ArquillianExtension.class)
class ConsoleIT {

    private static final String BASE = "http://localhost:" + System.getProperty("derive.http.port", "9180");
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Path SCREENSHOTS = Path.of("target", "screenshots");
    private static final String ADMIN = "Basic " + Base64.getEncoder().encodeToString("admin:derive".getBytes(StandardCharsets.UTF_8));
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    /** Names of this run's own (the server's database outlives a run of the tests in one build directory). */
    private static final String VIEW = "console_" + Long.toString(System.currentTimeMillis(), 36);
    private static final String SOURCE = VIEW + "_src";

    private WebDriver browser;

    @Deployment(testable = false)
    static EnterpriseArchive deployment() {
        return TestApplication.ear();
    }

    @BeforeEach
    void startBrowser() throws Exception {
        assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "the console's browser tests need Debian's chromium and chromium-driver (apt-get install chromium chromium-driver)");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toString());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--window-size=1280,800",
                "--user-data-dir=" + Files.createTempDirectory("derive-console-chromium"));
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile()).build();
        browser = new ChromeDriver(service, options);
        Files.createDirectories(SCREENSHOTS);
    }

    @AfterEach
    void stopBrowser(org.junit.jupiter.api.TestInfo test) throws Exception {
        if (browser != null) {
            screenshot("last-" + test.getTestMethod().orElseThrow().getName());
            browser.quit();
        }
    }

    private static void sql(String statement) throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(BASE + "/derive/api/sql"))
                .header("Authorization", ADMIN).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(Json.createObjectBuilder().add("sql", statement).build().toString()))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(statement + ": " + response.body()).isEqualTo(200);
    }

    private void screenshot(String name) throws Exception {
        byte[] png = ((ChromeDriver) browser).getScreenshotAs(OutputType.BYTES);
        Files.write(SCREENSHOTS.resolve(name + ".png"), png);
    }

    private void signIn(String user) {
        browser.get(BASE + "/derive/");
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(20));
        wait.until(b -> b.getCurrentUrl().contains("login.html"));
        browser.findElement(By.id("username")).sendKeys(user);
        browser.findElement(By.id("password")).sendKeys("derive");
        browser.findElement(By.id("sign-in")).click();
        wait.until(b -> b.findElement(By.id("user")).getText().startsWith(user));
    }

    /**
     * What {@code expression} evaluates to in the page, read in one step: the console renders
     * anew at every poll, so an element found in one step may be gone by the next.
     */
    private Object read(String expression) {
        return ((JavascriptExecutor) browser).executeScript("return " + expression + ";");
    }

    private String text(String selector) {
        return (String) read("document.querySelector(\"" + selector + "\")?.textContent ?? null");
    }

    private long points(String view) {
        return (Long) read("document.querySelectorAll(\"#chart circle[data-view='" + view + "']\").length");
    }

    @Test
    void anAdministratorRefreshesAViewFromTheConsoleAndWatchesItsProgressRowsAndChart() throws Exception {
        sql("create table " + SOURCE + " (k integer primary key, v integer not null)");
        sql("insert into " + SOURCE + " select value, value from generate_series(1, 300000)");
        sql("create materialized view " + VIEW + " as select k, v from " + SOURCE);
        // Stale, and so not maintained: the 10,000 rows added next reach the view only by a refresh.
        // 31 chunks of the job's default 10,000 rows: enough for the console to show several percents.
        sql("alter table " + SOURCE + " alter column v set data type real");
        sql("insert into " + SOURCE + " select value, 0.5 from generate_series(300001, 310000)");

        signIn("admin");
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(30));
        String rows = "#views tr[data-view='" + VIEW + "'] td.rows";
        wait.until(b -> text(rows) != null);
        assertThat(text(rows)).isEqualTo("300,000");
        long pointsBefore = points(VIEW);
        screenshot("console-before-refresh");

        read("document.getElementById('refresh-" + VIEW + "').click()");

        List<Double> seen = new ArrayList<>();
        String running = ".run[data-view='" + VIEW + "'] .percent";
        String completed = "#jobs tr[data-view='" + VIEW + "'] .status.completed";
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (text(completed) == null && System.nanoTime() < deadline) {
            Object percent = read("document.querySelector(\"" + running + "\")?.dataset.percent ?? null");
            if (percent != null) {
                double value = Double.parseDouble((String) percent);
                if (value > 0 && value < 100 && (seen.isEmpty() || seen.get(seen.size() - 1) != value)) {
                    seen.add(value);
                    if (seen.size() == 2) {
                        screenshot("console-refresh-running");
                    }
                }
            }
            Thread.sleep(50);
        }

        assertThat(seen).as("progress strictly between 0 % and 100 %").hasSizeGreaterThanOrEqualTo(3).isSorted()
                .doesNotHaveDuplicates();
        assertThat(read("document.querySelector(\"#jobs tr[data-view='" + VIEW + "'] td.percent\").dataset.percent"))
                .isEqualTo("100");
        wait.until(b -> "310,000".equals(text(rows)));
        wait.until(b -> points(VIEW) == pointsBefore + 1);
        screenshot("console-after-refresh");
    }

    @Test
    void aViewsRefreshScheduleIsShownWithItsNextTime() throws Exception {
        sql("create table if not exists scheduled_src (k integer primary key)");
        sql("create materialized view if not exists scheduled as select k from scheduled_src");
        sql("alter materialized view scheduled set refresh schedule '0 3 1 1 *'");

        signIn("monitor");
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(30));
        String schedule = "#views tr[data-view='scheduled'] td.schedule";
        wait.until(b -> text(schedule) != null);
        assertThat(text(schedule)).startsWith("0 3 1 1 * · next ").doesNotContain("null").doesNotContain("Invalid");
        screenshot("console-schedule");
    }

    @Test
    void aMonitorSeesTheConsoleWithoutAnyButtonThatChangesSomething() throws Exception {
        sql("create table if not exists monitored_src (k integer primary key, v integer not null)");
        sql("create materialized view if not exists monitored as select k, v from monitored_src");

        signIn("monitor");
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(30));
        wait.until(b -> text("#views tr[data-view='monitored'] td.rows") != null);
        screenshot("console-monitor");

        assertThat(browser.findElement(By.id("user")).getText()).isEqualTo("monitor (monitor)");
        assertThat(read("document.querySelectorAll('main button').length")).as("buttons that change something").isEqualTo(0L);
    }
}
