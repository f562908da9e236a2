package org.jshmem.gpu.shim;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import org.jshmem.GpuException;
import org.jshmem.spi.StreamCapability;

/**
 * The native shim ({@code libjshmem_cuda.so} or {@code libjshmem_hip.so}, one C source):
 * a method handle per function, and Java wrappers that turn its {@code -1} returns into a
 * {@link GpuException} carrying the shim's message ("cudaMemcpyAsync: invalid argument ...").
 * The platform is fixed by {@link ShimPlatform#choose} before this class is first used.
 * Pointers, streams, events and modules are {@link MemorySegment} addresses.
 */
public final class Shim {
    private static final Linker LINKER = Linker.nativeLinker();

    static {
        ShimPlatform.prepareEnvironment();
    }

    private static final SymbolLookup LIB = NativeLibraries.load(ShimPlatform.chosenLibrary());
    private static final FunctionDescriptor INT_ADDR = FunctionDescriptor.of(JAVA_INT, ADDRESS);

    private static final MethodHandle LAST_ERROR = h("jshmem_rt_last_error", FunctionDescriptor.of(ADDRESS));
    private static final MethodHandle DEVICE_COUNT = h("jshmem_rt_device_count", INT_ADDR);
    private static final MethodHandle SET_DEVICE = h("jshmem_rt_set_device", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    private static final MethodHandle DEVICE_INFO = h("jshmem_rt_device_info", FunctionDescriptor.of(JAVA_INT,
            JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS));
    private static final MethodHandle RUNS_PROCESSES_TOGETHER = h("jshmem_rt_device_runs_processes_together",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS));
    private static final MethodHandle CAN_ACCESS_PEER = h("jshmem_rt_can_access_peer",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS));
    private static final MethodHandle POINTER_DEVICE = h("jshmem_rt_pointer_device",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle DEVICE_SYNCHRONIZE = h("jshmem_rt_device_synchronize", FunctionDescriptor.of(JAVA_INT));
    private static final MethodHandle HEAP_ALLOC = h("jshmem_rt_heap_alloc", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS));
    private static final MethodHandle HEAP_FREE = h("jshmem_rt_heap_free", INT_ADDR);
    private static final MethodHandle IPC_EXPORT = h("jshmem_rt_ipc_export",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
    private static final MethodHandle IPC_IMPORT = h("jshmem_rt_ipc_import",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS));
    private static final MethodHandle IPC_CLOSE = h("jshmem_rt_ipc_close", INT_ADDR);
    private static final MethodHandle MEMSET_ASYNC = h("jshmem_rt_memset_async",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG, ADDRESS));
    private static final MethodHandle HOST_ALLOC = h("jshmem_rt_host_alloc", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS));
    private static final MethodHandle HOST_FREE = h("jshmem_rt_host_free", INT_ADDR);
    private static final MethodHandle HOST_REGISTER = h("jshmem_rt_host_register",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
    private static final MethodHandle HOST_UNREGISTER = h("jshmem_rt_host_unregister", INT_ADDR);
    private static final MethodHandle STREAM_CREATE = h("jshmem_rt_stream_create", INT_ADDR);
    private static final MethodHandle STREAM_DESTROY = h("jshmem_rt_stream_destroy", INT_ADDR);
    private static final MethodHandle STREAM_SYNCHRONIZE = h("jshmem_rt_stream_synchronize", INT_ADDR);
    private static final MethodHandle EVENT_CREATE = h("jshmem_rt_event_create", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
    private static final MethodHandle EVENT_DESTROY = h("jshmem_rt_event_destroy", INT_ADDR);
    private static final MethodHandle EVENT_RECORD = h("jshmem_rt_event_record", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle EVENT_SYNCHRONIZE = h("jshmem_rt_event_synchronize", INT_ADDR);
    private static final MethodHandle EVENT_ELAPSED = h("jshmem_rt_event_elapsed_ms",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
    private static final MethodHandle STREAM_WAIT_EVENT = h("jshmem_rt_stream_wait_event",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle MEMCPY_ASYNC = h("jshmem_rt_memcpy_async",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS));
    private static final MethodHandle MEMCPY2D_ASYNC = h("jshmem_rt_memcpy2d_async", FunctionDescriptor.of(JAVA_INT,
            ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS));
    private static final MethodHandle WAIT_VALUE64 = h("jshmem_rt_stream_wait_value64",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT));
    private static final MethodHandle WRITE_VALUE = h("jshmem_rt_stream_write_value",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT));
    private static final MethodHandle AMO = h("jshmem_rt_amo", FunctionDescriptor.of(JAVA_INT,
            ADDRESS, JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG, ADDRESS, ADDRESS));
    private static final MethodHandle SET_STATE = h("jshmem_rt_set_state", INT_ADDR);
    private static final MethodHandle COPY_SM_ASYNC = h("jshmem_rt_copy_sm_async",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, ADDRESS));
    private static final MethodHandle COPY_STRIDED_ASYNC = h("jshmem_rt_copy_strided_async", FunctionDescriptor.of(
            JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS));
    private static final MethodHandle PUT_SIGNAL_ASYNC = h("jshmem_rt_put_signal_async", FunctionDescriptor.of(JAVA_INT,
            ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS));
    private static final MethodHandle SIGNAL_WAIT_ASYNC = h("jshmem_rt_signal_wait_async",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG, ADDRESS));
    private static final MethodHandle BARRIER_ASYNC = h("jshmem_rt_barrier_async",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS));
    private static final MethodHandle SYNC_ASYNC = h("jshmem_rt_sync_async", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS));
    private static final MethodHandle GPU_TIME = h("jshmem_rt_gpu_time", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle BEGIN_CAPTURE = h("jshmem_rt_stream_begin_capture", INT_ADDR);
    private static final MethodHandle END_CAPTURE = h("jshmem_rt_stream_end_capture",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
    private static final MethodHandle CAPTURING = h("jshmem_rt_stream_capturing",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle GRAPH_LAUNCH = h("jshmem_rt_graph_launch",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle GRAPH_DESTROY = h("jshmem_rt_graph_destroy", INT_ADDR);
    private static final MethodHandle STREAM_QUERY = h("jshmem_rt_stream_query", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle SERVICE_OPEN = h("jshmem_rt_service_open",
            FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS, ADDRESS));
    private static final MethodHandle SERVICE_CHECK = h("jshmem_rt_service_check", FunctionDescriptor.of(JAVA_INT));
    private static final MethodHandle SERVICE_STOP = h("jshmem_rt_service_stop", FunctionDescriptor.of(JAVA_INT));
    private static final MethodHandle SERVICE_CLOSE = h("jshmem_rt_service_close", FunctionDescriptor.of(JAVA_INT));
    private static final MethodHandle COLL_REDUCE = h("jshmem_rt_coll_reduce_async", FunctionDescriptor.of(JAVA_INT,
            JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS));
    private static final MethodHandle COLL_REDUCE_SCATTER = h("jshmem_rt_coll_reducescatter_async",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT,
                    JAVA_INT, ADDRESS));
    private static final MethodHandle COLL_FCOLLECT = h("jshmem_rt_coll_fcollect_async", FunctionDescriptor.of(JAVA_INT,
            JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS));
    private static final MethodHandle COLL_COLLECT = h("jshmem_rt_coll_collect_async", FunctionDescriptor.of(JAVA_INT,
            JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS));
    private static final MethodHandle COLL_ALLTOALL = h("jshmem_rt_coll_alltoall_async", FunctionDescriptor.of(JAVA_INT,
            JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS));
    private static final MethodHandle COLL_BROADCAST = h("jshmem_rt_coll_broadcast_async", FunctionDescriptor.of(JAVA_INT,
            JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS));
    private static final MethodHandle COLL_RELEASE = h("jshmem_rt_coll_release", FunctionDescriptor.of(JAVA_INT));
    private static final MethodHandle MODULE_LOAD = h("jshmem_rt_module_load", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle MODULE_UNLOAD = h("jshmem_rt_module_unload", INT_ADDR);
    private static final MethodHandle MODULE_FUNCTION = h("jshmem_rt_module_function",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
    private static final MethodHandle MODULE_GLOBAL = h("jshmem_rt_module_global",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS));
    private static final MethodHandle LAUNCH = h("jshmem_rt_launch", FunctionDescriptor.of(JAVA_INT, ADDRESS,
            JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));
    private static final MethodHandle MAX_BLOCKS_PER_SM = h("jshmem_rt_func_max_blocks_per_sm",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS));
    private static final MethodHandle MAX_ACTIVE_CLUSTERS = h("jshmem_rt_func_max_active_clusters",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS));
    private static final MethodHandle AMO_ASYNC = h("jshmem_rt_amo_async", FunctionDescriptor.of(JAVA_INT, ADDRESS,
            JAVA_INT, JAVA_INT, JAVA_LONG, ADDRESS));
    private static final MethodHandle SET_MAX_DYNAMIC_SHARED = h("jshmem_rt_func_set_max_dynamic_shared",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
    private static final MethodHandle RTC_COMPILE = h("jshmem_rt_rtc_compile", FunctionDescriptor.of(JAVA_INT,
            ADDRESS, ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
    private static final MethodHandle FREE_BUFFER = h("jshmem_rt_free_buffer", FunctionDescriptor.ofVoid(ADDRESS));
    /** Critical: a thread-local store, on every traced operation. */
    private static final MethodHandle TRACE_OP = h("jshmem_rt_trace_op", FunctionDescriptor.of(JAVA_INT, JAVA_INT),
            Linker.Option.critical(false));
    private static final MethodHandle TRACE_OPS_RING = h("jshmem_rt_trace_ops_ring",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
    private static final MethodHandle TRACE_OPS_TAKEN = h("jshmem_rt_trace_ops_taken",
            FunctionDescriptor.ofVoid(ADDRESS, ADDRESS));
    /** Critical: a short host loop, no thread-state transition, and Java arrays may be passed. */
    private static final MethodHandle COPY_STRIDED_HOST = h("jshmem_rt_copy_strided_host",
            FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_LONG),
            Linker.Option.critical(true));

    private Shim() {
    }

    private static MethodHandle h(String name, FunctionDescriptor fd, Linker.Option... options) {
        MemorySegment symbol = LIB.find(name).orElseThrow(() -> new IllegalStateException(
                "the native shim " + ShimPlatform.chosenLibrary() + " has no function " + name + " (stale build?)"));
        return LINKER.downcallHandle(symbol, fd, options);
    }

    /** Turns a shim return code into an exception naming {@code call} and the shim's message. */
    static void check(int rc, String call) {
        if (rc != 0) {
            throw new GpuException(call + " failed: " + lastError());
        }
    }

    static String lastError() {
        try {
            MemorySegment s = (MemorySegment) LAST_ERROR.invokeExact();
            return s.equals(MemorySegment.NULL) ? "(no message)" : s.reinterpret(4096).getString(0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** A native call that returns the shim's 0 / -1. */
    @FunctionalInterface
    private interface NativeCall {
        int run() throws Throwable;
    }

    /**
     * Runs a native call; a -1 becomes a {@link GpuException} naming {@code what}. For set-up calls: the
     * calls made per operation (copies, events, stream memory operations) invoke their handle directly
     * and build their error text only on failure, so that they allocate nothing.
     */
    private static void call(String what, NativeCall c) {
        int rc;
        try {
            rc = c.run();
        } catch (Throwable t) {
            throw rethrow(t);
        }
        check(rc, what);
    }

    static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException(t);
    }

    // ---------------------------------------------------------------- devices

    /** "cuda" or "hip": the platform this process's shim is built for. */
    public static String platform() {
        return ShimPlatform.chosen();
    }

    public static int deviceCount() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment n = a.allocate(JAVA_INT);
            call("device count", () -> (int) DEVICE_COUNT.invokeExact(n));
            return n.get(JAVA_INT, 0);
        }
    }

    public static void setDevice(int device) {
        call("set device " + device, () -> (int) SET_DEVICE.invokeExact(device));
    }

    /**
     * Name, PCI address ({@code domain:bus:device}, which names the device in every process, unlike
     * the ordinal), compute capability, multiprocessors and memory of a device.
     */
    public record DeviceInfo(int ordinal, String name, String pciAddress, int ccMajor, int ccMinor, int multiprocessors,
                             long memoryBytes) {
        @Override
        public String toString() {
            return name + " (device " + ordinal + ", PCI " + pciAddress + ", cc " + ccMajor + "." + ccMinor + ", "
                    + multiprocessors + " SMs, " + memoryBytes / (1L << 30) + " GiB)";
        }
    }

    public static DeviceInfo deviceInfo(int device) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment name = a.allocate(256);
            MemorySegment pci = a.allocate(32);
            MemorySegment ints = a.allocate(JAVA_INT, 3);
            MemorySegment mem = a.allocate(JAVA_LONG);
            call("device info " + device, () -> (int) DEVICE_INFO.invokeExact(device, name, 256, pci, 32, ints,
                    ints.asSlice(4), ints.asSlice(8), mem));
            return new DeviceInfo(device, name.getString(0), pci.getString(0), ints.get(JAVA_INT, 0), ints.get(JAVA_INT, 4),
                    ints.get(JAVA_INT, 8), mem.get(JAVA_LONG, 0));
        }
    }

    /**
     * Whether kernels of several processes on {@code device} run side by side (CUDA: the MPS server
     * serves it; HIP: always), rather than taking turns in time slices.
     */
    public static boolean runsProcessesTogether(int device) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment yes = a.allocate(JAVA_INT);
            call("process concurrency query " + device, () -> (int) RUNS_PROCESSES_TOGETHER.invokeExact(device, yes));
            return yes.get(JAVA_INT, 0) != 0;
        }
    }

    public static boolean canAccessPeer(int device, int peer) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment can = a.allocate(JAVA_INT);
            call("peer access query " + device + "->" + peer, () -> (int) CAN_ACCESS_PEER.invokeExact(device, peer, can));
            return can.get(JAVA_INT, 0) != 0;
        }
    }

    /**
     * Copies {@code n} elements of {@code elem} bytes between host segments (native or Java
     * arrays): element i from {@code src + i * srcPitch} to {@code dst + i * dstPitch}. The caller
     * has checked that both ranges lie inside their segments.
     */
    public static void copyStridedHost(MemorySegment dst, long dstPitch, MemorySegment src, long srcPitch, long elem,
                                       long n) {
        try {
            COPY_STRIDED_HOST.invokeExact(dst, dstPitch, src, srcPitch, elem, n);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** The device whose memory {@code address} is (device or managed memory), or -1 for host memory. */
    public static int pointerDevice(MemorySegment address) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment device = a.allocate(JAVA_INT);
            call("pointer attributes of 0x" + Long.toHexString(address.address()),
                    () -> (int) POINTER_DEVICE.invokeExact(address, device));
            return device.get(JAVA_INT, 0);
        }
    }

    public static void deviceSynchronize() {
        call("device synchronize", () -> (int) DEVICE_SYNCHRONIZE.invokeExact());
    }

    // ---------------------------------------------------------------- memory

    /** Allocates fine-grained, IPC-exportable device memory (through finegrained-alloc). */
    public static MemorySegment heapAlloc(long bytes) {
        return outPointer(HEAP_ALLOC, bytes, "allocate " + bytes + " bytes of device memory");
    }

    public static void heapFree(MemorySegment ptr) {
        callPtr(HEAP_FREE, ptr, "free device memory");
    }

    /** Writes the IPC handle of {@code ptr} into {@code handle}; returns its length. */
    public static long ipcExport(MemorySegment ptr, MemorySegment handle) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment len = a.allocate(JAVA_LONG);
            len.set(JAVA_LONG, 0, handle.byteSize());
            call("export IPC handle", () -> (int) IPC_EXPORT.invokeExact(ptr, handle, len));
            return len.get(JAVA_LONG, 0);
        }
    }

    public static MemorySegment ipcImport(MemorySegment handle, long length, String what) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            call("open IPC handle of " + what, () -> (int) IPC_IMPORT.invokeExact(handle, length, out));
            return out.get(ADDRESS, 0);
        }
    }

    public static void ipcClose(MemorySegment ptr) {
        callPtr(IPC_CLOSE, ptr, "close IPC mapping");
    }

    public static void memsetAsync(MemorySegment ptr, int value, long bytes, MemorySegment stream) {
        int rc;
        try {
            rc = (int) MEMSET_ASYNC.invokeExact(ptr, value, bytes, stream);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != 0) {
            check(rc, "memset " + bytes + " bytes");
        }
    }

    /** Pinned (page-locked) host memory, as a segment of {@code bytes}. */
    public static MemorySegment hostAlloc(long bytes) {
        return outPointer(HOST_ALLOC, bytes, "allocate " + bytes + " bytes of pinned host memory").reinterpret(bytes);
    }

    public static void hostFree(MemorySegment ptr) {
        callPtr(HOST_FREE, ptr, "free pinned host memory");
    }

    /** Page-locks host memory that was allocated elsewhere, until {@link #hostUnregister}. */
    public static void hostRegister(MemorySegment memory) {
        long bytes = memory.byteSize();
        call("page-lock " + bytes + " bytes of host memory", () -> (int) HOST_REGISTER.invokeExact(memory, bytes));
    }

    public static void hostUnregister(MemorySegment memory) {
        callPtr(HOST_UNREGISTER, memory, "unlock host memory");
    }

    // ---------------------------------------------------------------- streams and events

    public static MemorySegment streamCreate() {
        return outPointer(STREAM_CREATE, "create stream");
    }

    public static void streamDestroy(MemorySegment stream) {
        callPtr(STREAM_DESTROY, stream, "destroy stream");
    }

    public static void streamSynchronize(MemorySegment stream) {
        callPtr(STREAM_SYNCHRONIZE, stream, "synchronize stream");
    }

    /**
     * Whether everything queued on {@code stream} has finished; {@code out} is 4 bytes of native
     * memory the call may use (so that polling allocates nothing).
     */
    public static boolean streamQuery(MemorySegment stream, MemorySegment out) {
        int rc;
        try {
            rc = (int) STREAM_QUERY.invokeExact(stream, out);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        check(rc, "query stream");
        return out.get(JAVA_INT, 0) != 0;
    }

    public static MemorySegment eventCreate(boolean timing) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            call("create event", () -> (int) EVENT_CREATE.invokeExact(out, timing ? 1 : 0));
            return out.get(ADDRESS, 0);
        }
    }

    public static void eventDestroy(MemorySegment event) {
        callPtr(EVENT_DESTROY, event, "destroy event");
    }

    public static void eventRecord(MemorySegment event, MemorySegment stream) {
        callPtrs(EVENT_RECORD, event, stream, "record event");
    }

    public static void eventSynchronize(MemorySegment event) {
        callPtr(EVENT_SYNCHRONIZE, event, "synchronize event");
    }

    public static float eventElapsedMillis(MemorySegment start, MemorySegment end) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment ms = a.allocate(JAVA_FLOAT);
            call("event elapsed time", () -> (int) EVENT_ELAPSED.invokeExact(start, end, ms));
            return ms.get(JAVA_FLOAT, 0);
        }
    }

    public static void streamWaitEvent(MemorySegment stream, MemorySegment event) {
        callPtrs(STREAM_WAIT_EVENT, stream, event, "stream wait event");
    }

    /**
     * The GPU clock (the device library's {@code jshmemi_now_ns}), read by a one-thread kernel on
     * {@code stream} into {@code out} (8 bytes of pinned, mapped host memory); returns once it is there.
     */
    public static long gpuTime(MemorySegment out, MemorySegment stream) {
        callPtrs(GPU_TIME, out, stream, "read the GPU clock");
        return out.get(JAVA_LONG, 0);
    }

    // ---------------------------------------------------------------- graphs (stream capture)

    /** Starts capturing {@code stream} into a graph (thread-local capture mode). */
    public static void beginCapture(MemorySegment stream) {
        callPtr(BEGIN_CAPTURE, stream, "begin stream capture");
    }

    /** Ends the capture of {@code stream} and instantiates its graph. */
    public static StreamCapability.Graph endCapture(MemorySegment stream) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment exec = a.allocate(ADDRESS);
            MemorySegment nodes = a.allocate(JAVA_LONG);
            call("end stream capture", () -> (int) END_CAPTURE.invokeExact(stream, exec, nodes));
            return new StreamCapability.Graph(exec.get(ADDRESS, 0), nodes.get(JAVA_LONG, 0));
        }
    }

    /**
     * Tags the runtime kernels this thread queues from now on with traced operation {@code op} (0: none);
     * returns how many kernels were queued under the tag it replaces (outside graph captures).
     */
    public static int traceOp(int op) {
        try {
            return (int) TRACE_OP.invokeExact(op);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * Gives the runtime's kernels {@code capacity} records at {@code records} (device memory, zeroed) for
     * the blocks of traced operations; {@link MemorySegment#NULL} and 0: none. Resets the counts.
     */
    public static void traceOpsRing(MemorySegment records, long capacity) {
        call("set the traced operations' records", () -> (int) TRACE_OPS_RING.invokeExact(records, capacity));
    }

    /** The records the traced operations' blocks reserved so far, and the blocks that found none left. */
    public static long[] traceOpsTaken() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment reserved = a.allocate(JAVA_LONG);
            MemorySegment lost = a.allocate(JAVA_LONG);
            TRACE_OPS_TAKEN.invokeExact(reserved, lost);
            return new long[] {reserved.get(JAVA_LONG, 0), lost.get(JAVA_LONG, 0)};
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Whether {@code stream} is being captured, by jshmem or anyone else. */
    public static boolean capturing(MemorySegment stream) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(JAVA_INT);
            callPtrs(CAPTURING, stream, out, "query stream capture");
            return out.get(JAVA_INT, 0) != 0;
        }
    }

    public static void graphLaunch(MemorySegment graph, MemorySegment stream) {
        callPtrs(GRAPH_LAUNCH, graph, stream, "launch graph");
    }

    public static void graphDestroy(MemorySegment graph) {
        callPtr(GRAPH_DESTROY, graph, "destroy graph");
    }

    // ---------------------------------------------------------------- copies and stream memory operations

    /** Copies between any host or device addresses (the runtime infers the direction), in stream order. */
    public static void memcpyAsync(MemorySegment dst, MemorySegment src, long bytes, MemorySegment stream) {
        int rc;
        try {
            rc = (int) MEMCPY_ASYNC.invokeExact(dst, src, bytes, stream);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != 0) {
            check(rc, "copy of " + bytes + " bytes");
        }
    }

    public static void memcpy2dAsync(MemorySegment dst, long dpitch, MemorySegment src, long spitch, long width,
                                     long height, MemorySegment stream) {
        int rc;
        try {
            rc = (int) MEMCPY2D_ASYNC.invokeExact(dst, dpitch, src, spitch, width, height, stream);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != 0) {
            check(rc, "strided copy of " + height + " x " + width + " bytes");
        }
    }

    /**
     * Makes the stream wait until the 64-bit word at {@code addr} is EQ, or (unsigned) GE, {@code value}
     * (cmp code): GE of a power of two exactly, of another value in 1 .. 2<sup>63</sup>-1 with the
     * stream's cyclic test ({@code jshmem_rt_stream_wait_value64}).
     */
    public static void streamWaitValue64(MemorySegment stream, MemorySegment addr, long value, int cmp) {
        callStreamValue(WAIT_VALUE64, stream, addr, value, cmp, "stream wait value");
    }

    /**
     * Writes the low {@code width} bytes (4 or 8) of {@code value} to {@code addr} (aligned to the
     * width) once the stream's earlier work is complete and visible. The value is part of the
     * stream's command: nothing on the host has to stay alive.
     */
    public static void streamWriteValue(MemorySegment stream, MemorySegment addr, long value, int width) {
        callStreamValue(WRITE_VALUE, stream, addr, value, width, "stream write value");
    }

    /**
     * An atomic on device memory at system scope, by a one-thread kernel on {@code stream}; waits for
     * it. The kernel writes the old value into {@code old}, pinned memory from {@link #hostAlloc}
     * (the device writes it), unless {@code old} is NULL.
     */
    public static void amo(MemorySegment addr, int width, int op, long value, long comparand, MemorySegment old,
                           MemorySegment stream) {
        int rc;
        try {
            rc = (int) AMO.invokeExact(addr, width, op, value, comparand, old, stream);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        check(rc, "atomic");
    }

    // ---------------------------------------------------------------- helper kernels (kernels.cu)

    /** Copies the device state into the shim's own module. */
    public static void setState(MemorySegment state) {
        callPtr(SET_STATE, state, "set device state");
    }

    /**
     * Copies {@code bytes} with a kernel of {@code blocks} blocks ({@code <= 0}: sized by the shim), in stream order;
     * {@code chained}: launched chained (programmatic dependent launch, where the device takes it), which is safe
     * only where no other PE's kernels share this GPU.
     */
    public static void copySmAsync(MemorySegment dst, MemorySegment src, long bytes, int blocks, boolean chained,
                                   MemorySegment stream) {
        int rc;
        try {
            rc = (int) COPY_SM_ASYNC.invokeExact(dst, src, bytes, blocks, chained ? 1 : 0, stream);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != 0) {
            check(rc, "SM copy of " + bytes + " bytes");
        }
    }

    /** Kernel copy of {@code n} elements of {@code elem} bytes, element i from {@code src + i*srcPitch} to {@code dst + i*dstPitch}. */
    public static void copyStridedAsync(MemorySegment dst, long dstPitch, MemorySegment src, long srcPitch, long elem,
                                        long n, MemorySegment stream) {
        int rc;
        try {
            rc = (int) COPY_STRIDED_ASYNC.invokeExact(dst, dstPitch, src, srcPitch, elem, n, stream);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        check(rc, "strided copy");
    }

    public static void putSignalAsync(MemorySegment dst, MemorySegment src, long bytes, MemorySegment signal, long value,
                                      int op, MemorySegment stream) {
        int rc;
        try {
            rc = (int) PUT_SIGNAL_ASYNC.invokeExact(dst, src, bytes, signal, value, op, stream);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        check(rc, "put with signal");
    }

    public static void signalWaitAsync(MemorySegment signal, int cmp, long value, MemorySegment stream) {
        int rc;
        try {
            rc = (int) SIGNAL_WAIT_ASYNC.invokeExact(signal, cmp, value, stream);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        check(rc, "signal wait on stream");
    }

    public static void barrierAsync(int teamSlot, MemorySegment stream) {
        callSlotStream(BARRIER_ASYNC, teamSlot, stream, "barrier on stream");
    }

    public static void syncAsync(int teamSlot, MemorySegment stream) {
        callSlotStream(SYNC_ASYNC, teamSlot, stream, "sync on stream");
    }

    // ---------------------------------------------------------------- collectives on a stream (coll_kernels.cu)
    // Codes: DType and ReduceOp ordinals (JSHMEM_DTYPE_*, JSHMEM_REDUCE_*). blocks 0: one fused
    // block; n > 0: a kernel of n blocks and a sync kernel; rotated (such a kernel, 3+ members): the
    // members read one at a time (coll_kernels.cu). ceLanes > 0: the pieces as memcpyAsync
    // on that many side streams (blocks ignored); push: this PE's pieces written to the members.
    // Reduction shape: org.jshmem.gpu.ReduceShape ordinal (JSHMEM_RT_REDUCE_*).

    // ---------------------------------------------------------------- the service kernel (coll_service.cuh)

    /** Offset in the service's box of the number of the last command posted. */
    public static final long SERVICE_POSTED = 0;
    /** Offset in the service's box of the number of the last command done. */
    public static final long SERVICE_DONE = 64;

    /**
     * The service kernel's box (mapped pinned host memory: {@link #SERVICE_POSTED}, {@link #SERVICE_DONE}) and
     * the stream that the served collectives are given.
     */
    public record Service(MemorySegment box, MemorySegment stream) {}

    /** Opens this process's service kernel, which returns after {@code lingerMicros} without a command. */
    public static Service serviceOpen(long lingerMicros) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment box = a.allocate(ADDRESS), stream = a.allocate(ADDRESS);
            call("open the service kernel", () -> (int) SERVICE_OPEN.invokeExact(lingerMicros, box, stream));
            return new Service(box.get(ADDRESS, 0).reinterpret(SERVICE_DONE + Long.BYTES), stream.get(ADDRESS, 0));
        }
    }

    /** While a served command is waited for: fails if the kernel faulted, relaunches it if it returned first. */
    public static void serviceCheck() {
        int rc;
        try {
            rc = (int) SERVICE_CHECK.invokeExact();
        } catch (Throwable t) {
            throw rethrow(t);
        }
        check(rc, "check the service kernel");
    }

    /** Ends the service kernel until the next command (before a wait for the whole device). */
    public static void serviceStop() {
        call("stop the service kernel", () -> (int) SERVICE_STOP.invokeExact());
    }

    /** Ends the service kernel and frees its box and stream. */
    public static void serviceClose() {
        call("close the service kernel", () -> (int) SERVICE_CLOSE.invokeExact());
    }

    /**
     * All-reduce of {@code nelems} elements in {@code shape} (a {@code ReduceShape} ordinal); ceLanes > 0 (two-shot):
     * peers' parts of this PE's slice pulled and its reduced slice pushed by copy engines, reduced locally.
     */
    public static void collReduce(int slot, int dtype, int op, MemorySegment dest, MemorySegment src, long nelems,
                                  int shape, int blocks, int ceLanes, boolean rotated, MemorySegment stream) {
        int rc;
        try {
            rc = (int) COLL_REDUCE.invokeExact(slot, dtype, op, dest, src, nelems, shape, blocks, ceLanes,
                    rotated ? 1 : 0, stream);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        check(rc, "reduction on a stream");
    }

    /** Reduce-scatter of {@code nelemsPerPe} elements per member; ceLanes > 0: peers' blocks pulled by copy engines, reduced locally. */
    public static void collReduceScatter(int slot, int dtype, int op, MemorySegment dest, MemorySegment src,
                                         long nelemsPerPe, int blocks, int ceLanes, boolean rotated,
                                         MemorySegment stream) {
        int rc;
        try {
            rc = (int) COLL_REDUCE_SCATTER.invokeExact(slot, dtype, op, dest, src, nelemsPerPe, blocks, ceLanes,
                    rotated ? 1 : 0, stream);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        check(rc, "reduce-scatter on a stream");
    }

    public static void collFcollect(int slot, MemorySegment dest, MemorySegment src, long bytes, int blocks,
                                    int ceLanes, boolean push, MemorySegment stream) {
        int rc;
        try {
            rc = (int) COLL_FCOLLECT.invokeExact(slot, dest, src, bytes, blocks, ceLanes, push ? 1 : 0, stream);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        check(rc, "fcollect on a stream");
    }

    /** {@code offsets}: native array of team size + 1 {@code size_t} byte offsets into dest. */
    public static void collCollect(int slot, MemorySegment dest, MemorySegment src, MemorySegment offsets, int blocks,
                                   int ceLanes, boolean push, MemorySegment stream) {
        int rc;
        try {
            rc = (int) COLL_COLLECT.invokeExact(slot, dest, src, offsets, blocks, ceLanes, push ? 1 : 0, stream);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        check(rc, "collect on a stream");
    }

    public static void collAlltoall(int slot, MemorySegment dest, MemorySegment src, long bytesPerPe, int blocks,
                                    int ceLanes, boolean push, MemorySegment stream) {
        int rc;
        try {
            rc = (int) COLL_ALLTOALL.invokeExact(slot, dest, src, bytesPerPe, blocks, ceLanes, push ? 1 : 0, stream);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        check(rc, "alltoall on a stream");
    }

    public static void collBroadcast(int slot, MemorySegment dest, MemorySegment src, long bytes, int root, int blocks,
                                     int ceLanes, MemorySegment stream) {
        int rc;
        try {
            rc = (int) COLL_BROADCAST.invokeExact(slot, dest, src, bytes, root, blocks, ceLanes, stream);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        check(rc, "broadcast on a stream");
    }

    /** Destroys the side streams of the copy-engine collectives (made on first use). */
    public static void collRelease() {
        call("release the collectives' side streams", () -> (int) COLL_RELEASE.invokeExact());
    }

    // ---------------------------------------------------------------- modules, launches, run-time compilation

    public static MemorySegment moduleLoad(MemorySegment image) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            call("load module (" + image.byteSize() + " bytes)", () -> (int) MODULE_LOAD.invokeExact(image, out));
            return out.get(ADDRESS, 0);
        }
    }

    public static void moduleUnload(MemorySegment module) {
        callPtr(MODULE_UNLOAD, module, "unload module");
    }

    public static MemorySegment moduleFunction(MemorySegment module, String name) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            MemorySegment cname = a.allocateFrom(name);
            call("find kernel " + name, () -> (int) MODULE_FUNCTION.invokeExact(module, cname, out));
            return out.get(ADDRESS, 0);
        }
    }

    /** The device address and size of global {@code name} in a module, or NULL if absent. */
    public static MemorySegment moduleGlobal(MemorySegment module, String name) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment ptr = a.allocate(ADDRESS);
            MemorySegment size = a.allocate(JAVA_LONG);
            int rc = (int) MODULE_GLOBAL.invokeExact(module, a.allocateFrom(name), ptr, size);
            return rc != 0 ? MemorySegment.NULL : ptr.get(ADDRESS, 0).reinterpret(size.get(JAVA_LONG, 0));
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** How {@link #launch} launches: shim.h's {@code JSHMEM_LAUNCH_*}, in the same order. */
    public enum LaunchMode {
        /** Queued behind the stream's earlier work. */
        PLAIN,
        /** Every block resident at once (the caller has checked that the grid fits). */
        COOPERATIVE,
        /**
         * A programmatic dependent launch where the device takes it (CUDA, compute capability 9.0+,
         * {@code JSHMEM_GPU_LAUNCH_CHAINING} not 0), else plain: the kernel waits for the stream's
         * previous kernel itself ({@code griddepcontrol.wait}).
         */
        CHAINED
    }

    /** Launches {@code function} in {@code mode}; {@code args} holds one pointer per kernel parameter. */
    public static void launch(MemorySegment function, int gx, int gy, int gz, int bx, int by, int bz, int sharedBytes,
                              MemorySegment stream, MemorySegment args, String kernel, LaunchMode mode) {
        int rc;
        try {
            rc = (int) LAUNCH.invokeExact(function, gx, gy, gz, bx, by, bz, sharedBytes, stream, args, mode.ordinal());
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != 0) {
            check(rc, switch (mode) {
                case PLAIN -> "launch of ";
                case COOPERATIVE -> "cooperative launch of ";
                case CHAINED -> "chained launch of ";
            } + kernel + " <<<(" + gx + "," + gy + "," + gz + "), (" + bx + "," + by + "," + bz + "), " + sharedBytes
                    + ">>>");
        }
    }

    /** Blocks of {@code blockThreads} threads with {@code sharedBytes} of dynamic shared memory one multiprocessor holds at once. */
    public static int maxBlocksPerMultiprocessor(MemorySegment function, int blockThreads, int sharedBytes) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(JAVA_INT);
            call("occupancy query", () -> (int) MAX_BLOCKS_PER_SM.invokeExact(function, blockThreads, sharedBytes, out));
            return out.get(JAVA_INT, 0);
        }
    }

    /**
     * How many clusters of {@code cluster} blocks (the kernel's compile-time cluster size) the whole
     * device holds at once for {@code function} ({@code cuOccupancyMaxActiveClusters}); CUDA only.
     */
    public static int maxActiveClusters(MemorySegment function, int cluster, int blockThreads, int sharedBytes) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(JAVA_INT);
            call("cluster occupancy query",
                    () -> (int) MAX_ACTIVE_CLUSTERS.invokeExact(function, cluster, blockThreads, sharedBytes, out));
            return out.get(JAVA_INT, 0);
        }
    }

    /** Queues a non-fetching atomic ({@code op}: SET, ADD, AND, OR, XOR) of {@code width} bytes on {@code stream}. */
    public static void amoAsync(MemorySegment addr, int width, int op, long value, MemorySegment stream) {
        int rc;
        try {
            rc = (int) AMO_ASYNC.invokeExact(addr, width, op, value, stream);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        check(rc, "atomic on stream");
    }

    public static void setMaxDynamicShared(MemorySegment function, int bytes) {
        call("set dynamic shared memory to " + bytes, () -> (int) SET_MAX_DYNAMIC_SHARED.invokeExact(function, bytes));
    }

    /** What run-time compilation produced: the image (or null on failure) and the compiler's log. */
    public record Compiled(byte[] image, String log, String error) {
    }

    public static Compiled rtcCompile(String source, String name, String[] options) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment opts = a.allocate(ADDRESS, Math.max(options.length, 1));
            for (int i = 0; i < options.length; i++) {
                opts.setAtIndex(ADDRESS, i, a.allocateFrom(options[i]));
            }
            MemorySegment image = a.allocate(ADDRESS);
            MemorySegment size = a.allocate(JAVA_LONG);
            MemorySegment log = a.allocate(ADDRESS);
            int rc = (int) RTC_COMPILE.invokeExact(a.allocateFrom(source), a.allocateFrom(name), opts, options.length,
                    image, size, log);
            String error = rc != 0 ? lastError() : null;
            String text = "";
            MemorySegment logPtr = log.get(ADDRESS, 0);
            if (!logPtr.equals(MemorySegment.NULL)) {
                text = logPtr.reinterpret(Integer.MAX_VALUE).getString(0);
                FREE_BUFFER.invokeExact(logPtr);
            }
            byte[] bytes = null;
            MemorySegment img = image.get(ADDRESS, 0);
            if (rc == 0 && !img.equals(MemorySegment.NULL)) {
                bytes = img.reinterpret(size.get(JAVA_LONG, 0)).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
                FREE_BUFFER.invokeExact(img);
            }
            return new Compiled(bytes, text, error);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    // ---------------------------------------------------------------- call helpers

    private static void callPtr(MethodHandle h, MemorySegment ptr, String what) {
        int rc;
        try {
            rc = (int) h.invokeExact(ptr);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        check(rc, what);
    }

    /** A call of {@code int f(void *, void *)}, as {@link #callPtr}. */
    private static void callPtrs(MethodHandle h, MemorySegment a, MemorySegment b, String what) {
        int rc;
        try {
            rc = (int) h.invokeExact(a, b);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        check(rc, what);
    }

    /** A stream memory operation, {@code int f(stream, addr, uint64 value, int code)}, as {@link #callPtr}. */
    private static void callStreamValue(MethodHandle h, MemorySegment stream, MemorySegment addr, long value, int code,
                                        String what) {
        int rc;
        try {
            rc = (int) h.invokeExact(stream, addr, value, code);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        check(rc, what);
    }

    /** A team operation on a stream, {@code int f(int team slot, stream)}, as {@link #callPtr}. */
    private static void callSlotStream(MethodHandle h, int slot, MemorySegment stream, String what) {
        int rc;
        try {
            rc = (int) h.invokeExact(slot, stream);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        check(rc, what);
    }

    private static MemorySegment outPointer(MethodHandle h, String what) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            call(what, () -> (int) h.invokeExact(out));
            return out.get(ADDRESS, 0);
        }
    }

    private static MemorySegment outPointer(MethodHandle h, long bytes, String what) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            call(what, () -> (int) h.invokeExact(bytes, out));
            return out.get(ADDRESS, 0);
        }
    }
}
