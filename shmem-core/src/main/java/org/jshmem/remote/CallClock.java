package org.jshmem.remote;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Which MPI call each thread is in, and since when: how a watchdog tells a call that will not
 * return. Open MPI 4.1 retries a put to a dead process forever inside the call (btl/vader's CMA
 * write fails with ESRCH, again and again), so such a call can only be noticed from another
 * thread. Entering costs a thread-local look-up and one volatile write, leaving one volatile
 * write, next to microseconds of MPI. It also tells the progress thread whether the PE's other
 * threads drive MPI themselves ({@link #othersProgressedWithin}).
 */
final class CallClock {
    private static final long IDLE = Long.MIN_VALUE;

    /** One thread's current call. */
    static final class Slot {
        private final Thread thread = Thread.currentThread();
        // written before `since`, whose volatile write publishes them to a reader that reads `since` first
        private String name = "";
        private int rank = -1;
        private long progressed = Long.MIN_VALUE / 2;   // when this thread last entered a call that drives progress
        private volatile long since = IDLE;

        /** The call has returned (or thrown). */
        void leave() {
            since = IDLE;
        }
    }

    private final List<Slot> slots = new CopyOnWriteArrayList<>();
    private final ThreadLocal<Slot> mine = ThreadLocal.withInitial(this::register);

    private Slot register() {
        Slot s = new Slot();
        slots.add(s);
        return s;
    }

    /** Marks this thread as entering {@code name} aimed at {@code rank} (-1: every PE); call {@link Slot#leave()} after. */
    Slot enter(String name, int rank) {
        return enter(name, rank, false);
    }

    /** Like {@link #enter}, for a call that drives MPI's progress (a flush, a probe). */
    Slot enterProgressing(String name, int rank) {
        return enter(name, rank, true);
    }

    private Slot enter(String name, int rank, boolean progresses) {
        Slot s = mine.get();
        long now = System.nanoTime();
        s.name = name;
        s.rank = rank;
        if (progresses) {
            s.progressed = now;
        }
        s.since = now;   // last: its volatile write publishes the fields above
        return s;
    }

    /**
     * Whether a thread other than the caller is in an MPI call now, or entered one that drives
     * progress within the last {@code nanos}.
     */
    boolean othersProgressedWithin(long nanos) {
        Thread me = Thread.currentThread();
        long now = System.nanoTime();
        for (Slot s : slots) {
            if (s.thread != me && (s.since != IDLE || now - s.progressed < nanos)) {   // since first: publishes progressed
                return true;
            }
        }
        return false;
    }

    /** The call in progress the longest, if any thread is in one; forgets the slots of threads that ended. */
    Optional<MpiCall> oldest() {
        slots.removeIf(s -> !s.thread.isAlive());
        long now = System.nanoTime();
        MpiCall oldest = null;
        for (Slot s : slots) {
            long since = s.since;
            if (since != IDLE && (oldest == null || now - since > oldest.elapsedNanos())) {
                oldest = new MpiCall(s.name, s.rank, s.thread.getName(), now - since);
            }
        }
        return Optional.ofNullable(oldest);
    }
}
