package io.derive.it.server;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
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
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;

import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;

import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;

/**
 * A Liberty server that a test starts, kills and restarts itself, as an operator or a power cut
 * would: the process is this test's child ({@code wlp/bin/server run}, which execs the server
 * JVM), readiness is {@code /health/ready} answering UP, and a kill is SIGKILL of that JVM.
 *
 * <p>The build creates the server (module {@code arquillian-tests}, pre-integration-test): the
 * sample server's configuration plus {@code apps/derive.ear}, on ports of its own, so it runs
 * beside the Arquillian-managed one. A test {@linkplain #reset() resets} it, {@linkplain
 * #deploy deploys} the application, may {@linkplain #configure add configuration}, and starts it
 * with the system properties of that start only. Every wait is bounded in time and count, and
 * only the loopback interface is ever contacted. Not thread-safe: one test drives it.
 */
public final class LibertyServer implements AutoCloseable {

    /** The sample server's demo administrator, for the admin API. */
    public static final String ADMIN_AUTHORIZATION = "Basic "
            + Base64.getEncoder().encodeToString("admin:derive".getBytes(StandardCharsets.UTF_8));

    private static final Logger LOG = System.getLogger(LibertyServer.class.getName());
    /** Where {@link #moveTransactionLogAside()} puts the transaction log, beside the server's own. */
    private static final String TRANLOG_ASIDE = "tranlog-aside";
    // A fresh start takes 10-20 s here, several times that on a loaded machine.
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(180);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(30);
    // Liberty logs a warning for each DOWN answer: poll often enough to see a short DOWN, no more.
    private static final Duration POLL_INTERVAL = Duration.ofMillis(200);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(Long.getLong("derive.request.timeout.seconds", 60));
    private static final Duration HEALTH_REQUEST_TIMEOUT = Duration.ofSeconds(10);
    private static final int MAX_POLLS = (int) (READY_TIMEOUT.toMillis() / POLL_INTERVAL.toMillis());
    private static final int LOG_TAIL_LINES = 60;
    private static LibertyServer fromBuild;

    private final Path wlpHome;
    private final String name;
    private final int httpPort;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private Process process;
    private long launchedNanos;

    private LibertyServer(Path wlpHome, String name, int httpPort) {
        this.wlpHome = wlpHome;
        this.name = name;
        this.httpPort = httpPort;
        // A test run that dies must not leave a server behind on the machine.
        Runtime.getRuntime().addShutdownHook(new Thread(this::killIfRunning, "kill " + name));
    }

    /**
     * The server the build created for such tests, as failsafe describes it: its Liberty install
     * ({@code derive.harness.wlp}), name ({@code derive.harness.server}) and HTTP port
     * ({@code derive.harness.http.port}). The same instance at every call, so that the test
     * classes of a run share one owner of the server's process.
     */
    public static synchronized LibertyServer fromBuild() {
        if (fromBuild == null) {
            fromBuild = new LibertyServer(Path.of(required("derive.harness.wlp")), required("derive.harness.server"),
                    Integer.parseInt(required("derive.harness.http.port")));
        }
        return fromBuild;
    }

    /** The server's directory: its configuration and, by Liberty's default, its output (logs, databases, tranlog). */
    public Path directory() {
        return wlpHome.resolve("usr/servers").resolve(name);
    }

    /**
     * Deletes what earlier runs left — databases, transaction log, logs, deployed applications,
     * configuration added with {@link #configure} — so that the next start begins from nothing.
     */
    public void reset() {
        requireCreated();
        requireStopped("reset");
        for (String left : List.of("databases", "tranlog", TRANLOG_ASIDE, "logs", "apps", "configDropins")) {
            deleteTree(directory().resolve(left));
        }
    }

    /**
     * Moves the transaction log ({@code tranlog}) aside, as if it were lost: at the next start the
     * transaction manager knows nothing of the transactions it logged.
     */
    public void moveTransactionLogAside() {
        requireStopped("move the transaction log of");
        deleteTree(directory().resolve(TRANLOG_ASIDE));
        move(directory().resolve("tranlog"), directory().resolve(TRANLOG_ASIDE));
    }

