package io.derive.engine.txn;

import io.derive.engine.api.DeriveException;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * The locks of one database's transactions: what each holds, who waits for what, and when a lock
 * was last held by a transaction that committed.
 *
 * <p>A transaction asks for a lock as a statement discovers what it writes or what a check reads,
 * and holds it until it ends (strict two-phase locking). A request that conflicts with another
 * transaction's lock, or with an earlier waiter's request, waits until it can be granted, at most
 * the given timeout; a request whose wait would close a cycle of waiting transactions fails at
 * once, and so a deadlock costs one victim and no wait.
 *
 * <p>Statements read a snapshot, not the latest state, so a lock granted now may protect something
 * a commit changed after the statement's snapshot. {@link #acquire} therefore returns the latest
 * commit sequence of a transaction that held the lock in a conflicting mode: when it is newer than
 * the statement's snapshot, the statement read a stale state and must read again under the lock
 * it now holds. An idle lock is forgotten only once every open snapshot is at least as new as that
 * commit, so the answer is exact for every statement that can still ask.
 *
 * <p>One monitor guards the table; it is held for map operations, never across a wait.
 */
public final class LockTable {
    /** A lockable thing: a table, a row or group by key, a value of a unique index, the catalog. */
    public record Name(Object space, Object key) {
    }

    /** One line of {@code locks()}: a holder or a waiter of a lock. */
    public record Row(String transaction, boolean waiting, String object, LockMode mode, Instant since) {
    }

    /** How often the table has made transactions wait, chosen a deadlock victim, and let a wait time out. */
    public record Counters(long waits, long deadlocks, long timeouts) {
    }

    private final String databaseName;
    private final ReentrantLock monitor = new ReentrantLock();
    private final Map<Name, Entry> entries = new HashMap<>();
    private final Map<LockOwner, Set<Name>> held = new IdentityHashMap<>();
    private final Map<LockOwner, Waiter> waiting = new IdentityHashMap<>();
    /** Idle entries kept for their commit stamps, oldest stamp first. */
    private final ArrayDeque<Entry> idle = new ArrayDeque<>();
    private long waits;
    private long deadlocks;
    private long timeouts;

    private static final long WAKE_TO_CHECK_CANCEL_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    public LockTable(String databaseName) {
        this.databaseName = databaseName;
    }

    private static final class Entry {
        final Name name;
        final String label;
        final Map<LockOwner, Holding> holders = new LinkedHashMap<>();
        final ArrayDeque<Waiter> queue = new ArrayDeque<>();
        /** Per mode, the latest commit sequence of a transaction that held the lock in that mode. */
        final long[] stamps = new long[LockMode.values().length];

        Entry(Name name, String label) {
            this.name = name;
            this.label = label;
        }

        long newestStamp() {
            long newest = 0;
            for (long s : stamps) {
                newest = Math.max(newest, s);
            }
            return newest;
        }

        boolean inUse() {
            return !holders.isEmpty() || !queue.isEmpty();
        }
    }

    private record Holding(LockMode mode, Instant since) {
    }

    private static final class Waiter {
        final LockOwner owner;
        final Entry entry;
        final LockMode mode;
        final Instant since = Instant.now();
        final Condition wake;

        Waiter(LockOwner owner, Entry entry, LockMode mode, Condition wake) {
            this.owner = owner;
            this.entry = entry;
            this.mode = mode;
            this.wake = wake;
        }
    }

    /**
     * Grants {@code owner} the lock {@code name} in {@code mode} (joined with what it holds of it
     * already), waiting while another transaction's lock or an earlier waiter conflicts.
     *
     * @param label        how {@code locks()} and errors name the object; asked for only when the lock is new
     * @param cancellation checked while waiting, so that a canceled transaction stops waiting
     * @return the latest commit sequence of a transaction that held this lock in a mode that
     *         conflicts with {@code mode}, 0 when none the table still remembers
     * @throws DeriveException {@link DeriveException#DEADLOCK} when waiting would close a cycle of
     *         waiting transactions (the lock is not granted, nothing else changes);
     *         {@link DeriveException#LOCK_TIMEOUT} when {@code timeout} passes, naming the holders;
     *         {@link DeriveException#CANCELED} when the transaction is canceled while it waits
     */
    public long acquire(LockOwner owner, Name name, Supplier<String> label, LockMode mode, Duration timeout,
                        Cancellation cancellation) {
        monitor.lock();
        try {
            Entry entry = entries.get(name);
            if (entry == null) {
                entry = new Entry(name, label.get());
                entries.put(name, entry);
            }
            Holding current = entry.holders.get(owner);
            LockMode wanted = current == null ? mode : current.mode().join(mode);
            if (current == null || wanted != current.mode()) {
                if (!grantable(entry, owner, wanted, null)) {
                    await(entry, owner, wanted, timeout, cancellation);
                }
                entry.holders.put(owner, new Holding(wanted, current == null ? Instant.now() : current.since()));
                held.computeIfAbsent(owner, o -> new LinkedHashSet<>()).add(name);
            }
            return conflictingStamp(entry, mode);
        } finally {
            monitor.unlock();
        }
    }

