package org.jshmem.runtime;

import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.OptionalLong;
import org.jshmem.BootstrapException;
import org.jshmem.PeFailedException;
import org.jshmem.ShmemConfig;
import org.jshmem.WaitTimeoutException;
import org.jshmem.bootstrap.Bootstrap;
import org.jshmem.bootstrap.Bootstraps;
import org.jshmem.heap.SymmetricAllocator;
import org.jshmem.node.ControlDescriptor;
import org.jshmem.node.NodeBarrier;
import org.jshmem.node.NodeMap;
import org.jshmem.node.NodeSharedMemory;
import org.jshmem.node.PeWatch;
import org.jshmem.node.Waiter;
import org.jshmem.spi.Backend;
import org.jshmem.spi.DeviceSpans;
import org.jshmem.spi.BackendFactory;
import org.jshmem.spi.CollectiveContext;
import org.jshmem.spi.Collectives;
import org.jshmem.spi.StreamCapability;
import org.jshmem.spi.TeamLayout;
import org.jshmem.trace.Clocks;
import org.jshmem.trace.Trace;
import org.jshmem.trace.TraceOutput;

/**
 * A PE's machinery under the API: {@link #start} assembles it from the layers below (the
 * bootstrap, the node's shared memory, the backend chosen through {@link BackendFactory}, the
 * heap allocator, the watch on the other PEs, the barrier, the collectives), and its methods are
 * what {@code org.jshmem.Shmem} and {@code Team} need of them, so that the API imports none of
 * {@code node}, {@code bootstrap}, {@code heap} or {@code remote}.
 */
public final class ShmemRuntime {
    /** Every block of the heap starts at a multiple of this (the allocator's minimum alignment). */
    public static final long MIN_ALIGNMENT = SymmetricAllocator.MIN_ALIGNMENT;

    /** Bytes of a team's staging buffer that hold data (the rest of the buffer is its header). */
    public static final long STAGE_CAPACITY = ControlDescriptor.STAGE_BUFFER - ControlDescriptor.STAGE_HEADER;

    private final ShmemConfig config;
    private final Bootstrap bootstrap;
    private final NodeSharedMemory node;
    private final Backend backend;
    private final SymmetricAllocator allocator;
    private final long maxAlignment;
    private final PeWatch watch;
    private final Waiter waiter;
    private final NodeBarrier barrier;
    private final Collectives collectives;
    private final TeamSlots teamSlots = new TeamSlots();
    private final Trace trace;
    private final TracedStreams tracedStreams;   // a recording PE's streams on a GPU heap; else null

    private ShmemRuntime(ShmemConfig config, Bootstrap bootstrap, NodeSharedMemory node, Backend backend) {
        this.config = config;
        this.bootstrap = bootstrap;
        this.node = node;
        this.backend = backend;
        int myPe = bootstrap.rank();
        this.allocator = new SymmetricAllocator(backend.heapStart(), backend.heapSize());
        this.maxAlignment = agreedAlignment(bootstrap, backend, myPe);
        this.watch = new PeWatch(node, config.livenessMillis());
        this.waiter = new Waiter(config.spinIterationsFor(bootstrap.localSize()), watch,
                node.remote().isPresent() ? node::progress : null, myPe, config.waitTimeoutMillis());
        this.barrier = new NodeBarrier(node, waiter);
        this.trace = startTrace(config, bootstrap, node.nodes());
        Collectives plain = backend.collectives(new CollectiveContext(myPe, node, barrier, waiter, config));
        this.collectives = trace.enabled() ? new TracedCollectives(plain, trace) : plain;
        this.tracedStreams = backend.streams().filter(s -> trace.recording())
                .map(s -> new TracedStreams(s, trace, myPe)).orElse(null);
    }

    /** The backend's streams (timed on the GPU when this PE records a trace); empty on a host heap. */
    public Optional<StreamCapability> streams() {
        return tracedStreams != null ? Optional.of(tracedStreams) : backend.streams();
    }

