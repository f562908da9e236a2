package org.jshmem.gpu;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import org.jshmem.gpu.shim.Shim;
import org.jshmem.spi.DeviceSpans;

/**
 * The ring in which this PE's kernels record their spans when the job traces ({@code jshmem_trace.h}):
 * device memory, so that taking a slot costs a kernel an L2 atomic rather than a round trip over PCIe;
 * the host copies the records out once the kernels are done. Beside it, the records of the runtime's
 * kernels of traced stream operations, which the host reserves a block at a time as it launches them.
 * The GPU clock is mapped onto the host's ({@link System#nanoTime}) by reading it between two host
 * clock reads, the closest of a few, at start and again when the ring is drained; a span's time is
 * interpolated between the two, which takes out the clocks' drift.
 */
final class DeviceTrace implements AutoCloseable {
    /** Records the ring holds: 16 MiB; spans past it are counted as lost. */
    static final long CAPACITY = 1 << 18;
    /** Records of the runtime's kernels' blocks, the same again. */
    static final long OPS_CAPACITY = 1 << 18;
    private static final long RECORD = GpuHeapDescriptor.TRACE_RECORD.byteSize();
    private static final long BEGIN = GpuHeapDescriptor.traceRecordField("begin");
    private static final long END = GpuHeapDescriptor.traceRecordField("end");
    private static final long BLOCK = GpuHeapDescriptor.traceRecordField("block");
    private static final long THREAD = GpuHeapDescriptor.traceRecordField("thread");
    private static final long VALUE = GpuHeapDescriptor.traceRecordField("value");
    private static final long OP = GpuHeapDescriptor.traceRecordField("op");
    private static final long NAME = GpuHeapDescriptor.traceRecordField("name");
    private static final long CATEGORY = GpuHeapDescriptor.traceRecordField("category");

    /** A reading of both clocks: the GPU's, the host's at the same moment, and the bound on that pairing. */
    private record Pairing(long gpu, long host, long error) {
    }

    private final MemorySegment ring;
    private final MemorySegment opsRecords;
    private final MemorySegment clockCell;
    private final MemorySegment stream;
    private final Pairing start;
    private boolean drained;

    DeviceTrace() {
        ring = Shim.heapAlloc(GpuHeapDescriptor.TRACE_HEADER + CAPACITY * RECORD);
        clockCell = Shim.hostAlloc(Long.BYTES);
        stream = Shim.streamCreate();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment header = arena.allocate(GpuHeapDescriptor.TRACE_HEADER);
            header.set(JAVA_LONG, 0, 0);   // the next slot, then the capacity
            header.set(JAVA_LONG, Long.BYTES, CAPACITY);
            Shim.memcpyAsync(ring, header, GpuHeapDescriptor.TRACE_HEADER, stream);
            Shim.streamSynchronize(stream);
        }
        opsRecords = Shim.heapAlloc(OPS_CAPACITY * RECORD);
        Shim.memsetAsync(opsRecords, 0, OPS_CAPACITY * RECORD, stream);   // end 0: a record not written
        Shim.streamSynchronize(stream);
        Shim.traceOpsRing(opsRecords, OPS_CAPACITY);
        start = pairClocks();
    }

    /** The ring's address, for the device state. */
    MemorySegment ring() {
        return ring;
    }

    /** The closest of five brackets of a GPU clock read by two host clock reads. */
    private Pairing pairClocks() {
        Pairing best = null;
        for (int i = 0; i < 5; i++) {
            long before = System.nanoTime();
            long gpu = Shim.gpuTime(clockCell, stream);
            long after = System.nanoTime();
            if (best == null || (after - before) / 2 < best.error) {
                best = new Pairing(gpu, before + (after - before) / 2, (after - before) / 2);
            }
        }
        return best;
    }

    /** Hands the recorded spans over, once, after waiting for this PE's kernels. */
    void drain(DeviceSpans into) {
        if (drained) {
            return;
        }
        drained = true;
        Shim.deviceSynchronize();
        Pairing end = pairClocks();
        double rate = end.gpu == start.gpu ? 1 : (double) (end.host - start.host) / (end.gpu - start.gpu);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment header = arena.allocate(GpuHeapDescriptor.TRACE_HEADER);
            Shim.memcpyAsync(header, ring, GpuHeapDescriptor.TRACE_HEADER, stream);
            Shim.streamSynchronize(stream);
            long taken = header.get(JAVA_LONG, 0);
            long kept = Math.min(taken, CAPACITY);
            read(arena, MemorySegment.ofAddress(ring.address() + GpuHeapDescriptor.TRACE_HEADER), kept, rate, into);
            long[] ops = Shim.traceOpsTaken();
            read(arena, opsRecords, Math.min(ops[0], OPS_CAPACITY), rate, into);
            into.summary(taken - kept + ops[1], Math.max(start.error, end.error));
        }
    }

    /** Hands over the first {@code count} records at {@code from}, but those never written (end 0). */
    private void read(Arena arena, MemorySegment from, long count, double rate, DeviceSpans into) {
        if (count == 0) {
            return;
        }
        MemorySegment records = arena.allocate(count * RECORD, Long.BYTES);
        Shim.memcpyAsync(records, from, count * RECORD, stream);
        Shim.streamSynchronize(stream);
        for (long i = 0; i < count; i++) {
            MemorySegment r = records.asSlice(i * RECORD, RECORD);
            if (r.get(JAVA_LONG, END) == 0) {
                continue;   // reserved for a block that found the ring beside it full, or never ran
            }
            into.span(r.get(JAVA_INT, BLOCK), r.get(JAVA_INT, THREAD), text(r, CATEGORY, GpuHeapDescriptor.TRACE_CATEGORY),
                    text(r, NAME, GpuHeapDescriptor.TRACE_NAME), host(r.get(JAVA_LONG, BEGIN), rate),
                    host(r.get(JAVA_LONG, END), rate), r.get(JAVA_LONG, VALUE), r.get(JAVA_INT, OP));
        }
    }

    /** A GPU clock reading on the host's clock. */
    private long host(long gpu, double rate) {
        return start.host + Math.round((gpu - start.gpu) * rate);
    }

    private static String text(MemorySegment r, long at, int bytes) {
        int n = 0;
        while (n < bytes && r.get(JAVA_BYTE, at + n) != 0) {
            n++;
        }
        return new String(r.asSlice(at, n).toArray(JAVA_BYTE), StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        Shim.traceOpsRing(MemorySegment.NULL, 0);
        Shim.heapFree(opsRecords);
        Shim.streamDestroy(stream);
        Shim.hostFree(clockCell);
        Shim.heapFree(ring);
    }
}
