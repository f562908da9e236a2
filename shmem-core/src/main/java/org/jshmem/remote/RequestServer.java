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
 * PE's node file, one at a time in the order MPI matches them (which keeps each origin's order: MPI
 * does not let one message overtake an earlier one between the same two processes), and answers
 * them. One receive is always posted for the next request. Whichever thread calls {@link #serve()}
 * first applies what has arrived; the others go on (so a PE's waits, its progress thread and
 * the transport's own waits for answers all serve, and never two at once). Atomics are
 * {@link SharedWords}, so they are atomic with the node's own PEs' atomics on the same words.
 */
final class RequestServer {
    private static final int BATCH = 64;   // the most requests one call applies, so a caller is not held long

    private static final AtomicOp[] OPS = AtomicOp.values();

    private final MpiMessages mpi;
    private final MemorySegment memory;
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
        this.inbox = arena.allocate(Request.HEADER + Request.CHUNK, 64);
        this.outbox = arena.allocate(Request.CHUNK, 64);
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

    private void apply() {
        int kind = inbox.get(JAVA_INT, Request.KIND);
        int origin = inbox.get(JAVA_INT, Request.ORIGIN);
        int tag = inbox.get(JAVA_INT, Request.REPLY_TAG);
        long disp = inbox.get(JAVA_LONG, Request.DISP);
        long length = inbox.get(JAVA_LONG, Request.LENGTH);
        int width = (int) inbox.get(JAVA_LONG, Request.WIDTH);
        switch (kind) {
            case Request.PUT -> {
                MemorySegment.copy(inbox, Request.HEADER, memory, disp, length);
                acknowledge(origin, tag);
            }
            case Request.PUT_BULK -> {   // the origin sends the data right after the header: take it into place
                mpi.receive(memory.asSlice(disp, length), (int) length, origin, (int) inbox.get(JAVA_LONG, Request.PITCH));
                acknowledge(origin, tag);
            }
            case Request.PUT_STRIDED -> {
                long pitch = inbox.get(JAVA_LONG, Request.PITCH);
                for (long i = 0, n = length / width; i < n; i++) {
                    MemorySegment.copy(inbox, Request.HEADER + i * width, memory, disp + i * pitch, width);
                }
                acknowledge(origin, tag);
            }
            case Request.GET -> mpi.send(memory.asSlice(disp, length), (int) length, origin, tag);
            case Request.GET_STRIDED -> {
                long pitch = inbox.get(JAVA_LONG, Request.PITCH);
                for (long i = 0, n = length / width; i < n; i++) {
                    MemorySegment.copy(memory, disp + i * pitch, outbox, i * width, width);
                }
                mpi.send(outbox, (int) length, origin, tag);
            }
            case Request.ATOMIC -> {
                AtomicOp op = OPS[inbox.get(JAVA_INT, Request.OP)];
                long value = inbox.get(JAVA_LONG, Request.VALUE);
                long comparand = inbox.get(JAVA_LONG, Request.COMPARAND);
                long old = width == 4 ? SharedWords.atomicInt(memory, disp, op, (int) value, (int) comparand)
                        : SharedWords.atomicLong(memory, disp, op, value, comparand);
                answer(origin, tag, old);
            }
            case Request.STORE -> {
                SharedWords.store(memory, disp, width, inbox.get(JAVA_LONG, Request.VALUE));
                acknowledge(origin, tag);
            }
            case Request.LOAD -> answer(origin, tag, SharedWords.load(memory, disp, width));
            case Request.FLUSH -> acknowledge(origin, tag);
            case Request.BYE -> byes++;
            default -> throw new IllegalStateException("the remote transport received a request of unknown kind " + kind
                    + " from PE " + origin + ": the PEs run different versions of jshmem");
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