    /**
     * Collective: this PE's trace. Every PE must trace or none (they write the file together at
     * close): one exchange checks that. Tracing PEs then map their clocks onto PE 0's.
     */
    private static Trace startTrace(ShmemConfig config, Bootstrap boot, NodeMap nodes) {
        boolean on = config.traceFile().isPresent();
        if (boot.size() > 1) {
            byte[] all = boot.allgather(new byte[] {(byte) (on ? 1 : 0)});
            java.util.List<Integer> with = new java.util.ArrayList<>();
            java.util.List<Integer> without = new java.util.ArrayList<>();
            for (int pe = 0; pe < all.length; pe++) {
                (all[pe] != 0 ? with : without).add(pe);
            }
            if (!with.isEmpty() && !without.isEmpty()) {
                throw new BootstrapException("JSHMEM_TRACE is set on PE(s) " + with + " but not on PE(s) " + without
                        + ": the PEs write one trace together at close. Set it for every PE (bin/jshmemrun --trace FILE"
                        + " does), or for none.");
            }
        }
        Trace t = Trace.of(on, ShmemConfig.nvtxRequested(System.getenv()), boot.rank(), boot.size());
        if (!on) {
            return t;
        }
        Clocks.align(t, boot::allgather, boot::barrier, nodes.spansNodes(), pe -> nodes.nodeOf(pe) == nodes.nodeOf(0));
        return t;
    }

    /** This PE's trace: {@link Trace#OFF} unless {@code JSHMEM_TRACE} is set. */
    public Trace trace() {
        return trace;
    }

    /** Collective, after {@link #closeBarrier()}: PE 0 writes the job's trace file (nothing when not tracing). */
    public void writeTrace() {
        if (trace.recording()) {
            if (tracedStreams != null) {
                tracedStreams.drain();
            }
            backend.drainDeviceTrace(new DeviceSpans() {   // the kernels' spans join this PE's tracks
                @Override
                public void span(int block, int thread, String category, String name, long start, long end,
                                 long value, int op) {
                    trace.deviceSpan(block, thread, category, name, start, end, value);
                    if (op != 0 && tracedStreams != null) {
                        tracedStreams.kernelSpan(op, start, end);
                    }
                }

                @Override
                public void summary(long lost, long clockErrorNanos) {
                    trace.deviceSummary(lost, clockErrorNanos);
                }
            });
            if (tracedStreams != null) {
                tracedStreams.writeTagged();
                tracedStreams.close();
            }
            TraceOutput.writeJob(trace, bootstrap::allgather, config.traceFile().orElseThrow());
        }
    }

    /** When the PEs cannot close together: this PE writes its own events beside the trace file. */
    public void writeOwnTrace() {
        if (trace.recording()) {
            java.nio.file.Path own = TraceOutput.writeOwn(trace, config.traceFile().orElseThrow());
            if (own != null) {
                System.err.println("jshmem: PE " + myPe() + ": the job did not close together; its trace is in " + own);
            }
        }
    }

    /**
     * Starts this PE's machinery: finds the other PEs, maps the node's shared memory, opens the
     * backend and sets up the heap, the watch, the barrier and the collectives. Collective. On
     * failure, releases what it opened, marks this PE failed in the node's shared memory, and
     * rethrows.
     *
     * @throws BootstrapException if a start-up step fails; the message names the step
     */
    public static ShmemRuntime start(ShmemConfig config) {
        Bootstrap boot = Bootstraps.start(config);
        NodeSharedMemory node = null;
        Backend backend = null;
        try {
            BackendFactory factory = BackendFactory.choose(config.backend());
            NodeMap nodes = NodeMap.of(config.remote(), boot);
            String why = config.remote().forcesRemotePeers() ? "JSHMEM_TRANSPORT=remote or JSHMEM_NODE_OF_RANK makes peers"
                    + " remote" : "its PEs run on several machines";
            if (nodes.spansNodes() && !factory.supportsRemotePeers()) {
                throw new BootstrapException("the " + factory.kind().name().toLowerCase(java.util.Locale.ROOT) + " backend"
                        + " (JSHMEM_BACKEND=" + config.backend().name().toLowerCase(java.util.Locale.ROOT) + ") does not support"
                        + " PEs on other nodes, and this job has " + nodes.nodes() + " nodes (" + why + "). Use"
                        + " JSHMEM_BACKEND=host for a job across nodes, or run the job on one node.");
            }
            if (nodes.spansNodes() && !factory.isHost() && config.remote().protocol() == ShmemConfig.RemoteProtocol.RMA) {
                throw new BootstrapException("GPU heaps with PEs on other nodes (" + nodes.nodes() + " nodes: " + why + ")"
                        + " need the remote transport's two-sided protocol, but JSHMEM_REMOTE_PROTOCOL=rma asks for MPI"
                        + " one-sided windows, which cannot reach GPU memory. Unset JSHMEM_REMOTE_PROTOCOL (auto takes the"
                        + " two-sided protocol for GPU heaps) or set it to messages.");
            }
            node = NodeSharedMemory.open(boot, nodes, config, factory.isHost() ? config.symmetricSize() : 0);
            backend = factory.open(config, boot, node);
            return new ShmemRuntime(config, boot, node, backend);
        } catch (RuntimeException | Error e) {
            abandon(backend, node, e);
            throw e;
        }
    }

