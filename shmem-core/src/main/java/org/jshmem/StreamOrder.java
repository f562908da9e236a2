package org.jshmem;

import org.jshmem.spi.StreamCapability;

/**
 * Keeps one team's on-stream collectives in the order they were queued, whatever streams they were
 * queued on. They share the team's barrier cells, so two of them running at once on one PE would
 * pair with the wrong calls of the other members: a hang, or a silently wrong result. While the team
 * sees one stream, stream order does this and nothing is added. From the first call on another stream
 * on, each call records an event after itself and the next call on another stream waits for it
 * (at that first switch the event is recorded then, after all that the earlier stream holds).
 * A stream being captured into a graph and one that is not cannot wait for each other; the end of
 * the capture orders them, and the order starts afresh there.
 */
final class StreamOrder {
    private final StreamCapability streams;
    private ShmemStream last;        // where the team's latest on-stream collective was queued
    private ShmemEvent after;        // once several streams are in use: recorded on `last` after that collective
    private boolean afterCaptured;   // `after` was recorded inside a capture

    StreamOrder(StreamCapability streams) {
        this.streams = streams;
    }

    /** Before a collective is queued on {@code s}: makes it wait for the team's previous one. */
    void before(Shmem shmem, ShmemStream s, String call) {
        if (last == null || last == s) {
            return;
        }
        boolean capturing = streams.capturing(s.handle(call));
        if (after == null || afterCaptured != capturing) {
            if (last.isClosed() || streams.capturing(last.handle(call)) != capturing) {
                after = null;
                return;
            }
            if (after == null) {
                after = shmem.createEvent();
            }
            last.record(after);
            afterCaptured = capturing;
        }
        s.waitFor(after);
    }

    /** After a collective was queued on {@code s}. */
    void after(ShmemStream s, String call) {
        last = s;
        if (after != null) {
            s.record(after);
            afterCaptured = streams.capturing(s.handle(call));
        }
    }

    /** Frees the event (the team is destroyed or its PE closes). */
    void close() {
        if (after != null) {
            after.close();
            after = null;
        }
        last = null;
    }
}