    private void await(Entry entry, LockOwner owner, LockMode mode, Duration timeout, Cancellation cancellation) {
        Waiter waiter = new Waiter(owner, entry, mode, monitor.newCondition());
        entry.queue.add(waiter);
        waiting.put(owner, waiter);
        waits++;
        boolean granted = false;
        try {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (!grantable(entry, owner, mode, waiter)) {
                if (closesCycle(owner)) {
                    deadlocks++;
                    throw new DeriveException(DeriveException.DEADLOCK, "deadlock in database '" + databaseName
                            + "': " + owner.description() + " waits for " + entry.label + " (" + mode
                            + ") held by " + blockers(entry, owner, mode, waiter)
                            + ", which waits for it in turn; " + owner.description() + " is chosen to roll back");
                }
                long remaining = deadline - System.nanoTime();
                if (remaining <= 0) {
                    timeouts++;
                    throw new DeriveException(DeriveException.LOCK_TIMEOUT, "database '" + databaseName + "' is busy: "
                            + owner.description() + " waited " + timeout.toMillis() + " ms for " + entry.label
                            + " (" + mode + "), held by " + blockers(entry, owner, mode, waiter));
                }
                cancellation.check();
                waiter.wake.awaitNanos(Math.min(remaining, WAKE_TO_CHECK_CANCEL_NANOS));
            }
            granted = true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DeriveException(DeriveException.LOCK_TIMEOUT, "interrupted while " + owner.description()
                    + " waited for " + entry.label, e);
        } finally {
            entry.queue.remove(waiter);
            waiting.remove(owner);
            wakeAll(entry);
            if (!granted) {
                // granted, the caller holds the entry now, so it is not idle
                forgetIfIdle(entry);
            }
        }
    }

    /**
     * Whether {@code owner} may hold {@code mode} now: no other holder conflicts, and — unless it
     * holds the lock already (an upgrade goes first) — no earlier waiter does, so that a stream of
     * compatible requests cannot starve a waiting one.
     */
    private static boolean grantable(Entry entry, LockOwner owner, LockMode mode, Waiter self) {
        return blockersOf(entry, owner, mode, self).isEmpty();
    }

    private static List<LockOwner> blockersOf(Entry entry, LockOwner owner, LockMode mode, Waiter self) {
        List<LockOwner> blockers = new ArrayList<>(2);
        entry.holders.forEach((holder, holding) -> {
            if (holder != owner && !holding.mode().compatibleWith(mode)) {
                blockers.add(holder);
            }
        });
        if (!entry.holders.containsKey(owner)) {
            for (Waiter earlier : entry.queue) {
                if (earlier == self) {
                    break;
                }
                if (earlier.owner != owner && !earlier.mode.compatibleWith(mode)) {
                    blockers.add(earlier.owner);
                }
            }
        }
        return blockers;
    }

    private String blockers(Entry entry, LockOwner owner, LockMode mode, Waiter self) {
        return String.join(", ", blockersOf(entry, owner, mode, self).stream().map(LockOwner::description).toList());
    }

    /** Whether the transactions {@code start} waits for, transitively, include {@code start}. */
    private boolean closesCycle(LockOwner start) {
        ArrayDeque<LockOwner> todo = new ArrayDeque<>();
        Set<LockOwner> seen = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        todo.add(start);
        while (!todo.isEmpty()) {
            Waiter w = waiting.get(todo.poll());
            if (w == null) {
                continue;
            }
            for (LockOwner next : blockersOf(w.entry, w.owner, w.mode, w)) {
                if (next == start) {
                    return true;
                }
                if (seen.add(next)) {
                    todo.add(next);
                }
            }
        }
        return false;
    }

    private static long conflictingStamp(Entry entry, LockMode mode) {
        long stamp = 0;
        for (LockMode other : LockMode.values()) {
            if (!other.compatibleWith(mode)) {
                stamp = Math.max(stamp, entry.stamps[other.ordinal()]);
            }
        }
        return stamp;
    }

    /**
     * Releases every lock {@code owner} holds. A commit passes its sequence number, which each lock
     * remembers for the mode it was held in, and the oldest snapshot still read, below which
     * remembered commits no longer matter; a rollback passes 0 for both.
     */
    public void releaseAll(LockOwner owner, long commitSequence, long oldestRead) {
        monitor.lock();
        try {
            Set<Name> names = held.remove(owner);
            if (names != null) {
                for (Name name : names) {
                    Entry entry = entries.get(name);
                    Holding holding = entry.holders.remove(owner);
                    if (commitSequence > 0) {
                        int mode = holding.mode().ordinal();
                        entry.stamps[mode] = Math.max(entry.stamps[mode], commitSequence);
                    }
                    wakeAll(entry);
                    forgetIfIdle(entry);
                }
            }
            if (commitSequence > 0) {
                while (!idle.isEmpty() && idle.peek().newestStamp() <= oldestRead) {
                    Entry oldest = idle.poll();
                    if (!oldest.inUse() && entries.get(oldest.name) == oldest) {
                        entries.remove(oldest.name);
                    }
                }
            }
        } finally {
            monitor.unlock();
        }
    }

    /** An entry nobody holds or waits for is dropped, or kept in {@link #idle} while its stamps still matter. */
    private void forgetIfIdle(Entry entry) {
        if (entry.inUse()) {
            return;
        }
        if (entry.newestStamp() == 0) {
            entries.remove(entry.name);
        } else {
            idle.add(entry);
        }
    }

    private static void wakeAll(Entry entry) {
        for (Waiter w : entry.queue) {
            w.wake.signal();
        }
    }

    /** The locks held and waited for now, holders first, for {@code locks()}. */
    public List<Row> rows() {
        monitor.lock();
        try {
            List<Row> rows = new ArrayList<>();
            for (Entry entry : entries.values()) {
                entry.holders.forEach((owner, h) -> rows.add(new Row(owner.description(), false, entry.label, h.mode(), h.since())));
                for (Waiter w : entry.queue) {
                    rows.add(new Row(w.owner.description(), true, entry.label, w.mode, w.since));
                }
            }
            return rows;
        } finally {
            monitor.unlock();
        }
    }

    public Counters counters() {
        monitor.lock();
        try {
            return new Counters(waits, deadlocks, timeouts);
        } finally {
            monitor.unlock();
        }
    }
}
