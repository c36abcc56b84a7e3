package io.derive.engine.mvtest;

import java.util.Random;

/**
 * Random transaction control for a workload: {@code begin}, savepoints a few deep, {@code
 * rollback to}, {@code release}, {@code commit} and {@code rollback}, tracking what is open from
 * each statement's outcome. A commit that fails (a reference still missing at commit) ends the
 * transaction, since Derive rolls it back.
 */
final class TransactionScript {

    private final Random random;
    private boolean inTransaction;
    private int savepoints;

    TransactionScript(Random random) {
        this.random = random;
    }

    MvWorkload.Step next() {
        if (!inTransaction) {
            return new MvWorkload.Step(MvWorkload.Kind.BEGIN, "begin");
        }
        int roll = random.nextInt(10);
        if (roll < 3 && savepoints < 3) {
            return new MvWorkload.Step(MvWorkload.Kind.SAVEPOINT, "savepoint s" + (savepoints + 1));
        }
        if (roll < 6 && savepoints > 0) {
            return random.nextBoolean()
                    ? new MvWorkload.Step(MvWorkload.Kind.ROLLBACK_TO, "rollback to s" + savepoints)
                    : new MvWorkload.Step(MvWorkload.Kind.RELEASE, "release s" + savepoints);
        }
        return roll < 8 ? commit() : new MvWorkload.Step(MvWorkload.Kind.ROLLBACK, "rollback");
    }

    static MvWorkload.Step commit() {
        return new MvWorkload.Step(MvWorkload.Kind.COMMIT, "commit");
    }

    void ran(MvWorkload.Step step, boolean succeeded) {
        switch (step.kind()) {
            case BEGIN -> inTransaction |= succeeded;
            case COMMIT, ROLLBACK -> {
                inTransaction = false;
                savepoints = 0;
            }
            case SAVEPOINT -> savepoints += succeeded ? 1 : 0;
            case RELEASE -> savepoints -= succeeded ? 1 : 0;
            default -> {
            }
        }
    }

    boolean inTransaction() {
        return inTransaction;
    }
}
