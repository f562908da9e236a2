package org.jshmem.trace;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A trace file read back: its events, and each PE's clock record. Reads jshmem's traces (and other
 * Chrome trace-event JSON: an object with {@code traceEvents}, or a bare array).
 *
 * @param events every event, metadata included, in file order
 * @param clocks each PE's clock offset and error, and how many spans it dropped, by PE
 */
public record TraceFile(List<Event> events, Map<Integer, Clock> clocks) {

    /**
     * One event. Times in microseconds on the job's clock (PE 0's).
     *
     * @param phase {@code X} a span, {@code i} an instant (jshmem's counts of small transfers), {@code M} metadata
     * @param pe    the PE (the event's process)
     */
    public record Event(String name, String category, String phase, int pe, long thread, double start,
                        double duration, Map<String, Object> args) {
        public double end() {
            return start + duration;
        }

        /** A number from the event's arguments, or -1 when it has none of that name. */
        public long arg(String key) {
            return args.get(key) instanceof Double d ? d.longValue() : -1;
        }

        public boolean isSpan() {
            return phase.equals("X");
        }
    }

    /**
     * A PE's clock as the trace records it: offset onto PE 0's clock, its error bound, the host spans dropped
     * (a thread's track full) and the kernels' spans lost (the GPU ring full; -1 in a trace that does not
     * say).
     */
    public record Clock(long offsetNanos, long errorNanos, long dropped, long gpuLost) {
    }

    /** Reads {@code file}; throws IllegalArgumentException naming the line where it is not a trace. */
    public static TraceFile read(Path file) throws IOException {
        Object root = Json.parse(Files.readString(file));
        Object list = root instanceof Map<?, ?> m ? m.get("traceEvents") : root;
        if (!(list instanceof List<?> raw)) {
            throw new IllegalArgumentException(file + " is not a trace: no traceEvents array");
        }
        List<Event> events = new ArrayList<>(raw.size());
        Map<Integer, Clock> clocks = new TreeMap<>();
        for (Object o : raw) {
            if (!(o instanceof Map<?, ?> e)) {
                continue;
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> args = e.get("args") instanceof Map<?, ?> a ? (Map<String, Object>) a : Map.of();
            Event ev = new Event(String.valueOf(e.get("name")), e.get("cat") == null ? "" : String.valueOf(e.get("cat")),
                    String.valueOf(e.get("ph")), number(e.get("pid")).intValue(), number(e.get("tid")).longValue(),
                    number(e.get("ts")).doubleValue(), number(e.get("dur")).doubleValue(), args);
            events.add(ev);
            if (ev.phase().equals("M") && ev.name().equals("jshmem_clock")) {
                clocks.put(ev.pe(), new Clock(ev.arg("offset_ns"), ev.arg("error_ns"), ev.arg("dropped"),
                        ev.arg("gpu_lost")));
            }
        }
        return new TraceFile(List.copyOf(events), clocks);
    }

    private static Number number(Object o) {
        return o instanceof Number n ? n : 0;
    }

    /** The spans (phase X) of PE {@code pe}. */
    public List<Event> spans(int pe) {
        return events.stream().filter(e -> e.isSpan() && e.pe() == pe).toList();
    }

    /** The PEs that have events, in order. */
    public List<Integer> pes() {
        return events.stream().map(Event::pe).distinct().sorted().toList();
    }
}
