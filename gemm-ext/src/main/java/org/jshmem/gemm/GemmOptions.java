package org.jshmem.gemm;

import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * Tuning and path choices for {@link FusedGemm}; every field has an automatic default. The
 * defaults come from {@link #fromEnvironment()}, the one place that reads gemm-ext's variables:
 *
 * <table>
 * <caption>gemm-ext environment variables</caption>
 * <tr><th>variable</th><th>default</th><th>meaning</th></tr>
 * <tr><td>{@code JSHMEM_GEMM_PATH}</td><td>auto</td><td>{@code fused}, {@code reference} (the GEMM, then
 *     jshmem's collective: cuBLAS on a GPU heap, the CPU on a host heap), or {@code auto} (on a GPU the measured
 *     winner, see GpuPlatform; on a host heap fused)</td></tr>
 * <tr><td>{@code JSHMEM_GEMM_KERNEL}</td><td>auto</td><td>{@code hopper}, {@code portable}, {@code cpu} or
 *     {@code auto} (hopper on sm_90, portable on other GPUs, cpu on host heaps)</td></tr>
 * <tr><td>{@code JSHMEM_GEMM_TILE}</td><td>per kernel</td><td>output tile and K-step, {@code MxNxK}</td></tr>
 * <tr><td>{@code JSHMEM_GEMM_WORKGROUPS}</td><td>0</td><td>persistent work-groups (0: one per SM of this PE's
 *     share of its GPU; 4 on the CPU)</td></tr>
 * <tr><td>{@code JSHMEM_GEMM_SPLIT}</td><td>auto</td><td>{@code auto}, {@code data_parallel}, {@code tail} or
 *     {@code stream_k} (see {@link StreamKSchedule#plan})</td></tr>
 * <tr><td>{@code JSHMEM_GEMM_CLUSTER}</td><td>0</td><td>CTAs per thread block cluster of the Hopper kernel
 *     (1 or 2; 2: pairs of tile rows share B by TMA multicast, GEMMs without a collective only); 0:
 *     automatic</td></tr>
 * <tr><td>{@code JSHMEM_GEMM_GROUP_M}</td><td>0</td><td>tile rows per group of the tile order (a wave
 *     takes tiles down a group's rows before its next column, for L2 reuse); 0: automatic
 *     ({@link StreamKSchedule#DEFAULT_GROUP_M})</td></tr>
 * <tr><td>{@code JSHMEM_GEMM_ALLREDUCE}</td><td>auto</td><td>{@code one_shot}, {@code two_shot} or
 *     {@code auto}</td></tr>
 * <tr><td>{@code JSHMEM_GEMM_ONESHOT_MAX}</td><td>2M</td><td>auto all-reduce: one-shot while C is at most
 *     this many bytes</td></tr>
 * </table>
 *
 * @param path            which implementation runs
 * @param kernel          which kernel tier runs the fused path
 * @param tile            output tile and K-step; empty: the kernel's default for the shape
 * @param workGroups      persistent work-groups; 0: automatic
 * @param split           Stream-K split
 * @param cluster         CTAs per cluster of the Hopper kernel (1 or 2); 0: automatic
 * @param groupM          tile rows per group of the tile order (L2 reuse); 0: automatic
 * @param allReduce       all-reduce algorithm
 * @param oneShotMaxBytes automatic all-reduce: one-shot while C is at most this many bytes
 * @param scatter         how the all-scatter's tiles reach the peers
 */
public record GemmOptions(GemmPath path, GemmKernel kernel, Optional<TileShape> tile, int workGroups,
                          StreamKSchedule.Split split, int cluster, int groupM, AllReduceAlgorithm allReduce,
                          long oneShotMaxBytes, ScatterTransport scatter) {

    /** Every choice automatic, ignoring the environment. */
    public static final GemmOptions DEFAULTS = new GemmOptions(GemmPath.AUTO, GemmKernel.AUTO, Optional.empty(), 0,
            StreamKSchedule.Split.AUTO, 0, 0, AllReduceAlgorithm.AUTO, 2L << 20, ScatterTransport.AUTO);

    public GemmOptions {
        if (workGroups < 0) {
            throw new IllegalArgumentException("work-groups " + workGroups + " must be 0 (automatic) or positive");
        }
        if (cluster < 0 || cluster > MAX_CLUSTER) {
            throw new IllegalArgumentException("cluster " + cluster + " must be 0 (automatic), 1 or " + MAX_CLUSTER);
        }
        if (groupM < 0) {
            throw new IllegalArgumentException("group M " + groupM + " (tile rows per group of the tile order) must"
                    + " be positive, or 0 for automatic");
        }
        Objects.requireNonNull(scatter, "scatter transport is null");
        if (oneShotMaxBytes < 0) {
            throw new IllegalArgumentException("the one-shot threshold must not be negative");
        }
    }

    /** Most CTAs per cluster the Hopper kernel is built for. */
    public static final int MAX_CLUSTER = 2;

    /** The defaults with {@code JSHMEM_GEMM_*} applied. */
    public static GemmOptions fromEnvironment() {
        return fromMap(System.getenv());
    }

    /** The defaults with the {@code JSHMEM_GEMM_*} entries of {@code env} applied. */
    public static GemmOptions fromMap(Map<String, String> env) {
        GemmOptions d = DEFAULTS;
        return new GemmOptions(
                read(env, "JSHMEM_GEMM_PATH", d.path, v -> parseEnum(GemmPath.class, v, "JSHMEM_GEMM_PATH")),
                read(env, "JSHMEM_GEMM_KERNEL", d.kernel, v -> parseEnum(GemmKernel.class, v, "JSHMEM_GEMM_KERNEL")),
                read(env, "JSHMEM_GEMM_TILE", d.tile, v -> Optional.of(parseTile(v))),
                read(env, "JSHMEM_GEMM_WORKGROUPS", d.workGroups, v -> parseInt(v, "JSHMEM_GEMM_WORKGROUPS")),
                read(env, "JSHMEM_GEMM_SPLIT", d.split,
                        v -> parseEnum(StreamKSchedule.Split.class, v, "JSHMEM_GEMM_SPLIT")),
                read(env, "JSHMEM_GEMM_CLUSTER", d.cluster, v -> parseInt(v, "JSHMEM_GEMM_CLUSTER")),
                read(env, "JSHMEM_GEMM_GROUP_M", d.groupM, v -> parseInt(v, "JSHMEM_GEMM_GROUP_M")),
                read(env, "JSHMEM_GEMM_ALLREDUCE", d.allReduce,
                        v -> parseEnum(AllReduceAlgorithm.class, v, "JSHMEM_GEMM_ALLREDUCE")),
                read(env, "JSHMEM_GEMM_ONESHOT_MAX", d.oneShotMaxBytes, org.jshmem.ShmemConfig::parseSize),
                read(env, "JSHMEM_GEMM_SCATTER", d.scatter,
                        v -> parseEnum(ScatterTransport.class, v, "JSHMEM_GEMM_SCATTER")));
    }

    public GemmOptions withPath(GemmPath p) {
        return new GemmOptions(p, kernel, tile, workGroups, split, cluster, groupM, allReduce, oneShotMaxBytes,
                scatter);
    }

    public GemmOptions withKernel(GemmKernel k) {
        return new GemmOptions(path, k, tile, workGroups, split, cluster, groupM, allReduce, oneShotMaxBytes, scatter);
    }

    public GemmOptions withTile(TileShape t) {
        return new GemmOptions(path, kernel, Optional.of(t), workGroups, split, cluster, groupM, allReduce,
                oneShotMaxBytes, scatter);
    }

    public GemmOptions withWorkGroups(int w) {
        return new GemmOptions(path, kernel, tile, w, split, cluster, groupM, allReduce, oneShotMaxBytes, scatter);
    }

    public GemmOptions withSplit(StreamKSchedule.Split s) {
        return new GemmOptions(path, kernel, tile, workGroups, s, cluster, groupM, allReduce, oneShotMaxBytes, scatter);
    }

    public GemmOptions withCluster(int c) {
        return new GemmOptions(path, kernel, tile, workGroups, split, c, groupM, allReduce, oneShotMaxBytes, scatter);
    }

    public GemmOptions withGroupM(int g) {
        return new GemmOptions(path, kernel, tile, workGroups, split, cluster, g, allReduce, oneShotMaxBytes, scatter);
    }

    /** The tile rows per group of the tile order: {@link #groupM}, or the default where it is 0 (automatic). */
    int groupMOrDefault() {
        return groupM > 0 ? groupM : StreamKSchedule.DEFAULT_GROUP_M;
    }

    public GemmOptions withAllReduce(AllReduceAlgorithm a) {
        return new GemmOptions(path, kernel, tile, workGroups, split, cluster, groupM, a, oneShotMaxBytes, scatter);
    }

    public GemmOptions withScatter(ScatterTransport t) {
        return new GemmOptions(path, kernel, tile, workGroups, split, cluster, groupM, allReduce, oneShotMaxBytes, t);
    }

    /** Parses {@code MxNxK}, e.g. {@code 128x256x64}. */
    public static TileShape parseTile(String text) {
        String[] p = text.trim().toLowerCase(Locale.ROOT).split("x");
        if (p.length != 3) {
            throw new IllegalArgumentException("tile '" + text + "': write it as MxNxK, e.g. 128x128x32");
        }
        return new TileShape(parseInt(p[0], "tile M"), parseInt(p[1], "tile N"), parseInt(p[2], "tile K"));
    }

    private static <T> T read(Map<String, String> env, String name, T fallback, Function<String, T> parse) {
        String v = env.get(name);
        return v == null || v.isBlank() ? fallback : parse.apply(v.trim());
    }

    private static <E extends Enum<E>> E parseEnum(Class<E> type, String v, String what) {
        try {
            return Enum.valueOf(type, v.toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            StringBuilder names = new StringBuilder();
            for (E c : type.getEnumConstants()) {
                names.append(names.isEmpty() ? "" : ", ").append(c.name().toLowerCase(Locale.ROOT));
            }
            throw new IllegalArgumentException(what + "=" + v + " is not one of " + names, e);
        }
    }

    private static int parseInt(String v, String what) {
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(what + "=" + v + " is not an integer", e);
        }
    }
}
