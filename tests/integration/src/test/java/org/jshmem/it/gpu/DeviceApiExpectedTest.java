package org.jshmem.it.gpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jshmem.it.gpu.DeviceApiExpected.AmoType;
import org.jshmem.it.gpu.DeviceApiExpected.ByteRun;
import org.jshmem.it.gpu.DeviceApiExpected.RmaType;
import org.jshmem.it.gpu.DeviceApiExpected.Team;
import org.junit.jupiter.api.Test;

/**
 * The expected-value helpers of the device API tests, checked on the CPU (no tag: runs in every
 * build): against independent re-derivations (the AMO sequence replayed, the team queries ported
 * from jshmem_query.h), against the text of {@code device_api_test.cu} (every kernel covered, the
 * documented trap lines) and of the device headers (type lists, the debug messages).
 */
class DeviceApiExpectedTest {

    // ---------------------------------------------------------------- PATTERN, VAL, sections

    @Test
    void patternAndValFollowTheFileDefinitions() {
        assertEquals((byte) 1, DeviceApiExpected.pattern(0, 0, 0));
        assertEquals((byte) (37 + 22 + 21 + 1), DeviceApiExpected.pattern(1, 2, 3));
        // computed in 64 bits, low byte: 3*37 + 5*11 + 999999*7 + 1 = 7000160 = 0x6AD060
        assertEquals((byte) 0x60, DeviceApiExpected.pattern(3, 5, 999_999));
        assertEquals(16, DeviceApiExpected.val(0, 0));
        assertEquals(2 * 16 + 12, DeviceApiExpected.val(1, 12));
        assertEquals(2 * 16, DeviceApiExpected.val(1, 13));
        assertEquals(64, DeviceApiExpected.sectionStride(0));
        assertEquals(128, DeviceApiExpected.sectionStride(1));
        assertEquals(128, DeviceApiExpected.sectionStride(64));
        assertEquals(192, DeviceApiExpected.sectionStride(65));
        assertEquals(4096 + 64, DeviceApiExpected.sectionStride(4096));
    }

    @Test
    void byteSectionsHoldThePatternBetweenZeroGuards() {
        long nbytes = 13;
        int off = 3;
        byte[] b = DeviceApiExpected.byteSections(6, nbytes, off, 1);
        long s = DeviceApiExpected.sectionStride(nbytes);
        assertEquals(6 * s, b.length);
        int nonZero = 0;
        for (int i = 0; i < b.length; i++) {
            int k = (int) (i / s);
            long j = i % s - off;
            byte want = j >= 0 && j < nbytes ? DeviceApiExpected.pattern(1, k, j) : 0;
            assertEquals(want, b[i], "byte " + i);
            nonZero += b[i] != 0 ? 1 : 0;
        }
        assertTrue(nonZero > 0);
        // putmem: from the left PE; getmem: from the right one
        ByteRun r = new ByteRun(100, 4099, 8, 0);
        assertArrayEquals(DeviceApiExpected.byteSections(6, 4099, 8, 2), DeviceApiExpected.putmemDst(r, 0, 3));
        assertArrayEquals(DeviceApiExpected.byteSections(6, 4099, 8, 1), DeviceApiExpected.getmemDst(r, 0, 3));
        assertArrayEquals(DeviceApiExpected.byteSections(9, 8, 0, 1), DeviceApiExpected.signalDst(8, 0, 2));
    }

    @Test
    void byteRunsAreTheSuggestedOnesAtEveryBlockSize() {
        List<ByteRun> runs = DeviceApiExpected.byteRuns();
        assertEquals(2 * 12 + 2, runs.size());
        assertTrue(runs.contains(new ByteRun(100, 999999, 7, 3)), "a partial last warp");
        assertTrue(runs.contains(new ByteRun(128, 1, 0, 0)));
        for (ByteRun r : runs) {
            assertTrue(r.dstOff() < 32 && r.srcOff() < 32, "offsets below 32: " + r);
        }
    }

