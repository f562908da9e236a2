package org.jshmem.gemm.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import me.tongfei.progressbar.ProgressBar;
import org.jshmem.DType;
import org.jshmem.Shmem;
import org.jshmem.gemm.AllReduceAlgorithm;
import org.jshmem.gemm.BLayout;
import org.jshmem.gemm.GemmCollective;
import org.jshmem.gemm.GemmKernel;
import org.jshmem.gemm.GemmOptions;
import org.jshmem.gemm.GemmPath;
import org.jshmem.gemm.GemmShape;
import org.jshmem.gemm.ScatterTransport;
import org.jshmem.gemm.StreamKSchedule;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The {@code gemm} command: {@code bin/jshmemrun -np N gemm -c all_scatter|all_reduce -m M -n N -k K
 * --dtype fp16|bf16 [--validate] [--reference] [--iters I] [--csv F] [--plot DIR]}. Every PE runs it;
 * PE 0 prints.
 */
@Command(name = "gemm", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Stream-K GEMM fused with communication on the jshmem heap: C = A x B, row-major, B sharded over",
                "the PEs: all_scatter (B by columns, C replicated), all_reduce (B by rows, A by columns, C replicated),",
                "all_gather_gemm (A by rows, gathered while the GEMM runs; B and C by columns),",
                "gemm_reduce_scatter (B by rows, A by columns; C by rows, each PE's reduced as tiles finish).",
                "Prints time and TFLOP/s per PE (2mnk / PEs / time); --reference adds the GEMM alone + jshmem's collective."})
public final class GemmMain implements Callable<Integer> {
    @Option(names = {"-c", "--collective"}, description = "all_scatter, all_reduce, all_gather_gemm, gemm_reduce_scatter or none (default ${DEFAULT-VALUE})",
            defaultValue = "all_scatter")
    String collective;
    @Option(names = "-m", description = "rows of A and C (default ${DEFAULT-VALUE})", defaultValue = "4096")
    String m;
    @Option(names = "-n", description = "columns of B and C (default ${DEFAULT-VALUE})", defaultValue = "4096")
    String n;
    @Option(names = "-k", description = "columns of A, rows of B (default ${DEFAULT-VALUE})", defaultValue = "4096")
    String k;
    @Option(names = "--shapes", description = "a sweep instead of -m/-n/-k: MxNxK,MxNxK,... or 'anchor' (the 12 cuBLAS"
            + " anchor shapes)")
    String shapes;
    @Option(names = "--dtype", description = "fp16 or bf16 (default ${DEFAULT-VALUE})", defaultValue = "bf16")
    String dtype;
    @Option(names = "--validate", description = "check C against a reference (GPU: cuBLAS on the whole GEMM; CPU: double)")
    boolean validate;
    @Option(names = "--per-pe", description = "with --validate, each PE prints its own result too (default: one line"
            + " from PE 0 for all)")
    boolean perPe;
    @Option(names = "--reference", description = "also time the reference path: the GEMM alone, then jshmem's collective"
            + " (GPU: cuBLAS; host heap: a CPU GEMM)")
    boolean reference;
    @Option(names = "--iters", description = "timed calls per case (default ${DEFAULT-VALUE})", defaultValue = "20")
    int iters;
    @Option(names = "--warmup", description = "untimed calls first, at least (default ${DEFAULT-VALUE}; on a GPU"
            + " also at least 70 TFLOP of work, about 100 ms, so that the clocks have risen, for at most a second)",
            defaultValue = "5")
    int warmup;
    @Option(names = "--back-to-back", description = "after validating, run this many calls with no barrier and validate"
            + " again (default ${DEFAULT-VALUE})", defaultValue = "0")
    int backToBack;
    @Option(names = "--csv", description = "append one CSV row per case to this file (PE 0)")
    Path csv;
    @Option(names = "--plot", description = "write a TFLOP/s chart (PNG) into this directory (PE 0)")
    Path plot;
    @Option(names = "--path", description = "auto, fused or reference (default: JSHMEM_GEMM_PATH or auto)")
    String path;
    @Option(names = "--kernel", description = "auto, hopper, portable or cpu (default: JSHMEM_GEMM_KERNEL or auto)")
    String kernel;
    @Option(names = "--tile", description = "output tile and K-step, MxNxK (default: the kernel's)")
    String tile;
    @Option(names = "--workgroups", description = "persistent work-groups (default: one per SM of this PE's share)")
    Integer workGroups;
    @Option(names = "--split", description = "auto, data_parallel, tail or stream_k (default: JSHMEM_GEMM_SPLIT or auto)")
    String split;
    @Option(names = "--cluster", description = "CTAs per cluster of the Hopper kernel, 1 or 2 (2: pairs of tile rows"
            + " share B by TMA multicast; GEMMs without a collective), 0 automatic (default: JSHMEM_GEMM_CLUSTER or 0)")
    Integer cluster;
    @Option(names = "--group-m", description = "tile rows per group of the tile order (L2 reuse), 0 automatic"
            + " (default: JSHMEM_GEMM_GROUP_M or 0)")
    Integer groupM;
    @Option(names = "--allreduce", description = "auto, one_shot or two_shot (default: JSHMEM_GEMM_ALLREDUCE or auto)")
    String allReduce;
    @Option(names = "--scatter", description = "how the all-scatter's tiles reach the peers: auto, stores (the kernel's)"
            + " or copy_engine (default: JSHMEM_GEMM_SCATTER or auto)")
    String scatter;
    @Option(names = "--trans-a", description = "A stored transposed (k x m): not supported, refused with a message")
    boolean transA;
    @Option(names = "--trans-b", description = "B stored transposed, n x k (an nn.Linear weight W: C = A x W^T);"
            + " default k x n")
    boolean transB;

