package org.jshmem.remote;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.jshmem.AtomicOp;
import org.jshmem.bootstrap.LibMpi;

/**
 * The two-sided {@link RemoteTransport}: each operation is a request ({@link Request}) sent with
 * {@code MPI_Send} to the PE that owns the memory, whose {@link RequestServer} applies it to its
 * node file and answers. It needs nothing of MPI but point-to-point messages, so it runs where the
 * one-sided layer cannot serve a window over jshmem's memory (Open MPI without a single-copy
 * mechanism, as in containers); {@code JSHMEM_REMOTE_PROTOCOL=auto} takes it there.
 *
 * <p>A put of more than {@link Request#INLINE} bytes from native memory sends its data as a second
 * message, which the target receives straight into place: no copy on either side.
 *
 * <p>Order and completion: a target applies one origin's requests in the order they were sent, so
 * a fence costs nothing. Blocking operations wait for the target's answer (an acknowledgement for
 * puts and stores), so they are complete at the target on return, as on the one-sided transport;
 * a non-blocking put is not acknowledged, and {@link #quiet()} sends a flush to each PE that has
 * one outstanding and waits for the answers. A non-blocking get waits like a blocking one. Control
 * words ({@link #publish}) are sent without an acknowledgement: they only grow, and nothing waits on
 * their arrival but the reader that polls them.
 *
 * <p>Progress: a request is applied when the target serves, in its waits, in its transport calls
 * (which serve while they wait for an answer, so two PEs waiting on each other both move) and in
 * its {@link ProgressThread}. A thread waiting for an answer shows on the {@link CallClock}, so a
 * peer that died is reported by the watchdog instead of waited for.
 */
final class MessageTransport implements RemoteTransport {
    private static final int SPINS_BEFORE_YIELD = 256;
    private static final int SPINS_PER_SERVE = 8;   // a power of two

    private final MpiMessages mpi;
    private final RequestServer server;
    private final Arena arena;
    private final CallClock clock = new CallClock();
    private final int me;
    private final int nPes;
    private final NodeLeaders leaders;
    private final AtomicIntegerArray unflushed;   // 1: a non-blocking put to the PE since its last flush
    private final AtomicInteger nextTag = new AtomicInteger(Request.FIRST_REPLY_TAG);
    private final ThreadLocal<Scratch> scratch = ThreadLocal.withInitial(Scratch::new);
    private boolean closed;

    /**
     * A thread's buffers: a request header, a request with payload (made on first use: the progress
     * thread sends only headers), an answer, and a receive cell per PE ({@link #quiet()} waits on several).
     */
    private final class Scratch {
        final Arena memory = Arena.ofAuto();
        final int tag = nextTag.getAndAdd(2);   // answers to this thread; tag + 1: the data of its bulk puts
        final MemorySegment head = memory.allocate(Request.HEADER, 64);
        final MemorySegment answer = memory.allocate(8, 8);
        final MemorySegment cells = memory.allocate(16L * nPes, 8);
        final boolean[] owed = new boolean[nPes];
        private MemorySegment out;

        MemorySegment out() {
            if (out == null) {
                out = memory.allocate(Request.HEADER + Request.CHUNK, 64);
            }
            return out;
        }

        MemorySegment cell(int pe) {
            return cells.asSlice(16L * pe, 16);
        }
    }

    private MessageTransport(MpiMessages mpi, MemorySegment nodeFile, int myNode, int[] leaders) {
        this.mpi = mpi;
        this.arena = Arena.ofShared();
        this.server = new RequestServer(mpi, nodeFile, arena);
        this.me = mpi.rank();
        this.nPes = mpi.size();
        this.leaders = new NodeLeaders(leaders, myNode);
        this.unflushed = new AtomicIntegerArray(nPes);
    }

    /** Collective over every PE of the job: a communicator of the transport's own, and the server's first receive. */
    static MessageTransport open(LibMpi mpi, MemorySegment nodeFile, int myNode, int[] leaders) {
        return new MessageTransport(new MpiMessages(mpi), nodeFile, myNode, leaders);
    }

    @Override
    public String describe() {
        return "MPI two-sided requests";
    }

    @Override
    public boolean carriesDeviceHeaps() {
        return true;
    }

    @Override
    public void serveDeviceHeap(TargetMemory heap) {
        server.serveDeviceHeap(heap);
    }

    /** The most bytes of one message to {@code disp}: a device heap's pass through the target's 1 MiB buffer. */
    private static long messageLimit(long disp, boolean bulk) {
        return (disp & DEVICE_HEAP) != 0 ? Request.CHUNK : bulk ? Request.MAX_MESSAGE : Request.CHUNK;
    }

    // ------------------------------------------------------------------ heap data

