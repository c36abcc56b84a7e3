package io.derive.engine.exec;

import io.derive.engine.api.CommitVote;
import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Result;
import io.derive.engine.api.Session;
import io.derive.engine.sql.Parser;
import io.derive.engine.sql.ast.Statement;
import io.derive.engine.txn.Transaction;

import java.lang.System.Logger.Level;
import java.util.Map;

/**
 * The engine's {@link Session}: parses each statement, runs it inside a statement savepoint of
 * the open transaction (or of a transaction of its own in autocommit), and maps every failure
 * to a {@link DeriveException}.
 */
public final class EngineSession implements Session {
    private static final System.Logger LOG = System.getLogger(EngineSession.class.getName());

    private final EngineServices services;
    private final long id;
    private Transaction explicit;
    private boolean closed;

    public EngineSession(EngineServices services, long id) {
        this.services = services;
        this.id = id;
    }

    @Override
    public Result execute(String sql, Object... parameters) {
        return run(sql, Parameters.positional(parameters));
    }

    @Override
    public Result execute(String sql, Map<String, ?> parameters) {
        return run(sql, Parameters.named(parameters));
    }

    private Result run(String sql, Parameters parameters) {
        requireOpen();
        if (sql == null) {
            throw new DeriveException(DeriveException.SYNTAX, "no statement to run");
        }
        Statement statement = Parser.parseStatement(sql);
        if (statement instanceof Statement.Begin b) {
            begin(b);
            return Result.empty();
        }
        if (statement instanceof Statement.Commit c) {
            requireTransaction("commit", c);
            commit();
            return Result.empty();
        }
        if (statement instanceof Statement.Rollback r) {
            requireTransaction("rollback", r);
            rollback();
            return Result.empty();
        }
        return inStatement(statement, sql, parameters);
    }

    private Result inStatement(Statement statement, String sql, Parameters parameters) {
        boolean autocommit = explicit == null;
        Transaction txn = autocommit ? newTransaction() : explicit;
        int savepoint = txn.savepoint();
        try {
            Result result = StatementExecutor.run(statement, new ExecutionContext(txn, parameters, sql, services));
            txn.release(savepoint);
            if (autocommit) {
                txn.commit();
            }
            return result;
        } catch (RuntimeException e) {
            undo(txn, savepoint, autocommit);
            throw asDeriveException(e, statement);
        }
    }

    private void undo(Transaction txn, int savepoint, boolean autocommit) {
        try {
            if (txn.isActive()) {
                txn.rollbackTo(savepoint);
                txn.release(savepoint);
            }
        } finally {
            if (autocommit) {
                txn.rollback();
            }
        }
    }

    private static DeriveException asDeriveException(RuntimeException e, Statement statement) {
        if (e instanceof DeriveException d) {
            return d;
        }
        LOG.log(Level.ERROR, "internal error running a statement", e);
        return new DeriveException(DeriveException.INTERNAL, "internal error: " + e, e)
                .at(statement.span().line(), statement.span().column());
    }

    @Override
    public void begin() {
        requireOpen();
        if (explicit != null) {
            throw new DeriveException(DeriveException.TRANSACTION_STATE,
                    "cannot start a transaction within a transaction");
        }
        explicit = newTransaction();
    }

    private void begin(Statement.Begin b) {
        try {
            begin();
        } catch (DeriveException e) {
            throw e.at(b.span().line(), b.span().column());
        }
    }

    @Override
    public CommitVote prepareCommit() {
        requireOpen();
        if (explicit == null) {
            throw new DeriveException(DeriveException.TRANSACTION_STATE, "no transaction is open to prepare");
        }
        CommitVote vote = explicit.prepare();
        if (vote == CommitVote.READ_ONLY) {
            explicit = null;
        }
        return vote;
    }

    @Override
    public void commit() {
        requireOpen();
        if (explicit == null) {
            throw new DeriveException(DeriveException.TRANSACTION_STATE, "no transaction is open to commit");
        }
        Transaction txn = explicit;
        explicit = null;
        txn.commit();
    }

    @Override
    public void rollback() {
        if (explicit != null) {
            Transaction txn = explicit;
            explicit = null;
            txn.rollback();
        }
    }

    @Override
    public boolean inTransaction() {
        return explicit != null;
    }

    @Override
    public void close() {
        if (!closed) {
            rollback();
            closed = true;
        }
    }

    private Transaction newTransaction() {
        return new Transaction(services.committed(), "session " + id + " of database '" + services.databaseName() + "'");
    }

    private void requireTransaction(String verb, Statement at) {
        if (explicit == null) {
            throw new DeriveException(DeriveException.TRANSACTION_STATE, "cannot " + verb + " - no transaction is active",
                    at.span().line(), at.span().column());
        }
    }

    private void requireOpen() {
        if (closed) {
            throw new DeriveException(DeriveException.TRANSACTION_STATE, "the session is closed");
        }
    }
}
