package org.jshmem.perf;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import org.jshmem.ContextOption;
import org.jshmem.Shmem;
import org.jshmem.ShmemContext;
import org.jshmem.SymmetricSegment;

/**
 * Communication contexts: two threads per PE putting to the right neighbour and completing with
 * quiet, either both on the PE's default context (each quiet also waits for the other thread's
 * puts) or on a private context each (each quiet waits for its own). The gap between the two rows
 * is what contexts buy.
 */
public final class ContextFamily implements BenchmarkFamily {
    static final int THREADS = 2;
    /** The quiet comes after every this many puts. */
    static final int BATCH = 16;

    @Override
    public String name() {
        return "context";
    }

    @Override
    public List<Benchmark> benchmarks() {
        return List.of(Benchmark.named("ctx_put_rate").family(name())
                .summary("puts per second from two threads: one shared context vs a context each")
                .method("every PE starts " + THREADS + " threads; each puts n 8-byte values to its own slot on the"
                        + " right neighbour, with a quiet after every " + BATCH + ", on the default context"
                        + " (default_context) or a PRIVATE context of its own (own_context); then sync_all; time on"
                        + " PE 0 including the threads' start; puts of all threads of all PEs")
                .metric(Metric.RATE).ops("default_context", "own_context").types("long")
                .iterations(Iterations::scalar).work((c, n) -> n * THREADS)
                .host(ContextFamily::loop).build());
    }

    private static TimedLoop loop(Case c, PerfContext ctx) {
        Shmem shmem = ctx.shmem();
        boolean own = c.op().equals("own_context");
        SymmetricSegment target = ctx.flags();
        return n -> {
            Thread[] threads = new Thread[THREADS];
            RuntimeException[] failure = new RuntimeException[1];
            long t0 = System.nanoTime();
            for (int t = 0; t < THREADS; t++) {
                long slot = PerfContext.SCRATCH + 8L * t;
                threads[t] = new Thread(() -> {
                    try (Arena arena = Arena.ofConfined();
                         ShmemContext mine = own ? shmem.createContext(ContextOption.PRIVATE) : null) {
                        MemorySegment value = arena.allocate(8);
                        for (long i = 0; i < n; i++) {
                            value.set(java.lang.foreign.ValueLayout.JAVA_LONG, 0, i);
                            if (mine != null) {
                                mine.put(target, slot, value, ctx.right());
                            } else {
                                shmem.put(target, slot, value, ctx.right());
                            }
                            if (i % BATCH == BATCH - 1) {
                                if (mine != null) {
                                    mine.quiet();
                                } else {
                                    shmem.quiet();
                                }
                            }
                        }
                    } catch (RuntimeException e) {
                        failure[0] = e;
                    }
                });
                threads[t].start();
            }
            for (Thread t : threads) {
                try {
                    t.join();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while timing ctx_put_rate", e);
                }
            }
            if (failure[0] != null) {
                throw failure[0];
            }
            shmem.quiet();
            shmem.syncAll();
            return System.nanoTime() - t0;
        };
    }
}
