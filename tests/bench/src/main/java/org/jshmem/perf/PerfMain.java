package org.jshmem.perf;

import java.io.OutputStream;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.jshmem.Shmem;
import org.jshmem.ShmemConfig;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * jshmem's benchmark suite: {@code jshmemrun -np 2 perf <benchmark>... [options]}. See
 * {@code --help}, and docs/performance.md for the full runs.
 *
 * <p>Every PE parses the same command line and runs the same cases (their barriers must
 * match); PE 0 measures and prints. Help, {@code --list} and usage errors are printed by PE 0
 * only (the MPI rank is read from the environment before jshmem starts).
 */
@Command(name = "perf", mixinStandardHelpOptions = true, versionProvider = PerfMain.Version.class,
        sortOptions = false, usageHelpWidth = 100,
        synopsisHeading = "Usage: jshmemrun -np 2 ",
        customSynopsis = "perf [OPTIONS] BENCHMARK...",
        description = {
            "",
            "Measures jshmem's point-to-point operations between PE 0 and PE 1 (atomic rates, barriers and"
                + " collectives on every PE) the way OpenSHMEM's and NVSHMEM's perftests do: for each case, warm-up repetitions, then"
                + " timed repetitions of n operations, each after a barrier and timed on PE 0. Prints a table with the"
                + " median and the range over the repetitions; optionally a CSV, PNG charts, and another library's"
                + " figures beside them. Start it with bin/jshmemrun on 2 PEs (a plain `java` start runs one PE, which"
                + " pairs with itself).",
            ""},
        parameterListHeading = "Parameters:%n",
        optionListHeading = "%nOptions:%n",
        footerHeading = "%nBenchmarks (name: what; default sizes):%n")
public final class PerfMain implements Callable<Integer> {

    @Parameters(paramLabel = "BENCHMARK", arity = "0..*",
            description = "Benchmarks to run, in suite order: names from the list below, family names (bandwidth,"
                    + " latency, atomic, context, sync, collective), or 'all'.")
    List<String> benchmarks = new ArrayList<>();

    @Option(names = "--list", description = "List the benchmarks with their operations and types, and exit.")
    boolean list;

    @Option(names = "--min", paramLabel = "SIZE", converter = SizeConverter.class,
            description = "Smallest message size of a size sweep, in bytes; K, M, G suffixes (powers of 1024)."
                    + " Default: the benchmark's (8).")
    Long min;

    @Option(names = "--max", paramLabel = "SIZE", converter = SizeConverter.class,
            description = "Largest message size of a size sweep (e.g. 256M). Default: the benchmark's (16M for"
                    + " bandwidth, 1M for sized latencies, 8M per PE for collectives). The heap is sized to fit unless JSHMEM_SYMMETRIC_SIZE is set.")
    Long max;

    @Option(names = "--factor", paramLabel = "N",
            description = "Step between sizes of a sweep: each size is N times the one before. Default: 2 (reduce: 16,"
                    + " the anchor's sizes), and 2 whenever --min or --max is given.")
    Long factor;

    @Option(names = "--sizes", paramLabel = "SIZE", split = ",", converter = SizeConverter.class,
            description = "Explicit message sizes, comma-separated (e.g. 8,4K,2M); overrides --min, --max, --factor.")
    List<Long> sizes;

    @Option(names = {"-n", "--iters"}, paramLabel = "N",
            description = "Operations per timed repetition. Default: as the anchors: transfers 20000 below 64 KB,"
                    + " 500 below 4 MB, 20 above; p/g, atomics and ping-pongs 100000; barriers 20000; collectives 5000 below 64 KB, 50 above.")
    Long iterations;

    @Option(names = {"-r", "--reps"}, paramLabel = "N", defaultValue = "5",
            description = "Timed repetitions per case; the table and CSV give their median, minimum and maximum."
                    + " Default: ${DEFAULT-VALUE}.")
    int reps;

    @Option(names = {"-w", "--warmup"}, paramLabel = "N", defaultValue = "1",
            description = "Untimed repetitions before the timed ones (JIT compilation, caches, page faults)."
                    + " Default: ${DEFAULT-VALUE}.")
    int warmup;

