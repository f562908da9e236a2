package org.jshmem.it;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongBinaryOperator;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every API call on jobs of 1, 2, 3 and 4 PEs ({@link ApiProgram}); the expected value of every
 * report of every PE is computed here.
 */
class ApiTest {
    private static final int N = ApiProgram.N;
    private static final long BIG = 1L << 40;

    /** Each transport test mode ({@link MpiJob#transportModes}) on 1 to 4 PEs. */
    static Stream<Arguments> modesAndPes() {
        return MpiJob.transportModes().stream().flatMap(mode -> IntStream.rangeClosed(1, 4).mapToObj(n -> Arguments.of(mode, n)));
    }

    @ParameterizedTest(name = "transport \"{0}\", {1} PEs")
    @MethodSource("modesAndPes")
    void everyCallOnEveryPe(String mode, int n) {
        JobResult r = MpiJob.of(n, ApiProgram.class).transport(mode).env("JSHMEM_SYMMETRIC_SIZE", "40m")
                .timeout(Duration.ofSeconds(120)).run();
        assertEveryCallRight(r, n);
    }

    /** Checks a finished job of {@link ApiProgram}: every report of every PE, and no files left behind. */
    static void assertEveryCallRight(JobResult r, int n) {
        assertTrue(r.succeeded(), r::toString);
        List<Executable> checks = new ArrayList<>();
        for (int pe = 0; pe < n; pe++) {
            checks.addAll(expectations(r, n, pe));
        }
        checks.addAll(contended(r, n));
        assertAll(checks);
        assertEquals(List.of(), ShmFiles.ofJob(ShmFiles.DEFAULT_DIR, r.longValue(0, "pid")), "files left after a normal exit");
    }

    private static List<Executable> expectations(JobResult r, int n, int me) {
        int right = (me + 1) % n;
        int left = (me + n - 1) % n;
        List<Executable> c = new ArrayList<>();
        Map<String, Object> e = new java.util.LinkedHashMap<>();
        e.put("nPes", n);
        e.put("myPe", me);
        e.put("current", true);
        e.put("heapSize", 40L << 20);
        e.put("closed", true);
        e.put("afterClose", "ShmemStateException");

        // allocation: a known sequence on a fresh heap, the same on every PE
        e.put("alloc.offsets", List.of(0, 1024, 4096, 1280));
        e.put("alloc.sizes", List.of(1000, 80, 100, 100));
        e.put("alloc.used", 1024 + 3 * 256);
        e.put("alloc.reuse", 0);
        e.put("alloc.callocNonZero", 0);
        e.put("alloc.coalesced", 1024);
        e.put("alloc.freeAfter", true);

        for (String t : Values.TYPES) {
            Object rightOwn = Values.array(t, right, 0, N);
            Object leftOwn = Values.array(t, left, 0, N);
            e.put("get." + t, Values.str(Values.strided(rightOwn, 0, 1, Values.zeros(t, N + 1), 1, 1, N)));
            e.put("getNbi." + t, Values.str(leftOwn));
            e.put("getSeg." + t, Values.str(rightOwn));
            e.put("getNbiSeg." + t, Values.str(leftOwn));
            e.put("put." + t, Values.str(Values.strided(Values.array(t, left, 1, N + 2), 1, 1, Values.zeros(t, N), 0, 1, N)));
            e.put("putNbi." + t, Values.str(Values.array(t, right, 2, N)));
            e.put("putSeg." + t, Values.str(Values.array(t, left, 3, N)));
            e.put("putNbiSeg." + t, Values.str(Values.array(t, right, 4, N)));
            e.put("putSym." + t, Values.str(leftOwn));
            e.put("putNbiSym." + t, Values.str(Values.array(t, right, 0, N)));
            e.put("getSym." + t, Values.str(rightOwn));
            e.put("getNbiSym." + t, Values.str(leftOwn));
            e.put("g." + t, Values.scalar(t, right, 0));
            e.put("p." + t, Values.scalar(t, left, 1));
            e.put("iput." + t, Values.str(Values.strided(Values.array(t, left, 5, 10), 1, 2, Values.zeros(t, 12), 0, 3, 4)));
            e.put("iget." + t, Values.str(Values.strided(Values.array(t, right, 6, 12), 0, 3, Values.zeros(t, 8), 1, 2, 4)));
        }
        e.put("bulk.put", 0L);
        e.put("bulk.get", 0L);
        e.put("iputSeg", Arrays.toString(new int[] {0, left, left + 10, left + 20, 0, 0}));
        e.put("igetSeg", Arrays.toString(new int[] {me, 0, me + 10, 0, me + 20, 0}));
        int l = left * 100;
        e.put("ibput", Arrays.toString(new int[] {l, l + 1, 0, 0, l + 3, l + 4, 0, 0, l + 6, l + 7, 0, 0}));
        int m = me * 100;
        e.put("ibget", Arrays.toString(new int[] {m + 1, 0, 0, m + 4, 0, 0, m + 7, 0, 0, 0}));

        long total = (long) n * (n + 1) / 2;
        e.put("sigSet.wait", left + 100);
        e.put("sigSet.data", List.of(left * 10L + 1, left * 10L + 2));
        e.put("sigAdd.wait", total);
        List<Long> added = new ArrayList<>();
        for (int p = 0; p < n; p++) {
            added.add(p + 7L);
        }
        e.put("sigAdd.data", added);
        e.put("sigNbi.wait", right + 1);
        e.put("sigNbi.data", right * 3);
        e.put("sigSym.wait", 3);
        e.put("sigSym.data", List.of(5000 + left, 5000 + left));
        e.put("signalFetch", List.of(left + 100L, total, right + 1L, 3L));
        e.put("sigUnsigned.gt", -1L);
        e.put("sigUnsigned.ge", Long.MIN_VALUE);
        e.put("sigUnsigned.lt", left + 100L);

        e.put("fetchInt.seq", fetchIntSeq(me));
        e.put("fetchLong.seq", fetchLongSeq(me));
        e.put("fetchInt.final", fetchIntSeq(left).getLast());
        e.put("fetchLong.final", fetchLongSeq(left).getLast());
        e.put("nofetchInt.final", (((7 + left + 10 + 1) & 0x3E) | 0x100) ^ 0x3);
        e.put("nofetchLong.final", (((BIG * 7 + left + BIG * 10 + 1) & 0xFFFF_FFFF_FF3EL) | 1L << 61) ^ 0x3);

        e.put("fence.data", left + 1000);
        e.put("quiet.data", right + 2000);
        e.put("peQuiet.data", left + 3000);

        e.put("before.int", "[false, -1, [], false]");
        e.put("before.long", "[false, -1, [], false]");
        e.put("one.int", List.of(left, List.of(left), left, List.of(left), n == 1, true));
        e.put("one.long", List.of(left, List.of(left), left, List.of(left), n == 1, true));
        int[] ints = new int[n + 1];
        long[] longs = new long[n + 1];
        List<Integer> allButLeft = new ArrayList<>();
        for (int p = 0; p < n; p++) {
            ints[p] = p + 1;
            longs[p] = BIG + p;
            if (p != left) {
                allButLeft.add(p);
            }
        }
        List<Integer> lowOrUnset = new ArrayList<>();
        if (left != 0) {
            lowOrUnset.add(0);
        }
        lowOrUnset.add(n);
        e.put("all.int", List.of(Arrays.toString(ints), allButLeft, me, true, false, true, lowOrUnset, n));
        e.put("all.long", List.of(Arrays.toString(longs), allButLeft, me, true, false, true, lowOrUnset, n));
        // for EQ, NE, GT, GE, LT, LE: the own value against itself - 1, itself, itself + 1
        String cmp = "[false, true, false, true, false, true, true, false, false, true, true, false,"
                + " false, false, true, false, true, true]";
        e.put("cmp.int", cmp);
        e.put("cmp.long", cmp);

        e.put("barrier.sum", 100L * 1275 + 50L * left);
        e.put("sync.sum", 1000L * 1275 + 50L * left);

        for (Map.Entry<String, Object> x : e.entrySet()) {
            c.add(() -> assertEquals(String.valueOf(x.getValue()), r.value(me, x.getKey()), "PE " + me + " " + x.getKey()));
        }
        return c;
    }

