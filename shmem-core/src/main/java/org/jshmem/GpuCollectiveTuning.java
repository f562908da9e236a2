package org.jshmem;

/**
 * Where the GPU collectives ({@code org.jshmem.gpu.GpuCollectives}) switch algorithm; read from the environment
 * by {@link org.jshmem.ShmemConfig} ({@code JSHMEM_GPU_REDUCE_ONESHOT_MAX},
 * {@code JSHMEM_GPU_COLL_ONE_BLOCK_MAX}, {@code JSHMEM_GPU_COLL_CE_MIN},
 * {@code JSHMEM_GPU_COLL_MAX_BLOCKS}, {@code JSHMEM_GPU_REDUCESCATTER_CE_MIN}, {@code JSHMEM_GPU_COLL_CE_LANES},
 * {@code JSHMEM_GPU_COLL_CE_MODE}, {@code JSHMEM_GPU_REDUCE_LL_MAX}, {@code JSHMEM_GPU_REDUCE_ROTATED_MIN},
 * {@code JSHMEM_GPU_SERVICE_US}).
 * Every member of a team must run with the same values: the members of a reduction must agree on its shape,
 * those of an fcollect on push or pull.
 *
 * @param reduceOneShotMax bytes: a reduction of {@code b} bytes over {@code n} PEs with
 *                         {@code (n-1) x b} at most this, and not in place, is one-shot (every PE
 *                         reads every member's whole source); else two-shot (each PE reduces its
 *                         1/n slice and stores it into every member's destination)
 * @param oneBlockMax      bytes: a collective that brings a PE at most this many bytes (a
 *                         reduction: its vector; fcollect and alltoall: n pieces; collect: the
 *                         total; broadcast: the vector) runs as one kernel of one block, both
 *                         synchronisations inside it (lowest latency); larger ones as a kernel of
 *                         many blocks plus a one-block synchronisation kernel
 * @param copyEngineMin    bytes: fcollect, collect, alltoall and broadcast whose pieces (bytes per
 *                         member) are at least this move them with the copy engines
 *                         ({@code cudaMemcpyAsync}, see {@code ceLanes} and {@code cePush}); smaller
 *                         ones with SM kernels; 0: never the copy engines
 * @param maxBlocks        most blocks of a many-block kernel; 0: one per multiprocessor of this PE's
 *                         share of its device (all of them, or 1/k when k PEs share it: the blocks
 *                         wait for the peers' kernels, which must find room) (the kernels use up to
 *                         128 registers per thread at 512 threads a block: one block fits an SM)
 * @param reduceScatterCopyEngineMin bytes: a reduce-scatter whose blocks (bytes per member), or a two-shot
 *                         all-reduce whose slices (bytes / members), are at least this pulls the peers' parts
 *                         of this PE's block with the copy engines and reduces them locally, chunk by chunk
 *                         while the engines pull the next (the all-reduce then pushes each reduced chunk to
 *                         the members with the copy engines); 0 (the default): never, the SM kernels read the
 *                         peers in place, which was faster at every size with PEs sharing a GPU
 * @param ceLanes          side streams (1 to {@link #CE_LANES_LIMIT}) the copy-engine copies are
 *                         spread over; on 1 they run one after the other in rotated order, so that
 *                         each PE is read or written by one peer at a time, which beats several lanes
 *                         contending for the same links (large fcollects on 4 GPUs)
 * @param cePush           whether the copy engines of fcollect, collect and alltoall write this
 *                         PE's pieces into the members' destinations (push) rather than bring
 *                         theirs into this PE's (pull); a write carries its data with the request,
 *                         a read needs a request each way, so pushing is faster for large pieces.
 *                         Broadcast always pulls
 * @param reduceLowLatencyMax bytes: a reduction of at most this many bytes over a team of at most
 *                         {@link #LOW_LATENCY_MEMBERS} PEs takes the low-latency shape (every PE
 *                         stores its source into every member's buffer with the flags inside the
 *                         data, then reduces what arrives: one kernel, no synchronisation); at most
 *                         {@link #LOW_LATENCY_LIMIT}; 0: never
 * @param reduceRotatedMin bytes: a two-shot all-reduce of at least this many bytes, or a reduce-scatter
 *                         of a source of at least this many, over 3 or more PEs in many blocks, reads
 *                         the members one after the other, each PE starting with the one after itself,
 *                         and pushes its result the same way, so that every PE is read by one other at
 *                         a time (through NVSwitch faster for large vectors, slower at 1 MB); for 32- and
 *                         64-bit types (fp16 and bf16 would round their partial sums). The operands'
 *                         order is then rotated, so floating-point results may differ in rounding
 *                         from team order's. 0: never
 * @param serviceMicros    0 (the default): host-called collectives launch their kernels. More: each PE keeps a
 *                         service kernel, one block on one SM, that runs its host-called low-latency reductions
 *                         and one-block fcollect, collect, alltoall and broadcast without a launch each (a 1 KB
 *                         all-reduce in about half the time); it returns after this many microseconds without a
 *                         call (at most {@link #SERVICE_MICROS_LIMIT}) and the next call launches it again. The
 *                         PE's kernels are then sized for one SM fewer (GEMM work-groups, collective grids), and a
 *                         wait for the whole device ({@code cudaDeviceSynchronize}, {@code cudaFree}) while it runs
 *                         waits for its return
 */