    @Override
    public void put(int pe, long disp, MemorySegment src, boolean nbi) {
        long n = src.byteSize();
        if (n == 0) {
            return;
        }
        Scratch s = scratch.get();
        boolean bulk = src.isNative() && n > Request.INLINE;   // the data as a message of its own, no copies
        long most = messageLimit(disp, bulk);
        CallClock.Slot call = clock.enter("MPI_Send (put)", pe);
        try {
            if (!nbi) {
                mpi.postReceive(s.answer, 0, pe, s.tag, s.cell(pe));
            }
            for (long done = 0; done < n; done += most) {
                int len = (int) Math.min(most, n - done);
                int reply = nbi || done + len < n ? 0 : s.tag;
                if (bulk) {
                    Request.header(s.head, Request.PUT_BULK, me, reply, disp + done, len);
                    s.head.set(JAVA_LONG, Request.PITCH, s.tag + 1);
                    mpi.send(s.head, Request.HEADER, pe, Request.TAG);
                    mpi.send(src.asSlice(done, len), len, pe, s.tag + 1);
                } else {
                    MemorySegment out = s.out();
                    Request.header(out, Request.PUT, me, reply, disp + done, len);
                    MemorySegment.copy(src, done, out, Request.HEADER, len);
                    mpi.send(out, Request.HEADER + len, pe, Request.TAG);
                }
            }
            if (nbi) {
                unflushed.set(pe, 1);
            } else {
                await(s, pe);
            }
        } finally {
            call.leave();
        }
    }

    @Override
    public void get(MemorySegment dst, int pe, long disp, boolean nbi) {
        long n = dst.byteSize();
        Scratch s = scratch.get();
        long most = messageLimit(disp, dst.isNative());   // a Java array goes through `out`
        CallClock.Slot call = clock.enter("MPI_Send (get)", pe);
        try {
            for (long done = 0; done < n; done += most) {
                int len = (int) Math.min(most, n - done);
                MemorySegment into = dst.isNative() ? dst.asSlice(done, len) : s.out();
                mpi.postReceive(into, len, pe, s.tag, s.cell(pe));
                Request.header(s.head, Request.GET, me, s.tag, disp + done, len);
                mpi.send(s.head, Request.HEADER, pe, Request.TAG);
                await(s, pe);
                if (!dst.isNative()) {
                    MemorySegment.copy(s.out(), 0, dst, done, len);
                }
            }
        } finally {
            call.leave();
        }
    }

    @Override
    public void putStrided(int pe, long disp, long destPitch, MemorySegment src, long srcPitch, long elemBytes,
                           long nelems) {
        if (nelems == 0) {
            return;   // no request, so no answer to wait for
        }
        if (elemBytes > Request.CHUNK) {
            for (long i = 0; i < nelems; i++) {
                put(pe, disp + i * destPitch, src.asSlice(i * srcPitch, elemBytes), false);
            }
            return;
        }
        Scratch s = scratch.get();
        MemorySegment out = s.out();
        long perRequest = Request.CHUNK / elemBytes;
        CallClock.Slot call = clock.enter("MPI_Send (strided put)", pe);
        try {
            mpi.postReceive(s.answer, 0, pe, s.tag, s.cell(pe));
            for (long first = 0; first < nelems; first += perRequest) {
                long count = Math.min(perRequest, nelems - first);
                boolean last = first + count == nelems;
                Request.header(out, Request.PUT_STRIDED, me, last ? s.tag : 0, disp + first * destPitch, count * elemBytes);
                out.set(JAVA_LONG, Request.PITCH, destPitch);
                out.set(JAVA_LONG, Request.WIDTH, elemBytes);
                for (long k = 0; k < count; k++) {
                    MemorySegment.copy(src, (first + k) * srcPitch, out, Request.HEADER + k * elemBytes, elemBytes);
                }
                mpi.send(out, (int) (Request.HEADER + count * elemBytes), pe, Request.TAG);
            }
            await(s, pe);
        } finally {
            call.leave();
        }
    }

    @Override
    public void getStrided(MemorySegment dst, long dstPitch, int pe, long disp, long srcPitch, long elemBytes, long nelems) {
        if (elemBytes > Request.CHUNK) {
            for (long i = 0; i < nelems; i++) {
                get(dst.asSlice(i * dstPitch, elemBytes), pe, disp + i * srcPitch, false);
            }
            return;
        }
        Scratch s = scratch.get();
        long perRequest = Request.CHUNK / elemBytes;
        CallClock.Slot call = clock.enter("MPI_Send (strided get)", pe);
        try {
            for (long first = 0; first < nelems; first += perRequest) {
                long count = Math.min(perRequest, nelems - first);
                int len = (int) (count * elemBytes);
                mpi.postReceive(s.out(), len, pe, s.tag, s.cell(pe));
                Request.header(s.head, Request.GET_STRIDED, me, s.tag, disp + first * srcPitch, len);
                s.head.set(JAVA_LONG, Request.PITCH, srcPitch);
                s.head.set(JAVA_LONG, Request.WIDTH, elemBytes);
                mpi.send(s.head, Request.HEADER, pe, Request.TAG);
                await(s, pe);
                for (long k = 0; k < count; k++) {
                    MemorySegment.copy(s.out(), k * elemBytes, dst, (first + k) * dstPitch, elemBytes);
                }
            }
        } finally {
            call.leave();
        }
    }

    // ------------------------------------------------------------------ atomics, stores, loads

