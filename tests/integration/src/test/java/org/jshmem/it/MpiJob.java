package org.jshmem.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Starts a real jshmem job: {@code mpirun -np N java ... MainClass args}, one JVM per PE, with
 * this JVM's class path, and collects its output. Every job has a timeout; on timeout the
 * whole process tree is killed and the result says so.
 */
public final class MpiJob {
    private final int np;
    private final Class<?> main;
    private final List<String> args = new ArrayList<>();
    private final List<String> mpirunOptions = new ArrayList<>();
    private final Map<String, String> env = new LinkedHashMap<>();
    /** How long mpirun gets to end a job past its timeout (SIGTERM) before what is left is killed. */
    private static final long STOP_GRACE_MS = 10_000;
    private Duration timeout = Duration.ofSeconds(120);
    private String transport;
    /** The PEs' class path; null: this JVM's ({@link #defaultClassPath}), which may start from the PeStartupCache. */
    private String classPath;
    private final List<String> jvmOptions = new ArrayList<>();
    private java.nio.file.Path workDir;
    private boolean optimizing;

    private MpiJob(int np, Class<?> main) {
        this.np = np;
        this.main = main;
        env.put("JSHMEM_SYMMETRIC_SIZE", "64M");
        String backend = System.getProperty("jshmem.test.backend");
        if (backend != null && !backend.isBlank()) {
            env.put("JSHMEM_BACKEND", backend);   // run the suite on a GPU heap: -Djshmem.test.backend=cuda
        }
        transport = System.getProperty("jshmem.test.transport", "");
    }

    /**
     * The transport test modes a suite runs its jobs in: the one {@code -Djshmem.test.transport} names when set;
     * else on the host heap every mode ({@code ""}, the default, then {@code remote}, {@code two-nodes} and
     * {@code remote-messages}, see {@link #transportEnv}), and on a GPU heap ({@code -Djshmem.test.backend}) the
     * default alone.
     */
    public static List<String> transportModes() {
        String mode = System.getProperty("jshmem.test.transport");
        if (mode != null && !mode.isBlank()) {
            return List.of(mode);
        }
        String backend = System.getProperty("jshmem.test.backend");
        return backend != null && !backend.isBlank() ? List.of("") : List.of("", "remote", "two-nodes", "remote-messages");
    }

    /** Runs the job in transport test {@code mode} ({@link #transportEnv}; blank: none). */
    public MpiJob transport(String mode) {
        transport = mode == null ? "" : mode;
        return this;
    }

    /**
     * Whether PEs {@code a} and {@code b} of a job of {@code np} share a node (so {@code ptr} reaches
     * one from the other) in the transport mode of {@code -Djshmem.test.transport} (see {@link #transportEnv}).
     */
    public static boolean sameTestNode(int a, int b, int np) {
        return sameTestNode(a, b, np, System.getProperty("jshmem.test.transport"));
    }

    /** Whether PEs {@code a} and {@code b} of a job of {@code np} share a node in transport test {@code mode}. */
    public static boolean sameTestNode(int a, int b, int np, String mode) {
        if (mode == null || mode.isBlank()) {
            return true;
        }
        return mode.startsWith("remote") ? a == b : a * 2 / np == b * 2 / np;
    }

    /**
     * The environment that runs a job of {@code np} PEs on the remote transport in the mode
     * {@code -Djshmem.test.transport} names: {@code remote}, every peer remote
     * ({@code JSHMEM_TRANSPORT=remote}); {@code two-nodes}, the PEs split into two "nodes" of
     * consecutive ranks ({@code JSHMEM_NODE_OF_RANK=0,0,1,1} for 4); either with {@code -messages}
     * appended, on the two-sided protocol ({@code JSHMEM_REMOTE_PROTOCOL=messages}; else the default,
     * one-sided where MPI can); unset or blank: none. The backend stays the job's: the host heap
     * here, a GPU heap in the GPU suite ({@code -Djshmem.test.backend=cuda}: GPU heaps across nodes).
     */
    public static Map<String, String> transportEnv(String mode, int np) {
        if (mode == null || mode.isBlank()) {
            return Map.of();
        }
        boolean messages = mode.endsWith(MESSAGES);
        Map<String, String> env = new java.util.HashMap<>(switch (messages ? mode.substring(0, mode.length() - MESSAGES.length()) : mode) {
            case "remote" -> Map.of("JSHMEM_TRANSPORT", "remote");
            case "two-nodes" -> Map.of("JSHMEM_NODE_OF_RANK", String.join(",",
                    java.util.stream.IntStream.range(0, np).mapToObj(pe -> Integer.toString(pe * 2 / np)).toList()));
            default -> throw new IllegalArgumentException("jshmem.test.transport=" + mode
                    + ": expected remote or two-nodes, either with -messages appended");
        });
        if (messages) {
            env.put("JSHMEM_REMOTE_PROTOCOL", "messages");
        }
        return env;
    }

    private static final String MESSAGES = "-messages";

    /** A job of {@code np} PEs running {@code main}. */
    public static MpiJob of(int np, Class<?> main) {
        return new MpiJob(np, main);
    }

    public MpiJob args(String... a) {
        args.addAll(List.of(a));
        return this;
    }

    public MpiJob env(String name, String value) {
        env.put(name, value);
        return this;
    }

    /** Extra options for mpirun, e.g. {@code --enable-recovery}. */
    public MpiJob mpirun(String... options) {
        mpirunOptions.addAll(List.of(options));
        return this;
    }

    /** More options for the PEs' JVMs. */
    MpiJob jvmOptions(String... options) {
        jvmOptions.addAll(List.of(options));
        return this;
    }