    static List<Integer> fetchIntSeq(int pe) {
        List<Integer> s = new ArrayList<>();
        int v = 1000 + pe;
        s.add(v);                  // fetch
        s.add(v);                  // swap
        v = 2000 + pe;
        s.add(v);                  // compare-swap that fails
        s.add(v);                  // compare-swap that succeeds
        v = 3000 + pe;
        s.add(v);                  // fetch-add 5
        v += 5;
        s.add(v);                  // fetch-inc
        v += 1;
        s.add(v);                  // fetch-and
        v &= 0xFF0;
        s.add(v);                  // fetch-or
        v |= 0x10000;
        s.add(v);                  // fetch-xor
        v ^= 0x3;
        s.add(v);                  // fetch
        return s;
    }

    static List<Long> fetchLongSeq(int pe) {
        List<Long> s = new ArrayList<>();
        long v = BIG + pe;
        s.add(v);
        s.add(v);
        v = 2 * BIG + pe;
        s.add(v);
        s.add(v);
        v = 3 * BIG + pe;
        s.add(v);
        v += BIG;
        s.add(v);
        v += 1;
        s.add(v);
        v &= 0xFFFF_FFFF_F0L;
        s.add(v);
        v |= 1L << 62;
        s.add(v);
        v ^= 0x3;
        s.add(v);
        return s;
    }

