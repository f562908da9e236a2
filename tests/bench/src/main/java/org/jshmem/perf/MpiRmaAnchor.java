package org.jshmem.perf;

import static org.jshmem.bootstrap.OpenMpiAbi.AINT;
import static org.jshmem.bootstrap.OpenMpiAbi.HANDLE;
import static org.jshmem.bootstrap.OpenMpiAbi.INT;
import static org.jshmem.bootstrap.OpenMpiAbi.PTR;

import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import org.jshmem.bootstrap.LibMpi;
import org.jshmem.bootstrap.OpenMpiAbi;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Open MPI's one-sided put and get called straight from Java through FFM, with no jshmem in
 * between: the anchor of the remote transport's figures that pays what any Java program pays to
 * reach MPI (a downcall per MPI call, a JIT-compiled loop, a JVM's process) and nothing of jshmem's.
 * It measures what {@code scripts/remote/mpi_rma_anchor.c} measures, the same way: the same six
 * cases and n, {@code --reps} timed repetitions each after a barrier, PE 0's clock, the median,
 * CSV rows of the suite's schema with the library {@code mpi-java}. Its warm-up is perf's: one
 * repetition at least, then more until PE 0 has spent {@code --warmup-ms} in them, so that the
 * loop is compiled before it is timed. So jshmem's time over the C anchor splits into the JVM's
 * share (this over the C anchor) and jshmem's own (jshmem over this).
 *
 * <pre>
 *   put_bw:      n x (MPI_Put(size) + MPI_Win_flush_local)   (jshmem: n blocking puts + quiet)
 *   get_bw:      n x (MPI_Get(size) + MPI_Win_flush_local)   (jshmem: n blocking gets)
 *   put_nbi_bw:  n x MPI_Put(size) then MPI_Win_flush       (jshmem: n non-blocking puts + quiet)
 *   get_nbi_bw:  n x MPI_Get(size) then MPI_Win_flush       (jshmem: n non-blocking gets + quiet)
 *   put_latency: n x (MPI_Put(size) + MPI_Win_flush)         (jshmem: put + quiet)
 *   get_latency: n x (MPI_Get(size) + MPI_Win_flush_local)   (jshmem: blocking get)
 * </pre>
 *
 * <p>A blocking put or get returns once its buffer may be reused (OpenSHMEM 1.5, section 9.5), and
 * {@code MPI_Win_flush_local} is the least MPI call that gives that, so the blocking cases make it
 * after each operation; the non-blocking ones complete the batch with one flush, as a quiet does.
 *
 * <p>The window is {@code MPI_Win_create} over 2 MiB-aligned native memory, in one passive-target
 * epoch ({@code MPI_Win_lock_all}). Each case's bytes are checked once, after its timed
 * repetitions: the target of the puts, or PE 0 for the gets, compares them with the source's
 * pattern, and a mismatch ends the run with exit status 1.
 */
@Command(name = "mpi-anchor", mixinStandardHelpOptions = true, sortOptions = false, usageHelpWidth = 100,
        synopsisHeading = "Usage: jshmemrun -np 2 ", customSynopsis = "mpi-anchor [OPTIONS]",
        description = {"", "Open MPI's one-sided put and get bandwidth and latency between PE 0 and PE 1, called from"
                + " Java through FFM with no jshmem in between: the Java twin of scripts/remote/mpi_rma_anchor.c, the"
                + " anchor of the remote transport (JSHMEM_TRANSPORT=remote). CSV on standard output (library"
                + " mpi-java).", ""})
public final class MpiRmaAnchor implements Callable<Integer> {
    private static final LibMpi MPI = LibMpi.load(System.getenv("JSHMEM_MPI_LIBRARY"));
    // static finals, so that the JIT inlines the downcalls as it does jshmem's (org.jshmem.remote.MpiHandles)
    private static final MethodHandle INIT_THREAD = fn("MPI_Init_thread", PTR, PTR, INT, PTR);
    private static final MethodHandle FINALIZE = fn("MPI_Finalize");
    private static final MethodHandle COMM_RANK = fn("MPI_Comm_rank", HANDLE, PTR);
    private static final MethodHandle COMM_SIZE = fn("MPI_Comm_size", HANDLE, PTR);
    private static final MethodHandle BARRIER = fn("MPI_Barrier", HANDLE);
    private static final MethodHandle BCAST = fn("MPI_Bcast", PTR, INT, HANDLE, INT, HANDLE);
    private static final MethodHandle WIN_CREATE = fn("MPI_Win_create", PTR, AINT, INT, HANDLE, HANDLE, PTR);
    private static final MethodHandle WIN_LOCK_ALL = fn("MPI_Win_lock_all", INT, HANDLE);
    private static final MethodHandle WIN_UNLOCK_ALL = fn("MPI_Win_unlock_all", HANDLE);
    private static final MethodHandle WIN_FREE = fn("MPI_Win_free", PTR);
    private static final MethodHandle PUT = fn("MPI_Put", PTR, INT, HANDLE, INT, AINT, INT, HANDLE, HANDLE);
    private static final MethodHandle GET = fn("MPI_Get", PTR, INT, HANDLE, INT, AINT, INT, HANDLE, HANDLE);
    private static final MethodHandle FLUSH = fn("MPI_Win_flush", INT, HANDLE);
    private static final MethodHandle FLUSH_LOCAL = fn("MPI_Win_flush_local", INT, HANDLE);
    private static final MemorySegment BYTE = MPI.symbol(OpenMpiAbi.BYTE);
    private static final MemorySegment INT32 = MPI.symbol(OpenMpiAbi.INT32);
    private static final long WINDOW_ALIGN = 2L << 20;
    private static final long MAX_SIZE = 1L << 30;
    private static final List<String> BENCHMARKS = List.of("put_bw", "get_bw", "put_nbi_bw", "get_nbi_bw", "put_latency",
            "get_latency");
    private static final byte SOURCE_SEED = 7;
    private static final byte TARGET_SEED = 101;

    @Option(names = "--min", paramLabel = "SIZE", converter = PerfMain.SizeConverter.class,
            description = "Smallest message size in bytes; K, M, G suffixes. Default: ${DEFAULT-VALUE}.")
    long min = 8;

    @Option(names = "--max", paramLabel = "SIZE", converter = PerfMain.SizeConverter.class,
            description = "Largest message size (latency cases stop at 64K). Default: 16M.")
    long max = 16L << 20;

    @Option(names = "--factor", paramLabel = "F", description = "Size step. Default: ${DEFAULT-VALUE}.")
    long factor = 2;

    @Option(names = "--reps", paramLabel = "N", description = "Timed repetitions per case. Default: ${DEFAULT-VALUE}.")
    int reps = 5;

    @Option(names = "--warmup-ms", paramLabel = "MS",
            description = "Warm-up repetitions (one at least) go on until PE 0 has spent this long in them, so that the"
                    + " JIT has compiled the loop before timing, as perf's --warmup-ms. Default: ${DEFAULT-VALUE}.")
    long warmupMillis = 1000;

    @Option(names = "--iters", paramLabel = "N",
            description = "Operations per repetition. Default: the C anchor's (20000 below 64K and for latency,"
                    + " 500 below 4M, 20 from 4M).")
    Long iters;

    @Option(names = "--csv", paramLabel = "FILE", description = "Also write the rows to FILE (PE 0).")
    Path csv;

    private int rank;
    private MemorySegment win;
    private MemorySegment window;
    private MemorySegment source;
    private MemorySegment more;   // PE 0's warm-up decision, broadcast

    /** Runs the anchor; exit status 0, 1 when a case's bytes were wrong, 2 on a usage error. */
    public static void main(String[] args) {
        System.exit(new CommandLine(new MpiRmaAnchor()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        try {
            return run();
        } catch (Exception | Error e) {
            throw e;
        } catch (Throwable t) {   // a downcall's invokeExact declares Throwable
            throw new IllegalStateException(t);
        }
    }

    private int run() throws Throwable {
        Sizes sizes;   // usage errors before MPI starts
        try {
            sizes = Sizes.sweep(min, max, factor);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(new CommandLine(this), e.getMessage());
        }
        if (reps < 1 || warmupMillis < 0 || (iters != null && iters < 1)) {
            throw new CommandLine.ParameterException(new CommandLine(this),
                    "--reps and --iters must be at least 1, --warmup-ms at least 0");
        }
        if (sizes.max() > MAX_SIZE) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--max " + Sizes.format(sizes.max())
                    + " is too large: --max at most 1G (MPI counts are int)");
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ValueLayout.JAVA_LONG);
            check("MPI_Init_thread", (int) INIT_THREAD.invokeExact(MemorySegment.NULL, MemorySegment.NULL,
                    OpenMpiAbi.THREAD_SERIALIZED, out));
            MemorySegment comm = MPI.dupReturningErrors(MPI.commWorld());
            check("MPI_Comm_rank", (int) COMM_RANK.invokeExact(comm, out));
            rank = out.get(ValueLayout.JAVA_INT, 0);
            check("MPI_Comm_size", (int) COMM_SIZE.invokeExact(comm, out));
            int size = out.get(ValueLayout.JAVA_INT, 0);
            if (size != 2) {
                if (rank == 0) {
                    System.err.println("mpi-anchor: needs exactly 2 processes (mpirun -np 2), got " + size);
                }
                check("MPI_Finalize", (int) FINALIZE.invokeExact());
                return 2;
            }
            window = arena.allocate(sizes.max(), WINDOW_ALIGN);
            source = arena.allocate(sizes.max(), 64);
            more = arena.allocate(ValueLayout.JAVA_INT);
            check("MPI_Win_create", (int) WIN_CREATE.invokeExact(window, window.byteSize(), 1,
                    MPI.symbol(OpenMpiAbi.INFO_NULL), comm, out));
            win = out.get(ValueLayout.ADDRESS, 0);
            check("MPI_Win_lock_all", (int) WIN_LOCK_ALL.invokeExact(OpenMpiAbi.MODE_NOCHECK, win));
            List<Row> rows = new ArrayList<>();
            List<String> wrong = runCases(comm, sizes, rows);
            check("MPI_Win_unlock_all", (int) WIN_UNLOCK_ALL.invokeExact(win));
            MemorySegment w = arena.allocateFrom(ValueLayout.ADDRESS, win);
            check("MPI_Win_free", (int) WIN_FREE.invokeExact(w));
            MPI.free(comm);
            check("MPI_Finalize", (int) FINALIZE.invokeExact());
            if (rank == 0 && csv != null) {
                Csv.write(csv, List.of("Open MPI's one-sided calls from Java through FFM (MpiRmaAnchor)"), rows);
            }
            if (!wrong.isEmpty()) {
                System.err.println("mpi-anchor: PE " + rank + " found wrong bytes after " + String.join(", ", wrong));
                return 1;
            }
            return 0;
        }
    }

    /** Every case, its row printed and kept in {@code rows} on PE 0; returns the cases this PE found wrong bytes in. */
    private List<String> runCases(MemorySegment comm, Sizes sizes, List<Row> rows) throws Throwable {
        List<String> wrong = new ArrayList<>();
        if (rank == 0) {
            System.out.println(Csv.HEADER);
        }
        for (String bench : BENCHMARKS) {
            boolean latency = bench.endsWith("latency");
            for (long s : sizes.list()) {
                if (latency && s > 64 << 10) {
                    break;
                }
                long n = iters != null ? iters : latency || s < 64 << 10 ? 20000 : s < 4 << 20 ? 500 : 20;
                Row r = measure(comm, bench, (int) s, n);
                if (!bytesArrived(comm, bench, (int) s)) {
                    wrong.add(bench + " " + Sizes.format(s));
                }
                if (rank == 0) {
                    rows.add(r);
                    System.out.println(Csv.line(r));
                    System.out.flush();
                }
            }
        }
        return wrong;
    }

    /** One case: the warm-up, then the timed repetitions; PE 0's microseconds an operation. */
    private Row measure(MemorySegment comm, String bench, int size, long n) throws Throwable {
        boolean put = bench.startsWith("put");
        boolean bw = bench.endsWith("_bw");
        Completion done = bench.contains("_nbi") ? Completion.BATCH
                : put && !bw ? Completion.EACH_AT_TARGET : Completion.EACH_LOCAL;
        prepare(comm, put, size);
        warmUp(comm, put, done, size, n);
        double[] us = new double[reps];
        for (int r = 0; r < reps; r++) {
            check("MPI_Barrier", (int) BARRIER.invokeExact(comm));
            long t0 = System.nanoTime();
            if (rank == 0) {
                loop(put, done, size, n);
            }
            us[r] = (System.nanoTime() - t0) / 1e3 / n;
        }
        Arrays.sort(us);
        double med = us[reps / 2];
        String op = (put ? "put" : "get") + (done == Completion.BATCH ? "_nbi" : "");
        return bw
                ? new Row("mpi-java", bench, "host", op, "byte", 2, size, n, reps, "GB/s", size / med / 1e3,
                        size / us[reps - 1] / 1e3, size / us[0] / 1e3)
                : new Row("mpi-java", bench, "host", op, "byte", 2, size, n, reps, "us", med, us[0], us[reps - 1]);
    }

    /** Untimed repetitions: one, then more until PE 0 has spent {@code --warmup-ms} in them (PE 0 decides). */
    private void warmUp(MemorySegment comm, boolean put, Completion done, int size, long n) throws Throwable {
        long start = System.nanoTime();
        for (int w = 0; ; w++) {
            more.set(ValueLayout.JAVA_INT, 0, w < 1 || System.nanoTime() - start < warmupMillis * 1_000_000 ? 1 : 0);
            check("MPI_Bcast", (int) BCAST.invokeExact(more, 1, INT32, 0, comm));
            if (more.get(ValueLayout.JAVA_INT, 0) == 0) {
                return;
            }
            check("MPI_Barrier", (int) BARRIER.invokeExact(comm));
            if (rank == 0) {
                loop(put, done, size, n);
            }
        }
    }

    /** How a case completes its operations: the flush after each one, or one after them all. */
    private enum Completion { EACH_LOCAL, EACH_AT_TARGET, BATCH }

    /** PE 0's timed operations, as the C anchor makes them. */
    private void loop(boolean put, Completion done, int size, long n) throws Throwable {
        MemorySegment src = source;
        MemorySegment w = win;
        for (long i = 0; i < n; i++) {
            if (put) {
                check("MPI_Put", (int) PUT.invokeExact(src, size, BYTE, 1, 0L, size, BYTE, w));
            } else {
                check("MPI_Get", (int) GET.invokeExact(src, size, BYTE, 1, 0L, size, BYTE, w));
            }
            if (done == Completion.EACH_LOCAL) {
                check("MPI_Win_flush_local", (int) FLUSH_LOCAL.invokeExact(1, w));
            } else if (done == Completion.EACH_AT_TARGET) {
                check("MPI_Win_flush", (int) FLUSH.invokeExact(1, w));
            }
        }
        if (done == Completion.BATCH) {
            check("MPI_Win_flush", (int) FLUSH.invokeExact(1, w));
        }
    }

    /** Before a case: PE 0's buffer and PE 1's window hold different patterns, so the check sees what moved. */
    private void prepare(MemorySegment comm, boolean put, int size) throws Throwable {
        if (rank == 0) {
            fill(source, size, put ? SOURCE_SEED : 0);
        } else {
            fill(window, size, put ? 0 : TARGET_SEED);
        }
        check("MPI_Barrier", (int) BARRIER.invokeExact(comm));
    }

    /** After a case: whether the bytes that moved are the source's (the puts' target checks, PE 0 the gets'). */
    private boolean bytesArrived(MemorySegment comm, String bench, int size) throws Throwable {
        check("MPI_Barrier", (int) BARRIER.invokeExact(comm));   // PE 0's last flush is behind it
        boolean put = bench.startsWith("put");
        if (put ? rank == 1 : rank == 0) {
            return matches(put ? window : source, size, put ? SOURCE_SEED : TARGET_SEED);
        }
        return true;
    }

    private static void fill(MemorySegment m, int size, byte seed) {
        for (int i = 0; i < size; i++) {
            m.set(ValueLayout.JAVA_BYTE, i, pattern(i, seed));
        }
    }

    private static boolean matches(MemorySegment m, int size, byte seed) {
        for (int i = 0; i < size; i++) {
            if (m.get(ValueLayout.JAVA_BYTE, i) != pattern(i, seed)) {
                return false;
            }
        }
        return true;
    }

    private static byte pattern(int i, byte seed) {
        return seed == 0 ? 0 : (byte) (i * 31 + seed);
    }

    private static void check(String call, int rc) {
        if (rc != OpenMpiAbi.SUCCESS) {
            throw MPI.failure(call, rc);
        }
    }

    private static MethodHandle fn(String name, MemoryLayout... args) {
        return MPI.function(name, args);
    }
}