    /** mpirun's working directory, which it also puts first on the PEs' class path. */
    MpiJob workDir(java.nio.file.Path dir) {
        workDir = dir;
        return this;
    }

    /** The PEs' class path instead of this JVM's (e.g. one without mpi.jar). */
    public MpiJob classPath(String cp) {
        classPath = cp;
        return this;
    }

    /**
     * Runs the PEs with the optimizing compiler (C2), as users' JVMs run. Without it they stop at C1: the
     * jobs last seconds, and C2's compile threads took a third of the suite's CPU time on two cores
     * (GemmCommandTest, TeamCollectivesTest and CompletenessTest: 400 CPU-seconds with C1 alone, 600
     * with C2). The tests of memory ordering in long hot loops keep C2, whose reordering they guard.
     */
    public MpiJob optimizingCompiler() {
        optimizing = true;
        return this;
    }

    public MpiJob timeout(Duration t) {
        timeout = t;
        return this;
    }

    /** Runs the job to its end (or its timeout). */
    public JobResult run() {
        java.nio.file.Path perPe;
        try {
            perPe = Files.createTempDirectory("jshmem-it-output");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // mpirun interleaves the PEs' output in chunks that may split lines; it also writes each
        // PE's output whole to its own file, which is where the reports are read from
        List<String> cmd = new ArrayList<>(List.of("mpirun", "--oversubscribe", "-np", Integer.toString(np),
                "--output-filename", perPe.toString()));
        cmd.addAll(mpirunOptions);
        cmd.add(java());
        List<String> options = new ArrayList<>(List.of("--enable-native-access=ALL-UNNAMED",
                "-Djava.library.path=" + System.getProperty("java.library.path"),
                "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=" + (optimizing ? 4 : 1)));
        String cp = classPath != null ? classPath : defaultClassPath();
        java.nio.file.Path dir = workDir;
        Optional<PeStartupCache.Cache> cache = classPath == null
                ? PeStartupCache.forClassPath(cp, options) : Optional.empty();
        if (cache.isPresent()) {
            cp = cache.get().classPath();
            dir = cache.get().workDir();
            options.addAll(cache.get().jvmOptions());
        }
        cmd.addAll(options);
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of("-cp", cp, main.getName()));
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).directory(dir == null ? null : dir.toFile());
        pb.environment().put("OMPI_ALLOW_RUN_AS_ROOT", "1");
        pb.environment().put("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
        pb.environment().putAll(transportEnv(transport, np));
        pb.environment().putAll(env);
        long t0 = System.nanoTime();
        try {
            Process p = pb.start();
            StringBuilder out = new StringBuilder();
            Thread reader = Thread.ofVirtual().start(() -> {
                try {
                    out.append(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
                } catch (IOException e) {
                    out.append("[output lost: ").append(e).append("]");
                }
            });
            boolean done = p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (!done) {
                stop(p);
            }
            reader.join(10_000);
            Duration elapsed = Duration.ofNanos(System.nanoTime() - t0);
            return new JobResult(np, done ? p.exitValue() : -1, !done, out.toString(), elapsed, readPerPe(perPe));
        } catch (IOException e) {
            throw new UncheckedIOException("could not start mpirun: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Ends a job past its timeout: SIGTERM to mpirun first, which ends its ranks and removes Open MPI's
     * shared-memory segments ({@code /dev/shm/vader_segment.*}) and session files, where a SIGKILL leaves them
     * behind; whatever still runs after {@link #STOP_GRACE_MS} is killed.
     */
    private static void stop(Process mpirun) throws InterruptedException {
        List<ProcessHandle> tree = mpirun.descendants().toList();   // now: once mpirun ends its ranks are re-parented
        mpirun.destroy();
        if (!mpirun.waitFor(STOP_GRACE_MS, TimeUnit.MILLISECONDS)) {
            mpirun.destroyForcibly();
            mpirun.waitFor();
        }
        tree.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }

    private static boolean isRank(String dirName, int rank) {
        return dirName.startsWith("rank.") && dirName.substring(5).matches("\\d+")
                && Integer.parseInt(dirName.substring(5)) == rank;
    }

    /** Each PE's standard output, then its standard error, from the files of mpirun's --output-filename (then deleted). */
    private List<String> readPerPe(java.nio.file.Path dir) {
        List<String> out = new ArrayList<>();
        try {
            for (int pe = 0; pe < np; pe++) {
                int rank = pe;
                try (Stream<java.nio.file.Path> files = Files.walk(dir)) {
                    // mpirun zero-pads the rank in the directory name when there are 10 or more ("rank.07")
                    List<java.nio.file.Path> f = files.filter(x -> isRank(x.getParent().getFileName().toString(), rank))
                            .filter(x -> x.getFileName().toString().equals("stdout") || x.getFileName().toString().equals("stderr"))
                            .sorted(Comparator.comparing((java.nio.file.Path x) -> x.getFileName().toString()).reversed())
                            .toList();   // stdout first
                    StringBuilder text = new StringBuilder();
                    for (java.nio.file.Path x : f) {
                        text.append(Files.readString(x, StandardCharsets.UTF_8));
                    }
                    out.add(text.toString());
                }
            }
            try (Stream<java.nio.file.Path> files = Files.walk(dir)) {
                for (java.nio.file.Path x : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(x);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("reading the PEs' output in " + dir + ": " + e.getMessage(), e);
        }
        return out;
    }

    /** The class path for the PEs: {@code jshmem.test.classpath} when set (console launcher), else this JVM's. */
    private static String defaultClassPath() {
        String cp = System.getProperty("jshmem.test.classpath");
        return cp != null && !cp.isBlank() ? cp : System.getProperty("java.class.path");
    }

    /** This JVM's java launcher, which the PEs run. */
    static String java() {
        return java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
