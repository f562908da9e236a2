package org.jshmem.it.gpu;

import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import java.util.zip.CRC32;

/**
 * What the kernels of {@code kernels/device_api_test.cu} must leave in their buffers, written from
 * the documentation block of each kernel (PATTERN, VAL, sections, AMO sequence ...), and the runs
 * that {@link DeviceApiProgram} makes. Both the PE program (to count mismatches) and
 * {@link DeviceApiTest} (to assert) use it; {@code DeviceApiExpectedTest} checks it on the CPU.
 */
final class DeviceApiExpected {
    private DeviceApiExpected() {
    }

    // ================================================================ the runs

    /** Block sizes of the byte, typed and signal tests: a whole number of warps, and a partial last warp. */
    static final int[] THREADS = {128, 100};

    /** (nbytes, dst_off, src_off) of test_putmem / test_getmem: the file's suggested runs. */
    static final long[][] BYTE_RUNS = {{1, 0, 0}, {13, 3, 5}, {4, 4, 4}, {8, 8, 0}, {8, 4, 4}, {4096, 0, 0},
        {4099, 8, 0}, {65576, 4, 4}, {100003, 1, 2}, {1048576, 0, 0}, {1048576, 16, 0}, {999999, 7, 3}};

    /**
     * Extra block size for the last two byte runs. Not 1024: these kernels have no
     * {@code __launch_bounds__} and need 82-100 registers a thread (nvcc -Xptxas -v, sm_90),
     * which does not fit 1024 threads in a block's 64K registers.
     */
    static final int WIDE_THREADS = 256;

    /** nelems of test_rma_T: the file's suggested sizes. */
    static final int[] RMA_NELEMS = {1, 7, 1000, 65536 + 3};

    /** nbytes of test_signal: the file's suggested sizes. */
    static final long[] SIGNAL_NBYTES = {8, 4096, 65536, 1048576};
    /** test_fcollect_signal: bytes from every PE (not a multiple of 16), and the signal value. */
    static final long FCOLLECT_SIGNAL_NBYTES = 65536 + 24;
    static final long FCOLLECT_SIGNAL_VALUE = 7;

    /** test_amo_contention: blocks, threads, iterations. */
    static final int CONTENTION_BLOCKS = 8;
    static final int CONTENTION_THREADS = 256;
    static final int CONTENTION_ITERS = 100;

    /** test_debug_trap's "other" case: a valid call. */
    static final int TRAP_VALID = 99;

    /** One run of test_putmem or test_getmem. */
    record ByteRun(int threads, long nbytes, int dstOff, int srcOff) {
        String key() {
            return "t" + threads + ".n" + nbytes + ".d" + dstOff + ".s" + srcOff;
        }
    }

    static List<ByteRun> byteRuns() {
        List<ByteRun> out = new ArrayList<>();
        for (int t : THREADS) {
            for (long[] r : BYTE_RUNS) {
                out.add(new ByteRun(t, r[0], (int) r[1], (int) r[2]));
            }
        }
        for (long[] r : new long[][] {BYTE_RUNS[BYTE_RUNS.length - 2], BYTE_RUNS[BYTE_RUNS.length - 1]}) {
            out.add(new ByteRun(WIDE_THREADS, r[0], (int) r[1], (int) r[2]));
        }
        return out;
    }

    /** A team as the state holds it: members start + i * stride, i < size. */
    record Team(int slot, int start, int stride, int size) {
    }

    /**
     * The teams of PE {@code me}: slot 0 (world) and 1 (node) as the runtime fills them, and the
     * ones {@link DeviceApiProgram} sets (slots 2..5, fresh slots whose barrier cells are still
     * zero): a copy of the world, the last PE alone, every PE alone (the same slot holds a
     * different one-PE team on each PE, as after a split), and the even PEs (stride 2).
     */
    static List<Team> teams(int me, int n) {
        return List.of(new Team(0, 0, 1, n), new Team(1, 0, 1, n), new Team(2, 0, 1, n), new Team(3, n - 1, 1, 1),
                new Team(4, me, 1, 1), new Team(5, 0, 2, (n + 1) / 2));
    }