    @Test
    void rmaDestinationDecodesToValOfTheRightPeInEverySection() {
        int n = 3;
        int me = 1;
        int nelems = 29;
        for (RmaType t : RmaType.values()) {
            ByteBuffer b = ByteBuffer.wrap(DeviceApiExpected.rmaDst(t, nelems, me, n)).order(ByteOrder.LITTLE_ENDIAN);
            assertEquals(20 * nelems * t.size, b.capacity());
            for (int s = 0; s < 20; s++) {
                int from = (s >= 6 && s <= 11) || s == 13 ? 2 : 0;
                for (int i = 0; i < nelems; i++) {
                    int at = (s * nelems + i) * t.size;
                    int v = DeviceApiExpected.val(from, i);
                    switch (t) {
                        case CHAR -> assertEquals((byte) v, b.get(at));
                        case SHORT -> assertEquals((short) v, b.getShort(at));
                        case INT, UINT32 -> assertEquals(v, b.getInt(at));
                        case FLOAT -> assertEquals((float) v, b.getFloat(at));
                        case DOUBLE -> assertEquals(v, b.getDouble(at));
                        default -> assertEquals(v, b.getLong(at), t + " section " + s + " element " + i);
                    }
                }
            }
        }
        // char keeps the low 8 bits: PE 7's VAL goes past 127
        byte[] c = DeviceApiExpected.rmaDst(RmaType.CHAR, 13, 0, 8);
        assertEquals((byte) (8 * 16 + 12), c[12], "section 0 = VAL(left = 7, 12) = 140 as a signed byte");
        assertTrue(c[12] < 0);
    }

    // ---------------------------------------------------------------- small buffers

    @Test
    void amoResultsAreWhatTheSequenceComputes() {
        // TEST_AMO_SEQUENCE replayed on four cells
        long[] c = new long[4];
        long[] r = new long[13];
        c[0] = 5;
        r[0] = c[0];
        c[1] += 7;
        c[1] += 1;
        r[1] = c[1];
        c[1] += 10;
        r[2] = c[1];
        c[1] += 1;
        c[2] = 12;
        r[3] = c[2];
        c[2] &= 10;
        c[2] &= 12;
        r[4] = c[2];
        c[2] |= 3;
        c[2] |= 16;
        r[5] = c[2];
        c[2] ^= 5;
        c[2] ^= 1;
        r[6] = c[3];
        c[3] = 42;
        r[7] = c[3];
        if (c[3] == 41) {
            c[3] = 7;
        }
        r[8] = c[3];
        if (c[3] == 42) {
            c[3] = 9;
        }
        r[9] = c[3];
        r[10] = c[1];
        r[11] = c[2];
        r[12] = c[0];
        assertArrayEquals(r, DeviceApiExpected.AMO_RESULTS);
        assertArrayEquals(c, DeviceApiExpected.AMO_CELLS);

        long[] out = DeviceApiExpected.amoOut();
        assertEquals(32, out.length);
        assertEquals("5,8,18,12,8,27,0,42,42,9,19,31,5,0,0,0,5,8,18,12,8,27,0,42,42,9,19,31,5,0,0,0",
                DeviceApiExpected.join(out));
        // PE 0 of 2: PE 1's remote run lands at 16*1, my local run at 8
        assertEquals("8:5,9:19,10:31,11:9,16:5,17:19,18:31,19:9", DeviceApiExpected.nonZero(DeviceApiExpected.amoCells(0, 2)));
        // one PE: both runs are mine
        assertEquals("0:5,1:19,2:31,3:9,8:5,9:19,10:31,11:9", DeviceApiExpected.nonZero(DeviceApiExpected.amoCells(0, 1)));
    }

    @Test
    void waitResultsFollowTheSignednessOfTheType() {
        for (AmoType t : AmoType.values()) {
            int[] out = DeviceApiExpected.waitOut(t);
            // ivar[1] = (T) -5: signed compares below 0, unsigned above 100
            long minus5 = t.size == 4 && !t.signed ? 0xFFFF_FFFBL : -5;
            boolean lt0 = t.signed ? minus5 < 0 : Long.compareUnsigned(minus5, 0) < 0;
            boolean gt100 = t.signed ? minus5 > 100 : Long.compareUnsigned(minus5, 100) > 0;
            assertEquals(lt0 ? 1 : 0, out[7], t.cname);
            assertEquals(gt100 ? 1 : 0, out[8], t.cname);
            assertEquals("1,0,1,0,1,0,1", DeviceApiExpected.join(out).substring(0, 13));
        }
        assertEquals("10,-5,0,0", AmoType.INT.join(DeviceApiExpected.waitIvar()));
        assertEquals("10,-5,0,0", AmoType.LONGLONG.join(DeviceApiExpected.waitIvar()));
        assertEquals("10,4294967291,0,0", AmoType.UINT32.join(DeviceApiExpected.waitIvar()));
        assertEquals("10,18446744073709551611,0,0", AmoType.UINT64.join(DeviceApiExpected.waitIvar()));
        assertEquals("10,18446744073709551611,0,0", AmoType.ULONGLONG.join(DeviceApiExpected.waitIvar()));
    }

