package org.jshmem.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * What the watchdog and the progress thread learn from the clock: the oldest call in progress,
 * and whether another thread drives MPI (in a call now, or a progressing call lately). The calls
 * are marked, not made: no MPI here.
 */
class CallClockTest {
    private static final long HOUR = 3_600_000_000_000L;

    @Test
    void anotherThreadInACallOrAFlushLatelyDrivesMpi() throws Exception {
        CallClock clock = new CallClock();
        assertFalse(clock.othersProgressedWithin(HOUR), "no thread has entered MPI");
        CountDownLatch inCall = new CountDownLatch(1);
        CountDownLatch leave = new CountDownLatch(1);
        CompletableFuture<Void> other = CompletableFuture.runAsync(() -> {
            CallClock.Slot call = clock.enter("MPI_Put", 1);
            inCall.countDown();
            await(leave);
            call.leave();
            clock.enterProgressing("MPI_Win_flush", 1).leave();
        });
        inCall.await();
        assertTrue(clock.othersProgressedWithin(0), "a call in progress on another thread");
        assertEquals("MPI_Put", clock.oldest().orElseThrow().name());
        leave.countDown();
        other.get();
        assertTrue(clock.othersProgressedWithin(HOUR), "the other thread flushed within the hour");
        assertFalse(clock.othersProgressedWithin(0), "but not within no time, and it is in no call now");
        assertTrue(clock.oldest().isEmpty());
    }

    @Test
    void aCallIsTimedFromTheFirstLookThatSawIt() throws Exception {
        CallClock clock = new CallClock();
        CallClock.Slot first = clock.enter("MPI_Win_flush", 1);
        assertTrue(clock.oldest().orElseThrow().elapsedNanos() < 1_000_000_000L, "seen now for the first time");
        Thread.sleep(50);
        MpiCall seen = clock.oldest().orElseThrow();
        assertEquals("MPI_Win_flush", seen.name());
        assertEquals(1, seen.rank());
        assertTrue(seen.elapsedNanos() >= 50_000_000L, "the same call, 50 ms after the first look: " + seen);
        first.leave();
        assertTrue(clock.oldest().isEmpty(), "no call in progress");
        clock.enter("MPI_Put", 2);
        MpiCall next = clock.oldest().orElseThrow();
        assertEquals("MPI_Put", next.name());
        assertTrue(next.elapsedNanos() < 50_000_000L, "a new call starts a new time: " + next);
    }

    @Test
    void threadsTakingTurnsEachMarkTheirOwnCalls() throws Exception {
        CallClock clock = new CallClock();
        CallClock.Slot mine = clock.enter("MPI_Put", 1);   // left open while another thread makes calls
        CompletableFuture.runAsync(() -> {
            for (int i = 0; i < 3; i++) {
                clock.enter("MPI_Get", 2).leave();
            }
        }).get();
        MpiCall open = clock.oldest().orElseThrow();
        assertEquals("MPI_Put", open.name(), "this thread's call, untouched by the other's");
        assertEquals(1, open.rank());
        mine.leave();
        CountDownLatch inCall = new CountDownLatch(1);
        CountDownLatch leave = new CountDownLatch(1);
        CompletableFuture<Void> other = CompletableFuture.runAsync(() -> {
            CallClock.Slot call = clock.enter("MPI_Win_flush", 3);
            inCall.countDown();
            await(leave);
            call.leave();
        });
        inCall.await();
        clock.enter("MPI_Get", 2).leave();   // a call of this thread's, begun and ended after the other's began
        assertEquals("MPI_Win_flush", clock.oldest().orElseThrow().name(), "the other thread's call is still open");
        leave.countDown();
        other.get();
        assertTrue(clock.oldest().isEmpty());
    }

    @Test
    void theCallersOwnCallsDoNotCount() {
        CallClock clock = new CallClock();
        clock.enterProgressing("MPI_Iprobe", -1);   // left open: this thread is in the call
        assertFalse(clock.othersProgressedWithin(HOUR));
        assertEquals("MPI_Iprobe", clock.oldest().orElseThrow().name());
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