    /** The teams the program sets itself (slots 2 and up). */
    static List<Team> teamsToSet(int me, int n) {
        return teams(me, n).stream().filter(t -> t.slot() >= 2).toList();
    }

    static Team team(int slot, int me, int n) {
        return teams(me, n).stream().filter(t -> t.slot() == slot).findFirst().orElseThrow();
    }

    /** Index of world PE {@code pe} in the team, or -1: jshmemi_team_index. */
    static int teamIndex(Team t, int pe) {
        int d = pe - t.start();
        if (t.size() <= 0) {
            return -1;
        }
        if (t.stride() == 0) {
            return d == 0 ? 0 : -1;
        }
        if (d % t.stride() != 0) {
            return -1;
        }
        int i = d / t.stride();
        return i >= 0 && i < t.size() ? i : -1;
    }

    /** One run of test_barrier. */
    record BarrierRun(int slot, int rounds, int threads) {
        String key() {
            return "barrier.slot" + slot + ".r" + rounds + ".t" + threads;
        }
    }

    /** World with the three suggested block sizes; then the team slots 2, 4 and 5. */
    static final List<BarrierRun> BARRIER_RUNS = List.of(new BarrierRun(0, 1000, 64), new BarrierRun(0, 1000, 32),
            new BarrierRun(0, 1000, 1), new BarrierRun(2, 100, 64), new BarrierRun(4, 100, 64), new BarrierRun(5, 100, 64));

    /** The types of test_rma_T (JSHMEM_FOR_RMA_TYPES): kernel suffix and sizeof(T) (LP64). */
    enum RmaType {
        CHAR("char", 1), SHORT("short", 2), INT("int", 4), LONG("long", 8), LONGLONG("longlong", 8), FLOAT("float", 4),
        DOUBLE("double", 8), UINT32("uint32", 4), UINT64("uint64", 8), ULONGLONG("ulonglong", 8), SIZE("size", 8);

        final String cname;
        final int size;

        RmaType(String cname, int size) {
            this.cname = cname;
            this.size = size;
        }

        String kernel() {
            return "test_rma_" + cname;
        }

        /** Writes (T) v at byte {@code at}, little-endian, as C's conversion from int makes it. */
        void write(byte[] b, int at, int v) {
            long bits = switch (this) {
                case FLOAT -> Float.floatToRawIntBits((float) v);
                case DOUBLE -> Double.doubleToRawLongBits((double) v);
                default -> v;   // integer conversion: the low `size` bytes of the sign-extended value
            };
            for (int k = 0; k < size; k++) {
                b[at + k] = (byte) (bits >>> (8 * k));
            }
        }
    }

    /** The types of test_amo_T and test_wait_T (JSHMEM_FOR_AMO_TYPES). */
    enum AmoType {
        INT("int", 4, true), LONG("long", 8, true), LONGLONG("longlong", 8, true), UINT32("uint32", 4, false),
        UINT64("uint64", 8, false), ULONGLONG("ulonglong", 8, false);

        final String cname;
        final int size;
        final boolean signed;

        AmoType(String cname, int size, boolean signed) {
            this.cname = cname;
            this.size = size;
            this.signed = signed;
        }

        /** (T) v, printed as C would print the value of that type. */
        String text(long v) {
            if (size == 4) {
                int x = (int) v;
                return signed ? Integer.toString(x) : Integer.toUnsignedString(x);
            }
            return signed ? Long.toString(v) : Long.toUnsignedString(v);
        }

        /** Every element of a little-endian T array, comma-separated. */
        String format(byte[] raw) {
            StringJoiner j = new StringJoiner(",");
            for (int at = 0; at + size <= raw.length; at += size) {
                long v = 0;
                for (int k = 0; k < size; k++) {
                    v |= (raw[at + k] & 0xFFL) << (8 * k);
                }
                j.add(text(size == 4 ? (int) v : v));
            }
            return j.toString();
        }

        /** Values as T, comma-separated. */
        String join(long[] values) {
            StringJoiner j = new StringJoiner(",");
            for (long v : values) {
                j.add(text(v));
            }
            return j.toString();
        }
    }

