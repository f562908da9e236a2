package org.jshmem.gemm;

import org.jshmem.ShmemStream;
import org.jshmem.SymmetricSegment;

/** One way of running a planned GEMM: the CPU executor, a GPU kernel, or the reference path. */
interface GemmExecutor extends AutoCloseable {
    /**
     * Runs one call (collective over the PEs). {@code stream}: where GPU work is queued (null on
     * host heaps, and for the blocking form, which waits for its own stream). {@code generation}
     * stamps this call's flags (1, 2, ... per FusedGemm, the same on every PE).
     */
    void run(SymmetricSegment a, SymmetricSegment b, SymmetricSegment c, ShmemStream stream, long generation);

    /** One line: what runs, e.g. "portable mma.sync kernel, 128x128x32 tiles, 132 work-groups". */
    String describe();

    @Override
    void close();
}
