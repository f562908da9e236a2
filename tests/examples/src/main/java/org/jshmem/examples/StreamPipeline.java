package org.jshmem.examples;

import org.jshmem.Cmp;
import org.jshmem.DType;
import org.jshmem.ReduceOp;
import org.jshmem.Shmem;
import org.jshmem.ShmemEvent;
import org.jshmem.ShmemStream;
import org.jshmem.SignalOp;
import org.jshmem.SymmetricSegment;
import org.jshmem.device.DeviceInfo;

/**
 * A pipeline queued on GPU streams: the host queues every step, then waits once at the end.
 *
 * <p>Each PE sends its data to the right neighbour in chunks, on a stream {@code comm}, with
 * {@code putSignalOnStream} (each chunk with a signal of its own). On a second stream {@code work},
 * each chunk's arrival is awaited with {@code signalWaitUntilOnStream} and then summed over all PEs
 * with {@code reduceOnStream}, so chunk 0 is being reduced while later chunks are still in flight.
 * An event hands over from {@code work} to {@code comm}: once every chunk is reduced, {@code comm}
 * sends this PE's sums to PE 0 ({@code putOnStream}) and ends with {@code barrierAllOnStream}. Two
 * more events time the whole pipeline on the GPU.
 *
 * <p>Needs a GPU heap, one GPU per PE:
 * <pre>JSHMEM_BACKEND=cuda bin/jshmemrun -np 2 -cp tests/examples/target/jshmem-examples-0.1.0-SNAPSHOT.jar org.jshmem.examples.StreamPipeline</pre>
 */
public final class StreamPipeline {
    private static final int CHUNKS = 4;
    private static final int CHUNK = 64 * 1024;   // ints per chunk

    public static void main(String[] args) {
        boolean ok = false;
        try (Shmem shmem = Shmem.init()) {
            if (DeviceInfo.find(shmem).isPresent()) {
                ok = run(shmem);
            } else if (shmem.myPe() == 0) {
                System.err.println("StreamPipeline needs the symmetric heap on a GPU: run it with JSHMEM_BACKEND=cuda"
                        + " (or hip); this job runs on " + shmem.describe());
            }
        }
        if (!ok) {
            System.exit(1);
        }
    }

    private static boolean run(Shmem shmem) {
        int me = shmem.myPe();
        int n = shmem.nPes();
        int right = (me + 1) % n;
        long chunkBytes = (long) CHUNK * Integer.BYTES;
        long total = CHUNKS * chunkBytes;

        SymmetricSegment src = shmem.malloc(total);            // this PE's data
        SymmetricSegment inbox = shmem.malloc(total);          // the left neighbour's data arrives here
        SymmetricSegment sums = shmem.malloc(total);           // the sums over all PEs
        SymmetricSegment arrived = shmem.calloc(CHUNKS, Long.BYTES);   // one signal per chunk
        SymmetricSegment gathered = shmem.malloc(n * total);   // on PE 0: every PE's sums

        int[] data = new int[CHUNKS * CHUNK];
        for (int i = 0; i < data.length; i++) {
            data[i] = value(me, i);
        }
        shmem.put(src, 0, data, 0, data.length, me);   // host to this PE's GPU
        shmem.quiet();

        float ms;
        try (ShmemStream comm = shmem.createStream();
             ShmemStream work = shmem.createStream();
             ShmemEvent start = shmem.createEvent();
             ShmemEvent reduced = shmem.createEvent();
             ShmemEvent end = shmem.createEvent()) {
            comm.record(start);
            for (int c = 0; c < CHUNKS; c++) {
                // chunk c to the right neighbour's inbox, then its signal c set to 1
                shmem.putSignalOnStream(inbox, c * chunkBytes, src, c * chunkBytes, chunkBytes, arrived,
                        (long) c * Long.BYTES, 1, SignalOp.SET, right, comm);
            }
            for (int c = 0; c < CHUNKS; c++) {
                // work waits on the GPU for chunk c from the left, then sums it over all PEs. Every PE
                // queues the same collectives in the same order, on one stream.
                shmem.signalWaitUntilOnStream(arrived, (long) c * Long.BYTES, Cmp.EQ, 1, work);
                shmem.teamWorld().reduceOnStream(ReduceOp.SUM, DType.INT, sums.asSlice(c * chunkBytes, chunkBytes),
                        inbox.asSlice(c * chunkBytes, chunkBytes), CHUNK, work);
            }
            work.record(reduced);
            comm.waitFor(reduced);   // comm's later work starts after every reduction
            shmem.putOnStream(gathered, me * total, sums, 0, total, 0, comm);
            shmem.barrierAllOnStream(comm);   // every PE's sums are on PE 0 past this point
            comm.record(end);
            end.synchronize();   // the host's only wait
            ms = end.elapsedMillisSince(start);
        }

        // sums[i] = the sum over all PEs of value(pe, i): the chunks went round, but each was summed once
        int[] expected = new int[CHUNKS * CHUNK];
        for (int pe = 0; pe < n; pe++) {
            for (int i = 0; i < expected.length; i++) {
                expected[i] += value(pe, i);
            }
        }
        int[] got = new int[expected.length];
        shmem.get(got, 0, got.length, sums, 0, me);
        boolean ok = java.util.Arrays.equals(got, expected);
        String extra = "";
        if (me == 0) {   // PE 0 also checks what every PE sent it
            int agree = 0;
            for (int pe = 0; pe < n; pe++) {
                shmem.get(got, 0, got.length, gathered, pe * total, me);
                agree += java.util.Arrays.equals(got, expected) ? 1 : 0;
            }
            ok &= agree == n;
            extra = String.format("; %d of %d PEs' sums gathered here are right", agree, n);
        }
        System.out.print(String.format("PE %d of %d: %d chunks of %d KiB sent, awaited and reduced on streams in"
                + " %.3f ms: %s%s%n", me, n, CHUNKS, chunkBytes / 1024, ms, ok ? "OK" : "WRONG", extra));
        System.out.flush();
        shmem.barrierAll();
        if (me == 0) {
            System.out.print(String.format("stream pipeline: %d PEs: %s%n", n, ok ? "every PE OK" : "FAILED"));
        }
        return ok;
    }

    /** Element i of PE pe's data. */
    private static int value(int pe, int i) {
        return pe * 1_000_000 + i;
    }
}
