package io.derive.derby;

import io.derive.engine.api.DeriveException;

import java.lang.System.Logger.Level;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * One engine transaction's work on the Derby host: a Derby transaction on the session's
 * connection, shared by the connections of every Derby table the engine transaction registers.
 *
 * <p>The engine's nested savepoints are kept here, as an undo log of before-images, not as Derby
 * savepoints: Derby allows one SQL {@code SAVEPOINT} at a time in a transaction (a second one
 * fails with 3B002) and refuses JDBC savepoints inside an XA branch (XJ058), while the engine
 * nests a statement savepoint inside the user's. Every write records the row it replaced, and
 * {@code rollbackTo} writes those rows back through the same connection, newest first.
 *
 * <p>The engine calls each savepoint operation once per registered connection; all of them land
 * here, so each is written to be harmless when repeated: a savepoint opens depths not open yet,
 * a release closes depths still open, a second rollback to the same depth finds nothing to undo.
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

    private final DerbySession session;
    private final Xid branch;
    private BranchState branchState;
    private final List<Undo> undo = new ArrayList<>();
    private final List<Integer> marks = new ArrayList<>();
    private final Map<DerbyTable, long[]> rowDeltas = new IdentityHashMap<>();
    private final List<ResultCursor> openCursors = new ArrayList<>();
    private DerbyTable lastReadTable;
    private byte[] lastReadKey;
    private Object[] lastReadRow;
    private boolean wrote;
    private boolean ended;
    private DeriveException doomedBy;

    /** The row a write replaced ({@code null} when it inserted), by the written row's encoded key. */
    private record Undo(DerbyTable table, byte[] key, Object[] before) {
    }

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

    /**
     * Called before every write to {@code table}: the cursors open on it finish reading first, so
     * that a scan keeps the contents it started with (the engine may write while it scans).
     */
    void beforeWrite(DerbyTable table) {
        requireUsable();
        for (ResultCursor cursor : List.copyOf(openCursors)) {
            if (cursor.table() == table) {
                cursor.drain();
            }
        }
        if (!wrote) {
            wrote = true;
            session.module().writerStarted(this);
        }
    }

    /** Records a write of {@code table} at {@code key} that replaced {@code before} ({@code null}: nothing). */
    void wrote(DerbyTable table, byte[] key, Object[] before, int rowDelta) {
        if (!marks.isEmpty()) {
            undo.add(new Undo(table, key, before));
        }
        if (rowDelta != 0) {
            rowDeltas.computeIfAbsent(table, t -> new long[1])[0] += rowDelta;
        }
    }

    /**
     * Remembers the row just read at {@code key}: the engine reads a row and then writes the same
     * key (a constraint check before an insert, a maintenance upsert), and the write needs the
     * row it replaces, so the second read is answered from here. Only the last read is kept, and
     * every write forgets it.
     */
    void rememberRead(DerbyTable table, byte[] key, Object[] row) {
        lastReadTable = table;
        lastReadKey = key;
        lastReadRow = row;
    }

    /** True when the last read was of {@code key} in {@code table} and nothing was written since; see {@link #lastRead()}. */
    boolean justRead(DerbyTable table, byte[] key) {
        return lastReadTable == table && java.util.Arrays.equals(lastReadKey, key);
    }

    Object[] lastRead() {
        return lastReadRow;
    }

    void forgetRead() {
        lastReadTable = null;
        lastReadKey = null;
        lastReadRow = null;
    }

    void cursorOpened(ResultCursor cursor) {
        openCursors.add(cursor);
    }

    void cursorClosed(ResultCursor cursor) {
        openCursors.remove(cursor);
    }

    void savepoint(int depth) {
        while (marks.size() < depth) {
            marks.add(undo.size());
        }
    }

    void release(int depth) {
        while (marks.size() >= depth && !marks.isEmpty()) {
            marks.remove(marks.size() - 1);
        }
        if (marks.isEmpty()) {
            undo.clear();
        }
    }

    void rollbackTo(int depth) {
        if (doomedBy != null || marks.size() < depth) {
            return;
        }
        int mark = marks.get(depth - 1);
        while (undo.size() > mark) {
            Undo u = undo.remove(undo.size() - 1);
            u.table().restore(this, u.key(), u.before());
        }
        while (marks.size() > depth) {
            marks.remove(marks.size() - 1);
        }
    }

    /** Adds {@code delta} to the net row count change of {@code table} (an undo adjusting what {@link #wrote} counted). */
    void adjustRows(DerbyTable table, int delta) {
        rowDeltas.computeIfAbsent(table, t -> new long[1])[0] += delta;
    }

    /**
     * Prepares Derby's branch once, however many connections ask; a transaction without a
     * branch has nothing to do. Derby votes read-only when the branch wrote nothing, and has
     * then finished it.
     */
    void prepareDurably() {
        if (branchState != BranchState.STARTED || ended) {
            return;
        }
        requireUsable();
        closeCursors();
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

    /** Commits the Derby transaction once, however many connections ask. */
    void commit() {
        if (ended) {
            return;
        }
        if (branchState != BranchState.PREPARED) {
            requireUsable();
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
        rowDeltas.forEach((table, delta) -> table.committed(delta[0]));
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
        undo.clear();
        marks.clear();
        if (wrote) {
            session.module().writerEnded(this);
        }
        session.module().store().runPendingDrops();
    }
}