    @Test
    void amoFormatDecodesLittleEndianByType() {
        byte[] raw = {(byte) 0xFB, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 10, 0, 0, 0};
        assertEquals("-5,10", AmoType.INT.format(raw));
        assertEquals("4294967291,10", AmoType.UINT32.format(raw));
        assertEquals("47244640251", AmoType.LONG.format(raw));
        byte[] m = new byte[8];
        java.util.Arrays.fill(m, (byte) 0xFF);
        m[0] = (byte) 0xFB;
        assertEquals("-5", AmoType.LONG.format(m));
        assertEquals("18446744073709551611", AmoType.UINT64.format(m));
    }

    @Test
    void teamExpectationsMatchTheQueriesOfTheHeader() {
        for (int n = 1; n <= 8; n++) {
            Team world = new Team(0, 0, 1, n);
            for (int me = 0; me < n; me++) {
                List<Team> teams = new ArrayList<>(DeviceApiExpected.teams(me, n));
                if (n >= 2) {
                    teams.add(new Team(9, 1, 3, (n - 2) / 3 + 1));   // PEs 1, 4, 7, ...
                }
                teams.add(new Team(10, n - 1, 0, 1));              // stride 0
                for (Team t : teams) {
                    // test_team, computed with jshmem_query.h's functions ported to Java
                    int[] device = {DeviceApiExpected.teamIndex(t, me), t.size(), translate(t, 0, world),
                        translate(world, me, t), translate(t, t.size() - 1, world), translate(t, t.size(), world), 0, 0};
                    assertArrayEquals(device, DeviceApiExpected.teamOut(t, me), "n " + n + ", PE " + me + ", " + t);
                }
                assertEquals(0, DeviceApiExpected.teamIndex(DeviceApiExpected.team(4, me, n), me));
            }
        }
        List<Team> set = DeviceApiExpected.teamsToSet(0, 2);
        assertEquals(List.of(2, 3, 4, 5), set.stream().map(Team::slot).toList());
        assertEquals(-1, DeviceApiExpected.teamIndex(DeviceApiExpected.team(5, 1, 2), 1), "PE 1 is not even");
        assertEquals(0, DeviceApiExpected.teamIndex(DeviceApiExpected.team(4, 1, 2), 1), "every PE alone in slot 4");
    }

    /** jshmem_team_translate_pe with both slots in use. */
    private static int translate(Team src, int srcPe, Team dest) {
        if (srcPe < 0 || srcPe >= src.size()) {
            return -1;
        }
        return DeviceApiExpected.teamIndex(dest, src.start() + srcPe * src.stride());
    }

    @Test
    void signalAndBarrierExpectations() {
        assertEquals("1001,2001,3001,4001,5001,6001,12,99,1001,1,-1,-9223372036854775808,-9223372036854775808,0,0,0",
                DeviceApiExpected.join(DeviceApiExpected.signalSeen(0, 2)));
        assertEquals("0:1000,16:2000,32:3000,48:4000,64:5000,80:6000,96:12,112:99,128:-1,144:-9223372036854775808",
                DeviceApiExpected.nonZero(DeviceApiExpected.signalSig(1, 2)));
        assertEquals("0:1000,1:1000", DeviceApiExpected.nonZero(DeviceApiExpected.barrierSlots(new Team(0, 0, 1, 2), 1000)));
        assertEquals("0:100", DeviceApiExpected.nonZero(DeviceApiExpected.barrierSlots(new Team(4, 1, 1, 1), 100)));
        assertEquals(409_600, DeviceApiExpected.contentionTotal(2));
        assertTrue(DeviceApiExpected.contentionTotal(8) < Integer.MAX_VALUE, "N < 2^31 even on 8 PEs");
        for (DeviceApiExpected.BarrierRun r : DeviceApiExpected.BARRIER_RUNS) {
            assertTrue(r.threads() >= 1 && r.threads() <= 64);
        }
    }

