package io.derive.engine.exec;

import io.derive.engine.api.DeriveException;
import io.derive.engine.sql.ast.SourceSpan;
import io.derive.engine.txn.Transaction;

import java.util.ArrayList;
import java.util.List;

/**
 * The named savepoints of one session's transaction, mapped onto the transaction's
 * depth-numbered savepoints. SQLite's rules: names may repeat (the innermost wins), releasing a
 * savepoint releases those opened after it, rolling back to one keeps it open, and when
 * {@code savepoint} itself started the transaction, releasing the outermost commits it.
 */
final class SqlSavepoints {
    private record Named(String name, int depth) {
    }

    private final List<Named> stack = new ArrayList<>();
    private Transaction owner;
    private boolean ownerStartedBySavepoint;

    /** Records a savepoint opened in {@code txn}; {@code startedTransaction} when it began the transaction. */
    void opened(Transaction txn, String name, int depth, boolean startedTransaction) {
        if (owner != txn) {
            stack.clear();
            owner = txn;
            ownerStartedBySavepoint = startedTransaction;
        }
        stack.add(new Named(name, depth));
    }

    /**
     * Forgets the savepoint {@code name} and those opened after it.
     *
     * @return its depth, to release in the transaction
     */
    int release(Transaction txn, String name, SourceSpan at) {
        int i = find(txn, name, at);
        int depth = stack.get(i).depth();
        stack.subList(i, stack.size()).clear();
        return depth;
    }

    /**
     * Forgets the savepoints opened after {@code name}, which stays open.
     *
     * @return its depth, to roll back to in the transaction
     */
    int rollbackTo(Transaction txn, String name, SourceSpan at) {
        int i = find(txn, name, at);
        stack.subList(i + 1, stack.size()).clear();
        return stack.get(i).depth();
    }

    /** True when no savepoint is left and a savepoint statement started the transaction: it ends now. */
    boolean transactionEnds(Transaction txn) {
        return owner == txn && ownerStartedBySavepoint && stack.isEmpty();
    }

    private int find(Transaction txn, String name, SourceSpan at) {
        if (owner == txn) {
            for (int i = stack.size() - 1; i >= 0; i--) {
                if (stack.get(i).name().equalsIgnoreCase(name)) {
                    return i;
                }
            }
        }
        throw new DeriveException(DeriveException.TRANSACTION_STATE, "no such savepoint: " + name,
                at.line(), at.column());
    }
}
