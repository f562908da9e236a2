package org.jshmem.remote;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.locks.ReentrantLock;
import org.jshmem.AtomicOp;
import org.jshmem.bootstrap.OpenMpiAbi;
import org.jshmem.node.SharedWords;

/**
 * The target side of {@link MessageTransport}: applies the requests of other nodes' PEs to this
 * PE's node file (or to its device heap, {@link RemoteTransport#DEVICE_HEAP}, through the
 * {@link TargetMemory} its backend gives), one at a time in the order MPI matches them (which
 * keeps each origin's order: MPI does not let one message overtake an earlier one between the same
 * two processes), and answers them. One receive is always posted for the next request. Whichever thread calls {@link #serve()}
 * first applies what has arrived; the others go on (so a PE's waits, its progress thread and
 * the transport's own waits for answers all serve, and never two at once). Atomics are
 * {@link SharedWords}, so they are atomic with the node's own PEs' atomics on the same words.
 */
final class RequestServer {
    private static final int BATCH = 64;   // the most requests one call applies, so a caller is not held long
    private static final long PAGE = 4096;

    private static final AtomicOp[] OPS = AtomicOp.values();

    private final MpiMessages mpi;
    private final MemorySegment memory;
    private final NodeFile file;
    private TargetMemory deviceHeap;   // guarded by lock
    private final MemorySegment buffers;   // inbox and outbox, page-aligned: a device heap page-locks them
    private final MemorySegment inbox;
    private final MemorySegment outbox;
    private final MemorySegment cell;
    private final ReentrantLock lock = new ReentrantLock();
    private volatile long servedAt = System.nanoTime();
    private volatile Thread servedBy;
    private int byes;       // guarded by lock
    private boolean posted; // guarded by lock

    /** Serves requests to {@code memory} (this PE's node file), with buffers from {@code arena}. */
    RequestServer(MpiMessages mpi, MemorySegment memory, Arena arena) {
        this.mpi = mpi;
        this.memory = memory;
        this.file = new NodeFile(memory);
        long outboxAt = (Request.HEADER + Request.CHUNK + PAGE - 1) / PAGE * PAGE;
        this.buffers = arena.allocate(outboxAt + Request.CHUNK, PAGE);
        this.inbox = buffers.asSlice(0, Request.HEADER + Request.CHUNK);
        this.outbox = buffers.asSlice(outboxAt, Request.CHUNK);
        this.cell = MpiMessages.requestCell(arena);
        post();
    }

    private void post() {
        mpi.postReceive(inbox, (int) inbox.byteSize(), OpenMpiAbi.ANY_SOURCE, Request.TAG, cell);
        posted = true;
    }

    /**
     * Applies the requests that have arrived, up to a batch, unless another thread is doing so;
     * then returns at once.
     */
    void serve() {
        if (!lock.tryLock()) {
            return;
        }
        try {
            for (int i = 0; i < BATCH && posted && mpi.test(cell, -1); i++) {
                posted = false;
                apply();
                post();
            }
            servedBy = Thread.currentThread();
            servedAt = System.nanoTime();
        } finally {
            lock.unlock();
        }
    }

    /** Whether a thread other than the caller served within {@code nanos}, or serves now. */
    boolean servedByOthersWithin(long nanos) {
        return lock.isLocked() && !lock.isHeldByCurrentThread()
                || servedBy != Thread.currentThread() && System.nanoTime() - servedAt < nanos;
    }

    /** How many PEs have said they send no more requests ({@link Request#BYE}). */
    int byes() {
        lock.lock();
        try {
            return byes;
        } finally {
            lock.unlock();
        }
    }

