package io.derive.derby.crash;

import java.time.Duration;
import java.util.Random;

/**
 * When the parent kills a child, decided before it starts. Where the kill actually landed is
 * judged afterwards from what the child printed ({@link Transcript#killPoint()}).
 */
enum KillMoment {
    /** Somewhere in the open: boot, Derby recovery, rehydrate and its catalog writes. */
    DURING_OPEN {
        @Override
        void await(ChildProcess child, Random random, long openMillis) {
            child.require(Protocol.OPENING);
            child.runUntil(System.nanoTime() + Duration.ofMillis(random.nextInt((int) Math.max(1, openMillis))).toNanos());
        }
    },
    /** At a random moment of the workload. */
    AT_RANDOM {
        @Override
        void await(ChildProcess child, Random random, long openMillis) {
            child.require(Protocol.READY);
            child.runUntil(System.nanoTime() + Duration.ofMillis(random.nextInt(RANDOM_WINDOW_MILLIS)).toNanos());
        }
    },
    /**
     * While a commit is under way: after a {@code COMMITTING} line, either at a random moment of
     * the commit pause (the transaction must then be absent) or just after the pause, while Derby
     * writes and flushes the commit (a few milliseconds), so that some kills land after Derby
     * committed but before the child printed {@code ACK} (the transaction must then be present).
     * When the {@code ACK} comes first, the next commit is tried the same way, and after a few
     * misses at a random moment of the pause.
     */
    INSIDE_COMMIT {
        @Override
        void await(ChildProcess child, Random random, long openMillis) {
            child.require(Protocol.READY);
            for (int skip = random.nextInt(3); skip > 0; skip--) {
                child.require(Protocol.COMMITTING);
            }
            int triesNearTheEnd = random.nextBoolean() ? 3 : 0;
            for (int attempt = 0; ; attempt++) {
                child.require(Protocol.COMMITTING);
                int delay = attempt < triesNearTheEnd
                        ? COMMIT_PAUSE_MILLIS + random.nextInt(COMMIT_FLUSH_MILLIS)
                        : random.nextInt(COMMIT_PAUSE_MILLIS);
                if (child.await(t -> Protocol.is(t, Protocol.ACK), Duration.ofMillis(delay)) == null) {
                    return;
                }
            }
        }
    };

    /** The commit pause children of {@link #INSIDE_COMMIT} and {@link #DURING_OPEN} runs get. */
    static final int COMMIT_PAUSE_MILLIS = 200;
    /** About how long Derby takes to write and flush a commit after the pause, measured on a 2-core machine. */
    private static final int COMMIT_FLUSH_MILLIS = 10;
    private static final int RANDOM_WINDOW_MILLIS = 1200;

    /**
     * Returns when the child is to be killed.
     *
     * @param openMillis the longest open observed so far, the window of {@link #DURING_OPEN}
     * @throws ChildProcess.ChildEnded when the child fails or stalls first
     */
    abstract void await(ChildProcess child, Random random, long openMillis);

    /** The commit pause the child gets: the kills meant for commits (and for the open's catalog writes) need the window. */
    long commitPauseMillis() {
        return this == AT_RANDOM ? 0 : COMMIT_PAUSE_MILLIS;
    }

    /** The moment of iteration {@code i}: every second one inside a commit, every sixth during the open, the rest at random. */
    static KillMoment of(int iteration) {
        if (iteration % 2 == 0) {
            return INSIDE_COMMIT;
        }
        return iteration % 6 == 3 ? DURING_OPEN : AT_RANDOM;
    }
}