    @Test
    void summaryCountsAndLocatesMismatches() {
        byte[] e = DeviceApiExpected.byteSections(6, 100, 1, 0);
        String good = DeviceApiExpected.summary(e, e);
        assertTrue(good.matches("crc=[0-9a-f]{8} bad=0 first=none"), good);
        byte[] g = e.clone();
        g[200] ^= 0x10;
        g[300] ^= 0x01;
        String bad = DeviceApiExpected.summary(g, e);
        assertTrue(bad.endsWith(" bad=2 first=200:" + String.format("%02x/%02x", g[200] & 0xFF, e[200] & 0xFF)), bad);
        assertFalse(bad.startsWith(good.substring(0, 12)), "the CRC differs too");
        assertTrue(DeviceApiExpected.summary(new byte[3], e).contains("length=3"));
    }

    // ---------------------------------------------------------------- against the file and the headers

    @Test
    void everyKernelOfTheFileIsLaunched() {
        String source = DeviceApiKernels.source();
        TreeSet<String> defined = new TreeSet<>(DeviceApiKernels.directKernels(source));
        Map<String, String> rmaTypes = typeList(header("jshmem_rma.h"), "JSHMEM_FOR_RMA_TYPES");
        Map<String, String> amoTypes = typeList(header("jshmem_amo.h"), "JSHMEM_FOR_AMO_TYPES");
        assertTrue(source.contains("JSHMEM_FOR_RMA_TYPES(TEST_RMA_TYPED)"));
        assertTrue(source.contains("JSHMEM_FOR_AMO_TYPES(TEST_AMO_TYPED)"));
        assertTrue(source.contains("JSHMEM_FOR_AMO_TYPES(TEST_WAIT_TYPED)"));
        rmaTypes.keySet().forEach(t -> defined.add("test_rma_" + t));
        amoTypes.keySet().forEach(t -> defined.add("test_amo_" + t));
        amoTypes.keySet().forEach(t -> defined.add("test_wait_" + t));
        assertEquals(defined, new TreeSet<>(DeviceApiExpected.kernelsLaunched()));
        assertTrue(defined.containsAll(List.of("test_query", "test_team", "test_putmem", "test_getmem",
                "test_amo_contention", "test_signal", "test_barrier", "test_debug_trap")), defined.toString());
    }

    @Test
    void typeListsMatchTheHeaders() {
        Map<String, Integer> sizeOf = new HashMap<>(Map.of("char", 1, "short", 2, "int", 4, "long", 8, "long long", 8,
                "float", 4, "double", 8, "uint32_t", 4, "uint64_t", 8, "unsigned long long", 8));
        sizeOf.put("size_t", 8);
        Map<String, String> rma = typeList(header("jshmem_rma.h"), "JSHMEM_FOR_RMA_TYPES");
        Map<String, String> ours = new LinkedHashMap<>();
        for (RmaType t : RmaType.values()) {
            ours.put(t.cname, t.cname);
            assertEquals(sizeOf.get(rma.get(t.cname)), t.size, t.cname);
        }
        assertEquals(List.copyOf(rma.keySet()), List.copyOf(ours.keySet()));
        Map<String, String> amo = typeList(header("jshmem_amo.h"), "JSHMEM_FOR_AMO_TYPES");
        List<String> amoOurs = new ArrayList<>();
        for (AmoType t : AmoType.values()) {
            amoOurs.add(t.cname);
            String c = amo.get(t.cname);
            assertEquals(sizeOf.get(c), t.size, t.cname);
            assertEquals(!c.startsWith("u"), t.signed, t.cname);
        }
        assertEquals(List.copyOf(amo.keySet()), amoOurs);
    }

