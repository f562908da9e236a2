package org.jshmem;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

/**
 * Puts and gets (OpenSHMEM 1.5 section 9.6): copies between this PE's memory and any PE's
 * symmetric heap. Offsets are in bytes from the start of the named segment.
 *
 * <p>A blocking put returns when its source may be reused, not when the data is visible at the
 * target: {@link Shmem#quiet()} (or a barrier) makes it visible, {@link Shmem#fence()} orders it
 * before later puts to the same PE. Called on a {@link ShmemContext}, the context's own
 * {@code fence} and {@code quiet} order and complete them. A blocking get returns with the data. The {@code Nbi} forms
 * may return earlier; {@link Shmem#quiet()} completes them, and their buffers must not be touched
 * until then.
 *
 * <p>The typed overloads repeat one shape per Java type on purpose (OpenSHMEM's typed API, as
 * {@code shmem_long_put} etc.): each is a one-line default method the JIT inlines into a direct
 * call with a constant element layout.
 */
public sealed interface RemoteMemoryAccess permits Shmem, ShmemContext {

    /** Copies {@code src} (host memory) to {@code dest} at {@code destOffset} on PE {@code pe}. */
    default void put(SymmetricSegment dest, long destOffset, MemorySegment src, int pe) {
        Args.nonNull("put", "dest", dest, "src", src);
        Endpoint.of(this).put("put", dest, destOffset, src, pe, false);
    }

    /** Non-blocking {@link #put(SymmetricSegment, long, MemorySegment, int)}. */
    default void putNbi(SymmetricSegment dest, long destOffset, MemorySegment src, int pe) {
        Args.nonNull("putNbi", "dest", dest, "src", src);
        Endpoint.of(this).put("putNbi", dest, destOffset, src, pe, true);
    }

    /** Copies {@code dst.byteSize()} bytes of {@code src} at {@code srcOffset} on PE {@code pe} into {@code dst}. */
    default void get(MemorySegment dst, SymmetricSegment src, long srcOffset, int pe) {
        Args.nonNull("get", "dst", dst, "src", src);
        Endpoint.of(this).get("get", dst, src, srcOffset, pe, false);
    }

    /** Non-blocking {@link #get(MemorySegment, SymmetricSegment, long, int)}. */
    default void getNbi(MemorySegment dst, SymmetricSegment src, long srcOffset, int pe) {
        Args.nonNull("getNbi", "dst", dst, "src", src);
        Endpoint.of(this).get("getNbi", dst, src, srcOffset, pe, true);
    }

    /** Copies {@code bytes} of this PE's {@code src} at {@code srcOffset} to {@code dest} at {@code destOffset} on PE {@code pe}. */
    default void put(SymmetricSegment dest, long destOffset, SymmetricSegment src, long srcOffset, long bytes, int pe) {
        Args.nonNull("put", "dest", dest, "src", src);
        Endpoint.of(this).copy("put", dest, destOffset, src, srcOffset, bytes, pe, true, false);
    }

    /** Non-blocking symmetric-to-symmetric put. */
    default void putNbi(SymmetricSegment dest, long destOffset, SymmetricSegment src, long srcOffset, long bytes, int pe) {
        Args.nonNull("putNbi", "dest", dest, "src", src);
        Endpoint.of(this).copy("putNbi", dest, destOffset, src, srcOffset, bytes, pe, true, true);
    }

    /** Copies {@code bytes} of {@code src} at {@code srcOffset} on PE {@code pe} to this PE's {@code dest} at {@code destOffset}. */
    default void get(SymmetricSegment dest, long destOffset, SymmetricSegment src, long srcOffset, long bytes, int pe) {
        Args.nonNull("get", "dest", dest, "src", src);
        Endpoint.of(this).copy("get", dest, destOffset, src, srcOffset, bytes, pe, false, false);
    }

    /** Non-blocking symmetric-to-symmetric get. */
    default void getNbi(SymmetricSegment dest, long destOffset, SymmetricSegment src, long srcOffset, long bytes, int pe) {
        Args.nonNull("getNbi", "dest", dest, "src", src);
        Endpoint.of(this).copy("getNbi", dest, destOffset, src, srcOffset, bytes, pe, false, true);
    }

