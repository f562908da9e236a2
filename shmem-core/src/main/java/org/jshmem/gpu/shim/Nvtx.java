package org.jshmem.gpu.shim;

import static java.lang.foreign.ValueLayout.ADDRESS;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.ConcurrentHashMap;

/**
 * NVTX ranges in the domain "jshmem" ({@code JSHMEM_NVTX}), through {@code libjshmem_nvtx.so}: Nsight Systems
 * shows them on each thread's row. Loaded on first use; a build without the CUDA toolkit's NVTX headers has
 * no such library, and the first use says so.
 */
public final class Nvtx {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final SymbolLookup LIB = NativeLibraries.load("jshmem_nvtx");
    private static final MethodHandle PUSH = handle("jshmem_nvtx_push", FunctionDescriptor.ofVoid(ADDRESS));
    private static final MethodHandle POP = handle("jshmem_nvtx_pop", FunctionDescriptor.ofVoid());
    /** Range names as C strings, made once each: the names are jshmem's own calls, a few dozen. */
    private static final ConcurrentHashMap<String, MemorySegment> NAMES = new ConcurrentHashMap<>();

    static {
        try {
            handle("jshmem_nvtx_init", FunctionDescriptor.ofVoid()).invokeExact();
        } catch (Throwable t) {
            throw new IllegalStateException("libjshmem_nvtx: " + t, t);
        }
    }

    private Nvtx() {
    }

    private static MethodHandle handle(String name, FunctionDescriptor fd) {
        MemorySegment symbol = LIB.find(name).orElseThrow(() -> new IllegalStateException(
                "libjshmem_nvtx.so has no function " + name + " (stale build?)"));
        return LINKER.downcallHandle(symbol, fd, Linker.Option.critical(false));
    }

    /** Loads the library and creates the domain; throws, saying why, where this build has no NVTX. */
    public static void load() {
        // the class's initialisation does it
    }

    /** Opens a range named {@code name} on the calling thread. */
    public static void push(String name) {
        MemorySegment c = NAMES.computeIfAbsent(name, n -> Arena.global().allocateFrom(n));
        try {
            PUSH.invokeExact(c);
        } catch (Throwable t) {
            throw new IllegalStateException("libjshmem_nvtx: " + t, t);
        }
    }

    /** Closes the calling thread's innermost range. */
    public static void pop() {
        try {
            POP.invokeExact();
        } catch (Throwable t) {
            throw new IllegalStateException("libjshmem_nvtx: " + t, t);
        }
    }
}
