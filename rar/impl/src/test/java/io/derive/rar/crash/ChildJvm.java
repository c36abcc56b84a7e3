package io.derive.rar.crash;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One {@link XaCrashChild} JVM, started with this JVM's executable and class path, its protocol
 * lines queued as they arrive and killed with SIGKILL ({@link Process#destroyForcibly()} on Linux).
 *
 * <p>Only newline-terminated lines count: the child writes each line in one write, so a kill
 * leaves either the whole line or none of it in the pipe, and a fragment at the end is dropped
 * rather than misread (a truncated {@code ACK 1234} must not become {@code ACK 12}). Its standard
 * error is appended to a file of the run; its standard input stays open so that it halts by
 * itself if this JVM dies.
 */
final class ChildJvm implements AutoCloseable {
    /** Far longer than any healthy step of a child takes; only a hung child reaches it. */
    static final Duration STALL = Duration.ofSeconds(90);

    /** The end of the child's output, queued after its last line. */
    static final String END = new String("<end of output>");

    private final Process process;
    private final Path stderr;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

    private ChildJvm(Process process, Path stderr) {
        this.process = process;
        this.stderr = stderr;
        Thread reader = new Thread(this::readLines, "xacrash-child-" + process.pid());
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Starts a child on {@code runDir}; a positive {@code commitPauseMillis} makes Derive's Derby
     * host pause that long before each Derby commit, widening Derive's prepare → commit window
     * after Narayana's decision, and {@code preparePauseMillis} the Derby resource's prepare, the
     * part before it.
     */
    static ChildJvm start(Path runDir, int generation, String mode, long seed, long commitPauseMillis,
            long preparePauseMillis) {
        Path stderr = runDir.resolve("child-stderr.log");
        List<String> command = new ArrayList<>(List.of(javaExecutable(),
                "-Xmx256m",
                // A short-lived JVM on a small machine: start fast rather than peak.
                "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Dderby.stream.error.file=" + runDir.resolve("derby.log"),
                "-Dderby.infolog.append=true",
                "-Dderive.derby.testCommitPauseMillis=" + commitPauseMillis,
                "-cp", System.getProperty("java.class.path"), XaCrashChild.class.getName(),
                runDir.toAbsolutePath().toString(), Integer.toString(generation), mode, Long.toString(seed),
                Long.toString(preparePauseMillis)));
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.appendTo(stderr.toFile()));
        try {
            return new ChildJvm(builder.start(), stderr);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command, e);
        }
    }

    private static String javaExecutable() {
        return ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    private void readLines() {
        try (InputStream in = process.getInputStream()) {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            int b;
            while ((b = in.read()) >= 0) {
                if (b == '\n') {
                    lines.add(line.toString(StandardCharsets.UTF_8));
                    line.reset();
                } else {
                    line.write(b);
                }
            }
        } catch (IOException e) {
            // The pipe broke: the output ends here, as at end of file.
        }
        lines.add(END);
    }

    /** The next line, {@link #END} after the last, or null when {@code timeout} passes first. */
    String next(Duration timeout) {
        try {
            return lines.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the child", e);
        }
    }

    /** Like {@link #next}, but a child silent for {@link #STALL} is a failure. */
    String require() {
        String line = next(STALL);
        if (line == null) {
            throw new IllegalStateException("child " + process.pid() + " printed nothing for "
                    + STALL.toSeconds() + " s (hung?); see " + stderr);
        }
        return line;
    }

    /** Kills the child with SIGKILL and returns the lines it printed that were not read yet. */
    List<String> kill() {
        process.destroyForcibly();
        waitForDeath();
        return rest();
    }

    /** Waits for the child to end by itself and returns the lines not read yet. */
    List<String> awaitExit() {
        waitForDeath();
        return rest();
    }

    private List<String> rest() {
        List<String> rest = new ArrayList<>();
        for (String line = require(); line != END; line = require()) {
            rest.add(line);
        }
        return rest;
    }

    private void waitForDeath() {
        try {
            if (!process.waitFor(STALL.toSeconds(), TimeUnit.SECONDS)) {
                throw new IllegalStateException("child " + process.pid() + " did not end within "
                        + STALL.toSeconds() + " s; see " + stderr);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the child", e);
        }
    }

    Path stderr() {
        return stderr;
    }

    /** Kills the child if it still runs; for try-with-resources. */
    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
            waitForDeath();
        }
    }
}
