package io.derive.derby.crash;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Follows the file a child's standard output is redirected to, line by line, on a thread of its
 * own: each line goes to a queue the test waits on and to the transcript kept for the checks.
 *
 * <p>A file, not a pipe: {@link Process#destroyForcibly()} closes the parent's end of a stdout
 * pipe at once, so lines the child wrote just before the kill but the reader had not consumed
 * yet are lost (the read fails with "Stream closed"), and the parent would misjudge what the
 * child had done — a transaction would seem to have committed without ever reaching its commit.
 * Whatever the child wrote before it died is in the file; the follower reads it to its end once
 * the child is dead.
 */
final class ChildOutput {
    /** Queued after the last line. */
    static final Transcript.Line END = new Transcript.Line("<end of output>", 0);
    /** How often the follower looks for new output: the latency of the kills aimed at commits. */
    private static final long POLL_NANOS = Duration.ofMillis(1).toNanos();

    private final Path file;
    private final BooleanSupplier writerAlive;
    private final BlockingQueue<Transcript.Line> queue = new LinkedBlockingQueue<>();
    private final List<Transcript.Line> lines = new ArrayList<>();
    private final Thread follower;

    /** Starts following {@code file}, which the process {@code writerAlive} reports on writes. */
    ChildOutput(Path file, BooleanSupplier writerAlive, String name) {
        this.file = file;
        this.writerAlive = writerAlive;
        this.follower = new Thread(this::follow, name);
        follower.setDaemon(true);
        follower.start();
    }

    /** The next line, waiting at most {@code timeout}; null when none came; {@link #END} after the last. */
    Transcript.Line next(Duration timeout) throws InterruptedException {
        Transcript.Line line = timeout.isZero() || timeout.isNegative()
                ? queue.poll() : queue.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
        if (line == END) {
            queue.add(END);
        }
        return line;
    }

    /**
     * Every line, once the writer is dead and the file read to its end.
     *
     * @throws IllegalStateException when the follower does not finish within {@code timeout}
     */
    Transcript transcript(Duration timeout) throws InterruptedException {
        follower.join(timeout.toMillis());
        if (follower.isAlive()) {
            throw new IllegalStateException("the child's output " + file + " was not read to its end");
        }
        synchronized (lines) {
            return new Transcript(lines);
        }
    }

    private void follow() {
        try (InputStream in = Files.newInputStream(file)) {
            ByteArrayOutputStream pending = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            while (true) {
                // Checked before reading: once the writer is dead, one more read reaches the real end.
                boolean dead = !writerAlive.getAsBoolean();
                int n;
                while ((n = in.read(buffer)) > 0) {
                    split(buffer, n, pending);
                }
                if (dead) {
                    if (pending.size() > 0) {
                        emit(pending.toString(StandardCharsets.UTF_8));
                    }
                    return;
                }
                LockSupport.parkNanos(POLL_NANOS);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the child's output " + file, e);
        } finally {
            queue.add(END);
        }
    }

    private void split(byte[] buffer, int length, ByteArrayOutputStream pending) {
        int from = 0;
        for (int i = 0; i < length; i++) {
            if (buffer[i] == '\n') {
                pending.write(buffer, from, i - from);
                emit(pending.toString(StandardCharsets.UTF_8));
                pending.reset();
                from = i + 1;
            }
        }
        pending.write(buffer, from, length - from);
    }

    private void emit(String text) {
        Transcript.Line line = new Transcript.Line(text, System.nanoTime());
        synchronized (lines) {
            lines.add(line);
        }
        queue.add(line);
    }
}
