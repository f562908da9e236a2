package org.jshmem.it.gpu;

import static org.jshmem.it.PeProgram.report;

import org.jshmem.DType;
import org.jshmem.ReduceOp;
import org.jshmem.Shmem;
import org.jshmem.ShmemStream;
import org.jshmem.SymmetricSegment;
import org.jshmem.device.DeviceModule;
import org.jshmem.device.LaunchConfig;
import org.jshmem.gemm.FusedGemm;
import org.jshmem.gemm.GemmCollective;
import org.jshmem.gemm.GemmOptions;
import org.jshmem.gemm.GemmPath;
import org.jshmem.gemm.GemmShape;
import org.jshmem.trace.Trace;

/**
 * Runs on every PE of a GPU job with {@code JSHMEM_TRACE} set: a kernel of its own that records a span
 * per block ({@code jshmem_trace_begin/end}) inside a host span "kernel"; a put, a barrier and a reduction
 * queued on a stream inside a host span "stream calls" that waits for them; then two blocking calls each
 * of a fused all-scatter and all-reduce GEMM, whose kernels record their tiles' spans.
 */
public final class TraceGpuProgram {
    static final int BLOCKS = 4;
    static final long STREAM_BYTES = 1 << 20;
    static final int REDUCE_ELEMENTS = 1024;
    private static final String SOURCE = """
            #include <jshmem/jshmem.h>
            extern "C" __global__ void spans(int *out) {
              if (threadIdx.x == 0) {
                unsigned long long t = jshmem_trace_begin();
                out[blockIdx.x] = jshmem_my_pe() + 1;
                jshmem_trace_end_value("my span", t, blockIdx.x);
              }
            }
            """;

    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init(); ShmemStream stream = shmem.createStream()) {
            int me = shmem.myPe();
            Trace trace = shmem.trace();
            report(me, "tracing", trace.enabled());
            SymmetricSegment out = shmem.calloc(BLOCKS, Integer.BYTES);
            try (DeviceModule module = DeviceModule.compile(shmem, SOURCE, "spans.cu")) {
                long t = trace.begin();
                module.kernel("spans").launch(LaunchConfig.of(BLOCKS, 32, stream), out);
                stream.synchronize();
                trace.end("kernel", "compute", t);
            }
            report(me, "out", java.util.Arrays.toString(HeapReads.ints(shmem, out)).replace(" ", ""));
            // on-stream operations, timed on the GPU, inside a host span that waits for them
            SymmetricSegment src = shmem.calloc(STREAM_BYTES, 1);
            SymmetricSegment dest = shmem.calloc(STREAM_BYTES, 1);
            long t = trace.begin();
            shmem.putOnStream(dest, 0, src, 0, STREAM_BYTES, (me + 1) % shmem.nPes(), stream);
            shmem.barrierAllOnStream(stream);
            shmem.teamWorld().reduceOnStream(ReduceOp.SUM, DType.FLOAT, dest, src, REDUCE_ELEMENTS, stream);
            stream.synchronize();
            trace.end("stream calls", "test", t);
            for (GemmCollective c : new GemmCollective[] {GemmCollective.ALL_SCATTER, GemmCollective.ALL_REDUCE}) {
                try (FusedGemm gemm = FusedGemm.create(shmem, c, new GemmShape(512, 384, 256), DType.BF16,
                        GemmOptions.fromEnvironment().withPath(GemmPath.FUSED))) {
                    SymmetricSegment a = shmem.calloc(gemm.aBytes(), 1);
                    SymmetricSegment b = shmem.calloc(gemm.bBytes(), 1);
                    SymmetricSegment cc = shmem.calloc(gemm.cBytes(), 1);
                    for (int i = 0; i < 2; i++) {
                        gemm.run(a, b, cc);
                    }
                    shmem.barrierAll();
                }
            }
            report(me, "done", true);
        }
    }
}
