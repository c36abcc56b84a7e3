package io.derive.engine.txn;

import io.derive.engine.api.DeriveException;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
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
 * <p>Locks live in stripes chosen by the lock's name, each with its own monitor, so that
 * transactions locking different things do not queue for one monitor; a monitor is held for map
 * operations, never across a wait. Deadlock detection, the slow path of a wait, walks the graph
 * of waiting transactions under one detector monitor, taking one stripe's monitor at a time: a
 * transaction registers its wait and looks for a cycle in one step, so of two transactions that
 * close a cycle the second to register sees it, and only it fails.
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

    /** A power of two, well above the cores of the machines Derive runs on. */
    static final int STRIPES = 64;
    private static final long WAKE_TO_CHECK_CANCEL_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final String databaseName;
    private final Stripe[] stripes = new Stripe[STRIPES];
    /** What each transaction holds; only its own thread adds to or removes its list. */
    private final Map<LockOwner, List<Entry>> held = new ConcurrentHashMap<>();
    /** Who waits for what; changed only under {@link #detector}, so that a deadlock has one victim. */
    private final Map<LockOwner, Waiter> waiting = new ConcurrentHashMap<>();
    private final ReentrantLock detector = new ReentrantLock();
    private final LongAdder waits = new LongAdder();
    private final LongAdder deadlocks = new LongAdder();
    private final LongAdder timeouts = new LongAdder();
    /** The stripe whose old idle entries the next commit forgets besides those of its own stripes. */
    private final AtomicInteger sweep = new AtomicInteger();

    public LockTable(String databaseName) {
        this.databaseName = databaseName;
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new Stripe();
        }
    }

    private static final class Stripe {
        final ReentrantLock monitor = new ReentrantLock();
        final Map<Name, Entry> entries = new HashMap<>();
        /** Idle entries kept for their commit stamps, oldest stamp first. */
        final ArrayDeque<Entry> idle = new ArrayDeque<>();
    }

    private static final class Entry {
        final Name name;
        final Stripe stripe;
        /** How the lock is named to people, made only when asked: most locks are never shown. */
        private Supplier<String> labelSource;
        private String label;
        final Map<LockOwner, Holding> holders = new LinkedHashMap<>();
        final ArrayDeque<Waiter> queue = new ArrayDeque<>();
        /** Per mode, the latest commit sequence of a transaction that held the lock in that mode. */
        final long[] stamps = new long[LockMode.values().length];
        /** Whether the entry is in its stripe's idle list (once at most). */
        boolean listedIdle;

        Entry(Name name, Stripe stripe, Supplier<String> label) {
            this.name = name;
            this.stripe = stripe;
            this.labelSource = label;
        }

        /** The label; call with the stripe's monitor held. */
        String label() {
            if (label == null) {
                label = labelSource.get();
                labelSource = null;
            }
            return label;
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

    /** {@code sinceMillis}: when it was granted (epoch milliseconds; an {@link Instant} only when shown). */
    private record Holding(LockMode mode, long sinceMillis) {
    }

    private static final class Waiter {
        final LockOwner owner;
        final Entry entry;
        final LockMode mode;
        final Instant since = Instant.now();
        final Condition wake;

        Waiter(LockOwner owner, Entry entry, LockMode mode) {
            this.owner = owner;
            this.entry = entry;
            this.mode = mode;
            this.wake = entry.stripe.monitor.newCondition();
        }
    }

    /** By the high bits of a mixed hash: the stripe's hash map buckets by the low ones. */
    private Stripe stripeOf(Name name) {
        return stripes[(name.hashCode() * 0x9E3779B9) >>> (Integer.SIZE - Integer.numberOfTrailingZeros(STRIPES))];
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
        Stripe stripe = stripeOf(name);
        Waiter waiter = null;
        stripe.monitor.lock();
        try {
            Entry entry = stripe.entries.get(name);
            if (entry == null) {
                entry = new Entry(name, stripe, label);
                stripe.entries.put(name, entry);
            }
            Holding current = entry.holders.get(owner);
            LockMode wanted = current == null ? mode : current.mode().join(mode);
            if (current == null || wanted != current.mode()) {
                if (!grantable(entry, owner, wanted, null)) {
                    waiter = new Waiter(owner, entry, wanted);
                    await(waiter, timeout, cancellation);
                }
                entry.holders.put(owner, new Holding(wanted, current == null ? System.currentTimeMillis() : current.sinceMillis()));
                if (current == null) {
                    held.computeIfAbsent(owner, o -> new ArrayList<>()).add(entry);
                }
            }
            return conflictingStamp(entry, mode);
        } finally {
            stripe.monitor.unlock();
            if (waiter != null) {
                stopWaiting(waiter);
            }
        }
    }

    /** Waits, holding the entry's stripe monitor on entry and on return, until {@code waiter} can be granted. */
    private void await(Waiter waiter, Duration timeout, Cancellation cancellation) {
        Entry entry = waiter.entry;
        ReentrantLock monitor = entry.stripe.monitor;
        entry.queue.add(waiter);
        waits.increment();
        boolean granted = false;
        try {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (true) {
                monitor.unlock();
                boolean cycle;
                try {
                    cycle = registerAndDetect(waiter);
                } finally {
                    monitor.lock();
                }
                if (cycle) {
                    deadlocks.increment();
                    throw new DeriveException(DeriveException.DEADLOCK, "deadlock in database '" + databaseName
                            + "': " + waiter.owner.description() + " waits for " + entry.label() + " (" + waiter.mode
                            + ") held by " + blockers(waiter) + ", which waits for it in turn; "
                            + waiter.owner.description() + " is chosen to roll back");
                }
                if (grantable(entry, waiter.owner, waiter.mode, waiter)) {
                    break;
                }
                long remaining = deadline - System.nanoTime();
                if (remaining <= 0) {
                    timeouts.increment();
                    throw new DeriveException(DeriveException.LOCK_TIMEOUT, "database '" + databaseName + "' is busy: "
                            + waiter.owner.description() + " waited " + timeout.toMillis() + " ms for " + entry.label()
                            + " (" + waiter.mode + "), held by " + blockers(waiter));
                }
                cancellation.check();
                waiter.wake.awaitNanos(Math.min(remaining, WAKE_TO_CHECK_CANCEL_NANOS));
                if (grantable(entry, waiter.owner, waiter.mode, waiter)) {
                    break;
                }
            }
            granted = true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DeriveException(DeriveException.LOCK_TIMEOUT, "interrupted while " + waiter.owner.description()
                    + " waited for " + entry.label(), e);
        } finally {
            entry.queue.remove(waiter);
            wakeAll(entry);
            if (!granted) {
                // granted, the caller holds the entry now, so it is not idle
                forgetIfIdle(entry);
            }
        }
    }

    /**
     * Records that {@code waiter} waits and reports whether that closes a cycle; a waiter that
     * closes one is no longer recorded, so the other members of the cycle do not see it again.
     */
    private boolean registerAndDetect(Waiter waiter) {
        detector.lock();
        try {
            waiting.put(waiter.owner, waiter);
            if (closesCycle(waiter.owner)) {
                waiting.remove(waiter.owner);
                return true;
            }
            return false;
        } finally {
            detector.unlock();
        }
    }

    private void stopWaiting(Waiter waiter) {
        detector.lock();
        try {
            waiting.remove(waiter.owner, waiter);
        } finally {
            detector.unlock();
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

    private static String blockers(Waiter waiter) {
        return String.join(", ", blockersOf(waiter.entry, waiter.owner, waiter.mode, waiter).stream()
                .map(LockOwner::description).toList());
    }

    /**
     * Whether the transactions {@code start} waits for, transitively, include {@code start}.
     * Called under {@link #detector} and no stripe's monitor; takes one stripe's at a time.
     */
    private boolean closesCycle(LockOwner start) {
        ArrayDeque<LockOwner> todo = new ArrayDeque<>();
        Set<LockOwner> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        todo.add(start);
        while (!todo.isEmpty()) {
            Waiter w = waiting.get(todo.poll());
            if (w == null) {
                continue;
            }
            List<LockOwner> next;
            ReentrantLock monitor = w.entry.stripe.monitor;
            monitor.lock();
            try {
                next = w.entry.queue.contains(w) ? blockersOf(w.entry, w.owner, w.mode, w) : List.of();
            } finally {
                monitor.unlock();
            }
            for (LockOwner blocker : next) {
                if (blocker == start) {
                    return true;
                }
                if (seen.add(blocker)) {
                    todo.add(blocker);
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
        List<Entry> entries = held.remove(owner);
        if (entries == null) {
            return;
        }
        for (Entry entry : entries) {
            Stripe stripe = entry.stripe;
            stripe.monitor.lock();
            try {
                Holding holding = entry.holders.remove(owner);
                if (commitSequence > 0) {
                    int mode = holding.mode().ordinal();
                    entry.stamps[mode] = Math.max(entry.stamps[mode], commitSequence);
                    forgetOlderThan(stripe, oldestRead);
                }
                wakeAll(entry);
                forgetIfIdle(entry);
            } finally {
                stripe.monitor.unlock();
            }
        }
        if (commitSequence > 0) {
            // stripes no commit touches would keep their idle entries for good; each commit sweeps one more
            Stripe next = stripes[sweep.getAndIncrement() & (STRIPES - 1)];
            next.monitor.lock();
            try {
                forgetOlderThan(next, oldestRead);
            } finally {
                next.monitor.unlock();
            }
        }
    }

    /**
     * Drops the stripe's idle entries whose every remembered commit is at or before
     * {@code oldestRead}, oldest listed first, and takes those in use again off the list. An entry
     * idle again after a later commit keeps its earlier place, so it holds the ones after it back
     * only until the snapshots pass that commit, which they soon do.
     */
    private static void forgetOlderThan(Stripe stripe, long oldestRead) {
        Entry oldest;
        while ((oldest = stripe.idle.peek()) != null && (oldest.inUse() || oldest.newestStamp() <= oldestRead)) {
            stripe.idle.poll();
            oldest.listedIdle = false;
            if (!oldest.inUse() && stripe.entries.get(oldest.name) == oldest) {
                stripe.entries.remove(oldest.name);
            }
        }
    }

    /** An entry nobody holds or waits for is dropped, or kept in its stripe's idle list while its stamps still matter. */
    private static void forgetIfIdle(Entry entry) {
        if (entry.inUse()) {
            return;
        }
        if (entry.newestStamp() == 0) {
            entry.stripe.entries.remove(entry.name);
        } else if (!entry.listedIdle) {
            entry.listedIdle = true;
            entry.stripe.idle.add(entry);
        }
    }

    private static void wakeAll(Entry entry) {
        for (Waiter w : entry.queue) {
            w.wake.signal();
        }
    }

    /**
     * The locks held and waited for now, holders first, for {@code locks()}; one stripe at a time.
     * Locks with one label (the parts of one lock) are listed once per holder or waiter and mode.
     */
    public List<Row> rows() {
        Map<List<Object>, Row> rows = new LinkedHashMap<>();
        for (Stripe stripe : stripes) {
            stripe.monitor.lock();
            try {
                for (Entry entry : stripe.entries.values()) {
                    entry.holders.forEach((owner, h) -> add(rows, new Row(owner.description(), false, entry.label(), h.mode(),
                            Instant.ofEpochMilli(h.sinceMillis()))));
                    for (Waiter w : entry.queue) {
                        add(rows, new Row(w.owner.description(), true, entry.label(), w.mode, w.since));
                    }
                }
            } finally {
                stripe.monitor.unlock();
            }
        }
        return List.copyOf(rows.values());
    }

    private static void add(Map<List<Object>, Row> rows, Row row) {
        rows.putIfAbsent(List.of(row.transaction(), row.waiting(), row.object(), row.mode()), row);
    }

    public Counters counters() {
        return new Counters(waits.sum(), deadlocks.sum(), timeouts.sum());
    }
}
