package io.derive.rar.crash;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two-phase commit across a kill: a child JVM ({@link XaCrashChild}) runs transactions over two
 * resources — Derive through the resource adapter's {@code DeriveXAResource} on a durable
 * Derby-hosted database (a source table, a projection view and a group-by view), and a plain
 * Derby database through {@code EmbeddedXADataSource} — coordinated by Narayana's standalone JTA,
 * and is killed with SIGKILL at random moments. The ledger of acknowledged transactions is kept
 * here, in the parent.
 *
 * <p>After each kill the next child first lists Derive's and Derby's in-doubt branches, then runs
 * Narayana's recovery (logged commits are replayed; branches of this node without a log record
 * are presumed aborted by Narayana's orphan filters), and reports both resources' rows and whether
 * each view equals its body; only then does it go back to work. A kill counts as inside Derive's
 * prepare → commit window when Derive's first list names a transaction of the killed child.
 *
 * <p>Checked after every restart: both resources hold the same rows (every transaction is in both
 * or in neither, with the same amounts), every acknowledged transaction is there, no row belongs
 * to a transaction never begun, every view equals its body. If a branch is still in doubt after
 * Narayana's scans while its log holds no transaction, the child rolls it back itself (presumed
 * abort) and reports it as an orphan; the count is printed.
 *
 * <p>System properties: {@code derive.xacrash.kills} (default 30), {@code derive.xacrash.seed},
 * {@code derive.xacrash.commitPauseMillis} (default 150: Derive's Derby host sleeps that long
 * before each Derby commit, so that a random kill often lands between prepare and commit),
 * {@code derive.xacrash.preparePauseMillis} (default 60: the plain Derby resource sleeps that long
 * before its prepare, which Narayana calls after Derive's and before it logs its decision, so that
 * kills also leave Derive prepared with no decision logged, the case recovery presumes aborted).
 */
class XaCrashTest {
    private static final int KILLS = Integer.getInteger("derive.xacrash.kills", 30);
    private static final long SEED = Long.getLong("derive.xacrash.seed", System.nanoTime());
    private static final long COMMIT_PAUSE_MILLIS = Long.getLong("derive.xacrash.commitPauseMillis", 150);
    private static final long PREPARE_PAUSE_MILLIS = Long.getLong("derive.xacrash.preparePauseMillis", 60);

    // A failed run keeps its directory: the children's stderr, Derby's log and both databases.
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path runDir;

    @Test
    void everyTransactionIsInBothResourcesOrInNeitherAcrossKills() {
        Random random = new Random(SEED);
        Ledger ledger = new Ledger();
        long started = System.nanoTime();
        int generation = 0;
        for (; ledger.kills() < KILLS; generation++) {
            try (ChildJvm child = ChildJvm.start(runDir, generation, "work", random.nextLong(), COMMIT_PAUSE_MILLIS,
                    PREPARE_PAUSE_MILLIS)) {
                ledger.check(report(child), generation > 0);
                killAtARandomMoment(child, ledger, random);
            }
        }
        try (ChildJvm child = ChildJvm.start(runDir, generation, "check", random.nextLong(), 0, 0)) {
            ledger.check(report(child), true);
            child.awaitExit().forEach(ledger::absorb);
        }

        System.out.printf("XaCrashTest seed=%d: kills=%d, kills inside Derive's prepare->commit window=%d, "
                + "of which recovery committed %d from Narayana's log and presumed %d aborted, "
                + "transactions begun=%d, acknowledged=%d, orphans rolled back by the child=%d, checks=%d, "
                + "mismatches=%d, %d s%n",
                SEED, ledger.kills(), ledger.killsInsideWindow(), ledger.replayedCommits(), ledger.presumedAborts(),
                ledger.begun(), ledger.acknowledged(),
                ledger.orphans(), ledger.checks(), ledger.problems().size(),
                Duration.ofNanos(System.nanoTime() - started).toSeconds());
        ledger.problems().forEach(p -> System.out.println("  mismatch: " + p));

        assertThat(ledger.problems()).as("mismatches (seed " + SEED + ")").isEmpty();
        assertThat(ledger.kills()).isGreaterThanOrEqualTo(KILLS);
        assertThat(ledger.killsInsideWindow()).as("kills inside Derive's prepare -> commit window")
                .isGreaterThanOrEqualTo(Math.min(10, KILLS / 3));
    }

    /** The child's lines up to {@code READY}: its in-doubt lists, recovery and state. */
    private static Ledger.Report report(ChildJvm child) {
        Ledger.Report report = new Ledger.Report();
        for (String line = child.require(); !line.equals(XaCrashChild.READY); line = child.require()) {
            if (line == ChildJvm.END || line.startsWith(XaCrashChild.ERROR)) {
                throw new IllegalStateException("the child ended before it was ready: " + line + "; see " + child.stderr());
            }
            if (line.startsWith(XaCrashChild.IN_DOUBT + " " + XaCrashChild.DERIVE + " ")) {
                report.deriveInDoubt.add(line.split(" ")[2]);
            }
            report.lines.add(line);
        }
        return report;
    }

    /**
     * Lets the child begin one to three transactions, then waits a random time no longer than a
     * transaction (most of which is Derive's prepare → commit window) and kills it.
     */
    private static void killAtARandomMoment(ChildJvm child, Ledger ledger, Random random) {
        int begins = 1 + random.nextInt(3);
        while (begins > 0) {
            String line = child.require();
            if (line == ChildJvm.END) {
                throw new IllegalStateException("the child ended before it was killed; see " + child.stderr());
            }
            ledger.absorb(line);
            if (line.startsWith(XaCrashChild.BEGIN)) {
                begins--;
            }
        }
        long longestWait = PREPARE_PAUSE_MILLIS + COMMIT_PAUSE_MILLIS + 80;
        long deadline = System.nanoTime() + Duration.ofMillis(random.nextLong(longestWait)).toNanos();
        for (String line; (line = child.next(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())))) != null; ) {
            if (line == ChildJvm.END) {
                throw new IllegalStateException("the child ended before it was killed; see " + child.stderr());
            }
            ledger.absorb(line);
        }
        // Lines the child wrote before it died are as acknowledged as the ones read before the kill.
        child.kill().forEach(ledger::absorb);
        ledger.killed();
    }
}