    /**
     * Start-up failed above the runtime (after {@link #start} returned): closes the backend, marks
     * this PE failed with {@code cause} and unmaps the node's shared memory, as {@link #start} does
     * when it fails itself. The bootstrap stays open.
     */
    public void abandon(Throwable cause) {
        abandon(backend, node, cause);
    }

    private static void abandon(Backend backend, NodeSharedMemory node, Throwable cause) {
        if (backend != null) {
            backend.close();
        }
        if (node != null) {
            node.markFailed(cause);
            node.close();
        }
    }

    /**
     * Collective: the largest power of two, at most {@link Backend#heapAlignment()}, that divides
     * the address of heap offset 0 on every PE, so that a block at an offset that is a multiple of
     * it is at such an address on every PE.
     */
    private static long agreedAlignment(Bootstrap boot, Backend backend, int myPe) {
        long base;
        if (backend.localHeap() != null) {
            base = backend.localHeap().address() - backend.heapStart();
        } else if (backend.streams().isPresent()) {
            base = backend.streams().get().address(myPe, 0).address();
        } else {
            base = 0;
        }
        long promised = backend.heapAlignment();
        long mine = base == 0 ? promised : Math.min(promised, Long.lowestOneBit(base));
        if (boot.size() == 1) {
            return mine;
        }
        ByteBuffer all = ByteBuffer.wrap(boot.allgather(ByteBuffer.allocate(Long.BYTES).putLong(mine).array()));
        long min = mine;
        while (all.remaining() >= Long.BYTES) {
            min = Math.min(min, all.getLong());
        }
        return min;
    }

    // ---------------------------------------------------------------- what the PE is made of

    /** The settings this PE was started with. */
    public ShmemConfig config() {
        return config;
    }

    /** This PE's number (its bootstrap rank). */
    public int myPe() {
        return bootstrap.rank();
    }

    /** Number of PEs in the job. */
    public int nPes() {
        return bootstrap.size();
    }

    /** The backend that holds the heap. */
    public Backend backend() {
        return backend;
    }

    /** The collectives of this PE's teams. */
    public Collectives collectives() {
        return collectives;
    }

    /** The layout of the team of the PEs that share this PE's node (world slot 1). */
    public TeamLayout sharedTeam() {
        return TeamLayout.shared(node.nodes(), myPe());
    }

    /** How the PEs found each other, e.g. "OpenMPI 4.1.4". */
    public String describeBootstrap() {
        return bootstrap.describe();
    }

    /** Collective: every PE's {@code mine} (all of the same length), rank 0's first. */
    public byte[] allgather(byte[] mine) {
        return bootstrap.allgather(mine);
    }

    // ---------------------------------------------------------------- the symmetric heap

    /**
     * The largest alignment of a heap offset that aligns the address on every PE (agreed at
     * start-up: the heap base's).
     */
    public long maxAlignment() {
        return maxAlignment;
    }

    /**
     * Reserves {@code bytes} of heap at a multiple of {@code alignment} (a power of two): its heap
     * offset, or empty when no free block is large enough ({@link #heapFree()} and
     * {@link #largestFreeBlock()} then say what is free).
     */
    public OptionalLong allocate(long bytes, long alignment) {
        return allocator.allocate(bytes, alignment) instanceof SymmetricAllocator.Allocated a
                ? OptionalLong.of(a.offset()) : OptionalLong.empty();
    }

    /** Resizes the block at {@code offset} where it is; false, and nothing changed, when it cannot grow there. */
    public boolean resizeInPlace(long offset, long bytes) {
        return allocator.resizeInPlace(offset, bytes);
    }

