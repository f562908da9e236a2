package org.jshmem;

/** How a {@link ShmemContext} will be used (OpenSHMEM 1.5's {@code SHMEM_CTX_*} options). */
public enum ContextOption {
    /** No two threads use the context at the same time: the backend may leave out its lock. */
    SERIALIZED,
    /**
     * Only the thread that created the context uses it (implies {@link #SERIALIZED}); with
     * {@code JSHMEM_DEBUG=1} a call from another thread throws {@link ShmemStateException}.
     */
    PRIVATE,
    /**
     * The context's {@code quiet} need not complete its stores (puts, p, non-fetching atomics); jshmem
     * completes them anyway, so the option changes nothing but is accepted as the specification allows.
     */
    NOSTORE
}
