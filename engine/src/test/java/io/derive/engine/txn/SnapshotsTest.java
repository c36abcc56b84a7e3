package io.derive.engine.txn;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class SnapshotsTest {
    private final Snapshots snapshots = new Snapshots();
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        threads.shutdownNow();
    }

    @Test
    void aCommitCompletedBeforeAnEarlierOneIsNotVisibleUntilTheEarlierOneCompletes() {
        long first = snapshots.take();
        long second = snapshots.take();

        snapshots.complete(second, null);
        assertThat(snapshots.open().sequence()).isZero();

        snapshots.complete(first, null);
        assertThat(snapshots.open().sequence()).isEqualTo(second);
    }

    @Test
    void aCommitThatChangesNothingOfTheSchemaKeepsTheCatalog() {
        var before = snapshots.latest().catalog();

        snapshots.complete(snapshots.take(), null);

        assertThat(snapshots.latest().catalog()).isSameAs(before);
    }

    @Test
    void waitingForVisibilityEndsWhenTheEarlierCommitsComplete() throws Exception {
        long first = snapshots.take();
        long second = snapshots.take();
        snapshots.complete(second, null);

        CompletableFuture<Void> waiter = CompletableFuture.runAsync(() -> snapshots.awaitVisible(second), threads);
        assertThat(waiter).isNotDone();

        snapshots.complete(first, null);
        waiter.get(30, TimeUnit.SECONDS);
        assertThat(snapshots.latest().sequence()).isEqualTo(second);
    }

    @Test
    void theOldestReadIsTheOldestOpenSnapshot() {
        Snapshots.Snapshot old = snapshots.open();
        snapshots.complete(snapshots.take(), null);
        snapshots.open();

        assertThat(snapshots.oldestRead()).isEqualTo(old.sequence());
        snapshots.close(old);
        assertThat(snapshots.oldestRead()).isEqualTo(1);
    }
}
