package org.jshmem.remote;

import java.lang.foreign.MemorySegment;
import java.util.Optional;
import org.jshmem.AtomicOp;
import org.jshmem.BootstrapException;
import org.jshmem.ShmemConfig.RemoteProtocol;
import org.jshmem.bootstrap.LibMpi;
import org.jshmem.bootstrap.OpenMpiAbi;

/**
 * The remote transport: this PE's access to the memory of PEs on other nodes, over the MPI the job
 * was started with. Addresses are displacements in the target's node file (the node's
 * shared-memory file: control block, then the node's heaps): a heap byte of PE p is reached at
 * rank p, a control word of a node at its leader's rank ({@link #publish}).
 *
 * <p>Two implementations, chosen by {@code JSHMEM_REMOTE_PROTOCOL} ({@link #open}): one-sided
 * windows ({@link RmaTransport}), and two-sided requests that the target applies to its own memory
 * ({@link MessageTransport}), for an MPI whose one-sided layer cannot serve a window over memory it
 * did not allocate.
 *
 * <p>Completion, for both: blocking puts and gets, stores, loads and atomics are complete at the
 * target when they return; non-blocking puts and gets are completed by {@link #quiet()}, which is
 * also the fence. Every wait of jshmem calls {@link #progress()} on each spin, and a
 * {@link ProgressThread} calls it every few hundred microseconds for a PE that computes outside jshmem.
 */
public interface RemoteTransport extends AutoCloseable {
    /**
     * Set in a displacement: the rest is an offset in the target PE's device heap (the one it
     * serves through {@link #serveDeviceHeap}), not in its node file. Only a transport that
     * {@link #carriesDeviceHeaps()} takes it.
     */
    long DEVICE_HEAP = 1L << 62;

    /**
     * Collective over every PE of the job: opens the transport over {@code nodeFile}, this PE's
     * node's shared-memory file, whose first {@code controlBytes} are the control block.
     * {@link RemoteProtocol#AUTO} tries the one-sided windows and, when no PE's MPI can make them,
     * takes the two-sided requests. MPI must run with {@code MPI_THREAD_MULTIPLE} (the bootstrap
     * asks for it when peers may be remote).
     *
     * @param mpiLibrary   Open MPI's library (as {@code JSHMEM_MPI_LIBRARY}; blank: the default)
     * @param protocol     one-sided, two-sided, or the first of them that works
     * @param nodeFile     this PE's node's file
     * @param controlBytes the size of the control block at its start
     * @param myNode       this PE's node
     * @param leaders      the rank (PE) that takes control words for each node: its lowest PE
     */
    static RemoteTransport open(String mpiLibrary, RemoteProtocol protocol, MemorySegment nodeFile, long controlBytes,
                                int myNode, int[] leaders) {
        LibMpi mpi = LibMpi.load(mpiLibrary);
        int level = mpi.threadLevel();
        if (level < OpenMpiAbi.THREAD_MULTIPLE) {
            throw new BootstrapException("the remote transport needs MPI started with MPI_THREAD_MULTIPLE (its progress"
                    + " thread enters MPI beside the program's threads), but MPI runs with "
                    + OpenMpiAbi.threadLevelName(level) + ". A program that starts MPI itself must ask for"
                    + " MPI_THREAD_MULTIPLE when its PEs span nodes (or JSHMEM_TRANSPORT=remote / JSHMEM_NODE_OF_RANK is set).");
        }
        return switch (protocol) {
            case RMA -> RmaTransport.open(mpi, nodeFile, controlBytes, myNode, leaders);
            case MESSAGES -> MessageTransport.open(mpi, nodeFile, myNode, leaders);
            case AUTO -> openAuto(mpi, nodeFile, controlBytes, myNode, leaders);
        };
    }

    /** One-sided if the windows can be made on every PE, two-sided if on none; mixed is an error naming the PEs. */
    private static RemoteTransport openAuto(LibMpi mpi, MemorySegment nodeFile, long controlBytes, int myNode,
                                            int[] leaders) {
        RmaTransport rma = null;
        BootstrapException failed = null;
        try {
            rma = RmaTransport.open(mpi, nodeFile, controlBytes, myNode, leaders);
        } catch (BootstrapException e) {
            failed = e;
        }
        MemorySegment world = mpi.commWorld();
        byte[] made = mpi.allgather(world, new byte[] {(byte) (rma != null ? 1 : 0)}, mpi.size(world));
        StringBuilder without = new StringBuilder();
        int missing = 0;
        for (int pe = 0; pe < made.length; pe++) {
            if (made[pe] == 0) {
                without.append(missing++ == 0 ? "" : ", ").append(pe);
            }
        }
        if (missing == 0) {
            return rma;
        }
        if (missing < made.length) {   // some PEs have the windows, some not
            throw new BootstrapException("the remote transport's MPI one-sided windows could be made on some PEs but not on"
                    + " PEs " + without + (failed != null ? " (here: " + failed.getMessage() + ")" : "")
                    + ". The PEs of a job must run the same MPI with the same settings; or set JSHMEM_REMOTE_PROTOCOL=messages"
                    + " to use two-sided requests on every PE.", failed);
        }
        return MessageTransport.open(mpi, nodeFile, myNode, leaders);
    }

