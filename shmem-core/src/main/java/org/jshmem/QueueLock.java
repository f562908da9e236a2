package org.jshmem;

/**
 * OpenSHMEM's distributed lock on a symmetric long, as a queue (MCS) lock: fair (first come, first
 * served, so no PE starves) and each waiter spins on its own copy of the long, not on PE 0's.
 *
 * <p>The long is two ints. On PE 0 the int at +0 is the queue's tail: 0 when the lock is free,
 * else 1 + the PE last in the queue. On every PE the int at +4 is that PE's queue node: the low 31
 * bits hold 1 + its successor (written by the successor when it queues), the top bit is set by its
 * predecessor when the lock passes to it. Both writers use atomic ORs, so neither loses the other's.
 */
final class QueueLock {
    private static final int TAIL = 0;
    private static final int NODE = 4;
    private static final int GRANTED = 0x8000_0000;
    private static final int NEXT = 0x7FFF_FFFF;
    private static final int HOME = 0;   // the PE whose copy holds the tail

    private QueueLock() {
    }

    static void set(Shmem s, SymmetricSegment lock, long offset) {
        int me = s.myPe();
        check(s, "setLock", lock, offset);
        long t = s.trace().begin("setLock");
        s.atomicSetInt(lock, offset + NODE, 0, me);   // no one knows this node before the swap below
        int predecessor = s.atomicSwapInt(lock, offset + TAIL, me + 1, HOME);
        if (predecessor == 0) {
            s.trace().end("setLock", "wait", t);
            return;
        }
        s.atomicOrInt(lock, offset + NODE, me + 1, predecessor - 1);
        long at = lock.heapOffset() + offset + NODE;
        try {
            for (int n = 0; (s.loadLocal(at, Integer.BYTES) & GRANTED) == 0; ) {
                n = s.runtime().idle(n, "setLock");
            }
        } catch (WaitTimeoutException e) {
            throw s.runtime().stuck(e, "the lock at offset " + offset + " of " + lock + " is held, PE "
                    + (predecessor - 1) + " is ahead of this PE in its queue and has not passed it on");
        } finally {
            s.trace().end("setLock", "wait", t, predecessor - 1, -1, -1);   // peer: the PE that passed it on
        }
    }

    static boolean test(Shmem s, SymmetricSegment lock, long offset) {
        int me = s.myPe();
        check(s, "testLock", lock, offset);
        s.atomicSetInt(lock, offset + NODE, 0, me);
        return s.atomicCompareSwapInt(lock, offset + TAIL, 0, me + 1, HOME) == 0;
    }

    static void clear(Shmem s, SymmetricSegment lock, long offset) {
        int me = s.myPe();
        check(s, "clearLock", lock, offset);
        s.quiet();   // what was written under the lock is visible before the next holder gets it
        long at = lock.heapOffset() + offset + NODE;
        int node = (int) s.loadLocal(at, Integer.BYTES);
        if ((node & NEXT) == 0) {
            if (s.atomicCompareSwapInt(lock, offset + TAIL, me + 1, 0, HOME) == me + 1) {
                return;   // no one queued behind this PE
            }
            try {
                for (int n = 0; ((node = (int) s.loadLocal(at, Integer.BYTES)) & NEXT) == 0; ) {
                    n = s.runtime().idle(n, "clearLock");   // a successor swapped the tail and is about to link in
                }
            } catch (WaitTimeoutException e) {
                throw s.runtime().stuck(e, "the lock at offset " + offset + " of " + lock + " has a PE queued behind"
                        + " this one that has not linked in");
            }
        }
        s.atomicOrInt(lock, offset + NODE, GRANTED, (node & NEXT) - 1);
    }

    /** The whole long is checked (range, 8-byte alignment) before anything is touched. */
    private static void check(Shmem s, String call, SymmetricSegment lock, long offset) {
        Args.nonNull(call, "lock", lock);
        s.target(call, lock, offset, Long.BYTES, s.myPe(), Long.BYTES);
    }
}
