package org.jshmem.trace;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Writes the job's trace: each PE's events as Chrome trace-event JSON, one event per line, which
 * PE 0 gathers through the bootstrap and writes into one file, so that no file system need be
 * shared between nodes.
 */
public final class TraceOutput {
    /** Bytes of whole lines each PE sends per gathering round. */
    private static final int CHUNK = 1 << 20;

    private TraceOutput() {
    }

    /**
     * Collective: gathers every PE's events on PE 0, which writes them to {@code file} (through a
     * temporary file beside it, moved into place at the end). A write error is printed by PE 0,
     * which still takes part in every round.
     */
    public static void writeJob(Trace trace, UnaryOperator<byte[]> allgather, Path file) {
        byte[] mine = events(trace);
        boolean root = trace.myPe() == 0;
        Path part = file.resolveSibling(file.getFileName() + ".part");
        OutputStream out = null;
        String failed = null;
        if (root) {
            try {
                out = Files.newOutputStream(part);
                out.write(header());
            } catch (IOException e) {
                failed = e.toString();
            }
        }
        int pos = 0;
        boolean more = true;
        while (more) {
            int take = Math.min(CHUNK, mine.length - pos);
            if (pos + take < mine.length) {
                while (take > 0 && mine[pos + take - 1] != '\n') {
                    take--;   // whole lines only: each round's pieces are valid JSON between them
                }
            }
            if (take == 0 && pos < mine.length) {
                throw new IllegalStateException("a trace line is longer than " + CHUNK + " bytes");   // names are cut short
            }
            ByteBuffer piece = ByteBuffer.allocate(8 + CHUNK).putInt(take).putInt(pos + take < mine.length ? 1 : 0);
            piece.put(mine, pos, take);
            pos += take;
            ByteBuffer all = ByteBuffer.wrap(allgather.apply(piece.array()));
            more = false;
            for (int pe = 0; pe < trace.nPes(); pe++) {
                int at = pe * (8 + CHUNK);
                int n = all.getInt(at);
                more |= all.getInt(at + 4) != 0;
                if (out != null && failed == null) {
                    try {
                        out.write(all.array(), at + 8, n);
                    } catch (IOException e) {
                        failed = e.toString();
                    }
                }
            }
        }
        if (root) {
            try (OutputStream o = out) {
                if (failed == null && o != null) {
                    o.write(footer(0, trace.nPes()));
                }
            } catch (IOException e) {
                failed = e.toString();
            }
            try {
                if (failed == null) {
                    Files.move(part, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                } else {
                    Files.deleteIfExists(part);
                    System.err.println("jshmem: PE 0: could not write the trace to " + file + ": " + failed);
                }
            } catch (IOException e) {
                System.err.println("jshmem: PE 0: could not write the trace to " + file + ": " + e);
            }
        }
    }

    /**
     * This PE's events alone, in {@code file} with {@code .pe<N>} appended: what a PE keeps when the
     * job cannot close together (a PE died). Returns the file written, or null after printing why not.
     */
    public static Path writeOwn(Trace trace, Path file) {
        Path own = file.resolveSibling(file.getFileName() + ".pe" + trace.myPe());
        try (OutputStream o = Files.newOutputStream(own)) {
            o.write(header());
            o.write(events(trace));
            o.write(footer(trace.myPe(), trace.nPes()));
            return own;
        } catch (IOException e) {
            System.err.println("jshmem: PE " + trace.myPe() + ": could not write its trace to " + own + ": " + e);
            return null;
        }
    }

    private static byte[] header() {
        return "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n".getBytes(StandardCharsets.UTF_8);
    }

    /** The last event (no comma after it): the job's own record, on PE {@code pe}, then the end of the file. */
    private static byte[] footer(int pe, int nPes) {
        return ("{\"name\":\"jshmem_job\",\"ph\":\"M\",\"pid\":" + pe + ",\"tid\":0,\"args\":{\"pes\":" + nPes
                + ",\"small_bytes\":" + Trace.SMALL_BYTES + "}}\n]}\n").getBytes(StandardCharsets.UTF_8);
    }

    /** This PE's metadata and events, each line one event followed by a comma. */
    static byte[] events(Trace trace) {
        int pe = trace.myPe();
        StringBuilder s = new StringBuilder(4096);
        meta(s, "process_name", pe, 0, "\"name\":\"PE " + pe + "\"");
        meta(s, "process_sort_index", pe, 0, "\"sort_index\":" + pe);
        long dropped = 0;
        for (Track t : trace.tracks()) {
            dropped += t.dropped;
        }
        meta(s, "jshmem_clock", pe, 0, "\"offset_ns\":" + trace.clockOffsetNanos() + ",\"error_ns\":"
                + trace.clockErrorNanos() + ",\"dropped\":" + dropped + ",\"gpu_error_ns\":"
                + trace.deviceClockErrorNanos() + ",\"gpu_lost\":" + trace.deviceLost());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        flush(s, out);
        for (Track t : trace.tracks()) {
            meta(s, "thread_name", pe, t.threadId, "\"name\":" + quote(t.threadName));
            for (int i = 0; i < t.count; i++) {
                s.append("{\"name\":").append(quote(t.names[i])).append(",\"cat\":").append(quote(t.categories[i]))
                        .append(",\"ph\":\"X\",\"pid\":").append(pe).append(",\"tid\":").append(t.threadId)
                        .append(",\"ts\":").append(micros(trace.micros(t.starts[i])))
                        .append(",\"dur\":").append(micros((t.ends[i] - t.starts[i]) / 1e3))
                        .append(",\"args\":{");
                String sep = "";
                if (t.peers[i] >= 0) {
                    s.append("\"peer\":").append(t.peers[i]);
                    sep = ",";
                }
                if (t.bytes[i] >= 0) {
                    s.append(sep).append("\"bytes\":").append(t.bytes[i]);
                    sep = ",";
                }
                if (t.teams[i] >= 0) {
                    s.append(sep).append("\"team\":").append(t.teams[i]);
                    sep = ",";
                }
                if (t.values[i] >= 0) {
                    s.append(sep).append("\"value\":").append(t.values[i]);
                }
                s.append("}},\n");
                if (s.length() > 1 << 16) {
                    flush(s, out);
                }
            }
            String end = micros(trace.micros(System.nanoTime()));
            for (Map.Entry<String, long[]> e : t.small.entrySet()) {
                long[] c = e.getValue();
                for (int peer = 0; peer < trace.nPes(); peer++) {
                    if (c[2 * peer] > 0) {   // one instant at the end of the track: the counts of the whole run
                        s.append("{\"name\":").append(quote(e.getKey())).append(",\"cat\":\"rma-small\",\"ph\":\"i\",\"s\":\"t\",\"pid\":")
                                .append(pe).append(",\"tid\":").append(t.threadId).append(",\"ts\":").append(end)
                                .append(",\"args\":{\"peer\":").append(peer).append(",\"count\":").append(c[2 * peer])
                                .append(",\"bytes\":").append(c[2 * peer + 1]).append("}},\n");
                    }
                }
            }
        }
        flush(s, out);
        return out.toByteArray();
    }

    /** Microseconds to the nanosecond, as the trace-event format takes them. */
    private static String micros(double us) {
        return String.format(java.util.Locale.ROOT, "%.3f", us);
    }

    private static void meta(StringBuilder s, String name, int pe, long tid, String args) {
        s.append("{\"name\":\"").append(name).append("\",\"ph\":\"M\",\"pid\":").append(pe).append(",\"tid\":").append(tid)
                .append(",\"args\":{").append(args).append("}},\n");
    }

    private static void flush(StringBuilder s, ByteArrayOutputStream out) {
        out.writeBytes(s.toString().getBytes(StandardCharsets.UTF_8));
        s.setLength(0);
    }

    /** Longest name or thread name written: a line stays far below a gathering round's {@link #CHUNK}. */
    static final int MAX_NAME = 1000;

    static String quote(String text) {
        if (text.length() > MAX_NAME) {
            text = text.substring(0, MAX_NAME) + "...";
        }
        StringBuilder q = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> q.append("\\\"");
                case '\\' -> q.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        q.append(String.format("\\u%04x", (int) c));
                    } else {
                        q.append(c);
                    }
                }
            }
        }
        return q.append('"').toString();
    }
}
