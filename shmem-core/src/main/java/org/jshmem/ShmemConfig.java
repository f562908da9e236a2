package org.jshmem;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Function;

/**
 * Every setting of jshmem, read from {@code JSHMEM_*} environment variables (the one place that
 * reads or documents them). A record, so a program or a test may also build one directly.
 *
 * <table>
 * <caption>Environment variables</caption>
 * <tr><th>variable</th><th>default</th><th>meaning</th></tr>
 * <tr><td>{@code JSHMEM_SYMMETRIC_SIZE}</td><td>1G</td><td>bytes of symmetric heap per PE; accepts
 *     suffixes K, M, G, T (powers of 1024), e.g. {@code 512M}, {@code 2G}. A GPU heap may take up to
 *     the largest power of two not above it (at most 1 GiB) more device memory, to place its base where
 *     {@code align} needs it</td></tr>
 * <tr><td>{@code JSHMEM_BACKEND}</td><td>auto</td><td>{@code host} (shared memory), {@code cuda},
 *     {@code hip}, or {@code auto}: a GPU when a driver and a device are present, else host</td></tr>
 * <tr><td>{@code JSHMEM_DEVICE}</td><td>node-local rank mod device count</td><td>GPU ordinal for this PE</td></tr>
 * <tr><td>{@code JSHMEM_DEBUG}</td><td>0</td><td>1: check that every PE passed the same arguments to
 *     the collective calls of teams (the allocation calls are always checked), and check bounds in device
 *     code</td></tr>
 * <tr><td>{@code JSHMEM_BOOTSTRAP}</td><td>auto</td><td>{@code mpi} (Open MPI's Java bindings, {@code mpi.jar}),
 *     {@code mpi-native} (Open MPI's C library {@code libmpi.so.40} through FFM, no Java bindings),
 *     {@code single} (one PE, no MPI), or {@code auto}: when started by mpirun, {@code mpi} if {@code mpi.jar}
 *     is on the class path, else {@code mpi-native}; otherwise single</td></tr>
 * <tr><td>{@code JSHMEM_MPI_LIBRARY}</td><td>libmpi.so.40</td><td>the {@code mpi-native} bootstrap: Open MPI's
 *     C library to load, a soname (found through the dynamic loader's path) or a file's path</td></tr>
 * <tr><td>{@code JSHMEM_SHM_DIR}</td><td>/dev/shm</td><td>where node-shared memory files are made
 *     (and unlinked as soon as every PE has mapped them)</td></tr>
 * <tr><td>{@code JSHMEM_LIVENESS_MS}</td><td>200</td><td>how often a waiting PE checks that the others are
 *     still alive; a dead PE is reported within about this time</td></tr>
 * <tr><td>{@code JSHMEM_WAIT_TIMEOUT}</td><td>600</td><td>seconds a blocking host call (wait, barrier,
 *     collective, lock) may go without progress before it throws {@link WaitTimeoutException}, naming what it
 *     waits for (as PyTorch's 10-minute collective timeout); a fraction is allowed; 0: wait forever. Set,
 *     it also bounds every wait inside jshmem's kernels and the device library's (signal and variable waits,
 *     barriers, collectives, the fused GEMM's stamps): a stuck one prints what it waits for and traps.
 *     Unset, kernels wait forever</td></tr>
 * <tr><td>{@code JSHMEM_TRACE}</td><td>unset</td><td>a file: every PE records its jshmem calls, and at
 *     {@code close} the job writes one timeline there (Chrome trace-event JSON, for Perfetto); see
 *     {@code org.jshmem.trace.Trace}</td></tr>
 * <tr><td>{@code JSHMEM_NVTX}</td><td>0</td><td>1: jshmem's host calls (collectives, barriers, allocation,
 *     waits, quiet, fused GEMMs) are NVTX ranges in the domain "jshmem", for Nsight Systems; read by
 *     {@link #nvtxRequested}</td></tr>
 * <tr><td>{@code JSHMEM_SPIN}</td><td>auto</td><td>busy-wait iterations before a wait starts yielding the
 *     CPU; auto: 4096, or 0 when the node's PEs outnumber its cores (a spinning PE would hold the core
 *     the PE it waits for needs); the node's cores are its online CPUs within the cgroup's CPU quota, not
 *     the CPUs this process is bound to (mpirun binds each PE to one core by default)</td></tr>
 * <tr><td>{@code JSHMEM_COLLECTIVES}</td><td>auto</td><td>{@code auto}: collectives read peers' heaps
 *     directly where they are host memory, run as GPU kernels (and copy engines) over the peers' mapped
 *     heaps on GPU heaps, and take two levels (within nodes, then between them) when PEs are on several
 *     nodes; {@code copy}: the host-called forms always move data with the backend's copies, in one
 *     level, and reduce on the host (slower; the {@code ...OnStream} forms stay GPU kernels)</td></tr>
 * <tr><td>{@code JSHMEM_COLL_STAGED_MAX}</td><td>2K</td><td>host collectives: a PE contribution of at most this
 *     many bytes goes through the team's staging buffer in the control block (one synchronisation instead
 *     of two); at most 16320 (the buffer), 0 turns staging off</td></tr>
 * <tr><td>{@code JSHMEM_REDUCE_ONESHOT_MAX}</td><td>8K</td><td>host reductions over n PEs of b bytes with
 *     (n-1) x b at most this reduce the whole vector on every PE (one-shot); larger ones reduce a 1/n
 *     slice each and gather the slices (two-shot); 0: always two-shot above the staged size</td></tr>
 * <tr><td>{@code JSHMEM_COLL_HIERARCHY_MIN}</td><td>1M</td><td>PEs on several nodes: broadcast, fcollect,
 *     collect and integer reductions from this many bytes per PE take two levels (the node's PEs share
 *     the copies between nodes); smaller ones, with two synchronisations fewer, one</td></tr>
 * <tr><td>{@code JSHMEM_SM_COPY_MAX}</td><td>8M</td><td>GPU heaps: on-stream copies within one GPU (PEs
 *     sharing it) up to this size run as a copy kernel on the SMs, larger ones on a copy engine; copies
 *     between this PE's GPU and another run on the SMs too, launched chained, where no GPU is shared by several
 *     PEs, from 1M (puts) or 256K (gets) to 4M and at most this size, and the others on a copy engine (each the
 *     faster at those sizes over NVLink); 0: every on-stream copy on a copy engine</td></tr>
 * <tr><td>{@code JSHMEM_GPU_BOUNDARY_FENCES}</td><td>0</td><td>GPU heaps: 1 makes the runtime's stand-alone
 *     sync kernels (barrier and sync on a stream, the collectives' separate entry and exit syncs) quiet and
 *     fence; by default they publish and poll relaxed, the stream's earlier stores being complete when they
 *     start. Read by the native runtime, not by this class</td></tr>
 * <tr><td>{@code JSHMEM_GPU_LAUNCH_CHAINING}</td><td>1</td><td>CUDA heaps on compute capability 9.0+: the
 *     runtime's one-block stream kernels, and modules' kernels launched with {@code Kernel.launchChained}, use
 *     programmatic dependent launch (scheduled while the stream's previous kernel finishes); 0 launches them
 *     plainly. Read by the native runtime, not by this class</td></tr>
 * <tr><td>{@code JSHMEM_GPU_REDUCE_ROTATED_MIN}</td><td>4M</td><td>GPU two-shot all-reduces of at least this many
 *     bytes, and reduce-scatters of a source of at least this many, over 3 or more PEs in many blocks read the
 *     members one after the other (32- and 64-bit types), so that every PE is read by one other at a time
 *     (faster for large vectors through NVSwitch); floating-point results may then round differently from
 *     team order. 0: never</td></tr>
 * <tr><td>{@code JSHMEM_GPU_REDUCE_ONESHOT_MAX}</td><td>256K</td><td>GPU reductions over n PEs of b bytes
 *     with (n-1) x b at most this (and not in place) are one-shot: every PE reads every member's whole
 *     source; larger ones, and in place, two-shot: each PE reduces its 1/n slice and stores it into every
 *     member's destination. 0: always two-shot</td></tr>
 * <tr><td>{@code JSHMEM_GPU_COLL_ONE_BLOCK_MAX}</td><td>32K</td><td>GPU collectives that bring a PE at most
 *     this many bytes run as one kernel of one block with both synchronisations inside (lowest latency);
 *     larger ones as a kernel of many blocks and a one-block synchronisation kernel. 0: always many
 *     blocks</td></tr>
 * <tr><td>{@code JSHMEM_GPU_COLL_CE_MIN}</td><td>8M</td><td>GPU fcollect, collect, alltoall and broadcast
 *     with pieces (bytes per member) of at least this move them with the copy engines (pieces pushed
 *     or pulled in rotated order); smaller ones with SM kernels. 0: never the copy engines</td></tr>
 * <tr><td>{@code JSHMEM_GPU_COLL_CE_LANES}</td><td>1</td><td>side streams (1 to 8) the GPU collectives'
 *     copy-engine copies are spread over; on 1 they run one after the other, so each PE is written (read)
 *     by one peer at a time (faster on 4 GPUs than moving every peer's piece at once)</td></tr>
 * <tr><td>{@code JSHMEM_GPU_COLL_CE_MODE}</td><td>push</td><td>{@code push}: for fcollect, collect and
 *     alltoall the copy engines write this PE's pieces into the members' destinations (faster than pulling
 *     for large pieces: a write carries its data with the request); {@code pull}: they
 *     bring the members' pieces into this PE's destination, as broadcast always does</td></tr>
 * <tr><td>{@code JSHMEM_GPU_COLL_MAX_BLOCKS}</td><td>0</td><td>most blocks of a many-block GPU collective
 *     kernel; 0: one per multiprocessor</td></tr>
 * <tr><td>{@code JSHMEM_GPU_REDUCESCATTER_CE_MIN}</td><td>0</td><td>GPU reduce-scatter with blocks (bytes per
 *     member), and two-shot all-reduce with slices (bytes / members), of at least this pull the peers' parts
 *     with the copy engines and reduce them locally chunk by chunk (the all-reduce pushes its reduced slice
 *     with them too); 0: never (SM kernels read the peers in place)</td></tr>
 * <tr><td>{@code JSHMEM_GPU_REDUCE_LL_MAX}</td><td>4K</td><td>GPU reductions of at most this many bytes over
 *     teams of at most 8 PEs take the low-latency shape: one kernel in which every PE stores its source into
 *     every member's buffer with a flag beside every 4 bytes and reduces what arrives, with no
 *     synchronisation; at most 4K; 0: never</td></tr>
 * <tr><td>{@code JSHMEM_GPU_SERVICE_US}</td><td>0</td><td>GPU heaps: more than 0 keeps a service kernel on each
 *     PE's GPU, one block on one SM, that runs host-called low-latency reductions and one-block fcollect, collect,
 *     alltoall and broadcast without a kernel launch each (a 1 KB all-reduce in about half the time); it returns
 *     after this many microseconds without a call (at most 60000000) and the next call starts it again. The PE's
 *     kernels are then sized for one SM fewer (GEMM work-groups, collective grids), and a wait for the whole device
 *     while it runs ({@code cudaDeviceSynchronize}, {@code cudaFree}, {@code torch.cuda.synchronize}) waits for its
 *     return; 0: host-called collectives launch their kernels</td></tr>
 * <tr><td>{@code JSHMEM_PREFAULT}</td><td>1</td><td>host heaps: at init every PE allocates the pages of its
 *     own heap and maps every PE's heap ({@code madvise(MADV_POPULATE_WRITE)}), so the first put into
 *     fresh heap memory does not pay a page fault per 4 KiB; 0: pages are allocated when first touched
 *     (quicker init, less memory for heaps that stay mostly unused)</td></tr>
 * <tr><td>{@code JSHMEM_TRANSPORT}</td><td>auto</td><td>how a PE reaches its peers' heaps: {@code auto}, shared
 *     memory within a node and the remote transport (MPI one-sided windows) for peers on other nodes;
 *     {@code remote}, the remote transport for every peer, as if each PE ran on a node of its own (to test the
 *     transport on one machine)</td></tr>
 * <tr><td>{@code JSHMEM_NODE_OF_RANK}</td><td>(from the host names)</td><td>a node id per rank, in rank order,
 *     e.g. {@code 0,0,1,1}: ranks with the same id share memory, the others reach each other through the
 *     remote transport (two "nodes" of two on one machine); ranks on one id must run on one machine</td></tr>
 * <tr><td>{@code JSHMEM_REMOTE_PROTOCOL}</td><td>auto</td><td>how the remote transport reaches PEs of other nodes:
 *     {@code rma}, MPI one-sided windows over the node's memory (passive target); {@code messages}, two-sided
 *     requests that the target's progress thread and waits serve (any MPI can carry them); {@code auto}, one-sided
 *     where every PE's MPI can make the window, else messages</td></tr>
 * <tr><td>{@code JSHMEM_REMOTE_PROGRESS_US}</td><td>200</td><td>the remote transport: how often each PE's progress
 *     thread enters MPI, so that atomics from other nodes complete while this PE computes outside jshmem
 *     (Open MPI applies them at the target only inside an MPI call); waits and barriers enter MPI on every
 *     spin</td></tr>
 * </table>
 * Every PE of a job must run with the same collective thresholds (the members of a collective must
 * agree on its algorithm).
 *
 * @param symmetricSize heap bytes per PE
 * @param backend       which memory holds the heap
 * @param device        GPU ordinal, or empty for node-local rank modulo device count
 * @param debug         argument and bounds checks for collective and device calls
 * @param bootstrap     how PEs find each other
 * @param shmDir        directory for node-shared memory files
 * @param livenessMillis interval of the dead-PE check in waits
 * @param spinIterations busy-wait iterations before yielding, or {@link #AUTO_SPIN}
 * @param smCopyMaxBytes largest on-stream GPU copy done by SM kernel rather than copy engine
 * @param collectiveTuning which collectives, and where the host collectives switch algorithm
 * @param gpuCollectiveTuning where the GPU collectives switch algorithm
 * @param prefault      host heaps: allocate and map every heap page at init
 * @param mpiLibrary    the {@code mpi-native} bootstrap's library; blank: {@code libmpi.so.40}
 * @param remote        which peers the remote transport carries, and its progress interval
 * @param waitTimeoutMillis how long a blocking host call may go without progress before it throws; 0: forever
 * @param traceFile     where the job writes its timeline at close (Chrome trace-event JSON); empty: no trace
 * @param kernelWaitTimeoutMillis how long a wait inside a kernel (jshmem's and the device library's) may go
 *                      without progress before it prints what it waits for and traps; 0: forever
 */