    /**
     * Strided put: element {@code i} of {@code src} at byte {@code i * srcStride * size} goes to
     * {@code dest} at {@code destOffset + i * destStride * size} on PE {@code pe}, for
     * {@code i < nelems}; strides count elements of {@code element}'s size.
     */
    default void iput(SymmetricSegment dest, long destOffset, long destStride, MemorySegment src, long srcStride,
                      ValueLayout element, long nelems, int pe) {
        Args.nonNull("iput", "dest", dest, "src", src, "element", element);
        Endpoint.of(this).iput(dest, destOffset, destStride, src, srcStride, element, nelems, pe);
    }

    /** Strided get: the mirror of {@link #iput}. */
    default void iget(MemorySegment dst, long dstStride, SymmetricSegment src, long srcOffset, long srcStride,
                      ValueLayout element, long nelems, int pe) {
        Args.nonNull("iget", "dst", dst, "src", src, "element", element);
        Endpoint.of(this).iget(dst, dstStride, src, srcOffset, srcStride, element, nelems, pe);
    }

    /**
     * Blocked strided put (OpenSHMEM 1.6's {@code shmem_ibput}): {@code nblocks} blocks of
     * {@code blockSize} contiguous elements; block {@code i} starts at element {@code i * srcStride}
     * of {@code src} and goes to element {@code i * destStride} from byte {@code destOffset} of
     * {@code dest} on PE {@code pe}. Strides count elements; {@code destStride >= blockSize}, so
     * that the blocks do not overlap.
     */
    default void ibput(SymmetricSegment dest, long destOffset, long destStride, MemorySegment src, long srcStride,
                       ValueLayout element, long blockSize, long nblocks, int pe) {
        Args.nonNull("ibput", "dest", dest, "src", src, "element", element);
        Endpoint.of(this).ibput(dest, destOffset, destStride, src, srcStride, element, blockSize, nblocks, pe);
    }

    /**
     * Blocked strided get (OpenSHMEM 1.6's {@code shmem_ibget}), the mirror of {@link #ibput}:
     * block {@code i} from element {@code i * srcStride} from byte {@code srcOffset} of {@code src}
     * on PE {@code pe} to element {@code i * dstStride} of {@code dst}; {@code dstStride >= blockSize}.
     */
    default void ibget(MemorySegment dst, long dstStride, SymmetricSegment src, long srcOffset, long srcStride,
                       ValueLayout element, long blockSize, long nblocks, int pe) {
        Args.nonNull("ibget", "dst", dst, "src", src, "element", element);
        Endpoint.of(this).ibget(dst, dstStride, src, srcOffset, srcStride, element, blockSize, nblocks, pe);
    }

    /** Puts {@code count} elements of {@code src} from {@code srcIndex} to {@code dest} at byte {@code destOffset} on PE {@code pe}. */
    default void put(SymmetricSegment dest, long destOffset, byte[] src, int srcIndex, int count, int pe) {
        Args.nonNull("put", "dest", dest, "src", src);
        put(dest, destOffset, slice(MemorySegment.ofArray(src), src.length, srcIndex, count, 1), pe);
    }

    /** Non-blocking form of {@link #put(SymmetricSegment, long, byte[], int, int, int)}. */
    default void putNbi(SymmetricSegment dest, long destOffset, byte[] src, int srcIndex, int count, int pe) {
        Args.nonNull("putNbi", "dest", dest, "src", src);
        putNbi(dest, destOffset, slice(MemorySegment.ofArray(src), src.length, srcIndex, count, 1), pe);
    }

    /** Gets {@code count} elements from {@code src} at byte {@code srcOffset} on PE {@code pe} into {@code dst} from {@code dstIndex}. */
    default void get(byte[] dst, int dstIndex, int count, SymmetricSegment src, long srcOffset, int pe) {
        Args.nonNull("get", "dst", dst, "src", src);
        get(slice(MemorySegment.ofArray(dst), dst.length, dstIndex, count, 1), src, srcOffset, pe);
    }

    /** Non-blocking form of {@link #get(byte[], int, int, SymmetricSegment, long, int)}. */
    default void getNbi(byte[] dst, int dstIndex, int count, SymmetricSegment src, long srcOffset, int pe) {
        Args.nonNull("getNbi", "dst", dst, "src", src);
        getNbi(slice(MemorySegment.ofArray(dst), dst.length, dstIndex, count, 1), src, srcOffset, pe);
    }

