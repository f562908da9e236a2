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
import org.jshmem.bootstrap.Bootstrap;

/**
 * The node's shared-memory file: the control block (see {@link ControlDescriptor}) and, for the
 * host backend, every PE's heap. Rank 0 creates it, every PE maps it, and it is unlinked as soon
 * as all have mapped it, so nothing is left in the file system even if a PE is killed; a file left
 * by a job killed during start-up is removed by the next job.
 */
public final class NodeSharedMemory implements PeWatch.PeTable, AutoCloseable {
    static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
    private static final String PREFIX = "jshmem-";
    private static final int NAME_BYTES = 512;

    private final Arena arena;
    private final MemorySegment mapping;
    private final int nPes;
    private final int myPe;
    private final long heapStride;
    private final long heapBase;
    private final Thread exitHook;

    private NodeSharedMemory(Arena arena, MemorySegment mapping, int nPes, int myPe, long heapStride) {
        this.arena = arena;
        this.mapping = mapping;
        this.nPes = nPes;
        this.myPe = myPe;
        this.heapStride = heapStride;
        this.heapBase = controlSize(nPes);
        this.exitHook = new Thread(this::markFailedIfRunning, "jshmem-exit-PE" + myPe);
    }

    /**
     * Collective: creates (rank 0) or opens the node's file and maps it, with {@code heapBytes} of
     * heap per PE (0 when the heap lives elsewhere), then registers this PE as running.
     */
    public static NodeSharedMemory open(Bootstrap boot, Path dir, long heapBytes) {
        if (boot.localSize() != boot.size()) {
            throw new BootstrapException("jshmem runs every PE of a job on one node, but this job spans several ("
                    + boot.size() + " PEs, " + boot.localSize() + " on this node). Start it on one node.");
        }
        try (StartupGuard guard = StartupGuard.begin(boot)) {   // a PE dying now: named, nothing left behind
            guard.onFailure(() -> removeStaleFiles(dir));
            return open(boot, dir, heapBytes, guard);
        }
    }

    private static NodeSharedMemory open(Bootstrap boot, Path dir, long heapBytes, StartupGuard guard) {
        int n = boot.size();
        long stride = roundUp(Math.max(heapBytes, 0), HEAP_ALIGNMENT);
        long total = controlSize(n) + n * stride;
        String status;
        Path file = null;
        if (boot.rank() == 0) {
            try {
                removeStaleFiles(dir);
                checkSpace(dir, total, n, heapBytes);
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
        String rank0 = exchange(boot, status)[0];
        if (rank0.startsWith("ERR ")) {
            throw new BootstrapException("PE 0 could not create the node's shared memory: " + rank0.substring(4));
        }
        Path shared = Path.of(rank0.substring(3));
        guard.file(shared);
        guard.step("map", "mapping the node's shared memory");
        Arena arena = Arena.ofShared();
        MemorySegment mapping = null;
        String mapped;
        try {
            mapping = AlignedMapping.map(shared, total, HEAP_ALIGNMENT, arena);   // every heap 2 MiB-aligned in memory
            boolean ours = (long) LONG.getAcquire(mapping, MAGIC_OFFSET) == MAGIC
                    && (int) INT.get(mapping, N_PES_OFFSET) == n && (long) LONG.get(mapping, HEAP_STRIDE_OFFSET) == stride;
            mapped = ours ? "OK" : "ERR " + shared + " does not hold this job's layout (another jshmem version?)";
        } catch (IOException | RuntimeException e) {
            mapped = "ERR could not map " + shared + ": " + e.getMessage();
        }
        guard.step("mapped", "waiting for every PE to map the node's shared memory");
        String[] all = exchange(boot, mapped);   // also: everyone has it mapped, the name is no longer needed
        if (boot.rank() == 0) {
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
        NodeSharedMemory shm = new NodeSharedMemory(arena, mapping, n, boot.rank(), stride);
        shm.register();
        boot.barrier();                      // every slot is filled before anyone checks liveness
        return shm;
    }

    /** Collective: every PE's string, PE 0's first. */
    private static String[] exchange(Bootstrap boot, String mine) {
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

    private void markIfRunning(int failedState) {
        int state = (int) INT.getAcquire(mapping, slot(myPe) + SLOT_STATE);
        if (state == STATE_RUNNING || state == STATE_CLOSING) {
            INT.setRelease(mapping, slot(myPe) + SLOT_STATE, failedState);
        }
    }

    /** Marks this PE as closing: it waits for the others in {@code close()}. */
    public void markClosing() {
        INT.compareAndSet(mapping, slot(myPe) + SLOT_STATE, STATE_RUNNING, STATE_CLOSING);
    }

    /** Marks this PE finished (a normal {@code close()}); peers stop expecting it. */
    public void markFinalized() {
        INT.setRelease(mapping, slot(myPe) + SLOT_STATE, STATE_FINALIZED);
    }

    /** Marks this PE failed: peers waiting for it stop with an error naming it. */
    public void markFailed() {
        markFailedIfRunning();
    }

    /**
     * Marks this PE failed because of {@code cause}: after a {@link PeFailedException} as stopped
     * after its peers (so that the others name the PE that failed first, not this one), else as failed.
     */
    public void markFailed(Throwable cause) {
        markIfRunning(cause instanceof PeFailedException ? STATE_FAILED_AFTER_PEERS : STATE_FAILED);
    }

    /** The whole mapping (control block and heaps). */
    public MemorySegment mapping() {
        return mapping;
    }

    /** Offset in {@link #mapping()} of PE {@code pe}'s heap. */
    public long heapOffset(int pe) {
        return heapBase + pe * heapStride;
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

    /** Publishes this PE's barrier generation in team slot {@code team}, with release order. */
    public void publishSyncGeneration(int team, long generation) {
        LONG.setRelease(mapping, syncCell(nPes, team, myPe) + SYNC_GENERATION, generation);
    }

    /** A word of the sync cell of {@code pe} in team slot {@code team} ({@code SYNC_AUX} or {@code SYNC_CHECK}), acquire. */
    public long syncWord(int team, int pe, long field) {
        return (long) LONG.getAcquire(mapping, syncCell(nPes, team, pe) + field);
    }

    /** Writes a word of this PE's sync cell in team slot {@code team}, release. */
    public void publishSyncWord(int team, long field, long value) {
        LONG.setRelease(mapping, syncCell(nPes, team, myPe) + field, value);
    }

    /** Offset in {@link #mapping()} of staging buffer {@code which} (0 or 1) of {@code pe} in team slot {@code team}. */
    public long stageBuffer(int team, int pe, int which) {
        return ControlDescriptor.stageBuffer(nPes, team, pe, which);
    }

    /** Unmaps the file. Call after {@link #markFinalized()} or {@link #markFailed()}. */
    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(exitHook);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs anyway
        }
        arena.close();
    }
}