    // 1 s: after 100 ms the JIT's last tier had not yet compiled a kernel launch, and device put_bw measured
    // a few percent low (`perf --form device put_bw` with --warmup-ms 100 against 3000)
    @Option(names = "--warmup-ms", paramLabel = "MS", defaultValue = "1000",
            description = "Warm-up goes on (beyond --warmup) until PE 0 has spent this many milliseconds in it, so"
                    + " that the JIT has compiled the loop before timing. 0: --warmup repetitions only."
                    + " Default: ${DEFAULT-VALUE}.")
    long warmupMillis;

    @Option(names = "--ops", paramLabel = "OP", split = ",",
            description = "Only these operations, comma-separated (e.g. fetch_add,compare_swap or barrier_all).")
    Set<String> ops = new LinkedHashSet<>();

    @Option(names = "--types", paramLabel = "TYPE", split = ",",
            description = "Only these element types, comma-separated (int, long, ... for p/g and atomics; byte, short,"
                    + " int, long, float, double, fp16, bf16 for reduce).")
    Set<String> types = new LinkedHashSet<>();

    @Option(names = "--form", paramLabel = "FORM", defaultValue = "host",
            description = "How operations are issued: host (host-initiated calls of the Shmem API; every backend, GPU"
                    + " heaps included), on_stream (operations enqueued on a GPU stream, timed with GPU events), graph"
                    + " (the on_stream loops captured in a CUDA graph, timed as one launch, as NVSHMEM's --cudagraph) or"
                    + " device (kernels of perf_kernels.cu, timed with GPU events as the NVSHMEM anchor). The GPU forms"
                    + " need a GPU heap (JSHMEM_BACKEND=cuda) and default to the NVSHMEM anchor's sizes and iteration"
                    + " counts; see Forms below for what each measures. Default: ${DEFAULT-VALUE}.")
    String form;

    @Option(names = "--csv", paramLabel = "FILE",
            description = "Also write every row to FILE as CSV (header: " + Csv.HEADER + ").")
    Path csv;

    @Option(names = "--plot", paramLabel = "PATH",
            description = "Also draw PNG charts: into directory PATH as <benchmark>.png, or, when PATH ends in .png,"
                    + " that file (several benchmarks: <name>-<benchmark>.png). Sweeps: figure against size on log axes.")
    Path plot;

    @Option(names = "--baseline", paramLabel = "FILE",
            description = "A CSV of another library's figures (same schema, e.g. from scripts/anchor-to-csv.sh), shown"
                    + " beside ours in tables (with the ratio per size) and charts. Repeatable.")
    List<Path> baselines = new ArrayList<>();

    @Option(names = "--library", paramLabel = "NAME", defaultValue = "jshmem",
            description = "Name written in the CSV's library column and in chart legends. Default: ${DEFAULT-VALUE}.")
    String library;

    @Option(names = "--progress", paramLabel = "WHEN", defaultValue = "auto",
            description = "Progress bar on stderr: auto (once a sweep has run for 2 s), always, never."
                    + " Default: ${DEFAULT-VALUE}.")
    String progress;

    private final int rank = rankFromEnvironment();

    public static void main(String[] args) {
        System.setProperty("java.awt.headless", "true");
        System.exit(run(args));
    }

    /** Runs the suite with {@code args}; returns the exit code (0 ok, 1 failed, 2 bad usage). */
    public static int run(String... args) {
        PerfMain main = new PerfMain();
        CommandLine cmd = new CommandLine(main);
        cmd.setCaseInsensitiveEnumValuesAllowed(true);
        cmd.getCommandSpec().usageMessage().footer(benchmarkList(false).toArray(String[]::new));
        if (main.rank != 0) {
            PrintWriter none = new PrintWriter(OutputStream.nullOutputStream());
            cmd.setOut(none);
            cmd.setErr(none);
            cmd.getCommandSpec().exitCodeOnInvalidInput(0);   // see usageError
        }
        return cmd.execute(args);
    }

