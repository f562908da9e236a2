package org.jshmem.perf;

import java.util.List;
import org.jshmem.Shmem;
import org.jshmem.Team;

/** Barrier and sync latency over all PEs: the global calls and those of the world team. */
public final class SyncFamily implements BenchmarkFamily {
    @Override
    public String name() {
        return "sync";
    }

    @Override
    public List<Benchmark> benchmarks() {
        return List.of(Benchmark.named("barrier_latency").family(name())
                .summary("barrier_all (quiet + sync), sync_all and the world team's barrier and sync latency")
                .method("every PE calls the operation n times; time on PE 0 / n")
                .metric(Metric.LATENCY).ops("barrier_all", "sync_all", "team_barrier", "team_sync").types("-")
                .iterations(Iterations::barrier).work((c, n) -> 1)
                .host(SyncFamily::loop).build());
    }

    private static TimedLoop loop(Case c, PerfContext ctx) {
        Shmem shmem = ctx.shmem();
        return switch (c.op()) {
            case "barrier_all" -> n -> {
                long t0 = System.nanoTime();
                for (long i = 0; i < n; i++) {
                    shmem.barrierAll();
                }
                return System.nanoTime() - t0;
            };
            case "sync_all" -> n -> {
                long t0 = System.nanoTime();
                for (long i = 0; i < n; i++) {
                    shmem.syncAll();
                }
                return System.nanoTime() - t0;
            };
            case "team_barrier" -> {
                Team world = shmem.teamWorld();
                yield n -> {
                    long t0 = System.nanoTime();
                    for (long i = 0; i < n; i++) {
                        world.barrier();
                    }
                    return System.nanoTime() - t0;
                };
            }
            case "team_sync" -> {
                Team world = shmem.teamWorld();
                yield n -> {
                    long t0 = System.nanoTime();
                    for (long i = 0; i < n; i++) {
                        world.sync();
                    }
                    return System.nanoTime() - t0;
                };
            }
            default -> throw new IllegalArgumentException(c.op());
        };
    }
}
