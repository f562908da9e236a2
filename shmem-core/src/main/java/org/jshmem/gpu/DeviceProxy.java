package org.jshmem.gpu;

import static org.jshmem.gpu.GpuHeapDescriptor.PROXY_HEADER;
import static org.jshmem.gpu.GpuHeapDescriptor.PROXY_PAYLOAD;
import static org.jshmem.gpu.GpuHeapDescriptor.PROXY_SLOTS;
import static org.jshmem.gpu.GpuHeapDescriptor.PROXY_SLOT_BYTES;
import static org.jshmem.gpu.GpuHeapDescriptor.proxySlotField;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import org.jshmem.AtomicOp;
import org.jshmem.SignalOp;
import org.jshmem.gpu.shim.Shim;
import org.jshmem.remote.DaemonLoop;
import org.jshmem.remote.RemoteTransport;

/**
 * The host side of device calls to PEs of other nodes ({@code jshmem_proxy.h}, a reverse offload as
 * rocSHMEM's): a ring of {@link GpuHeapDescriptor#PROXY_SLOTS} request slots in pinned host memory
 * that kernels map and fill, and a daemon thread that serves them in ticket order over the remote
 * transport, as requests for the target's device heap ({@link RemoteTransport#DEVICE_HEAP}; the
 * target applies them with its {@link GpuHeapTarget}). A request is served when its call is
 * complete at the target, so the kernel's call is too when it sees the answer.
 *
 * <p>The thread polls without parking for a millisecond after a request (a kernel's calls come in
 * bursts), then parks 50 us between polls, and 1 ms once the ring has been idle for 100 ms. While
 * it polls it also serves the requests other nodes send this PE ({@link RemoteTransport#progress()},
 * between polls): its own requests drive MPI, so the progress thread backs off (up to 6.4 ms), and
 * a kernel waiting for a peer's answer (a ping-pong of put_signal through two proxies) would
 * otherwise wait that long for each one; entering MPI between polls, unthrottled, keeps that
 * ping-pong at tens of microseconds. A request that fails (a dead PE) is answered
 * with a status that traps the kernel, after this thread printed the PE and the reason.
 */
final class DeviceProxy implements AutoCloseable {
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final long POSTED = proxySlotField("posted");
    private static final long DONE = proxySlotField("done");
    private static final long FREE = proxySlotField("free");
    private static final long OP = proxySlotField("op");
    private static final long PE = proxySlotField("pe");
    private static final long OFFSET = proxySlotField("offset");
    private static final long BYTES = proxySlotField("bytes");
    private static final long VALUE = proxySlotField("value");
    private static final long COMPARAND = proxySlotField("comparand");
    private static final long SIG_OFFSET = proxySlotField("sig_offset");
    private static final long SIG_OP = proxySlotField("sig_op");
    private static final long WIDTH = proxySlotField("width");
    private static final long AMO = proxySlotField("amo");
    private static final long STATUS = proxySlotField("status");
    private static final long RESULT = proxySlotField("result");
    private static final long BUSY_NANOS = 1_000_000;
    private static final long IDLE_NANOS = 100_000_000;
    private static final AtomicOp[] ATOMIC_OPS = AtomicOp.values();
    private static final SignalOp[] SIGNAL_OPS = SignalOp.values();

    private final RemoteTransport remote;
    private final int myPe;
    private final MemorySegment ring;
    private final MemorySegment[] payloads = new MemorySegment[PROXY_SLOTS];
    private final DaemonLoop loop;
    private long next;                         // the ticket served next (the serving thread's)
    private long lastServed = System.nanoTime();
    private boolean reported;
    private boolean progressing = true;        // whether it still enters MPI for other nodes' requests

    /** Allocates the ring (every slot free for its first ticket) and starts serving it. */
    DeviceProxy(RemoteTransport remote, int myPe) {
        this.remote = remote;
        this.myPe = myPe;
        this.ring = Shim.hostAlloc(PROXY_SLOTS * PROXY_SLOT_BYTES);
        ring.fill((byte) 0);
        for (int i = 0; i < PROXY_SLOTS; i++) {
            payloads[i] = ring.asSlice(i * PROXY_SLOT_BYTES + PROXY_HEADER, PROXY_PAYLOAD);
            LONG.setRelease(ring, i * PROXY_SLOT_BYTES + FREE, (long) i);
        }
        this.loop = new DaemonLoop("jshmem-device-proxy-" + myPe, this::step);
    }

