package org.jshmem;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.jshmem.runtime.TracedChannel;
import org.jshmem.spi.BackendContext;
import org.jshmem.spi.TeamLayout;

/**
 * Where the remote memory access, atomic and signal calls of {@link Shmem} and of a
 * {@link ShmemContext} meet the backend: one per context (the PE's default one included). It
 * checks every argument through {@link Shmem#target}, turns a team context's PE numbers into
 * world PEs, and hands the call to its channel, so a context's {@code quiet} completes its own
 * operations only.
 */
final class Endpoint {
    private final Shmem shmem;
    private final BackendContext channel;  // the backend's, or with tracing on the traced layer over it
    private final BackendContext backendChannel;
    private final TeamLayout team;          // PE numbers are this team's; null: world PE numbers
    private final String teamName;
    private final Thread owner;             // non-null: the only thread allowed (checked with JSHMEM_DEBUG=1)
    private final String ownerRule;
    private volatile boolean closed;

    Endpoint(Shmem shmem, BackendContext channel, TeamLayout team, String teamName, Thread owner, String ownerRule) {
        this.shmem = shmem;
        this.backendChannel = channel;
        this.channel = shmem.trace().enabled() ? new TracedChannel(channel, shmem.trace(), shmem.myPe()) : channel;
        this.team = team;
        this.teamName = teamName;
        this.owner = owner;
        this.ownerRule = ownerRule;
    }

    /** The endpoint behind an API object: the PE's default one or a context's. */
    static Endpoint of(Object api) {
        return api instanceof Shmem s ? s.endpoint() : ((ShmemContext) api).endpoint();
    }

    /** The backend's channel, as the backend made it (to close it). */
    BackendContext channel() {
        return backendChannel;
    }

    void markClosed() {
        closed = true;
    }

    boolean isClosed() {
        return closed;
    }

    /** The world PE of {@code pe} (a team PE for a team context), after the context's own checks. */
    private int pe(String call, int pe) {
        if (closed || owner != null) {
            checkUsable(call);
        }
        if (team == null) {
            return pe;
        }
        if (pe < 0 || pe >= team.size()) {
            throw new PeOutOfRangeException(call, pe, team.size(), "team " + teamName + " (this context's team)");
        }
        return team.worldPe(pe);
    }

    private void checkUsable(String call) {
        if (closed) {
            throw new ShmemStateException(call + ": this context was closed; create a new one or use the PE's default"
                    + " context");
        }
        if (owner != null && Thread.currentThread() != owner) {
            throw new ShmemStateException(call + " from thread '" + Thread.currentThread().getName() + "': " + ownerRule
                    + " (thread '" + owner.getName() + "'); checked because JSHMEM_DEBUG=1");
        }
    }

    // ---------------------------------------------------------------- puts and gets

    void put(String call, SymmetricSegment dest, long destOffset, MemorySegment src, int pe, boolean nbi) {
        int w = pe(call, pe);
        long at = shmem.target(call, dest, destOffset, src.byteSize(), w);
        if (nbi) {
            channel.putNbi(w, at, src);
        } else {
            channel.put(w, at, src);
        }
    }

    void get(String call, MemorySegment dst, SymmetricSegment src, long srcOffset, int pe, boolean nbi) {
        int w = pe(call, pe);
        long at = shmem.target(call, src, srcOffset, dst.byteSize(), w);
        if (nbi) {
            channel.getNbi(dst, w, at);
        } else {
            channel.get(dst, w, at);
        }
    }

    /** A put ({@code toRemote}) or get between this PE's heap and PE {@code pe}'s. */
    void copy(String call, SymmetricSegment dest, long destOffset, SymmetricSegment src, long srcOffset, long bytes,
              int pe, boolean toRemote, boolean nbi) {
        int w = pe(call, pe);
        int me = shmem.myPe();
        long d = shmem.target(call, dest, destOffset, bytes, toRemote ? w : me);
        long s = shmem.target(call, src, srcOffset, bytes, toRemote ? me : w);
        channel.copy(toRemote ? w : me, d, toRemote ? me : w, s, bytes, nbi);
    }

