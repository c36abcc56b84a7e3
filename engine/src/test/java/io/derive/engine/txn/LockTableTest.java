package io.derive.engine.txn;

import io.derive.engine.api.DeriveException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LockTableTest {
    private static final Duration LONG = Duration.ofSeconds(30);
    private final LockTable locks = new LockTable("db");
    private final ExecutorService threads = Executors.newCachedThreadPool();

    private record Owner(String description, Holdings holdings) implements LockOwner {
        Owner(String description) {
            this(description, new Holdings());
        }
    }

    private final Owner a = new Owner("A");
    private final Owner b = new Owner("B");
    private final Cancellation running = new Cancellation("t", HeapPressure.none());

    @AfterEach
    void stop() {
        threads.shutdownNow();
    }

    private static LockTable.Name row(int key) {
        return new LockTable.Name("t", key);
    }

    private long lock(Owner owner, LockTable.Name name, LockMode mode) {
        return locks.acquire(owner, name, () -> "row " + name.key(), mode, LONG, running);
    }

    private CompletableFuture<Long> lockLater(Owner owner, LockTable.Name name, LockMode mode) {
        return CompletableFuture.supplyAsync(() -> lock(owner, name, mode), threads);
    }

    private void awaitWaiting(Owner owner) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (locks.rows().stream().noneMatch(r -> r.waiting() && r.transaction().equals(owner.description()))) {
            assertThat(System.nanoTime()).as("%s starts waiting", owner.description()).isLessThan(deadline);
            Thread.sleep(5);
        }
    }

    @Test
    void sharedLocksOfTwoTransactionsAreGrantedTogether() {
        lock(a, row(1), LockMode.SHARED);
        lock(b, row(1), LockMode.SHARED);

        assertThat(locks.rows()).extracting(LockTable.Row::transaction, LockTable.Row::waiting)
                .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("A", false), org.assertj.core.groups.Tuple.tuple("B", false));
        assertThat(locks.counters().waits()).isZero();
    }

    @Test
    void anExclusiveRequestWaitsUntilTheHolderEndsAndLearnsItsCommit() throws Exception {
        lock(a, row(1), LockMode.EXCLUSIVE);
        CompletableFuture<Long> second = lockLater(b, row(1), LockMode.EXCLUSIVE);
        awaitWaiting(b);
        assertThat(second).isNotDone();

        locks.releaseAll(a, 7, 0);

        assertThat(second.get(30, TimeUnit.SECONDS)).isEqualTo(7);
        assertThat(locks.counters().waits()).isEqualTo(1);
    }

    @Test
    void aLockGrantedAfterAWaitExcludesTheNextRequester() throws Exception {
        lock(a, row(1), LockMode.EXCLUSIVE);
        CompletableFuture<Long> second = lockLater(b, row(1), LockMode.EXCLUSIVE);
        awaitWaiting(b);
        locks.releaseAll(a, 0, 0);
        second.get(30, TimeUnit.SECONDS);

        Owner c = new Owner("C");
        assertThatThrownBy(() -> locks.acquire(c, row(1), () -> "row 1", LockMode.EXCLUSIVE, Duration.ofMillis(20), running))
                .hasMessageContaining("held by B");
        locks.releaseAll(b, 0, 0);
        assertThat(locks.rows()).isEmpty();
    }

    @Test
    void aRolledBackHolderLeavesNoCommitToReadAgain() throws Exception {
        lock(a, row(1), LockMode.EXCLUSIVE);
        CompletableFuture<Long> second = lockLater(b, row(1), LockMode.EXCLUSIVE);
        awaitWaiting(b);

        locks.releaseAll(a, 0, 0);

        assertThat(second.get(30, TimeUnit.SECONDS)).isZero();
    }

    @Test
    void aCommitOfCompatibleHoldersIsNotAConflict() {
        lock(a, row(1), LockMode.SHARED);
        locks.releaseAll(a, 5, 0);

        assertThat(lock(b, row(1), LockMode.SHARED)).isZero();
        assertThat(lock(b, row(1), LockMode.EXCLUSIVE)).as("an upgrade conflicts with the shared commit").isEqualTo(5);
    }

    @Test
    void aCommitIsForgottenOnceEverySnapshotIsNewer() {
        lock(a, row(1), LockMode.EXCLUSIVE);
        locks.releaseAll(a, 5, 4);
        lock(b, row(2), LockMode.EXCLUSIVE);
        locks.releaseAll(b, 6, 5);

        assertThat(lock(a, row(1), LockMode.EXCLUSIVE)).isZero();
        assertThat(lock(a, row(2), LockMode.EXCLUSIVE)).as("snapshot 5 still reads before commit 6").isEqualTo(6);
    }

    @Test
    void idleLocksAreForgottenAsFastAsCommitsLeaveThem() {
        for (int i = 1; i <= 10_000; i++) {
            lock(a, row(i), LockMode.EXCLUSIVE);
            lock(a, row(-i), LockMode.SHARED);
            locks.releaseAll(a, i, i - 1);
        }

        assertThat(locks.remembered()).isLessThan(10);
    }

    @Test
    void locksAThreadLeftIdleAreForgottenByTheReleasesOfOthers() throws Exception {
        CompletableFuture.runAsync(() -> {
            for (int i = 1; i <= 5; i++) {
                lock(a, row(i), LockMode.EXCLUSIVE);
            }
            locks.releaseAll(a, 10, 9);
        }, threads).get(30, TimeUnit.SECONDS);
        assertThat(locks.remembered()).as("snapshot 9 still reads before commit 10").isEqualTo(5);

        for (int i = 0; i < 10_000 && locks.remembered() > 0; i++) {
            lock(b, row(-1), LockMode.EXCLUSIVE);
            locks.releaseAll(b, 11 + i, 11 + i);
        }

        assertThat(locks.remembered()).isZero();
    }

    @Test
    void aCycleOfWaitsFailsTheTransactionThatClosesItAtOnce() throws Exception {
        lock(a, row(1), LockMode.EXCLUSIVE);
        lock(b, row(2), LockMode.EXCLUSIVE);
        CompletableFuture<Long> aWaits = lockLater(a, row(2), LockMode.EXCLUSIVE);
        awaitWaiting(a);

        assertThatThrownBy(() -> lock(b, row(1), LockMode.EXCLUSIVE))
                .isInstanceOf(DeriveException.class)
                .hasMessageContaining("deadlock").hasMessageContaining("B is chosen to roll back")
                .extracting(e -> ((DeriveException) e).code()).isEqualTo(DeriveException.DEADLOCK);
        assertThat(aWaits).isNotDone();

        locks.releaseAll(b, 0, 0);
        assertThat(aWaits.get(30, TimeUnit.SECONDS)).isZero();
        assertThat(locks.counters().deadlocks()).isEqualTo(1);
    }

    @Test
    void twoSharedHoldersUpgradingIsADeadlock() throws Exception {
        lock(a, row(1), LockMode.SHARED);
        lock(b, row(1), LockMode.SHARED);
        CompletableFuture<Long> aUpgrades = lockLater(a, row(1), LockMode.EXCLUSIVE);
        awaitWaiting(a);

        assertThatThrownBy(() -> lock(b, row(1), LockMode.EXCLUSIVE))
                .extracting(e -> ((DeriveException) e).code()).isEqualTo(DeriveException.DEADLOCK);
        locks.releaseAll(b, 0, 0);
        assertThat(aUpgrades.get(30, TimeUnit.SECONDS)).isZero();
    }

    @Test
    void aWaitEndsAtItsTimeoutNamingTheHolder() {
        lock(a, row(1), LockMode.EXCLUSIVE);

        assertThatThrownBy(() -> locks.acquire(b, row(1), () -> "row 1", LockMode.SHARED, Duration.ofMillis(50), running))
                .isInstanceOf(DeriveException.class)
                .hasMessageContaining("B waited 50 ms for row 1").hasMessageContaining("held by A")
                .extracting(e -> ((DeriveException) e).code()).isEqualTo(DeriveException.LOCK_TIMEOUT);
        assertThat(locks.counters().timeouts()).isEqualTo(1);
        assertThat(locks.rows()).extracting(LockTable.Row::transaction).containsExactly("A");
    }

    @Test
    void aCanceledTransactionStopsWaiting() throws Exception {
        lock(a, row(1), LockMode.EXCLUSIVE);
        Cancellation canceled = new Cancellation("B", HeapPressure.none());
        CompletableFuture<Long> waits = CompletableFuture.supplyAsync(
                () -> locks.acquire(b, row(1), () -> "row 1", LockMode.EXCLUSIVE, LONG, canceled), threads);
        awaitWaiting(b);

        canceled.cancel();

        assertThatThrownBy(() -> waits.get(30, TimeUnit.SECONDS)).hasCauseInstanceOf(DeriveException.class)
                .hasMessageContaining("canceled");
    }

    @Test
    void aWaitingExclusiveRequestIsNotOvertakenBySharedOnes() throws Exception {
        lock(a, row(1), LockMode.SHARED);
        CompletableFuture<Long> writer = lockLater(b, row(1), LockMode.EXCLUSIVE);
        awaitWaiting(b);
        Owner c = new Owner("C");
        CompletableFuture<Long> reader = CompletableFuture.supplyAsync(() -> lock(c, row(1), LockMode.SHARED), threads);
        awaitWaiting(c);

        locks.releaseAll(a, 0, 0);
        writer.get(30, TimeUnit.SECONDS);
        assertThat(reader).isNotDone();
        locks.releaseAll(b, 0, 0);
        reader.get(30, TimeUnit.SECONDS);
    }

    @Test
    void intentionLocksOfRowWritersExcludeAWholeTableLock() throws Exception {
        LockTable.Name table = new LockTable.Name("t", null);
        lock(a, table, LockMode.INTENT_EXCLUSIVE);
        lock(b, table, LockMode.INTENT_EXCLUSIVE);
        Owner c = new Owner("C");
        CompletableFuture<Long> whole = CompletableFuture.supplyAsync(() -> lock(c, table, LockMode.EXCLUSIVE), threads);
        awaitWaiting(c);

        locks.releaseAll(a, 3, 0);
        assertThat(whole).isNotDone();
        locks.releaseAll(b, 4, 0);
        assertThat(whole.get(30, TimeUnit.SECONDS)).isEqualTo(4);
    }
}
