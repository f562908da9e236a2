package org.jshmem;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.jshmem.runtime.ShmemRuntime;
import org.jshmem.trace.Trace;
import org.jshmem.spi.Backend;
import org.jshmem.spi.Collectives;
import org.jshmem.spi.StreamCapability;
import org.jshmem.spi.TeamLayout;

/**
 * A PE of a jshmem job: the entry point of the library. One per process, made by {@link #init()}
 * and ended by {@link #close()}:
 *
 * <pre>{@code
 * try (Shmem shmem = Shmem.init()) {
 *     int me = shmem.myPe(), right = (me + 1) % shmem.nPes();
 *     SymmetricSegment data = shmem.malloc(1024);
 *     SymmetricSegment flag = shmem.calloc(1, Long.BYTES);
 *     shmem.putSignal(data, 0, MemorySegment.ofArray(new int[] {me}), flag, 0, 1, SignalOp.SET, right);
 *     shmem.signalWaitUntil(flag, 0, Cmp.EQ, 1);
 * }
 * }</pre>
 *
 * <p>Every call checks its arguments (PE range, offsets against the segment, alignment of
 * atomics, state) and throws a {@link ShmemException} that says what and where before touching
 * any memory. Remote memory access, atomics and point-to-point synchronisation come from the
 * interfaces this class implements; collective calls (allocation, barriers) must be made by every
 * PE in the same order with the same arguments: the allocation calls check that every time, in the
 * barrier they make anyway, and throw {@link CollectiveMismatchException} on every PE before the
 * heap changes; {@code JSHMEM_DEBUG=1} checks the teams' collectives too.
 *
 * <p>Threads: puts, gets, atomics and waits may be called from several threads at once;
 * collective calls (allocation, barriers, close) from one thread at a time per PE.
 */
