package io.derive.engine.exec;

import io.derive.engine.api.BranchId;
import io.derive.engine.api.CommitVote;
import io.derive.engine.api.DeriveException;
import io.derive.engine.api.PreparedStatement;
import io.derive.engine.api.Result;
import io.derive.engine.api.Session;
import io.derive.engine.api.StatementKind;
import io.derive.engine.exec.context.EngineServices;
import io.derive.engine.exec.context.ExecutionContext;
import io.derive.engine.exec.context.Pragmas;
import io.derive.engine.exec.context.StatementWork;
import io.derive.engine.exec.expr.Parameters;
import io.derive.engine.exec.query.QueryPlanCache;
import io.derive.engine.exec.write.ConflictFailure;
import io.derive.engine.exec.write.DeferredRowChecks;
import io.derive.engine.exec.write.ReferentialActions;
import io.derive.engine.plan.functions.StatementClock;
import io.derive.engine.schema.Catalog;
import io.derive.engine.sql.Parser;
import io.derive.engine.sql.ast.Statement;
import io.derive.engine.txn.Cancellation;
import io.derive.engine.txn.SessionResources;
import io.derive.engine.txn.StatementRestart;
import io.derive.engine.txn.Transaction;

import java.lang.System.Logger.Level;
import java.util.Map;

import javax.transaction.xa.Xid;

/**
 * The engine's {@link Session}: parses each statement (a text it ran lately only once:
 * {@link StatementCache}), runs it inside a statement savepoint of
 * the open transaction (or of a transaction of its own in autocommit), and maps every failure
 * to a {@link DeriveException}.
 *
 * <p>{@link #cancel()} runs on any thread, so it touches nothing of the session but the
 * cancellation of its latest transaction, which it reads through a volatile field.
 */
public final class EngineSession implements Session {
    private static final System.Logger LOG = System.getLogger(EngineSession.class.getName());
    /** Runs of one statement that find what they lock changed since their snapshot, before it gives up. */
    private static final int MAX_ATTEMPTS = 64;

    private final EngineServices services;
    private final long id;
    /** "session N of database 'D'", which names this session's transactions in lock waits and errors. */
    private final String description;
    private Transaction explicit;
    private final Pragmas pragmas = new Pragmas();
    private final SqlSavepoints savepoints = new SqlSavepoints();
    private final SessionResources resources;
    private final StatementCache statements;
    private final boolean opensDatabase;
    private boolean closed;
    /**
     * The cancellation of the transaction this session began last, explicit or autocommit. Once
     * that transaction has ended a cancel can change nothing, so it is replaced, never cleared.
     */
    private volatile Cancellation latest;

    /**
     * @param statementCacheSize how many statement texts the session keeps parsed (and planned)
     *                           for the next run of the same text ({@link StatementCache}); 0 keeps none
     * @param opensDatabase      true for a session of the database's own (rehydrate, and the restore of
     *                           what in-doubt branches fenced), which works while the database is
     *                           {@linkplain EngineServices#unavailable unavailable} and on fenced objects
     */
    public EngineSession(EngineServices services, long id, int statementCacheSize, boolean opensDatabase) {
        this.services = services;
        this.id = id;
        this.statements = new StatementCache(statementCacheSize, services.statementTexts());
        this.opensDatabase = opensDatabase;
        this.description = "session " + id + " of database '" + services.databaseName() + "'";
        this.resources = new SessionResources(description, services.committed().snapshots());
    }

    @Override
    public Result execute(String sql, Object... parameters) {
        return run(sql, Parameters.positional(parameters));
    }

    @Override
    public Result execute(String sql, Map<String, ?> parameters) {
        return run(sql, Parameters.named(parameters));
    }

    @Override
    public PreparedStatement prepare(String sql) {
        requireOpen();
        Statement statement = parse(sql);
        QueryPlanCache plans = new QueryPlanCache();
        return new PreparedStatement() {
            @Override
            public Result execute(Object... parameters) {
                return run(statement, sql, Parameters.positional(parameters), plans);
            }

            @Override
            public Result execute(Map<String, ?> parameters) {
                return run(statement, sql, Parameters.named(parameters), plans);
            }
        };
    }