    public static void main(String[] args) {
        int rc = new CommandLine(new GemmMain()).setCaseInsensitiveEnumValuesAllowed(true)
                .setExecutionExceptionHandler((e, cmd, parsed) -> {
                    cmd.getErr().println("gemm: " + e.getMessage());
                    return 1;
                }).execute(args);
        System.exit(rc);
    }

    @Override
    public Integer call() {
        // every argument is checked before jshmem starts, so a mistake touches no memory
        if (transA) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--trans-a: A is row-major m x k only"
                    + " (cuBLAS's row-major op(A) = N); store it so, e.g. transpose it once before the GEMM");
        }
        GemmCollective coll = parseEnum(GemmCollective.class, collective, "-c/--collective");
        DType type = switch (dtype.toLowerCase(Locale.ROOT)) {
            case "bf16" -> DType.BF16;
            case "fp16" -> DType.FP16;
            default -> throw new CommandLine.ParameterException(new CommandLine(this), "--dtype " + dtype
                    + ": gemm takes fp16 or bf16 (fp32 accumulation)");
        };
        List<GemmShape> cases = cases();
        if (iters <= 0 || warmup < 0 || backToBack < 0) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--iters must be positive, --warmup and"
                    + " --back-to-back not negative");
        }
        GemmOptions options = options();
        try (Shmem shmem = Shmem.init()) {
            GemmBenchmark run = new GemmBenchmark(shmem, coll, type, transB ? BLayout.N_BY_K : BLayout.K_BY_N, options,
                    new GemmBenchmark.Settings(validate, reference, iters, warmup, backToBack, perPe));
            List<GemmBenchmark.Result> results = new ArrayList<>();
            boolean bar = shmem.myPe() == 0 && cases.size() > 1;
            try (ProgressBar pb = bar ? new ProgressBar("gemm", cases.size()) : null) {
                for (GemmShape shape : cases) {
                    results.add(run.run(shape));
                    if (pb != null) {
                        pb.step();
                    }
                }
            }
            if (shmem.myPe() == 0) {
                GemmReport.print(results);
                if (csv != null) {
                    GemmReport.csv(results, csv);
                }
                if (plot != null) {
                    GemmReport.plot(results, plot);
                }
            }
            boolean failed = results.stream().anyMatch(r -> r.validated() && !r.passed());
            return failed ? 1 : 0;
        }
    }

    private List<GemmShape> cases() {
        List<GemmShape> out = new ArrayList<>();
        if (shapes == null) {
            out.add(new GemmShape(size("-m", m), size("-n", n), size("-k", k)));
            return out;
        }
        String list = shapes.equalsIgnoreCase("anchor") ? GemmReport.ANCHOR_SHAPES : shapes;
        for (String s : list.split(",")) {
            String[] p = s.trim().toLowerCase(Locale.ROOT).split("x");
            if (p.length != 3) {
                throw new CommandLine.ParameterException(new CommandLine(this), "--shapes: '" + s + "' is not MxNxK");
            }
            out.add(new GemmShape(size("m", p[0]), size("n", p[1]), size("k", p[2])));
        }
        return out;
    }

    private int size(String name, String v) {
        try {
            int x = Integer.parseInt(v.trim());
            if (x <= 0) {
                throw new NumberFormatException();
            }
            return x;
        } catch (NumberFormatException e) {
            throw new CommandLine.ParameterException(new CommandLine(this), name + " " + v
                    + ": a GEMM size must be a positive integer");
        }
    }

    private GemmOptions options() {
        GemmOptions o = GemmOptions.fromEnvironment();
        if (path != null) {
            o = o.withPath(parseEnum(GemmPath.class, path, "--path"));
        }
        if (kernel != null) {
            o = o.withKernel(parseEnum(GemmKernel.class, kernel, "--kernel"));
        }
        if (tile != null) {
            o = o.withTile(GemmOptions.parseTile(tile));
        }
        if (workGroups != null) {
            o = o.withWorkGroups(workGroups);
        }
        if (split != null) {
            o = o.withSplit(parseEnum(StreamKSchedule.Split.class, split, "--split"));
        }
        if (cluster != null) {
            o = o.withCluster(cluster);
        }
        if (groupM != null) {
            o = o.withGroupM(groupM);
        }
        if (allReduce != null) {
            o = o.withAllReduce(parseEnum(AllReduceAlgorithm.class, allReduce, "--allreduce"));
        }
        if (scatter != null) {
            o = o.withScatter(parseEnum(ScatterTransport.class, scatter, "--scatter"));
        }
        return o;
    }

    private <E extends Enum<E>> E parseEnum(Class<E> type, String v, String option) {
        try {
            return Enum.valueOf(type, v.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            List<String> names = new ArrayList<>();
            for (E c : type.getEnumConstants()) {
                names.add(c.name().toLowerCase(Locale.ROOT));
            }
            throw new CommandLine.ParameterException(new CommandLine(this), option + " " + v + ": choose one of " + names);
        }
    }
}