    void iput(SymmetricSegment dest, long destOffset, long destStride, MemorySegment src, long srcStride,
              ValueLayout element, long nelems, int pe) {
        int w = pe("iput", pe);
        long size = element.byteSize();
        checkStrides("iput", destStride, srcStride, nelems);
        long span = nelems == 0 ? 0 : ((nelems - 1) * destStride + 1) * size;
        long base = shmem.target("iput", dest, destOffset, span, w);
        checkLocalSpan("iput", src, srcStride, size, nelems);
        channel.iput(w, base, destStride * size, src, srcStride * size, size, nelems);
    }

    void iget(MemorySegment dst, long dstStride, SymmetricSegment src, long srcOffset, long srcStride,
              ValueLayout element, long nelems, int pe) {
        int w = pe("iget", pe);
        long size = element.byteSize();
        checkStrides("iget", dstStride, srcStride, nelems);
        long span = nelems == 0 ? 0 : ((nelems - 1) * srcStride + 1) * size;
        long base = shmem.target("iget", src, srcOffset, span, w);
        checkLocalSpan("iget", dst, dstStride, size, nelems);
        channel.iget(dst, dstStride * size, w, base, srcStride * size, size, nelems);
    }

    void ibput(SymmetricSegment dest, long destOffset, long destStride, MemorySegment src, long srcStride,
               ValueLayout element, long blockSize, long nblocks, int pe) {
        int w = pe("ibput", pe);
        long size = element.byteSize();
        checkBlocks("ibput", destStride, srcStride, blockSize, nblocks);
        long block = blockSize * size;
        long span = block == 0 || nblocks == 0 ? 0 : (nblocks - 1) * destStride * size + block;
        long base = shmem.target("ibput", dest, destOffset, span, w);
        checkLocalBlocks("ibput", src, srcStride * size, block, nblocks);
        if (span > 0) {
            channel.iput(w, base, destStride * size, src, srcStride * size, block, nblocks);
        }
    }

    void ibget(MemorySegment dst, long dstStride, SymmetricSegment src, long srcOffset, long srcStride,
               ValueLayout element, long blockSize, long nblocks, int pe) {
        int w = pe("ibget", pe);
        long size = element.byteSize();
        checkBlocks("ibget", dstStride, srcStride, blockSize, nblocks);
        long block = blockSize * size;
        long span = block == 0 || nblocks == 0 ? 0 : (nblocks - 1) * srcStride * size + block;
        long base = shmem.target("ibget", src, srcOffset, span, w);
        checkLocalBlocks("ibget", dst, dstStride * size, block, nblocks);
        if (span > 0) {
            channel.iget(dst, dstStride * size, w, base, srcStride * size, block, nblocks);
        }
    }

    /** Checks that {@code nelems} elements {@code stride} apart fit in {@code local}, before any element moves. */
    private static void checkLocalSpan(String call, MemorySegment local, long stride, long size, long nelems) {
        if (nelems > 0 && (nelems - 1) * stride * size + size > local.byteSize()) {
            throw new IndexOutOfBoundsException(call + ": " + nelems + " elements of " + size + " bytes, " + stride
                    + " apart, need " + ((nelems - 1) * stride * size + size) + " bytes of the local segment, which has "
                    + local.byteSize());
        }
    }

    /** Checks that {@code count} blocks of {@code blockBytes}, {@code pitch} bytes apart, fit in {@code local}. */
    private static void checkLocalBlocks(String call, MemorySegment local, long pitch, long blockBytes, long count) {
        long need = blockBytes == 0 || count == 0 ? 0 : (count - 1) * pitch + blockBytes;
        if (need > local.byteSize()) {
            throw new IndexOutOfBoundsException(call + ": " + count + " blocks of " + blockBytes + " bytes, " + pitch
                    + " bytes apart, need " + need + " bytes of the local segment, which has " + local.byteSize());
        }
    }

