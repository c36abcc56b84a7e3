package io.derive.engine.txn;

import io.derive.engine.api.DeriveException;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import java.util.stream.Stream;

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
 * <p>Each lock has its own monitor, found through a concurrent map without a lock of the map's,
 * so that transactions locking different things never queue for one monitor (with more threads
 * than cores, a thread descheduled while it held a monitor many locks share would hold up every
 * transaction that needs one of them); a monitor is held for a few map operations, never across
 * a wait. Deadlock detection, the slow path of a wait, walks the graph of waiting transactions
 * under one detector monitor, taking one lock's monitor at a time: a
 * transaction registers its wait and looks for a cycle in one step, so of two transactions that
 * close a cycle the second to register sees it, and only it fails.
 */
public final class LockTable {
    /**
     * A lockable thing: a table, a row or group by key, a value of a unique index, the catalog.
     * Its equality is written out: a record's generated one runs through a method handle, in
     * which a profile of a one-row write (2 µs) put about 0.06 µs of its locks' map look-ups.
     */
    public record Name(Object space, Object key) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Name other && Objects.equals(space, other.space) && Objects.equals(key, other.key);
        }

        @Override
        public int hashCode() {
            return 31 * Objects.hashCode(space) + Objects.hashCode(key);
        }
    }

    /** One line of {@code locks()}: a holder or a waiter of a lock. */
    public record Row(String transaction, boolean waiting, String object, LockMode mode, Instant since) {
    }

    /** How often the table has made transactions wait, chosen a deadlock victim, and let a wait time out. */
    public record Counters(long waits, long deadlocks, long timeouts) {
    }

    /**
     * How many idle locks a release looks at, beyond one per lock it releases, to forget those
     * whose remembered commits every snapshot has passed.
     */
    static final int FORGET_BEYOND_RELEASED = 2;
    /**
     * How many idle lists there are, a power of two. A thread lists the locks it releases in its
     * own list and forgets from it, so that it mostly touches entries it released itself, still
     * in its core's cache: with one list for all, every release polled entries that other cores
     * had written, and at 8 writers on 2 cores releasing took 0.86 µs of CPU per write against
     * 0.37 µs with one writer (JFR). So that a list no thread releases into any more is forgotten too, a release
     * that empties its own list forgets from one chosen at random; forgetting from another list
     * at every release, or from one whose thread had not released lately, cost 3 to 7 % of the
     * throughput of 8 writers (measured).
     */
    static final int IDLE_LISTS = 16;
    /**
     * How many entries the map of entries has room for from the start. Every lock a write takes
     * adds an entry and a later release removes it, each a write to the entry's bin, and sixteen
     * bins share a cache line: in a map grown only to the few dozen locks of eight writers, nearly
     * every such write found its line last written by another core. Room for 16,384 (32,768 bins,
     * 128 KiB of references, made at a database's first lock) spreads them over 2,048 lines; 8
     * writers of disjoint tables on this project's 2-core machine wrote 14 % more (measured).
     */
    static final int INITIAL_CAPACITY = 1 << 14;
    private static final long WAKE_TO_CHECK_CANCEL_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    /** {@link LockMode#values()}, which copies its array at every call. */
    private static final LockMode[] MODES = LockMode.values();

    private final String databaseName;
    private final Map<Name, Entry> entries = new ConcurrentHashMap<>(INITIAL_CAPACITY);
    /**
     * Idle entries kept for their commit stamps, about oldest stamp first, in one list per group
     * of threads (by thread id, as {@link #IDLE_LISTS} says).
     */
    private final List<Queue<Idle>> idle = Stream.<Queue<Idle>>generate(IdleList::new).limit(IDLE_LISTS).toList();
    /** Who waits for what; changed only under {@link #detector}, so that a deadlock has one victim. */
    private final Map<LockOwner, Waiter> waiting = new ConcurrentHashMap<>();
    private final ReentrantLock detector = new ReentrantLock();
    private final LongAdder waits = new LongAdder();
    private final LongAdder deadlocks = new LongAdder();
    private final LongAdder timeouts = new LongAdder();

    public LockTable(String databaseName) {
        this.databaseName = databaseName;
    }

    private static final class Entry {
        final Name name;
        final ReentrantLock monitor = new ReentrantLock();
        /** How the lock is named to people, made only when asked: most locks are never shown. */
        private Supplier<String> labelSource;
        private String label;
        // Sized for the one holder and no waiter most locks ever see: an entry is made per row written.
        final Map<LockOwner, Holding> holders = new LinkedHashMap<>(2);
        final ArrayDeque<Waiter> queue = new ArrayDeque<>(1);
        /** Per mode, the latest commit sequence of a transaction that held the lock in that mode. */
        final long[] stamps = new long[MODES.length];
        /** Whether the entry is in an idle list (in one, once, at most). */
        boolean listedIdle;
        /** Whether the entry has left the map: who finds it so under its monitor looks the name up again. */
        boolean forgotten;

        Entry(Name name, Supplier<String> label) {
            this.name = name;
            this.labelSource = label;
        }

        /** The label; call with the monitor held. */
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

    /**
     * An idle entry as listed, with its newest stamp then: a release reads that, not the entry,
     * to learn that the entries at the head of its list are not yet to be forgotten, so it touches
     * no entry long untouched until it can forget it.
     */
    private record Idle(Entry entry, long stamp) {
    }

    /**
     * An idle list with a cache line of padding after the queue's head and tail (a subclass's
     * fields follow its superclass's). The lists are made together, side by side, and each is
     * written at every release by its threads: unpadded, neighbouring lists shared lines that
     * threads on different cores wrote, and 8 writers of disjoint tables on 2 cores wrote about
     * 11 % less (measured in alternating forks: spaced apart, the lists won three of three;
     * padded like this, two of three).
     */
    private static final class IdleList extends ConcurrentLinkedQueue<Idle> {
        @SuppressWarnings("unused")
        private long q1, q2, q3, q4, q5, q6, q7, q8;
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
            this.wake = entry.monitor.newCondition();
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
        Entry entry = lockedEntry(name, label);
        Waiter waiter = null;
        try {
            Holding current = entry.holders.get(owner);
            LockMode wanted = current == null ? mode : current.mode().join(mode);
            if (current == null || wanted != current.mode()) {
                if (!grantable(entry, owner, wanted, null)) {
                    waiter = new Waiter(owner, entry, wanted);
                    await(waiter, timeout, cancellation);
                }
                entry.holders.put(owner, new Holding(wanted, current == null ? System.currentTimeMillis() : current.sinceMillis()));
                if (current == null) {
                    owner.holdings().entries.add(entry);
                }
            }
            return conflictingStamp(entry, mode);
        } finally {
            entry.monitor.unlock();
            if (waiter != null) {
                stopWaiting(waiter);
            }
        }
    }

    /** The entry of {@code name}, made when there is none, with its monitor held. */
    private Entry lockedEntry(Name name, Supplier<String> label) {
        while (true) {
            Entry entry = entries.get(name);
            if (entry == null) {
                // after a plain get: the map's computeIfAbsent may take a bin's lock even when the entry is there
                entry = entries.computeIfAbsent(name, n -> new Entry(n, label));
            }
            entry.monitor.lock();
            if (!entry.forgotten) {
                return entry;
            }
            entry.monitor.unlock();
        }
    }

    /** Waits, holding the entry's monitor on entry and on return, until {@code waiter} can be granted. */
    private void await(Waiter waiter, Duration timeout, Cancellation cancellation) {
        Entry entry = waiter.entry;
        ReentrantLock monitor = entry.monitor;
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
                idleOrForget(entry);
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
        if (entry.holders.isEmpty() && entry.queue.isEmpty()) {
            return true; // as for most locks: asking blockersOf would allocate
        }
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
     * Called under {@link #detector} and no entry's monitor; takes one entry's at a time.
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
            ReentrantLock monitor = w.entry.monitor;
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
        for (LockMode other : MODES) {
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
        List<Object> released = owner.holdings().entries;
        if (released.isEmpty()) {
            return;
        }
        for (int i = 0; i < released.size(); i++) {
            Entry entry = (Entry) released.get(i);
            entry.monitor.lock();
            try {
                Holding holding = entry.holders.remove(owner);
                if (commitSequence > 0) {
                    int mode = holding.mode().ordinal();
                    entry.stamps[mode] = Math.max(entry.stamps[mode], commitSequence);
                }
                wakeAll(entry);
                idleOrForget(entry);
            } finally {
                entry.monitor.unlock();
            }
        }
        int budget = released.size() + FORGET_BEYOND_RELEASED;
        released.clear();
        if (commitSequence > 0) {
            int own = ownIdleList();
            if (forgetOlderThan(idle.get(own), oldestRead, budget)) {
                int other = ThreadLocalRandom.current().nextInt(IDLE_LISTS);
                if (other != own) {
                    forgetOlderThan(idle.get(other), oldestRead, budget);
                }
            }
        }
    }

    private static int ownIdleList() {
        return (int) Thread.currentThread().getId() & (IDLE_LISTS - 1);
    }

    /**
     * Drops idle entries whose every remembered commit is at or before {@code oldestRead}, at most
     * {@code budget} of them, from the head of the idle list {@code list}; takes those in use
     * again off it. It stops at the head when the stamp it was listed with still matters; an
     * entry whose monitor is busy, or which a later commit stamped anew, goes back at the tail.
     * An entry idle again after a later commit keeps its earlier place, so it holds the ones
     * after it back only until the snapshots pass that commit, which they soon do.
     *
     * @return whether it forgot all the list held
     */
    private boolean forgetOlderThan(Queue<Idle> list, long oldestRead, int budget) {
        for (int i = 0; i < budget; i++) {
            Idle head = list.peek();
            if (head == null) {
                return true;
            }
            if (head.stamp() > oldestRead) {
                // an entry's stamps only grow: the head's commits still matter
                return false;
            }
            Idle polled = list.poll();
            if (polled == null) {
                return true;
            }
            Entry oldest = polled.entry();
            if (!oldest.monitor.tryLock()) {
                // in use, most likely: not worth a wait; it stays listed
                list.add(polled);
                return false;
            }
            try {
                if (oldest.inUse()) {
                    oldest.listedIdle = false;
                } else if (oldest.newestStamp() <= oldestRead) {
                    oldest.listedIdle = false;
                    forget(oldest);
                } else {
                    list.add(new Idle(oldest, oldest.newestStamp()));
                    return false;
                }
            } finally {
                oldest.monitor.unlock();
            }
        }
        return list.isEmpty();
    }

    /** An entry nobody holds or waits for is dropped, or kept in the idle list while its stamps still matter; call with its monitor held. */
    private void idleOrForget(Entry entry) {
        if (entry.inUse()) {
            return;
        }
        long stamp = entry.newestStamp();
        if (stamp == 0) {
            forget(entry);
        } else if (!entry.listedIdle) {
            entry.listedIdle = true;
            idle.get(ownIdleList()).add(new Idle(entry, stamp));
        }
    }

    /** Takes an idle entry out of the map, for good; call with its monitor held. */
    private void forget(Entry entry) {
        entry.forgotten = true;
        entries.remove(entry.name, entry);
    }

    private static void wakeAll(Entry entry) {
        if (entry.queue.isEmpty()) {
            return; // as it nearly always is; iterating would allocate
        }
        for (Waiter w : entry.queue) {
            w.wake.signal();
        }
    }

    /**
     * The locks held and waited for now, holders first, for {@code locks()}; one lock at a time.
     * Locks with one label (the parts of one lock) are listed once per holder or waiter and mode.
     */
    public List<Row> rows() {
        Map<List<Object>, Row> rows = new LinkedHashMap<>();
        for (Entry entry : entries.values()) {
            entry.monitor.lock();
            try {
                entry.holders.forEach((owner, h) -> add(rows, new Row(owner.description(), false, entry.label(), h.mode(),
                        Instant.ofEpochMilli(h.sinceMillis()))));
                for (Waiter w : entry.queue) {
                    add(rows, new Row(w.owner.description(), true, entry.label(), w.mode, w.since));
                }
            } finally {
                entry.monitor.unlock();
            }
        }
        return List.copyOf(rows.values());
    }

    private static void add(Map<List<Object>, Row> rows, Row row) {
        rows.putIfAbsent(List.of(row.transaction(), row.waiting(), row.object(), row.mode()), row);
    }

    /** How many locks the table remembers: held, waited for, or idle for their commits (for tests). */
    int remembered() {
        return entries.size();
    }

    public Counters counters() {
        return new Counters(waits.sum(), deadlocks.sum(), timeouts.sum());
    }
}
