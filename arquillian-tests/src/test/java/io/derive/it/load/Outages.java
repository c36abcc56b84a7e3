package io.derive.it.load;

import java.time.Duration;

/**
 * What a load's workers know of the server's planned outages: a test that kills the server says
 * so {@linkplain #down() before} the kill and {@linkplain #up() once} it is ready again. A request
 * that fails while the server is down (or across a restart) is then in doubt, not a failure: its
 * worker waits until the server is up and asks the ledgers whether the transaction committed.
 */
public final class Outages {
    private static final Duration POLL = Duration.ofMillis(100);

    private final boolean planned;
    private volatile boolean down;

    private Outages(boolean planned) {
        this.planned = planned;
    }

    /** A load during which the server never goes down: every failed request is a failure. */
    public static Outages none() {
        return new Outages(false);
    }

    /** A load during which the test kills and restarts the server. */
    public static Outages planned() {
        return new Outages(true);
    }

    /** Called before the server is killed. */
    public void down() {
        if (!planned) {
            throw new IllegalStateException("this load plans no outage");
        }
        down = true;
    }

    /** Called once the restarted server is ready. */
    public void up() {
        down = false;
    }

    boolean arePlanned() {
        return planned;
    }

    /**
     * Waits until the server is up (it may be up already: a request failed on a connection of
     * the killed server's time).
     *
     * @return false when it was not up again within {@code timeout}
     */
    boolean awaitUp(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (down) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(POLL.toMillis());
        }
        return true;
    }
}
