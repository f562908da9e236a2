package org.jshmem.it.coll;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.jshmem.DType;
import org.jshmem.ReduceOp;
import org.jshmem.it.JobResult;
import org.jshmem.it.MpiJob;
import org.junit.jupiter.api.Test;

/**
 * Every collective x type x operation on 1, 2, 3 and 4 PEs, on the world, the shared team,
 * strided sub-teams and 2D splits, at sizes that are not multiples of anything convenient and
 * that cross every algorithm's threshold; the PEs report CRCs of their results and this test
 * compares them with a sequential reference ({@link Reference}). Further jobs run the other
 * algorithms by moving the thresholds (staging off, one-shot everywhere, two-shot everywhere), and
 * the copy collectives (what heaps Java cannot read use) on the host heap.
 */
class TeamCollectivesTest {
    /**
     * Sizes in elements, with the default thresholds (staged up to 2 KiB, one-shot while
     * (n-1) x bytes is at most 8 KiB): 1, 7 and 251 staged for every type (251 longs: 2008 bytes);
     * 3001 one-shot for 1- and 2-byte types on 2 PEs, two-shot for the others; 20011 two-shot. The
     * forced-algorithm jobs run every algorithm on every type;
     * {@link #largeReduceOverTheThresholdOnThreePes} a size over a million.
     */
    private static final String REDUCE_SIZES = "1,7,251,3001,20011";
    private static final String SMALL_REDUCE_SIZES = "1,7,251,3001";
    private static final String OTHER_SIZES = "1,7,251,3001";

    private final Map<String, String> cache = new HashMap<>();

    @Test
    void onePe() {
        check(1, SMALL_REDUCE_SIZES, "1,7,1001", Map.of(), "world", "shared", "strided:0:1:1", "2d:1");
    }

    @Test
    void twoPes() {
        check(2, REDUCE_SIZES, OTHER_SIZES, Map.of(), "world", "shared", "strided:1:1:1", "2d:1");
    }

    @Test
    void threePes() {
        check(3, REDUCE_SIZES, OTHER_SIZES, Map.of(), "world", "strided:0:2:2", "2d:2");
    }

    @Test
    void fourPesStridedAnd2d() {
        check(4, REDUCE_SIZES, OTHER_SIZES, Map.of(), "world", "strided:1:2:2", "2d:2", "2d:3");
    }

    @Test
    void largeReduceOverTheThresholdOnThreePes() {
        check(3, "1000003", "100003", Map.of("JSHMEM_SYMMETRIC_SIZE", "128M"), "world");
    }

    @Test
    void withoutStagingEveryReductionOneShot() {
        check(3, SMALL_REDUCE_SIZES, "1,7,3001", Map.of("JSHMEM_COLL_STAGED_MAX", "0", "JSHMEM_REDUCE_ONESHOT_MAX", "1G"),
                "world", "strided:1:1:2");
    }

    @Test
    void withoutStagingEveryReductionTwoShot() {
        check(4, "1,2,7,3001", "1,7", Map.of("JSHMEM_COLL_STAGED_MAX", "0", "JSHMEM_REDUCE_ONESHOT_MAX", "0"),
                "world", "2d:3");
    }

    @Test
    void copyCollectivesThroughTheBackend() {
        check(3, "1,2,7,3001", "1,7,1001", Map.of("JSHMEM_COLLECTIVES", "copy"), "world", "strided:1:1:2");
    }

    private void check(int np, String reduceSizes, String otherSizes, Map<String, String> env, String... teamArgs) {
        List<String> args = new ArrayList<>(List.of(reduceSizes, otherSizes));
        args.addAll(List.of(teamArgs));
        List<ReduceOp> ops = List.of(ReduceOp.values());
        String[] teams = teamArgs;
        if (teamArgs[0].startsWith("ops=")) {
            ops = CollectivesProgram.opsFilter(teamArgs[0]);
            teams = java.util.Arrays.copyOfRange(teamArgs, 1, teamArgs.length);
        }
        MpiJob job = MpiJob.of(np, CollectivesProgram.class).args(args.toArray(String[]::new)).timeout(Duration.ofSeconds(150));
        if (np > 2) {
            job.env("JSHMEM_SPIN", "0");   // more PEs than this machine's 2 cores: yield at once (documented use)
        }
        env.forEach(job::env);
        JobResult r = RankOutput.run(job, np);
        if (!r.succeeded()) {
            fail("job failed: " + r);
        }
        List<String> problems = new ArrayList<>();
        long[] rs = CollectivesProgram.sizes(reduceSizes);
        long[] os = CollectivesProgram.sizes(otherSizes);
        int checked = 0;
        for (int pe = 0; pe < np; pe++) {
            Map<String, String> got = r.reports(pe);
            if (!"ok".equals(got.get("done"))) {
                problems.add("PE " + pe + " did not finish");
            }
            for (String spec : teams) {
                for (String label : labels(spec)) {
                    int[] members = members(label, np, pe);
                    String layout = got.get("layout." + label);
                    if (members == null) {
                        expect(problems, pe, "layout." + label, layout, "none");
                        continue;
                    }
                    int me = indexOf(members, pe);
                    StringBuilder list = new StringBuilder();
                    for (int i = 0; i < members.length; i++) {
                        list.append(i == 0 ? "" : ",").append(members[i]);
                    }
                    expect(problems, pe, "layout." + label, layout, me + "/" + members.length + ":" + list);
                    StringBuilder back = new StringBuilder();
                    for (int i = 0; i < members.length; i++) {
                        back.append(i == 0 ? "" : ",").append(i);
                    }
                    expect(problems, pe, "translate." + label, got.get("translate." + label), back + ":" + pe);
                    checked += expectResults(problems, got, pe, label, members, me, rs, os, ops);
                }
            }
        }
        if (!problems.isEmpty()) {
            fail(problems.size() + " of " + checked + " results wrong; first ones:\n  "
                    + String.join("\n  ", problems.subList(0, Math.min(25, problems.size()))));
        }
        assertTrue(checked > 0, "nothing checked");
        System.out.println("[coll] " + np + " PEs " + String.join(" ", teamArgs) + " " + env + ": " + checked
                + " results checked against the reference in " + r.elapsed().toMillis() + " ms of job");
    }

