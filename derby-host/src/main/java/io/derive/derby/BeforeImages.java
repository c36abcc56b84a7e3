package io.derive.derby;

import java.util.Arrays;
import java.util.Collections;
import java.util.NavigableSet;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * What the keys of one Derby key space (a table's rows, or an index's entries) held before the
 * writes a snapshot must not see: those of a transaction that has written them to Derby and not
 * committed, and those of commits newer than a statement's snapshot.
 *
 * <p>Readers read Derby without locks (read uncommitted), so they see every write Derby has; a
 * flush {@linkplain #writing registers} each key's earlier value before it writes the key, and a
 * reader looks a key up {@linkplain #at here} after reading it, so that whichever of the two came
 * first, the reader answers with the value its snapshot holds. Versions stay until no statement
 * reads a snapshot older than their commit ({@link #retire}).
 *
 * <p>Keys are encoded keys in Derby's order for {@code for bit data} (unsigned bytes); values are
 * engine rows for a table and encoded physical keys for an index, {@code null} for no row.
 */
final class BeforeImages {
    /** The answer of {@link #at} for a key whose value in Derby is the snapshot's. */
    static final Object SETTLED = new Object();
    /** The sequence of a version whose transaction has not committed. */
    private static final long IN_FLIGHT = Long.MAX_VALUE;

    /** The value a key held before a write, and the commit that wrote it. */
    private record Version(long sequence, Object before) {
        boolean hiddenFrom(long snapshot) {
            return sequence == IN_FLIGHT || sequence > snapshot;
        }
    }

    private final ConcurrentSkipListMap<byte[], Version[]> versions = new ConcurrentSkipListMap<>(Arrays::compareUnsigned);
    private final AtomicLong writes = new AtomicLong();
    private final AtomicInteger rewrites = new AtomicInteger();

    /** Registers, before Derby is written at {@code key}, the value it held ({@code null}: none). */
    void writing(byte[] key, Object before) {
        versions.merge(key, new Version[] {new Version(IN_FLIGHT, before)}, BeforeImages::append);
        // Counted after the version: whoever reads the count before this sees the version too.
        writes.incrementAndGet();
    }

    /** Announces a rewrite of the whole key space that keeps no versions, ended by {@link #rewritten}. */
    void rewriting() {
        rewrites.incrementAndGet();
        writes.incrementAndGet();
    }

    /** The rewrite {@link #rewriting} announced is committed or abandoned in Derby. */
    void rewritten() {
        writes.incrementAndGet();
        rewrites.decrementAndGet();
    }

    /**
     * How many writes have been announced so far: a reader that reads this, then finds
     * {@link #settledFor} its snapshot, then reads Derby, then reads this again unchanged, has read
     * exactly the snapshot's rows.
     */
    long writes() {
        return writes.get();
    }

    /** Whether Derby holds exactly {@code snapshot}'s rows: no rewrite runs and no key holds a version hidden from it. */
    boolean settledFor(long snapshot) {
        if (rewrites.get() > 0) {
            return false;
        }
        for (Version[] history : versions.values()) {
            for (Version v : history) {
                if (v.hiddenFrom(snapshot)) {
                    return false;
                }
            }
        }
        return true;
    }

    /** The write at {@code key} committed as commit {@code sequence}. */
    void committed(byte[] key, long sequence) {
        versions.computeIfPresent(key, (k, history) -> {
            Version[] next = history.clone();
            for (int i = 0; i < next.length; i++) {
                if (next[i].sequence() == IN_FLIGHT) {
                    next[i] = new Version(sequence, next[i].before());
                }
            }
            return next;
        });
    }

    /**
     * The write at {@code key} rolled back: Derby holds the earlier value again. A reader may
     * have read the write in Derby before the rollback and ask {@link #at} only now, so the
     * earlier value stays the answer for every snapshot up to {@code latest}, the latest commit
     * when Derby had rolled back (no statement that started later read the write), until
     * {@link #retire} finds no snapshot that old.
     */
    void abandoned(byte[] key, long latest) {
        committed(key, latest + 1);
    }

    /** Forgets the versions of commits up to {@code oldestRead}: no statement reads a snapshot before them. */
    void retire(byte[] key, long oldestRead) {
        versions.computeIfPresent(key, (k, history) -> keep(history, v -> v.hiddenFrom(oldestRead)));
    }

    /**
     * What {@code key} holds in {@code snapshot}, given that Derby was read at it before this
     * call: {@link #SETTLED} when it is what Derby has, else the value (a row, a key, or
     * {@code null} for none) the oldest write hidden from the snapshot replaced.
     */
    Object at(byte[] key, long snapshot) {
        Version[] history = versions.get(key);
        if (history != null) {
            for (Version v : history) {
                if (v.hiddenFrom(snapshot)) {
                    return v.before();
                }
            }
        }
        return SETTLED;
    }

    /** The keys with versions between {@code from} and {@code to} ({@code null}: unbounded), in order. */
    NavigableSet<byte[]> keys(byte[] from, boolean fromInclusive, byte[] to, boolean toInclusive) {
        if (from == null && to == null) {
            return versions.navigableKeySet();
        }
        if (from == null) {
            return versions.headMap(to, toInclusive).navigableKeySet();
        }
        if (to == null) {
            return versions.tailMap(from, fromInclusive).navigableKeySet();
        }
        if (Arrays.compareUnsigned(from, to) > 0) {
            return Collections.emptyNavigableSet();
        }
        return versions.subMap(from, fromInclusive, to, toInclusive).navigableKeySet();
    }

    boolean isEmpty() {
        return versions.isEmpty();
    }

    private static Version[] append(Version[] history, Version[] added) {
        Version[] next = Arrays.copyOf(history, history.length + added.length);
        System.arraycopy(added, 0, next, history.length, added.length);
        return next;
    }

    private static Version[] keep(Version[] history, Predicate<Version> kept) {
        Version[] next = Arrays.stream(history).filter(kept).toArray(Version[]::new);
        return next.length == 0 ? null : next;
    }
}