    /** Puts back the transaction log {@link #moveTransactionLogAside()} moved, in place of the one written since. */
    public void restoreTransactionLog() {
        requireStopped("restore the transaction log of");
        deleteTree(directory().resolve("tranlog"));
        move(directory().resolve(TRANLOG_ASIDE), directory().resolve("tranlog"));
    }

    /** {@link #reset()}, {@link #deploy} {@code ear}, then {@link #start()}: a server that begins from nothing. */
    public Readiness startAfresh(EnterpriseArchive ear) {
        reset();
        deploy(ear);
        return start();
    }

    /** Puts {@code ear} where the server's configuration deploys it from: {@code apps/derive.ear}. */
    public void deploy(EnterpriseArchive ear) {
        Path apps = directory().resolve("apps");
        createDirectories(apps);
        ear.as(ZipExporter.class).exportTo(apps.resolve("derive.ear").toFile(), true);
    }

    /**
     * Adds configuration to the server's own, from the next start on: {@code serverXml} (a whole
     * {@code <server>} document) as Liberty's override drop-in {@code fileName}.xml, whose
     * elements merge into those of the same id.
     */
    public void configure(String fileName, String serverXml) {
        Path overrides = directory().resolve("configDropins/overrides");
        createDirectories(overrides);
        write(overrides.resolve(fileName + ".xml"), serverXml);
    }

    /** {@link #start(Map)} with no system properties of its own. */
    public Readiness start() {
        return start(Map.of());
    }

    /**
     * Launches the server JVM with these system properties (for this start only) and waits until
     * it is {@linkplain #waitReady() ready}.
     *
     * @throws IllegalStateException with the server's log tail when it ends or is not ready in time
     */
    public Readiness start(Map<String, String> systemProperties) {
        launch(systemProperties);
        return waitReady();
    }

