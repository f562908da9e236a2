package org.jshmem.device;

import org.jshmem.ShmemStream;

/**
 * How to launch a kernel: grid and block shapes, dynamic shared memory, and the stream
 * ({@code null}: the default stream).
 */
public record LaunchConfig(Dim3 grid, Dim3 block, int sharedBytes, ShmemStream stream) {
    public LaunchConfig {
        if (sharedBytes < 0) {
            throw new IllegalArgumentException("shared memory bytes must not be negative: " + sharedBytes);
        }
    }

    /** {@code blocks} blocks of {@code threads} threads, no dynamic shared memory, on {@code stream}. */
    public static LaunchConfig of(int blocks, int threads, ShmemStream stream) {
        return new LaunchConfig(Dim3.of(blocks), Dim3.of(threads), 0, stream);
    }

    /** The same launch with {@code bytes} of dynamic shared memory. */
    public LaunchConfig withSharedBytes(int bytes) {
        return new LaunchConfig(grid, block, bytes, stream);
    }
}