    private static void checkBlocks(String call, long targetStride, long sourceStride, long blockSize, long nblocks) {
        if (blockSize < 0 || nblocks < 0 || targetStride < Math.max(1, blockSize) || sourceStride < 1) {
            throw new IllegalArgumentException(call + ": block size and count must be >= 0, the source stride >= 1 and"
                    + " the destination stride >= max(1, block size) so that blocks do not overlap (got destination"
                    + " stride " + targetStride + ", source stride " + sourceStride + ", block size " + blockSize
                    + ", blocks " + nblocks + ")");
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
        int w = pe(call, pe);
        channel.store(w, shmem.target(call, dest, offset, width, w, width), width, bits);
    }

    /** Scalar get of {@code width} bytes (acquire load), zero-extended. */
    long gBits(String call, SymmetricSegment src, long offset, int width, int pe) {
        int w = pe(call, pe);
        return channel.load(w, shmem.target(call, src, offset, width, w, width), width);
    }

    // ---------------------------------------------------------------- atomics and signals

    int atomicInt(String call, AtomicOp op, SymmetricSegment dest, long offset, int value, int comparand, int pe) {
        int w = pe(call, pe);
        return channel.atomicInt(op, w, shmem.target(call, dest, offset, Integer.BYTES, w, Integer.BYTES), value,
                comparand);
    }

    long atomicLong(String call, AtomicOp op, SymmetricSegment dest, long offset, long value, long comparand, int pe) {
        int w = pe(call, pe);
        return channel.atomicLong(op, w, shmem.target(call, dest, offset, Long.BYTES, w, Long.BYTES), value, comparand);
    }

    /**
     * A fetching atomic whose old value goes to {@code fetch} (OpenSHMEM's {@code ..._nbi} forms).
     * {@code fetch} is checked before the atomic runs; the value is there when this returns, which
     * is earlier than the {@code quiet} the caller must still make.
     */
    void atomicNbi(String call, AtomicOp op, MemorySegment fetch, SymmetricSegment dest, long offset, int width,
                   long value, long comparand, int pe) {
        Args.nonNull(call, "fetch", fetch, "dest", dest);
        if (fetch.byteSize() < width || fetch.isReadOnly()) {
            throw new IllegalArgumentException(call + ": the fetch segment must be writable and hold " + width
                    + " bytes (it has " + fetch.byteSize() + (fetch.isReadOnly() ? ", read-only" : "") + ")");
        }
        if (width == Integer.BYTES) {
            fetch.set(ValueLayout.JAVA_INT_UNALIGNED, 0, atomicInt(call, op, dest, offset, (int) value, (int) comparand, pe));
        } else {
            fetch.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, atomicLong(call, op, dest, offset, value, comparand, pe));
        }
    }

    void putSignal(String call, SymmetricSegment dest, long destOffset, MemorySegment src, SymmetricSegment signal,
                   long signalOffset, long value, SignalOp op, int pe, boolean nbi) {
        int w = pe(call, pe);
        long d = shmem.target(call, dest, destOffset, src.byteSize(), w);
        long s = shmem.target(call, signal, signalOffset, Long.BYTES, w, Long.BYTES);
        channel.putSignal(w, d, src, s, value, op, nbi);
    }

    void putSignal(String call, SymmetricSegment dest, long destOffset, SymmetricSegment src, long srcOffset, long bytes,
                   SymmetricSegment signal, long signalOffset, long value, SignalOp op, int pe) {
        int w = pe(call, pe);
        long d = shmem.target(call, dest, destOffset, bytes, w);
        long from = shmem.target(call, src, srcOffset, bytes, shmem.myPe());
        long s = shmem.target(call, signal, signalOffset, Long.BYTES, w, Long.BYTES);
        channel.copySignal(w, d, shmem.myPe(), from, bytes, s, value, op, false);
    }

    /** Updates a signal without data (OpenSHMEM's {@code shmem_signal_add} and {@code _set}): an atomic. */
    void signalOp(String call, SymmetricSegment signal, long signalOffset, long value, SignalOp op, int pe) {
        atomicLong(call, op.atomicOp(), signal, signalOffset, value, 0, pe);
    }

    // ---------------------------------------------------------------- ordering

    void fence(String call) {
        checkCall(call);
        channel.fence();
    }

    void quiet(String call) {
        checkCall(call);
        channel.quiet();
    }

    /** {@link #quiet} for the operations to {@code pes}: every number is checked first, then all complete. */
    void peQuiet(String call, int[] pes) {
        checkCall(call);
        int n = team == null ? shmem.nPes() : team.size();
        for (int pe : pes) {
            if (pe < 0 || pe >= n) {
                throw new PeOutOfRangeException(call, pe, n, team == null ? "the job" : "team " + teamName
                        + " (this context's team)");
            }
        }
        channel.quiet();
    }

    /** The checks of a call on the context as a whole (fence, quiet, sessions): the PE is open, the context usable. */
    void checkCall(String call) {
        shmem.checkOpen(call);
        pe(call, 0);
    }
}
