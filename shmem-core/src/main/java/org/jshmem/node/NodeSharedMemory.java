package org.jshmem.node;

import static org.jshmem.node.ControlDescriptor.*;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileChannel.MapMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.jshmem.BootstrapException;
import org.jshmem.PeFailedException;
import org.jshmem.ShmemConfig;
import org.jshmem.ShmemConfig.RemoteProtocol;
import org.jshmem.bootstrap.Bootstrap;
import org.jshmem.remote.ProgressThread;
import org.jshmem.remote.RemoteTransport;

/**
 * The node's shared-memory file: the control block (see {@link ControlDescriptor}) and, for the
 * host backend, the heap of every PE of the node. The node's lowest PE creates it, every PE of the
 * node maps it, and it is unlinked as soon as all have mapped it, so nothing is left in the file
 * system even if a PE is killed; a file left by a job killed during start-up is removed by the next
 * job.
 *
 * <p>A job on several nodes ({@link NodeMap}) has a file per node, each with the control block of
 * every PE of the job: a PE writes its control words (barrier generations, shared words, state,
 * heartbeat) into its own node's file and publishes them into the other nodes' files through the
 * {@link RemoteTransport}, so that every PE reads every control word locally.
 */
public final class NodeSharedMemory implements PeWatch.PeTable, AutoCloseable {
    static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
    private static final String PREFIX = "jshmem-";
    private static final int NAME_BYTES = 512;

    private final Arena arena;
    private final MemorySegment mapping;
    private final NodeMap nodes;
    private final int nPes;
    private final int myPe;
    private final long heapStride;
    private final long heapBase;
    private final Thread exitHook;
    private final RemoteTransport remote;   // null: every PE of the job is on this node
    private ProgressThread progress;
    private RemoteWatchdog watchdog;
    private long heartbeat;
    private boolean finalized;

    private NodeSharedMemory(Arena arena, MemorySegment mapping, NodeMap nodes, int myPe, long heapStride,
                             RemoteTransport remote) {
        this.arena = arena;
        this.mapping = mapping;
        this.nodes = nodes;
        this.nPes = nodes.nPes();
        this.myPe = myPe;
        this.heapStride = heapStride;
        this.heapBase = controlSize(nPes);
        this.remote = remote;
        this.exitHook = new Thread(this::markFailedIfRunning, "jshmem-exit-PE" + myPe);
    }

    /**
     * Collective: creates (the node's leader, its lowest PE) or opens the node's file and maps it,
     * with {@code heapBytes} of heap for each PE of the node (0 when the heap lives elsewhere),
     * then registers this PE as running. When the job spans nodes ({@code nodes}), also opens the
     * remote transport over the file and starts this PE's {@link ProgressThread}.
     */
    public static NodeSharedMemory open(Bootstrap boot, NodeMap nodes, ShmemConfig config, long heapBytes) {
        try (StartupGuard guard = StartupGuard.begin(boot)) {   // a PE dying now: named, nothing left behind
            guard.onFailure(() -> removeStaleFiles(config.shmDir()));
            return open(boot, nodes, config, heapBytes, guard);
        }
    }

