package org.jshmem.gpu;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.util.function.Consumer;
import java.util.function.IntUnaryOperator;
import org.jshmem.gpu.shim.Shim;

/**
 * The service kernel ({@code JSHMEM_GPU_SERVICE_US}, the runtime's {@code coll_service.cuh}): one block that stays
 * on one SM of this PE's GPU and runs host-called small collectives without a kernel launch each: the block
 * answers a posted command in less than half the time a launch and a wait for it take. The block
 * returns after the configured time without a command, and the next command launches it again.
 *
 * <p>A served call passes {@link #stream()} to the runtime's collective, which posts one command into the box in
 * mapped host memory; this class then polls the box's done number. While a PE is served its share of SMs is one
 * fewer ({@link GpuBackend#multiprocessorsPerPe()}), so that kernels whose blocks wait for each other still find
 * room. One command at a time.
 */
final class GpuService implements AutoCloseable {
    private static final VarHandle WORD = JAVA_LONG.varHandle();
    /** Idle steps between checks of the kernel (a fault, or a return that raced a post): tens of microseconds. */
    private static final int CHECK_EVERY = 1024;

    private final MemorySegment box;
    private final MemorySegment stream;

    /** Opens the service; its kernel returns after {@code lingerMicros} without a command. */
    GpuService(long lingerMicros) {
        Shim.Service s = Shim.serviceOpen(lingerMicros);
        this.box = s.box();
        this.stream = s.stream();
    }

    /**
     * Runs {@code work} with the service's stream (it posts one command, or none when it has nothing to do) and
     * waits until the command is done, calling {@code idle} between polls (a dead PE ends the wait).
     */
    synchronized void runAndWait(Consumer<MemorySegment> work, IntUnaryOperator idle) {
        work.accept(stream);
        long posted = (long) WORD.getAcquire(box, Shim.SERVICE_POSTED);
        for (int n = 0; (long) WORD.getAcquire(box, Shim.SERVICE_DONE) != posted; ) {
            n = idle.applyAsInt(n);
            if (n % CHECK_EVERY == 0) {
                Shim.serviceCheck();
            }
        }
    }

    /** Ends the kernel until the next command: a wait for the whole device would otherwise wait for its linger. */
    synchronized void stop() {
        Shim.serviceStop();
    }

    @Override
    public synchronized void close() {
        Shim.serviceClose();
    }
}
