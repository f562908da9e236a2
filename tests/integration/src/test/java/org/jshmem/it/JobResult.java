package org.jshmem.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a job printed. PE programs report results as lines {@code PE <n> <key> <value>} (see
 * {@link PeProgram#report}); {@link #value(int, String)} finds them.
 */
public record JobResult(int np, int exitCode, boolean timedOut, String output, Duration elapsed, List<String> peOutput) {
    private static final Pattern REPORT = Pattern.compile("^PE (\\d+) (\\S+) ?(.*)$", Pattern.MULTILINE);

    /** A result without separate per-PE output. */
    public JobResult(int np, int exitCode, boolean timedOut, String output, Duration elapsed) {
        this(np, exitCode, timedOut, output, elapsed, List.of());
    }

    /**
     * Every key -> value that PE {@code pe} reported, in order: from that PE's own output when the
     * job kept it apart (mpirun may split lines when it interleaves the PEs' output), else from
     * the combined output.
     */
    public Map<String, String> reports(int pe) {
        Map<String, String> m = new LinkedHashMap<>();
        Matcher x = REPORT.matcher(pe < peOutput.size() ? peOutput.get(pe) : output);
        while (x.find()) {
            if (Integer.parseInt(x.group(1)) == pe) {
                m.put(x.group(2), x.group(3).trim());
            }
        }
        return m;
    }

    /** The value PE {@code pe} reported for {@code key}; fails with the whole output if missing. */
    public String value(int pe, String key) {
        String v = reports(pe).get(key);
        if (v == null) {
            throw new AssertionError("PE " + pe + " did not report '" + key + "'. " + this);
        }
        return v;
    }

    public long longValue(int pe, String key) {
        return Long.parseLong(value(pe, key));
    }

    /** Lines of output containing {@code text}. */
    public List<String> linesWith(String text) {
        List<String> out = new ArrayList<>();
        for (String line : output.split("\n")) {
            if (line.contains(text)) {
                out.add(line);
            }
        }
        return out;
    }

    /**
     * Fails unless every PE reported a {@code describe} (Shmem.describe()) naming the MPI bootstrap
     * {@code via} ("Java bindings", "libmpi through FFM") and its own rank.
     */
    public void assertBootstrap(String via) {
        for (int pe = 0; pe < np; pe++) {
            String d = value(pe, "describe");
            if (!d.contains(" (" + via + "), rank " + pe + " of " + np)) {
                throw new AssertionError("PE " + pe + " describes '" + d + "', not the bootstrap through " + via + ". " + this);
            }
        }
    }

    /** Whether the job ended by itself with exit code 0. */
    public boolean succeeded() {
        return !timedOut && exitCode == 0;
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("job of " + np + " PEs " + (timedOut ? "TIMED OUT" : "exited " + exitCode)
                + " after " + elapsed.toMillis() + " ms; output:\n" + output);
        if (timedOut) {   // mpirun's own output of a stopped job can be empty: what each PE wrote says where it stopped
            for (int pe = 0; pe < peOutput.size(); pe++) {
                s.append("\n--- PE ").append(pe).append(":\n").append(peOutput.get(pe));
            }
        }
        return s.toString();
    }
}
