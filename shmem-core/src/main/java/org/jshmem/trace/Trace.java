package org.jshmem.trace;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jshmem.gpu.shim.Nvtx;

/**
 * This PE's timeline of jshmem calls, recorded when the job runs with {@code JSHMEM_TRACE=file}
 * ({@code Shmem.trace()}); at {@code close} the PEs write one file together (Chrome trace-event
 * JSON: a process per PE, a track per thread; open it in Perfetto or chrome://tracing).
 *
 * <p>jshmem records allocation, barriers, collectives, waits and transfers (puts, gets, atomics,
 * signals, fence and quiet) with their peer, team and size. Transfers below
 * {@link #SMALL_BYTES} are counted per peer rather than recorded one by one. Programs add their
 * own spans:
 *
 * <pre>{@code
 * Trace trace = shmem.trace();
 * long t = trace.begin();
 * compute(tile);
 * trace.end("tile", "compute", t);
 * }</pre>
 *
 * When tracing is off, {@code begin} returns 0 and {@code end} returns at once. With {@code JSHMEM_NVTX=1}
 * the spans begun with a name ({@link #begin(String)}) are also NVTX ranges in the domain "jshmem",
 * for Nsight Systems, whether or not the job writes a trace. Times are
 * {@link System#nanoTime()}, which PEs on one node share; PEs on other nodes are mapped onto PE
 * 0's clock by offsets measured at start-up ({@link #clockOffsetNanos()},
 * {@link #clockErrorNanos()}).
 */
public final class Trace {
    /** Transfers of fewer bytes are counted per peer, not recorded one by one. */
    public static final long SMALL_BYTES = 4096;

    /** Track ids of GPU blocks start here, clear of Java's thread ids. */
    static final long DEVICE_TRACK_IDS = 1L << 40;
    /** Track ids of GPU streams, between the threads' and the blocks'. */
    static final long STREAM_TRACK_IDS = 1L << 39;

    /** The trace of a PE that does not trace: every call returns at once. */
    public static final Trace OFF = new Trace(false, false, 0, 1);

    private final boolean on;
    private final boolean nvtx;
    private final int myPe;
    private final int nPes;
    private final ThreadLocal<Track> local;
    private final List<Track> tracks = new CopyOnWriteArrayList<>();
    private final java.util.Map<Long, Track> deviceTracks = new java.util.TreeMap<>();
    private long deviceLost;
    private long deviceClockError;
    private volatile long epochNanos;
    private volatile long offsetNanos;
    private volatile long errorNanos;

    private Trace(boolean on, boolean nvtx, int myPe, int nPes) {
        this.on = on;
        this.nvtx = nvtx;
        this.myPe = myPe;
        this.nPes = nPes;
        this.local = ThreadLocal.withInitial(() -> {
            Track t = new Track(Thread.currentThread(), this.nPes);
            tracks.add(t);
            return t;
        });
    }

    /** A recording trace for PE {@code myPe} of {@code nPes}; its clock is set by {@link #setClock}. */
    public static Trace recording(int myPe, int nPes) {
        return of(true, false, myPe, nPes);
    }

    /**
     * The trace of a PE that records ({@code record}) or not, and opens NVTX ranges ({@code nvtx}) or not;
     * {@link #OFF} when neither. NVTX needs {@code libjshmem_nvtx.so}: a build without it throws here.
     */
    public static Trace of(boolean record, boolean nvtx, int myPe, int nPes) {
        if (nvtx) {
            try {
                Nvtx.load();
            } catch (ExceptionInInitializerError e) {
                throw new IllegalStateException("JSHMEM_NVTX=1 needs jshmem's NVTX library, and "
                        + e.getCause().getMessage() + ". Unset JSHMEM_NVTX, or build where the CUDA toolkit's"
                        + " nvtx3 headers are", e.getCause());
            }
        }
        return record || nvtx ? new Trace(record, nvtx, myPe, nPes) : OFF;
    }

    /** Whether jshmem's calls are instrumented: the PE records, or opens NVTX ranges. */
    public boolean enabled() {
        return on || nvtx;
    }

    /** Whether this PE records (and writes its part of the trace file at close). */
    public boolean recording() {
        return on;
    }

    /** The start of a span: now, or 0 when tracing is off. Not an NVTX range: see {@link #begin(String)}. */
    public long begin() {
        return on ? System.nanoTime() & ~RANGE : 0;
    }

    /**
     * The start of a span that {@code end} will name {@code name}: as {@link #begin()}, and with
     * {@code JSHMEM_NVTX} an NVTX range opened, which the {@code end} for this start closes.
     */
    public long begin(String name) {
        if (!nvtx) {
            return begin();
        }
        Nvtx.push(name);
        return on ? System.nanoTime() | RANGE : RANGE;
    }

