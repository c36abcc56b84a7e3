package io.derive.derby;

import io.derive.engine.api.DeriveException;

import java.lang.System.Logger.Level;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * One engine transaction's work on the Derby host: its pending rows of every Derby table it
 * writes ({@link PendingRows}), and a Derby transaction on the session's connection, shared by
 * the connections of every Derby table the engine transaction registers.
 *
 * <p>Writes stay engine-side until the transaction prepares: then one {@link Flush} registers
 * their before-images and writes them to Derby in batches. So Derby holds row locks only from
 * the flush to the end of the transaction, readers (which take none) never wait for them, and
 * the engine's nested savepoints are references to earlier pending versions — Derby allows one
 * SQL {@code SAVEPOINT} at a time in a transaction (a second one fails with 3B002) and refuses
 * JDBC savepoints inside an XA branch (XJ058), while the engine nests a statement savepoint
 * inside the user's.
 *
 * <p>The engine calls each savepoint operation once per registered connection; all of them land
 * here, so each is written to be harmless when repeated: a savepoint opens depths not open yet,
 * a release closes depths still open, a second rollback to the same depth restores the same
 * version. Flush, prepare, commit and rollback likewise run once however many connections ask.
 *
 * <p>Derby ends a transaction by itself on a deadlock or lock timeout (SQLState class 40); the
 * transaction is then doomed: every later use fails with that cause until the engine rolls back.
 *
 * <p>A transaction {@linkplain #onBranch on a branch} of a global transaction is Derby's XA
 * branch of the same xid: {@link #prepareDurably()} is Derby's {@code prepare}, so that the branch
 * outlives a crash in doubt; commit and rollback are Derby's, one-phase when it was not prepared.
 */
final class DerbyTransaction {
    private static final System.Logger LOG = System.getLogger(DerbyTransaction.class.getName());
    /**
     * Test hook of the crash tests: a pause just before Derby commits, so that a process killed
     * at random is often killed inside a commit. Zero (no pause) unless the system property is set.
     */
    private static final long COMMIT_PAUSE_MILLIS = Long.getLong("derive.derby.testCommitPauseMillis", 0);

    /** Derby's own default lock-escalation threshold: past it, a connection's lock table is worth renewing. */
    private static final int RENEW_CONNECTION_AFTER_KEYS = 5_000;

    private final DerbySession session;
    private final Xid branch;
    private BranchState branchState;
    private Map<DerbyTable, PendingRows> pending = new LinkedHashMap<>();
    private final List<Map<DerbyTable, PendingRows>> marks = new ArrayList<>();
    private final List<ResultCursor> openCursors = new ArrayList<>();
    private DerbyTable lastReadTable;
    private byte[] lastReadKey;
    private long lastReadSnapshot;
    private Object[] lastReadRow;
    private Flush flush;
    /** The qualified names of the Derby tables the flush wrote. */
    private final List<String> tablesWritten = new ArrayList<>();
    /** True once the in-doubt manifest names this branch. */
    private boolean recorded;
    private boolean wrote;
    private boolean ended;
    /** The Derby transaction has committed; {@link #commit} has yet to number its before-images. */
    private boolean durable;
    private DeriveException doomedBy;

    /** Where a Derby XA branch stands: started, prepared, or finished by a read-only prepare. */
    private enum BranchState { STARTED, PREPARED, FINISHED }

    DerbyTransaction(DerbySession session) {
        this(session, null);
    }

    private DerbyTransaction(DerbySession session, Xid branch) {
        this.session = session;
        this.branch = branch;
    }

    /**
     * A transaction on Derby's branch {@code xid}, started now on the session's XA connection.
     *
     * @throws DeriveException {@link DeriveException#DUPLICATE_OBJECT} when Derby already has a
     *         branch of that xid (a live one, or one in doubt)
     */
    static DerbyTransaction onBranch(DerbySession session, Xid xid) {
        try {
            session.xaResource().start(xid, XAResource.TMNOFLAGS);
        } catch (XAException e) {
            if (e.errorCode == XAException.XAER_DUPID) {
                throw new DeriveException(DeriveException.DUPLICATE_OBJECT, "Derby database '"
                        + session.module().store().location() + "' already has a transaction branch " + xid, e);
            }
            throw session.module().store().xaFailure("start branch " + xid + " on", e);
        }
        DerbyTransaction t = new DerbyTransaction(session, xid);
        t.branchState = BranchState.STARTED;
        return t;
    }

    /** True for a branch Derby has prepared and not yet committed or rolled back. */
    boolean preparedBranch() {
        return branchState == BranchState.PREPARED && !ended;
    }

    DerbySession session() {
        return session;
    }

    boolean ended() {
        return ended;
    }

    /** The transaction's pending rows of {@code table}. */
    PendingRows pending(DerbyTable table) {
        return pending.getOrDefault(table, PendingRows.EMPTY);
    }

    /** Records a write of {@code row} ({@code null}: a delete) at {@code key} of {@code table}, whose committed row is {@code committed}. */
    void write(DerbyTable table, byte[] key, Object[] committed, Object[] row) {
        requireUsable();
        if (flush != null) {
            throw new DeriveException(DeriveException.TRANSACTION_STATE, "the Derby transaction has prepared; it takes no more writes");
        }
        if (!wrote) {
            wrote = true;
            session.module().writerStarted(this);
        }
        pending.put(table, pending(table).write(key, committed, row));
    }

    /**
     * Remembers the row just read at {@code key} as of {@code snapshot}: the engine reads a row
     * and then writes the same key (a constraint check before an insert, a maintenance upsert),
     * and the write needs the committed row it replaces, so the second read is answered from
     * here. Only the last read is kept.
     */
    void rememberRead(DerbyTable table, byte[] key, long snapshot, Object[] row) {
        lastReadTable = table;
        lastReadKey = key;
        lastReadSnapshot = snapshot;
        lastReadRow = row;
    }

    /** True when the last read was of {@code key} in {@code table} as of {@code snapshot}; see {@link #lastRead()}. */
    boolean justRead(DerbyTable table, byte[] key, long snapshot) {
        return lastReadTable == table && lastReadSnapshot == snapshot && Arrays.equals(lastReadKey, key);
    }

    Object[] lastRead() {
        return lastReadRow;
    }

    void cursorOpened(ResultCursor cursor) {
        openCursors.add(cursor);
    }

    void cursorClosed(ResultCursor cursor) {
        openCursors.remove(cursor);
    }

    void savepoint(int depth) {
        while (marks.size() < depth) {
            marks.add(new LinkedHashMap<>(pending));
        }
    }

    void release(int depth) {
        while (marks.size() >= depth && !marks.isEmpty()) {
            marks.remove(marks.size() - 1);
        }
    }

    void rollbackTo(int depth) {
        if (doomedBy != null || marks.size() < depth) {
            return;
        }
        pending = new LinkedHashMap<>(marks.get(depth - 1));
        while (marks.size() > depth) {
            marks.remove(marks.size() - 1);
        }
    }

    /**
     * Writes the pending rows to Derby, once however many connections ask: the before-images of
     * every key space first, then the writes.
     *
     * @throws DeriveException when Derby fails or disagrees with the engine; the transaction is then doomed
     */
    void flush() {
        if (flush != null || ended) {
            return;
        }
        requireUsable();
        closeCursors();
        if (!pending.isEmpty()) {
            session.module().store().lockSettingsForWriters();
        }
        Flush f = new Flush(session.module());
        flush = f;
        Map<DerbyTable, DerbyTable.TableChanges> changes = new LinkedHashMap<>();
        pending.forEach((table, rows) -> changes.put(table, table.changes(rows)));
        changes.forEach((table, c) -> {
            table.register(c, f);
            tablesWritten.addAll(table.tablesWritten(c));
        });
        try {
            for (Map.Entry<DerbyTable, DerbyTable.TableChanges> e : changes.entrySet()) {
                e.getKey().write(this, e.getValue(), f);
            }
        } catch (SQLException e) {
            doomedBy = fail("write the transaction's rows to", e);
            throw doomedBy;
        } catch (DeriveException e) {
            doomedBy = e;
            throw e;
        }
    }

    /**
     * Prepares Derby's branch once, however many connections ask; a transaction without a
     * branch has nothing to do. Derby votes read-only when the branch wrote nothing, and has
     * then finished it. Before Derby prepares, the {@link InDoubtManifest} records what the
     * branch wrote: once prepared, the branch may outlive this process in doubt.
     */
    void prepareDurably() {
        if (branchState != BranchState.STARTED || ended) {
            return;
        }
        flush();
        if (!tablesWritten.isEmpty()) {
            try {
                session.module().inDoubtManifest().record(branch, tablesWritten);
            } catch (DeriveException e) {
                doomedBy = e;
                throw e;
            }
            recorded = true;
        }
        XAResource xa = session.xaResource();
        try {
            xa.end(branch, XAResource.TMSUCCESS);
            branchState = xa.prepare(branch) == XAResource.XA_RDONLY ? BranchState.FINISHED : BranchState.PREPARED;
        } catch (XAException e) {
            // Derby has rolled the branch back, or it still is to be rolled back: the engine does that next.
            doomedBy = session.module().store().xaFailure("prepare branch " + branch + " on", e);
            throw doomedBy;
        }
    }

    /**
     * Commits the Derby transaction, once however many connections ask. Its rows stay invisible
     * to snapshots: its before-images are still in flight until {@link #commit} numbers them.
     */
    void commitDurably() {
        if (ended || durable) {
            return;
        }
        if (branchState != BranchState.PREPARED) {
            flush();
        }
        closeCursors();
        pauseForCrashTests();
        try {
            if (branch == null) {
                session.connection().commit();
            } else {
                commitBranch();
            }
        } catch (SQLException e) {
            throw fail("commit", e);
        } catch (XAException e) {
            throw session.module().store().xaFailure("commit branch " + branch + " on", e);
        }
        durable = true;
    }

    /** Before the commit takes its number: lets go of the before-images no snapshot from {@code oldestRead} on needs. */
    void stage(long oldestRead) {
        session.module().retireOlderThan(oldestRead);
    }

    /**
     * Commits the Derby transaction ({@link #commitDurably()}) unless it is durable already, then
     * marks its before-images as commit {@code sequence}'s.
     */
    void commit(long sequence) {
        if (ended) {
            return;
        }
        commitDurably();
        if (flush != null) {
            flush.committed(sequence);
            session.module().retireLater(flush);
        }
        finish();
    }

    private void commitBranch() throws XAException {
        XAResource xa = session.xaResource();
        switch (branchState) {
            case STARTED -> {
                xa.end(branch, XAResource.TMSUCCESS);
                xa.commit(branch, true);
            }
            case PREPARED -> xa.commit(branch, false);
            case FINISHED -> {
            }
        }
        branchState = BranchState.FINISHED;
    }

    private static void pauseForCrashTests() {
        if (COMMIT_PAUSE_MILLIS > 0) {
            try {
                Thread.sleep(COMMIT_PAUSE_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Rolls the Derby transaction back once, however many connections ask; never throws. */
    void rollback() {
        if (ended) {
            return;
        }
        closeCursors();
        try {
            if (branch == null) {
                session.connection().rollback();
            } else {
                rollbackBranch();
            }
        } catch (SQLException | XAException e) {
            LOG.log(Level.WARNING, "rollback on " + session.module().store().location() + " failed", e);
        }
        if (flush != null) {
            // Asked after Derby rolled back: a statement reading a later snapshot started after that.
            flush.abandoned(session.host().latestSequence());
            session.module().retireLater(flush);
        }
        finish();
    }

    private void rollbackBranch() throws XAException {
        XAResource xa = session.xaResource();
        if (branchState == BranchState.STARTED) {
            try {
                xa.end(branch, XAResource.TMFAIL);
            } catch (XAException e) {
                // An XA_RB* answer: Derby has marked or rolled the branch back already; the rollback below finishes it.
                LOG.log(Level.DEBUG, "end of branch {0} before its rollback: {1}", branch, e.getMessage());
            }
        }
        if (branchState != BranchState.FINISHED) {
            try {
                xa.rollback(branch);
            } catch (XAException e) {
                if (e.errorCode != XAException.XAER_NOTA) {
                    throw e;
                }
            }
        }
        branchState = BranchState.FINISHED;
    }

    /** The error for a failed JDBC call; a class-40 failure dooms the transaction. */
    DeriveException fail(String action, SQLException e) {
        DeriveException error = session.failure(action, e);
        if (e.getSQLState() != null && e.getSQLState().startsWith("40")) {
            doomedBy = error;
        }
        return error;
    }

    void requireUsable() {
        if (ended) {
            throw new DeriveException(DeriveException.TRANSACTION_STATE, "the Derby transaction has already ended");
        }
        if (doomedBy != null) {
            throw new DeriveException(DeriveException.TRANSACTION_STATE, "Derby rolled this transaction back ("
                    + doomedBy.getMessage() + "); roll back and retry", doomedBy);
        }
    }

    private void closeCursors() {
        for (ResultCursor cursor : List.copyOf(openCursors)) {
            cursor.close();
        }
    }

    private void finish() {
        ended = true;
        if (recorded) {
            session.module().inDoubtManifest().completed(branch);
        }
        pending = new LinkedHashMap<>();
        marks.clear();
        tablesWritten.clear();
        if (flush != null && flush.keysWritten() > RENEW_CONNECTION_AFTER_KEYS) {
            session.renewConnection();
        }
        if (wrote) {
            session.module().writerEnded(this);
        }
        session.module().store().runPendingDrops();
    }
}
