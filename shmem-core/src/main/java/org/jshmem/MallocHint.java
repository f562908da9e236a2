package org.jshmem;

/**
 * How a block from {@link Shmem#mallocWithHints} will be used (OpenSHMEM 1.5's
 * {@code SHMEM_MALLOC_*} hints). Hints may place memory better; jshmem's heap is one kind of memory
 * (host shared memory, or fine-grained GPU memory that serves atomics and signals already), so it
 * accepts them and allocates as {@link Shmem#malloc} does.
 */
public enum MallocHint {
    /** The block will mostly be the target of atomics from other PEs. */
    ATOMICS_REMOTE,
    /** The block will hold signals of put-with-signal. */
    SIGNAL_REMOTE
}
