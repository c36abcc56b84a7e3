package io.derive.derby.crash;

import io.derive.engine.Derive;
import io.derive.engine.api.Database;
import io.derive.engine.api.Session;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;

/**
 * One crash run on one database directory: creates the schema, then per iteration starts a
 * child, kills it at the iteration's {@link KillMoment}, advances the model by what the child
 * acknowledged, reopens the database in this JVM, decides the transaction in doubt from the
 * {@code log} table, checks everything ({@link RecoveryChecker}) and closes again for the next
 * child.
 *
 * <p>The seed fixes every transaction's statements, the kill schedule and the random delays;
 * where a kill lands within them still depends on timing, so a rerun with the same seed runs the
 * same transactions but may cut them elsewhere.
 */
final class CrashRun {
    private final long seed;
    private final int iterations;
    private final Path database;
    private final Path logs;
    private final Random random;
    private final WorkloadState model = WorkloadState.empty();
    private final Map<Transcript.KillPoint, Integer> killPoints = new EnumMap<>(Transcript.KillPoint.class);
    private long openMillis = 2000;
    private int acknowledged;
    /** Kills inside a commit after which the transaction turned out committed, and absent. */
    private int inDoubtCommitted;
    private int inDoubtAbsent;

    CrashRun(long seed, int iterations, Path database, Path logs) {
        this.seed = seed;
        this.iterations = iterations;
        this.database = database;
        this.logs = logs;
        this.random = new Random(seed);
        for (Transcript.KillPoint point : Transcript.KillPoint.values()) {
            killPoints.put(point, 0);
        }
    }

    /** @throws AssertionError naming the iteration, the seed and what differed */
    void run() {
        try (Database db = Derive.open(database); Session session = db.openSession()) {
            CrashSchema.create(session);
        }
        for (int i = 0; i < iterations; i++) {
            iteration(i);
        }
    }

    private void iteration(int i) {
        KillMoment moment = KillMoment.of(i);
        Transcript transcript = killOneChild(i, moment);
        Transcript.KillPoint landed = transcript.killPoint();
        killPoints.merge(landed, 1, Integer::sum);
        openMillis = Math.max(openMillis, transcript.openMillis());
        String context = "iteration " + (i + 1) + " of " + iterations + " (kill " + moment + ", landed "
                + landed + ")";
        List<String> problems = new ArrayList<>();
        if (transcript.error() != null) {
            problems.add("the child reported " + transcript.error());
        }

        OptionalLong ready = transcript.readyTxn();
        if (ready.isPresent() && ready.getAsLong() != model.lastTxn() + 1) {
            problems.add("the child resumed at transaction " + ready.getAsLong() + ", but the last committed one is "
                    + model.lastTxn());
        }
        for (long ack : transcript.acknowledged()) {
            if (ack != model.lastTxn() + 1) {
                problems.add("the child acknowledged transaction " + ack + " after " + model.lastTxn());
            }
            TransactionPlanner.plan(seed, ack, model).applyTo(model);
            acknowledged++;
        }
        OptionalLong inDoubt = transcript.inDoubt();
        TransactionPlan doubtful = inDoubt.isPresent() ? TransactionPlanner.plan(seed, inDoubt.getAsLong(), model) : null;
        OptionalLong begun = transcript.lastBegun();
        String inFlight = begun.isPresent() && begun.getAsLong() == model.lastTxn() + 1
                ? "\n  in flight at the kill: " + TransactionPlanner.plan(seed, begun.getAsLong(), model).describe() : "";
        if (problems.isEmpty()) {
            reopenAndCheck(transcript, doubtful, problems);
        }
        if (!problems.isEmpty()) {
            throw new AssertionError(context + ", " + seedNote() + ":\n  " + String.join("\n  ", problems)
                    + "\n  last lines of the child: " + transcript.tail() + inFlight);
        }
    }

    private Transcript killOneChild(int i, KillMoment moment) {
        ChildProcess child = ChildProcess.start(database, seed, moment.commitPauseMillis(), logs);
        try {
            moment.await(child, random, openMillis);
            return child.kill();
        } catch (ChildProcess.ChildEnded e) {
            throw new AssertionError("iteration " + (i + 1) + " of " + iterations + " (kill " + moment + "), "
                    + seedNote() + ": " + e.getMessage() + "\n  last lines of the child: " + child.kill().tail(), e);
        } finally {
            child.close();
        }
    }

    private void reopenAndCheck(Transcript transcript, TransactionPlan doubtful, List<String> problems) {
        try (Database db = Derive.open(database); Session session = db.openSession()) {
            long logged = ((Number) session.execute("select coalesce(max(txn), 0) from log").rows().get(0).get(0)).longValue();
            if (doubtful != null && logged == doubtful.txn()) {
                doubtful.applyTo(model);
                inDoubtCommitted++;
            } else if (doubtful != null) {
                inDoubtAbsent++;
            }
            if (logged != model.lastTxn()) {
                problems.add("the log ends at transaction " + logged + "; the last acknowledged one is "
                        + (doubtful != null && logged != doubtful.txn() ? model.lastTxn() + " and " + doubtful.txn()
                        + " was committing" : model.lastTxn() + " and none was committing"));
            }
            model.forgetVolatileRows();
            problems.addAll(RecoveryChecker.check(db, session, model, transcript.readyTxn().isPresent()));
        } catch (RuntimeException e) {
            problems.add("reopening failed: " + e);
        }
    }

    private String seedNote() {
        return "seed " + seed + " (rerun with -D" + CrashRecoveryTest.SEED_PROPERTY + "=" + seed + ")";
    }

    int kills() {
        return killPoints.values().stream().mapToInt(Integer::intValue).sum();
    }

    int killsAt(Transcript.KillPoint point) {
        return killPoints.get(point);
    }

    int acknowledged() {
        return acknowledged;
    }

    String summary() {
        return "seed " + seed + ": " + kills() + " kills " + killPoints + "; " + acknowledged
                + " transactions acknowledged; in doubt at the kill: " + inDoubtCommitted + " committed, "
                + inDoubtAbsent + " absent; log ends at transaction " + model.lastTxn();
    }
}
