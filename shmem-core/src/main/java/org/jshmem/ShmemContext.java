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
    private SessionHints session;   // the open session's hints, or null

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
     * Starts a session on this context (OpenSHMEM 1.6's {@code shmem_session_start}): a run of
     * operations the program describes with {@code hints}, ended by {@link #sessionStop()}. The
     * hints allow batching; jshmem issues each operation as it comes, so they change no result and
     * no timing, and a program that follows the spec runs unchanged.
     *
     * @throws ShmemStateException if a session is already open on this context
     */
    public synchronized void sessionStart(SessionHints hints) {
        Args.nonNull("ShmemContext.sessionStart", "hints", hints);
        endpoint.checkCall("ShmemContext.sessionStart");
        if (session != null) {
            throw new ShmemStateException("ShmemContext.sessionStart: a session is already open on this context"
                    + " (started with " + session + "); call sessionStop() first");
        }
        session = hints;
    }

    /**
     * Ends the session opened by {@link #sessionStart} ({@code shmem_session_stop}). As in the spec it
     * does not complete the session's operations: {@link #quiet()} does.
     *
     * @throws ShmemStateException if no session is open on this context
     */
    public synchronized void sessionStop() {
        endpoint.checkCall("ShmemContext.sessionStop");
        if (session == null) {
            throw new ShmemStateException("ShmemContext.sessionStop: no session is open on this context;"
                    + " sessionStart(hints) opens one");
        }
        session = null;
    }

    /** The hints of the session open on this context, or empty. */
    public synchronized java.util.Optional<SessionHints> session() {
        return java.util.Optional.ofNullable(session);
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
