package org.jshmem.gpu;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.jshmem.gpu.GpuHeapDescriptor.INTERNAL_SIZE;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.IntUnaryOperator;
import org.jshmem.AtomicOp;
import org.jshmem.BootstrapException;
import org.jshmem.Cmp;
import org.jshmem.CollectiveTuning;
import org.jshmem.ShmemConfig;
import org.jshmem.ShmemStateException;
import org.jshmem.SignalOp;
import org.jshmem.WaitTimeoutException;
import org.jshmem.bootstrap.Bootstrap;
import org.jshmem.collectives.CopyCollectives;
import org.jshmem.collectives.HierarchicalCollectives;
import org.jshmem.collectives.StagedStreamCollectives;
import org.jshmem.gpu.shim.Shim;
import org.jshmem.node.NodeMap;
import org.jshmem.node.NodeSharedMemory;
import org.jshmem.node.Waiter;
import org.jshmem.remote.RemoteTransport;
import org.jshmem.spi.Backend;
import org.jshmem.spi.BackendContext;
import org.jshmem.spi.CollectiveContext;
import org.jshmem.spi.Collectives;
import org.jshmem.spi.DeviceSpans;
import org.jshmem.spi.StreamCapability;
import org.jshmem.spi.StreamCollectives;
import org.jshmem.spi.TeamLayout;

/**
 * The heap in GPU memory: each PE allocates its heap with finegrained-alloc on its device,
 * exports it, and opens every other PE's heap through IPC, so any PE's heap is a device address
 * in this process. Host-called operations run in order on a {@link GpuChannel}'s stream (copy
 * engine for data, one-thread kernels for atomics); the blocking ones wait for it. The default
 * channel's stream is the internal stream; each context gets a channel of its own.
 *
 * <p>With PEs on other nodes (a job across nodes, or {@code JSHMEM_TRANSPORT} / {@code JSHMEM_NODE_OF_RANK})
 * only this node's heaps are opened; the others are reached through the remote transport's two-sided
 * requests ({@link RemoteRouting} here, {@link GpuHeapTarget} at the target), their device addresses are
 * null (so {@code jshmem_ptr} is NULL for them), kernels reach them through the {@link DeviceProxy},
 * the blocking collectives are {@link HierarchicalCollectives} over the copies, and the on-stream operations that reach them run
 * once their stream is idle ({@link StagedStreamCollectives}). The device state (peer
 * table, teams) is kept here and pushed to the shim and to every loaded user module.
 */
public final class GpuBackend implements Backend, StreamCapability {
    /**
     * The most a GPU heap's base address is aligned to ({@link #heapAlignment()}). Placing the heap
     * there costs up to that much device memory less 2 MiB (see {@link #allocateHeap()}), so it
     * stops at 1 GiB.
     */
    public static final long MAX_HEAP_ALIGNMENT = 1L << 30;
    /** The alignment the driver gives large allocations (at least; less is handled). */
    private static final long DEVICE_GRANULE = 2L << 20;
    private static final long HANDLE_BYTES = 256;
    private static final int PCI_ADDRESS_BYTES = 32;

    private final String platform;
    private final int myPe;
    private final int nPes;
    private final int device;
    private final Shim.DeviceInfo deviceInfo;
    /** PEs of the job on this PE's device (1 unless several share a GPU, e.g. under MPS). */
    private final int pesOnDevice;
    /** Whether PE i's heap is on this PE's device: on-stream copies to or from other devices use a copy engine. */
    private final boolean[] onMyDevice;
    private final boolean nodeSharesDevices;
    private final long heapBytes;
    /** What this PE's heap base is aligned to where the device allows it: see {@link #allocateHeap()}. */
    private final long heapAlignment;
    /** Each PE's heap offset 0 in this process (0: not mapped), where its PE placed it in {@code rawBase[pe]}'s allocation. */
    private final long[] peerBase;
    /** What the heap allocation or IPC import returned for each PE, which free and close take. */
    private final long[] rawBase;
    private final MemorySegment stream;       // the default channel's: collectives and set-up work run on it too
    private final GpuChannel main;
    /** The calls made on {@code Shmem}: {@link #main}, or with PEs on other nodes a {@link RemoteRouting} over it. */
    private final BackendContext channel;
    private final NodeMap nodes;
    private final RemoteTransport remote;      // null when every PE is on this node
    private final boolean[] remotePe;
    private final GpuHeapTarget heapTarget;    // serves the other nodes' operations on this heap; null without them
    private final DeviceTrace deviceTrace;     // the kernels' spans when the job traces; else null
    private final DeviceProxy proxy;           // serves this PE's kernels' calls to other nodes; null without them
    private final GpuService service;          // runs host-called small collectives; null unless JSHMEM_GPU_SERVICE_US
    private final TeamLayout[] teams = new TeamLayout[GpuHeapDescriptor.MAX_TEAMS];
    private volatile Waiter waiter;             // the core's, from collectives(CollectiveContext)
    private final Arena arena = Arena.ofShared();
    private final MemorySegment state;
    private final List<Consumer<MemorySegment>> stateListeners = new CopyOnWriteArrayList<>();
    private final long smCopyMax;
    /** Set when a wait for the GPU ended in an error (a dead PE, a failed kernel): work may still be
     * spinning on the device, so quiet and close no longer wait for it. */
    private volatile boolean failed;
    /** Made by {@link #collectives(CollectiveContext)}: the on-stream forms. */
    private volatile StreamCollectives collectives;