    @Override
    public Integer call() {
        if (list) {
            if (rank == 0) {
                benchmarkList(true).forEach(System.out::println);
            }
            return 0;
        }
        List<Benchmark> chosen;
        Form theForm;
        Progress.Mode progressMode;
        RunOptions options;
        List<Baseline> loaded = new ArrayList<>();
        try {
            if (benchmarks.isEmpty()) {
                throw new IllegalArgumentException("name at least one benchmark (or 'all'); --list shows them");
            }
            chosen = Registry.select(benchmarks);
            theForm = Forms.find(form).orElseThrow(() -> new IllegalArgumentException("unknown form '" + form
                    + "'; forms here: " + Forms.all().stream().map(Form::name).collect(Collectors.joining(", "))));
            progressMode = switch (progress.toLowerCase(Locale.ROOT)) {
                case "auto" -> Progress.Mode.AUTO;
                case "always" -> Progress.Mode.ALWAYS;
                case "never" -> Progress.Mode.NEVER;
                default -> throw new IllegalArgumentException("--progress takes auto, always or never, not '" + progress + "'");
            };
            if (reps < 1 || warmup < 0 || warmupMillis < 0 || (iterations != null && iterations < 1)) {
                throw new IllegalArgumentException("--reps and --iters must be at least 1, --warmup and --warmup-ms at"
                        + " least 0");
            }
            options = new RunOptions(sizes, min, max, factor, iterations, reps, warmup, warmupMillis, ops, types);
            List<Benchmark> measured = chosen.stream().filter(theForm::supports).toList();
            if (measured.isEmpty()) {
                Form f = theForm;
                throw new IllegalArgumentException("the " + f.name() + " form implements none of " + chosen.stream()
                        .map(b -> b.name() + " (forms: " + Forms.all().stream().filter(g -> g.supports(b)).map(Form::name)
                                .collect(Collectors.joining(", ")) + ")").collect(Collectors.joining(", "))
                        + "; choose one of those forms with --form");
            }
            checkFilters(measured.isEmpty() ? chosen : measured, ops, theForm::ops, "operation");
            checkFilters(measured.isEmpty() ? chosen : measured, types, theForm::types, "type");
            for (Benchmark b : chosen) {
                options.cases(b, theForm);   // checks the size sweep
            }
            for (Path p : baselines) {
                loaded.add(Baseline.load(p));
            }
        } catch (IllegalArgumentException | java.io.UncheckedIOException e) {
            if (rank == 0) {
                System.err.println("perf: " + e.getMessage());
                System.err.println("Try 'perf --help'.");
            }
            return usageError();
        }

        long need = 0;
        int pes = pesFromEnvironment();
        for (Benchmark b : chosen) {
            if (theForm.supports(b)) {
                need = Math.max(need, PerfContext.heapNeeded(options.bufferBytes(b, pes, theForm)));
            }
        }
        ShmemConfig config = ShmemConfig.fromEnvironment();
        String envSize = System.getenv("JSHMEM_SYMMETRIC_SIZE");
        if (envSize == null || envSize.isBlank()) {
            config = config.withSymmetricSize(roundUp(need, 1 << 20));
        } else if (config.symmetricSize() < need) {
            if (rank == 0) {
                System.err.println("perf: these sizes need " + Sizes.format(roundUp(need, 1 << 20)) + " of symmetric heap"
                        + " per PE, but JSHMEM_SYMMETRIC_SIZE=" + envSize + ". Raise it, or unset it (perf then sizes the"
                        + " heap itself), or lower --max.");
            }
            return usageError();
        }

        try (Shmem shmem = Shmem.init(config)) {
            var unavailable = theForm.unavailableReason(shmem);
            if (unavailable.isPresent()) {
                if (shmem.myPe() == 0) {
                    System.err.println("perf: form " + theForm.name() + " cannot run here: " + unavailable.get());
                }
                return 2;
            }
            return measure(shmem, chosen, theForm, options, loaded, progressMode);
        } catch (RuntimeException e) {
            System.err.println("perf: PE " + rank + ": " + e);
            return 1;
        }
    }