    private static Statement parse(String sql) {
        return Parser.parseStatement(requireText(sql));
    }

    private static String requireText(String sql) {
        if (sql == null) {
            throw new DeriveException(DeriveException.SYNTAX, "no statement to run");
        }
        return sql;
    }

    private Result run(String sql, Parameters parameters) {
        requireOpen();
        statements.forgetPlansOfEarlierSchemas(services.committed().snapshots().latest().catalog());
        StatementCache.Entry entry = statements.of(requireText(sql));
        return run(entry.statement(), sql, parameters, entry.plans());
    }

    /** Runs one statement; its clock readings all see one instant, as in SQLite. */
    private Result run(Statement statement, String sql, Parameters parameters, QueryPlanCache plans) {
        return StatementClock.during(() -> runStatement(statement, sql, parameters, plans));
    }

    private Result runStatement(Statement statement, String sql, Parameters parameters, QueryPlanCache plans) {
        requireOpen();
        forgetDecidedTransaction();
        if (explicit != null && !(statement instanceof Statement.Rollback || statement instanceof Statement.Commit)) {
            // commit reports the cancel itself, rolling the transaction back
            requireNotCanceled(explicit, statement);
        }
        if (statement instanceof Statement.Begin b) {
            begin(b);
            return Result.empty(StatementKind.TRANSACTION);
        }
        if (statement instanceof Statement.Commit c) {
            requireTransaction("commit", c);
            commit();
            return Result.empty(StatementKind.TRANSACTION);
        }
        if (statement instanceof Statement.Rollback r) {
            requireTransaction("rollback", r);
            rollback();
            return Result.empty(StatementKind.TRANSACTION);
        }
        if (statement instanceof Statement.Savepoint s) {
            savepoint(s);
            return Result.empty(StatementKind.TRANSACTION);
        }
        if (statement instanceof Statement.Release r) {
            release(r);
            return Result.empty(StatementKind.TRANSACTION);
        }
        if (statement instanceof Statement.RollbackTo r) {
            int depth = savepoints.rollbackTo(explicit, r.name(), r.span());
            explicit.rollbackTo(depth);
            return Result.empty(StatementKind.TRANSACTION);
        }
        return inStatement(statement, sql, parameters, plans);
    }

    private Result inStatement(Statement statement, String sql, Parameters parameters, QueryPlanCache plans) {
        boolean autocommit = explicit == null;
        Transaction txn = autocommit ? newTransaction() : explicit;
        txn.beginStatement();
        try {
            return inStatement(statement, sql, parameters, plans, txn, autocommit);
        } finally {
            txn.endStatement();
        }
    }

    private Result inStatement(Statement statement, String sql, Parameters parameters, QueryPlanCache plans,
                               Transaction txn, boolean autocommit) {
        for (int attempt = 1; ; attempt++) {
            int savepoint = txn.savepoint();
            try {
                return attempt(statement, sql, parameters, plans, txn, autocommit, savepoint);
            } catch (StatementRestart restart) {
                if (attempt == MAX_ATTEMPTS) {
                    undo(txn, savepoint, autocommit);
                    throw new DeriveException(DeriveException.LOCK_TIMEOUT, "the statement found what it writes changed by "
                            + "concurrent commits " + MAX_ATTEMPTS + " times in a row; retry the transaction",
                            statement.span().line(), statement.span().column());
                }
                txn.rollbackTo(savepoint);
                txn.release(savepoint);
                txn.beginStatement();
            }
        }
    }