    GpuBackend(ShmemConfig config, Bootstrap boot, String platform, NodeSharedMemory node) {
        this.platform = platform;
        this.myPe = boot.rank();
        this.nPes = boot.size();
        if (nPes > GpuHeapDescriptor.MAX_PES) {
            throw new BootstrapException("a GPU heap is shared by at most " + GpuHeapDescriptor.MAX_PES + " PEs; this job has "
                    + nPes);
        }
        this.nodes = node.nodes();
        this.remote = node.remote().orElse(null);
        this.remotePe = new boolean[nPes];
        for (int pe = 0; pe < nPes; pe++) {
            remotePe[pe] = !nodes.isLocal(pe);
        }
        teams[0] = new TeamLayout(0, 1, nPes, 0, myPe);
        int count = Shim.deviceCount();
        this.device = config.device().orElse(boot.localRank() % count);
        if (device >= count) {
            throw new BootstrapException("JSHMEM_DEVICE=" + device + " but PE " + myPe + " sees " + count + " "
                    + platform.toUpperCase() + " device(s) (0.." + (count - 1) + ")");
        }
        Shim.setDevice(device);
        this.deviceInfo = Shim.deviceInfo(device);
        byte[] pci = pciAddresses(boot, deviceInfo.pciAddress());
        this.onMyDevice = onMyDevice(pci, myPe, remotePe);
        this.nodeSharesDevices = nodeSharesDevices(pci, remotePe);
        int same = 0;
        for (boolean b : onMyDevice) {
            same += b ? 1 : 0;
        }
        this.pesOnDevice = same;
        timeSlicingWarning(myPe, onMyDevice, same > 1 && Shim.runsProcessesTogether(device), deviceInfo)
                .ifPresent(System.err::println);
        this.heapBytes = INTERNAL_SIZE + roundUp(config.symmetricSize(), 2L << 20);
        this.heapAlignment = Math.min(MAX_HEAP_ALIGNMENT, Math.max(DEVICE_GRANULE, Long.highestOneBit(heapBytes)));
        this.smCopyMax = config.smCopyMaxBytes();
        this.peerBase = new long[nPes];
        this.rawBase = new long[nPes];
        this.main = new GpuChannel(this, Shim.streamCreate());
        GpuHeapTarget target = null;
        try {
            this.channel = remote == null ? main : new RemoteRouting(main, remote, remotePe);
            this.stream = main.stream();
            MemorySegment heap = allocateAndExchange(boot);
            this.proxy = remote == null ? null : new DeviceProxy(remote, myPe);
            this.state = arena.allocate(GpuHeapDescriptor.STATE);
            this.deviceTrace = config.traceFile().isPresent() ? new DeviceTrace() : null;
            fillState(config.debug(), config.kernelWaitTimeoutMillis());
            Shim.memsetAsync(heap, 0, INTERNAL_SIZE, stream);
            Shim.streamSynchronize(stream);
            Shim.setState(state);
            long linger = config.gpuCollectiveTuning().serviceMicros();
            this.service = linger > 0 ? new GpuService(linger) : null;
            if (remote != null) {
                target = new GpuHeapTarget(new GpuChannel(this, Shim.streamCreate()), myPe);
                remote.serveDeviceHeap(target);
            }
            this.heapTarget = target;
            boot.barrier();   // every PE's internal region is zero (and served) before anyone signals into it
        } catch (RuntimeException | Error e) {
            releaseAfterFailedStart(target, e);
            throw e;
        }
    }

    /**
     * A start-up step failed (a heap, a mapping or a peer's barrier): gives back what was made so far,
     * the heap target if made ({@code target}), mappings, heap, streams and pinned memory, so that a
     * failed start leaves nothing behind. A failure while releasing is added to {@code cause}, which
     * the constructor throws.
     */
    private void releaseAfterFailedStart(GpuHeapTarget target, Throwable cause) {
        for (Runnable step : new Runnable[] {
            () -> {
                if (target != null) {
                    remote.serveDeviceHeap(null);
                    target.close();
                }
            },
            this::stopProxy,
            this::closeService,
            () -> {
                if (channel instanceof RemoteRouting r) {
                    r.close();
                }
            },
            this::closePeers,
            this::closeDeviceTrace,
            () -> {
                if (rawBase[myPe] != 0) {
                    Shim.heapFree(MemorySegment.ofAddress(rawBase[myPe]));
                }
            },
            main::close}) {
            try {
                step.run();
            } catch (RuntimeException e) {
                cause.addSuppressed(e);
            }
        }
        arena.close();
    }