    private int measure(Shmem shmem, List<Benchmark> chosen, Form theForm, RunOptions options,
                        List<Baseline> loaded, Progress.Mode progressMode) {
        PerfContext ctx = new PerfContext(shmem);
        boolean root = ctx.root();
        String header = header(shmem, theForm, options);
        if (root) {
            System.out.println(header);
            if (shmem.nPes() < 2) {
                System.out.println("# one PE: PE 0 is its own partner (start with jshmemrun -np 2 for PE-to-PE figures)");
            }
            System.out.println();
            System.out.flush();
        }
        Runner runner = new Runner(ctx, theForm, options, library);
        List<Row> all = new ArrayList<>();
        List<Path> charts = new ArrayList<>();
        try (theForm; Progress bar = new Progress(root ? progressMode : Progress.Mode.NEVER, System.err)) {
            for (Benchmark b : chosen) {
                if (!theForm.supports(b)) {
                    if (root) {
                        System.out.println(b.name() + ": skipped, the " + theForm.name() + " form does not implement it\n");
                    }
                    continue;
                }
                List<Row> rows = runner.run(b, bar);
                if (!root) {
                    continue;
                }
                System.out.println(Table.render(b, theForm.name(), theForm.method(b), shmem.nPes(), rows, loaded));
                System.out.flush();
                all.addAll(rows);
                if (csv != null) {
                    Csv.write(csv, List.of(header.substring(2), "command: perf " + String.join(" ", commandLine())), all);
                }
                if (plot != null && !rows.isEmpty()) {
                    Path png = chartPath(b, chosen.size());
                    Charts.write(png, b, library, theForm.name(), shmem.nPes(), rows, loaded);
                    charts.add(png);
                }
            }
        }
        if (root) {
            if (csv != null) {
                System.out.println("CSV: " + csv + " (" + all.size() + " rows)");
            }
            for (Path p : charts) {
                System.out.println("chart: " + p);
            }
        }
        return 0;
    }

    private Path chartPath(Benchmark b, int count) {
        String name = plot.getFileName().toString();
        if (name.endsWith(".png")) {
            if (count == 1) {
                return plot;
            }
            return plot.resolveSibling(name.substring(0, name.length() - 4) + "-" + b.name() + ".png");
        }
        return plot.resolve(b.name() + ".png");
    }

    private String header(Shmem shmem, Form f, RunOptions o) {
        double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        return String.format(Locale.ROOT, "# jshmem perf %s: %d PEs, %s; form %s; %d repetitions (median, min, max)"
                        + " after >= %d warm-up and >= %d ms; Java %s; %d CPU(s) for PE 0, load average %.2f",
                ZonedDateTime.now().format(DateTimeFormatter.ISO_LOCAL_DATE), shmem.nPes(), shmem.describe(), f.name(),
                o.reps(), o.warmup(), o.warmupMillis(), Runtime.version(), Runtime.getRuntime().availableProcessors(), load);
    }

    private List<String> commandLine() {
        List<String> a = new ArrayList<>(benchmarks);
        a.add("--form " + form);
        if (sizes != null) {
            a.add("--sizes " + sizes.stream().map(Sizes::format).collect(Collectors.joining(",")));
        }
        if (min != null) {
            a.add("--min " + Sizes.format(min));
        }
        if (max != null) {
            a.add("--max " + Sizes.format(max));
        }
        if (factor != null) {
            a.add("--factor " + factor);
        }
        if (iterations != null) {
            a.add("--iters " + iterations);
        }
        a.add("--reps " + reps);
        a.add("--warmup " + warmup);
        a.add("--warmup-ms " + warmupMillis);
        if (!ops.isEmpty()) {
            a.add("--ops " + String.join(",", ops));
        }
        if (!types.isEmpty()) {
            a.add("--types " + String.join(",", types));
        }
        return a;
    }

    private static void checkFilters(List<Benchmark> chosen, Set<String> wanted,
                                     java.util.function.Function<Benchmark, List<String>> of, String what) {
        Set<String> known = new LinkedHashSet<>();
        chosen.forEach(b -> known.addAll(of.apply(b)));
        for (String w : wanted) {
            if (!known.contains(w)) {
                throw new IllegalArgumentException("no selected benchmark has the " + what + " '" + w + "'; they have: "
                        + String.join(", ", known));
            }
        }
    }

