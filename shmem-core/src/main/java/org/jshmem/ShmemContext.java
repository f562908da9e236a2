package org.jshmem;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;
import org.jshmem.spi.BackendContext;
import org.jshmem.spi.TeamLayout;

/**
 * A communication context (OpenSHMEM 1.5 section 9.4): the remote memory access, atomic and signal
 * calls, ordered by this context's {@link #fence()} and completed by its {@link #quiet()}, which do
 * not wait for the operations of other contexts. Give each thread a context of its own and one
 * thread's {@code quiet} does not stall on another's transfers (on a GPU heap each context has a
 * stream of its own). Made by {@link Shmem#createContext} (world PE numbers) or
 * {@link Team#createContext} (the team's PE numbers); {@link Shmem#defaultContext()} is the one the
 * calls on {@link Shmem} use.
 *
 * <pre>{@code
 * try (ShmemContext ctx = shmem.createContext(ContextOption.PRIVATE)) {
 *     ctx.put(dest, 0, data, 0, data.length, right);
 *     ctx.quiet();                         // completes this context's puts only
 * }
 * }</pre>
 *
 * <p>Waits, tests and collectives are not per context: they are on {@link Shmem} and {@link Team}.
 * Closing a context completes its operations; closing its team or the PE closes it.
 */
public final class ShmemContext implements AutoCloseable, RemoteMemoryAccess, AtomicOperations, SignalOperations {
    private final Shmem shmem;
    private final Endpoint endpoint;
    private final Team team;         // null: made by Shmem.createContext, world PE numbers
    private final Set<ContextOption> options;

    ShmemContext(Shmem shmem, Endpoint endpoint, Team team, Set<ContextOption> options) {
        this.shmem = shmem;
        this.endpoint = endpoint;
        this.team = team;
        this.options = options;
    }

    /** Makes a context over {@code team} (null: the world) with its own backend channel. */
    static ShmemContext open(Shmem shmem, Team team, ContextOption... options) {
        Args.nonNull("createContext", "options", options);
        Set<ContextOption> set = EnumSet.noneOf(ContextOption.class);
        for (ContextOption o : options) {
            Args.nonNull("createContext", "an option", o);
            set.add(o);
        }
        boolean isPrivate = set.contains(ContextOption.PRIVATE);
        BackendContext channel = shmem.backend().openContext(isPrivate || set.contains(ContextOption.SERIALIZED));
        Thread owner = isPrivate && shmem.config().debug() ? Thread.currentThread() : null;
        Endpoint endpoint = new Endpoint(shmem, channel, team == null ? null : team.layout(),
                team == null ? "world" : team.name(), owner,
                "this context was created PRIVATE by another thread");
        ShmemContext ctx = new ShmemContext(shmem, endpoint, team, Collections.unmodifiableSet(set));
        shmem.contextOpened(ctx);
        return ctx;
    }

    Endpoint endpoint() {
        return endpoint;
    }

    /** The layout of the team it was made over, or null for {@link Shmem#createContext}. */
    TeamLayout teamLayout() {
        return team == null ? null : team.layout();
    }

    /**
     * The team whose PE numbers the context's calls take (OpenSHMEM's {@code shmem_ctx_get_team}):
     * the team of {@link Team#createContext}, or {@link Shmem#teamWorld()}.
     */
    public Team team() {
        return team == null ? shmem.teamWorld() : team;
    }

    /** The options it was created with. */
    public Set<ContextOption> options() {
        return options;
    }

    /** Whether this is the PE's default context ({@link Shmem#defaultContext()}), which cannot be closed. */
    public boolean isDefault() {
        return this == shmem.defaultContext();
    }

    /** Orders this context's puts, atomics and signals to each PE issued before it before those issued after it. */
    public void fence() {
        endpoint.fence("ShmemContext.fence");
    }

    /** Completes (makes visible at their targets) this context's operations issued before it; other contexts' are not waited for. */
    public void quiet() {
        endpoint.quiet("ShmemContext.quiet");
    }

    /**
     * {@link Shmem#peQuiet} for this context's operations ({@code shmem_ctx_pe_quiet}); on a team's
     * context the numbers are PEs of that team.
     */
    public void peQuiet(int... pes) {
        Args.nonNull("ShmemContext.peQuiet", "pes", pes);
        endpoint.peQuiet("ShmemContext.peQuiet", pes);
    }

    /**
     * Completes this context's operations and releases it (OpenSHMEM's {@code shmem_ctx_destroy}).
     * Safe to call twice; every later call on it throws {@link ShmemStateException}.
     *
     * @throws ShmemStateException for the default context
     */
    @Override
    public void close() {
        if (isDefault()) {
            throw new ShmemStateException("ShmemContext.close: the default context cannot be closed; it ends with the"
                    + " PE (Shmem.close)");
        }
        if (endpoint.isClosed()) {
            return;
        }
        try {
            if (!shmem.isClosed()) {
                endpoint.quiet("ShmemContext.close");
            }
        } finally {
            endpoint.markClosed();
            shmem.contextClosed(this);
        }
    }

    @Override
    public String toString() {
        return (isDefault() ? "default context" : "context " + options) + " of " + shmem
                + (team != null ? " over " + team : "") + (endpoint.isClosed() ? " (closed)" : "");
    }
}
