package io.derive.derby.crash;

import io.derive.engine.Derive;
import io.derive.engine.api.Database;
import io.derive.engine.api.Session;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * The child process of {@link CrashRecoveryTest}: opens the durable database in a directory and
 * runs workload transactions on it, one after the other, until it is killed. It never closes
 * the database; the parent kills it with SIGKILL.
 *
 * <p>Arguments: the database directory and the workload seed. It continues from the highest
 * transaction id in the {@code log} table, planning every transaction from the state it loaded
 * and the ones it committed since ({@link TransactionPlanner}), and reports its progress on
 * standard output ({@link Protocol}); printing those lines is its job. When the engine disagrees
 * with the model it prints an {@code ERROR} line (and the stack trace on standard error) and
 * halts. It also halts when its standard input ends: the parent is gone, and nobody would kill it.
 */
public final class CrashWorkload {
    private static final PrintStream OUT = System.out;

    private CrashWorkload() {
    }

    public static void main(String[] args) {
        if (args.length != 2) {
            System.err.println("usage: CrashWorkload DATABASE-DIRECTORY SEED");
            Runtime.getRuntime().halt(64);
        }
        Path directory = Path.of(args[0]);
        long seed = Long.parseLong(args[1]);
        haltWhenParentIsGone();
        long txn = 0;
        try {
            say(Protocol.OPENING);
            Database database = Derive.open(directory);
            Session session = database.openSession();
            WorkloadState state = WorkloadState.load(session);
            txn = state.lastTxn() + 1;
            say(Protocol.line(Protocol.READY, txn));
            for (; ; txn++) {
                TransactionPlan plan = TransactionPlanner.plan(seed, txn, state);
                say(Protocol.line(Protocol.BEGIN, txn));
                session.begin();
                for (Step step : plan.steps()) {
                    step.run(session);
                }
                say(Protocol.line(Protocol.COMMITTING, txn));
                session.commit();
                say(Protocol.line(Protocol.ACK, txn));
                plan.applyTo(state);
            }
        } catch (RuntimeException e) {
            say(Protocol.ERROR + " in transaction " + txn + ": " + e);
            e.printStackTrace();
            System.err.flush();
            Runtime.getRuntime().halt(2);
        }
    }

    private static void say(String line) {
        OUT.println(line);
        OUT.flush();
    }

    /** The parent holds our standard input open for as long as it lives. */
    private static void haltWhenParentIsGone() {
        Thread watcher = new Thread(() -> {
            try (InputStream in = System.in) {
                while (in.read() >= 0) {
                    // the parent sends nothing; any byte is ignored
                }
            } catch (IOException e) {
                // treated as the end of the stream
            }
            Runtime.getRuntime().halt(3);
        }, "parent-watch");
        watcher.setDaemon(true);
        watcher.start();
    }
}
