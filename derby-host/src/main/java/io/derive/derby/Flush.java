package io.derive.derby;

import io.derive.engine.api.DeriveException;

import java.sql.BatchUpdateException;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One transaction's flush: its pending rows and index entries written to Derby in batches, and
 * what it registered in the key spaces' {@link BeforeImages} first, so that its commit can mark
 * those versions committed and its rollback withdraw them.
 *
 * <p>Every value and key was checked when its statement wrote it; a flush fails only for what
 * Derby itself reports (I/O, locks) or for an update count that is not what the pending rows
 * say Derby holds, and the transaction then rolls back whole.
 */
final class Flush {
    /** Parameter sets per {@code executeBatch}: large enough to amortize the call, small enough to bound Derby's buffers. */
    private static final int BATCH = 1000;
    /**
     * Test hook of the crash tests: halt the JVM ({@link Runtime#halt}) right after this many
     * batches have reached Derby, counted over the JVM, inside a flush. Zero (never) unless the
     * system property is set.
     */
    private static final int HALT_AFTER_BATCHES = Integer.getInteger("derive.derby.testHaltAfterFlushBatches", 0);
    private static final AtomicInteger BATCHES = new AtomicInteger();

    private record Written(BeforeImages images, byte[] key) {
    }

    private final DerbyTableModule module;
    private final List<Written> written = new ArrayList<>();
    private final Map<DerbyTable, long[]> rowDeltas = new IdentityHashMap<>();
    private long sequence;

    Flush(DerbyTableModule module) {
        this.module = module;
    }

    /** Registers, before the flush writes Derby at {@code key}, what the key held. */
    void writing(BeforeImages images, byte[] key, Object before) {
        images.writing(key, before);
        written.add(new Written(images, key));
    }

    void countRows(DerbyTable table, long delta) {
        rowDeltas.computeIfAbsent(table, t -> new long[1])[0] += delta;
    }

    /**
     * Adds the current parameters to {@code batch} and runs it when it is full. {@code pending}
     * counts the sets added since the last run; the returned count replaces it.
     */
    int add(PreparedStatement batch, int pending, String what) throws SQLException {
        batch.addBatch();
        if (pending + 1 < BATCH) {
            return pending + 1;
        }
        run(batch, pending + 1, what);
        return 0;
    }

    /**
     * Runs the {@code count} parameter sets of {@code batch} added since its last run, each of
     * which must change exactly one row.
     *
     * @throws DeriveException with code INTERNAL when Derby changed another number of rows
     */
    void run(PreparedStatement batch, int count, String what) throws SQLException {
        if (count == 0) {
            return;
        }
        module.executed(count);
        int[] counts;
        try {
            counts = batch.executeBatch();
        } catch (BatchUpdateException e) {
            if ("23505".equals(e.getSQLState())) {
                throw mismatch(what, "a row the transaction inserts is already there");
            }
            throw e;
        }
        for (int n : counts) {
            if (n != 1) {
                throw mismatch(what, "a write changed " + n + " rows, not 1");
            }
        }
        if (HALT_AFTER_BATCHES > 0 && BATCHES.incrementAndGet() == HALT_AFTER_BATCHES) {
            Runtime.getRuntime().halt(HALTED);
        }
    }

    /** The exit status of a JVM the crash-test hook halted. */
    static final int HALTED = 86;

    private static DeriveException mismatch(String what, String detail) {
        return new DeriveException(DeriveException.INTERNAL, "the flush of " + what + " found Derby out of step with the engine: "
                + detail + "; the transaction rolls back");
    }

    /** The flush's versions belong to commit {@code sequence}; the tables' row counts move by what it wrote. */
    void committed(long sequence) {
        this.sequence = sequence;
        for (Written w : written) {
            w.images().committed(w.key(), sequence);
        }
        rowDeltas.forEach((table, delta) -> table.committed(delta[0]));
    }

    /** How many keys, of rows and of index entries, the flush wrote: as many as Derby holds row locks for. */
    int keysWritten() {
        return written.size();
    }

    /** The commit this flush was, once {@link #committed}. */
    long sequence() {
        return sequence;
    }

    /** Forgets the versions no statement reads: none reads a snapshot older than {@code oldestRead}. */
    void retire(long oldestRead) {
        for (Written w : written) {
            w.images().retire(w.key(), oldestRead);
        }
    }

    /**
     * The transaction rolled back: Derby holds the earlier values again, and {@code latest} was
     * the latest commit then. The before-images stay for the snapshots up to it
     * ({@link BeforeImages#abandoned}), retired as those of a commit numbered after it.
     */
    void abandoned(long latest) {
        this.sequence = latest + 1;
        for (Written w : written) {
            w.images().abandoned(w.key(), latest);
        }
    }
}
