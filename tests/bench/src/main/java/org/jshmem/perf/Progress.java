package org.jshmem.perf;

import java.io.PrintStream;
import java.time.Duration;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * A progress bar on standard error for a benchmark's sweep, drawn by PE 0 only. In
 * {@link Mode#AUTO} it appears once a sweep has run for {@link #AUTO_AFTER} and still has cases
 * to go, so quick runs print nothing but their table. The bar is cleared when the sweep ends.
 */
public final class Progress implements AutoCloseable {
    /** When a bar is drawn. */
    public enum Mode { AUTO, ALWAYS, NEVER }

    /** How long a sweep runs before {@link Mode#AUTO} shows a bar. */
    static final Duration AUTO_AFTER = Duration.ofSeconds(2);

    private final Mode mode;
    private final PrintStream out;
    private String task;
    private long total;
    private long done;
    private long startNanos;
    private ProgressBar bar;

    public Progress(Mode mode, PrintStream out) {
        this.mode = mode;
        this.out = out;
    }

    /** Starts a sweep of {@code cases} cases. */
    public void begin(String name, long cases) {
        close();
        task = name;
        total = cases;
        done = 0;
        startNanos = System.nanoTime();
        if (mode == Mode.ALWAYS) {
            show();
        }
    }

    /** One case done. */
    public void step() {
        done++;
        if (bar == null && mode == Mode.AUTO && done < total
                && System.nanoTime() - startNanos > AUTO_AFTER.toNanos()) {
            show();
        }
        if (bar != null) {
            bar.stepTo(done);
        }
    }

    private void show() {
        int width = 100;
        try {
            width = Math.max(60, Integer.parseInt(System.getenv().getOrDefault("COLUMNS", "100")) - 1);
        } catch (NumberFormatException ignored) {
            // keep the default
        }
        bar = new ProgressBarBuilder()
                .setTaskName(task)
                .setInitialMax(total)
                .setStyle(ProgressBarStyle.ASCII)
                .setUnit(" cases", 1)
                .setUpdateIntervalMillis(250)
                .setConsumer(new ConsoleProgressBarConsumer(out, width))
                .clearDisplayOnFinish()
                .startsFrom(done, Duration.ofNanos(System.nanoTime() - startNanos))
                .build();
    }

    /** Ends the sweep; clears the bar. */
    @Override
    public void close() {
        if (bar != null) {
            bar.close();
            bar = null;
        }
    }
}