    @Test
    void trapLinesAreTheDocumentedOnesInTheHeadersFormat() {
        String source = DeviceApiKernels.source();
        String debugHeader = header("jshmem_debug.h");
        // the documented starts of the lines: '<case>: "<text>"' in test_debug_trap's block
        Matcher m = Pattern.compile("^ \\*\\s+(\\d): \"(.*)\"$", Pattern.MULTILINE).matcher(source);
        Map<Integer, String> documented = new HashMap<>();
        while (m.find()) {
            documented.put(Integer.parseInt(m.group(1)), m.group(2));
        }
        assertEquals(DeviceApiExpected.TRAP_CASES, documented.size(), documented.toString());
        // jshmemi_bad(e, "<arg>" or the caller's arg, "<what>", ...)
        Pattern bad = Pattern.compile("jshmemi_bad\\(e, (?:\"(\\w+)\"|arg), \"([^\"]*)\"");
        for (int n : new int[] {2, 3}) {
            for (int me = 0; me < n; me++) {
                for (int which = 0; which < DeviceApiExpected.TRAP_CASES; which++) {
                    String doc = documented.get(which).replace("<n>", Integer.toString(n))
                            .replace("<me>", Integer.toString(me))
                            .replace("<right>", Integer.toString(DeviceApiExpected.right(me, n)));
                    String prefix = DeviceApiExpected.trapPrefix(which, me, n);
                    String line = DeviceApiExpected.trapLine(which, me, n, 2L << 20, (2L << 20) + (64L << 20));
                    assertTrue(line.startsWith(prefix), line + " starts with " + prefix);
                    if (which == 2) {
                        // documented as "... address not naturally aligned (PE <right>, "; the header's
                        // text adds "(bytes = alignment)" before the PE
                        String head = doc.substring(0, doc.indexOf(" (PE "));
                        assertEquals(head, prefix);
                        assertTrue(line.contains(doc.substring(doc.indexOf(" (PE ")).trim()), line);
                    } else {
                        assertEquals(doc, prefix);
                    }
                    // "<arg>: <what>" is one of the header's jshmemi_bad(e, "<arg>", "<what>", ...)
                    String afterFn = line.substring("jshmem: ".length());
                    afterFn = afterFn.substring(afterFn.indexOf(": ") + 2, afterFn.indexOf(" (PE "));
                    Matcher b = bad.matcher(debugHeader);
                    boolean found = false;
                    while (b.find()) {
                        String arg = afterFn.substring(0, afterFn.indexOf(": "));
                        String what = afterFn.substring(arg.length() + 2);
                        boolean argOk = b.group(1) != null ? arg.equals(b.group(1)) : Set.of("dest", "source").contains(arg);
                        found |= argOk && what.equals(b.group(2));
                    }
                    assertTrue(found, "jshmem_debug.h reports \"" + afterFn + "\"");
                }
            }
        }
        assertTrue(debugHeader.contains("printf(\"jshmem: %s: %s: %s (PE %d, n_pes %d / offset %lld, bytes %llu, "
                + "heap_size %llu)\\n\""), "the line format trapLine follows");
    }

    @Test
    void theTrapKernelAloneIsTheFilePreambleAndItsSection() {
        String source = DeviceApiKernels.source();
        String only = DeviceApiKernels.only(source, "test_debug_trap");
        assertTrue(only.startsWith(DeviceApiKernels.preamble(source)));
        assertTrue(only.contains("#include <jshmem/jshmem.h>"));
        assertTrue(only.contains("static __device__ int right_pe()"));
        assertTrue(only.contains("extern \"C\" __global__ void test_debug_trap(int *sym, int which)"));
        assertFalse(only.contains("test_putmem") || only.contains("TEST_RMA_TYPED") || only.contains("test_barrier("));
        // every section but the preamble's helpers, and every direct kernel in exactly one section
        List<String> sections = DeviceApiKernels.sections(source);
        assertEquals(source, DeviceApiKernels.preamble(source) + String.join("", sections));
        for (String k : DeviceApiKernels.directKernels(source)) {
            String decl = "extern \"C\" __global__ void " + k + "(";
            assertEquals(1, sections.stream().filter(s -> s.contains(decl)).count(), k);
        }
    }

    /** X(name, C type) entries of a type-list macro, in order. */
    private static Map<String, String> typeList(String header, String macro) {
        int at = header.indexOf("#define " + macro + "(X)");
        assertTrue(at >= 0, macro);
        Map<String, String> out = new LinkedHashMap<>();
        Matcher m = Pattern.compile("X\\((\\w+), ([\\w ]+)\\)").matcher(header);
        m.region(at, header.length());
        int end = at;
        while (m.find() && header.substring(end, m.start()).lines().count() <= 2) {
            out.put(m.group(1), m.group(2).trim());
            end = m.end();
        }
        return out;
    }

    /** A device header, from the shmem-device jar's resources. */
    private static String header(String name) {
        return DeviceApiKernels.resource("/META-INF/jshmem/include/jshmem/" + name);
    }
}
