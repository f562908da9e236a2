package org.jshmem.remote;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The wire format of {@link MessageTransport}: a request is one MPI message with tag {@link #TAG},
 * a 64-byte header and, for puts of up to {@link #INLINE} bytes (or from the Java heap), the data
 * after it; a larger put from native memory sends its data as a second message, on the origin
 * thread's data tag, which the target receives straight into its memory ({@link #PUT_BULK}). The target answers on the
 * reply tag the header names (0: no answer): the bytes of a get, the 8-byte old value of an
 * atomic or a load, or an empty message that says the request is applied (an acknowledgement).
 */
final class Request {
    /** The tag of requests. */
    static final int TAG = 1;
    /**
     * Each thread of an origin has an even tag from here up for the answers it receives, and the odd
     * one after it for the data of its bulk puts, so that a PE never takes one for the other (the
     * same numbers run in every process).
     */
    static final int FIRST_REPLY_TAG = 16;
    /** Header bytes. */
    static final int HEADER = 64;
    /** The most payload of one put request, and of a strided get's reply. */
    static final int CHUNK = 1 << 20;
    /** The most data a put from native memory carries in its request; larger ones send it after. */
    static final int INLINE = 8 << 10;
    /** The most data of one message (MPI counts are int). */
    static final long MAX_MESSAGE = 1L << 30;

    // kinds
    static final int PUT = 1;
    static final int GET = 2;
    static final int PUT_STRIDED = 3;
    static final int GET_STRIDED = 4;
    static final int ATOMIC = 5;
    static final int STORE = 6;
    static final int LOAD = 7;
    static final int FLUSH = 8;
    /** The origin sends no more requests: it is closing the transport. */
    static final int BYE = 9;
    /** A put whose data follows as a message of its own, on the tag in {@link #PITCH}. */
    static final int PUT_BULK = 10;

    // header fields (byte offsets)
    static final long KIND = 0;
    static final long OP = 4;          // AtomicOp ordinal
    static final long ORIGIN = 8;      // the sender's rank
    static final long REPLY_TAG = 12;
    static final long DISP = 16;       // displacement in the target's node file
    static final long LENGTH = 24;     // payload or requested bytes
    static final long VALUE = 32;
    static final long COMPARAND = 40;
    static final long PITCH = 48;      // strided: the target's element pitch; PUT_BULK: the data's tag
    static final long WIDTH = 56;      // atomics, stores, loads: the word's bytes; strided: the element's

    private Request() {
    }

    /** Writes a header into {@code buf}: the common fields, and zero in the others. */
    static void header(MemorySegment buf, int kind, int origin, int replyTag, long disp, long length) {
        buf.asSlice(0, HEADER).fill((byte) 0);
        buf.set(ValueLayout.JAVA_INT, KIND, kind);
        buf.set(ValueLayout.JAVA_INT, ORIGIN, origin);
        buf.set(ValueLayout.JAVA_INT, REPLY_TAG, replyTag);
        buf.set(ValueLayout.JAVA_LONG, DISP, disp);
        buf.set(ValueLayout.JAVA_LONG, LENGTH, length);
    }
}