    /** Strided put of {@code byte} elements (strides in elements): {@code src[srcIndex + i*srcStride]} to element {@code i*destStride} after {@code destOffset}. */
    default void iput(SymmetricSegment dest, long destOffset, long destStride, byte[] src, int srcIndex, long srcStride,
                      int nelems, int pe) {
        Args.nonNull("iput", "dest", dest, "src", src);
        MemorySegment s = stridedSlice(MemorySegment.ofArray(src), src.length, srcIndex, srcStride, nelems, 1);
        iput(dest, destOffset, destStride, s, srcStride, ValueLayout.JAVA_BYTE, nelems, pe);
    }

    /** Strided get of {@code byte} elements (strides in elements), the mirror of the strided put. */
    default void iget(byte[] dst, int dstIndex, long dstStride, SymmetricSegment src, long srcOffset, long srcStride,
                      int nelems, int pe) {
        Args.nonNull("iget", "dst", dst, "src", src);
        MemorySegment d = stridedSlice(MemorySegment.ofArray(dst), dst.length, dstIndex, dstStride, nelems, 1);
        iget(d, dstStride, src, srcOffset, srcStride, ValueLayout.JAVA_BYTE, nelems, pe);
    }

    /** Puts {@code count} elements of {@code src} from {@code srcIndex} to {@code dest} at byte {@code destOffset} on PE {@code pe}. */
    default void put(SymmetricSegment dest, long destOffset, short[] src, int srcIndex, int count, int pe) {
        Args.nonNull("put", "dest", dest, "src", src);
        put(dest, destOffset, slice(MemorySegment.ofArray(src), src.length, srcIndex, count, 2), pe);
    }

    /** Non-blocking form of {@link #put(SymmetricSegment, long, short[], int, int, int)}. */
    default void putNbi(SymmetricSegment dest, long destOffset, short[] src, int srcIndex, int count, int pe) {
        Args.nonNull("putNbi", "dest", dest, "src", src);
        putNbi(dest, destOffset, slice(MemorySegment.ofArray(src), src.length, srcIndex, count, 2), pe);
    }

    /** Gets {@code count} elements from {@code src} at byte {@code srcOffset} on PE {@code pe} into {@code dst} from {@code dstIndex}. */
    default void get(short[] dst, int dstIndex, int count, SymmetricSegment src, long srcOffset, int pe) {
        Args.nonNull("get", "dst", dst, "src", src);
        get(slice(MemorySegment.ofArray(dst), dst.length, dstIndex, count, 2), src, srcOffset, pe);
    }

    /** Non-blocking form of {@link #get(short[], int, int, SymmetricSegment, long, int)}. */
    default void getNbi(short[] dst, int dstIndex, int count, SymmetricSegment src, long srcOffset, int pe) {
        Args.nonNull("getNbi", "dst", dst, "src", src);
        getNbi(slice(MemorySegment.ofArray(dst), dst.length, dstIndex, count, 2), src, srcOffset, pe);
    }

    /** Strided put of {@code short} elements (strides in elements): {@code src[srcIndex + i*srcStride]} to element {@code i*destStride} after {@code destOffset}. */
    default void iput(SymmetricSegment dest, long destOffset, long destStride, short[] src, int srcIndex, long srcStride,
                      int nelems, int pe) {
        Args.nonNull("iput", "dest", dest, "src", src);
        MemorySegment s = stridedSlice(MemorySegment.ofArray(src), src.length, srcIndex, srcStride, nelems, 2);
        iput(dest, destOffset, destStride, s, srcStride, ValueLayout.JAVA_SHORT, nelems, pe);
    }

    /** Strided get of {@code short} elements (strides in elements), the mirror of the strided put. */
    default void iget(short[] dst, int dstIndex, long dstStride, SymmetricSegment src, long srcOffset, long srcStride,
                      int nelems, int pe) {
        Args.nonNull("iget", "dst", dst, "src", src);
        MemorySegment d = stridedSlice(MemorySegment.ofArray(dst), dst.length, dstIndex, dstStride, nelems, 2);
        iget(d, dstStride, src, srcOffset, srcStride, ValueLayout.JAVA_SHORT, nelems, pe);
    }

