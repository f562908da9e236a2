package org.jshmem.gpu;

import java.lang.foreign.MemorySegment;
import org.jshmem.AtomicOp;
import org.jshmem.gpu.shim.Shim;
import org.jshmem.remote.TargetMemory;

/**
 * This PE's GPU heap as the remote transport's server reaches it for PEs of other nodes: through
 * a {@link GpuChannel} of its own (its own stream, so the program's channels do not wait for it),
 * every call complete on return. The data passes through the server's buffers, which this target
 * page-locks while it serves: from pageable ones the driver stages each copy itself, at well under
 * the locked buffers' bandwidth. The server may run on any thread of the PE (a wait, the progress
 * thread); the shim makes the PE's device current on each. Strided requests go as the channel's strided copies (one kernel per staging half), not
 * one copy per element.
 */
final class GpuHeapTarget implements TargetMemory, AutoCloseable {
    private final GpuChannel channel;
    private final int myPe;

    GpuHeapTarget(GpuChannel channel, int myPe) {
        this.channel = channel;
        this.myPe = myPe;
    }

    @Override
    public void write(long at, MemorySegment src) {
        channel.put(myPe, at, src);
    }

    @Override
    public void read(long at, MemorySegment dst) {
        channel.get(dst, myPe, at);
    }

    @Override
    public void writeStrided(long at, long pitch, MemorySegment packed, long elemBytes) {
        channel.iput(myPe, at, pitch, packed, elemBytes, elemBytes, packed.byteSize() / elemBytes);
    }

    @Override
    public void readStrided(long at, long pitch, MemorySegment packed, long elemBytes) {
        channel.iget(packed, elemBytes, myPe, at, pitch, elemBytes, packed.byteSize() / elemBytes);
    }

    @Override
    public long atomic(AtomicOp op, int width, long at, long value, long comparand) {
        return width == 4 ? channel.atomicInt(op, myPe, at, (int) value, (int) comparand)
                : channel.atomicLong(op, myPe, at, value, comparand);
    }

    @Override
    public void store(long at, int width, long bits) {
        channel.store(myPe, at, width, bits);
    }

    @Override
    public long load(long at, int width) {
        return channel.load(myPe, at, width);
    }

    @Override
    public void adoptBuffer(MemorySegment buffer) {
        Shim.hostRegister(buffer);
    }

    @Override
    public void releaseBuffer(MemorySegment buffer) {
        Shim.hostUnregister(buffer);
    }

    @Override
    public void close() {
        channel.close();
    }
}
