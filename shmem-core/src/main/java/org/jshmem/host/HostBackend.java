package org.jshmem.host;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import org.jshmem.AtomicOp;
import org.jshmem.CollectiveTuning;
import org.jshmem.collectives.CopyCollectives;
import org.jshmem.collectives.HierarchicalCollectives;
import org.jshmem.node.AlignedMapping;
import org.jshmem.node.NodeSharedMemory;
import org.jshmem.node.SharedWords;
import org.jshmem.remote.RemoteTransport;
import org.jshmem.spi.Backend;
import org.jshmem.spi.CollectiveContext;
import org.jshmem.spi.Collectives;

/**
 * The heap in host shared memory: every PE's heap is a region of its node's shared-memory file,
 * mapped by the node's PEs. Puts and gets to a PE of this node are segment copies; atomics and
 * signals are {@link SharedWords} operations on the mapping. Copies complete before they return, so
 * {@link #quiet()} only needs a full fence, and {@link #fence()} a store-store fence.
 *
 * <p>PEs of other nodes (a job across nodes, or peers forced remote by {@code JSHMEM_TRANSPORT} or
 * {@code JSHMEM_NODE_OF_RANK}) are reached through the node's {@link RemoteTransport} (MPI
 * one-sided or two-sided), which {@link #fence()} and {@link #quiet()} also complete; {@link #peerHeap} is null
 * for them, so {@code ptr} is empty and the collectives are {@link HierarchicalCollectives} over the copies.
 */
public final class HostBackend implements Backend {

    private final MemorySegment mapping;
    private final long[] base;              // a PE's heap: its offset in the mapping, or (remote) in its node's file
    private final long heapSize;
    private final int myPe;
    private final MemorySegment local;
    private final MemorySegment[] peers;    // null for PEs of other nodes
    private final RemoteTransport remote;   // null when every PE is on this node
    private final int nodes;

    public HostBackend(NodeSharedMemory shm, long heapSize) {
        this.mapping = shm.mapping();
        this.heapSize = heapSize;
        this.myPe = shm.myPe();
        this.local = mapping.asSlice(shm.heapOffset(myPe), heapSize);
        this.remote = shm.remote().orElse(null);
        this.nodes = shm.nodes().nodes();
        this.base = new long[shm.nPes()];
        this.peers = new MemorySegment[shm.nPes()];
        for (int pe = 0; pe < peers.length; pe++) {
            base[pe] = shm.heapOffset(pe);
            if (shm.nodes().isLocal(pe)) {
                peers[pe] = mapping.asSlice(base[pe], heapSize);
            }
        }
    }

    /** Whether {@code pe} is on another node: reached through the remote transport. */
    private boolean isRemote(int pe) {
        return peers[pe] == null;
    }

    /**
     * Allocates this PE's heap pages and maps every PE's heap into this process's page tables
     * ({@code JSHMEM_PREFAULT}): own heap first (the PEs allocate theirs in parallel), then the
     * peers', from the next PE on. Later puts and gets then run without page faults.
     */
    public void prefault() {
        AlignedMapping.prefault(local);
        for (int i = 1; i < peers.length; i++) {
            MemorySegment peer = peers[(myPe + i) % peers.length];
            if (peer != null) {
                AlignedMapping.prefault(peer);
            }
        }
    }

    private long at(int pe, long offset) {
        return base[pe] + offset;
    }