    private static NodeSharedMemory open(Bootstrap boot, NodeMap nodes, ShmemConfig config, long heapBytes,
                                         StartupGuard guard) {
        Path dir = config.shmDir();
        int n = boot.size();
        int leader = nodes.leader(nodes.myNode());
        long stride = roundUp(Math.max(heapBytes, 0), HEAP_ALIGNMENT);
        long total = controlSize(n) + nodes.localCount() * stride;
        String status;
        Path file = null;
        if (boot.rank() == leader) {
            try {
                removeStaleFiles(dir);
                checkSpace(dir, total, nodes.localCount(), heapBytes);
                file = dir.resolve(PREFIX + ProcessHandle.current().pid() + "-"
                        + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong()));
                guard.step("create", "creating the node's shared memory");
                guard.file(file);
                create(file, total, n, stride);
                status = "OK " + file;
            } catch (BootstrapException | IOException e) {
                status = "ERR " + e.getMessage();
            }
        } else {
            status = "";
        }
        String created = exchange(boot, status)[leader];
        if (created.startsWith("ERR ")) {
            throw new BootstrapException("PE " + leader + " could not create the node's shared memory: " + created.substring(4));
        }
        Path shared = Path.of(created.substring(3));
        guard.file(shared);
        guard.step("map", "mapping the node's shared memory");
        Arena arena = Arena.ofShared();
        MemorySegment mapping = null;
        String mapped;
        try {
            // every heap 2 MiB-aligned in memory, this PE's own at a multiple of heapAlignment (for align())
            mapping = heapBytes > 0
                    ? AlignedMapping.map(shared, total, heapAlignment(heapBytes),
                            controlSize(n) + nodes.indexOnNode(boot.rank()) * stride, arena)
                    : AlignedMapping.map(shared, total, HEAP_ALIGNMENT, arena);
            boolean ours = (long) LONG.getAcquire(mapping, MAGIC_OFFSET) == MAGIC
                    && (int) INT.get(mapping, N_PES_OFFSET) == n && (long) LONG.get(mapping, HEAP_STRIDE_OFFSET) == stride;
            mapped = ours ? "OK" : "ERR " + shared + " does not hold this job's layout (another jshmem version?)";
        } catch (IOException | RuntimeException e) {
            mapped = "ERR could not map " + shared + ": " + e.getMessage();
        }
        guard.step("mapped", "waiting for every PE to map the node's shared memory");
        String[] all = exchange(boot, mapped);   // also: everyone has it mapped, the name is no longer needed
        if (boot.rank() == leader) {
            deleteQuietly(shared);
        }
        StringBuilder failures = new StringBuilder();
        for (int pe = 0; pe < all.length; pe++) {
            if (!all[pe].equals("OK")) {
                failures.append(failures.isEmpty() ? "" : "; ").append("PE ").append(pe).append(": ").append(all[pe].substring(4));
            }
        }
        if (!failures.isEmpty()) {
            arena.close();
            throw new BootstrapException("mapping the node's shared memory failed on " + failures);
        }
        guard.step("register", "registering in the node's shared memory");
        RemoteTransport remote = null;
        if (nodes.spansNodes()) {
            int[] leaders = new int[nodes.nodes()];
            for (int node = 0; node < leaders.length; node++) {
                leaders[node] = nodes.leader(node);
            }
            try {
                // a heap outside the file (GPU memory) needs its PE to apply other nodes' operations: two-sided
                RemoteProtocol protocol = heapBytes == 0 && config.remote().protocol() == RemoteProtocol.AUTO
                        ? RemoteProtocol.MESSAGES : config.remote().protocol();
                remote = RemoteTransport.open(config.mpiLibrary(), protocol, mapping, controlSize(nodes.nPes()), nodes.myNode(),
                        leaders);
            } catch (RuntimeException e) {
                arena.close();
                throw e;
            }
        }
        NodeSharedMemory shm = new NodeSharedMemory(arena, mapping, nodes, boot.rank(), stride, remote);
        shm.register();
        boot.barrier();                      // every slot is filled before anyone checks liveness
        if (remote != null) {
            shm.progress = new ProgressThread(remote, config.remote().progressMicros(), Math.max(1, config.livenessMillis() / 2),
                    shm::beat, "jshmem-progress-PE" + boot.rank());
            shm.watchdog = new RemoteWatchdog(remote, new PeWatch(shm, config.livenessMillis()), config.livenessMillis(),
                    () -> shm.markIfRunning(STATE_FAILED_AFTER_PEERS), boot.rank(), System.err);
        }
        return shm;
    }

    /**
     * The alignment of the address of a host heap of {@code heapBytes} in its own PE's mapping: the
     * largest power of two not above the heap's size, at least {@link ControlDescriptor#HEAP_ALIGNMENT},
     * so that every alignment a block of the heap can have is met ({@code Shmem.align}). It costs
     * address space only (the mapping reserves this much more while it is made).
     */
    public static long heapAlignment(long heapBytes) {
        return Math.max(HEAP_ALIGNMENT, Long.highestOneBit(heapBytes));
    }

    /** Collective: every PE's string (at most 512 bytes of UTF-8), PE 0's first. */
    static String[] exchange(Bootstrap boot, String mine) {
        byte[] buf = Arrays.copyOf(mine.getBytes(StandardCharsets.UTF_8), NAME_BYTES);
        byte[] all = boot.allgather(buf);
        String[] out = new String[boot.size()];
        for (int pe = 0; pe < out.length; pe++) {
            int end = pe * NAME_BYTES;
            while (end < (pe + 1) * NAME_BYTES && all[end] != 0) {
                end++;
            }
            out[pe] = new String(all, pe * NAME_BYTES, end - pe * NAME_BYTES, StandardCharsets.UTF_8);
        }
        return out;
    }

    private static void create(Path file, long total, int n, long stride) throws IOException {
        // owner-only from the start (umask may only remove bits): no other user can open the heap
        // between its creation and its unlink
        try (FileChannel ch = FileChannel.open(file, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
             Arena a = Arena.ofConfined()) {
            ch.write(ByteBuffer.wrap(new byte[1]), total - 1);   // sparse: pages are allocated when touched
            MemorySegment m = ch.map(MapMode.READ_WRITE, 0, controlSize(n), a);
            INT.set(m, VERSION_OFFSET, VERSION);
            INT.set(m, N_PES_OFFSET, n);
            LONG.set(m, HEAP_STRIDE_OFFSET, stride);
            LONG.set(m, CONTROL_SIZE_OFFSET, controlSize(n));
            LONG.setRelease(m, MAGIC_OFFSET, MAGIC);
        }
    }

    private static void checkSpace(Path dir, long total, int n, long heapBytes) throws IOException {
        if (!Files.isDirectory(dir)) {
            throw new BootstrapException(dir + " is not a directory; set JSHMEM_SHM_DIR to a tmpfs directory such as /dev/shm");
        }
        long usable = Files.getFileStore(dir).getUsableSpace();
        if (usable < total) {
            throw new BootstrapException(String.format(
                    "%s has %s free, but %d PEs x %s of symmetric heap need %s. Lower JSHMEM_SYMMETRIC_SIZE, "
                    + "or give %s more room (docker: --shm-size).", dir, bytes(usable), n, bytes(heapBytes), bytes(total), dir));
        }
    }

    /** Deletes files of earlier jobs whose creating process no longer exists. */
    static void removeStaleFiles(Path dir) {
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, PREFIX + "*")) {
            for (Path f : files) {
                String[] parts = f.getFileName().toString().split("-");
                if (parts.length == 3) {
                    try {
                        long pid = Long.parseLong(parts[1]);
                        if (ProcessHandle.of(pid).isEmpty()) {
                            deleteQuietly(f);
                        }
                    } catch (NumberFormatException ignored) {
                        // not ours
                    }
                }
            }
        } catch (IOException ignored) {
            // nothing to clean, or not allowed to
        }
    }

    private static void deleteQuietly(Path f) {
        try {
            Files.deleteIfExists(f);
        } catch (IOException ignored) {
            // another user's file, or gone already
        }
    }

    static String bytes(long n) {
        if (n >= 1L << 30) {
            return String.format("%.1f GiB", n / (double) (1L << 30));
        }
        if (n >= 1L << 20) {
            return String.format("%.1f MiB", n / (double) (1L << 20));
        }
        if (n >= 1L << 10) {
            return String.format("%.1f KiB", n / 1024.0);
        }
        return n + " B";
    }

    private void register() {
        long slot = slot(myPe);
        LONG.set(mapping, slot + SLOT_PID, ProcessHandle.current().pid());
        INT.setRelease(mapping, slot + SLOT_STATE, STATE_RUNNING);
        Runtime.getRuntime().addShutdownHook(exitHook);
    }

    private void markFailedIfRunning() {
        markIfRunning(STATE_FAILED);
    }

    private boolean markIfRunning(int failedState) {
        int state = (int) INT.getAcquire(mapping, slot(myPe) + SLOT_STATE);
        if (state == STATE_RUNNING || state == STATE_CLOSING || state == STATE_CLOSING_AFTER_PEERS) {
            INT.setRelease(mapping, slot(myPe) + SLOT_STATE, failedState);
            return true;
        }
        return false;
    }

    /**
     * Marks this PE as closing: it waits for the others in {@code close()}. {@code afterPeers}: it
     * closes because a wait of its own reported PEs that had left (closed early), so that the PEs
     * still waiting name those, not this one.
     */
    public void markClosing(boolean afterPeers) {
        int state = afterPeers ? STATE_CLOSING_AFTER_PEERS : STATE_CLOSING;
        if (INT.compareAndSet(mapping, slot(myPe) + SLOT_STATE, STATE_RUNNING, state)) {
            publishState(state);
        }
    }

    /** Marks this PE finished (a normal {@code close()}); peers stop expecting it. */
    public void markFinalized() {
        INT.setRelease(mapping, slot(myPe) + SLOT_STATE, STATE_FINALIZED);
        publishState(STATE_FINALIZED);
        finalized = true;
    }

    /** Marks this PE failed: peers waiting for it stop with an error naming it. */
    public void markFailed() {
        markFailed(null);
    }

    /**
     * Marks this PE failed because of {@code cause}: after a {@link PeFailedException} as stopped
     * after its peers (so that the others name the PE that failed first, not this one), else as failed.
     */
    public void markFailed(Throwable cause) {
        int state = cause instanceof PeFailedException ? STATE_FAILED_AFTER_PEERS : STATE_FAILED;
        if (markIfRunning(state)) {
            try {
                publishState(state);
            } catch (RuntimeException unreachable) {
                // a peer's node is gone: its PEs learn of this one's failure from its silence
            }
        }
    }

    private void publishState(int state) {
        if (remote != null) {
            remote.publish(slot(myPe) + SLOT_STATE, 4, state);
        }
    }

    /**
     * One heartbeat of this PE (its {@link ProgressThread} runs it): a counter in its slot, in
     * its node's file and published into the others', by which PEs of other nodes tell that it lives.
     */
    private void beat() {
        long hb = ++heartbeat;
        LONG.setRelease(mapping, slot(myPe) + SLOT_HEARTBEAT, hb);
        try {
            remote.publish(slot(myPe) + SLOT_HEARTBEAT, 8, hb);
        } catch (RuntimeException unreachable) {
            // a node is gone; the others got the beat, and this PE's waits will name the dead PEs
        }
    }

    /** The whole mapping (control block and heaps). */
    public MemorySegment mapping() {
        return mapping;
    }

    /**
     * Offset of PE {@code pe}'s heap in its node's file: in {@link #mapping()} for a PE of this
     * node, the displacement of the {@link #remote()} transport's window for a PE of another.
     */
    public long heapOffset(int pe) {
        return heapBase + nodes.indexOnNode(pe) * heapStride;
    }

    /** Which node each PE runs on. */
    public NodeMap nodes() {
        return nodes;
    }

    /** The remote transport to the PEs of other nodes, or empty when the job runs on one node. */
    public java.util.Optional<RemoteTransport> remote() {
        return java.util.Optional.ofNullable(remote);
    }

    /** Enters MPI once when the remote transport runs (waits call it on every spin), else nothing. */
    public void progress() {
        if (remote != null) {
            remote.progress();
        }
    }

    @Override
    public boolean isRemote(int pe) {
        return !nodes.isLocal(pe);
    }

    @Override
    public long heartbeat(int pe) {
        return (long) LONG.getAcquire(mapping, slot(pe) + SLOT_HEARTBEAT);
    }

    @Override
    public int nPes() {
        return nPes;
    }

    @Override
    public int myPe() {
        return myPe;
    }

    @Override
    public long pid(int pe) {
        return (long) LONG.getAcquire(mapping, slot(pe) + SLOT_PID);
    }

    @Override
    public int state(int pe) {
        return (int) INT.getAcquire(mapping, slot(pe) + SLOT_STATE);
    }

    /** The barrier generation of {@code pe} in team slot {@code team}, read with acquire order. */
    public long syncGeneration(int team, int pe) {
        return (long) LONG.getAcquire(mapping, syncCell(nPes, team, pe) + SYNC_GENERATION);
    }

    /** Publishes this PE's barrier generation in team slot {@code team}, with release order (and to the other nodes). */
    public void publishSyncGeneration(int team, long generation) {
        publishSyncWord(team, SYNC_GENERATION, generation);
    }

    /** A word of the sync cell of {@code pe} in team slot {@code team} ({@code SYNC_AUX} or {@code SYNC_CHECK}), acquire. */
    public long syncWord(int team, int pe, long field) {
        return (long) LONG.getAcquire(mapping, syncCell(nPes, team, pe) + field);
    }

    /** Writes a word of this PE's sync cell in team slot {@code team}, release; and into the other nodes' files. */
    public void publishSyncWord(int team, long field, long value) {
        long at = syncCell(nPes, team, myPe) + field;
        LONG.setRelease(mapping, at, value);
        if (remote != null) {
            remote.publish(at, 8, value);
        }
    }

    /** Offset in {@link #mapping()} of staging buffer {@code which} (0 or 1) of {@code pe} in team slot {@code team}. */
    public long stageBuffer(int team, int pe, int which) {
        return ControlDescriptor.stageBuffer(nPes, team, pe, which);
    }

    /**
     * Stops the progress thread, frees the remote transport's window (collective, after a
     * {@link #markFinalized()} on every PE; after a failure it is left to the process's exit), stops
     * the {@link RemoteWatchdog} and unmaps the file. Call after {@link #markFinalized()} or {@link #markFailed()}.
     */
    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(exitHook);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs anyway
        }
        if (progress != null) {
            progress.close();
        }
        if (remote != null) {
            remote.close(finalized);
        }
        if (watchdog != null) {
            watchdog.close();   // last: a call above may be the one that does not return
        }
        if (finalized || remote == null) {
            arena.close();
        }
        // after a failure with the remote transport the mapping stays: MPI may still reach it until exit
    }
}