    /** Puts {@code count} elements of {@code src} from {@code srcIndex} to {@code dest} at byte {@code destOffset} on PE {@code pe}. */
    default void put(SymmetricSegment dest, long destOffset, int[] src, int srcIndex, int count, int pe) {
        Args.nonNull("put", "dest", dest, "src", src);
        put(dest, destOffset, slice(MemorySegment.ofArray(src), src.length, srcIndex, count, 4), pe);
    }

    /** Non-blocking form of {@link #put(SymmetricSegment, long, int[], int, int, int)}. */
    default void putNbi(SymmetricSegment dest, long destOffset, int[] src, int srcIndex, int count, int pe) {
        Args.nonNull("putNbi", "dest", dest, "src", src);
        putNbi(dest, destOffset, slice(MemorySegment.ofArray(src), src.length, srcIndex, count, 4), pe);
    }

    /** Gets {@code count} elements from {@code src} at byte {@code srcOffset} on PE {@code pe} into {@code dst} from {@code dstIndex}. */
    default void get(int[] dst, int dstIndex, int count, SymmetricSegment src, long srcOffset, int pe) {
        Args.nonNull("get", "dst", dst, "src", src);
        get(slice(MemorySegment.ofArray(dst), dst.length, dstIndex, count, 4), src, srcOffset, pe);
    }

    /** Non-blocking form of {@link #get(int[], int, int, SymmetricSegment, long, int)}. */
    default void getNbi(int[] dst, int dstIndex, int count, SymmetricSegment src, long srcOffset, int pe) {
        Args.nonNull("getNbi", "dst", dst, "src", src);
        getNbi(slice(MemorySegment.ofArray(dst), dst.length, dstIndex, count, 4), src, srcOffset, pe);
    }

    /** Strided put of {@code int} elements (strides in elements): {@code src[srcIndex + i*srcStride]} to element {@code i*destStride} after {@code destOffset}. */
    default void iput(SymmetricSegment dest, long destOffset, long destStride, int[] src, int srcIndex, long srcStride,
                      int nelems, int pe) {
        Args.nonNull("iput", "dest", dest, "src", src);
        MemorySegment s = stridedSlice(MemorySegment.ofArray(src), src.length, srcIndex, srcStride, nelems, 4);
        iput(dest, destOffset, destStride, s, srcStride, ValueLayout.JAVA_INT, nelems, pe);
    }

    /** Strided get of {@code int} elements (strides in elements), the mirror of the strided put. */
    default void iget(int[] dst, int dstIndex, long dstStride, SymmetricSegment src, long srcOffset, long srcStride,
                      int nelems, int pe) {
        Args.nonNull("iget", "dst", dst, "src", src);
        MemorySegment d = stridedSlice(MemorySegment.ofArray(dst), dst.length, dstIndex, dstStride, nelems, 4);
        iget(d, dstStride, src, srcOffset, srcStride, ValueLayout.JAVA_INT, nelems, pe);
    }

    /** Puts {@code count} elements of {@code src} from {@code srcIndex} to {@code dest} at byte {@code destOffset} on PE {@code pe}. */
    default void put(SymmetricSegment dest, long destOffset, long[] src, int srcIndex, int count, int pe) {
        Args.nonNull("put", "dest", dest, "src", src);
        put(dest, destOffset, slice(MemorySegment.ofArray(src), src.length, srcIndex, count, 8), pe);
    }

    /** Non-blocking form of {@link #put(SymmetricSegment, long, long[], int, int, int)}. */
    default void putNbi(SymmetricSegment dest, long destOffset, long[] src, int srcIndex, int count, int pe) {
        Args.nonNull("putNbi", "dest", dest, "src", src);
        putNbi(dest, destOffset, slice(MemorySegment.ofArray(src), src.length, srcIndex, count, 8), pe);
    }

    /** Gets {@code count} elements from {@code src} at byte {@code srcOffset} on PE {@code pe} into {@code dst} from {@code dstIndex}. */
    default void get(long[] dst, int dstIndex, int count, SymmetricSegment src, long srcOffset, int pe) {
        Args.nonNull("get", "dst", dst, "src", src);
        get(slice(MemorySegment.ofArray(dst), dst.length, dstIndex, count, 8), src, srcOffset, pe);
    }