public record GpuCollectiveTuning(long reduceOneShotMax, long oneBlockMax, long copyEngineMin, int maxBlocks,
                                  long reduceScatterCopyEngineMin, int ceLanes, boolean cePush,
                                  long reduceLowLatencyMax, long reduceRotatedMin, long serviceMicros) {
    /** Bytes of a many-block kernel's work per block (512 threads x 16-byte words x 4 in flight x 2 iterations). */
    public static final long BYTES_PER_BLOCK = 64 << 10;

    /** Most blocks the runtime launches a kernel with (its check, {@code JSHMEMK_COLL_MAX_BLOCKS}). */
    public static final int MAX_BLOCKS_LIMIT = 65535;
    /** Most side streams the copy-engine copies can be spread over (the runtime's {@code JSHMEMK_SIDE_STREAMS}). */
    public static final int CE_LANES_LIMIT = 8;
    /** Most bytes of a low-latency reduction (the device's {@code JSHMEM_LL_PAYLOAD}). */
    public static final long LOW_LATENCY_LIMIT = 4096;
    /** Most members of a team whose reductions may take the low-latency shape ({@code JSHMEM_LL_MEMBERS}). */
    public static final int LOW_LATENCY_MEMBERS = 8;
    /** Longest time the service kernel may wait for a call: a minute (the runtime's check). */
    public static final long SERVICE_MICROS_LIMIT = 60_000_000;

    /**
     * Defaults, reasoned from the hardware's rates and checked with {@code GpuCollectivesBench}
     * (docs/performance.md): a single block keeps about 32 KiB in flight, so one block serves up to
     * 32 KiB before a second kernel launch (about a microsecond) pays off; one-shot and two-shot move
     * the same bytes over the links on 2 PEs, two-shot reduces half as much per PE and fewer bytes from
     * 3 PEs on, so two-shot from 256 KiB; the copy engine nears its peak only for pieces of many MB, so
     * SM kernels below 8 MiB per piece. Members one at a time from 4 MiB, the smallest size where that
     * was faster.
     */
    public static final GpuCollectiveTuning DEFAULT =
            new GpuCollectiveTuning(256 << 10, 32 << 10, 8 << 20, 0, 0, 1, true, LOW_LATENCY_LIMIT, 4 << 20, 0);

    public GpuCollectiveTuning {
        if (reduceOneShotMax < 0 || oneBlockMax < 0 || copyEngineMin < 0 || maxBlocks < 0
                || maxBlocks > MAX_BLOCKS_LIMIT || reduceScatterCopyEngineMin < 0 || reduceRotatedMin < 0) {
            throw new IllegalArgumentException("GPU collective thresholds must not be negative (and at most "
                    + MAX_BLOCKS_LIMIT + " blocks): reduce one-shot max " + reduceOneShotMax + ", one-block max "
                    + oneBlockMax + ", copy-engine min " + copyEngineMin + ", max blocks " + maxBlocks
                    + ", reduce-scatter copy-engine min " + reduceScatterCopyEngineMin + ", rotated min " + reduceRotatedMin);
        }
        if (ceLanes < 1 || ceLanes > CE_LANES_LIMIT) {
            throw new IllegalArgumentException("copy-engine lanes must be 1 to " + CE_LANES_LIMIT + ", not " + ceLanes);
        }
        if (reduceLowLatencyMax < 0 || reduceLowLatencyMax > LOW_LATENCY_LIMIT) {
            throw new IllegalArgumentException("the low-latency reduction's most bytes must be 0 to " + LOW_LATENCY_LIMIT
                    + ", not " + reduceLowLatencyMax);
        }
        if (serviceMicros < 0 || serviceMicros > SERVICE_MICROS_LIMIT) {
            throw new IllegalArgumentException("the service kernel's wait must be 0 (no service kernel) to "
                    + SERVICE_MICROS_LIMIT + " microseconds, not " + serviceMicros);
        }
    }

    /** The thresholds without a service kernel. */
    public GpuCollectiveTuning(long reduceOneShotMax, long oneBlockMax, long copyEngineMin, int maxBlocks,
                               long reduceScatterCopyEngineMin, int ceLanes, boolean cePush, long reduceLowLatencyMax,
                               long reduceRotatedMin) {
        this(reduceOneShotMax, oneBlockMax, copyEngineMin, maxBlocks, reduceScatterCopyEngineMin, ceLanes, cePush,
                reduceLowLatencyMax, reduceRotatedMin, 0);
    }

    /**
     * The thresholds with the reduce-scatter on SM kernels only (its copy-engine form off), the
     * copy engines pushing on one lane, no low-latency reductions and the members read all at once.
     */
    public GpuCollectiveTuning(long reduceOneShotMax, long oneBlockMax, long copyEngineMin, int maxBlocks) {
        this(reduceOneShotMax, oneBlockMax, copyEngineMin, maxBlocks, 0, 1, true, 0, 0, 0);
    }

    /**
     * Whether a many-block two-shot all-reduce or reduce-scatter over {@code members} PEs that brings in
     * {@code bytes} (the vector; the reduce-scatter's whole source) reads the members one at a time.
     */
    public boolean reduceRotated(int members, long bytes) {
        return members >= 3 && reduceRotatedMin > 0 && bytes >= reduceRotatedMin;
    }

    /** Whether a reduction of {@code bytes} over {@code members} PEs takes the low-latency shape. */
    public boolean reduceLowLatency(int members, long bytes) {
        return members > 1 && members <= LOW_LATENCY_MEMBERS && bytes <= reduceLowLatencyMax;
    }

    /**
     * The copy-engine lanes for a reduce-scatter with blocks of {@code bytesPerBlock}: {@link #ceLanes()}
     * where it pulls them with the copy engines, 0 where the SM kernel reads them in place.
     */
    public int reduceScatterCopyEngineLanes(long bytesPerBlock) {
        return reduceScatterCopyEngineMin > 0 && bytesPerBlock >= reduceScatterCopyEngineMin ? ceLanes : 0;
    }

    /**
     * The copy-engine lanes for a two-shot all-reduce of {@code bytes} over {@code members} PEs: those of a
     * reduce-scatter whose blocks are its slices (its first half), 0 where the SM kernels read the peers in place.
     */
    public int reduceCopyEngineLanes(int members, long bytes) {
        return members > 1 ? reduceScatterCopyEngineLanes((bytes + members - 1) / members) : 0;
    }

    /** Whether a reduction of {@code bytes} over {@code members} PEs runs two-shot (always in place). */
    public boolean reduceTwoShot(int members, long bytes, boolean inPlace) {
        if (inPlace) {
            return true;
        }
        if (members <= 1) {
            return false;
        }
        return bytes > reduceOneShotMax / (members - 1);   // (members-1) x bytes > max, without overflow
    }

    /**
     * The kernel shape for a collective that brings a PE {@code bytes}: 0 for one fused block,
     * else the number of blocks (1 .. the maximum) of a many-block kernel.
     */
    public int blocks(long bytes, int multiprocessors) {
        if (bytes <= oneBlockMax) {
            return 0;
        }
        int max = maxBlocks > 0 ? maxBlocks : Math.max(1, Math.min(multiprocessors, MAX_BLOCKS_LIMIT));
        long wanted = (bytes + BYTES_PER_BLOCK - 1) / BYTES_PER_BLOCK;
        return (int) Math.max(1, Math.min(max, wanted));
    }

    /** Whether pieces of {@code bytesPerPiece} move with the copy engines. */
    public boolean copyEngine(long bytesPerPiece) {
        return copyEngineMin > 0 && bytesPerPiece >= copyEngineMin;
    }

    /** The copy-engine lanes for pieces of {@code bytesPerPiece}: {@link #ceLanes()}, or 0 for SM kernels. */
    public int copyEngineLanes(long bytesPerPiece) {
        return copyEngine(bytesPerPiece) ? ceLanes : 0;
    }

    /** One line for benchmark headers. */
    public String describe() {
        return "reduce one-shot while (n-1) x bytes <= " + reduceOneShotMax + " (two-shot above and in place); one"
                + " fused block up to " + oneBlockMax + " B, above that " + (maxBlocks > 0 ? "up to " + maxBlocks
                : "one per SM") + " blocks; copy engines " + (copyEngineMin > 0 ? "from " + copyEngineMin
                + " B per piece, " + (cePush ? "pushed" : "pulled") + " on " + ceLanes + " lane" + (ceLanes > 1 ? "s" : "")
                : "never") + "; reduce-scatter and two-shot copy engines "
                + (reduceScatterCopyEngineMin > 0 ? "from " + reduceScatterCopyEngineMin + " B per block" : "never")
                + "; low-latency reductions "
                + (reduceLowLatencyMax > 0 ? "up to " + reduceLowLatencyMax + " B on up to " + LOW_LATENCY_MEMBERS
                + " PEs" : "never") + "; two-shot and reduce-scatter grids read the members one at a time "
                + (reduceRotatedMin > 0 ? "from " + reduceRotatedMin + " B on 3+ PEs" : "never") + "; host-called "
                + (serviceMicros > 0 ? "small ones on a service kernel (returns after " + serviceMicros + " us idle)"
                : "ones launch their kernels");
    }
}