    /** The contended atomics on PE 0: exact finals, and fetched values that form one serial order. */
    private static List<Executable> contended(JobResult r, int n) {
        List<Executable> c = new ArrayList<>();
        long mask = (1L << n) - 1;
        long sumI = (long) n * (n + 1) / 2;
        long sumL = sumI << 33;
        List<Map<Integer, Long>> fi = fetched(r, n, "cInt.fetched");
        List<Map<Integer, Long>> fl = fetched(r, n, "cLong.fetched");
        // int finals: add, or, and, xor, fetch-add, fetch-inc, swap, cas, fetch-or, fetch-and, fetch-xor
        long swapI = chain(fi.get(2), 0, (v, p) -> p + 1);
        long casI = casWinner(fi.get(3), 0, 1);
        List<Long> finI = List.of(sumI + n, mask, ~mask, mask ^ (n % 2 == 1 ? 1 << 20 : 0),
                chain(fi.get(0), 0, (v, p) -> v + p + 1), chain(fi.get(1), 0, (v, p) -> v + 1), swapI, casI,
                chain(fi.get(4), 0, (v, p) -> v | 1L << p), chain(fi.get(5), -1, (v, p) -> v & ~(1L << p)),
                chain(fi.get(6), 0, (v, p) -> v ^ 1L << p));
        long swapL = chain(fl.get(2), 0, (v, p) -> (p + 1) << 33);
        long casL = casWinner(fl.get(3), 0, 1L << 33);
        List<Long> finL = List.of(sumL + n, mask << 32, ~(mask << 32), (mask << 32) ^ (n % 2 == 1 ? 1L << 60 : 0),
                chain(fl.get(0), 0, (v, p) -> v + ((p + 1) << 33)), chain(fl.get(1), 0, (v, p) -> v + 1), swapL, casL,
                chain(fl.get(4), 0, (v, p) -> v | 1L << (32 + p)),
                chain(fl.get(5), -1, (v, p) -> v & ~(1L << (32 + p))),
                chain(fl.get(6), 0, (v, p) -> v ^ 1L << (32 + p)));
        assertEquals(List.of(sumI, (long) n, mask, ~mask, mask), List.of(finI.get(4), finI.get(5), finI.get(8),
                finI.get(9), finI.get(10)), "serial orders of the fetching int atomics end where they must");
        assertEquals(List.of(sumL, (long) n, mask << 32, ~(mask << 32), mask << 32), List.of(finL.get(4),
                finL.get(5), finL.get(8), finL.get(9), finL.get(10)), "serial orders of the fetching long atomics");
        for (int pe = 0; pe < n; pe++) {
            int p = pe;
            c.add(() -> assertEquals(finI.stream().map(v -> String.valueOf((int) (long) v)).toList(),
                    split(r.value(p, "cInt.final")), "PE " + p + " cInt.final"));
            c.add(() -> assertEquals(finL.stream().map(String::valueOf).toList(),
                    split(r.value(p, "cLong.final")), "PE " + p + " cLong.final"));
        }
        return c;
    }

    /** For each of the 7 fetching ops: PE -> value it fetched. */
    private static List<Map<Integer, Long>> fetched(JobResult r, int n, String key) {
        List<Map<Integer, Long>> out = new ArrayList<>();
        for (int k = 0; k < 7; k++) {
            out.add(new HashMap<>());
        }
        for (int pe = 0; pe < n; pe++) {
            List<String> v = split(r.value(pe, key));
            assertEquals(7, v.size(), key + " of PE " + pe);
            for (int k = 0; k < 7; k++) {
                out.get(k).put(pe, Long.parseLong(v.get(k)));
            }
        }
        return out;
    }

    /**
     * Checks that the fetched values are those of some serial order of the PEs' operations from
     * {@code initial} (each PE fetched the value left by the one before); returns the final value.
     */
    private static long chain(Map<Integer, Long> fetched, long initial, LongBinaryOperator op) {
        Map<Integer, Long> left = new HashMap<>(fetched);
        long v = initial;
        while (!left.isEmpty()) {
            long now = v;
            Integer next = left.entrySet().stream().filter(x -> x.getValue() == now).map(Map.Entry::getKey)
                    .findFirst().orElseThrow(() -> new AssertionError("no PE fetched " + now + ": " + fetched));
            left.remove(next);
            v = op.applyAsLong(v, next);
        }
        return v;
    }

    /** Compare-and-swap of 0 -> (pe+1)*unit by every PE: one PE fetched 0, the others its value. */
    private static long casWinner(Map<Integer, Long> fetched, long initial, long unit) {
        List<Integer> winners = fetched.entrySet().stream().filter(x -> x.getValue() == initial).map(Map.Entry::getKey).toList();
        assertEquals(1, winners.size(), "exactly one compare-and-swap wins: " + fetched);
        long won = (winners.getFirst() + 1) * unit;
        for (Map.Entry<Integer, Long> x : fetched.entrySet()) {
            if (x.getKey() != (int) winners.getFirst()) {
                assertEquals(won, x.getValue(), "PE " + x.getKey() + " fetched the winner's value");
            }
        }
        return won;
    }

    private static List<String> split(String list) {
        String s = list.trim();
        assertTrue(s.startsWith("[") && s.endsWith("]"), "a list: " + s);
        s = s.substring(1, s.length() - 1).trim();
        return s.isEmpty() ? List.of() : Arrays.asList(s.split(", "));
    }
}
