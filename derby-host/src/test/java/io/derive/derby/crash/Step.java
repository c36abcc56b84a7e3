package io.derive.derby.crash;

import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Result;
import io.derive.engine.api.Session;

import java.util.List;
import java.util.Locale;
import java.util.function.ToLongFunction;

/**
 * One statement of a planned workload transaction, together with what it must do: the child runs
 * it and checks the engine's answer against the model; the parent and the child apply its effect
 * to their models when the transaction is known to have committed.
 */
interface Step {

    /**
     * Runs the statement in the session's open transaction.
     *
     * @throws WorkloadFailure when the engine's answer differs from the model's
     */
    void run(Session session);

    /** Applies the committed effect to {@code state}; returns the number of rows it changed. */
    long applyTo(WorkloadState state);

    /** The statement and its parameters, for failure messages. */
    String describe();

    /**
     * A write whose update count the model predicts, and whose effect on the model is
     * {@code effect} unless a savepoint rollback later in the transaction undoes it
     * ({@code undone}).
     */
    record Write(String sql, List<Object> params, long expectedCount, ToLongFunction<WorkloadState> effect,
                 boolean undone) implements Step {
        @Override
        public void run(Session session) {
            Result result;
            try {
                result = session.execute(sql, params.toArray());
            } catch (DeriveException e) {
                throw new WorkloadFailure("'" + sql + "' " + params + " failed: " + e.getMessage(), e);
            }
            if (result.updateCount() != expectedCount) {
                throw new WorkloadFailure("'" + sql + "' " + params + " changed " + result.updateCount()
                        + " rows, the model expects " + expectedCount);
            }
        }

        @Override
        public long applyTo(WorkloadState state) {
            return undone ? 0 : effect.applyAsLong(state);
        }

        @Override
        public String describe() {
            return sql + (params.isEmpty() ? "" : " " + params) + (undone ? " (undone)" : "");
        }

        /** The same write, undone by a savepoint rollback. */
        Write asUndone() {
            return new Write(sql, params, expectedCount, effect, true);
        }
    }

    /** Transaction control ({@code savepoint}, {@code release}, {@code rollback to}): no rows, no effect. */
    static Write control(String sql) {
        return new Write(sql, List.of(), 0, s -> 0, false);
    }

    /**
     * A write that must fail with a constraint error whose message contains {@code fragment},
     * leaving no trace and the transaction open (each statement is atomic).
     */
    record FailingWrite(String sql, List<Object> params, String fragment) implements Step {
        @Override
        public void run(Session session) {
            try {
                session.execute(sql, params.toArray());
            } catch (DeriveException e) {
                if (e.endedTransaction() || !session.inTransaction()) {
                    throw new WorkloadFailure("'" + sql + "' " + params + " ended the transaction: " + e.getMessage(), e);
                }
                if (!e.getMessage().toLowerCase(Locale.ROOT).contains(fragment.toLowerCase(Locale.ROOT))) {
                    throw new WorkloadFailure("'" + sql + "' " + params + " failed with '" + e.getMessage()
                            + "', not with '" + fragment + "'", e);
                }
                return;
            }
            throw new WorkloadFailure("'" + sql + "' " + params + " succeeded; it must fail with '" + fragment + "'");
        }

        @Override
        public String describe() {
            return sql + " " + params + " (must fail)";
        }

        @Override
        public long applyTo(WorkloadState state) {
            return 0;
        }
    }

    /** A read inside the transaction that must see the transaction's own writes, as the model predicts. */
    record Query(String sql, List<List<Object>> expected) implements Step {
        @Override
        public void run(Session session) {
            String difference;
            try {
                difference = RowBag.of(expected).differenceFrom(RowBag.of(session.execute(sql)));
            } catch (DeriveException e) {
                throw new WorkloadFailure("'" + sql + "' failed: " + e.getMessage(), e);
            }
            if (difference != null) {
                throw new WorkloadFailure("'" + sql + "' inside the transaction: " + difference);
            }
        }

        @Override
        public String describe() {
            return sql;
        }

        @Override
        public long applyTo(WorkloadState state) {
            return 0;
        }
    }
}