    /** Non-blocking form of {@link #get(long[], int, int, SymmetricSegment, long, int)}. */
    default void getNbi(long[] dst, int dstIndex, int count, SymmetricSegment src, long srcOffset, int pe) {
        Args.nonNull("getNbi", "dst", dst, "src", src);
        getNbi(slice(MemorySegment.ofArray(dst), dst.length, dstIndex, count, 8), src, srcOffset, pe);
    }

    /** Strided put of {@code long} elements (strides in elements): {@code src[srcIndex + i*srcStride]} to element {@code i*destStride} after {@code destOffset}. */
    default void iput(SymmetricSegment dest, long destOffset, long destStride, long[] src, int srcIndex, long srcStride,
                      int nelems, int pe) {
        Args.nonNull("iput", "dest", dest, "src", src);
        MemorySegment s = stridedSlice(MemorySegment.ofArray(src), src.length, srcIndex, srcStride, nelems, 8);
        iput(dest, destOffset, destStride, s, srcStride, ValueLayout.JAVA_LONG, nelems, pe);
    }

    /** Strided get of {@code long} elements (strides in elements), the mirror of the strided put. */
    default void iget(long[] dst, int dstIndex, long dstStride, SymmetricSegment src, long srcOffset, long srcStride,
                      int nelems, int pe) {
        Args.nonNull("iget", "dst", dst, "src", src);
        MemorySegment d = stridedSlice(MemorySegment.ofArray(dst), dst.length, dstIndex, dstStride, nelems, 8);
        iget(d, dstStride, src, srcOffset, srcStride, ValueLayout.JAVA_LONG, nelems, pe);
    }

    /** Puts {@code count} elements of {@code src} from {@code srcIndex} to {@code dest} at byte {@code destOffset} on PE {@code pe}. */
    default void put(SymmetricSegment dest, long destOffset, float[] src, int srcIndex, int count, int pe) {
        Args.nonNull("put", "dest", dest, "src", src);
        put(dest, destOffset, slice(MemorySegment.ofArray(src), src.length, srcIndex, count, 4), pe);
    }

    /** Non-blocking form of {@link #put(SymmetricSegment, long, float[], int, int, int)}. */
    default void putNbi(SymmetricSegment dest, long destOffset, float[] src, int srcIndex, int count, int pe) {
        Args.nonNull("putNbi", "dest", dest, "src", src);
        putNbi(dest, destOffset, slice(MemorySegment.ofArray(src), src.length, srcIndex, count, 4), pe);
    }

    /** Gets {@code count} elements from {@code src} at byte {@code srcOffset} on PE {@code pe} into {@code dst} from {@code dstIndex}. */
    default void get(float[] dst, int dstIndex, int count, SymmetricSegment src, long srcOffset, int pe) {
        Args.nonNull("get", "dst", dst, "src", src);
        get(slice(MemorySegment.ofArray(dst), dst.length, dstIndex, count, 4), src, srcOffset, pe);
    }

    /** Non-blocking form of {@link #get(float[], int, int, SymmetricSegment, long, int)}. */
    default void getNbi(float[] dst, int dstIndex, int count, SymmetricSegment src, long srcOffset, int pe) {
        Args.nonNull("getNbi", "dst", dst, "src", src);
        getNbi(slice(MemorySegment.ofArray(dst), dst.length, dstIndex, count, 4), src, srcOffset, pe);
    }

    /** Strided put of {@code float} elements (strides in elements): {@code src[srcIndex + i*srcStride]} to element {@code i*destStride} after {@code destOffset}. */
    default void iput(SymmetricSegment dest, long destOffset, long destStride, float[] src, int srcIndex, long srcStride,
                      int nelems, int pe) {
        Args.nonNull("iput", "dest", dest, "src", src);
        MemorySegment s = stridedSlice(MemorySegment.ofArray(src), src.length, srcIndex, srcStride, nelems, 4);
        iput(dest, destOffset, destStride, s, srcStride, ValueLayout.JAVA_FLOAT, nelems, pe);
    }

