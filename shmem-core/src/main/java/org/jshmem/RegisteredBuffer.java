package org.jshmem;

import java.lang.foreign.MemorySegment;

/**
 * Device memory outside the symmetric heap (a buffer from {@code cudaMalloc}, a PyTorch tensor's
 * storage) registered with {@link Shmem#registerBuffer} so that on-stream copies can use it as
 * their local side: {@link StreamOperations#putOnStream(SymmetricSegment, long, RegisteredBuffer, long, long, int, ShmemStream)}
 * and {@link StreamOperations#getOnStream(RegisteredBuffer, long, SymmetricSegment, long, long, int, ShmemStream)}
 * (NVSHMEM's {@code nvshmemx_buffer_register}). The memory stays the caller's: {@link #close()}
 * unregisters it and frees nothing; free it only after the copies queued on it have finished.
 */
public final class RegisteredBuffer implements AutoCloseable {
    private final Shmem owner;
    private final MemorySegment memory;
    private volatile boolean registered = true;

    RegisteredBuffer(Shmem owner, MemorySegment memory) {
        this.owner = owner;
        this.memory = memory;
    }

    /** The registered memory (a device address: not for host access). */
    public MemorySegment memory() {
        return memory;
    }

    public long byteSize() {
        return memory.byteSize();
    }

    /** False once {@link #close()} (or the PE's {@link Shmem#close()}) has unregistered it. */
    public boolean isRegistered() {
        return registered;
    }

    /** Unregisters the buffer (NVSHMEM's {@code nvshmemx_buffer_unregister}); a second call does nothing. */
    @Override
    public void close() {
        owner.unregisterBuffer(this);
    }

    void markUnregistered() {
        registered = false;
    }

    /** The {@code bytes} at {@code offset}, for {@code call}, after the checks a copy needs. */
    MemorySegment slice(String call, Shmem caller, long offset, long bytes) {
        if (caller != owner) {
            throw new ShmemStateException(call + ": " + this + " was registered with another jshmem instance");
        }
        if (!registered) {
            throw new ShmemStateException(call + ": " + this + " was unregistered; register it again");
        }
        if (offset < 0 || bytes < 0 || offset > memory.byteSize() - bytes) {
            throw new IndexOutOfBoundsException(call + ": offset " + offset + " + length " + bytes + " is outside "
                    + this + " (valid: 0 <= offset, offset + length <= " + memory.byteSize() + ")");
        }
        return MemorySegment.ofAddress(memory.address() + offset).reinterpret(bytes);
    }

    boolean overlaps(MemorySegment other) {
        return memory.address() < other.address() + other.byteSize()
                && other.address() < memory.address() + memory.byteSize();
    }

    @Override
    public String toString() {
        return "registered device buffer [0x" + Long.toHexString(memory.address()) + ", " + memory.byteSize() + " bytes]";
    }
}
