package org.jshmem.host;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import org.jshmem.AtomicOp;
import org.jshmem.CollectiveTuning;
import org.jshmem.collectives.CopyCollectives;
import org.jshmem.node.AlignedMapping;
import org.jshmem.node.NodeSharedMemory;
import org.jshmem.spi.Backend;
import org.jshmem.spi.CollectiveContext;
import org.jshmem.spi.Collectives;

/**
 * The heap in host shared memory: every PE's heap is a region of the node's shared-memory file,
 * mapped by all of them. Puts and gets are segment copies; atomics and signals are
 * {@link VarHandle} operations on the mapping. Copies complete before they return, so
 * {@link #quiet()} only needs a full fence, and {@link #fence()} a store-store fence.
 */
public final class HostBackend implements Backend {
    private static final VarHandle BYTE = ValueLayout.JAVA_BYTE.varHandle();
    private static final VarHandle SHORT = ValueLayout.JAVA_SHORT.varHandle();
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private final MemorySegment mapping;
    private final long heapBase;
    private final long stride;
    private final long heapSize;
    private final MemorySegment local;
    private final MemorySegment[] peers;

    public HostBackend(NodeSharedMemory shm, long heapSize) {
        this.mapping = shm.mapping();
        this.heapBase = shm.heapOffset(0);
        this.stride = shm.heapOffset(1 % Math.max(shm.nPes(), 1)) - heapBase;
        this.heapSize = heapSize;
        this.local = mapping.asSlice(shm.heapOffset(shm.myPe()), heapSize);
        this.peers = new MemorySegment[shm.nPes()];
        for (int pe = 0; pe < peers.length; pe++) {
            peers[pe] = mapping.asSlice(shm.heapOffset(pe), heapSize);
        }
    }

    /**
     * Allocates this PE's heap pages and maps every PE's heap into this process's page tables
     * ({@code JSHMEM_PREFAULT}): own heap first (the PEs allocate theirs in parallel), then the
     * peers', from the next PE on. Later puts and gets then run without page faults.
     */
    public void prefault() {
        AlignedMapping.prefault(local);
        int me = -1;
        for (int pe = 0; pe < peers.length; pe++) {
            if (peers[pe].address() == local.address()) {
                me = pe;
            }
        }
        for (int i = 1; i < peers.length; i++) {
            AlignedMapping.prefault(peers[(me + i) % peers.length]);
        }
    }

    private long at(int pe, long offset) {
        return heapBase + pe * stride + offset;
    }

    @Override
    public String describe() {
        return "host shared memory";
    }

    @Override
    public long heapSize() {
        return heapSize;
    }

    @Override
    public long heapStart() {
        return 0;
    }

    @Override
    public void put(int pe, long offset, MemorySegment src) {
        MemorySegment.copy(src, 0, mapping, at(pe, offset), src.byteSize());
    }

    @Override
    public void get(MemorySegment dst, int pe, long offset) {
        MemorySegment.copy(mapping, at(pe, offset), dst, 0, dst.byteSize());
    }

    @Override
    public void copy(int dstPe, long dstOffset, int srcPe, long srcOffset, long bytes, boolean nbi) {
        MemorySegment.copy(mapping, at(srcPe, srcOffset), mapping, at(dstPe, dstOffset), bytes);
    }

    @Override
    public void store(int pe, long offset, int width, long bits) {
        long a = at(pe, offset);
        switch (width) {
            case 1 -> BYTE.setRelease(mapping, a, (byte) bits);
            case 2 -> SHORT.setRelease(mapping, a, (short) bits);
            case 4 -> INT.setRelease(mapping, a, (int) bits);
            default -> LONG.setRelease(mapping, a, bits);
        }
    }

    @Override
    public long load(int pe, long offset, int width) {
        long a = at(pe, offset);
        return switch (width) {
            case 1 -> (byte) BYTE.getAcquire(mapping, a) & 0xFFL;
            case 2 -> (short) SHORT.getAcquire(mapping, a) & 0xFFFFL;
            case 4 -> (int) INT.getAcquire(mapping, a) & 0xFFFF_FFFFL;
            default -> (long) LONG.getAcquire(mapping, a);
        };
    }

    @Override
    public int atomicInt(AtomicOp op, int pe, long offset, int value, int comparand) {
        long a = at(pe, offset);
        return switch (op) {
            case FETCH -> (int) INT.getAcquire(mapping, a);
            case SET -> {
                INT.setRelease(mapping, a, value);
                yield 0;
            }
            case SWAP -> (int) INT.getAndSet(mapping, a, value);
            case COMPARE_SWAP -> (int) INT.compareAndExchange(mapping, a, comparand, value);
            case ADD, FETCH_ADD -> (int) INT.getAndAdd(mapping, a, value);
            case AND, FETCH_AND -> (int) INT.getAndBitwiseAnd(mapping, a, value);
            case OR, FETCH_OR -> (int) INT.getAndBitwiseOr(mapping, a, value);
            case XOR, FETCH_XOR -> (int) INT.getAndBitwiseXor(mapping, a, value);
        };
    }

    @Override
    public long atomicLong(AtomicOp op, int pe, long offset, long value, long comparand) {
        long a = at(pe, offset);
        return switch (op) {
            case FETCH -> (long) LONG.getAcquire(mapping, a);
            case SET -> {
                LONG.setRelease(mapping, a, value);
                yield 0;
            }
            case SWAP -> (long) LONG.getAndSet(mapping, a, value);
            case COMPARE_SWAP -> (long) LONG.compareAndExchange(mapping, a, comparand, value);
            case ADD, FETCH_ADD -> (long) LONG.getAndAdd(mapping, a, value);
            case AND, FETCH_AND -> (long) LONG.getAndBitwiseAnd(mapping, a, value);
            case OR, FETCH_OR -> (long) LONG.getAndBitwiseOr(mapping, a, value);
            case XOR, FETCH_XOR -> (long) LONG.getAndBitwiseXor(mapping, a, value);
        };
    }

    @Override
    public void fence() {
        VarHandle.storeStoreFence();
    }

    @Override
    public void quiet() {
        VarHandle.fullFence();
    }

    @Override
    public MemorySegment localHeap() {
        return local;
    }

    @Override
    public MemorySegment peerHeap(int pe) {
        return peers[pe];
    }

    /** {@link HostCollectives} (direct reads of the peers' heaps), or with {@code JSHMEM_COLLECTIVES=copy} {@link CopyCollectives}. */
    @Override
    public Collectives collectives(CollectiveContext c) {
        CollectiveTuning tuning = c.config().collectiveTuning();
        if (tuning.kind() == CollectiveTuning.Kind.AUTO && peerHeap(c.myPe()) != null) {
            return new HostCollectives(this, c.node(), c.barrier(), tuning);
        }
        return new CopyCollectives(this, c.barrier());
    }

    @Override
    public void close() {
        // the mapping belongs to NodeSharedMemory, which the core closes
    }
}