public final class Shmem
        implements AutoCloseable, RemoteMemoryAccess, AtomicOperations, SignalOperations, PointToPointSync,
        StreamOperations {
    private static final AtomicReference<Shmem> CURRENT = new AtomicReference<>();

    private final ShmemConfig config;
    private final ShmemRuntime runtime;       // bootstrap, node shared memory, allocator, barrier, team slots
    private final Backend backend;
    private final int myPe;
    private final int nPes;
    private final long heapStart;
    private final long maxAlignment;              // the largest alignment align() meets: the heap base's (ShmemRuntime)
    private final Collectives collectives;
    private final StreamCapability streams;   // GPU heaps only: the on-stream operations
    private final Team world;
    private final Team shared;
    private final Trace trace;                // Trace.OFF unless JSHMEM_TRACE is set
    private final Endpoint endpoint;          // the default context's: the calls made on this object
    private final ShmemContext defaultContext;
    private final java.util.Set<ShmemContext> contexts = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final java.util.List<RegisteredBuffer> registeredBuffers = new java.util.ArrayList<>();
    private volatile ThreadLevel threadLevel = ThreadLevel.MULTIPLE;
    private volatile Thread onlyThread;        // SINGLE/FUNNELED with JSHMEM_DEBUG=1: the thread that called init
    private volatile boolean closed;

    private Shmem(ShmemRuntime runtime) {
        this.config = runtime.config();
        this.runtime = runtime;
        this.backend = runtime.backend();
        this.myPe = runtime.myPe();
        this.nPes = runtime.nPes();
        this.heapStart = backend.heapStart();
        this.maxAlignment = runtime.maxAlignment();
        this.collectives = runtime.collectives();
        this.streams = runtime.streams().orElse(null);
        this.world = new Team(this, new TeamLayout(0, 1, nPes, 0, myPe), "world", true, TeamConfig.DEFAULT);
        this.shared = new Team(this, runtime.sharedTeam(), "shared", true, TeamConfig.DEFAULT);
        this.trace = runtime.trace();
        this.endpoint = new Endpoint(this, backend, null, "world", null, null);
        this.defaultContext = new ShmemContext(this, endpoint, null, java.util.Set.of());
    }

    /** Starts this PE with the settings of the environment ({@link ShmemConfig#fromEnvironment()}). Collective. */
    public static Shmem init() {
        return init(ShmemConfig.fromEnvironment());
    }

    /**
     * Like {@link #init()}, stating the threading the program uses (OpenSHMEM's
     * {@code shmem_init_thread}); {@link #queryThread()} returns it. See {@link ThreadLevel}.
     */
    public static Shmem init(ThreadLevel requested) {
        return init(ShmemConfig.fromEnvironment(), requested);
    }

    /** {@link #init(ShmemConfig)} with a {@link ThreadLevel} (see {@link #init(ThreadLevel)}). */
    public static Shmem init(ShmemConfig config, ThreadLevel requested) {
        Args.nonNull("Shmem.init", "config", config, "requested", requested);
        Shmem shmem = init(config);
        shmem.setThreadLevel(requested);
        return shmem;
    }

    /** The OpenSHMEM specification version this library follows: {@code "1.5"} ({@code shmem_info_get_version}). */
    public static String specVersion() {
        return "1.5";
    }

    /** Who made this library and which version ({@code shmem_info_get_name}), e.g. {@code "jshmem 0.1.0"}. */
    public static String vendorString() {
        String v = Shmem.class.getPackage().getImplementationVersion();
        return "jshmem " + (v != null ? v : "(development build)");
    }

    /**
     * Starts this PE: finds the other PEs (MPI when started by mpirun, else a job of one),
     * maps the node's shared memory, and sets up the symmetric heap on the chosen backend.
     * Collective: every PE of the job calls it.
     *
     * @throws ShmemStateException if this process already has a PE that is not closed
     * @throws BootstrapException  if a start-up step fails; the message names the step
     */
    public static Shmem init(ShmemConfig config) {
        if (CURRENT.get() != null) {
            throw new ShmemStateException("Shmem.init: this process already has a PE (" + CURRENT.get()
                    + "); close it first, or use Shmem.current()");
        }
        ShmemRuntime runtime = ShmemRuntime.start(config);
        try {
            Shmem shmem = new Shmem(runtime);
            if (!CURRENT.compareAndSet(null, shmem)) {
                throw new ShmemStateException("Shmem.init: another thread started a PE at the same time");
            }
            return shmem;
        } catch (RuntimeException | Error e) {
            runtime.abandon(e);
            throw e;
        }
    }

    /**
     * The PE of this process, for libraries that use jshmem without being handed the instance.
     *
     * @throws ShmemStateException before {@link #init()} or after {@link #close()}
     */
    public static Shmem current() {
        Shmem s = CURRENT.get();
        if (s == null) {
            throw new ShmemStateException("jshmem is not initialized in this process: call Shmem.init() first"
                    + " (and start the program with bin/jshmemrun for several PEs)");
        }
        return s;
    }

    /** This PE's number, {@code 0 .. nPes()-1}. */
    public int myPe() {
        return myPe;
    }

    /** Number of PEs in the job. */
    public int nPes() {
        return nPes;
    }

    /** The team of every PE of the job (OpenSHMEM's {@code SHMEM_TEAM_WORLD}); team PE numbers are world PE numbers. */
    public Team teamWorld() {
        return world;
    }

    /**
     * The team of the PEs that share memory with this one (OpenSHMEM's {@code SHMEM_TEAM_SHARED}):
     * those of its node, whose heaps it maps. On one node it has the same PEs as
     * {@link #teamWorld()}, with a team slot of its own.
     */
    public Team teamShared() {
        return shared;
    }

    /** What the collectives of this PE's teams run on, e.g. for benchmark headers. */
    public String describeCollectives() {
        return collectives.describe();
    }

    /** The settings this PE runs with. */
    public ShmemConfig config() {
        return config;
    }

    /** Where the heap lives and how PEs found each other, e.g. "host shared memory, OpenMPI 4.1.4". */
    public String describe() {
        return backend.describe() + "; " + runtime.describeBootstrap();
    }

    /** The threading level given to {@link #init(ThreadLevel)} ({@link ThreadLevel#MULTIPLE} after {@link #init()}; OpenSHMEM's {@code shmem_query_thread}). */
    public ThreadLevel queryThread() {
        return threadLevel;
    }

    private void setThreadLevel(ThreadLevel level) {
        threadLevel = level;
        boolean oneThread = level == ThreadLevel.SINGLE || level == ThreadLevel.FUNNELED;
        onlyThread = oneThread && config.debug() ? Thread.currentThread() : null;
    }

    private void checkThread(String call) {
        Thread only = onlyThread;
        if (only != null && Thread.currentThread() != only) {
            throw new ShmemStateException(call + " from thread '" + Thread.currentThread().getName() + "': the PE was"
                    + " started with ThreadLevel." + threadLevel + ", so only the thread that called Shmem.init ('"
                    + only.getName() + "') may call jshmem; start it with ThreadLevel.MULTIPLE to call from any"
                    + " thread (checked because JSHMEM_DEBUG=1)");
        }
    }

    // ---------------------------------------------------------------- direct access

    /**
     * PE {@code pe}'s copy of {@code segment} as memory this process reads and writes directly, like
     * OpenSHMEM's {@code shmem_ptr}: present on host heaps (every PE's heap is mapped here), empty on
     * GPU heaps, whose memory the host cannot address (use {@link #deviceAddress} in device code).
     * Plain accesses through it are not ordered with jshmem's calls: a barrier or a signal orders them.
     */
    public java.util.Optional<MemorySegment> ptr(SymmetricSegment segment, int pe) {
        Args.nonNull("ptr", "segment", segment);
        long at = target("ptr", segment, 0, segment.byteSize(), pe);
        MemorySegment heap = pe == myPe ? backend.localHeap() : backend.peerHeap(pe);
        return heap == null ? java.util.Optional.empty()
                : java.util.Optional.of(heap.asSlice(at - heapStart, segment.byteSize()));
    }

    /**
     * Whether {@code segment} can be the target of remote memory access on PE {@code pe}
     * (OpenSHMEM's {@code shmem_addr_accessible}): a live segment of this PE's heap and a PE of
     * the job that is still running. Answers false for a bad PE or a freed or foreign segment.
     *
     * @throws NullPointerException for a null {@code segment}
     */
    public boolean addrAccessible(SymmetricSegment segment, int pe) {
        Args.nonNull("addrAccessible", "segment", segment);
        return segment.owner() == this && !segment.isFreed() && peAccessible(pe);
    }

    /** Whether PE {@code pe} is a PE of the job that has not failed or ended ({@code shmem_pe_accessible}). */
    public boolean peAccessible(int pe) {
        return !closed && pe >= 0 && pe < nPes && runtime.isRunning(pe);
    }

    /**
     * Registers device memory outside the symmetric heap (a buffer from {@code cudaMalloc}, a
     * PyTorch tensor's storage: {@code MemorySegment.ofAddress(ptr).reinterpret(bytes)}) so that
     * on-stream copies can use it as their local source or destination (NVSHMEM's
     * {@code nvshmemx_buffer_register}). Local, not collective; GPU heaps only.
     *
     * @throws ShmemStateException on the host backend
     * @throws IllegalArgumentException for memory that is empty, not device memory of this PE's
     *         device, or overlaps the symmetric heap or a buffer registered before
     */
    public RegisteredBuffer registerBuffer(MemorySegment deviceMemory) {
        Args.nonNull("registerBuffer", "deviceMemory", deviceMemory);
        StreamCapability gpu = streams("registerBuffer");
        if (!deviceMemory.isNative() || deviceMemory.byteSize() == 0) {
            throw new IllegalArgumentException("registerBuffer: " + deviceMemory + " is " + (deviceMemory.isNative()
                    ? "empty" : "Java heap memory") + "; pass the device address with its size, "
                    + "MemorySegment.ofAddress(pointer).reinterpret(bytes)");
        }
        synchronized (registeredBuffers) {
            for (RegisteredBuffer b : registeredBuffers) {
                if (b.overlaps(deviceMemory)) {
                    throw new IllegalArgumentException("registerBuffer: 0x" + Long.toHexString(deviceMemory.address())
                            + " + " + deviceMemory.byteSize() + " bytes overlaps " + b + "; close that one first");
                }
            }
            gpu.checkExternalBuffer("registerBuffer", deviceMemory);
            RegisteredBuffer buffer = new RegisteredBuffer(this, deviceMemory);
            registeredBuffers.add(buffer);
            return buffer;
        }
    }

    void unregisterBuffer(RegisteredBuffer buffer) {
        synchronized (registeredBuffers) {
            registeredBuffers.remove(buffer);
            buffer.markUnregistered();
        }
    }

    // ---------------------------------------------------------------- symmetric heap

    /**
     * Collective: allocates {@code bytes} of symmetric heap (the same offset on every PE); ends with a
     * barrier. Every PE must ask for the same size: that is checked in the barrier, and a mismatch
     * throws {@link CollectiveMismatchException} on every PE, naming each PE's call, with nothing
     * allocated (so for calloc, align, mallocWithHints, realloc and free).
     */
    public SymmetricSegment malloc(long bytes) {
        return allocate("malloc", "malloc(" + bytes + ")", bytes, ShmemRuntime.MIN_ALIGNMENT, false);
    }

    /** Collective: like {@link #malloc} for {@code count * size} bytes, zeroed on every PE. */
    public SymmetricSegment calloc(long count, long size) {
        if (count < 0 || size < 0) {
            throw new IllegalArgumentException("calloc(" + count + ", " + size + "): count and size must not be negative");
        }
        return allocate("calloc", "calloc(" + count + ", " + size + ")", count != 0 && size > Long.MAX_VALUE / count ? Long.MAX_VALUE : count * size,
                ShmemRuntime.MIN_ALIGNMENT, true);
    }

    /**
     * Collective: like {@link #malloc}, saying how the block will be used (OpenSHMEM's
     * {@code shmem_malloc_with_hints}); see {@link MallocHint} for what jshmem does with them.
     */
    public SymmetricSegment mallocWithHints(long bytes, MallocHint... hints) {
        Args.nonNull("mallocWithHints", "hints", hints);
        java.util.EnumSet<MallocHint> set = java.util.EnumSet.noneOf(MallocHint.class);
        for (MallocHint h : hints) {
            Args.nonNull("mallocWithHints", "a hint", h);
            set.add(h);
        }
        return allocate("mallocWithHints", "mallocWithHints(" + bytes + ", " + set + ")", bytes, ShmemRuntime.MIN_ALIGNMENT, false);
    }

    /**
     * Collective: the block of {@code segment} resized to {@code bytes} (OpenSHMEM's
     * {@code shmem_realloc}), at the same offset on every PE, holding the first
     * {@code min(old, new)} bytes it held. It grows or shrinks in place where the heap allows, else
     * moves (to a 256-byte aligned block). Starts with a barrier (no PE still uses the old block)
     * and ends with one. {@code segment} and its slices are unusable afterwards; use the result.
     *
     * @throws HeapExhaustedException on every PE when the heap has no room; {@code segment} is then
     *                                untouched and still usable
     */
    public SymmetricSegment realloc(SymmetricSegment segment, long bytes) {
        Args.nonNull("realloc", "segment", segment);
        String call = "realloc(" + segment + ", " + bytes + ")";
        checkOpen("realloc");
        if (segment.owner() != this) {
            throw new ShmemStateException(call + ": the segment belongs to another (closed) jshmem instance");
        }
        if (!segment.isAllocation()) {
            throw new IllegalArgumentException(call + ": a slice cannot be resized; pass the segment malloc returned");
        }
        if (segment.isFreed()) {
            throw new ShmemStateException(call + ": the segment was freed");
        }
        if (bytes < 0) {
            throw new IllegalArgumentException(call + ": size must not be negative");
        }
        long t = trace.begin("realloc");
        long old = segment.heapOffset();
        // the check's description is also the result's origin: flat, however often a block is resized
        String origin = "realloc(heap offset " + old + ", " + bytes + ")";
        sameCallEverywhere(origin);   // no PE still uses the old block
        long offset = old;
        if (!runtime.resizeInPlace(old, bytes)) {
            java.util.OptionalLong r = runtime.allocate(bytes, ShmemRuntime.MIN_ALIGNMENT);
            if (r.isEmpty()) {
                throw new HeapExhaustedException(String.format("%s on PE %d: the symmetric heap has no block of %d bytes"
                        + " to move the segment to (%d bytes free, largest free block %d); the segment is unchanged. %s",
                        call, myPe, bytes, runtime.heapFree(), runtime.largestFreeBlock(),
                        HeapLimits.advice(bytes, config.symmetricSize(), HeapLimits.memoryOf(backend))), bytes, runtime.heapFree());
            }
            offset = r.getAsLong();
            long keep = Math.min(segment.byteSize(), bytes);
            if (keep > 0) {
                backend.copy(myPe, offset, myPe, old, keep, false);
            }
            runtime.release(old);
        }
        segment.markFreed();
        SymmetricSegment resized = new SymmetricSegment(this, offset, bytes, origin);
        barrierAll();
        trace.end("realloc", "alloc", t, -1, bytes, -1);
        return resized;
    }

    /**
     * Collective: like {@link #malloc} with the block's address at a multiple of {@code alignment},
     * any power of two, on every PE: the address {@link SymmetricSegment#local()} and
     * {@link #deviceAddress} return (OpenSHMEM's {@code shmem_align}). A heap's base address is at
     * a multiple of the largest power of two not above the heap's size (at least 2 MiB; on a GPU at
     * most 1 GiB), so any alignment that the heap has room for is met.
     *
     * @throws IllegalArgumentException for an alignment that is not a power of two
     * @throws HeapExhaustedException   on every PE when no free block of the heap holds {@code bytes}
     *                                  at such an address, the heap's base address included
     */
    public SymmetricSegment align(long alignment, long bytes) {
        if (alignment <= 0 || Long.bitCount(alignment) != 1) {
            throw new IllegalArgumentException("align(" + alignment + ", " + bytes + "): alignment must be a power of two");
        }
        return allocate("align", "align(" + alignment + ", " + bytes + ")", bytes, alignment, false);
    }

    /** Collective: starts with a barrier, then returns the block to the heap. The segment and its slices become unusable. */
    public void free(SymmetricSegment segment) {
        Args.nonNull("free", "segment", segment);
        String call = "free(" + segment + ")";
        checkOpen("free");
        if (segment.owner() != this) {
            throw new ShmemStateException(call + ": the segment belongs to another (closed) jshmem instance");
        }
        if (!segment.isAllocation()) {
            throw new IllegalArgumentException(call + ": a slice cannot be freed; free the segment malloc returned");
        }
        if (segment.isFreed()) {
            throw new ShmemStateException(call + ": already freed");
        }
        long t = trace.begin("free");
        sameCallEverywhere("free(heap offset " + segment.heapOffset() + ")");   // no PE still uses the block
        runtime.release(segment.heapOffset());
        segment.markFreed();
        trace.end("free", "alloc", t, -1, segment.byteSize(), -1);
    }

    /** Heap bytes per PE ({@code JSHMEM_SYMMETRIC_SIZE}). */
    public long heapSize() {
        return runtime.heapSize();
    }

    /** Heap bytes not allocated (possibly in several blocks). */
    public long heapFree() {
        return runtime.heapFree();
    }

    /** {@code name}: the call's name in a trace; {@code call}: the call with its arguments, for messages. */
    private SymmetricSegment allocate(String name, String call, long bytes, long alignment, boolean zero) {
        long t = trace.begin(name);
        SymmetricSegment segment = allocateBlock(call, bytes, alignment, zero);
        trace.end(name, "alloc", t, -1, bytes, -1);
        return segment;
    }

    private SymmetricSegment allocateBlock(String call, long bytes, long alignment, boolean zero) {
        checkOpen(call);
        if (bytes < 0) {
            throw new IllegalArgumentException(call + ": size must not be negative");
        }
        // The block is taken before the closing barrier, which checks that every PE made this call, and given
        // back if one did not: the check costs no synchronisation of its own. calloc zeroes the block before the
        // barrier too, so that no PE's put into it can come first. An alignment above the heap base's takes none.
        boolean aboveBase = alignment > maxAlignment;
        java.util.OptionalLong r = aboveBase ? java.util.OptionalLong.empty() : runtime.allocate(bytes, alignment);
        if (zero && bytes > 0 && r.isPresent()) {
            backend.clearLocal(r.getAsLong(), bytes);
        }
        try {
            sameCallEverywhere(call);
        } catch (CollectiveMismatchException e) {
            if (r.isPresent()) {
                runtime.release(r.getAsLong());
            }
            throw e;
        }
        if (aboveBase) {
            throw new HeapExhaustedException(HeapLimits.alignmentAboveBase(call, myPe, alignment, bytes, maxAlignment,
                    backend.maxHeapAlignment()), bytes, runtime.heapFree());
        }
        if (r.isEmpty()) {
            boolean aligned = alignment > ShmemRuntime.MIN_ALIGNMENT;
            // what a heap needs for it at worst (alignment <= maxAlignment <= 2^62: no overflow)
            long room = !aligned ? bytes : bytes > (1L << 62) - alignment ? 1L << 62 : bytes + alignment;
            throw new HeapExhaustedException(String.format(
                    "%s on PE %d: the symmetric heap is exhausted: %d bytes asked%s, %d bytes free (largest free block"
                    + " %d) of %d. %s", call, myPe, bytes, aligned ? " at a multiple of " + sizeText(alignment) : "",
                    runtime.heapFree(), runtime.largestFreeBlock(), runtime.heapSize(),
                    HeapLimits.advice(room, config.symmetricSize(), HeapLimits.memoryOf(backend))), bytes, runtime.heapFree());
        }
        return new SymmetricSegment(this, r.getAsLong(), bytes, call);
    }

    /**
     * The barrier of a symmetric allocation call ({@link #barrierAll()}: quiet, then the world's
     * synchronisation), which also checks that every PE is making the same call with the same
     * arguments ({@code call} describes it): if not, throws the same
     * {@link CollectiveMismatchException} on every PE, naming what each PE called.
     */
    private void sameCallEverywhere(String call) {
        backend.quiet();
        String mismatch = runtime.allocationMismatch(world.layout(), call);
        if (mismatch != null) {
            throw new CollectiveMismatchException(mismatch);
        }
    }

    static String sizeText(long bytes) {
        for (String unit : new String[] {"T", "G", "M", "K"}) {
            long mult = switch (unit) {
                case "T" -> 1L << 40;
                case "G" -> 1L << 30;
                case "M" -> 1L << 20;
                default -> 1L << 10;
            };
            if (bytes >= mult && bytes % mult == 0) {
                return bytes / mult + unit;
            }
        }
        return Long.toString(bytes);
    }

    // ---------------------------------------------------------------- ordering and synchronisation

    /** Orders this PE's puts, atomics and signals to each PE issued before it before those issued after it. */
    public void fence() {
        endpoint.fence("fence");
    }

    /** Completes (makes visible at their targets) all of this PE's puts, gets and atomics issued before it. */
    public void quiet() {
        endpoint.quiet("quiet");
    }

    /**
     * Completes this PE's puts, gets and atomics to the PEs {@code pes} issued before it (OpenSHMEM
     * 1.6's {@code shmem_pe_quiet}). Every number is checked before anything happens; jshmem then
     * completes all of the context's operations, which includes theirs.
     *
     * @throws PeOutOfRangeException if a number is not a PE of the job
     */
    public void peQuiet(int... pes) {
        Args.nonNull("peQuiet", "pes", pes);
        endpoint.peQuiet("peQuiet", pes);
    }

    /** Collective: {@link #quiet()}, then waits until every PE has called it. */
    public void barrierAll() {
        checkOpen("barrierAll");
        long t = trace.begin("barrierAll");
        backend.quiet();
        runtime.sync(0, 0, 1, nPes, "barrierAll");
        trace.end("barrierAll", "barrier", t, -1, -1, 0);
    }

    /** Collective: waits until every PE has called it (does not complete outstanding puts: see {@link #barrierAll()}). */
    public void syncAll() {
        checkOpen("syncAll");
        long t = trace.begin("syncAll");
        runtime.sync(0, 0, 1, nPes, "syncAll");
        trace.end("syncAll", "barrier", t, -1, -1, 0);
    }

    // ---------------------------------------------------------------- distributed locks

    /**
     * Acquires the distributed lock that is the 8-byte long at {@code offset} of {@code lock}
     * (OpenSHMEM's {@code shmem_set_lock}), waiting as long as it takes. The long must be zero on
     * every PE before first use (from {@link #calloc}) and used for nothing else. Fair: PEs get the
     * lock in the order they asked (a queue lock), each waiting on its own copy of the long.
     */
    public void setLock(SymmetricSegment lock, long offset) {
        QueueLock.set(this, lock, offset);
    }

    /**
     * Takes the lock if it is free, without waiting; returns whether this PE now holds it (OpenSHMEM's
     * {@code shmem_test_lock}, which returns 0 in that case).
     */
    public boolean testLock(SymmetricSegment lock, long offset) {
        return QueueLock.test(this, lock, offset);
    }

    /**
     * Releases the lock this PE holds (OpenSHMEM's {@code shmem_clear_lock}) after a {@link #quiet()},
     * so what it wrote under the lock is visible to the next holder, which it hands the lock to.
     */
    public void clearLock(SymmetricSegment lock, long offset) {
        QueueLock.clear(this, lock, offset);
    }

    // ---------------------------------------------------------------- contexts

    /**
     * A new communication context (OpenSHMEM 1.5 section 9.4): the remote memory access, atomic and
     * signal calls on it are ordered and completed by its own {@link ShmemContext#fence()} and
     * {@link ShmemContext#quiet()}, so threads with contexts of their own do not wait for each
     * other's operations (on a GPU heap each context queues on a stream of its own). PE numbers are
     * world PEs ({@link Team#createContext} makes one in a team's numbering). Close it when done.
     *
     * @param options {@link ContextOption#SERIALIZED}, {@link ContextOption#PRIVATE} (then only this
     *                thread may use it: checked with {@code JSHMEM_DEBUG=1}), {@link ContextOption#NOSTORE}
     */
    public ShmemContext createContext(ContextOption... options) {
        checkOpen("createContext");
        return ShmemContext.open(this, null, options);
    }

    /** The context the calls on this {@link Shmem} use (OpenSHMEM's {@code SHMEM_CTX_DEFAULT}); it cannot be closed. */
    public ShmemContext defaultContext() {
        checkOpen("defaultContext");
        return defaultContext;
    }

    Endpoint endpoint() {
        return endpoint;
    }

    void contextOpened(ShmemContext ctx) {
        contexts.add(ctx);
    }

    /** A context was closed: its channel goes back to the backend. */
    void contextClosed(ShmemContext ctx) {
        if (contexts.remove(ctx)) {
            backend.closeContext(ctx.endpoint().channel());
        }
    }

    /** Closes the contexts made over {@code team} (every one for null): their team or the PE is ending. */
    void closeContexts(TeamLayout team) {
        for (ShmemContext ctx : List.copyOf(contexts)) {
            if (team == null || team.equals(ctx.teamLayout())) {
                ctx.close();
            }
        }
    }

    @Override
    public long signalFetch(SymmetricSegment signal, long signalOffset) {
        Args.nonNull("signalFetch", "signal", signal);
        return backend.load(myPe, target("signalFetch", signal, signalOffset, Long.BYTES, myPe, Long.BYTES), Long.BYTES);
    }

    @Override
    public long signalWaitUntil(SymmetricSegment signal, long signalOffset, Cmp cmp, long value) {
        Args.nonNull("signalWaitUntil", "signal", signal, "cmp", cmp);
        long at = target("signalWaitUntil", signal, signalOffset, Long.BYTES, myPe, Long.BYTES);
        long v;
        long t = trace.begin("signalWaitUntil");
        try {
            for (int n = 0; !cmp.testUnsigned(v = backend.load(myPe, at, Long.BYTES), value); ) {
                n = runtime.idle(n, "signalWaitUntil");
            }
        } catch (WaitTimeoutException e) {
            throw runtime.stuck(e, "waits until the signal at offset " + signalOffset + " of " + signal + " is " + cmp
                    + " " + Long.toUnsignedString(value) + " (unsigned); it is "
                    + Long.toUnsignedString(backend.load(myPe, at, Long.BYTES)));
        } finally {
            trace.end("signalWaitUntil", "wait", t);   // a wait that failed too: the timeline of a hang
        }
        return v;
    }

    /** Heap offset of element {@code i} of a run of {@code count} {@code width}-byte ivars, checked. */
    long ivars(String call, SymmetricSegment ivars, long offset, int count, int width) {
        if (count < 0) {
            throw new IllegalArgumentException(call + ": negative element count " + count);
        }
        return target(call, ivars, offset, (long) count * width, myPe, width);
    }

    /** Reads this PE's ivar (acquire), sign-extended from {@code width} bytes. */
    long loadLocal(long heapOffset, int width) {
        long bits = backend.load(myPe, heapOffset, width);
        return width == Integer.BYTES ? (int) bits : bits;
    }

    Collectives collectives() {
        return collectives;
    }

    /**
     * A new team holds {@code t.slot()} on this PE: the backend readies the slot (on a GPU heap,
     * records it in the device state and zeroes its device cells). Every member does this before
     * the host barrier that ends the split, so the team's device barriers and collectives start from
     * generation 0 everywhere.
     */
    void teamCreated(TeamLayout t) {
        backend.teamCreated(t);
    }

    /** A team of this PE is being destroyed: the backend finishes its queued work (GPU heaps). */
    void teamClosing() {
        backend.teamClosing();
    }

    /** A team's slot is free again on this PE. */
    void teamReleased(int slot) {
        backend.teamReleased(slot);
    }

    boolean isClosed() {
        return closed;
    }

    /** Start-up's machinery under this PE: barriers, waits and team slots for {@link Team} and the facets. */
    ShmemRuntime runtime() {
        return runtime;
    }

    // ---------------------------------------------------------------- checks

    /**
     * Checks a PE, a segment and a range in it, for {@code call}; returns the heap offset of the range.
     * Everything a backend is handed has been through here.
     */
    long target(String call, SymmetricSegment seg, long offset, long length, int pe) {
        if (closed) {
            throw closedError(call);
        }
        if (onlyThread != null) {
            checkThread(call);
        }
        if (pe < 0 || pe >= nPes) {
            throw new PeOutOfRangeException(call, pe, nPes, "the job");
        }
        if (seg.owner() != this) {
            throw new ShmemStateException(call + ": " + seg + " belongs to another jshmem instance (closed?)");
        }
        if (seg.isFreed()) {
            throw new ShmemStateException(call + ": " + seg + " was freed; allocate a new segment");
        }
        seg.checkRange(call, offset, length);
        return seg.heapOffset() + offset;
    }

    /** Like {@link #target(String, SymmetricSegment, long, long, int)} for an atomic of {@code width} bytes. */
    long target(String call, SymmetricSegment seg, long offset, long length, int pe, int width) {
        long at = target(call, seg, offset, length, pe);
        if ((at & (width - 1)) != 0) {
            throw new MisalignedAtomicException(call + ": offset " + offset + " in " + seg + " is not a multiple of "
                    + width + " bytes (heap offset " + at + "); " + width + "-byte atomics, signals and waits need"
                    + " naturally aligned addresses: use an offset that is a multiple of " + width);
        }
        return at;
    }

    void checkOpen(String call) {
        if (closed) {
            throw closedError(call);
        }
        if (onlyThread != null) {
            checkThread(call);
        }
    }

    private ShmemStateException closedError(String call) {
        return new ShmemStateException(call + ": this PE's jshmem was closed; nothing may be called on it or its"
                + " segments after close()");
    }


    MemorySegment backendLocalHeap() {
        return backend.localHeap();
    }

    String backendName() {
        return backend.describe();
    }

    long heapStart() {
        return heapStart;
    }

    Backend backend() {
        return backend;
    }

    /**
     * The backend as {@code type} (e.g. {@code org.jshmem.gpu.GpuBackend}), for jshmem's own modules such as the
     * device library; throws if the heap is of another kind.
     */
    public <T> T unwrap(Class<T> type) {
        Args.nonNull("unwrap", "type", type);
        checkOpen("unwrap");
        if (type.isInstance(backend)) {
            return type.cast(backend);
        }
        throw new ShmemStateException("this needs the symmetric heap in GPU memory (JSHMEM_BACKEND=cuda or hip);"
                + " this PE runs on " + backend.describe());
    }

    /** The backend's stream capability, or an exception saying that {@code call} needs a GPU heap. */
    StreamCapability streams(String call) {
        checkOpen(call);
        if (streams != null) {
            return streams;
        }
        throw new ShmemStateException(call + " needs the symmetric heap in GPU memory (JSHMEM_BACKEND=cuda or hip);"
                + " this PE runs on " + backend.describe());
    }

    /**
     * This PE's trace ({@code JSHMEM_TRACE}): {@link Trace#OFF} when the job does not trace. Programs
     * add their own spans to it; see {@link Trace}.
     */
    public Trace trace() {
        return trace;
    }

    // ---------------------------------------------------------------- lifecycle

    /**
     * Collective: completes this PE's operations, waits until every PE has closed, and releases
     * the heap. Safe to call twice. If another PE died, throws {@link PeFailedException} after
     * releasing what it can (at once when a wait of this PE already reported a death).
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        RuntimeException failure = null;
        PeFailedException death = runtime.deathSeen();   // a PE died: the others cannot all close
        try {
            if (death == null) {
                runtime.markClosing();
            }
            closeContexts(null);
            world.closeStreamOrder();
            shared.closeStreamOrder();
            java.util.List.copyOf(registeredBuffers).forEach(RegisteredBuffer::close);
            backend.quiet();
            if (death != null) {
                throw new PeFailedException(death.getMessage(), death.failedPes());
            }
            runtime.closeBarrier();
            runtime.writeTrace();
        } catch (RuntimeException e) {
            runtime.markFailed(e);
            runtime.writeOwnTrace();
            failure = e;
        }
        closed = true;
        try {
            backend.close();
        } finally {
            runtime.closeNode();
            CURRENT.compareAndSet(this, null);
            if (failure == null) {
                runtime.closeBootstrap();   // MPI_Finalize would wait for a dead PE: skipped on failure
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public String toString() {
        return "PE " + myPe + " of " + nPes + (closed ? " (closed)" : "") + " [" + backend.describe() + "]";
    }
}
