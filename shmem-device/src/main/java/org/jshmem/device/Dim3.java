package org.jshmem.device;

/** A grid or block shape, as CUDA's {@code dim3}. */
public record Dim3(int x, int y, int z) {
    public Dim3 {
        if (x < 1 || y < 1 || z < 1) {
            throw new IllegalArgumentException("every dimension must be >= 1, got (" + x + ", " + y + ", " + z + ")");
        }
    }

    /** A one-dimensional shape. */
    public static Dim3 of(int x) {
        return new Dim3(x, 1, 1);
    }

    public static Dim3 of(int x, int y) {
        return new Dim3(x, y, 1);
    }
}