public record ShmemConfig(long symmetricSize, BackendKind backend, OptionalInt device, boolean debug,
                          BootstrapKind bootstrap, Path shmDir, long livenessMillis, int spinIterations,
                          long smCopyMaxBytes, CollectiveTuning collectiveTuning,
                          GpuCollectiveTuning gpuCollectiveTuning, boolean prefault, String mpiLibrary,
                          RemoteSettings remote, long waitTimeoutMillis, Optional<Path> traceFile,
                          long kernelWaitTimeoutMillis) {

    /** Which peers go through the remote transport. */
    public enum TransportKind {
        /** Peers on other nodes (or other node ids of {@code JSHMEM_NODE_OF_RANK}); node-local peers share memory. */
        AUTO,
        /** Every peer, as if each PE ran on a node of its own. */
        REMOTE
    }

    /** How the remote transport carries operations to PEs of other nodes ({@code JSHMEM_REMOTE_PROTOCOL}). */
    public enum RemoteProtocol {
        /** One-sided where every PE's MPI can make the window over jshmem's memory, else {@link #MESSAGES}. */
        AUTO,
        /** MPI one-sided: passive-target windows over each node's memory. */
        RMA,
        /** MPI two-sided: requests that the target PE applies to its own memory. */
        MESSAGES
    }

    /**
     * The remote transport's settings.
     *
     * @param transport      which peers it carries
     * @param nodeOfRank     a node id per rank ({@code JSHMEM_NODE_OF_RANK}), or empty: the machines' host names
     * @param progressMicros how often the progress thread enters MPI
     * @param protocol       one-sided windows or two-sided requests
     */
    public record RemoteSettings(TransportKind transport, java.util.List<Integer> nodeOfRank, long progressMicros,
                                 RemoteProtocol protocol) {
        /** No peer forced remote, node ids from the host names, progress every 200 us, the protocol chosen at start-up. */
        public static final RemoteSettings DEFAULT = new RemoteSettings(TransportKind.AUTO, java.util.List.of(), 200,
                RemoteProtocol.AUTO);

        public RemoteSettings {
            java.util.Objects.requireNonNull(transport, "transport");
            java.util.Objects.requireNonNull(protocol, "protocol");
            nodeOfRank = java.util.List.copyOf(nodeOfRank);
            if (progressMicros <= 0) {
                throw new IllegalArgumentException("progress interval must be positive, got " + progressMicros);
            }
        }

        /** Whether the settings make some peers remote even on one machine. */
        public boolean forcesRemotePeers() {
            return transport == TransportKind.REMOTE || !nodeOfRank.isEmpty();
        }
    }

    /** Where the symmetric heap lives. */
    public enum BackendKind {
        /** Host shared memory (a /dev/shm file mapped by every PE of the node). */
        HOST,
        /** NVIDIA GPU memory through CUDA. */
        CUDA,
        /** AMD GPU memory through HIP. */
        HIP,
        /** A GPU when one is usable, else host. */
        AUTO
    }

    /** How the PEs of a job find each other. */
    public enum BootstrapKind {
        /** Open MPI's Java bindings, {@code mpi.jar} (the job was started with mpirun). */
        MPI,
        /** Open MPI's C library through FFM, no Java bindings ({@code mpi-native}; started with mpirun). */
        MPI_NATIVE,
        /** A single PE, no MPI. */
        SINGLE,
        /** When started by mpirun: MPI, through the Java bindings if on the class path, else MPI_NATIVE; else a single PE. */
        AUTO
    }

    /** {@code spinIterations} value meaning: choose from the number of PEs per core. */
    public static final int AUTO_SPIN = -1;

    /** Default {@code waitTimeoutMillis}: ten minutes, as PyTorch's collective timeout. */
    public static final long DEFAULT_WAIT_TIMEOUT_MILLIS = 600_000;

    /** Default heap size per PE, as NVSHMEM's. */
    public static final long DEFAULT_SYMMETRIC_SIZE = 1L << 30;

    public ShmemConfig {
        if (symmetricSize <= 0) {
            throw new IllegalArgumentException("symmetric heap size must be positive, got " + symmetricSize);
        }
        if (livenessMillis <= 0) {
            throw new IllegalArgumentException("liveness interval must be positive, got " + livenessMillis);
        }
        java.util.Objects.requireNonNull(collectiveTuning, "collectiveTuning");
        java.util.Objects.requireNonNull(gpuCollectiveTuning, "gpuCollectiveTuning");
        mpiLibrary = mpiLibrary == null ? "" : mpiLibrary;
        remote = remote == null ? RemoteSettings.DEFAULT : remote;
        if (spinIterations < AUTO_SPIN) {
            throw new IllegalArgumentException("spin iterations must not be negative, got " + spinIterations);
        }
        if (waitTimeoutMillis < 0) {
            throw new IllegalArgumentException("wait timeout must not be negative (0: wait forever), got " + waitTimeoutMillis);
        }
        traceFile = traceFile == null ? Optional.empty() : traceFile;
        if (kernelWaitTimeoutMillis < 0 || kernelWaitTimeoutMillis > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("kernel wait timeout must be 0 (wait forever) to " + Integer.MAX_VALUE
                    + " ms, got " + kernelWaitTimeoutMillis);
        }
    }

    /** The settings without {@code kernelWaitTimeoutMillis} (as before it existed): kernels wait forever. */
    public ShmemConfig(long symmetricSize, BackendKind backend, OptionalInt device, boolean debug,
                       BootstrapKind bootstrap, Path shmDir, long livenessMillis, int spinIterations,
                       long smCopyMaxBytes, CollectiveTuning collectiveTuning, GpuCollectiveTuning gpuCollectiveTuning,
                       boolean prefault, String mpiLibrary, RemoteSettings remote, long waitTimeoutMillis,
                       Optional<Path> traceFile) {
        this(symmetricSize, backend, device, debug, bootstrap, shmDir, livenessMillis, spinIterations, smCopyMaxBytes,
                collectiveTuning, gpuCollectiveTuning, prefault, mpiLibrary, remote, waitTimeoutMillis, traceFile, 0);
    }

    /** The settings without {@code traceFile} (as before it existed): no trace. */
    public ShmemConfig(long symmetricSize, BackendKind backend, OptionalInt device, boolean debug,
                       BootstrapKind bootstrap, Path shmDir, long livenessMillis, int spinIterations,
                       long smCopyMaxBytes, CollectiveTuning collectiveTuning, GpuCollectiveTuning gpuCollectiveTuning,
                       boolean prefault, String mpiLibrary, RemoteSettings remote, long waitTimeoutMillis) {
        this(symmetricSize, backend, device, debug, bootstrap, shmDir, livenessMillis, spinIterations, smCopyMaxBytes,
                collectiveTuning, gpuCollectiveTuning, prefault, mpiLibrary, remote, waitTimeoutMillis, Optional.empty());
    }

    /** The settings without {@code waitTimeoutMillis} (as before it existed): the default timeout. */
    public ShmemConfig(long symmetricSize, BackendKind backend, OptionalInt device, boolean debug,
                       BootstrapKind bootstrap, Path shmDir, long livenessMillis, int spinIterations,
                       long smCopyMaxBytes, CollectiveTuning collectiveTuning, GpuCollectiveTuning gpuCollectiveTuning,
                       boolean prefault, String mpiLibrary, RemoteSettings remote) {
        this(symmetricSize, backend, device, debug, bootstrap, shmDir, livenessMillis, spinIterations, smCopyMaxBytes,
                collectiveTuning, gpuCollectiveTuning, prefault, mpiLibrary, remote, DEFAULT_WAIT_TIMEOUT_MILLIS);
    }

    /** The settings without {@code prefault} (as before it existed): heaps are pre-faulted. */
    public ShmemConfig(long symmetricSize, BackendKind backend, OptionalInt device, boolean debug,
                       BootstrapKind bootstrap, Path shmDir, long livenessMillis, int spinIterations,
                       long smCopyMaxBytes, CollectiveTuning collectiveTuning, GpuCollectiveTuning gpuCollectiveTuning) {
        this(symmetricSize, backend, device, debug, bootstrap, shmDir, livenessMillis, spinIterations, smCopyMaxBytes,
                collectiveTuning, gpuCollectiveTuning, true, "");
    }

    /** The settings without {@code mpiLibrary} (as before it existed): the default library. */
    public ShmemConfig(long symmetricSize, BackendKind backend, OptionalInt device, boolean debug,
                       BootstrapKind bootstrap, Path shmDir, long livenessMillis, int spinIterations,
                       long smCopyMaxBytes, CollectiveTuning collectiveTuning, GpuCollectiveTuning gpuCollectiveTuning,
                       boolean prefault) {
        this(symmetricSize, backend, device, debug, bootstrap, shmDir, livenessMillis, spinIterations, smCopyMaxBytes,
                collectiveTuning, gpuCollectiveTuning, prefault, "");
    }

    /** The settings without {@code remote} (as before it existed): no peer forced remote. */
    public ShmemConfig(long symmetricSize, BackendKind backend, OptionalInt device, boolean debug,
                       BootstrapKind bootstrap, Path shmDir, long livenessMillis, int spinIterations,
                       long smCopyMaxBytes, CollectiveTuning collectiveTuning, GpuCollectiveTuning gpuCollectiveTuning,
                       boolean prefault, String mpiLibrary) {
        this(symmetricSize, backend, device, debug, bootstrap, shmDir, livenessMillis, spinIterations, smCopyMaxBytes,
                collectiveTuning, gpuCollectiveTuning, prefault, mpiLibrary, RemoteSettings.DEFAULT);
    }

    /** A copy with other remote transport settings. */
    public ShmemConfig withRemote(RemoteSettings r) {
        return new ShmemConfig(symmetricSize, backend, device, debug, bootstrap, shmDir, livenessMillis, spinIterations,
                smCopyMaxBytes, collectiveTuning, gpuCollectiveTuning, prefault, mpiLibrary, r, waitTimeoutMillis, traceFile,
                kernelWaitTimeoutMillis);
    }

    /** A copy that traces the job into {@code file} (see {@code JSHMEM_TRACE}), or, with null, does not. */
    public ShmemConfig withTraceFile(Path file) {
        return new ShmemConfig(symmetricSize, backend, device, debug, bootstrap, shmDir, livenessMillis, spinIterations,
                smCopyMaxBytes, collectiveTuning, gpuCollectiveTuning, prefault, mpiLibrary, remote, waitTimeoutMillis,
                Optional.ofNullable(file), kernelWaitTimeoutMillis);
    }

    /** A copy with another wait timeout in milliseconds (0: wait forever). */
    public ShmemConfig withWaitTimeoutMillis(long millis) {
        return new ShmemConfig(symmetricSize, backend, device, debug, bootstrap, shmDir, livenessMillis, spinIterations,
                smCopyMaxBytes, collectiveTuning, gpuCollectiveTuning, prefault, mpiLibrary, remote, millis, traceFile,
                kernelWaitTimeoutMillis);
    }

    /** A copy whose kernels' waits time out after {@code millis} milliseconds without progress (0: never). */
    public ShmemConfig withKernelWaitTimeoutMillis(long millis) {
        return new ShmemConfig(symmetricSize, backend, device, debug, bootstrap, shmDir, livenessMillis, spinIterations,
                smCopyMaxBytes, collectiveTuning, gpuCollectiveTuning, prefault, mpiLibrary, remote, waitTimeoutMillis,
                traceFile, millis);
    }

    /** A copy with pre-faulting of host heaps at init on or off. */
    public ShmemConfig withPrefault(boolean on) {
        return new ShmemConfig(symmetricSize, backend, device, debug, bootstrap, shmDir, livenessMillis, spinIterations,
                smCopyMaxBytes, collectiveTuning, gpuCollectiveTuning, on, mpiLibrary, remote, waitTimeoutMillis, traceFile,
                kernelWaitTimeoutMillis);
    }

    /** The settings of this process's environment. */
    public static ShmemConfig fromEnvironment() {
        return fromMap(System.getenv());
    }

    /** The settings described by {@code env}, a map of environment variables. */
    public static ShmemConfig fromMap(Map<String, String> env) {
        return new ShmemConfig(
                read(env, "JSHMEM_SYMMETRIC_SIZE", DEFAULT_SYMMETRIC_SIZE, ShmemConfig::parseSize),
                read(env, "JSHMEM_BACKEND", BackendKind.AUTO, v -> parseEnum(BackendKind.class, v)),
                read(env, "JSHMEM_DEVICE", OptionalInt.empty(), v -> OptionalInt.of(parseNonNegativeInt(v))),
                read(env, "JSHMEM_DEBUG", false, ShmemConfig::parseFlag),
                read(env, "JSHMEM_BOOTSTRAP", BootstrapKind.AUTO, v -> parseEnum(BootstrapKind.class, v)),
                read(env, "JSHMEM_SHM_DIR", Path.of("/dev/shm"), Path::of),
                read(env, "JSHMEM_LIVENESS_MS", 200L, ShmemConfig::parsePositiveMillis),
                read(env, "JSHMEM_SPIN", AUTO_SPIN, v -> v.equalsIgnoreCase("auto") ? AUTO_SPIN : parseNonNegativeInt(v)),
                read(env, "JSHMEM_SM_COPY_MAX", 8L << 20, ShmemConfig::parseSizeOrZero),
                new CollectiveTuning(
                        read(env, "JSHMEM_COLLECTIVES", CollectiveTuning.Kind.AUTO,
                                v -> parseEnum(CollectiveTuning.Kind.class, v)),
                        read(env, "JSHMEM_COLL_STAGED_MAX", CollectiveTuning.DEFAULT.stagedMax(), ShmemConfig::parseSizeOrZero),
                        read(env, "JSHMEM_REDUCE_ONESHOT_MAX", CollectiveTuning.DEFAULT.reduceOneShotMax(),
                                ShmemConfig::parseSizeOrZero),
                        read(env, "JSHMEM_COLL_HIERARCHY_MIN", CollectiveTuning.DEFAULT.hierarchyMin(),
                                ShmemConfig::parseSizeOrZero)),
                new GpuCollectiveTuning(
                        read(env, "JSHMEM_GPU_REDUCE_ONESHOT_MAX", GpuCollectiveTuning.DEFAULT.reduceOneShotMax(),
                                ShmemConfig::parseSizeOrZero),
                        read(env, "JSHMEM_GPU_COLL_ONE_BLOCK_MAX", GpuCollectiveTuning.DEFAULT.oneBlockMax(),
                                ShmemConfig::parseSizeOrZero),
                        read(env, "JSHMEM_GPU_COLL_CE_MIN", GpuCollectiveTuning.DEFAULT.copyEngineMin(),
                                ShmemConfig::parseSizeOrZero),
                        read(env, "JSHMEM_GPU_COLL_MAX_BLOCKS", GpuCollectiveTuning.DEFAULT.maxBlocks(),
                                ShmemConfig::parseMaxBlocks),
                        read(env, "JSHMEM_GPU_REDUCESCATTER_CE_MIN",
                                GpuCollectiveTuning.DEFAULT.reduceScatterCopyEngineMin(), ShmemConfig::parseSizeOrZero),
                        read(env, "JSHMEM_GPU_COLL_CE_LANES", GpuCollectiveTuning.DEFAULT.ceLanes(), ShmemConfig::parseCeLanes),
                        read(env, "JSHMEM_GPU_COLL_CE_MODE", GpuCollectiveTuning.DEFAULT.cePush(), ShmemConfig::parseCePush),
                        read(env, "JSHMEM_GPU_REDUCE_LL_MAX", GpuCollectiveTuning.DEFAULT.reduceLowLatencyMax(),
                                ShmemConfig::parseLowLatencyMax),
                        read(env, "JSHMEM_GPU_REDUCE_ROTATED_MIN", GpuCollectiveTuning.DEFAULT.reduceRotatedMin(),
                                ShmemConfig::parseSizeOrZero),
                        read(env, "JSHMEM_GPU_SERVICE_US", GpuCollectiveTuning.DEFAULT.serviceMicros(),
                                ShmemConfig::parseServiceMicros)),
                read(env, "JSHMEM_PREFAULT", true, ShmemConfig::parseFlag),
                read(env, "JSHMEM_MPI_LIBRARY", "", v -> v),
                new RemoteSettings(
                        read(env, "JSHMEM_TRANSPORT", TransportKind.AUTO, v -> parseEnum(TransportKind.class, v)),
                        read(env, "JSHMEM_NODE_OF_RANK", java.util.List.of(), ShmemConfig::parseNodeIds),
                        read(env, "JSHMEM_REMOTE_PROGRESS_US", RemoteSettings.DEFAULT.progressMicros(),
                                v -> (long) parsePositive(v, "microseconds")),
                        read(env, "JSHMEM_REMOTE_PROTOCOL", RemoteProtocol.AUTO, v -> parseEnum(RemoteProtocol.class, v))),
                read(env, "JSHMEM_WAIT_TIMEOUT", DEFAULT_WAIT_TIMEOUT_MILLIS, ShmemConfig::parseSecondsAsMillis),
                read(env, "JSHMEM_TRACE", Optional.<Path>empty(), v -> Optional.of(Path.of(v).toAbsolutePath())),
                // kernels wait forever unless the variable is set: a kernel's wait may be long by design
                read(env, "JSHMEM_WAIT_TIMEOUT", 0L, v -> Math.min(Integer.MAX_VALUE, parseSecondsAsMillis(v))));
    }

    /**
     * Whether {@code env} asks for NVTX ranges around jshmem's host calls ({@code JSHMEM_NVTX}, like
     * {@code NVSHMEM_NVTX}); a value other than 0 or 1 (or true/false, yes/no, on/off) is refused.
     */
    public static boolean nvtxRequested(Map<String, String> env) {
        return read(env, "JSHMEM_NVTX", false, ShmemConfig::parseFlag);
    }

    /**
     * Busy-wait iterations to use on a node running {@code localPes} PEs: the configured number,
     * or for {@link #AUTO_SPIN} 4096 when every PE has a core and 0 when they outnumber the cores
     * (the node's cores as {@code NodeCores} counts them: online CPUs within the cgroup's quota,
     * whatever CPUs this process is bound to).
     */
    public int spinIterationsFor(int localPes) {
        if (spinIterations != AUTO_SPIN) {
            return spinIterations;
        }
        // the node's cores, not this process's affinity: mpirun binds each PE to a core by default
        return localPes > org.jshmem.node.NodeCores.count() ? 0 : 4096;
    }

    /** A copy with another heap size. */
    public ShmemConfig withSymmetricSize(long bytes) {
        return new ShmemConfig(bytes, backend, device, debug, bootstrap, shmDir, livenessMillis, spinIterations, smCopyMaxBytes,
                collectiveTuning, gpuCollectiveTuning, prefault, mpiLibrary, remote, waitTimeoutMillis, traceFile,
                kernelWaitTimeoutMillis);
    }

    /** A copy with another backend. */
    public ShmemConfig withBackend(BackendKind kind) {
        return new ShmemConfig(symmetricSize, kind, device, debug, bootstrap, shmDir, livenessMillis, spinIterations, smCopyMaxBytes,
                collectiveTuning, gpuCollectiveTuning, prefault, mpiLibrary, remote, waitTimeoutMillis, traceFile,
                kernelWaitTimeoutMillis);
    }

    /** A copy with debug checks on or off. */
    public ShmemConfig withDebug(boolean on) {
        return new ShmemConfig(symmetricSize, backend, device, on, bootstrap, shmDir, livenessMillis, spinIterations, smCopyMaxBytes,
                collectiveTuning, gpuCollectiveTuning, prefault, mpiLibrary, remote, waitTimeoutMillis, traceFile,
                kernelWaitTimeoutMillis);
    }

    /**
     * Parses a byte count: a number with an optional suffix K, M, G or T (binary multiples,
     * case-insensitive, an optional trailing B), e.g. {@code 4096}, {@code 512M}, {@code 2G}.
     */
    public static long parseSize(String text) {
        String s = text.trim().toUpperCase(Locale.ROOT);
        if (s.endsWith("IB")) {
            s = s.substring(0, s.length() - 2);
        } else if (s.endsWith("B") && s.length() > 1 && !Character.isDigit(s.charAt(s.length() - 2))) {
            s = s.substring(0, s.length() - 1);
        }
        int shift = 0;
        if (!s.isEmpty()) {
            switch (s.charAt(s.length() - 1)) {
                case 'K' -> shift = 10;
                case 'M' -> shift = 20;
                case 'G' -> shift = 30;
                case 'T' -> shift = 40;
                default -> shift = -1;
            }
            if (shift >= 0) {
                s = s.substring(0, s.length() - 1);
            } else {
                shift = 0;
            }
        }
        long n;
        try {
            n = Long.parseLong(s.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a size: '" + text + "' (use a number with an optional K, M, G or T suffix, e.g. 512M)");
        }
        if (n <= 0 || n > (Long.MAX_VALUE >> shift)) {
            throw new IllegalArgumentException("size out of range: '" + text + "'");
        }
        return n << shift;
    }

    /** A copy with other collective thresholds. */
    public ShmemConfig withCollectiveTuning(CollectiveTuning t) {
        return new ShmemConfig(symmetricSize, backend, device, debug, bootstrap, shmDir, livenessMillis, spinIterations,
                smCopyMaxBytes, t, gpuCollectiveTuning, prefault, mpiLibrary, remote, waitTimeoutMillis, traceFile,
                kernelWaitTimeoutMillis);
    }

    /** A copy with other GPU collective thresholds. */
    public ShmemConfig withGpuCollectiveTuning(GpuCollectiveTuning t) {
        return new ShmemConfig(symmetricSize, backend, device, debug, bootstrap, shmDir, livenessMillis, spinIterations,
                smCopyMaxBytes, collectiveTuning, t, prefault, mpiLibrary, remote, waitTimeoutMillis, traceFile,
                kernelWaitTimeoutMillis);
    }

    private static int parseMaxBlocks(String value) {
        int n = parseNonNegativeInt(value);
        if (n > GpuCollectiveTuning.MAX_BLOCKS_LIMIT) {
            throw new IllegalArgumentException("expected 0 (one per multiprocessor) .. " + GpuCollectiveTuning.MAX_BLOCKS_LIMIT);
        }
        return n;
    }

    private static long parseLowLatencyMax(String value) {
        long n = parseSizeOrZero(value);
        if (n > GpuCollectiveTuning.LOW_LATENCY_LIMIT) {
            throw new IllegalArgumentException("expected 0 (never) .. " + GpuCollectiveTuning.LOW_LATENCY_LIMIT + " bytes");
        }
        return n;
    }

    private static long parseServiceMicros(String value) {
        long us = parseNonNegativeInt(value);
        if (us > GpuCollectiveTuning.SERVICE_MICROS_LIMIT) {
            throw new IllegalArgumentException("expected 0 (no service kernel) .. "
                    + GpuCollectiveTuning.SERVICE_MICROS_LIMIT + " microseconds");
        }
        return us;
    }

    private static int parseCeLanes(String value) {
        int n = parseNonNegativeInt(value);
        if (n < 1 || n > GpuCollectiveTuning.CE_LANES_LIMIT) {
            throw new IllegalArgumentException("expected a number of side streams from 1 to " + GpuCollectiveTuning.CE_LANES_LIMIT);
        }
        return n;
    }

    /** {@code push} or {@code pull}: whether the copy engines push. */
    private static boolean parseCePush(String value) {
        return switch (value) {
            case "push" -> true;
            case "pull" -> false;
            default -> throw new IllegalArgumentException("expected pull or push");
        };
    }

    private static long parseSizeOrZero(String text) {
        return text.trim().equals("0") ? 0 : parseSize(text);
    }

    private static <T> T read(Map<String, String> env, String name, T fallback, Function<String, T> parse) {
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            return parse.apply(value.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("environment variable " + name + "=" + value + " is invalid: " + e.getMessage(), e);
        }
    }

    private static <E extends Enum<E>> E parseEnum(Class<E> type, String value) {
        try {
            return Enum.valueOf(type, value.toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            StringBuilder choices = new StringBuilder();
            for (E c : type.getEnumConstants()) {
                choices.append(choices.isEmpty() ? "" : ", ").append(c.name().toLowerCase(Locale.ROOT).replace('_', '-'));
            }
            throw new IllegalArgumentException("expected one of " + choices);
        }
    }

    private static boolean parseFlag(String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "1", "true", "yes", "on" -> true;
            case "0", "false", "no", "off" -> false;
            default -> throw new IllegalArgumentException("expected 0 or 1");
        };
    }

    /** Seconds, a fraction allowed, as milliseconds; 0 stays 0 (off). */
    private static long parseSecondsAsMillis(String value) {
        double seconds;
        try {
            seconds = Double.parseDouble(value.trim());
        } catch (NumberFormatException e) {
            seconds = -1;
        }
        if (!(seconds >= 0 && seconds <= 1e9)) {
            throw new IllegalArgumentException("expected seconds: 0 (wait forever) or a positive number, e.g. 600 or 2.5");
        }
        return seconds == 0 ? 0 : Math.max(1, Math.round(seconds * 1000));
    }

    private static long parsePositiveMillis(String value) {
        return parsePositive(value, "milliseconds");
    }

    private static int parsePositive(String value, String unit) {
        if (parseNonNegativeInt(value) == 0) {
            throw new IllegalArgumentException("expected a positive integer (" + unit + ")");
        }
        return Integer.parseInt(value);
    }

    /** {@code JSHMEM_NODE_OF_RANK}: comma-separated node ids, one per rank; names the first bad entry. */
    static java.util.List<Integer> parseNodeIds(String value) {
        String[] entries = value.split(",", -1);
        java.util.List<Integer> ids = new java.util.ArrayList<>(entries.length);
        for (int i = 0; i < entries.length; i++) {
            String e = entries[i].trim();
            try {
                ids.add(parseNonNegativeInt(e));
            } catch (IllegalArgumentException bad) {
                throw new IllegalArgumentException("entry " + i + " (for rank " + i + ") is '" + e + "', not a node id: give"
                        + " one non-negative integer per rank, in rank order, separated by commas, e.g. 0,0,1,1 for two"
                        + " nodes of two ranks");
            }
        }
        return ids;
    }

    private static int parseNonNegativeInt(String value) {
        int n;
        try {
            n = Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("expected a non-negative integer");
        }
        if (n < 0) {
            throw new IllegalArgumentException("expected a non-negative integer");
        }
        return n;
    }
}