    /** Every kernel the program launches, in the order it launches them (each at least once). */
    /** test_additions: dst on PE me, from its left neighbour's ibput and its own ibget of the left's src. */
    static long[] additionsDst(int me, int n) {
        long left = (me + n - 1) % n;
        long[] dst = new long[48];
        for (int i = 0; i < 4; i++) {
            for (int j = 0; j < 2; j++) {
                dst[4 * i + j] = 1000 * left + 3 * i + j;
            }
        }
        for (int i = 0; i < 5; i++) {
            dst[32 + 3 * i] = 1000 * left + 4 * i;
        }
        return dst;
    }

    /** test_additions: the signal words, 5 + 6 added at 0 and 77 set at 8. */
    static long[] additionsSig() {
        long[] sig = new long[16];
        sig[0] = 11;
        sig[8] = 77;
        return sig;
    }

    static List<String> kernelsLaunched() {
        List<String> k = new ArrayList<>(List.of("test_query", "test_team", "test_putmem", "test_getmem"));
        for (RmaType t : RmaType.values()) {
            k.add(t.kernel());
        }
        for (AmoType t : AmoType.values()) {
            k.add("test_amo_" + t.cname);
        }
        k.add("test_amo_contention");
        k.add("test_fcollect_signal");
        k.add("test_signal");
        for (AmoType t : AmoType.values()) {
            k.add("test_wait_" + t.cname);
        }
        k.add("test_barrier");
        k.add("test_additions");
        k.add("test_stuck_wait");
        k.add("test_debug_trap");
        return k;
    }

    // ================================================================ PATTERN, VAL, sections

    static int left(int me, int n) {
        return (me + n - 1) % n;
    }

    static int right(int me, int n) {
        return (me + 1) % n;
    }

    /** PATTERN(pe, k, i) = (byte) (pe * 37 + k * 11 + i * 7 + 1), in 64-bit, low byte. */
    static byte pattern(int pe, int k, long i) {
        return (byte) ((long) pe * 37 + (long) k * 11 + i * 7 + 1);
    }

    /** VAL(pe, i) = (pe + 1) * 16 + (i % 13), in int (the kernel then casts to T). */
    static int val(int pe, long i) {
        return (pe + 1) * 16 + (int) (i % 13);
    }

    /** Section stride S = round_up(nbytes + 64, 64). */
    static long sectionStride(long nbytes) {
        return (nbytes + 64 + 63) / 64 * 64;
    }

    /** {@code sections} sections of S bytes, section k holding PATTERN(from, k, i) at k*S + off + i, the rest 0. */
    static byte[] byteSections(int sections, long nbytes, int off, int from) {
        long s = sectionStride(nbytes);
        byte[] b = new byte[Math.toIntExact(sections * s)];
        for (int k = 0; k < sections; k++) {
            for (long i = 0; i < nbytes; i++) {
                b[(int) (k * s + off + i)] = pattern(from, k, i);
            }
        }
        return b;
    }

    /** test_putmem's dst on PE me: PE left's sections. */
    static byte[] putmemDst(ByteRun r, int me, int n) {
        return byteSections(6, r.nbytes(), r.dstOff(), left(me, n));
    }

    /** test_getmem's dst on PE me: PE right's sections. */
    static byte[] getmemDst(ByteRun r, int me, int n) {
        return byteSections(6, r.nbytes(), r.dstOff(), right(me, n));
    }

    /** test_signal's dst on PE me: PE left's 9 sections (offsets 0). */
    static byte[] signalDst(long nbytes, int me, int n) {
        return byteSections(9, nbytes, 0, left(me, n));
    }

    /** test_rma_T's dst (20 sections of nelems T) on PE me: VAL(right) in sections 6..11 and 13 (gets, g), else VAL(left). */
    static byte[] rmaDst(RmaType t, int nelems, int me, int n) {
        byte[] b = new byte[Math.toIntExact(20L * nelems * t.size)];
        for (int s = 0; s < 20; s++) {
            int from = (s >= 6 && s <= 11) || s == 13 ? right(me, n) : left(me, n);
            for (int i = 0; i < nelems; i++) {
                t.write(b, (s * nelems + i) * t.size, val(from, i));
            }
        }
        return b;
    }

    // ================================================================ small buffers