    /** Strided get of {@code float} elements (strides in elements), the mirror of the strided put. */
    default void iget(float[] dst, int dstIndex, long dstStride, SymmetricSegment src, long srcOffset, long srcStride,
                      int nelems, int pe) {
        Args.nonNull("iget", "dst", dst, "src", src);
        MemorySegment d = stridedSlice(MemorySegment.ofArray(dst), dst.length, dstIndex, dstStride, nelems, 4);
        iget(d, dstStride, src, srcOffset, srcStride, ValueLayout.JAVA_FLOAT, nelems, pe);
    }

    /** Puts {@code count} elements of {@code src} from {@code srcIndex} to {@code dest} at byte {@code destOffset} on PE {@code pe}. */
    default void put(SymmetricSegment dest, long destOffset, double[] src, int srcIndex, int count, int pe) {
        Args.nonNull("put", "dest", dest, "src", src);
        put(dest, destOffset, slice(MemorySegment.ofArray(src), src.length, srcIndex, count, 8), pe);
    }

    /** Non-blocking form of {@link #put(SymmetricSegment, long, double[], int, int, int)}. */
    default void putNbi(SymmetricSegment dest, long destOffset, double[] src, int srcIndex, int count, int pe) {
        Args.nonNull("putNbi", "dest", dest, "src", src);
        putNbi(dest, destOffset, slice(MemorySegment.ofArray(src), src.length, srcIndex, count, 8), pe);
    }

    /** Gets {@code count} elements from {@code src} at byte {@code srcOffset} on PE {@code pe} into {@code dst} from {@code dstIndex}. */
    default void get(double[] dst, int dstIndex, int count, SymmetricSegment src, long srcOffset, int pe) {
        Args.nonNull("get", "dst", dst, "src", src);
        get(slice(MemorySegment.ofArray(dst), dst.length, dstIndex, count, 8), src, srcOffset, pe);
    }

    /** Non-blocking form of {@link #get(double[], int, int, SymmetricSegment, long, int)}. */
    default void getNbi(double[] dst, int dstIndex, int count, SymmetricSegment src, long srcOffset, int pe) {
        Args.nonNull("getNbi", "dst", dst, "src", src);
        getNbi(slice(MemorySegment.ofArray(dst), dst.length, dstIndex, count, 8), src, srcOffset, pe);
    }

    /** Strided put of {@code double} elements (strides in elements): {@code src[srcIndex + i*srcStride]} to element {@code i*destStride} after {@code destOffset}. */
    default void iput(SymmetricSegment dest, long destOffset, long destStride, double[] src, int srcIndex, long srcStride,
                      int nelems, int pe) {
        Args.nonNull("iput", "dest", dest, "src", src);
        MemorySegment s = stridedSlice(MemorySegment.ofArray(src), src.length, srcIndex, srcStride, nelems, 8);
        iput(dest, destOffset, destStride, s, srcStride, ValueLayout.JAVA_DOUBLE, nelems, pe);
    }

    /** Strided get of {@code double} elements (strides in elements), the mirror of the strided put. */
    default void iget(double[] dst, int dstIndex, long dstStride, SymmetricSegment src, long srcOffset, long srcStride,
                      int nelems, int pe) {
        Args.nonNull("iget", "dst", dst, "src", src);
        MemorySegment d = stridedSlice(MemorySegment.ofArray(dst), dst.length, dstIndex, dstStride, nelems, 8);
        iget(d, dstStride, src, srcOffset, srcStride, ValueLayout.JAVA_DOUBLE, nelems, pe);
    }

    /** Writes one {@code byte} to {@code dest} at byte {@code offset} on PE {@code pe} (OpenSHMEM {@code p}; a release store). */
    default void pByte(SymmetricSegment dest, long offset, byte value, int pe) {
        Args.nonNull("pByte", "dest", dest);
        Endpoint.of(this).pBits("pByte", dest, offset, 1, value, pe);
    }

    /** Reads one {@code byte} from {@code src} at byte {@code offset} on PE {@code pe} (OpenSHMEM {@code g}; an acquire load). */
    default byte gByte(SymmetricSegment src, long offset, int pe) {
        Args.nonNull("gByte", "src", src);
        return (byte) Endpoint.of(this).gBits("gByte", src, offset, 1, pe);
    }

    /** Writes one {@code short} to {@code dest} at byte {@code offset} on PE {@code pe} (OpenSHMEM {@code p}; a release store). */
    default void pShort(SymmetricSegment dest, long offset, short value, int pe) {
        Args.nonNull("pShort", "dest", dest);
        Endpoint.of(this).pBits("pShort", dest, offset, 2, value, pe);
    }