    /**
     * Launches the server JVM with these system properties (for this start only) and returns at
     * once; {@link #awaitReadiness} waits for what readiness should answer.
     */
    public void launch(Map<String, String> systemProperties) {
        requireCreated();
        requireStopped("start");
        String jvmArgs = jvmArgs(systemProperties);
        Path logs = directory().resolve("logs");
        createDirectories(logs);
        ProcessBuilder builder = serverCommand("run")
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logs.resolve("process.log").toFile()));
        builder.environment().put("JVM_ARGS", jvmArgs);
        try {
            launchedNanos = System.nanoTime();
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot launch server " + name, e);
        }
        LOG.log(Level.INFO, "launched server {0} (pid {1}) {2}", name, process.pid(), jvmArgs);
    }

    /**
     * Polls {@code /health/ready} until it answers UP, recording every distinct answer.
     *
     * @throws IllegalStateException with the answers and the server's log tail when the server
     *         ends first or is not ready within the start timeout
     */
    public Readiness waitReady() {
        List<HealthAnswer> answers = pollReadiness(HealthAnswer::isUp, "ready");
        Readiness readiness = new Readiness(Duration.ofNanos(System.nanoTime() - launchedNanos), answers);
        LOG.log(Level.INFO, "server {0} {1}", name, readiness);
        return readiness;
    }

    /**
     * Polls {@code /health/ready} until its answer is {@code awaited} and returns that answer.
     *
     * @param what what the awaited answer means, for the failure message
     * @throws IllegalStateException with the answers and the server's log tail when the server
     *         ends first or does not answer so within the start timeout
     */
    public HealthAnswer awaitReadiness(Predicate<HealthAnswer> awaited, String what) {
        List<HealthAnswer> answers = pollReadiness(awaited, what);
        HealthAnswer answer = answers.get(answers.size() - 1);
        LOG.log(Level.INFO, "server {0} {1}: {2}", name, what, answer);
        return answer;
    }

    /** Every distinct answer of {@code /health/ready} until one is {@code awaited}, that one last. */
    private List<HealthAnswer> pollReadiness(Predicate<HealthAnswer> awaited, String what) {
        requireRunning("wait for");
        List<HealthAnswer> answers = new ArrayList<>();
        long deadline = launchedNanos + READY_TIMEOUT.toNanos();
        for (int poll = 0; poll < MAX_POLLS && System.nanoTime() < deadline; poll++) {
            if (!process.isAlive()) {
                throw failure("ended with exit status " + process.exitValue() + " before it was " + what + "; readiness answered "
                        + answers);
            }
            HealthAnswer answer = health("/health/ready");
            if (!answers.isEmpty() && answers.get(answers.size() - 1).sameAs(answer)) {
                answers.set(answers.size() - 1, answers.get(answers.size() - 1).seenAgain());
            } else {
                answers.add(answer);
            }
            if (awaited.test(answer)) {
                return answers;
            }
            sleep(POLL_INTERVAL);
        }
        throw failure("was not " + what + " within " + READY_TIMEOUT.toSeconds() + " s; readiness answered " + answers);
    }

    /** Asks one health endpoint once ({@code /health}, {@code /health/ready}, {@code /health/live}). */
    public HealthAnswer health(String path) {
        Duration after = Duration.ofNanos(System.nanoTime() - launchedNanos);
        HttpResponse<String> response;
        try {
            response = http.send(HttpRequest.newBuilder(uri(path)).timeout(HEALTH_REQUEST_TIMEOUT).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            return new HealthAnswer(HealthAnswer.NO_ANSWER, "", e.toString(), after, 1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while asking " + path, e);
        }
        return new HealthAnswer(response.statusCode(), statusOf(response.body()), response.body(), after, 1);
    }

    /**
     * Kills the server JVM with SIGKILL — no shutdown hook, no clean close of anything — and
     * waits until it is gone.
     */
    public void kill() {
        requireRunning("kill");
        ProcessHandle jvm = serverJvm();
        LOG.log(Level.INFO, "killing server {0} (pid {1})", name, jvm.pid());
        jvm.destroyForcibly();
        awaitGone(jvm);
        awaitExit(EXIT_TIMEOUT);
    }

    /** Stops the server as an operator would ({@code server stop}) and waits for its JVM to end; kills it if it does not. */
    public void stop() {
        if (!isRunning()) {
            return;
        }
        Process stopping;
        try {
            stopping = serverCommand("stop").redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot stop server " + name, e);
        }
        boolean stopped = waitFor(stopping, STOP_TIMEOUT) && waitFor(process, STOP_TIMEOUT);
        if (!stopped) {
            LOG.log(Level.WARNING, "server {0} did not stop within {1} s; killing it", name, STOP_TIMEOUT.toSeconds());
            stopping.destroyForcibly();
            kill();
        }
    }

    /**
     * Waits for the server JVM to end by itself (a halt) and answers its exit status.
     *
     * @throws IllegalStateException with the server's log tail when it is still running after {@code timeout}
     */
    public int awaitExit(Duration timeout) {
        if (process == null) {
            throw new IllegalStateException("server " + name + " was never started");
        }
        if (!waitFor(process, timeout)) {
            throw failure("is still running after " + timeout.toSeconds() + " s");
        }
        return process.exitValue();
    }

    public boolean isRunning() {
        return process != null && process.isAlive();
    }

    /** The server's current {@code messages.log}, the log of its last start (empty before the first). */
    public String log() {
        Path log = directory().resolve("logs/messages.log");
        if (!Files.exists(log)) {
            return "";
        }
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(cannot read " + log + ": " + e + ")";
        }
    }

    /** The last {@code lines} lines of {@link #log()}. */
    public String logTail(int lines) {
        List<String> all = log().lines().toList();
        return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    }

    /** {@code path} on the server's HTTP endpoint (loopback). */
    public URI uri(String path) {
        return URI.create("http://localhost:" + httpPort + path);
    }

    /** GET {@code path}, with headers given as name, value, …. */
    public HttpResponse<String> get(String path, String... headers) throws IOException {
        return send(request(path, headers).GET());
    }

    /** POST {@code json} to {@code path}, with headers given as name, value, …. */
    public HttpResponse<String> postJson(String path, String json, String... headers) throws IOException {
        return send(request(path, headers).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    /** PUT {@code json} to {@code path}, with headers given as name, value, …. */
    public HttpResponse<String> putJson(String path, String json, String... headers) throws IOException {
        return send(request(path, headers).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(json)));
    }

    /** DELETE {@code path}, with headers given as name, value, …. */
    public HttpResponse<String> delete(String path, String... headers) throws IOException {
        return send(request(path, headers).DELETE());
    }

    /** Stops the server if it runs. */
    @Override
    public void close() {
        stop();
    }

    /** {@code wlp/bin/server ACTION NAME}, run with this JVM's Java. */
    private ProcessBuilder serverCommand(String action) {
        ProcessBuilder builder = new ProcessBuilder(wlpHome.resolve("bin/server").toString(), action, name).redirectErrorStream(true);
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        return builder;
    }

    private HttpRequest.Builder request(String path, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(path)).timeout(REQUEST_TIMEOUT);
        return headers.length == 0 ? request : request.headers(headers);
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws IOException {
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    /** The server JVM: the launched process itself once the script has exec'ed it, else its java descendant. */
    private ProcessHandle serverJvm() {
        ProcessHandle launched = process.toHandle();
        return Stream.concat(Stream.of(launched), launched.descendants())
                .filter(p -> p.info().command().map(c -> c.endsWith("/java")).orElse(false))
                .findFirst().orElse(launched);
    }

    private void awaitGone(ProcessHandle jvm) {
        try {
            jvm.onExit().get(EXIT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("server " + name + " (pid " + jvm.pid() + ") outlived SIGKILL for "
                    + EXIT_TIMEOUT.toSeconds() + " s", e);
        }
    }

    private void killIfRunning() {
        if (isRunning()) {
            serverJvm().destroyForcibly();
        }
    }

    private IllegalStateException failure(String what) {
        return new IllegalStateException("server " + name + " " + what + "\n--- messages.log ---\n" + logTail(LOG_TAIL_LINES));
    }

    private void requireCreated() {
        if (!Files.isRegularFile(directory().resolve("server.xml"))) {
            throw new IllegalStateException("server " + name + " does not exist in " + wlpHome + ": the build creates it in"
                    + " pre-integration-test, with profile it-server (inactive when skipTests is set, even to false)");
        }
    }

    private void requireStopped(String action) {
        if (isRunning()) {
            throw new IllegalStateException("cannot " + action + " server " + name + ": it is running");
        }
    }

    private void requireRunning(String action) {
        if (!isRunning()) {
            throw new IllegalStateException("cannot " + action + " server " + name + ": it is not running");
        }
    }

    private static String statusOf(String body) {
        try (JsonReader reader = Json.createReader(new StringReader(body))) {
            JsonObject health = reader.readObject();
            return health.getString("status", "");
        } catch (JsonException | IllegalStateException | ClassCastException e) {
            return "";
        }
    }

    private static boolean waitFor(Process p, Duration timeout) {
        try {
            return p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static void sleep(Duration pause) {
        try {
            Thread.sleep(pause.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the server", e);
        }
    }

    /** The server script's JVM_ARGS for these system properties; it splits them at spaces, so none may hold one. */
    private static String jvmArgs(Map<String, String> systemProperties) {
        List<String> args = new ArrayList<>();
        systemProperties.forEach((key, value) -> args.add("-D" + key + "=" + value));
        for (String arg : args) {
            if (arg.contains(" ")) {
                throw new IllegalArgumentException("a system property for the server may not contain a space: " + arg);
            }
        }
        return String.join(" ", args);
    }

    private static String required(String property) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("system property " + property + " is not set: run this test through failsafe");
        }
        return value;
    }

    private static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + root, e);
        }
    }

    private static void move(Path from, Path to) {
        try {
            Files.move(from, to);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot move " + from + " to " + to, e);
        }
    }

    private static void createDirectories(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
