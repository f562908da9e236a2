package org.jshmem.remote;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Which MPI call each thread is in: how a watchdog tells a call that will not return. Open MPI 4.1
 * retries a put to a dead process forever inside the call (btl/vader's CMA write fails with ESRCH,
 * again and again), so such a call can only be noticed from another thread. It also tells the
 * progress thread whether the PE's other threads drive MPI themselves ({@link #othersProgressedWithin}).
 *
 * <p>Entering and leaving cost plain loads and stores (a thread-local look-up only when the calling
 * thread is not the last one that entered): a thread numbers its calls and publishes the number
 * with a release store, which on x86 is an ordinary store. It reads no clock. The readers time
 * what they see instead: a call is as old as the time since a reader first saw its number, so it
 * is timed from the first look after it began: a clock read and volatile stores around each call
 * would cost a noticeable share of a small blocking put, which makes two calls.
 */
final class CallClock {
    private static final long IDLE = 0;
    private static final VarHandle CALL;
    private static final VarHandle PROGRESSING;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            CALL = l.findVarHandle(Slot.class, "call", long.class);
            PROGRESSING = l.findVarHandle(Slot.class, "progressing", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** One thread's calls. */
    static final class Slot {
        private final Thread thread = Thread.currentThread();
        // written by the slot's thread before the release store of `call`, which publishes them
        private String name = "";
        private int rank = -1;
        private long entered;                 // calls entered; the slot's thread alone reads and writes it
        @SuppressWarnings("unused")
        private long call = IDLE;             // the number of the call in progress, IDLE when none (CALL)
        @SuppressWarnings("unused")
        private long progressing;             // calls entered that drive MPI's progress (PROGRESSING)
        // the readers' view, under the clock's lock
        private long seenCall = IDLE;
        private long seenCallAt;
        private long seenProgressing;
        private long seenProgressingAt = Long.MIN_VALUE / 2;

        /** The call has returned (or thrown). */
        void leave() {
            CALL.setRelease(this, IDLE);
        }
    }

    private final List<Slot> slots = new CopyOnWriteArrayList<>();
    private final ThreadLocal<Slot> mine = ThreadLocal.withInitial(this::register);
    // the slot of the thread that entered last, checked against the caller: a PE makes most calls from one thread,
    // and this spares it the thread-local look-up. A plain field: a stale read fails the check (Slot.thread is final)
    private Slot last;

    private Slot register() {
        Slot s = new Slot();
        slots.add(s);
        return s;
    }

    /** Marks this thread as entering {@code name} aimed at {@code rank} (-1: every PE); call {@link Slot#leave()} after. */
    Slot enter(String name, int rank) {
        return enter(mine(), name, rank);
    }

    /** Like {@link #enter}, for a call that drives MPI's progress (a flush, a probe). */
    Slot enterProgressing(String name, int rank) {
        Slot s = mine();
        PROGRESSING.setOpaque(s, (long) PROGRESSING.getOpaque(s) + 1);
        return enter(s, name, rank);
    }

    private Slot mine() {
        Slot s = last;
        if (s == null || s.thread != Thread.currentThread()) {
            s = mine.get();
            last = s;
        }
        return s;
    }

    private static Slot enter(Slot s, String name, int rank) {
        s.name = name;
        s.rank = rank;
        CALL.setRelease(s, ++s.entered);   // last: publishes the fields above
        return s;
    }

    /**
     * Whether a thread other than the caller is in an MPI call now, or entered one that drives
     * progress within the last {@code nanos}, as far as the looks tell: a progressing call counts from
     * the first look that saw it (the progress thread's, each time it would enter MPI).
     */
    synchronized boolean othersProgressedWithin(long nanos) {
        Thread me = Thread.currentThread();
        long now = System.nanoTime();
        boolean driven = false;
        for (Slot s : slots) {
            if (s.thread == me) {
                continue;
            }
            long p = (long) PROGRESSING.getOpaque(s);
            if (p != s.seenProgressing) {
                s.seenProgressing = p;
                s.seenProgressingAt = now;
            }
            driven |= (long) CALL.getAcquire(s) != IDLE || now - s.seenProgressingAt < nanos;
        }
        return driven;
    }

    /**
     * The call in progress the longest, if any thread is in one, timed from the first look that saw
     * it (so a watchdog that looks every interval sees a call at most one interval younger than it
     * is); forgets the slots of threads that ended.
     */
    synchronized Optional<MpiCall> oldest() {
        slots.removeIf(s -> !s.thread.isAlive());
        long now = System.nanoTime();
        MpiCall oldest = null;
        for (Slot s : slots) {
            long call = (long) CALL.getAcquire(s);   // first: publishes name and rank
            if (call == IDLE) {
                s.seenCall = IDLE;
                continue;
            }
            if (call != s.seenCall) {
                s.seenCall = call;
                s.seenCallAt = now;
            }
            if (oldest == null || now - s.seenCallAt > oldest.elapsedNanos()) {
                oldest = new MpiCall(s.name, s.rank, s.thread.getName(), now - s.seenCallAt);
            }
        }
        return Optional.ofNullable(oldest);
    }
}