    /**
     * One run of a statement inside its savepoint. A {@link StatementRestart} leaves it before
     * anything outside the transaction has seen the statement (schema-change events fire after).
     */
    private Result attempt(Statement statement, String sql, Parameters parameters, QueryPlanCache plans,
                           Transaction txn, boolean autocommit, int savepoint) {
        Catalog before = txn.catalog();
        ExecutionContext context = new ExecutionContext(txn, parameters, sql, services, pragmas, plans, new StatementWork());
        try {
            if (!autocommit) {
                refuseRehydrateInTransaction(statement);
                DdlTransactionPolicy.check(statement, txn.catalog(), pragmas);
            }
            Result result = StatementExecutor.run(statement, context);
            finishStatement(context);
            if (txn.hasWritten()) {
                // The catalog lock a schema change holds was granted on this statement's snapshot
                // or restarted it, so the catalog the statement started from is the committed one.
                services.schemaChanges().fire(before, txn.catalog());
            }
            txn.release(savepoint);
            if (autocommit) {
                txn.commit();
            }
            return result;
        } catch (ConflictFailure f) {
            throw resolve(f, context, savepoint, autocommit, statement);
        } catch (StatementRestart restart) {
            throw restart;
        } catch (OutOfMemoryError e) {
            // The heap watch (HeapPressure) came too late. What the statement held is unreachable
            // now but for its context: dropped before the undo, which allocates.
            context = null;
            undo(txn, savepoint, autocommit);
            throw new DeriveException(DeriveException.OUT_OF_MEMORY, "the statement ran out of memory and was undone;"
                    + " a statement that holds fewer rows at once (a limit, a narrower where clause) can run",
                    statement.span().line(), statement.span().column());
        } catch (RuntimeException e) {
            // A statement the heap stopped lets go of its rows here (its undo ends it, under autocommit).
            context = null;
            undo(txn, savepoint, autocommit);
            DeriveException reported = asDeriveException(e, statement);
            if (DeriveException.DEADLOCK.equals(reported.code()) && !autocommit) {
                // A deadlock victim ends its transaction, so that the others in the cycle go on.
                rollback();
                throw reported.withEndedTransaction();
            }
            throw reported;
        }
    }

    /**
     * A refill of a view pending a deferred rehydrate commits on its own: the commit that makes
     * its rows the body's also makes the view readable, which a later rollback (to a savepoint or
     * of a transaction that went on writing) could not take back from the statements that read it.
     */
    private static void refuseRehydrateInTransaction(Statement statement) {
        if (statement instanceof Statement.RehydrateMaterializedView) {
            throw new DeriveException(DeriveException.TRANSACTION_STATE, "rehydrate materialized view is not allowed inside"
                    + " a transaction: it commits its refill on its own (run it outside begin … commit)",
                    statement.span().line(), statement.span().column());
        }
    }

    /**
     * The work a statement leaves for its end, in order: the maintenance deferred to it, the
     * foreign-key checks of the engine's own parent-side actions, and the hand-over of the rows
     * whose constraints are checked at commit.
     */
    private void finishStatement(ExecutionContext context) {
        services.materializedViews().endOfStatement(context);
        ReferentialActions.finishStatement(context);
        DeferredRowChecks.schedule(context);
    }

    /**
     * A conflict clause's outcome: {@code or fail} keeps the statement's work before the failing
     * row (the savepoint is released, and committed in autocommit); {@code or rollback} ends the
     * transaction. Returns the error to report.
     */
    private DeriveException resolve(ConflictFailure f, ExecutionContext context, int savepoint, boolean autocommit,
                                    Statement statement) {
        Transaction txn = context.transaction();
        if (f.outcome() == ConflictFailure.Outcome.KEEP_STATEMENT_WORK) {
            try {
                // The rows written before the failing one stay, so their deferred maintenance runs.
                finishStatement(context);
                txn.release(savepoint);
                if (autocommit) {
                    txn.commit();
                }
            } catch (StatementRestart restart) {
                throw restart;
            } catch (RuntimeException e) {
                undo(txn, savepoint, autocommit);
                return asDeriveException(e, statement);
            }
            return f.reported();
        }
        if (autocommit) {
            undo(txn, savepoint, true);
            return f.reported();
        }
        rollback();
        return f.reported().withEndedTransaction();
    }

    /** {@code savepoint name}: outside a transaction it starts one, as in SQLite. */
    private void savepoint(Statement.Savepoint s) {
        boolean starts = explicit == null;
        if (starts) {
            explicit = newTransaction();
        }
        savepoints.opened(explicit, s.name(), explicit.savepoint(), starts);
    }