    /** test_query's out[16] on PE me. */
    static int[] queryOut(int me, int n) {
        return new int[] {me, n, 1, 1, 1, 1, me, n, me, -1, -1, -1, 0, 0, 0, 0};
    }

    /** test_team's out[8] on PE me: {idx, z, s, idx, s + (z - 1) * d, -1, 0, 0}. */
    static int[] teamOut(Team t, int me) {
        int idx = teamIndex(t, me);
        return new int[] {idx, t.size(), t.start(), idx, t.start() + (t.size() - 1) * t.stride(), -1, 0, 0};
    }

    /** The results r0..r12 of TEST_AMO_SEQUENCE, as documented. */
    static final long[] AMO_RESULTS = {5, 8, 18, 12, 8, 27, 0, 42, 42, 9, 19, 31, 5};

    /** The four cells c0..c3 after TEST_AMO_SEQUENCE, as documented. */
    static final long[] AMO_CELLS = {5, 19, 31, 9};

    /** test_amo_T's out[32]: the results at 0..12 (remote run) and 16..28 (local run). */
    static long[] amoOut() {
        long[] out = new long[32];
        System.arraycopy(AMO_RESULTS, 0, out, 0, 13);
        System.arraycopy(AMO_RESULTS, 0, out, 16, 13);
        return out;
    }

    /** test_amo_T's cells[16 * n] on PE me: PE left's remote run at 16*left, my local run at 16*me + 8. */
    static long[] amoCells(int me, int n) {
        long[] c = new long[16 * n];
        System.arraycopy(AMO_CELLS, 0, c, 16 * left(me, n), 4);
        System.arraycopy(AMO_CELLS, 0, c, 16 * me + 8, 4);
        return c;
    }

    /** N of test_amo_contention. */
    static long contentionTotal(int n) {
        return (long) n * CONTENTION_BLOCKS * CONTENTION_THREADS * CONTENTION_ITERS;
    }

    /** test_signal's seen[16] on PE me. */
    static long[] signalSeen(int me, int n) {
        int l = left(me, n);
        long[] s = new long[16];
        for (int k = 0; k < 6; k++) {
            s[k] = 1000L * (k + 1) + l;
        }
        s[6] = 12;
        s[7] = 99;
        s[8] = 1000L + l;
        s[9] = 1;
        s[10] = -1;               // 2^64 - 1
        s[11] = Long.MIN_VALUE;   // 2^63
        s[12] = Long.MIN_VALUE;
        return s;
    }

    /** test_signal's sig[256] on PE me. */
    static long[] signalSig(int me, int n) {
        long[] sig = new long[256];
        for (int k = 0; k < 6; k++) {
            sig[16 * k] = 1000L * (k + 1) + left(me, n);
        }
        sig[96] = 12;
        sig[112] = 99;
        sig[128] = -1;
        sig[144] = Long.MIN_VALUE;
        return sig;
    }

    /** test_wait_T's out[16]. */
    static int[] waitOut(AmoType t) {
        return new int[] {1, 0, 1, 0, 1, 0, 1, t.signed ? 1 : 0, t.signed ? 0 : 1, 0, 0, 0, 0, 0, 0, 0};
    }

    /** test_wait_T's ivar[4]: {10, (T) -5, 0, 0}. */
    static long[] waitIvar() {
        return new long[] {10, -5, 0, 0};
    }

    /** test_barrier's slots[64] on a member: rounds in slots 0 .. z-1. */
    static long[] barrierSlots(Team t, int rounds) {
        long[] s = new long[64];
        for (int i = 0; i < t.size(); i++) {
            s[i] = rounds;
        }
        return s;
    }

    // ================================================================ reporting

    /**
     * A one-line account of {@code got} against {@code expected}: the CRC-32 of {@code got}, the
     * number of bytes that differ, and the first difference. {@code summary(e, e)} is what a
     * correct buffer reports.
     */
    static String summary(byte[] got, byte[] expected) {
        CRC32 crc = new CRC32();
        crc.update(got);
        if (got.length != expected.length) {
            return String.format("crc=%08x length=%d expectedLength=%d", crc.getValue(), got.length, expected.length);
        }
        long bad = 0;
        int first = -1;
        for (int i = 0; i < got.length; i++) {
            if (got[i] != expected[i]) {
                bad++;
                if (first < 0) {
                    first = i;
                }
            }
        }
        String where = first < 0 ? "none"
                : String.format("%d:%02x/%02x", first, got[first] & 0xFF, expected[first] & 0xFF);
        return String.format("crc=%08x bad=%d first=%s", crc.getValue(), bad, where);
    }