    /** The protocol, for messages and benchmark headers: "MPI one-sided" or "MPI two-sided requests". */
    String describe();

    /**
     * Whether displacements may name a device heap ({@link #DEVICE_HEAP}): memory that only this
     * PE's own calls reach (GPU memory), so requests for it must be applied by the PE itself.
     */
    boolean carriesDeviceHeaps();

    /**
     * Applies the other PEs' operations on this PE's device heap ({@link #DEVICE_HEAP} displacements)
     * to {@code heap} from now on; {@code null} stops that (before the heap is freed).
     *
     * @throws UnsupportedOperationException if the transport does not {@link #carriesDeviceHeaps()}
     */
    void serveDeviceHeap(TargetMemory heap);

    /** Copies {@code src} to {@code pe}'s node file at {@code disp}; complete at the target unless {@code nbi} (then {@link #quiet()}). */
    void put(int pe, long disp, MemorySegment src, boolean nbi);

    /** Copies from {@code pe}'s node file at {@code disp} into {@code dst}; complete on return unless {@code nbi} (then {@link #quiet()}). */
    void get(MemorySegment dst, int pe, long disp, boolean nbi);

    /** {@link #put(int, long, MemorySegment, boolean)} of bytes {@code [srcOffset, srcOffset + bytes)} of {@code src}. */
    default void put(int pe, long disp, MemorySegment src, long srcOffset, long bytes, boolean nbi) {
        put(pe, disp, src.asSlice(srcOffset, bytes), nbi);
    }

    /** {@link #get(MemorySegment, int, long, boolean)} into bytes {@code [dstOffset, dstOffset + bytes)} of {@code dst}. */
    default void get(MemorySegment dst, long dstOffset, long bytes, int pe, long disp, boolean nbi) {
        get(dst.asSlice(dstOffset, bytes), pe, disp, nbi);
    }

    /**
     * Strided put, complete at the target on return: element i ({@code elemBytes}) from {@code src}
     * at {@code i * srcPitch} to {@code disp + i * destPitch}.
     */
    void putStrided(int pe, long disp, long destPitch, MemorySegment src, long srcPitch, long elemBytes, long nelems);

    /** Strided get: element i from {@code disp + i * srcPitch} to {@code dst} at {@code i * dstPitch}. */
    void getStrided(MemorySegment dst, long dstPitch, int pe, long disp, long srcPitch, long elemBytes, long nelems);

    /**
     * An atomic on the integer of {@code width} (4 or 8) bytes at {@code disp} of {@code pe}'s node
     * file; returns the old value (sign-extended) for the fetching forms, complete at the target
     * on return.
     */
    long atomic(AtomicOp op, int width, int pe, long disp, long value, long comparand);

    /** Atomic store of the low {@code width} (1, 2, 4, 8) bytes of {@code bits}, complete at the target on return. */
    void store(int pe, long disp, int width, long bits);

    /** Atomic load of {@code width} (1, 2, 4, 8) bytes, zero-extended. */
    long load(int pe, long disp, int width);

    /** Completes every operation of this PE to every PE; the fence too. */
    void quiet();

    /** Enters MPI once, so that operations of other nodes that target this PE are applied. */
    void progress();

    /**
     * Whether another thread of this PE drives the transport now, or did within {@code nanos}: then
     * the {@link ProgressThread} need not.
     */
    boolean drivenByOthersWithin(long nanos);

    /**
     * The transport's MPI call (or wait for a peer's answer) that has been in progress the longest,
     * on any thread, if one is: what a watchdog looks at, since a call to a process that died may
     * never return.
     */
    Optional<MpiCall> oldestCall();

    /**
     * Writes {@code value} ({@code width} 4 or 8 bytes) at {@code controlOffset} of every other
     * node's file (its leader's), complete there on return: how a PE's control words (barrier
     * generations, state, heartbeat) reach the nodes that read them locally. A node that cannot be
     * reached does not keep the word from the others; the first failure is thrown after.
     */
    void publish(long controlOffset, int width, long value);

    /**
     * Collective after the PEs' last use: releases the transport's MPI resources, when {@code clean};
     * after a failure it leaves them to the process's exit (releasing them would wait for a dead PE).
     */
    void close(boolean clean);

    @Override
    default void close() {
        close(true);
    }
}
