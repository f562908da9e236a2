package org.jshmem.node;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.file.Path;

/**
 * Shared file mappings with a chosen offset of the file at an address aligned to a given power of
 * two, and pre-faulting of mapped ranges (Linux, through libc). {@code FileChannel.map} maps
 * wherever the kernel likes (often only 4 KiB-aligned for small files), so a heap at a 2 MiB-aligned
 * offset of the file is not 2 MiB-aligned in memory; this reserves {@code bytes + alignment} of
 * address space (address space only: a large alignment costs no memory), maps the file over the
 * part of it that puts the offset at an aligned address ({@code MAP_FIXED} inside the reservation)
 * and gives back the rest.
 */
public final class AlignedMapping {
    private static final int O_RDWR = 2;
    private static final int O_CLOEXEC = 0x80000;
    private static final int PROT_NONE = 0;
    private static final int PROT_READ_WRITE = 1 | 2;
    private static final int MAP_SHARED = 0x01;
    private static final int MAP_PRIVATE = 0x02;
    private static final int MAP_FIXED = 0x10;
    private static final int MAP_ANONYMOUS = 0x20;
    private static final int MAP_NORESERVE = 0x4000;
    private static final int MADV_POPULATE_WRITE = 23;   // Linux 5.14
    private static final long PAGE = 4096;

    private static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CAPTURE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final MethodHandle OPEN;
    private static final MethodHandle CLOSE;
    private static final MethodHandle MMAP;
    private static final MethodHandle MUNMAP;
    private static final MethodHandle MADVISE;
    private static final MethodHandle STRERROR;

    static {
        Linker linker = Linker.nativeLinker();
        var libc = linker.defaultLookup();
        Linker.Option errno = Linker.Option.captureCallState("errno");
        OPEN = linker.downcallHandle(libc.find("open").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT), errno);
        CLOSE = linker.downcallHandle(libc.find("close").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
        MMAP = linker.downcallHandle(libc.find("mmap").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG,
                        ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG), errno);
        MUNMAP = linker.downcallHandle(libc.find("munmap").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG));
        MADVISE = linker.downcallHandle(libc.find("madvise").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG,
                        ValueLayout.JAVA_INT), errno);
        STRERROR = linker.downcallHandle(libc.find("strerror").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.ADDRESS.withTargetLayout(MemoryLayout.sequenceLayout(256,
                        ValueLayout.JAVA_BYTE)), ValueLayout.JAVA_INT));
    }

    private AlignedMapping() {
    }

    /**
     * Maps {@code bytes} of {@code file} (read-write, shared) at an address that is a multiple of
     * {@code alignment}; unmapped when {@code arena} closes.
     */
    public static MemorySegment map(Path file, long bytes, long alignment, Arena arena) throws IOException {
        return map(file, bytes, alignment, 0, arena);
    }

    /**
     * Maps {@code bytes} of {@code file} (read-write, shared) so that its byte {@code alignedOffset}
     * (a multiple of 4096) is at an address that is a multiple of {@code alignment}; unmapped when
     * {@code arena} closes.
     */
    public static MemorySegment map(Path file, long bytes, long alignment, long alignedOffset, Arena arena)
            throws IOException {
        if (alignment < PAGE || Long.bitCount(alignment) != 1 || bytes <= 0 || alignedOffset < 0
                || alignedOffset % PAGE != 0) {
            throw new IllegalArgumentException("map: alignment " + alignment + " (a power of two >= 4096), bytes " + bytes
                    + ", aligned offset " + alignedOffset + " (a multiple of 4096)");
        }
        try (Arena call = Arena.ofConfined()) {
            MemorySegment state = call.allocate(CAPTURE);
            int fd = (int) OPEN.invokeExact(state, call.allocateFrom(file.toString()), O_RDWR | O_CLOEXEC);
            if (fd < 0) {
                throw new IOException("open " + file + ": " + error(state));
            }
            try {
                long reserve = bytes + alignment;
                long r = (long) MMAP.invokeExact(state, 0L, reserve, PROT_NONE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0L);
                if (r == -1) {
                    throw new IOException("reserving " + reserve + " bytes of address space for " + file + ": "
                            + error(state));
                }
                long at = ((r + alignedOffset + alignment - 1) & -alignment) - alignedOffset;   // in [r, r + alignment)
                long m = (long) MMAP.invokeExact(state, at, bytes, PROT_READ_WRITE, MAP_SHARED | MAP_FIXED, fd, 0L);
                if (m != at) {
                    String why = error(state);
                    int ignored = (int) MUNMAP.invokeExact(r, reserve);
                    throw new IOException("mapping " + file + " (" + bytes + " bytes): " + why);
                }
                if (at > r) {
                    int ignored = (int) MUNMAP.invokeExact(r, at - r);
                }
                long tail = r + reserve - (at + bytes);
                if (tail > 0) {
                    int ignored = (int) MUNMAP.invokeExact(at + bytes, tail);
                }
                return MemorySegment.ofAddress(at).reinterpret(bytes, arena, s -> unmap(at, bytes));
            } finally {
                int ignored = (int) CLOSE.invokeExact(fd);
            }
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /**
     * Pre-faults {@code range} for writing (allocates its pages and fills this process's page
     * tables) with {@code madvise(MADV_POPULATE_WRITE)}, or, on kernels older than 5.14, by
     * reading a byte of every page. Returns whether madvise did it.
     */
    public static boolean prefault(MemorySegment range) {
        long start = range.address() & -PAGE;
        long end = (range.address() + range.byteSize() + PAGE - 1) & -PAGE;
        if (end <= start) {
            return true;
        }
        try (Arena call = Arena.ofConfined()) {
            MemorySegment state = call.allocate(CAPTURE);
            if ((int) MADVISE.invokeExact(state, start, end - start, MADV_POPULATE_WRITE) == 0) {
                return true;
            }
        } catch (Throwable t) {
            // fall through to touching
        }
        long sum = 0;
        for (long off = 0; off < range.byteSize(); off += PAGE) {
            sum += range.get(ValueLayout.JAVA_BYTE, off);   // a read fault maps the (shared) page
        }
        return sum == Long.MIN_VALUE;   // never true: keeps the loop
    }

    private static void unmap(long at, long bytes) {
        try {
            int ignored = (int) MUNMAP.invokeExact(at, bytes);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private static String error(MemorySegment state) throws Throwable {
        int errno = (int) ERRNO.get(state, 0L);
        MemorySegment s = (MemorySegment) STRERROR.invokeExact(errno);
        return s.getString(0) + " (errno " + errno + ")";
    }
}
