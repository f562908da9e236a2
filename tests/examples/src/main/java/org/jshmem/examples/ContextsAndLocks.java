package org.jshmem.examples;

import org.jshmem.ContextOption;
import org.jshmem.DType;
import org.jshmem.ReduceOp;
import org.jshmem.Shmem;
import org.jshmem.ShmemContext;
import org.jshmem.SymmetricSegment;

/**
 * Communication contexts, and a distributed lock.
 *
 * <p>Contexts: two threads of each PE send data to the right neighbour, each through a context of
 * its own ({@code createContext}). Each issues non-blocking puts ({@code putNbi}) on its context and
 * completes them with the context's {@code quiet}, which waits for that context's puts only, not
 * for the other thread's.
 *
 * <p>Lock: every PE adds to a counter that lives on PE 0 with a plain get, add and put, which is
 * safe only because the PEs take turns holding a lock ({@code setLock} / {@code clearLock}: a fair
 * queue lock on a symmetric long). Without the lock, two PEs could read the same value and one
 * increment would be lost.
 *
 * <p>Run on 4 PEs:
 * <pre>bin/jshmemrun -np 4 -cp tests/examples/target/jshmem-examples-0.1.0-SNAPSHOT.jar org.jshmem.examples.ContextsAndLocks</pre>
 */
public final class ContextsAndLocks {
    private static final int THREADS = 2;
    private static final int COUNT = 4096;         // ints each thread sends
    private static final int CHUNK = 512;          // ints per putNbi
    private static final int INCREMENTS = 100;     // lock round trips per PE

    public static void main(String[] args) throws InterruptedException {
        boolean ok;
        try (Shmem shmem = Shmem.init()) {   // ThreadLevel.MULTIPLE: any thread may call jshmem
            int me = shmem.myPe();
            int n = shmem.nPes();
            int right = (me + 1) % n;

            // ---- contexts: thread t writes part t of the right neighbour's inbox
            SymmetricSegment inbox = shmem.calloc((long) THREADS * COUNT, Integer.BYTES);
            Thread[] threads = new Thread[THREADS];
            for (int t = 0; t < THREADS; t++) {
                int part = t;
                threads[t] = new Thread(() -> {
                    // PRIVATE: only this thread uses the context (JSHMEM_DEBUG=1 checks that)
                    try (ShmemContext ctx = shmem.createContext(ContextOption.PRIVATE)) {
                        int[] data = new int[COUNT];
                        for (int i = 0; i < COUNT; i++) {
                            data[i] = value(me, part, i);
                        }
                        for (int i = 0; i < COUNT; i += CHUNK) {
                            long at = ((long) part * COUNT + i) * Integer.BYTES;
                            ctx.putNbi(inbox, at, data, i, CHUNK, right);   // may return before the data is sent
                        }
                        ctx.quiet();   // this context's puts are complete; data may be reused now
                    }
                });
                threads[t].start();
            }
            for (Thread t : threads) {
                t.join();
            }
            shmem.barrierAll();   // every PE's threads are done: the inboxes are full

            int left = Math.floorMod(me - 1, n);
            int[] got = new int[THREADS * COUNT];
            shmem.get(got, 0, got.length, inbox, 0, me);
            boolean contextsOk = true;
            for (int i = 0; i < got.length; i++) {
                contextsOk &= got[i] == value(left, i / COUNT, i % COUNT);
            }

            // ---- lock: a counter on PE 0, read and written under the lock
            SymmetricSegment lock = shmem.calloc(1, Long.BYTES);      // zero before first use
            SymmetricSegment counter = shmem.calloc(1, Long.BYTES);
            for (int i = 0; i < INCREMENTS; i++) {
                shmem.setLock(lock, 0);
                long v = shmem.gLong(counter, 0, 0);
                shmem.pLong(counter, 0, v + 1, 0);
                shmem.clearLock(lock, 0);   // completes the put, then hands the lock to the next PE
            }
            shmem.barrierAll();
            long total = shmem.gLong(counter, 0, 0);
            boolean lockOk = total == (long) n * INCREMENTS;

            System.out.print(String.format("PE %d of %d: %d threads with a context each sent %d ints: %s;"
                    + " counter on PE 0 after %d locked increments per PE: %d (expected %d): %s%n", me, n, THREADS,
                    THREADS * COUNT, contextsOk ? "OK" : "WRONG", INCREMENTS, total, (long) n * INCREMENTS,
                    lockOk ? "OK" : "WRONG"));
            System.out.flush();

            // every PE's verdict, as the minimum over the world
            SymmetricSegment verdict = shmem.malloc(Integer.BYTES);
            SymmetricSegment all = shmem.malloc(Integer.BYTES);
            shmem.pInt(verdict, 0, contextsOk && lockOk ? 1 : 0, me);
            shmem.teamWorld().reduce(ReduceOp.MIN, DType.INT, all, verdict, 1);
            ok = shmem.gInt(all, 0, me) == 1;
            shmem.barrierAll();
            if (me == 0) {
                System.out.print(String.format("contexts and locks: %d PEs: %s%n", n, ok ? "every PE OK" : "FAILED"));
            }
        }
        if (!ok) {
            System.exit(1);
        }
    }

    /** Element i of part t of PE pe's data. */
    private static int value(int pe, int t, int i) {
        return pe * 1_000_000 + t * 100_000 + i;
    }
}