    @Override
    public String describe() {
        return remote == null ? "host shared memory"
                : "host shared memory, " + remote.describe() + " across " + nodes + " nodes (remote transport)";
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
    public long heapAlignment() {
        return NodeSharedMemory.heapAlignment(heapSize);
    }

    @Override
    public long maxHeapAlignment() {
        return 1L << 62;   // address space only: a larger heap is aligned further
    }

    @Override
    public void put(int pe, long offset, MemorySegment src) {
        if (isRemote(pe)) {
            remote.put(pe, at(pe, offset), src, false);
            return;
        }
        MemorySegment.copy(src, 0, mapping, at(pe, offset), src.byteSize());
    }

    @Override
    public void putNbi(int pe, long offset, MemorySegment src) {
        if (isRemote(pe)) {
            remote.put(pe, at(pe, offset), src, true);
            return;
        }
        put(pe, offset, src);
    }

    @Override
    public void get(MemorySegment dst, int pe, long offset) {
        if (isRemote(pe)) {
            remote.get(dst, pe, at(pe, offset), false);
            return;
        }
        MemorySegment.copy(mapping, at(pe, offset), dst, 0, dst.byteSize());
    }

    @Override
    public void getNbi(MemorySegment dst, int pe, long offset) {
        if (isRemote(pe)) {
            remote.get(dst, pe, at(pe, offset), true);
            return;
        }
        get(dst, pe, offset);
    }

    @Override
    public void copy(int dstPe, long dstOffset, int srcPe, long srcOffset, long bytes, boolean nbi) {
        if (isRemote(dstPe)) {          // the source is this PE's heap; no slice of it per call (a put's hot path)
            remote.put(dstPe, at(dstPe, dstOffset), mapping, at(srcPe, srcOffset), bytes, nbi);
        } else if (isRemote(srcPe)) {   // the destination is this PE's heap
            remote.get(mapping, at(dstPe, dstOffset), bytes, srcPe, at(srcPe, srcOffset), nbi);
        } else {
            MemorySegment.copy(mapping, at(srcPe, srcOffset), mapping, at(dstPe, dstOffset), bytes);
        }
    }

    @Override
    public void iput(int pe, long offset, long destPitch, MemorySegment src, long srcPitch, long elemBytes, long nelems) {
        if (isRemote(pe)) {
            remote.putStrided(pe, at(pe, offset), destPitch, src, srcPitch, elemBytes, nelems);
            return;
        }
        Backend.super.iput(pe, offset, destPitch, src, srcPitch, elemBytes, nelems);
    }

    @Override
    public void iget(MemorySegment dst, long dstPitch, int pe, long offset, long srcPitch, long elemBytes, long nelems) {
        if (isRemote(pe)) {
            remote.getStrided(dst, dstPitch, pe, at(pe, offset), srcPitch, elemBytes, nelems);
            return;
        }
        Backend.super.iget(dst, dstPitch, pe, offset, srcPitch, elemBytes, nelems);
    }

    @Override
    public void copyStrided(int dstPe, long dstOffset, long dstPitch, int srcPe, long srcOffset, long srcPitch,
                            long elemBytes, long nelems) {
        if (nelems == 0) {
            return;
        }
        if (isRemote(dstPe)) {          // the source is this PE's heap
            remote.putStrided(dstPe, at(dstPe, dstOffset), dstPitch,
                    mapping.asSlice(at(srcPe, srcOffset), (nelems - 1) * srcPitch + elemBytes), srcPitch, elemBytes, nelems);
        } else if (isRemote(srcPe)) {   // the destination is this PE's heap
            remote.getStrided(mapping.asSlice(at(dstPe, dstOffset), (nelems - 1) * dstPitch + elemBytes), dstPitch,
                    srcPe, at(srcPe, srcOffset), srcPitch, elemBytes, nelems);
        } else {
            Backend.super.copyStrided(dstPe, dstOffset, dstPitch, srcPe, srcOffset, srcPitch, elemBytes, nelems);
        }
    }

    @Override
    public void store(int pe, long offset, int width, long bits) {
        if (isRemote(pe)) {
            remote.store(pe, at(pe, offset), width, bits);
        } else {
            SharedWords.store(mapping, at(pe, offset), width, bits);
        }
    }

    @Override
    public long load(int pe, long offset, int width) {
        return isRemote(pe) ? remote.load(pe, at(pe, offset), width) : SharedWords.load(mapping, at(pe, offset), width);
    }

    @Override
    public int atomicInt(AtomicOp op, int pe, long offset, int value, int comparand) {
        return isRemote(pe) ? (int) remote.atomic(op, 4, pe, at(pe, offset), value, comparand)
                : SharedWords.atomicInt(mapping, at(pe, offset), op, value, comparand);
    }

    @Override
    public long atomicLong(AtomicOp op, int pe, long offset, long value, long comparand) {
        return isRemote(pe) ? remote.atomic(op, 8, pe, at(pe, offset), value, comparand)
                : SharedWords.atomicLong(mapping, at(pe, offset), op, value, comparand);
    }

    /** Orders the node's copies (a store-store fence) and completes the remote transport's operations (MPI does not order them). */
    @Override
    public void fence() {
        VarHandle.storeStoreFence();
        if (remote != null) {
            remote.quiet();
        }
    }

    @Override
    public void quiet() {
        VarHandle.fullFence();
        if (remote != null) {
            remote.quiet();
        }
    }

    @Override
    public MemorySegment localHeap() {
        return local;
    }

    @Override
    public MemorySegment peerHeap(int pe) {
        return peers[pe];
    }

    /**
     * {@link HostCollectives} (direct reads of the peers' heaps); with PEs on other nodes
     * {@link HierarchicalCollectives} over this backend's copies (the remote transport's for those
     * PEs); with {@code JSHMEM_COLLECTIVES=copy} the one-level {@link CopyCollectives}.
     */
    @Override
    public Collectives collectives(CollectiveContext c) {
        CollectiveTuning tuning = c.config().collectiveTuning();
        CopyCollectives copies = new CopyCollectives(this, c.barrier());
        if (tuning.kind() == CollectiveTuning.Kind.COPY) {
            return copies;
        }
        return remote == null ? new HostCollectives(this, c.node(), c.barrier(), tuning)
                : new HierarchicalCollectives(copies, c.node().nodes(), tuning.hierarchyMin());
    }

    @Override
    public void close() {
        // the mapping belongs to NodeSharedMemory, which the core closes
    }
}
