package org.jshmem.it.gpu;

import static org.jshmem.it.PeProgram.report;

import org.jshmem.Cmp;
import org.jshmem.DType;
import org.jshmem.ReduceOp;
import org.jshmem.Shmem;
import org.jshmem.ShmemGraph;
import org.jshmem.ShmemStateException;
import org.jshmem.ShmemStream;
import org.jshmem.SignalOp;
import org.jshmem.SymmetricSegment;
import org.jshmem.gemm.FusedGemm;
import org.jshmem.gemm.GemmCollective;
import org.jshmem.gemm.GemmOptions;
import org.jshmem.gemm.GemmPath;
import org.jshmem.gemm.GemmShape;
import org.jshmem.gemm.ShardLayout;

/**
 * Runs on every PE of a GPU job: captures jshmem's on-stream work in a graph and replays it,
 * checking the results after every replay (new inputs each time, written by the host between
 * replays). {@code args[0]}:
 * <ul>
 *   <li>{@code sequence}: a ring of put-with-signal (each PE waits for its left neighbour's signal and
 *       resets it inside the graph), a sum reduction and an fcollect, {@code args[1]} replays;</li>
 *   <li>{@code gemm}: a fused GEMM of collective {@code args[2]} and path {@code args[3]} (fused or
 *       reference) captured once and replayed {@code args[1]} times, C poisoned before each replay and
 *       compared with an uncaptured call's C afterwards;</li>
 *   <li>{@code remote} (with every peer forced remote): a put to a peer while capturing must be refused
 *       before anything is queued, and the capture must still end cleanly.</li>
 * </ul>
 */