    /** Reads one {@code short} from {@code src} at byte {@code offset} on PE {@code pe} (OpenSHMEM {@code g}; an acquire load). */
    default short gShort(SymmetricSegment src, long offset, int pe) {
        Args.nonNull("gShort", "src", src);
        return (short) Endpoint.of(this).gBits("gShort", src, offset, 2, pe);
    }

    /** Writes one {@code int} to {@code dest} at byte {@code offset} on PE {@code pe} (OpenSHMEM {@code p}; a release store). */
    default void pInt(SymmetricSegment dest, long offset, int value, int pe) {
        Args.nonNull("pInt", "dest", dest);
        Endpoint.of(this).pBits("pInt", dest, offset, 4, value, pe);
    }

    /** Reads one {@code int} from {@code src} at byte {@code offset} on PE {@code pe} (OpenSHMEM {@code g}; an acquire load). */
    default int gInt(SymmetricSegment src, long offset, int pe) {
        Args.nonNull("gInt", "src", src);
        return (int) Endpoint.of(this).gBits("gInt", src, offset, 4, pe);
    }

    /** Writes one {@code long} to {@code dest} at byte {@code offset} on PE {@code pe} (OpenSHMEM {@code p}; a release store). */
    default void pLong(SymmetricSegment dest, long offset, long value, int pe) {
        Args.nonNull("pLong", "dest", dest);
        Endpoint.of(this).pBits("pLong", dest, offset, 8, value, pe);
    }

    /** Reads one {@code long} from {@code src} at byte {@code offset} on PE {@code pe} (OpenSHMEM {@code g}; an acquire load). */
    default long gLong(SymmetricSegment src, long offset, int pe) {
        Args.nonNull("gLong", "src", src);
        return (long) Endpoint.of(this).gBits("gLong", src, offset, 8, pe);
    }

    /** Writes one {@code float} to {@code dest} at byte {@code offset} on PE {@code pe} (OpenSHMEM {@code p}; a release store). */
    default void pFloat(SymmetricSegment dest, long offset, float value, int pe) {
        Args.nonNull("pFloat", "dest", dest);
        Endpoint.of(this).pBits("pFloat", dest, offset, 4, Float.floatToRawIntBits(value), pe);
    }

    /** Reads one {@code float} from {@code src} at byte {@code offset} on PE {@code pe} (OpenSHMEM {@code g}; an acquire load). */
    default float gFloat(SymmetricSegment src, long offset, int pe) {
        Args.nonNull("gFloat", "src", src);
        return Float.intBitsToFloat((int) Endpoint.of(this).gBits("gFloat", src, offset, 4, pe));
    }

    /** Writes one {@code double} to {@code dest} at byte {@code offset} on PE {@code pe} (OpenSHMEM {@code p}; a release store). */
    default void pDouble(SymmetricSegment dest, long offset, double value, int pe) {
        Args.nonNull("pDouble", "dest", dest);
        Endpoint.of(this).pBits("pDouble", dest, offset, 8, Double.doubleToRawLongBits(value), pe);
    }

    /** Reads one {@code double} from {@code src} at byte {@code offset} on PE {@code pe} (OpenSHMEM {@code g}; an acquire load). */
    default double gDouble(SymmetricSegment src, long offset, int pe) {
        Args.nonNull("gDouble", "src", src);
        return Double.longBitsToDouble(Endpoint.of(this).gBits("gDouble", src, offset, 8, pe));
    }

    private static MemorySegment slice(MemorySegment array, int length, int index, int count, int width) {
        Objects.checkFromIndexSize(index, count, length);
        return array.asSlice((long) index * width, (long) count * width);
    }

    private static MemorySegment stridedSlice(MemorySegment array, int length, int index, long stride, int nelems,
                                              int width) {
        if (stride < 1 || nelems < 0) {
            throw new IllegalArgumentException("stride must be >= 1 and the element count >= 0 (got stride " + stride
                    + ", count " + nelems + ")");
        }
        long span = nelems == 0 ? 0 : (nelems - 1) * stride + 1;
        Objects.checkFromIndexSize(index, span, length);
        return array.asSlice((long) index * width, span * width);
    }
}