    @Override
    public long atomic(AtomicOp op, int width, int pe, long disp, long value, long comparand) {
        Scratch s = scratch.get();
        Request.header(s.head, Request.ATOMIC, me, s.tag, disp, 0);
        s.head.set(JAVA_INT, Request.OP, op.ordinal());
        s.head.set(JAVA_LONG, Request.VALUE, value);
        s.head.set(JAVA_LONG, Request.COMPARAND, comparand);
        s.head.set(JAVA_LONG, Request.WIDTH, width);
        return ask(s, pe, "MPI_Send (atomic)", 8);
    }

    @Override
    public void store(int pe, long disp, int width, long bits) {
        Scratch s = scratch.get();
        Request.header(s.head, Request.STORE, me, s.tag, disp, 0);
        s.head.set(JAVA_LONG, Request.VALUE, bits);
        s.head.set(JAVA_LONG, Request.WIDTH, width);
        ask(s, pe, "MPI_Send (store)", 0);
    }

    @Override
    public long load(int pe, long disp, int width) {
        Scratch s = scratch.get();
        Request.header(s.head, Request.LOAD, me, s.tag, disp, 0);
        s.head.set(JAVA_LONG, Request.WIDTH, width);
        return ask(s, pe, "MPI_Send (load)", 8);
    }

    /** Sends the request in {@code s.head} to {@code pe} and waits for its answer of {@code answerBytes} (0 or 8). */
    private long ask(Scratch s, int pe, String what, int answerBytes) {
        CallClock.Slot call = clock.enter(what, pe);
        try {
            mpi.postReceive(s.answer, answerBytes, pe, s.tag, s.cell(pe));
            mpi.send(s.head, Request.HEADER, pe, Request.TAG);
            await(s, pe);
            return answerBytes == 0 ? 0 : s.answer.get(JAVA_LONG, 0);
        } finally {
            call.leave();
        }
    }

    /**
     * Waits for the receive posted in {@code s.cell(pe)}, serving this PE's requests every few spins
     * meanwhile (each serve is an MPI call of its own, which on every spin delayed the answer).
     */
    private void await(Scratch s, int pe) {
        MemorySegment cell = s.cell(pe);
        for (int spins = 0; !mpi.test(cell, pe); spins++) {
            if ((spins & (SPINS_PER_SERVE - 1)) == SPINS_PER_SERVE - 1) {
                server.serve();
            }
            if (spins < SPINS_BEFORE_YIELD) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
    }

    // ------------------------------------------------------------------ ordering and progress

    @Override
    public void quiet() {
        Scratch s = scratch.get();
        CallClock.Slot call = clock.enter("MPI_Send (flush)", -1);
        try {
            boolean any = false;
            for (int pe = 0; pe < nPes; pe++) {
                if (unflushed.get(pe) != 0 && unflushed.getAndSet(pe, 0) != 0) {
                    mpi.postReceive(s.answer, 0, pe, s.tag, s.cell(pe));
                    Request.header(s.head, Request.FLUSH, me, s.tag, 0, 0);
                    mpi.send(s.head, Request.HEADER, pe, Request.TAG);
                    s.owed[pe] = true;
                    any = true;
                }
            }
            for (int pe = 0; any && pe < nPes; pe++) {
                if (s.owed[pe]) {
                    s.owed[pe] = false;
                    await(s, pe);
                }
            }
        } finally {
            call.leave();
        }
    }

    @Override
    public void progress() {
        server.serve();
    }

    @Override
    public boolean drivenByOthersWithin(long nanos) {
        return server.servedByOthersWithin(nanos);
    }

    @Override
    public Optional<MpiCall> oldestCall() {
        return clock.oldest();
    }

    // ------------------------------------------------------------------ control plane

    @Override
    public void publish(long controlOffset, int width, long value) {
        Scratch s = scratch.get();
        Request.header(s.head, Request.STORE, me, 0, controlOffset, 0);
        s.head.set(JAVA_LONG, Request.VALUE, value);
        s.head.set(JAVA_LONG, Request.WIDTH, width);
        leaders.toOtherNodes(leader -> {
            CallClock.Slot call = clock.enter("MPI_Send (control word)", leader);
            try {
                mpi.send(s.head, Request.HEADER, leader, Request.TAG);
            } finally {
                call.leave();
            }
        });
    }

    /**
     * Collective: tells every PE that this one sends no more requests, serves until every PE has
     * said the same (so no request is left unapplied and no answer unsent), then withdraws the
     * server's receive and frees the communicator.
     */
    @Override
    public synchronized void close(boolean clean) {
        if (closed) {
            return;
        }
        closed = true;
        if (!clean) {
            return;
        }
        Scratch s = scratch.get();
        Request.header(s.head, Request.BYE, me, 0, 0, 0);
        CallClock.Slot call = clock.enter("waiting for every PE to close the remote transport", -1);
        try {
            for (int pe = 0; pe < nPes; pe++) {
                if (pe != me) {
                    mpi.send(s.head, Request.HEADER, pe, Request.TAG);
                }
            }
            while (server.byes() < nPes - 1) {
                server.serve();
                Thread.yield();
            }
        } finally {
            call.leave();
        }
        server.close();
        mpi.free();
        arena.close();
    }
}
