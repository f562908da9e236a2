package org.jshmem.node;

/**
 * Layout of the node-shared control block, the first part of the node's shared-memory file, used
 * by every backend for host-side synchronisation and liveness. Offsets in bytes.
 *
 * <pre>
 * 0               header: MAGIC (long), VERSION (int), N_PES (int), HEAP_STRIDE (long), CONTROL_SIZE (long)
 * PE_SLOTS        one slot per PE, PE_SLOT_SIZE bytes: pid (long), state (int), heartbeat (long; the
 *                 remote transport's, counted by the PE's progress thread)
 * SYNC            MAX_TEAMS x N_PES cells of SYNC_CELL bytes: a barrier generation (long) at 0,
 *                 a word a PE shares with its team's members in collectives (long) at SYNC_AUX, and
 *                 two for argument checks (the allocation calls', JSHMEM_DEBUG's) at SYNC_CHECK, used
 *                 by the parity of the generation; each cell has its own cache lines
 * STAGE           MAX_TEAMS x N_PES x 2 staging buffers of STAGE_BUFFER bytes: small collectives copy
 *                 their contribution here, so that they need one synchronisation instead of two
 * heap            (host backend only) the heaps of the node's PEs (in world order), HEAP_STRIDE apart,
 *                 starting at controlSize(N_PES)
 * </pre>
 * Each PE writes only its own slot and its own sync cells and reads the others', so no two PEs
 * write the same cache line. A job on several nodes has such a block in each node's file, every
 * PE's slot and cells in each (see {@link NodeSharedMemory}); the heaps are those of the node's PEs.
 */
public final class ControlDescriptor {
    public static final long MAGIC = 0x4A5348_4D454D31L; // "JSHMEM1"
    public static final int VERSION = 3;

    public static final long MAGIC_OFFSET = 0;
    public static final long VERSION_OFFSET = 8;
    public static final long N_PES_OFFSET = 12;
    public static final long HEAP_STRIDE_OFFSET = 16;
    public static final long CONTROL_SIZE_OFFSET = 24;

    public static final long PE_SLOTS = 4096;
    public static final long PE_SLOT_SIZE = 128;
    public static final long SLOT_PID = 0;
    public static final long SLOT_STATE = 8;
    public static final long SLOT_HEARTBEAT = 16;

    /** PE states; written with release order by the PE itself (or its shutdown hook). */
    public static final int STATE_UNSET = 0;
    public static final int STATE_RUNNING = 1;
    public static final int STATE_FINALIZED = 2;
    public static final int STATE_FAILED = 3;
    /** In {@code close()}: waiting for the others to close too. */
    public static final int STATE_CLOSING = 4;
    /** Stopped because other PEs failed ({@link org.jshmem.PeFailedException}): a consequence, not a cause. */
    public static final int STATE_FAILED_AFTER_PEERS = 5;
    /**
     * In {@code close()} after one of its waits reported PEs that had left the call (closed early):
     * closing too, but as a consequence, not a cause.
     */
    public static final int STATE_CLOSING_AFTER_PEERS = 6;

    /** Teams that can exist at once (team slot 0 is the world team, 1 the node team). */
    public static final int MAX_TEAMS = 64;
    /**
     * Team slot of the barrier in {@code close()}, used by nothing else: were it the world team's,
     * a PE that closes early would complete the others' {@code barrierAll} in its place.
     */
    public static final int CLOSE_SLOT = MAX_TEAMS - 1;
    /** Teams a program can have made (split) at once on a PE: the slots less world's, shared's and {@link #CLOSE_SLOT}. */
    public static final int USER_TEAMS = MAX_TEAMS - 3;
    public static final long SYNC_CELL = 128;
    public static final long SYNC_GENERATION = 0;
    public static final long SYNC_AUX = 64;
    /** Two words, at SYNC_CHECK and SYNC_CHECK + 8: see {@link NodeBarrier#exchangeCheck}. */
    public static final long SYNC_CHECK = 72;

    /**
     * Bytes of one staging buffer. Each PE has two per team slot and uses them alternately (by
     * the parity of the team's barrier generation), so a buffer is rewritten only after every
     * member has passed the barrier that follows the last read of it.
     */
    public static final long STAGE_BUFFER = 16 << 10;
    /** Bytes at the start of a staging buffer for a header (collect puts its byte count at 0). */
    public static final long STAGE_HEADER = 64;

    /** Host heaps start at a multiple of this, and are this far apart at least. */
    public static final long HEAP_ALIGNMENT = 2L << 20;

    private ControlDescriptor() {
    }

    public static long slot(int pe) {
        return PE_SLOTS + pe * PE_SLOT_SIZE;
    }

    public static long syncBase(int nPes) {
        return roundUp(PE_SLOTS + nPes * PE_SLOT_SIZE, 4096);
    }

    public static long syncCell(int nPes, int team, int pe) {
        return syncBase(nPes) + ((long) team * nPes + pe) * SYNC_CELL;
    }

    public static long stageBase(int nPes) {
        return roundUp(syncBase(nPes) + (long) MAX_TEAMS * nPes * SYNC_CELL, 4096);
    }

    /** Staging buffer {@code which} (0 or 1) of {@code pe} in team slot {@code team}. */
    public static long stageBuffer(int nPes, int team, int pe, int which) {
        return stageBase(nPes) + (((long) team * nPes + pe) * 2 + which) * STAGE_BUFFER;
    }

    public static long controlSize(int nPes) {
        return roundUp(stageBase(nPes) + (long) MAX_TEAMS * nPes * 2 * STAGE_BUFFER, HEAP_ALIGNMENT);
    }

    public static long roundUp(long value, long multiple) {
        return (value + multiple - 1) / multiple * multiple;
    }
}
