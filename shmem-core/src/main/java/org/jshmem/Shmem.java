package org.jshmem;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.jshmem.bootstrap.Bootstrap;
import org.jshmem.bootstrap.Bootstraps;
import org.jshmem.heap.SymmetricAllocator;
import org.jshmem.node.ControlDescriptor;
import org.jshmem.node.NodeBarrier;
import org.jshmem.node.NodeSharedMemory;
import org.jshmem.node.PeWatch;
import org.jshmem.node.Waiter;
import org.jshmem.spi.Backend;
import org.jshmem.spi.BackendFactory;
import org.jshmem.spi.CollectiveContext;
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
 * PE in the same order with the same arguments ({@code JSHMEM_DEBUG=1} checks that).
 *
 * <p>Threads: puts, gets, atomics and waits may be called from several threads at once;
 * collective calls (allocation, barriers, close) from one thread at a time per PE.
 */
public final class Shmem
        implements AutoCloseable, RemoteMemoryAccess, AtomicOperations, PointToPointSync, StreamOperations {
    private static final AtomicReference<Shmem> CURRENT = new AtomicReference<>();
    private static final int DEBUG_RECORD = 256;

    private final ShmemConfig config;
    private final Bootstrap bootstrap;
    private final NodeSharedMemory node;
    private final Backend backend;
    private final SymmetricAllocator allocator;
    private final PeWatch watch;
    private final Waiter waiter;
    private final NodeBarrier barrier;
    private final int myPe;
    private final int nPes;
    private final long heapStart;
    private final long maxAlignment;              // the largest alignment align() accepts (HeapLimits)
    private final TeamSlots teamSlots = new TeamSlots();
    private final Collectives collectives;
    private final StreamCapability streams;   // GPU heaps only: the on-stream operations
    private final Team world;
    private final Team shared;
    private volatile boolean closed;

    private Shmem(ShmemConfig config, Bootstrap bootstrap, NodeSharedMemory node, Backend backend) {
        this.config = config;
        this.bootstrap = bootstrap;
        this.node = node;
        this.backend = backend;
        this.myPe = bootstrap.rank();
        this.nPes = bootstrap.size();
        this.heapStart = backend.heapStart();
        this.allocator = new SymmetricAllocator(heapStart, backend.heapSize());
        this.maxAlignment = HeapLimits.agreedAlignment(bootstrap, backend, myPe);
        this.watch = new PeWatch(node, config.livenessMillis());
        this.waiter = new Waiter(config.spinIterationsFor(bootstrap.localSize()), watch);
        this.barrier = new NodeBarrier(node, waiter);
        this.collectives = backend.collectives(new CollectiveContext(myPe, node, barrier, waiter, config));
        this.streams = backend.streams().orElse(null);
        this.world = new Team(this, new TeamLayout(0, 1, nPes, 0, myPe), "world", true);
        this.shared = new Team(this, new TeamLayout(0, 1, nPes, 1, myPe), "shared", true);
    }

    /** Starts this PE with the settings of the environment ({@link ShmemConfig#fromEnvironment()}). Collective. */
    public static Shmem init() {
        return init(ShmemConfig.fromEnvironment());
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
        Bootstrap boot = Bootstraps.start(config.bootstrap());
        NodeSharedMemory node = null;
        Backend backend = null;
        try {
            BackendFactory factory = BackendFactory.choose(config.backend());
            node = NodeSharedMemory.open(boot, config.shmDir(), factory.isHost() ? config.symmetricSize() : 0);
            backend = factory.open(config, boot, node);
            Shmem shmem = new Shmem(config, boot, node, backend);
            if (!CURRENT.compareAndSet(null, shmem)) {
                throw new ShmemStateException("Shmem.init: another thread started a PE at the same time");
            }
            return shmem;
        } catch (RuntimeException | Error e) {
            if (backend != null) {
                backend.close();
            }
            if (node != null) {
                node.markFailed();
                node.close();
            }
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
     * The team of the PEs that share memory with this one (OpenSHMEM's {@code SHMEM_TEAM_SHARED}).
     * jshmem runs a job on one node, so it has the same PEs as {@link #teamWorld()}, with a team
     * slot of its own.
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
        return backend.describe() + "; " + bootstrap.describe();
    }

    // ---------------------------------------------------------------- symmetric heap

    /** Collective: allocates {@code bytes} of symmetric heap (the same offset on every PE); ends with a barrier. */
    public SymmetricSegment malloc(long bytes) {
        return allocate("malloc(" + bytes + ")", bytes, SymmetricAllocator.MIN_ALIGNMENT, false);
    }

    /** Collective: like {@link #malloc} for {@code count * size} bytes, zeroed on every PE. */
    public SymmetricSegment calloc(long count, long size) {
        if (count < 0 || size < 0) {
            throw new IllegalArgumentException("calloc(" + count + ", " + size + "): count and size must not be negative");
        }
        return allocate("calloc(" + count + ", " + size + ")", count != 0 && size > Long.MAX_VALUE / count ? Long.MAX_VALUE : count * size,
                SymmetricAllocator.MIN_ALIGNMENT, true);
    }

    /**
     * Collective: like {@link #malloc} with the block's address at a multiple of {@code alignment}
     * (a power of two of at most 2 MiB: the alignment of the heap's base address), on every PE: the
     * address {@link SymmetricSegment#local()} and {@link #deviceAddress} return.
     *
     * @throws IllegalArgumentException for an alignment that is not a power of two or is above 2 MiB
     */
    public SymmetricSegment align(long alignment, long bytes) {
        if (alignment <= 0 || Long.bitCount(alignment) != 1) {
            throw new IllegalArgumentException("align(" + alignment + ", " + bytes + "): alignment must be a power of two");
        }
        String error = HeapLimits.alignmentError("align(" + alignment + ", " + bytes + ")", alignment, maxAlignment);
        if (error != null) {
            throw new IllegalArgumentException(error);
        }
        return allocate("align(" + alignment + ", " + bytes + ")", bytes, alignment, false);
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
        checkSameEverywhere("free(heap offset " + segment.heapOffset() + ")");
        barrierAll();
        allocator.release(segment.heapOffset());
        segment.markFreed();
    }

    /** Heap bytes per PE ({@code JSHMEM_SYMMETRIC_SIZE}). */
    public long heapSize() {
        return allocator.capacity();
    }

    /** Heap bytes not allocated (possibly in several blocks). */
    public long heapFree() {
        return allocator.freeBytes();
    }

    private SymmetricSegment allocate(String call, long bytes, long alignment, boolean zero) {
        checkOpen(call);
        if (bytes < 0) {
            throw new IllegalArgumentException(call + ": size must not be negative");
        }
        checkSameEverywhere(call);
        SymmetricAllocator.Result r = allocator.allocate(bytes, alignment);
        if (r instanceof SymmetricAllocator.Exhausted x) {
            throw new HeapExhaustedException(String.format(
                    "%s on PE %d: the symmetric heap is exhausted: %d bytes asked, %d bytes free (largest free block %d)"
                    + " of %d. %s", call, myPe, bytes, x.freeBytes(), x.largestFreeBlock(), allocator.capacity(),
                    HeapLimits.advice(bytes, config.symmetricSize(), HeapLimits.memoryOf(backend))), bytes, x.freeBytes());
        }
        SymmetricAllocator.Allocated a = (SymmetricAllocator.Allocated) r;
        SymmetricSegment segment = new SymmetricSegment(this, a.offset(), bytes, call);
        if (zero && bytes > 0) {
            backend.clearLocal(a.offset(), bytes);
        }
        barrierAll();
        return segment;
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
        checkOpen("fence");
        backend.fence();
    }

    /** Completes (makes visible at their targets) all of this PE's puts, gets and atomics issued before it. */
    public void quiet() {
        checkOpen("quiet");
        backend.quiet();
    }

    /** Collective: {@link #quiet()}, then waits until every PE has called it. */
    public void barrierAll() {
        checkOpen("barrierAll");
        backend.quiet();
        barrier.sync(0, 0, 1, nPes, "barrierAll");
    }

    /** Collective: waits until every PE has called it (does not complete outstanding puts: see {@link #barrierAll()}). */
    public void syncAll() {
        checkOpen("syncAll");
        barrier.sync(0, 0, 1, nPes, "syncAll");
    }

    // ---------------------------------------------------------------- remote memory access (primitives)

    @Override
    public void put(SymmetricSegment dest, long destOffset, MemorySegment src, int pe) {
        Args.nonNull("put", "dest", dest, "src", src);
        backend.put(pe, target("put", dest, destOffset, src.byteSize(), pe), src);
    }

    @Override
    public void putNbi(SymmetricSegment dest, long destOffset, MemorySegment src, int pe) {
        Args.nonNull("putNbi", "dest", dest, "src", src);
        backend.putNbi(pe, target("putNbi", dest, destOffset, src.byteSize(), pe), src);
    }

    @Override
    public void get(MemorySegment dst, SymmetricSegment src, long srcOffset, int pe) {
        Args.nonNull("get", "dst", dst, "src", src);
        backend.get(dst, pe, target("get", src, srcOffset, dst.byteSize(), pe));
    }

    @Override
    public void getNbi(MemorySegment dst, SymmetricSegment src, long srcOffset, int pe) {
        Args.nonNull("getNbi", "dst", dst, "src", src);
        backend.getNbi(dst, pe, target("getNbi", src, srcOffset, dst.byteSize(), pe));
    }

    @Override
    public void put(SymmetricSegment dest, long destOffset, SymmetricSegment src, long srcOffset, long bytes, int pe) {
        Args.nonNull("put", "dest", dest, "src", src);
        symmetricCopy("put", dest, destOffset, src, srcOffset, bytes, pe, true, false);
    }

    @Override
    public void putNbi(SymmetricSegment dest, long destOffset, SymmetricSegment src, long srcOffset, long bytes, int pe) {
        Args.nonNull("putNbi", "dest", dest, "src", src);
        symmetricCopy("putNbi", dest, destOffset, src, srcOffset, bytes, pe, true, true);
    }

    @Override
    public void get(SymmetricSegment dest, long destOffset, SymmetricSegment src, long srcOffset, long bytes, int pe) {
        Args.nonNull("get", "dest", dest, "src", src);
        symmetricCopy("get", dest, destOffset, src, srcOffset, bytes, pe, false, false);
    }

    @Override
    public void getNbi(SymmetricSegment dest, long destOffset, SymmetricSegment src, long srcOffset, long bytes, int pe) {
        Args.nonNull("getNbi", "dest", dest, "src", src);
        symmetricCopy("getNbi", dest, destOffset, src, srcOffset, bytes, pe, false, true);
    }

    private void symmetricCopy(String call, SymmetricSegment dest, long destOffset, SymmetricSegment src,
                               long srcOffset, long bytes, int pe, boolean toRemote, boolean nbi) {
        long d = target(call, dest, destOffset, bytes, toRemote ? pe : myPe);
        long s = target(call, src, srcOffset, bytes, toRemote ? myPe : pe);
        backend.copy(toRemote ? pe : myPe, d, toRemote ? myPe : pe, s, bytes, nbi);
    }

    @Override
    public void iput(SymmetricSegment dest, long destOffset, long destStride, MemorySegment src, long srcStride,
                     ValueLayout element, long nelems, int pe) {
        Args.nonNull("iput", "dest", dest, "src", src, "element", element);
        long size = element.byteSize();
        checkStrides("iput", destStride, srcStride, nelems);
        long span = nelems == 0 ? 0 : ((nelems - 1) * destStride + 1) * size;
        long base = target("iput", dest, destOffset, span, pe);
        checkLocalSpan("iput", src, srcStride, size, nelems);
        backend.iput(pe, base, destStride * size, src, srcStride * size, size, nelems);
    }

    @Override
    public void iget(MemorySegment dst, long dstStride, SymmetricSegment src, long srcOffset, long srcStride,
                     ValueLayout element, long nelems, int pe) {
        Args.nonNull("iget", "dst", dst, "src", src, "element", element);
        long size = element.byteSize();
        checkStrides("iget", dstStride, srcStride, nelems);
        long span = nelems == 0 ? 0 : ((nelems - 1) * srcStride + 1) * size;
        long base = target("iget", src, srcOffset, span, pe);
        checkLocalSpan("iget", dst, dstStride, size, nelems);
        backend.iget(dst, dstStride * size, pe, base, srcStride * size, size, nelems);
    }

    /** Checks that {@code nelems} elements {@code stride} apart fit in {@code local}, before any element moves. */
    private static void checkLocalSpan(String call, MemorySegment local, long stride, long size, long nelems) {
        if (nelems > 0 && (nelems - 1) * stride * size + size > local.byteSize()) {
            throw new IndexOutOfBoundsException(call + ": " + nelems + " elements of " + size + " bytes, " + stride
                    + " apart, need " + ((nelems - 1) * stride * size + size) + " bytes of the local segment, which has "
                    + local.byteSize());
        }
    }

    private static void checkStrides(String call, long a, long b, long nelems) {
        if (a < 1 || b < 1 || nelems < 0) {
            throw new IllegalArgumentException(call + ": strides must be >= 1 and the element count >= 0 (got strides "
                    + a + ", " + b + ", count " + nelems + ")");
        }
    }

    /** Scalar put of {@code width} bytes (release store). */
    void pBits(String call, SymmetricSegment dest, long offset, int width, long bits, int pe) {
        backend.store(pe, target(call, dest, offset, width, pe, width), width, bits);
    }

    /** Scalar get of {@code width} bytes (acquire load), zero-extended. */
    long gBits(String call, SymmetricSegment src, long offset, int width, int pe) {
        return backend.load(pe, target(call, src, offset, width, pe, width), width);
    }

    // ---------------------------------------------------------------- atomics and signals (primitives)

    int atomicInt(String call, AtomicOp op, SymmetricSegment dest, long offset, int value, int comparand, int pe) {
        return backend.atomicInt(op, pe, target(call, dest, offset, Integer.BYTES, pe, Integer.BYTES), value, comparand);
    }

    long atomicLong(String call, AtomicOp op, SymmetricSegment dest, long offset, long value, long comparand, int pe) {
        return backend.atomicLong(op, pe, target(call, dest, offset, Long.BYTES, pe, Long.BYTES), value, comparand);
    }

    @Override
    public void putSignal(SymmetricSegment dest, long destOffset, MemorySegment src, SymmetricSegment signal,
                          long signalOffset, long value, SignalOp op, int pe) {
        Args.nonNull("putSignal", "dest", dest, "src", src, "signal", signal);
        Args.nonNull("putSignal", "op", op);
        putSignal("putSignal", dest, destOffset, src, signal, signalOffset, value, op, pe, false);
    }

    @Override
    public void putSignalNbi(SymmetricSegment dest, long destOffset, MemorySegment src, SymmetricSegment signal,
                             long signalOffset, long value, SignalOp op, int pe) {
        Args.nonNull("putSignalNbi", "dest", dest, "src", src, "signal", signal);
        Args.nonNull("putSignalNbi", "op", op);
        putSignal("putSignalNbi", dest, destOffset, src, signal, signalOffset, value, op, pe, true);
    }

    private void putSignal(String call, SymmetricSegment dest, long destOffset, MemorySegment src,
                           SymmetricSegment signal, long signalOffset, long value, SignalOp op, int pe, boolean nbi) {
        long d = target(call, dest, destOffset, src.byteSize(), pe);
        long s = target(call, signal, signalOffset, Long.BYTES, pe, Long.BYTES);
        backend.putSignal(pe, d, src, s, value, op, nbi);
    }

    @Override
    public void putSignal(SymmetricSegment dest, long destOffset, SymmetricSegment src, long srcOffset, long bytes,
                          SymmetricSegment signal, long signalOffset, long value, SignalOp op, int pe) {
        Args.nonNull("putSignal", "dest", dest, "src", src, "signal", signal);
        Args.nonNull("putSignal", "op", op);
        String call = "putSignal";
        long d = target(call, dest, destOffset, bytes, pe);
        long from = target(call, src, srcOffset, bytes, myPe);
        long s = target(call, signal, signalOffset, Long.BYTES, pe, Long.BYTES);
        backend.copySignal(pe, d, myPe, from, bytes, s, value, op, false);
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
        for (int n = 0; !cmp.test(v = backend.load(myPe, at, Long.BYTES), value); ) {
            n = waiter.idle(n, "signalWaitUntil");
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

    TeamSlots teamSlots() {
        return teamSlots;
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

    Waiter waiter() {
        return waiter;
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
    }

    private ShmemStateException closedError(String call) {
        return new ShmemStateException(call + ": this PE's jshmem was closed; nothing may be called on it or its"
                + " segments after close()");
    }

    /**
     * With {@code JSHMEM_DEBUG=1}: checks that every PE is making the same collective call with the
     * same arguments, else throws on every PE naming the PEs that differ.
     */
    void checkSameEverywhere(String call) {
        if (!config.debug()) {
            return;
        }
        byte[] mine = Arrays.copyOf(call.getBytes(StandardCharsets.UTF_8), DEBUG_RECORD);
        byte[] all = bootstrap.allgather(mine);
        List<String> calls = new ArrayList<>();
        for (int pe = 0; pe < nPes; pe++) {
            int end = pe * DEBUG_RECORD;
            while (end < (pe + 1) * DEBUG_RECORD && all[end] != 0) {
                end++;
            }
            calls.add(new String(all, pe * DEBUG_RECORD, end - pe * DEBUG_RECORD, StandardCharsets.UTF_8));
        }
        if (calls.stream().distinct().count() > 1) {
            StringBuilder diff = new StringBuilder();
            for (int pe = 0; pe < nPes; pe++) {
                if (!calls.get(pe).equals(calls.get(0)) || pe == 0) {
                    diff.append(diff.isEmpty() ? "" : ", ").append("PE ").append(pe).append(": ").append(calls.get(pe));
                }
            }
            List<Integer> differ = new ArrayList<>();
            for (int pe = 0; pe < nPes; pe++) {
                if (!calls.get(pe).equals(calls.get(0))) {
                    differ.add(pe);
                }
            }
            throw new CollectiveMismatchException("collective call mismatch (JSHMEM_DEBUG=1): PEs " + differ
                    + " differ from PE 0 [" + diff + "]. Every PE must make the same collective calls, in the same"
                    + " order, with the same arguments.");
        }
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

    NodeBarrier nodeBarrier() {
        return barrier;
    }

    NodeSharedMemory node() {
        return node;
    }

    Bootstrap bootstrap() {
        return bootstrap;
    }

    // ---------------------------------------------------------------- lifecycle

    /**
     * Collective: completes this PE's operations, waits until every PE has closed, and releases
     * the heap. Safe to call twice. If another PE died, throws {@link PeFailedException} after
     * releasing what it can.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        RuntimeException failure = null;
        try {
            node.markClosing();
            backend.quiet();
            barrier.sync(ControlDescriptor.CLOSE_SLOT, 0, 1, nPes, PeWatch.CLOSE);
            node.markFinalized();
        } catch (RuntimeException e) {
            node.markFailed();
            failure = e;
        }
        closed = true;
        try {
            backend.close();
        } finally {
            node.close();
            CURRENT.compareAndSet(this, null);
            if (failure == null) {
                bootstrap.close();   // MPI_Finalize would wait for a dead PE: skipped on failure
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
