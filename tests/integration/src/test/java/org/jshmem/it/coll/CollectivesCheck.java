package org.jshmem.it.coll;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.jshmem.DType;
import org.jshmem.ReduceOp;
import org.jshmem.it.JobResult;

/**
 * Checks what a collectives job reported ({@link CollectivesProgram}, {@code GpuCollectivesProgram})
 * against the sequential reference ({@link Reference}): for every PE, team and form, the layout,
 * the translation and a CRC of every result. A form is a key prefix ({@code ""} for the host
 * program; {@code "host/"} and {@code "stream/"} for the blocking and on-stream forms of the GPU
 * program). Expected CRCs are cached per instance (the same reference serves several PEs and forms).
 */
final class CollectivesCheck {
    private final Map<String, String> cache = new HashMap<>();

    /** Adds what is wrong to {@code problems}; returns how many results were checked. */
    static int verify(JobResult r, int np, String reduceSizes, String otherSizes, List<ReduceOp> ops, String[] teams,
                      List<String> forms, List<String> problems) {
        return new CollectivesCheck().run(r, np, reduceSizes, otherSizes, ops, teams, forms, problems);
    }

    private int run(JobResult r, int np, String reduceSizes, String otherSizes, List<ReduceOp> ops, String[] teams,
                    List<String> forms, List<String> problems) {
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
                    for (String form : forms) {
                        checked += expectResults(problems, got, pe, form, label, members, me, rs, os, ops);
                    }
                }
            }
        }
        return checked;
    }

    private int expectResults(List<String> problems, Map<String, String> got, int pe, String prefix, String label,
                              int[] members, int me, long[] reduceSizes, long[] otherSizes, List<ReduceOp> ops) {
        int checked = 0;
        String key = java.util.Arrays.toString(members);
        for (DType type : DType.values()) {
            for (int si = 0; si < reduceSizes.length; si++) {
                long n = reduceSizes[si];
                int seed = CollectivesProgram.seed("reduce", type, n);
                for (ReduceOp op : CollectivesProgram.ops(type, ops, si, reduceSizes.length)) {
                    String want = crc(key + type + op + n, () -> Reference.reduce(type, op, members, n, seed));
                    expect(problems, pe, prefix + label + ".reduce." + type + "." + op + "." + n,
                            got.get(prefix + label + ".reduce." + type + "." + op + "." + n), want);
                    expect(problems, pe, prefix + label + ".inplace." + type + "." + op + "." + n,
                            got.get(prefix + label + ".inplace." + type + "." + op + "." + n), want);
                    checked += 2;
                }
            }
            for (int si = 0; si < otherSizes.length; si++) {
                long n = otherSizes[si];
                int seed = CollectivesProgram.seed("fcollect", type, n);
                expect(problems, pe, prefix + label + ".fcollect." + type + "." + n, got.get(prefix + label + ".fcollect." + type + "." + n),
                        crc(key + "fc" + type + n, () -> Reference.fcollect(type, members, n, seed)));
                int cseed = CollectivesProgram.seed("collect", type, n);
                expect(problems, pe, prefix + label + ".collect." + type + "." + n, got.get(prefix + label + ".collect." + type + "." + n),
                        crc(key + "c" + type + n, () -> Reference.collect(type, members, n, cseed)));
                expect(problems, pe, prefix + label + ".collect-total." + type + "." + n,
                        got.get(prefix + label + ".collect-total." + type + "." + n),
                        Long.toString(Reference.collectTotal(members.length, n)));
                int bseed = CollectivesProgram.seed("broadcast", type, n);
                for (int root : new int[] {0, members.length - 1}) {
                    int rootPe = members[root];
                    expect(problems, pe, prefix + label + ".broadcast." + type + "." + n + ".root" + root,
                            got.get(prefix + label + ".broadcast." + type + "." + n + ".root" + root),
                            crc("b" + rootPe + type + n, () -> Reference.broadcast(type, rootPe, n, bseed)));
                }
                int last = members[members.length - 1];
                expect(problems, pe, prefix + label + ".broadcast-inplace." + type + "." + n,
                        got.get(prefix + label + ".broadcast-inplace." + type + "." + n),
                        crc("b" + last + type + n, () -> Reference.broadcast(type, last, n, bseed)));
                int aseed = CollectivesProgram.seed("alltoall", type, n);
                expect(problems, pe, prefix + label + ".alltoall." + type + "." + n, got.get(prefix + label + ".alltoall." + type + "." + n),
                        crc(key + "a" + me + type + n, () -> Reference.alltoall(type, members, me, n, aseed)));
                checked += 6;
                // reduce-scatter: this member's block of the reduction of n * members elements
                int rseed = CollectivesProgram.seed("reducescatter", type, n);
                int size = type.byteSize();
                for (ReduceOp op : CollectivesProgram.ops(type, ops, si, otherSizes.length)) {
                    expect(problems, pe, prefix + label + ".reducescatter." + type + "." + op + "." + n,
                            got.get(prefix + label + ".reducescatter." + type + "." + op + "." + n),
                            crc(key + "rs" + me + type + op + n, () -> java.util.Arrays.copyOfRange(
                                    Reference.reduce(type, op, members, n * members.length, rseed),
                                    (int) (me * n * size), (int) ((me + 1) * n * size))));
                    checked++;
                }
                if (prefix.isEmpty()) {   // the scans are host-called only: CollectivesProgram's form
                    int sseed = CollectivesProgram.seed("scan", type, n);
                    int[] upTo = java.util.Arrays.copyOf(members, me + 1);
                    int[] before = java.util.Arrays.copyOf(members, me);
                    String inclusive = crc(key + "is" + me + type + n, () -> Reference.reduce(type, ReduceOp.SUM, upTo, n, sseed));
                    String exclusive = crc(key + "es" + me + type + n, () -> me == 0 ? new byte[(int) (n * size)]
                            : Reference.reduce(type, ReduceOp.SUM, before, n, sseed));
                    for (String scan : new String[] {"inscan", "exscan", "inscan-inplace"}) {
                        String k = label + "." + scan + "." + type + "." + n;
                        expect(problems, pe, k, got.get(k), scan.equals("exscan") ? exclusive : inclusive);
                    }
                    checked += 3;
                }
            }
        }
        return checked;
    }

    String crc(String key, Supplier<byte[]> bytes) {
        return cache.computeIfAbsent(key, k -> CollData.crc(bytes.get()));
    }

    static void expect(List<String> problems, int pe, String key, String got, String want) {
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
        if (label.equals("world")) {
            for (int i = 0; i < np; i++) {
                m.add(i);
            }
        } else if (label.equals("shared")) {   // the PEs of pe's node: all of them unless a transport test mode splits them
            for (int i = 0; i < np; i++) {
                if (org.jshmem.it.MpiJob.sameTestNode(i, pe, np)) {
                    m.add(i);
                }
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

    static int indexOf(int[] a, int v) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] == v) {
                return i;
            }
        }
        return -1;
    }
}