public final class GraphProgram {
    private static final int N = 1024;   // longs per PE in the sequence's buffers

    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init(); ShmemStream stream = shmem.createStream()) {
            switch (args[0]) {
                case "sequence" -> sequence(shmem, stream, Integer.parseInt(args[1]));
                case "gemm" -> gemm(shmem, stream, Integer.parseInt(args[1]), GemmCollective.valueOf(args[2]),
                        GemmPath.valueOf(args[3]));
                case "remote" -> remote(shmem, stream);
                default -> throw new IllegalArgumentException(args[0]);
            }
            report(shmem.myPe(), "done", true);
        }
    }

    private static void sequence(Shmem shmem, ShmemStream stream, int replays) {
        int me = shmem.myPe(), n = shmem.nPes(), right = (me + 1) % n, left = (me + n - 1) % n;
        SymmetricSegment src = shmem.calloc(N, Long.BYTES);
        SymmetricSegment dst = shmem.calloc(N, Long.BYTES);
        SymmetricSegment sig = shmem.calloc(1, Long.BYTES);
        SymmetricSegment sum = shmem.calloc(N, Long.BYTES);
        SymmetricSegment all = shmem.calloc((long) N * n, Long.BYTES);
        long bytes = (long) N * Long.BYTES;
        // refused while capturing: waiting for the stream from the host
        stream.beginCapture();
        report(me, "capturing", stream.isCapturing());
        try {
            stream.synchronize();
            report(me, "synchronizeInCapture", "no exception");
        } catch (ShmemStateException e) {
            report(me, "synchronizeInCapture", e.getMessage().contains("endCapture()") ? "refused" : e.getMessage());
        }
        shmem.putSignalOnStream(dst, 0, src, 0, bytes, sig, 0, 1, SignalOp.SET, right, stream);
        shmem.signalWaitUntilOnStream(sig, 0, Cmp.EQ, 1, stream);
        shmem.signalOpOnStream(sig, 0, 0, SignalOp.SET, me, stream);   // ready for the next replay
        shmem.teamWorld().reduceOnStream(ReduceOp.SUM, DType.LONG, sum, src, N, stream);
        shmem.teamWorld().fcollectOnStream(all, src, N, DType.LONG, stream);
        shmem.barrierAllOnStream(stream);
        ShmemGraph graph = stream.endCapture();
        report(me, "operations", graph.operations());
        long bad = 0;
        long[] in = new long[N];
        for (int r = 0; r < replays; r++) {
            for (int j = 0; j < N; j++) {
                in[j] = value(r, me, j);
            }
            shmem.put(src, 0, in, 0, N, me);
            shmem.quiet();
            shmem.barrierAll();   // every PE's input is in before any replay reads it
            graph.launch(stream);
            stream.synchronize();
            long[] got = HeapReads.longs(shmem, dst);
            long[] sums = HeapReads.longs(shmem, sum);
            long[] gathered = HeapReads.longs(shmem, all);
            for (int j = 0; j < N; j++) {
                bad += got[j] != value(r, left, j) ? 1 : 0;
                long expect = 0;
                for (int pe = 0; pe < n; pe++) {
                    expect += value(r, pe, j);
                    bad += gathered[pe * N + j] != value(r, pe, j) ? 1 : 0;
                }
                bad += sums[j] != expect ? 1 : 0;
            }
            bad += HeapReads.longs(shmem, sig)[0] != 0 ? 1 : 0;
            shmem.barrierAll();   // nobody writes the next inputs while another PE still reads
        }
        report(me, "replays", replays);
        report(me, "mismatches", bad);
        graph.close();
    }

    private static long value(int replay, int pe, int j) {
        return replay * 1_000_000L + pe * 10_000L + j;
    }

    private static void gemm(Shmem shmem, ShmemStream stream, int replays, GemmCollective collective, GemmPath path) {
        int me = shmem.myPe();
        GemmShape shape = new GemmShape(512, 384, 256);
        GemmOptions options = GemmOptions.fromEnvironment().withPath(path);
        try (FusedGemm gemm = FusedGemm.create(shmem, collective, shape, DType.BF16, options)) {
            report(me, "describe", gemm.describe().replace(' ', '_'));
            SymmetricSegment a = shmem.malloc(gemm.aBytes());
            SymmetricSegment b = shmem.malloc(gemm.bBytes());
            SymmetricSegment c = shmem.malloc(gemm.cBytes());
            fill(shmem, a, gemm.aBytes() / 2, 1 + me);
            fill(shmem, b, gemm.bBytes() / 2, 7 + me);
            shmem.barrierAll();
            gemm.runOnStream(a, b, c, stream);   // an uncaptured call: what every replay must give
            stream.synchronize();
            shmem.barrierAll();
            byte[] expected = HeapReads.bytes(shmem, c);
            report(me, "nonZero", nonZero(expected));
            stream.beginCapture();
            gemm.runOnStream(a, b, c, stream);
            ShmemGraph graph = stream.endCapture();
            byte[] poison = new byte[(int) gemm.cBytes()];
            java.util.Arrays.fill(poison, (byte) 0x7f);
            long bad = 0;
            for (int r = 0; r < replays; r++) {
                shmem.put(c, 0, poison, 0, poison.length, me);
                shmem.quiet();
                shmem.barrierAll();
                graph.launch(stream);
                stream.synchronize();
                shmem.barrierAll();   // every PE's tiles are in every C
                bad += java.util.Arrays.mismatch(HeapReads.bytes(shmem, c), expected) < 0 ? 0 : 1;
            }
            gemm.runOnStream(a, b, c, stream);   // calls outside the graph still work after its replays
            stream.synchronize();
            shmem.barrierAll();
            report(me, "afterReplays", java.util.Arrays.equals(HeapReads.bytes(shmem, c), expected));
            report(me, "replays", replays);
            report(me, "badReplays", bad);
            graph.close();
        }
    }

    /** Small bf16 values (multiples of 1/4 in [-1, 1]) that depend on the position and the seed. */
    private static void fill(Shmem shmem, SymmetricSegment s, long elements, int seed) {
        short[] v = new short[(int) elements];
        for (int i = 0; i < v.length; i++) {
            v[i] = DType.floatToBf16(((i * 7 + seed * 3) % 9 - 4) / 4f);
        }
        shmem.put(s, 0, v, 0, v.length, shmem.myPe());
        shmem.quiet();
    }

    private static boolean nonZero(byte[] b) {
        for (byte x : b) {
            if (x != 0) {
                return true;
            }
        }
        return false;
    }

    private static void remote(Shmem shmem, ShmemStream stream) {
        int me = shmem.myPe(), right = (me + 1) % shmem.nPes();
        SymmetricSegment buf = shmem.calloc(8, Long.BYTES);
        stream.beginCapture();
        try {
            shmem.putOnStream(buf, 0, buf, 0, 8, right, stream);
            report(me, "remotePut", "no exception");
        } catch (ShmemStateException e) {
            report(me, "remotePut", e.getMessage().replace(' ', '_'));
        }
        ShmemGraph graph = stream.endCapture();
        report(me, "emptyGraph", graph.operations());
        graph.close();
        shmem.barrierAll();
    }
}