    private int expectResults(List<String> problems, Map<String, String> got, int pe, String label, int[] members,
                              int me, long[] reduceSizes, long[] otherSizes, List<ReduceOp> ops) {
        int checked = 0;
        String key = java.util.Arrays.toString(members);
        for (DType type : DType.values()) {
            for (long n : reduceSizes) {
                int seed = CollectivesProgram.seed("reduce", type, n);
                for (ReduceOp op : CollectivesProgram.ops(type, ops)) {
                    String want = crc(key + type + op + n, () -> Reference.reduce(type, op, members, n, seed));
                    expect(problems, pe, label + ".reduce." + type + "." + op + "." + n,
                            got.get(label + ".reduce." + type + "." + op + "." + n), want);
                    expect(problems, pe, label + ".inplace." + type + "." + op + "." + n,
                            got.get(label + ".inplace." + type + "." + op + "." + n), want);
                    checked += 2;
                }
            }
            for (long n : otherSizes) {
                int seed = CollectivesProgram.seed("fcollect", type, n);
                expect(problems, pe, label + ".fcollect." + type + "." + n, got.get(label + ".fcollect." + type + "." + n),
                        crc(key + "fc" + type + n, () -> Reference.fcollect(type, members, n, seed)));
                int cseed = CollectivesProgram.seed("collect", type, n);
                expect(problems, pe, label + ".collect." + type + "." + n, got.get(label + ".collect." + type + "." + n),
                        crc(key + "c" + type + n, () -> Reference.collect(type, members, n, cseed)));
                expect(problems, pe, label + ".collect-total." + type + "." + n,
                        got.get(label + ".collect-total." + type + "." + n),
                        Long.toString(Reference.collectTotal(members.length, n)));
                int bseed = CollectivesProgram.seed("broadcast", type, n);
                for (int root : new int[] {0, members.length - 1}) {
                    int rootPe = members[root];
                    expect(problems, pe, label + ".broadcast." + type + "." + n + ".root" + root,
                            got.get(label + ".broadcast." + type + "." + n + ".root" + root),
                            crc("b" + rootPe + type + n, () -> Reference.broadcast(type, rootPe, n, bseed)));
                }
                int last = members[members.length - 1];
                expect(problems, pe, label + ".broadcast-inplace." + type + "." + n,
                        got.get(label + ".broadcast-inplace." + type + "." + n),
                        crc("b" + last + type + n, () -> Reference.broadcast(type, last, n, bseed)));
                int aseed = CollectivesProgram.seed("alltoall", type, n);
                expect(problems, pe, label + ".alltoall." + type + "." + n, got.get(label + ".alltoall." + type + "." + n),
                        crc(key + "a" + me + type + n, () -> Reference.alltoall(type, members, me, n, aseed)));
                checked += 6;
            }
        }
        return checked;
    }

    private String crc(String key, Supplier<byte[]> bytes) {
        return cache.computeIfAbsent(key, k -> CollData.crc(bytes.get()));
    }

    private static void expect(List<String> problems, int pe, String key, String got, String want) {
        if (!want.equals(got)) {
            problems.add("PE " + pe + " " + key + ": got " + got + ", expected " + want);
        }
    }

    static List<String> labels(String spec) {
        return spec.startsWith("2d:") ? List.of(spec + ".x", spec + ".y") : List.of(spec);
    }

    /** World PEs of the team {@code label} that {@code pe} is in (team order), or null if none; computed independently of the library. */
    static int[] members(String label, int np, int pe) {
        List<Integer> m = new ArrayList<>();
        if (label.equals("world") || label.equals("shared")) {
            for (int i = 0; i < np; i++) {
                m.add(i);
            }
        } else if (label.startsWith("strided:")) {
            String[] p = label.split(":");
            int start = Integer.parseInt(p[1]);
            int stride = Integer.parseInt(p[2]);
            int size = Integer.parseInt(p[3]);
            for (int i = 0; i < size; i++) {
                m.add(start + i * stride);
            }
        } else if (label.startsWith("2d:")) {
            int xr = Math.min(Integer.parseInt(label.substring(3, label.lastIndexOf('.'))), np);
            boolean x = label.endsWith(".x");
            for (int q = 0; q < np; q++) {
                if (x ? q / xr == pe / xr : q % xr == pe % xr) {
                    m.add(q);
                }
            }
        }
        if (!m.contains(pe)) {
            return null;
        }
        return m.stream().mapToInt(Integer::intValue).toArray();
    }

    private static int indexOf(int[] a, int v) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] == v) {
                return i;
            }
        }
        return -1;
    }
}