    static String join(int[] v) {
        StringJoiner j = new StringJoiner(",");
        for (int x : v) {
            j.add(Integer.toString(x));
        }
        return j.toString();
    }

    static String join(long[] v) {
        StringJoiner j = new StringJoiner(",");
        for (long x : v) {
            j.add(Long.toString(x));
        }
        return j.toString();
    }

    /** The non-zero entries as {@code index:value}, comma-separated ("" if none). */
    static String nonZero(long[] v) {
        StringJoiner j = new StringJoiner(",");
        for (int i = 0; i < v.length; i++) {
            if (v[i] != 0) {
                j.add(i + ":" + v[i]);
            }
        }
        return j.toString();
    }

    static String nonZero(int[] v) {
        long[] l = new long[v.length];
        for (int i = 0; i < v.length; i++) {
            l[i] = v[i];
        }
        return nonZero(l);
    }

    // ================================================================ test_debug_trap

    /** The cases of test_debug_trap that trap. */
    static final int TRAP_CASES = 7;

    /**
     * The start of the line case {@code which} prints on PE me, as the kernel's documentation
     * gives it (for case 2 the header's text: "address not naturally aligned (bytes = alignment)").
     */
    static String trapPrefix(int which, int me, int n) {
        return switch (which) {
            case 0 -> "jshmem: jshmem_int_p: pe: PE out of range (PE " + n + ", n_pes " + n + " / ";
            case 1 -> "jshmem: jshmem_putmem: dest: address range outside the symmetric heap (PE " + me + ", ";
            case 2 -> "jshmem: jshmem_int_atomic_fetch_add: dest: address not naturally aligned";
            case 3 -> "jshmem: jshmem_int_wait_until: cmp: unknown comparison code";
            case 4 -> "jshmem: jshmem_signal_op: sig_op: unknown signal operation";
            case 5 -> "jshmem: jshmem_barrier_block: team: slot out of range";
            case 6 -> "jshmem: jshmem_getmem: source: address in jshmem's internal region";
            default -> throw new IllegalArgumentException("no trap case " + which);
        };
    }

    /**
     * The whole line case {@code which} prints on PE me (jshmemi_fail's format), given the heap
     * offset of {@code sym} and the heap size in the device state (internal region included).
     */
    static String trapLine(int which, int me, int n, long symOffset, long heapSize) {
        String what;
        int pe = me;
        long offset;
        long bytes = 0;
        switch (which) {
            case 0 -> {
                what = "jshmem_int_p: pe: PE out of range";
                pe = n;
                offset = 0;
            }
            case 1 -> {
                what = "jshmem_putmem: dest: address range outside the symmetric heap";
                offset = symOffset + (1L << 40);
                bytes = 4;
            }
            case 2 -> {
                what = "jshmem_int_atomic_fetch_add: dest: address not naturally aligned (bytes = alignment)";
                pe = right(me, n);
                offset = symOffset + 1;
                bytes = 4;
            }
            case 3 -> {
                what = "jshmem_int_wait_until: cmp: unknown comparison code, JSHMEM_CMP_EQ..LE (offset = code)";
                offset = 17;
            }
            case 4 -> {
                what = "jshmem_signal_op: sig_op: unknown signal operation, SET or ADD (offset = code)";
                offset = 5;
            }
            case 5 -> {
                what = "jshmem_barrier_block: team: slot out of range, 0..JSHMEM_MAX_TEAMS-1 (offset = slot)";
                offset = 64;
            }
            case 6 -> {
                what = "jshmem_getmem: source: address in jshmem's internal region";
                offset = 128;
                bytes = 4;
            }
            default -> throw new IllegalArgumentException("no trap case " + which);
        }
        return "jshmem: " + what + " (PE " + pe + ", n_pes " + n + " / offset " + offset + ", bytes " + bytes
                + ", heap_size " + heapSize + ")";
    }
}
