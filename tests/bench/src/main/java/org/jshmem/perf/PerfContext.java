package org.jshmem.perf;

import org.jshmem.Shmem;
import org.jshmem.ShmemStateException;
import org.jshmem.SymmetricSegment;

/**
 * What a benchmark's loops work on: the PE, its partners, and symmetric buffers allocated once
 * per benchmark (allocation is collective and slow, so never inside a timed loop).
 *
 * <p>Roles: PE 0 measures. One-directional tests run from PE 0 to PE 1; bidirectional tests
 * and ping-pongs pair PE 0 with PE 1; rates run on every PE towards its right neighbour. Other
 * PEs take part in the barriers only. On a job of one PE, PE 0 is its own partner.
 *
 * <p>Flag cells (in {@link #flags()}) are a cache line apart, and zeroed before every case.
 */
public final class PerfContext {
    /** Offset of the signal word of put-with-signal ping-pongs. */
    public static final long SIGNAL = 0;
    /** Offset of the ping-pong word of p/wait_until. */
    public static final long PING = 128;
    /** Offset of the counter atomics work on. */
    public static final long COUNTER = 256;
    /** Offset of a scratch word for g and similar reads. */
    public static final long SCRATCH = 384;
    /** Offset of the harness's own two words (PE 0's warm-up decisions); loops leave them alone. */
    public static final long CONTROL = 1024;
    /** Offset of the harness's word where a PE posts how many destination bytes a transfer case got wrong. */
    public static final long VERIFY = CONTROL + 16;
    static final long FLAG_BYTES = 4096;
    /** Byte written into source buffers (as the anchor's memset(src, 1, ...)). */
    static final byte FILL = 1;

    private final Shmem shmem;
    private final int me;
    private final int nPes;
    private SymmetricSegment src;
    private SymmetricSegment dst;
    private SymmetricSegment flags;

    public PerfContext(Shmem shmem) {
        this.shmem = shmem;
        this.me = shmem.myPe();
        this.nPes = shmem.nPes();
    }

    public Shmem shmem() {
        return shmem;
    }

    public int me() {
        return me;
    }

    public int nPes() {
        return nPes;
    }

    /** Whether this PE measures and reports (PE 0). */
    public boolean root() {
        return me == 0;
    }

    /** The other PE of the PE 0 / PE 1 pair, or -1 for PEs outside it. PE 0 of a one-PE job pairs with itself. */
    public int partner() {
        if (nPes == 1) {
            return 0;
        }
        return me == 0 ? 1 : me == 1 ? 0 : -1;
    }

    /** The next PE in a ring, {@code (me + 1) % nPes}. */
    public int right() {
        return (me + 1) % nPes;
    }

    /** Source buffer of transfers, {@link #bufferBytes()} bytes, filled with {@link #FILL} on every PE. */
    public SymmetricSegment src() {
        return src;
    }

    /** Destination buffer of transfers, {@link #bufferBytes()} bytes. */
    public SymmetricSegment dst() {
        return dst;
    }

    /** Flag and counter words (see the offset constants). */
    public SymmetricSegment flags() {
        return flags;
    }

    public long bufferBytes() {
        return src == null ? 0 : src.byteSize();
    }

    /** Heap bytes per PE that {@link #allocate(long)} needs for buffers of {@code bufferBytes}. */
    public static long heapNeeded(long bufferBytes) {
        return 2 * bufferBytes + FLAG_BYTES + (1 << 20);
    }

    /**
     * Collective: (re)allocates the source and destination buffers of {@code bufferBytes} each
     * and the flags, and touches every page of them so that no timed loop pays page faults.
     */
    public void allocate(long bufferBytes) {
        release();
        flags = shmem.calloc(1, FLAG_BYTES);
        if (bufferBytes > 0) {
            src = shmem.malloc(bufferBytes);
            dst = shmem.malloc(bufferBytes);
            fill(src, FILL);
            fill(dst, (byte) 0);
        }
        shmem.barrierAll();
    }

    /** Fills this PE's copy of {@code seg} with {@code value}: in place on a host heap, by puts from a pinned-sized chunk on a GPU heap. */
    private void fill(SymmetricSegment seg, byte value) {
        try {
            seg.local().fill(value);
        } catch (ShmemStateException gpuHeap) {
            putRepeated(shmem, seg, new byte[] {value});
        }
    }

    /**
     * Writes {@code element} over and over into this PE's {@code seg} (any heap, GPU included)
     * with puts of up to 4 MiB, then quiet. {@code seg}'s size must be a multiple of the element's.
     */
    static void putRepeated(Shmem shmem, SymmetricSegment seg, byte[] element) {
        long size = seg.byteSize();
        int e = element.length;
        byte[] chunk = new byte[(int) Math.min(size, (4L << 20) / e * e)];
        for (int i = 0; i < chunk.length; i += e) {
            System.arraycopy(element, 0, chunk, i, e);
        }
        for (long at = 0; at < size; at += chunk.length) {
            shmem.put(seg, at, chunk, 0, (int) Math.min(chunk.length, size - at), shmem.myPe());
        }
        shmem.quiet();
    }

    /** Collective: zeroes every PE's destination buffer, so that a transfer case's check sees only its own bytes. */
    public void clearDestination() {
        shmem.barrierAll();    // no PE still writes into a peer's destination
        fill(dst, (byte) 0);
        shmem.barrierAll();
    }

    /**
     * Collective: every PE counts the bytes of the first {@code bytes} of its destination that
     * differ from {@link #FILL} when {@code received}, posts the count, and all read the counts
     * of PE 0 and its partner. Returns a description of what went wrong, or null when the
     * transfers delivered every byte.
     */
    public String checkDestination(long bytes, boolean received) {
        long wrong = 0;
        if (received) {
            byte[] chunk = new byte[(int) Math.min(bytes, 4L << 20)];
            for (long at = 0; at < bytes; at += chunk.length) {
                int n = (int) Math.min(chunk.length, bytes - at);
                shmem.get(chunk, 0, n, dst, at, me);
                for (int i = 0; i < n; i++) {
                    wrong += chunk[i] != FILL ? 1 : 0;
                }
            }
        }
        shmem.pLong(flags, VERIFY, wrong, me);
        shmem.barrierAll();
        StringBuilder fault = new StringBuilder();
        for (int pe : nPes == 1 ? new int[] {0} : new int[] {0, 1}) {
            long w = shmem.gLong(flags, VERIFY, pe);
            if (w != 0) {
                fault.append(fault.isEmpty() ? "" : "; ").append("PE ").append(pe).append("'s destination has ").append(w)
                        .append(" of its first ").append(bytes).append(" bytes different from the source's");
            }
        }
        shmem.barrierAll();    // every PE has read the counts before the next case zeroes the flags
        return fault.isEmpty() ? null : fault.toString();
    }

    /** Collective: zeroes this PE's flags, then a barrier; done before each case. */
    public void resetFlags() {
        try {
            flags.local().fill((byte) 0);
        } catch (ShmemStateException gpuHeap) {
            shmem.put(flags, 0, new byte[(int) FLAG_BYTES], 0, (int) FLAG_BYTES, me);
        }
        shmem.barrierAll();
    }

    /** Collective: frees the buffers. */
    public void release() {
        if (dst != null) {
            shmem.free(dst);
            shmem.free(src);
            dst = src = null;
        }
        if (flags != null) {
            shmem.free(flags);
            flags = null;
        }
    }
}