    /** {@code release name}: keeps the work; releasing the savepoint that began the transaction commits it. */
    private void release(Statement.Release r) {
        Transaction txn = explicit;
        int depth = savepoints.release(txn, r.name(), r.span());
        txn.release(depth);
        if (savepoints.transactionEnds(txn)) {
            commit();
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

    private static void requireNotCanceled(Transaction txn, Statement statement) {
        try {
            txn.cancellation().check();
        } catch (DeriveException e) {
            throw asDeriveException(e, statement);
        }
    }

    private static DeriveException asDeriveException(RuntimeException e, Statement statement) {
        if (e instanceof DeriveException d) {
            // The operator that noticed the cancel, or the full heap, knows no statement text.
            return DeriveException.CANCELED.equals(d.code()) || DeriveException.OUT_OF_MEMORY.equals(d.code())
                    ? d.at(statement.span().line(), statement.span().column()) : d;
        }
        LOG.log(Level.ERROR, "internal error running a statement", e);
        return new DeriveException(DeriveException.INTERNAL,
                "internal error while running the statement; the database log has the details", e)
                .at(statement.span().line(), statement.span().column());
    }

    @Override
    public void begin() {
        beginBranch(null);
    }

    @Override
    public void begin(Xid xid) {
        BranchId branch = BranchId.of(xid);
        if (services.committed().branches().contains(branch)) {
            throw new DeriveException(DeriveException.DUPLICATE_OBJECT, "branch " + branch
                    + " is already prepared in database '" + services.databaseName() + "'");
        }
        beginBranch(branch);
    }

    private void beginBranch(BranchId branch) {
        requireOpen();
        forgetDecidedTransaction();
        if (explicit != null) {
            throw new DeriveException(DeriveException.TRANSACTION_STATE,
                    "cannot start a transaction within a transaction");
        }
        explicit = newTransaction(branch);
    }

    /** A prepared branch may be decided from another session ({@code commitInDoubt}); this one then has none. */
    private void forgetDecidedTransaction() {
        if (explicit != null && !explicit.isActive() && !explicit.isPrepared()) {
            explicit = null;
        }
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
        forgetDecidedTransaction();
        if (explicit == null) {
            throw new DeriveException(DeriveException.TRANSACTION_STATE, "no transaction is open to prepare");
        }
        CommitVote vote;
        try {
            vote = explicit.prepare();
        } catch (RuntimeException e) {
            // a check deferred to commit or a connection's prepare failed: the transaction rolled back
            if (!explicit.isActive()) {
                explicit = null;
            }
            throw e;
        }
        if (vote == CommitVote.READ_ONLY) {
            explicit = null;
        }
        return vote;
    }

    @Override
    public void commit() {
        requireOpen();
        forgetDecidedTransaction();
        if (explicit == null) {
            throw new DeriveException(DeriveException.TRANSACTION_STATE, "no transaction is open to commit");
        }
        Transaction txn = explicit;
        try {
            txn.commit();
        } finally {
            if (!txn.isPrepared()) {
                explicit = null;
            }
        }
    }

    @Override
    public void rollback() {
        forgetDecidedTransaction();
        if (explicit != null) {
            Transaction txn = explicit;
            explicit = null;
            txn.rollback();
        }
    }

    @Override
    public boolean inTransaction() {
        forgetDecidedTransaction();
        return explicit != null;
    }

    @Override
    public void cancel() {
        Cancellation current = latest;
        if (current != null) {
            current.cancel();
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        forgetDecidedTransaction();
        if (explicit != null && explicit.isPrepared() && explicit.branch() != null) {
            // XA: a prepared branch is the transaction manager's to decide, never rolled back here.
            services.committed().branches().park(explicit, resources);
            explicit = null;
            return;
        }
        try {
            rollback();
        } finally {
            resources.close();
        }
    }

    private Transaction newTransaction() {
        return newTransaction(null);
    }

    private Transaction newTransaction(BranchId branch) {
        if (!opensDatabase) {
            services.requireAvailable();
        }
        resources.branch(branch);
        Transaction txn = new Transaction(services.committed(), resources, description, !opensDatabase);
        latest = txn.cancellation();
        return txn;
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