    /**
     * Allocates this PE's heap, shares its IPC handle and where in the allocation the heap starts,
     * and opens every peer's of this node. Returns this PE's heap (offset 0).
     */
    private MemorySegment allocateAndExchange(Bootstrap boot) {
        MemorySegment heap = null;
        String error = null;
        byte[] record = new byte[(int) HANDLE_BYTES];   // handle length, heap's shift in the allocation, handle
        try (Arena a = Arena.ofConfined()) {
            heap = allocateHeap();
            MemorySegment handle = a.allocate(HANDLE_BYTES - 16);
            long len = Shim.ipcExport(MemorySegment.ofAddress(rawBase[myPe]), handle);
            MemorySegment rec = MemorySegment.ofArray(record);
            rec.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, len);
            rec.set(ValueLayout.JAVA_LONG_UNALIGNED, 8, heap.address() - rawBase[myPe]);
            MemorySegment.copy(handle, 0, rec, 16, len);
        } catch (RuntimeException e) {
            error = e.getMessage();
            record[0] = -1;
            record[1] = -1;
        }
        byte[] all = boot.allgather(record);
        StringBuilder failed = new StringBuilder();
        for (int pe = 0; pe < nPes; pe++) {
            if (all[pe * (int) HANDLE_BYTES] == -1 && all[pe * (int) HANDLE_BYTES + 1] == -1) {
                failed.append(failed.isEmpty() ? "" : ", ").append(pe);
            }
        }
        if (!failed.isEmpty()) {
            if (rawBase[myPe] != 0) {
                Shim.heapFree(MemorySegment.ofAddress(rawBase[myPe]));
                rawBase[myPe] = 0;
                peerBase[myPe] = 0;
            }
            throw new BootstrapException("allocating the GPU heap (" + heapBytes + " bytes per PE) failed on PE(s) " + failed
                    + (error != null ? "; here: " + error : "") + ". Lower JSHMEM_SYMMETRIC_SIZE or check the devices.");
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment allSeg = MemorySegment.ofArray(all);
            for (int pe = 0; pe < nPes; pe++) {
                if (pe == myPe || remotePe[pe]) {
                    continue;   // this PE (above), or another node's: no mapping (0), reached through the remote transport
                }
                long off = (long) pe * HANDLE_BYTES;
                long len = allSeg.get(ValueLayout.JAVA_LONG_UNALIGNED, off);
                long shift = allSeg.get(ValueLayout.JAVA_LONG_UNALIGNED, off + 8);
                MemorySegment handle = a.allocate(len);
                MemorySegment.copy(allSeg, off + 16, handle, 0, len);
                rawBase[pe] = Shim.ipcImport(handle, len, "PE " + pe + "'s heap").address();
                peerBase[pe] = rawBase[pe] + shift;
            }
        }
        return heap;
    }

    /**
     * This PE's heap, its offset 0 at a multiple of {@link #heapAlignment} (so that {@code align}
     * meets every alignment the heap has room for): the plain allocation when the driver placed it
     * there, else one of {@code heapAlignment} less the driver's alignment (2 MiB) more, with the
     * heap at the first such multiple in it, which costs up to that much device memory. Where that
     * cannot be had (no memory for it), the heap as it comes: {@code HeapLimits} then agrees on the
     * alignment the PEs' heaps have.
     */
    private MemorySegment allocateHeap() {
        MemorySegment raw = Shim.heapAlloc(heapBytes);
        long slack = 0;
        if ((raw.address() & (heapAlignment - 1)) != 0) {
            long more = heapAlignment - Math.min(DEVICE_GRANULE, Long.lowestOneBit(raw.address()));
            Shim.heapFree(raw);
            try {
                raw = Shim.heapAlloc(heapBytes + more);
                slack = more;
            } catch (RuntimeException noRoom) {
                raw = Shim.heapAlloc(heapBytes);
            }
        }
        rawBase[myPe] = raw.address();
        long shift = -raw.address() & (heapAlignment - 1);
        peerBase[myPe] = raw.address() + (shift <= slack ? shift : 0);
        return MemorySegment.ofAddress(peerBase[myPe]);
    }

    private void fillState(boolean debug, long kernelWaitTimeoutMillis) {
        state.set(JAVA_INT, GpuHeapDescriptor.MY_PE, myPe);
        state.set(JAVA_INT, GpuHeapDescriptor.N_PES, nPes);
        state.set(JAVA_INT, GpuHeapDescriptor.DEBUG, debug ? 1 : 0);
        state.set(JAVA_INT, GpuHeapDescriptor.WAIT_TIMEOUT_MS, (int) kernelWaitTimeoutMillis);
        state.set(JAVA_LONG, GpuHeapDescriptor.HEAP_SIZE, heapBytes);
        state.set(ADDRESS, GpuHeapDescriptor.HEAP_BASE, MemorySegment.ofAddress(peerBase[myPe]));
        for (int pe = 0; pe < nPes; pe++) {
            state.set(ADDRESS, GpuHeapDescriptor.PEER_BASE + pe * ADDRESS.byteSize(), MemorySegment.ofAddress(peerBase[pe]));
        }
        state.set(ADDRESS, GpuHeapDescriptor.PROXY, proxy == null ? MemorySegment.NULL : proxy.ring());
        state.set(ADDRESS, GpuHeapDescriptor.TRACE, deviceTrace == null ? MemorySegment.NULL : deviceTrace.ring());
        writeTeam(0, 0, 1, nPes);   // world
        TeamLayout shared = TeamLayout.shared(nodes, myPe);   // the core's shared team, as Shmem makes it
        writeTeam(1, shared.start(), shared.stride(), shared.size());
        teams[1] = shared;
    }

    private void writeTeam(int slot, int start, int stride, int size) {
        long at = GpuHeapDescriptor.TEAMS + slot * GpuHeapDescriptor.TEAM.byteSize();
        state.set(JAVA_INT, at, start);
        state.set(JAVA_INT, at + 4, stride);
        state.set(JAVA_INT, at + 8, size);
        state.set(JAVA_INT, at + 12, slot);
    }

    /**
     * Whether kernels may call PEs of other nodes (through the {@link DeviceProxy}): false when every
     * PE of the job is on this node, and jshmem's run-time compiles then leave the proxy's path out.
     */
    public boolean reachesOtherNodes() {
        return remote != null;
    }

    /** Records a team (size 0 frees the slot) in the device state and pushes it everywhere. */
    public synchronized void setTeam(int slot, int start, int stride, int size) {
        writeTeam(slot, start, stride, size);
        Shim.setState(state);
        stateListeners.forEach(l -> l.accept(state));
    }

    /**
     * Zeroes team slot {@code slot}'s device cells in this PE's heap (its generation cell, its
     * sync and coll cells of every PE, its count of low-latency reductions and their lines) and waits. A slot given to a new team must start from zero on
     * every member, followed by a host barrier of the members before the team's first use: barriers
     * and collectives count generations from there. The slot's previous team must have no GPU work
     * left on any member ({@link #drain()} before that team's closing barrier).
     */
    public void resetTeamCells(int slot) {
        long row = (long) GpuHeapDescriptor.MAX_PES * GpuHeapDescriptor.CELL;
        main.runAndSync(s -> {
            Shim.memsetAsync(address(myPe, GpuHeapDescriptor.syncCell(slot, 0)), 0, row, s);
            Shim.memsetAsync(address(myPe, GpuHeapDescriptor.genCell(slot)), 0, GpuHeapDescriptor.CELL, s);
            Shim.memsetAsync(address(myPe, GpuHeapDescriptor.collCell(slot, 0)), 0, row, s);
            Shim.memsetAsync(address(myPe, GpuHeapDescriptor.llSeqCell(slot)), 0, GpuHeapDescriptor.CELL, s);
            Shim.memsetAsync(address(myPe, GpuHeapDescriptor.llLines(slot)), 0, GpuHeapDescriptor.LL_TEAM_BYTES, s);
        });
    }

    /**
     * Waits until all of this PE's GPU work (every stream) has finished; nothing after a failure. The service
     * kernel ends first (the next served call launches it again).
     */
    public void drain() {
        if (!failed) {
            if (service != null) {
                service.stop();
            }
            Shim.deviceSynchronize();
        }
    }

    /**
     * Queues {@code work} on the internal stream and waits for it by polling, calling
     * {@code idle} (a {@link org.jshmem.node.Waiter} step, which throws when a PE waited for has
     * died) between polls: a collective whose peer died ends in that exception instead of a hang.
     * After an exception the backend counts as failed ({@link #quiet()} and {@link #close()} no
     * longer wait for the device).
     */
    public void runAndWait(Consumer<MemorySegment> work, IntUnaryOperator idle) {
        try {
            main.runAndPoll(work, idle);
        } catch (RuntimeException | Error e) {
            failed = true;
            throw e;
        }
    }

    /**
     * Like {@link #runAndWait}, for a one-block collective that the service kernel runs (a low-latency reduction,
     * a one-block pull collective): {@code work} gets the service's stream where this PE has the service and
     * nothing is queued on the internal stream (so the call still follows the host-called operations before it),
     * else the internal stream.
     */
    public void runAndWaitServed(Consumer<MemorySegment> work, IntUnaryOperator idle) {
        if (service == null || !main.idle()) {
            runAndWait(work, idle);
            return;
        }
        try {
            service.runAndWait(work, idle);
        } catch (RuntimeException | Error e) {
            failed = true;
            throw e;
        }
    }

    /**
     * This PE's share of its device's multiprocessors (SMs / CUs): all of them, or an equal part
     * when several PEs share the device. A collective kernel whose blocks wait for the peers' kernels
     * must not take more: were one PE's blocks to fill the device, a peer's kernel could not start
     * and both would wait for ever.
     */
    public int multiprocessorsPerPe() {
        return Math.max(1, deviceInfo.multiprocessors() / pesOnDevice - (service != null ? 1 : 0));
    }

    /**
     * Whether any device of this node serves several PEs of the job (this PE's or another's). The
     * same answer on every PE of the node, so choices that a collective call makes from it agree:
     * kernels that exchange data then share one device's SMs and memory rather than crossing links.
     */
    public boolean nodeSharesDevices() {
        return nodeSharesDevices;
    }

    /**
     * The warning the lowest PE on a device prints when other PEs share the device and their kernels
     * take turns in time slices (CUDA without MPS): every wait of a kernel for a peer's kernel on the
     * same device then lasts whole slices, milliseconds, and fused collectives crawl.
     */
    static Optional<String> timeSlicingWarning(int myPe, boolean[] onMyDevice, boolean together, Shim.DeviceInfo info) {
        StringBuilder pes = new StringBuilder();
        int count = 0;
        for (int pe = 0; pe < onMyDevice.length; pe++) {
            if (onMyDevice[pe]) {
                if (count++ == 0 && pe != myPe) {
                    return Optional.empty();   // a lower PE on this device says it
                }
                pes.append(count > 1 ? ", " : "").append(pe);
            }
        }
        if (count < 2 || together) {
            return Optional.empty();
        }
        return Optional.of("jshmem warning: PEs " + pes + " share " + info + " and the device runs their processes' kernels"
                + " by turns (no MPS server), so every wait of one PE's kernel for another's lasts whole time slices;"
                + " start the MPS server (nvidia-cuda-mps-control -d) before the job, or run one PE per GPU");
    }

    /** Every PE's device PCI address, PE after PE, {@link #PCI_ADDRESS_BYTES} each (collective). */
    private static byte[] pciAddresses(Bootstrap boot, String pciAddress) {
        return boot.allgather(Arrays.copyOf(pciAddress.getBytes(StandardCharsets.US_ASCII), PCI_ADDRESS_BYTES));
    }

    private static boolean sameDevice(byte[] pci, int p, int q) {
        return Arrays.equals(pci, p * PCI_ADDRESS_BYTES, (p + 1) * PCI_ADDRESS_BYTES, pci, q * PCI_ADDRESS_BYTES,
                (q + 1) * PCI_ADDRESS_BYTES);
    }

    /** Which PEs use this PE's device: the same PCI address on this node (another machine may have one alike). */
    private static boolean[] onMyDevice(byte[] pci, int myPe, boolean[] remotePe) {
        boolean[] same = new boolean[remotePe.length];
        for (int pe = 0; pe < remotePe.length; pe++) {
            same[pe] = !remotePe[pe] && sameDevice(pci, pe, myPe);
        }
        return same;
    }

    /** Whether two PEs of this node use one device: from every PE's address, so the same on each PE of the node. */
    private static boolean nodeSharesDevices(byte[] pci, boolean[] remotePe) {
        for (int p = 0; p < remotePe.length; p++) {
            for (int q = p + 1; q < remotePe.length; q++) {
                if (!remotePe[p] && !remotePe[q] && sameDevice(pci, p, q)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The device state struct ({@code jshmem_device_state_t}), for modules that bind it. */
    public MemorySegment deviceState() {
        return state;
    }

    /** Calls {@code listener} with the state now and whenever it changes (a loaded module keeps its copy current). */
    public void addStateListener(Consumer<MemorySegment> listener) {
        stateListeners.add(listener);
        listener.accept(state);
    }

    public void removeStateListener(Consumer<MemorySegment> listener) {
        stateListeners.remove(listener);
    }

    /** Copies host memory to a device address and waits: for module globals such as the device state. */
    public void upload(MemorySegment deviceDst, MemorySegment hostSrc) {
        main.upload(deviceDst, hostSrc);
    }

    /** Device address of {@code offset} in {@code pe}'s heap, as this process maps it (a PE of another node: not mapped). */
    @Override
    public MemorySegment address(int pe, long offset) {
        return MemorySegment.ofAddress(peerBase[pe] + offset);
    }

    @Override
    public long memoryBytes() {
        return deviceInfo.memoryBytes();
    }

    /** The device this PE uses. */
    public Shim.DeviceInfo deviceInfo() {
        return deviceInfo;
    }

    /** The internal stream host-called operations run on. */
    MemorySegment internalStream() {
        return stream;
    }

    @Override
    public String describe() {
        return platform.toUpperCase() + " GPU memory on " + deviceInfo
                + (remote == null ? "" : ", " + remote.describe() + " across " + nodes.nodes() + " nodes (remote transport)");
    }

    @Override
    public long heapSize() {
        return heapBytes - INTERNAL_SIZE;
    }

    @Override
    public long heapStart() {
        return INTERNAL_SIZE;
    }

    /**
     * The largest power of two not above the heap (its internal part included), from 2 MiB to
     * {@link #MAX_HEAP_ALIGNMENT}: see {@link #allocateHeap()}.
     */
    @Override
    public long heapAlignment() {
        return heapAlignment;
    }

    @Override
    public long maxHeapAlignment() {
        return MAX_HEAP_ALIGNMENT;
    }

    // ---------------------------------------------------------------- host-called operations: the default channel

    @Override
    public void put(int pe, long offset, MemorySegment src) {
        channel.put(pe, offset, src);
    }

    @Override
    public void putNbi(int pe, long offset, MemorySegment src) {
        channel.putNbi(pe, offset, src);
    }

    @Override
    public void get(MemorySegment dst, int pe, long offset) {
        channel.get(dst, pe, offset);
    }

    @Override
    public void getNbi(MemorySegment dst, int pe, long offset) {
        channel.getNbi(dst, pe, offset);
    }

    @Override
    public void copy(int dstPe, long dstOffset, int srcPe, long srcOffset, long bytes, boolean nbi) {
        channel.copy(dstPe, dstOffset, srcPe, srcOffset, bytes, nbi);
    }

    @Override
    public void copyStrided(int dstPe, long dstOffset, long dstPitch, int srcPe, long srcOffset, long srcPitch,
                            long elemBytes, long nelems) {
        channel.copyStrided(dstPe, dstOffset, dstPitch, srcPe, srcOffset, srcPitch, elemBytes, nelems);
    }

    @Override
    public void iput(int pe, long offset, long destPitch, MemorySegment src, long srcPitch, long elemBytes, long nelems) {
        channel.iput(pe, offset, destPitch, src, srcPitch, elemBytes, nelems);
    }

    @Override
    public void iget(MemorySegment dst, long dstPitch, int pe, long offset, long srcPitch, long elemBytes, long nelems) {
        channel.iget(dst, dstPitch, pe, offset, srcPitch, elemBytes, nelems);
    }

    @Override
    public void putSignal(int pe, long offset, MemorySegment src, long sigOffset, long signal, SignalOp op, boolean nbi) {
        channel.putSignal(pe, offset, src, sigOffset, signal, op, nbi);
    }

    @Override
    public void copySignal(int pe, long offset, int srcPe, long srcOffset, long bytes, long sigOffset, long signal,
                           SignalOp op, boolean nbi) {
        channel.copySignal(pe, offset, srcPe, srcOffset, bytes, sigOffset, signal, op, nbi);
    }

    @Override
    public void store(int pe, long offset, int width, long bits) {
        channel.store(pe, offset, width, bits);
    }

    @Override
    public long load(int pe, long offset, int width) {
        return channel.load(pe, offset, width);
    }

    @Override
    public int atomicInt(AtomicOp op, int pe, long offset, int value, int comparand) {
        return channel.atomicInt(op, pe, offset, value, comparand);
    }

    @Override
    public long atomicLong(AtomicOp op, int pe, long offset, long value, long comparand) {
        return channel.atomicLong(op, pe, offset, value, comparand);
    }

    @Override
    public void fence() {
        channel.fence();
    }

    @Override
    public void quiet() {
        channel.quiet();
    }

    /** A context's channel: a stream, staging and scratch of its own, so its quiet waits for its work alone. */
    @Override
    public BackendContext openContext(boolean serialized) {
        GpuChannel c = new GpuChannel(this, Shim.streamCreate());
        return remote == null ? c : new RemoteRouting(c, remote, remotePe);
    }

    @Override
    public void closeContext(BackendContext context) {
        if (context instanceof RemoteRouting r) {
            r.close();
            context = r.local();
        }
        if (context instanceof GpuChannel c && c != main) {
            c.close();
        }
    }

    /** Whether a wait for the GPU ended in an error: then quiet and close no longer wait for queued work. */
    boolean failed() {
        return failed;
    }

    @Override
    public MemorySegment localHeap() {
        return null;
    }

    @Override
    public void clearLocal(long offset, long bytes) {
        main.runAndSync(s -> Shim.memsetAsync(address(myPe, offset), 0, bytes, s));
    }

    // ---------------------------------------------------------------- on-stream operations

    /**
     * Whether an on-stream operation reaches a PE of another node: then it runs on the host once
     * {@code onStream} is idle (no kernel or copy engine reaches that PE's memory), complete on return.
     */
    private boolean staged(int pe, MemorySegment onStream) {
        if (!remotePe[pe]) {
            return false;
        }
        refuseCapture("an on-stream operation with PE " + pe + ", which is on another node,", onStream);
        Shim.streamSynchronize(onStream);
        return true;
    }

    /**
     * Throws if {@code onStream} is being captured into a graph: work that reaches PEs of other nodes
     * runs on the host, which a graph cannot hold.
     */
    private static void refuseCapture(String what, MemorySegment onStream) {
        if (Shim.capturing(onStream)) {
            throw new ShmemStateException(what + " cannot be captured in a graph: jshmem reaches PEs of other nodes"
                    + " from the host, which a graph cannot replay; capture only work among this node's PEs, or"
                    + " queue this call outside the capture");
        }
    }

    /** Enqueues a copy between heaps: see {@link #copy}. */
    @Override
    public void copyOnStream(int dstPe, long dstOffset, int srcPe, long srcOffset, long bytes, MemorySegment onStream) {
        if (staged(dstPe, onStream) || staged(srcPe, onStream)) {
            channel.copy(dstPe, dstOffset, srcPe, srcOffset, bytes, false);
            return;
        }
        copy(address(dstPe, dstOffset), address(srcPe, srcOffset), bytes, onMyDevice[dstPe], onMyDevice[srcPe], onStream);
    }

    /** Enqueues a 2D copy between heaps: the copy engines on one node, row by row through the host across nodes. */
    @Override
    public void copy2dOnStream(int dstPe, long dstOffset, long dstPitch, int srcPe, long srcOffset, long srcPitch,
                               long width, long rows, MemorySegment onStream) {
        if (staged(dstPe, onStream) || staged(srcPe, onStream)) {
            for (long i = 0; i < rows; i++) {
                channel.copy(dstPe, dstOffset + i * dstPitch, srcPe, srcOffset + i * srcPitch, width, false);
            }
            return;
        }
        Shim.memcpy2dAsync(address(dstPe, dstOffset), dstPitch, address(srcPe, srcOffset), srcPitch, width, rows,
                onStream);
    }

    @Override
    public void checkExternalBuffer(String call, MemorySegment memory) {
        long start = memory.address();
        long end = start + memory.byteSize();
        long heapStart = peerBase[myPe];
        if (start < heapStart + heapBytes && heapStart < end) {
            throw new IllegalArgumentException(call + ": 0x" + Long.toHexString(start) + " + " + memory.byteSize()
                    + " bytes overlaps this PE's symmetric heap: use the SymmetricSegment itself");
        }
        for (long at : new long[] {start, end - 1}) {
            int owner = Shim.pointerDevice(MemorySegment.ofAddress(at));
            if (owner != device) {
                throw new IllegalArgumentException(call + ": 0x" + Long.toHexString(at) + " is "
                        + (owner < 0 ? "host memory or memory " + platform.toUpperCase() + " does not know"
                                : "memory of device " + owner)
                        + "; register device memory of this PE's device " + device + " (" + platform
                        + "Malloc, a PyTorch tensor's data_ptr()), all " + memory.byteSize() + " bytes of it");
            }
        }
    }

    @Override
    public void copyExternalOnStream(int pe, long heapOffset, MemorySegment external, boolean toHeap, long bytes,
                                     MemorySegment onStream) {
        if (staged(pe, onStream)) {
            copyExternalStaged(pe, heapOffset, external, toHeap, bytes);
            return;
        }
        MemorySegment heap = address(pe, heapOffset);
        boolean heapHere = onMyDevice[pe];   // the external buffer is this device's memory (checkExternalBuffer)
        copy(toHeap ? heap : external, toHeap ? external : heap, bytes, !toHeap || heapHere, toHeap || heapHere, onStream);
    }

    /** Between device memory of this PE and a PE of another node's heap, through host memory and the transport. */
    private void copyExternalStaged(int pe, long heapOffset, MemorySegment external, boolean toHeap, long bytes) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment stage = a.allocate(Math.min(bytes, RemoteRouting.STAGE_BYTES), 64);
            for (long done = 0; done < bytes; done += stage.byteSize()) {
                MemorySegment piece = stage.asSlice(0, Math.min(stage.byteSize(), bytes - done));
                MemorySegment device = MemorySegment.ofAddress(external.address() + done);
                if (toHeap) {
                    main.runAndSync(s -> Shim.memcpyAsync(piece, device, piece.byteSize(), s));
                    channel.put(pe, heapOffset + done, piece);
                } else {
                    channel.get(piece, pe, heapOffset + done);
                    main.runAndSync(s -> Shim.memcpyAsync(device, piece, piece.byteSize(), s));
                }
            }
        }
    }

    /**
     * On-stream copies between this PE's device and another GPU in [{@link #PEER_SM_PUSH_MIN},
     * {@link #PEER_SM_COPY_MAX}] (puts) and [{@link #PEER_SM_PULL_MIN}, {@link #PEER_SM_COPY_MAX}] (gets) run on
     * the SMs, launched chained, where no GPU is shared by several PEs: there the copy engine's per-copy
     * start-up costs more than the SMs' lower peak; outside them, and launched plainly, the copy engine is as
     * fast or faster. Measured by {@code perf --form on_stream put_bw get_bw} (docs/performance.md).
     */
    private static final long PEER_SM_PUSH_MIN = 1L << 20;
    private static final long PEER_SM_PULL_MIN = 256L << 10;
    private static final long PEER_SM_COPY_MAX = 4L << 20;

    /**
     * Copies within this PE's device up to {@code JSHMEM_SM_COPY_MAX} on the SMs; between this PE's device and
     * another GPU in the sizes above (and at most {@code JSHMEM_SM_COPY_MAX}) on the SMs too, launched chained so that
     * back-to-back copies overlap their launches, where no GPU is shared by several PEs (a kernel scheduled early could
     * hold SMs a peer's kernel needs); every other copy on a copy engine. Between PEs sharing a GPU the SM kernel
     * is level with the copy engine below 4 MB and ahead from there.
     * {@code dstHere}, {@code srcHere}: whether each side is memory of this PE's device.
     */
    private void copy(MemorySegment dst, MemorySegment src, long bytes, boolean dstHere, boolean srcHere,
                      MemorySegment onStream) {
        boolean withinDevice = dstHere && srcHere;
        long peerSmMin = srcHere ? PEER_SM_PUSH_MIN : PEER_SM_PULL_MIN;   // a push from here, or a pull to here
        boolean peerOnSms = dstHere != srcHere && !nodeSharesDevices && bytes >= peerSmMin
                && bytes <= Math.min(PEER_SM_COPY_MAX, smCopyMax);
        if (withinDevice ? bytes <= smCopyMax : peerOnSms) {
            Shim.copySmAsync(dst, src, bytes, smBlocks(bytes), peerOnSms, onStream);
        } else {
            Shim.memcpyAsync(dst, src, bytes, onStream);
        }
    }

    private int smBlocks(long bytes) {
        long perBlock = 32L << 10;   // about 32 KiB of work per block, at most two blocks per SM
        return (int) Math.max(1, Math.min(2L * deviceInfo.multiprocessors(), (bytes + perBlock - 1) / perBlock));
    }

    @Override
    public void putSignalOnStream(int pe, long dstOffset, long srcOffset, long bytes, long sigOffset, long signal,
                                  SignalOp op, MemorySegment onStream) {
        if (staged(pe, onStream)) {
            channel.copySignal(pe, dstOffset, myPe, srcOffset, bytes, sigOffset, signal, op, false);
            return;
        }
        Shim.putSignalAsync(address(pe, dstOffset), address(myPe, srcOffset), bytes, address(pe, sigOffset), signal,
                op.code(), onStream);
    }

    /**
     * With PEs on other nodes, the wait runs on the host once {@code onStream} is idle: their signals
     * land through this PE's server, whose writes go through the GPU's work queues, and streams share
     * those queues (CUDA_DEVICE_MAX_CONNECTIONS, 8 by default), so a wait queued on the stream could
     * hold back the very write it waits for, and the job would hang.
     */
    @Override
    public void signalWaitOnStream(long sigOffset, Cmp cmp, long value, MemorySegment onStream) {
        if (remote != null) {
            refuseCapture("signalWaitUntilOnStream in a job across nodes", onStream);
            Shim.streamSynchronize(onStream);
            try {
                for (int step = 0; !cmp.testUnsigned(channel.load(myPe, sigOffset, Long.BYTES), value); ) {
                    step = waiter.idle(step, "signalWaitUntilOnStream");
                }
            } catch (WaitTimeoutException e) {
                throw Waiter.stuck(e, "waits until the signal at heap offset " + sigOffset + " is " + cmp + " "
                        + Long.toUnsignedString(value) + " (unsigned); it is "
                        + Long.toUnsignedString(channel.load(myPe, sigOffset, Long.BYTES)));
            }
            return;
        }
        MemorySegment sig = address(myPe, sigOffset);
        if (cmp == Cmp.GE && value == 0) {
            return;   // every signal is at least 0
        }
        // In the stream, no kernel (see StreamOperations.signalWaitUntilOnStream): EQ; GE of a power of two, which
        // the shim tests exactly as "a bit at or above it is set"; other GE below 2^63 with the stream's cyclic test
        if (cmp == Cmp.EQ || cmp == Cmp.GE && value > 0) {
            Shim.streamWaitValue64(onStream, sig, value, cmp.code());
        } else {
            Shim.signalWaitAsync(sig, cmp.code(), value, onStream);
        }
    }

    @Override
    public void atomicOnStream(AtomicOp op, int pe, long offset, int width, long value, MemorySegment onStream) {
        if (staged(pe, onStream)) {
            if (width == Integer.BYTES) {
                channel.atomicInt(op, pe, offset, (int) value, 0);
            } else {
                channel.atomicLong(op, pe, offset, value, 0);
            }
            return;
        }
        if (op == AtomicOp.SET) {   // a stream write: no kernel, which would wait for an SM behind a running GEMM
            Shim.streamWriteValue(onStream, address(pe, offset), value, width);
        } else {
            Shim.amoAsync(address(pe, offset), width, op.code(), value, onStream);
        }
    }

    @Override
    public void barrierOnStream(int teamSlot, MemorySegment onStream) {
        if (remote != null) {
            refuseCapture("barrierOnStream in a job across nodes", onStream);
            collectives().barrierOnStream(teams[teamSlot], onStream);
        } else {
            Shim.barrierAsync(teamSlot, onStream);
        }
    }

    @Override
    public void syncOnStream(int teamSlot, MemorySegment onStream) {
        if (remote != null) {
            refuseCapture("syncOnStream in a job across nodes", onStream);
            collectives().syncOnStream(teams[teamSlot], onStream);
        } else {
            Shim.syncAsync(teamSlot, onStream);
        }
    }

    // ---------------------------------------------------------------- the contract: collectives, teams, streams

    /**
     * {@link GpuCollectives} (kernels over the peers' mapped heaps), or with
     * {@code JSHMEM_COLLECTIVES=copy} {@link CopyCollectives} for the blocking forms; the on-stream
     * forms are the GPU ones. With PEs on other nodes, whose heaps no kernel reaches:
     * {@link HierarchicalCollectives} over the copies, and the on-stream forms staged on them.
     */
    @Override
    public Collectives collectives(CollectiveContext c) {
        waiter = c.waiter();
        CollectiveTuning tuning = c.config().collectiveTuning();
        if (remote != null) {
            CopyCollectives copies = new CopyCollectives(this, c.barrier());
            Collectives blocking = tuning.kind() == CollectiveTuning.Kind.COPY ? copies
                    : new HierarchicalCollectives(copies, nodes, tuning.hierarchyMin());
            collectives = new StagedStreamCollectives(blocking, this, this);
            return blocking;
        }
        GpuCollectives g = new GpuCollectives(this, c.myPe(), c.barrier(), c.waiter(), c.config().gpuCollectiveTuning());
        collectives = g;
        return tuning.kind() == CollectiveTuning.Kind.AUTO ? g : new CopyCollectives(this, c.barrier());
    }

    @Override
    public StreamCollectives collectives() {
        StreamCollectives g = collectives;
        if (g == null) {
            throw new IllegalStateException("GPU collectives are made by collectives(CollectiveContext) first");
        }
        return g;
    }

    /** Records the team in the device state and zeroes its slot's device cells here. */
    @Override
    public void teamCreated(TeamLayout t) {
        teams[t.slot()] = t;
        setTeam(t.slot(), t.start(), t.stride(), t.size());
        resetTeamCells(t.slot());
    }

    /** Waits until this PE's GPU work is done. */
    @Override
    public void teamClosing() {
        drain();
    }

    /** Removes the team from the device state. */
    @Override
    public void teamReleased(int slot) {
        setTeam(slot, 0, 0, 0);
    }

    @Override
    public Optional<StreamCapability> streams() {
        return Optional.of(this);
    }

    @Override
    public MemorySegment streamCreate() {
        return Shim.streamCreate();
    }

    @Override
    public void streamDestroy(MemorySegment s) {
        Shim.streamDestroy(s);
    }

    @Override
    public void streamSynchronize(MemorySegment s) {
        Shim.streamSynchronize(s);
    }

    @Override
    public void streamWaitEvent(MemorySegment s, MemorySegment event) {
        Shim.streamWaitEvent(s, event);
    }

    @Override
    public MemorySegment eventCreate(boolean timing) {
        return Shim.eventCreate(timing);
    }

    @Override
    public void eventDestroy(MemorySegment event) {
        Shim.eventDestroy(event);
    }

    @Override
    public void eventRecord(MemorySegment event, MemorySegment s) {
        Shim.eventRecord(event, s);
    }

    @Override
    public void eventSynchronize(MemorySegment event) {
        Shim.eventSynchronize(event);
    }

    @Override
    public float eventElapsedMillis(MemorySegment start, MemorySegment end) {
        return Shim.eventElapsedMillis(start, end);
    }

    @Override
    public void beginCapture(MemorySegment s) {
        Shim.beginCapture(s);
    }

    @Override
    public Graph endCapture(MemorySegment s) {
        return Shim.endCapture(s);
    }

    @Override
    public boolean capturing(MemorySegment s) {
        return Shim.capturing(s);
    }

    /** On one node: the runtime's kernels, which record their spans in the trace ring; across nodes the host runs them. */
    @Override
    public boolean kernelsTimeTaggedOperations() {
        return remote == null && deviceTrace != null;
    }

    @Override
    public int tagKernels(int op) {
        return Shim.traceOp(op);
    }

    @Override
    public void graphLaunch(MemorySegment graph, MemorySegment s) {
        Shim.graphLaunch(graph, s);
    }

    @Override
    public void graphDestroy(MemorySegment graph) {
        Shim.graphDestroy(graph);
    }

    @Override
    public synchronized void close() {
        if (failed) {
            // kernels may still spin on the device waiting for a dead PE: every release below would
            // wait for them; the process is ending, the driver reclaims it all
            arena.close();
            return;
        }
        RuntimeException first = null;
        for (Runnable step : new Runnable[] {
            this::closeService,
            () -> Shim.streamSynchronize(stream),
            this::stopProxy,
            this::stopServing,
            Shim::collRelease,
            this::closePeers,
            this::closeDeviceTrace,
            () -> Shim.heapFree(MemorySegment.ofAddress(rawBase[myPe])),
            main::close}) {
            try {
                step.run();
            } catch (RuntimeException e) {
                first = first == null ? e : first;
            }
        }
        arena.close();
        if (first != null) {
            throw first;
        }
    }

    private void closeDeviceTrace() {
        if (deviceTrace != null) {
            deviceTrace.close();
        }
    }

    /** The spans this PE's kernels recorded (compiled with JSHMEM_DEVICE_TRACE=1), on the host's clock. */
    @Override
    public void drainDeviceTrace(DeviceSpans into) {
        if (deviceTrace != null) {
            deviceTrace.drain(into);
        }
    }

    private void closePeers() {
        for (int pe = 0; pe < nPes; pe++) {
            if (pe != myPe && !remotePe[pe] && rawBase[pe] != 0) {   // 0: not mapped (a start that failed)
                Shim.ipcClose(MemorySegment.ofAddress(rawBase[pe]));
            }
        }
    }

    private void closeService() {
        if (service != null) {
            service.close();
        }
    }

    /** This PE's kernels have ended (the core's closing barrier drained them): their calls to other nodes too. */
    private void stopProxy() {
        if (proxy != null) {
            proxy.close();
        }
    }

    /** Other nodes' operations on this heap end here (the core's closing barrier came after their last). */
    private void stopServing() {
        if (remote != null) {
            remote.serveDeviceHeap(null);
            heapTarget.close();
            ((RemoteRouting) channel).close();
        }
    }

    private static long roundUp(long v, long m) {
        return (v + m - 1) / m * m;
    }
}