    /** The benchmark list of --help (short) and --list (with operations and types). */
    static List<String> benchmarkList(boolean full) {
        List<String> l = new ArrayList<>();
        for (BenchmarkFamily f : Registry.families()) {
            l.add("  " + f.name() + ":");
            for (Benchmark b : Registry.ofFamily(f.name())) {
                String sizesText = b.sized() ? "; " + Sizes.format(b.sizes().min()) + ".." + Sizes.format(b.sizes().max())
                        : "";
                l.add(String.format(Locale.ROOT, "    %-20s %s%s", b.name(), b.summary(), sizesText));
                if (full) {
                    l.add(String.format(Locale.ROOT, "    %-20s   ops: %s; types: %s; unit: %s", "",
                            String.join(",", b.ops()), String.join(",", b.types()), b.metric().unit()));
                }
            }
        }
        l.add("");
        l.add("Forms (--form):");
        for (Form f : Forms.builtIn()) {
            List<String> text = wrap(f.description(), 84);
            for (int i = 0; i < text.size(); i++) {
                l.add(String.format(Locale.ROOT, "  %-10s %s", i == 0 ? f.name() : "", text.get(i)));
            }
            if (!f.name().equals("host")) {
                for (String line : wrap("benchmarks: " + String.join(", ",
                        Registry.all().stream().filter(f::supports).map(Benchmark::name).toList()), 84)) {
                    l.add(String.format(Locale.ROOT, "  %-10s %s", "", line));
                }
                if (full) {     // where the form's operations or types differ from the benchmark's
                    for (Benchmark b : Registry.all().stream().filter(f::supports).toList()) {
                        if (!f.ops(b).equals(b.ops()) || !f.types(b).equals(b.types())) {
                            l.add(String.format(Locale.ROOT, "  %-10s   %s ops: %s; types: %s", "", b.name(),
                                    String.join(",", f.ops(b)), String.join(",", f.types(b))));
                        }
                    }
                }
            }
        }
        if (!full) {
            l.add("");
            l.add("Examples:");
            l.add("  jshmemrun -np 2 perf put_bw --max 256M --csv put.csv --plot charts/");
            l.add("  jshmemrun -np 2 perf all --baseline build/bench/cpu/openshmem.csv");
            l.add("  jshmemrun -np 2 perf atomic_latency --ops fetch_add,compare_swap --types long");
            l.add("  JSHMEM_BACKEND=cuda jshmemrun -np 2 perf put_bw p_latency put_signal_latency --form device");
            l.add("  JSHMEM_BACKEND=cuda jshmemrun -np 2 perf put_bw barrier_latency --form on_stream");
            l.add("Environment: JSHMEM_* as documented in ShmemConfig (JSHMEM_SYMMETRIC_SIZE defaults to what the");
            l.add("sizes need). Exit status: 0 ok, 1 a run failed, 2 bad usage.");
        }
        return l;
    }

    /** {@code text} in lines of at most {@code width} characters, broken at spaces. */
    static List<String> wrap(String text, int width) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String word : text.split(" ")) {
            if (!line.isEmpty() && line.length() + 1 + word.length() > width) {
                lines.add(line.toString());
                line.setLength(0);
            }
            line.append(line.isEmpty() ? "" : " ").append(word);
        }
        if (!line.isEmpty()) {
            lines.add(line.toString());
        }
        return lines;
    }

    private static long roundUp(long v, long unit) {
        return (v + unit - 1) / unit * unit;
    }

    /** The number of PEs before jshmem starts (1 outside mpirun). */
    static int pesFromEnvironment() {
        for (String v : List.of("OMPI_COMM_WORLD_SIZE", "PMIX_SIZE", "PMI_SIZE")) {
            String s = System.getenv(v);
            if (s != null) {
                try {
                    return Math.max(1, Integer.parseInt(s.trim()));
                } catch (NumberFormatException ignored) {
                    // try the next
                }
            }
        }
        return 1;
    }

    /** The MPI rank of this process before jshmem starts (0 outside mpirun). */
    /**
     * The exit status of a usage error, found alike on every PE before start-up. Only PE 0 reports it and
     * fails: a PE that exits non-zero first makes mpirun kill PE 0 before its message is written.
     */
    private int usageError() {
        return rank == 0 ? 2 : 0;
    }

    static int rankFromEnvironment() {
        for (String v : List.of("OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK")) {
            String s = System.getenv(v);
            if (s != null) {
                try {
                    return Integer.parseInt(s.trim());
                } catch (NumberFormatException ignored) {
                    // try the next
                }
            }
        }
        return 0;
    }

    /** Parses sizes with K, M, G suffixes. */
    static final class SizeConverter implements CommandLine.ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            try {
                return Sizes.parse(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    /** The version of the jar, or "development". */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = PerfMain.class.getPackage().getImplementationVersion();
            return new String[] {"jshmem perf " + (v == null ? "(development build)" : v)};
        }
    }
}
