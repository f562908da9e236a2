package org.jshmem.perf;

import java.util.Optional;
import org.jshmem.Shmem;

/** Host-initiated operations: the Java thread of each PE calls the {@link Shmem} API. */
public final class HostForm implements Form {
    @Override
    public String name() {
        return "host";
    }

    @Override
    public String description() {
        return "host-initiated calls of the Shmem API (every backend)";
    }

    @Override
    public Optional<String> unavailableReason(Shmem shmem) {
        return Optional.empty();
    }

    @Override
    public boolean supports(Benchmark benchmark) {
        return benchmark.host() != null;
    }

    @Override
    public TimedLoop loop(Case c, PerfContext ctx) {
        return c.benchmark().host().loop(c, ctx);
    }
}
