package org.jshmem.remote;

import java.util.List;
import org.jshmem.PeFailedException;
import org.jshmem.bootstrap.LibMpi;

/** The exceptions of the transport's MPI calls: a failed call names the PE it was aimed at. */
final class MpiFailures {
    private MpiFailures() {
    }

    /** The exception for {@code what} aimed at {@code rank} (-1: every PE) returning {@code rc}. */
    static PeFailedException failed(LibMpi mpi, int rc, String what, int rank) {
        String text = mpi.errorString(rc);
        if (rank < 0) {
            return new PeFailedException("the remote transport's " + what + " failed: " + text + " (MPI error code " + rc
                    + "). A PE on another node may have died; the job cannot continue.", List.of());
        }
        return new PeFailedException("PE " + rank + " could not be reached through the remote transport: " + what
                + " failed: " + text + " (MPI error code " + rc + "). It or its node may have died; the job cannot"
                + " continue: stop it and look at the output of PE " + rank + ".", List.of(rank));
    }

    /** What a {@code Throwable} out of a method handle becomes. */
    static RuntimeException unexpected(String what, Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        return new IllegalStateException(what + " could not be called through FFM: " + t, t);
    }
}