    /** Returns the block at {@code offset} to the heap. */
    public void release(long offset) {
        allocator.release(offset);
    }

    /** Heap bytes per PE. */
    public long heapSize() {
        return allocator.capacity();
    }

    /** Heap bytes not allocated (possibly in several blocks). */
    public long heapFree() {
        return allocator.freeBytes();
    }

    /** The largest block the heap could give now. */
    public long largestFreeBlock() {
        return allocator.largestFreeBlock();
    }

    // ---------------------------------------------------------------- synchronisation and teams

    /**
     * Waits until every member of the team (world PEs {@code start + i * stride}, {@code i < size})
     * has called this for team slot {@code slot} as often as this PE; {@code waitingIn} names the
     * call in the error if a member is found dead.
     */
    public void sync(int slot, int start, int stride, int size, String waitingIn) {
        barrier.sync(slot, start, stride, size, waitingIn);
    }

    /** This PE joins a new team in {@code slot}: its barrier generations start again from zero. */
    public void join(int slot, int start, int stride, int size) {
        barrier.join(slot, start, stride, size);
    }

    /** One idle step of a wait in {@code waitingIn}; returns the next step number (0 on the first call). */
    public int idle(int step, String waitingIn) {
        return waiter.idle(step, waitingIn);
    }

    /**
     * Completes a wait's timeout with what it waited for and what it saw, prints it on standard
     * error and returns it to throw.
     */
    public WaitTimeoutException stuck(WaitTimeoutException e, String detail) {
        return Waiter.stuck(e, detail);
    }

    /** Whether PE {@code pe} is running: this PE, or one that has not failed, left or closed. */
    public boolean isRunning(int pe) {
        return watch.isRunning(pe);
    }

    /**
     * Collective over {@code parent}: the {@code count} lowest team slots free on every member of it.
     *
     * @throws org.jshmem.ShmemException on every member if fewer than {@code count} slots are free everywhere
     */
    public int[] agreeTeamSlots(TeamLayout parent, int count, String call) {
        return teamSlots.agree(barrier, parent, count, call);
    }

    /** This PE's team slot {@code slot} is in use. */
    public void takeTeamSlot(int slot) {
        teamSlots.take(slot);
    }

    /** This PE's team slot {@code slot} is free again. */
    public void releaseTeamSlot(int slot) {
        teamSlots.release(slot);
    }

    /**
     * {@code JSHMEM_DEBUG=1}: checks that every member of team {@code t} is making the same call
     * ({@code call} describes it with its arguments).
     *
     * @throws org.jshmem.CollectiveMismatchException on every member if they differ
     */
    public void checkTeamArguments(TeamLayout t, String teamName, String call) {
        TeamArgumentCheck.check(barrier, t, teamName, call);
    }

    /**
     * The world's synchronisation of a symmetric allocation call, which also checks that every PE is making the
     * same call ({@code call} describes it): null if so, else the message, the same on every PE.
     */
    public String allocationMismatch(TeamLayout world, String call) {
        return TeamArgumentCheck.allocationMismatch(barrier, world, call);
    }

    // ---------------------------------------------------------------- closing

    /** The failure a wait of this PE reported that names a PE that died, or null (then the PEs can close together). */
    public PeFailedException deathSeen() {
        return watch.deathSeen();
    }

    /** Announces that this PE is closing (after peers that had left, if a wait saw them leave). */
    public void markClosing() {
        node.markClosing(watch.departureSeen());
    }

    /** Collective: waits until every PE is closing, in the close slot, then marks this PE finalized. */
    public void closeBarrier() {
        barrier.sync(ControlDescriptor.CLOSE_SLOT, 0, 1, nPes(), PeWatch.CLOSE);
        node.markFinalized();
    }

    /** Marks this PE failed with {@code cause}, for the PEs that wait for it. */
    public void markFailed(Throwable cause) {
        node.markFailed(cause);
    }

    /** Unmaps the node's shared memory; after {@link #closeBarrier()} or {@link #markFailed}, and after the backend is closed. */
    public void closeNode() {
        node.close();
    }

    /** Ends the bootstrap (with MPI, {@code MPI_Finalize}): only after a clean close, since it would wait for a dead PE. */
    public void closeBootstrap() {
        bootstrap.close();
    }
}
