package io.derive.engine.txn;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SnapshotsTest {
    private final Snapshots snapshots = new Snapshots();
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        threads.shutdownNow();
    }

    @Test
    void aCommitCompletedBeforeAnEarlierOneIsNotVisibleUntilTheEarlierOneCompletes() {
        long first = snapshots.take(0);
        long second = snapshots.take(0);

        snapshots.complete(second, null);
        assertThat(snapshots.open().sequence()).isZero();

        snapshots.complete(first, null);
        assertThat(snapshots.open().sequence()).isEqualTo(second);
    }

    @Test
    void aCommitThatChangesNothingOfTheSchemaKeepsTheCatalog() {
        var before = snapshots.latest().catalog();

        snapshots.complete(snapshots.take(0), null);

        assertThat(snapshots.latest().catalog()).isSameAs(before);
    }

    @Test
    void waitingForVisibilityEndsWhenTheEarlierCommitsComplete() throws Exception {
        long first = snapshots.take(0);
        long second = snapshots.take(0);
        snapshots.complete(second, null);

        CompletableFuture<Void> waiter = CompletableFuture.runAsync(() -> snapshots.awaitVisible(second), threads);
        assertThat(waiter).isNotDone();

        snapshots.complete(first, null);
        waiter.get(30, TimeUnit.SECONDS);
        assertThat(snapshots.latest().sequence()).isEqualTo(second);
    }

    @Test
    void aCommitVisibleAsItCompletesWakesWhoWaitsForIt() throws Exception {
        long only = snapshots.take(0);
        AtomicReference<Thread> waiting = new AtomicReference<>();
        CompletableFuture<Void> waiter = CompletableFuture.runAsync(() -> {
            waiting.set(Thread.currentThread());
            snapshots.awaitVisible(only);
        }, threads);
        while (waiting.get() == null || waiting.get().getState() != Thread.State.WAITING) {
            Thread.onSpinWait();
        }

        snapshots.complete(only, null);
        waiter.get(30, TimeUnit.SECONDS);
        assertThat(snapshots.latest().sequence()).isEqualTo(only);
    }

    @Test
    void completingReportsWhatIsVisibleSoThatACommitKnowsWhetherToWait() {
        long first = snapshots.take(0);
        long second = snapshots.take(0);

        assertThat(snapshots.complete(second, null)).isZero();
        assertThat(snapshots.complete(first, null)).isEqualTo(second);
    }

    @Test
    void aNumberTooFarAheadOfTheLatestWaitsForTheLatestToComeNearer() throws Exception {
        long first = snapshots.take(0);
        // every number up to the last within reach of the latest (0) completes but the first
        for (int i = 2; i < Snapshots.AHEAD; i++) {
            snapshots.complete(snapshots.take(0), null);
        }

        CompletableFuture<Long> tooFar = CompletableFuture.supplyAsync(() -> snapshots.take(0), threads);
        assertThatThrownBy(() -> tooFar.get(200, TimeUnit.MILLISECONDS)).isInstanceOf(TimeoutException.class);

        snapshots.complete(first, null);
        assertThat(tooFar.get(30, TimeUnit.SECONDS)).isEqualTo((long) Snapshots.AHEAD);
    }

    @Test
    void theOldestReadIsTheOldestOpenSnapshot() {
        Snapshots.Reading old = snapshots.open();
        snapshots.complete(snapshots.take(0), null);
        snapshots.open();

        assertThat(snapshots.oldestRead()).isEqualTo(old.sequence());
        snapshots.close(old);
        assertThat(snapshots.oldestRead()).isEqualTo(1);
    }

    @Test
    void theSnapshotsReadAreListedOnceEachOldestFirstThenTheLatest() {
        snapshots.open();
        snapshots.complete(snapshots.take(0), null);
        snapshots.open();
        snapshots.open();
        snapshots.complete(snapshots.take(0), null);
        snapshots.complete(snapshots.take(0), null);

        assertThat(snapshots.readSequences()).containsExactly(0L, 1L, 3L);
    }

    @Test
    void everySnapshotReadIsListedHoweverManyInSlotsAndBeyond() {
        int readers = Snapshots.SLOTS + 10;
        for (int i = 0; i < readers; i++) {
            snapshots.open();
            snapshots.complete(snapshots.take(0), null);
        }

        assertThat(snapshots.readSequences()).containsExactly(LongStream.rangeClosed(0, readers).toArray());
    }

    @Test
    void readersBeyondTheSlotsAreCountedToo() {
        List<Snapshots.Reading> readers = new ArrayList<>();
        for (int i = 0; i < Snapshots.SLOTS; i++) {
            readers.add(snapshots.open());
        }
        snapshots.complete(snapshots.take(0), null);
        Snapshots.Reading beyond = snapshots.open();
        assertThat(beyond.slot()).isNegative();
        readers.forEach(snapshots::close);
        snapshots.complete(snapshots.take(0), null);

        assertThat(snapshots.oldestRead()).isEqualTo(1);
        snapshots.close(beyond);
        assertThat(snapshots.oldestRead()).isEqualTo(2);
    }

    @Test
    void aReaderWhoseSnapshotACommitPassedWhileItRegisteredReadsNoOlderThanTheOldestReadGivenMeanwhile() {
        long[] oldestMeanwhile = new long[1];
        Snapshots[] racing = new Snapshots[1];
        racing[0] = new Snapshots(() -> {
            if (oldestMeanwhile[0] == 0) {
                racing[0].complete(racing[0].take(0), null);
                oldestMeanwhile[0] = racing[0].oldestRead();
            }
        });

        Snapshots.Reading reading = racing[0].open();

        assertThat(oldestMeanwhile[0]).isEqualTo(1);
        assertThat(reading.sequence()).isEqualTo(1);
        assertThat(racing[0].oldestRead()).isEqualTo(1);
    }

    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void commitsCompletingOnManyThreadsInAnyOrderAllBecomeVisibleInOrder() throws Exception {
        int threadsCompleting = 4;
        int commitsEach = 20_000;
        List<CompletableFuture<Void>> work = new ArrayList<>();
        for (int t = 0; t < threadsCompleting; t++) {
            work.add(CompletableFuture.runAsync(() -> {
                for (int i = 0; i < commitsEach; i++) {
                    long sequence = snapshots.take(0);
                    if (i % 7 == 0) {
                        Thread.yield();
                    }
                    snapshots.complete(sequence, null);
                    snapshots.awaitVisible(sequence);
                }
            }, threads));
        }
        long seen = 0;
        while (work.stream().anyMatch(w -> !w.isDone())) {
            long now = snapshots.latest().sequence();
            assertThat(now).isGreaterThanOrEqualTo(seen);
            seen = now;
        }
        CompletableFuture.allOf(work.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);

        assertThat(snapshots.latest().sequence()).isEqualTo((long) threadsCompleting * commitsEach);
    }
}