    /** The ring, as kernels address it (pinned memory is mapped at the same address): the device state's {@code proxy}. */
    MemorySegment ring() {
        return ring;
    }

    /** Serves every request posted in order; returns how long to park. */
    private long step() {
        boolean served = false;
        while (true) {
            int slot = (int) (next % PROXY_SLOTS);
            long at = slot * PROXY_SLOT_BYTES;
            if ((long) LONG.getAcquire(ring, at + POSTED) != next + 1) {
                break;
            }
            ring.set(ValueLayout.JAVA_INT, at + STATUS, serve(at, payloads[slot]) ? 0 : 1);
            LONG.setRelease(ring, at + DONE, next + 1);
            next++;
            served = true;
        }
        long now = System.nanoTime();
        if (served) {
            lastServed = now;
        }
        long idle = now - lastServed;
        if (idle < BUSY_NANOS) {
            if (!served && progressing) {
                try {
                    remote.progress();
                } catch (RuntimeException e) {
                    progressing = false;   // MPI reports a dead peer: the waits name it, and this thread serves on
                }
            }
            return 0;
        }
        return idle < IDLE_NANOS ? 50_000 : 1_000_000;
    }

    /** Carries out the request in the slot at {@code at}; false (after saying why, once) if it failed. */
    private boolean serve(long at, MemorySegment payload) {
        int op = ring.get(ValueLayout.JAVA_INT, at + OP);
        int pe = ring.get(ValueLayout.JAVA_INT, at + PE);
        long disp = RemoteTransport.DEVICE_HEAP | ring.get(ValueLayout.JAVA_LONG, at + OFFSET);
        long value = ring.get(ValueLayout.JAVA_LONG, at + VALUE);
        int width = ring.get(ValueLayout.JAVA_INT, at + WIDTH);
        try {
            switch (op) {
                case GpuHeapDescriptor.PROXY_PUT -> {
                    long bytes = ring.get(ValueLayout.JAVA_LONG, at + BYTES);
                    if (bytes > 0) {   // a put_signal of no data carries its signal alone
                        remote.put(pe, disp, payload.asSlice(0, bytes), false);
                    }
                    int sigOp = ring.get(ValueLayout.JAVA_INT, at + SIG_OP);
                    if (sigOp >= 0) {   // after the data: the transport keeps each target's order
                        long sig = RemoteTransport.DEVICE_HEAP | ring.get(ValueLayout.JAVA_LONG, at + SIG_OFFSET);
                        remote.atomic(SIGNAL_OPS[sigOp].atomicOp(), 8, pe, sig, value, 0);
                    }
                }
                case GpuHeapDescriptor.PROXY_GET ->
                    remote.get(payload.asSlice(0, ring.get(ValueLayout.JAVA_LONG, at + BYTES)), pe, disp, false);
                case GpuHeapDescriptor.PROXY_AMO -> ring.set(ValueLayout.JAVA_LONG, at + RESULT,
                        remote.atomic(ATOMIC_OPS[ring.get(ValueLayout.JAVA_INT, at + AMO)], width, pe, disp, value,
                                ring.get(ValueLayout.JAVA_LONG, at + COMPARAND)));
                case GpuHeapDescriptor.PROXY_STORE -> remote.store(pe, disp, width, value);
                case GpuHeapDescriptor.PROXY_LOAD -> ring.set(ValueLayout.JAVA_LONG, at + RESULT, remote.load(pe, disp, width));
                default -> throw new IllegalStateException("unknown request kind " + op + " (the device library and the"
                        + " runtime disagree: rebuild the kernel against this jshmem's headers)");
            }
            return true;
        } catch (RuntimeException e) {
            if (!reported) {
                reported = true;
                System.err.println("jshmem: PE " + myPe + ": device proxy: a kernel's request (kind " + op + ") to PE "
                        + pe + " failed, the kernel traps: " + e.getMessage());
            }
            return false;
        }
    }

    /** Stops the thread (the kernels that used the ring have ended) and frees the ring. */
    @Override
    public void close() {
        loop.close();
        Shim.hostFree(ring);
    }
}
