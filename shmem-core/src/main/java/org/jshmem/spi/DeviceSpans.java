package org.jshmem.spi;

/**
 * Where a backend hands over the spans its kernels recorded for the job's trace
 * ({@code JSHMEM_TRACE}, {@link Backend#drainDeviceTrace}).
 */
public interface DeviceSpans {
    /**
     * One span that thread {@code thread} of block {@code block} of a kernel recorded, on this PE's host
     * clock ({@link System#nanoTime}).
     *
     * @param category "compute", "comm", "wait" (jshmem's GEMM kernels), "comm", "barrier" (its runtime
     *                 kernels) or "gpu" (a kernel's own spans)
     * @param value    the span's number (the fused GEMM's tile), or -1
     * @param op       the tagged stream operation a runtime kernel ran for
     *                 ({@link StreamCapability#tagKernels}), else 0
     */
    void span(int block, int thread, String category, String name, long startNanos, long endNanos, long value, int op);

    /** Spans the device recorded but could not keep (its ring was full), and the bound on the clock mapping's error. */
    void summary(long lost, long clockErrorNanos);
}