    /** Marks a start whose span has an NVTX range open; costs the clock its last nanosecond. */
    private static final long RANGE = 1;

    private void closeRange(long begin) {
        if (nvtx && (begin & RANGE) != 0) {
            Nvtx.pop();
        }
    }

    /** Records a span of the calling thread from {@code begin} until now. */
    public void end(String name, String category, long begin) {
        closeRange(begin);
        if (on) {
            local.get().span(name, category, begin, System.nanoTime(), -1, -1, -1);
        }
    }

    /** Records a span with its peer (world PE, or -1), size in bytes (or -1) and team slot (or -1). */
    public void end(String name, String category, long begin, int peer, long bytes, int team) {
        closeRange(begin);
        if (on) {
            local.get().span(name, category, begin, System.nanoTime(), peer, bytes, team);
        }
    }

    /**
     * The start of a transfer of {@code bytes}: now, or 0 without reading the clock when tracing is
     * off or the transfer is small (counted, not timed: {@link #transfer}).
     */
    public long beginTransfer(long bytes) {
        return on && bytes >= SMALL_BYTES ? System.nanoTime() : 0;
    }

    /**
     * Records a transfer to or from {@code peer} that began at {@link #beginTransfer}: a span from
     * {@link #SMALL_BYTES} up; a smaller one adds to the count and bytes of its name and peer.
     */
    public void transfer(String name, long begin, int peer, long bytes) {
        if (on) {
            if (bytes >= SMALL_BYTES) {
                local.get().span(name, "rma", begin, System.nanoTime(), peer, bytes, -1);
            } else {
                local.get().count(name, peer, bytes);
            }
        }
    }

    /**
     * Records a span that thread {@code thread} of block {@code block} of this PE's kernels recorded,
     * already on this PE's clock: jshmem hands over what its kernels recorded ({@code jshmem_trace.h})
     * when the job writes its trace. A track per block and thread ("GPU block 3", "GPU block 3 thread
     * 128"), so that each thread's spans nest.
     */
    public synchronized void deviceSpan(int block, int thread, String category, String name, long start, long end,
                                        long value) {
        if (on) {
            deviceTrack(DEVICE_TRACK_IDS + ((long) block << 16) + thread,
                    "GPU block " + block + (thread == 0 ? "" : " thread " + thread))
                    .span(name, category, start, end, -1, -1, -1, value);
        }
    }

    /**
     * Records an operation this PE queued on a stream, timed on the GPU and already on this PE's clock:
     * a track per stream ("GPU stream 2": {@code stream} numbers the PE's streams in the order of their
     * first traced operation), with the peer, size and team as for host calls.
     */
    public synchronized void streamSpan(int stream, String name, String category, long start, long end, int peer,
                                        long bytes, int team) {
        if (on) {
            deviceTrack(STREAM_TRACK_IDS + stream, "GPU stream " + stream)
                    .span(name, category, start, end, peer, bytes, team);
        }
    }

    private Track deviceTrack(long id, String name) {
        return deviceTracks.computeIfAbsent(id, k -> {
            Track t = new Track(k, name, nPes);
            tracks.add(t);
            return t;
        });
    }

    /** Spans the GPU recorded but could not keep, and the bound on the error of its clock's mapping. */
    public synchronized void deviceSummary(long lost, long clockErrorNanos) {
        deviceLost += lost;
        deviceClockError = Math.max(deviceClockError, clockErrorNanos);
    }

    synchronized long deviceLost() {
        return deviceLost;
    }

    synchronized long deviceClockErrorNanos() {
        return deviceClockError;
    }

    /**
     * Sets how this PE's clock maps onto PE 0's: {@code epoch} is the job's time zero on PE 0's
     * clock, {@code offset} what this PE's clock reads above PE 0's, {@code error} the bound on it.
     */
    public void setClock(long epoch, long offset, long error) {
        this.epochNanos = epoch;
        this.offsetNanos = offset;
        this.errorNanos = error;
    }

    /** What this PE's clock reads above PE 0's, as measured at start-up (0 on PE 0's node). */
    public long clockOffsetNanos() {
        return offsetNanos;
    }

    /** The bound on the error of {@link #clockOffsetNanos()} (0 on PE 0's node: one clock). */
    public long clockErrorNanos() {
        return errorNanos;
    }

    int myPe() {
        return myPe;
    }

    int nPes() {
        return nPes;
    }

    List<Track> tracks() {
        return tracks;
    }

    /** Microseconds since the job's epoch on PE 0's clock, for a time of this PE's clock. */
    double micros(long nanos) {
        return (nanos - offsetNanos - epochNanos) / 1e3;
    }
}
