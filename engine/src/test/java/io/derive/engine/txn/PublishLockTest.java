package io.derive.engine.txn;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

class PublishLockTest {
    private final PublishLock lock = new PublishLock(1);
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        threads.shutdownNow();
    }

    @Test
    void aCommitParkedForTheLockTakesItWhenItsHolderReleasesIt() throws Exception {
        lock.lock();
        AtomicReference<Thread> waiting = new AtomicReference<>();
        CompletableFuture<Void> next = CompletableFuture.runAsync(() -> {
            waiting.set(Thread.currentThread());
            lock.lock();
        }, threads);
        awaitParked(waiting);
        assertThat(next).isNotDone();

        lock.unlock();

        next.get(30, TimeUnit.SECONDS);
    }

    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void anInterruptedWaiterStillTakesTheLockAndKeepsTheInterrupt() throws Exception {
        lock.lock();
        AtomicReference<Thread> waiting = new AtomicReference<>();
        CompletableFuture<Boolean> next = CompletableFuture.supplyAsync(() -> {
            waiting.set(Thread.currentThread());
            lock.lock();
            return Thread.interrupted();
        }, threads);
        awaitParked(waiting);

        Thread waiter = waiting.get();
        waiter.interrupt();
        // it has seen the interrupt once it cleared it, and waits again once parked again
        while (!next.isDone() && (waiter.isInterrupted() || waiter.getState() != Thread.State.WAITING)) {
            Thread.onSpinWait();
        }
        assertThat(next).isNotDone();
        lock.unlock();

        assertThat(next.get(30, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void manyCommitsTakingTheLockAtOnceHoldItOneAtATime() throws Exception {
        int threadsLocking = 8;
        int timesEach = 20_000;
        int[] counter = new int[1];
        List<CompletableFuture<Void>> work = new ArrayList<>();
        for (int t = 0; t < threadsLocking; t++) {
            work.add(CompletableFuture.runAsync(() -> {
                for (int i = 0; i < timesEach; i++) {
                    lock.lock();
                    try {
                        int seen = counter[0];
                        if (i % 64 == 0) {
                            // held across a yield, so that others find it busy, spin out and park
                            Thread.yield();
                        }
                        counter[0] = seen + 1;
                    } finally {
                        lock.unlock();
                    }
                }
            }, threads));
        }
        CompletableFuture.allOf(work.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);

        lock.lock();
        assertThat(counter[0]).isEqualTo(threadsLocking * timesEach);
    }

    private static void awaitParked(AtomicReference<Thread> waiting) {
        while (waiting.get() == null || waiting.get().getState() != Thread.State.WAITING) {
            Thread.onSpinWait();
        }
    }
}