    /** Withdraws the posted receive: after every origin's {@link Request#BYE}. */
    void close() {
        lock.lock();
        try {
            if (posted) {
                mpi.cancel(cell);
                posted = false;
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Applies the requests for the device heap ({@link RemoteTransport#DEVICE_HEAP}) to {@code heap}
     * from now on, its data passing through buffers it adopted; null: none (the buffers released).
     */
    void serveDeviceHeap(TargetMemory heap) {
        lock.lock();
        try {
            if (deviceHeap != null) {
                deviceHeap.releaseBuffer(buffers);
            }
            deviceHeap = null;
            if (heap != null) {
                heap.adoptBuffer(buffers);
            }
            deviceHeap = heap;
        } finally {
            lock.unlock();
        }
    }

    private void apply() {
        int kind = inbox.get(JAVA_INT, Request.KIND);
        int origin = inbox.get(JAVA_INT, Request.ORIGIN);
        int tag = inbox.get(JAVA_INT, Request.REPLY_TAG);
        long disp = inbox.get(JAVA_LONG, Request.DISP);
        long length = inbox.get(JAVA_LONG, Request.LENGTH);
        int width = (int) inbox.get(JAVA_LONG, Request.WIDTH);
        boolean device = (disp & RemoteTransport.DEVICE_HEAP) != 0;
        long at = disp & ~RemoteTransport.DEVICE_HEAP;
        TargetMemory target = device ? deviceHeap() : file;
        switch (kind) {
            case Request.PUT -> {
                target.write(at, inbox.asSlice(Request.HEADER, length));
                acknowledge(origin, tag);
            }
            case Request.PUT_BULK -> {   // the origin sends the data right after the header: into place, or via outbox
                int dataTag = (int) inbox.get(JAVA_LONG, Request.PITCH);
                if (device) {
                    mpi.receive(outbox, (int) length, origin, dataTag);
                    target.write(at, outbox.asSlice(0, length));
                } else {
                    mpi.receive(memory.asSlice(at, length), (int) length, origin, dataTag);
                }
                acknowledge(origin, tag);
            }
            case Request.PUT_STRIDED -> {
                target.writeStrided(at, inbox.get(JAVA_LONG, Request.PITCH), inbox.asSlice(Request.HEADER, length), width);
                acknowledge(origin, tag);
            }
            case Request.GET -> {
                if (device) {
                    target.read(at, outbox.asSlice(0, length));
                    mpi.send(outbox, (int) length, origin, tag);
                } else {
                    mpi.send(memory.asSlice(at, length), (int) length, origin, tag);
                }
            }
            case Request.GET_STRIDED -> {
                target.readStrided(at, inbox.get(JAVA_LONG, Request.PITCH), outbox.asSlice(0, length), width);
                mpi.send(outbox, (int) length, origin, tag);
            }
            case Request.ATOMIC -> answer(origin, tag, target.atomic(OPS[inbox.get(JAVA_INT, Request.OP)], width, at,
                    inbox.get(JAVA_LONG, Request.VALUE), inbox.get(JAVA_LONG, Request.COMPARAND)));
            case Request.STORE -> {
                target.store(at, width, inbox.get(JAVA_LONG, Request.VALUE));
                acknowledge(origin, tag);
            }
            case Request.LOAD -> answer(origin, tag, target.load(at, width));
            case Request.FLUSH -> acknowledge(origin, tag);
            case Request.BYE -> byes++;
            default -> throw new IllegalStateException("the remote transport received a request of unknown kind " + kind
                    + " from PE " + origin + ": the PEs run different versions of jshmem");
        }
    }

    private TargetMemory deviceHeap() {
        if (deviceHeap == null) {
            throw new IllegalStateException("a request for this PE's device heap arrived, but this PE serves none (its"
                    + " backend keeps the heap in host memory, or has closed it)");
        }
        return deviceHeap;
    }

    /** The node's shared-memory file: copies, and {@link SharedWords} for words. */
    private record NodeFile(MemorySegment memory) implements TargetMemory {
        @Override
        public void write(long at, MemorySegment src) {
            MemorySegment.copy(src, 0, memory, at, src.byteSize());
        }

        @Override
        public void read(long at, MemorySegment dst) {
            MemorySegment.copy(memory, at, dst, 0, dst.byteSize());
        }

        @Override
        public long atomic(AtomicOp op, int width, long at, long value, long comparand) {
            return width == 4 ? SharedWords.atomicInt(memory, at, op, (int) value, (int) comparand)
                    : SharedWords.atomicLong(memory, at, op, value, comparand);
        }

        @Override
        public void store(long at, int width, long bits) {
            SharedWords.store(memory, at, width, bits);
        }

        @Override
        public long load(long at, int width) {
            return SharedWords.load(memory, at, width);
        }
    }

    private void acknowledge(int origin, int tag) {
        if (tag != 0) {
            mpi.send(outbox, 0, origin, tag);
        }
    }

    private void answer(int origin, int tag, long value) {
        if (tag != 0) {
            outbox.set(JAVA_LONG, 0, value);
            mpi.send(outbox, 8, origin, tag);
        }
    }
}
