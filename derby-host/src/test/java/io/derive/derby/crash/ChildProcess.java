package io.derive.derby.crash;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * One {@link CrashWorkload} JVM on the database directory: started with the running JVM's
 * executable and class path, its protocol lines followed ({@link ChildOutput}) and waited for,
 * and killed with SIGKILL ({@link Process#destroyForcibly()} on Linux).
 *
 * <p>Its standard output goes to a file (see {@link ChildOutput} for why not a pipe), its
 * standard error and Derby's log are appended to files in the run's log directory, and its
 * standard input stays open (unused) so that it halts by itself if this JVM dies.
 */
final class ChildProcess implements AutoCloseable {
    /** Far longer than any healthy step of a child takes; only a hung child reaches it. */
    static final Duration STALL = Duration.ofSeconds(60);

    private final Process process;
    private final Path stderr;
    private final ChildOutput output;

    private ChildProcess(Process process, Path stdout, Path stderr) {
        this.process = process;
        this.stderr = stderr;
        this.output = new ChildOutput(stdout, process::isAlive, "crash-child-" + process.pid());
    }

    /**
     * Starts a child on {@code database} with {@code seed}; a positive {@code commitPauseMillis}
     * makes its Derby host pause that long before each Derby commit.
     */
    static ChildProcess start(Path database, long seed, long commitPauseMillis, Path logDirectory) {
        Path stdout = logDirectory.resolve("child-stdout.log");
        Path stderr = logDirectory.resolve("child-stderr.log");
        List<String> command = new ArrayList<>(List.of(javaExecutable(),
                "-Xmx256m",
                // A short-lived JVM on a small machine: start fast rather than peak.
                "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Dderby.stream.error.file=" + logDirectory.resolve("derby-child.log"),
                "-Dderby.infolog.append=true"));
        if (commitPauseMillis > 0) {
            command.add("-Dderive.derby.testCommitPauseMillis=" + commitPauseMillis);
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), CrashWorkload.class.getName(),
                database.toAbsolutePath().toString(), Long.toString(seed)));
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectOutput(stdout.toFile())
                .redirectError(ProcessBuilder.Redirect.appendTo(stderr.toFile()));
        try {
            return new ChildProcess(builder.start(), stdout, stderr);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command, e);
        }
    }

    private static String javaExecutable() {
        return ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    /**
     * Waits at most {@code timeout} for the next line that satisfies {@code wanted}, consuming the
     * lines before it; null when the time runs out.
     *
     * @throws ChildEnded when the child prints {@code ERROR} or its output ends
     */
    Transcript.Line await(Predicate<String> wanted, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Transcript.Line line;
            try {
                line = output.next(Duration.ofNanos(deadline - System.nanoTime()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the child", e);
            }
            if (line == null) {
                return null;
            }
            if (line == ChildOutput.END) {
                throw new ChildEnded("the child's output ended before it was killed (exit status "
                        + exitStatus() + "; see " + stderr + ")");
            }
            if (Protocol.is(line.text(), Protocol.ERROR)) {
                throw new ChildEnded("the child reported " + line.text() + " (stack trace in " + stderr + ")");
            }
            if (wanted.test(line.text())) {
                return line;
            }
        }
    }

    /** Like {@link #await}, but a child that prints no such line within {@link #STALL} is an error. */
    Transcript.Line require(String event) {
        Transcript.Line line = await(t -> Protocol.is(t, event), STALL);
        if (line == null) {
            throw new ChildEnded("the child printed no " + event + " line within " + STALL.toSeconds() + " s");
        }
        return line;
    }

    /** Consumes lines until {@code nanoTime} reaches {@code deadline}. */
    void runUntil(long deadline) {
        await(t -> false, Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
    }

    /** Kills the child with SIGKILL, waits for it to die and for its output to end, and returns what it printed. */
    Transcript kill() {
        process.destroyForcibly();
        try {
            waitForDeath();
            return output.transcript(STALL);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading the child's output", e);
        }
    }

    private void waitForDeath() {
        try {
            if (!process.waitFor(STALL.toSeconds(), TimeUnit.SECONDS)) {
                throw new IllegalStateException("child " + process.pid() + " did not die after SIGKILL");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the child to die", e);
        }
    }

    private String exitStatus() {
        try {
            return process.waitFor(5, TimeUnit.SECONDS) ? Integer.toString(process.exitValue()) : "still running";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }

    /** Kills the child if it still runs; for finally blocks. */
    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
            waitForDeath();
        }
    }

    /** The child stopped or stalled on its own: a failure of the run, not a kill. */
    static final class ChildEnded extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ChildEnded(String message) {
            super(message);
        }
    }
}
