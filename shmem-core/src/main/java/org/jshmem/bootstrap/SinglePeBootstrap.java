package org.jshmem.bootstrap;

/** A job of one PE: what a program started without mpirun gets. */
public final class SinglePeBootstrap implements Bootstrap {
    @Override
    public int rank() {
        return 0;
    }

    @Override
    public int size() {
        return 1;
    }

    @Override
    public int localRank() {
        return 0;
    }

    @Override
    public int localSize() {
        return 1;
    }

    @Override
    public byte[] allgather(byte[] mine) {
        return mine.clone();
    }

    @Override
    public void barrier() {
    }

    @Override
    public String describe() {
        return "single PE (not started by mpirun)";
    }

    @Override
    public void close() {
    }
}
