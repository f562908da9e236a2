package org.jshmem.it;

import static org.jshmem.it.PeProgram.report;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicReference;
import org.jshmem.Cmp;
import org.jshmem.ContextOption;
import org.jshmem.DType;
import org.jshmem.MallocHint;
import org.jshmem.SessionHints;
import org.jshmem.Shmem;
import org.jshmem.ShmemContext;
import org.jshmem.SignalOp;
import org.jshmem.SymmetricSegment;
import org.jshmem.Team;
import org.jshmem.TeamConfig;
import org.jshmem.ThreadLevel;

/**
 * The OpenSHMEM 1.5 calls beyond the core set, on every PE, reporting what each saw; {@link CompletenessTest}
 * computes what each PE must report. The thread level comes from {@code TEST_THREAD_LEVEL}
 * (SERIALIZED by default). Neighbours: {@code right = me+1}, {@code left = me-1} (mod nPes).
 */
public final class CompletenessProgram {
    static final int LOCK_ROUNDS = 200;
    static final int THREAD_LONGS = 1000;

    public static void main(String[] args) throws Exception {
        ThreadLevel level = ThreadLevel.valueOf(System.getenv().getOrDefault("TEST_THREAD_LEVEL", "SERIALIZED"));
        try (Shmem shmem = Shmem.init(level)) {
            int me = shmem.myPe();
            int n = shmem.nPes();
            report(me, "pid", ProcessHandle.current().pid());
            report(me, "gpu", shmem.describe().contains("GPU"));
            info(shmem, me);
            threads(shmem, me, (me + 1) % n);
            if (level == ThreadLevel.FUNNELED) {
                return;   // the run that checks the FUNNELED promise (JSHMEM_DEBUG=1) stops here
            }
            contexts(shmem, me, n);
            direct(shmem, me, n);
            atomics(shmem, me, n);
            vectorWaits(shmem, me, n);
            locks(shmem, me, n);
            heap(shmem, me);
            alltoalls(shmem, me, n);
        }
    }

    /** The simple name of what {@code call} throws, or "none". */
    private static String attempt(Runnable call) {
        try {
            call.run();
            return "none";
        } catch (RuntimeException e) {
            return e.getClass().getSimpleName();
        }
    }

    static void info(Shmem s, int me) {
        report(me, "info.spec", Shmem.specVersion());
        report(me, "info.vendor", Shmem.vendorString().startsWith("jshmem "));
        report(me, "info.thread", s.queryThread());
        report(me, "info.worldConfig", s.teamWorld().config().numContexts());
    }

    /** A put from a thread other than the one that called init (refused under FUNNELED with JSHMEM_DEBUG=1). */
    static void threads(Shmem s, int me, int right) throws InterruptedException {
        SymmetricSegment seg = s.calloc(1, Long.BYTES);
        report(me, "thread.other", outcome(() -> {
            Thread t = new Thread(() -> s.pLong(seg, 0, 1, right), "helper");
            AtomicReference<Throwable> failure = new AtomicReference<>();
            t.setUncaughtExceptionHandler((th, e) -> failure.set(e));
            t.start();
            t.join();
            if (failure.get() != null) {
                throw (RuntimeException) failure.get();
            }
            return "ok";
        }));
        s.barrierAll();
        s.free(seg);
    }

    // ------------------------------------------------------------------ contexts

    static void contexts(Shmem s, int me, int n) throws InterruptedException {
        int right = (me + 1) % n;
        SymmetricSegment data = s.calloc(2 * THREAD_LONGS + 8, Long.BYTES);
        try (ShmemContext ctx = s.createContext()) {
            ctx.put(data, 0, new long[] {me * 10L + 1, me * 10L + 2}, 0, 2, right);
            ctx.quiet();
            report(me, "ctx.options", ctx.options());
            report(me, "ctx.isDefault", ctx.isDefault());
            report(me, "ctx.team", ctx.team() == s.teamWorld());
        }
        s.barrierAll();
        report(me, "ctx.put", Arrays.toString(getLongs(s, data, 0, 2)));

        // a session (OpenSHMEM 1.6) of same-operation atomics: one increment of every PE's counter
        SymmetricSegment counter = s.calloc(1, Long.BYTES);
        try (ShmemContext ctx = s.createContext()) {
            ctx.sessionStart(new SessionHints(true, OptionalLong.of(n)));
            report(me, "session.twice", attempt(() -> ctx.sessionStart(SessionHints.NONE)));
            report(me, "session.open", ctx.session().map(SessionHints::sameAmo).orElse(false));
            for (int k = 0; k < n; k++) {
                ctx.atomicAddLong(counter, 0, 1, (me + k) % n);
            }
            ctx.sessionStop();
            ctx.quiet();   // sessionStop does not complete the session's operations
            report(me, "session.stopTwice", attempt(ctx::sessionStop));
        }
        s.barrierAll();
        report(me, "session.counter", s.atomicFetchLong(counter, 0, me));
        s.barrierAll();
        s.free(counter);

        // two threads, a private context each, each putting its own region to the right
        Thread[] threads = new Thread[2];
        AtomicReference<Throwable> failure = new AtomicReference<>();
        for (int t = 0; t < 2; t++) {
            int region = t;
            threads[t] = new Thread(() -> {
                try (ShmemContext ctx = s.createContext(ContextOption.PRIVATE)) {
                    long[] values = new long[THREAD_LONGS];
                    for (int i = 0; i < THREAD_LONGS; i++) {
                        values[i] = me * 1_000_000L + region * 10_000L + i;
                    }
                    ctx.putNbi(data, 16 + (long) region * THREAD_LONGS * Long.BYTES, values, 0, THREAD_LONGS, right);
                    ctx.quiet();
                } catch (Throwable e) {
                    failure.set(e);
                }
            }, "ctx-" + t);
            threads[t].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        report(me, "ctx.threads", failure.get() == null ? "ok" : failure.get().toString());
        s.barrierAll();
        long[] got = getLongs(s, data, 16, 2 * THREAD_LONGS);
        long bad = 0;
        int left = (me + n - 1) % n;
        for (int i = 0; i < got.length; i++) {
            bad += got[i] == left * 1_000_000L + (i / THREAD_LONGS) * 10_000L + i % THREAD_LONGS ? 0 : 1;
        }
        report(me, "ctx.threadsWrong", bad);

        ShmemContext closed = s.createContext(ContextOption.SERIALIZED, ContextOption.NOSTORE);
        closed.close();
        closed.close();   // twice is allowed
        report(me, "ctx.afterClose", outcome(() -> {
            closed.pLong(data, 0, 1, me);
            return "ok";
        }));
        report(me, "ctx.closeDefault", outcome(() -> {
            s.defaultContext().close();
            return "ok";
        }));
        report(me, "ctx.defaultIsDefault", s.defaultContext().isDefault());
        s.barrierAll();

        // a team context: PE numbers are the team's. The team: world PEs 1..n-1 (all PEs with one PE).
        int first = n > 1 ? 1 : 0;
        Optional<Team> team = s.teamWorld().splitStrided(first, 1, n - first, new TeamConfig(2));
        ShmemContext tctx = null;
        if (team.isPresent()) {
            Team t = team.get();
            report(me, "team.config", t.config().numContexts());
            tctx = t.createContext();
            report(me, "team.ctxTeam", tctx.team() == t);
            report(me, "team.ptr", t.ptr(data, 0).map(MemorySegment::byteSize).orElse(-1L));
            tctx.pLong(data, 8L * t.myPe(), 100 + me, 0);   // to team PE 0 = world PE `first`
            tctx.quiet();
            report(me, "team.badPe", outcome(() -> {
                t.createContext().pLong(data, 0, 0, t.nPes());
                return "ok";
            }));
        }
        s.barrierAll();
        if (me == first) {
            report(me, "team.ctxPut", Arrays.toString(getLongs(s, data, 0, n - first)));
        }
        s.barrierAll();
        team.ifPresent(Team::close);
        if (tctx != null) {
            ShmemContext dead = tctx;
            report(me, "team.ctxAfterTeamClose", outcome(() -> {
                dead.pLong(data, 0, 0, 0);
                return "ok";
            }));
        }
        s.barrierAll();
        s.free(data);
    }

    // ------------------------------------------------------------------ ptr, addrAccessible

    static void direct(Shmem s, int me, int n) {
        int right = (me + 1) % n;
        SymmetricSegment seg = s.calloc(4, Long.BYTES);
        Optional<MemorySegment> p = s.ptr(seg, right);
        report(me, "ptr.present", p.isPresent());
        p.ifPresent(m -> m.set(ValueLayout.JAVA_LONG, 8, 500 + me));
        s.barrierAll();
        report(me, "ptr.seen", p.isPresent() ? s.gLong(seg, 8, me) : -1);
        report(me, "ptr.size", p.map(MemorySegment::byteSize).orElse(-1L));
        report(me, "addr.accessible", s.addrAccessible(seg, right));
        report(me, "addr.badPe", s.addrAccessible(seg, n) || s.addrAccessible(seg, -1) || s.peAccessible(n));
        report(me, "pe.accessible", s.peAccessible(right));
        s.free(seg);
        report(me, "addr.freed", s.addrAccessible(seg, right));
    }

    // ------------------------------------------------------------------ atomics, signalOp

    static void atomics(Shmem s, int me, int n) {
        int right = (me + 1) % n;
        int left = (me + n - 1) % n;
        SymmetricSegment a = s.calloc(8, Long.BYTES);
        s.atomicSetFloat(a, 0, me + 0.5f, right);
        s.atomicSetDouble(a, 8, me + 0.25, right);
        s.barrierAll();
        report(me, "amo.fetchFloat", s.atomicFetchFloat(a, 0, me));
        report(me, "amo.swapDouble", s.atomicSwapDouble(a, 8, -1.5, me));
        report(me, "amo.fetchDouble", s.atomicFetchDouble(a, 8, me));
        report(me, "amo.swapFloat", s.atomicSwapFloat(a, 0, 2.75f, me));
        s.barrierAll();

        try (Arena arena = Arena.ofConfined()) {
            MemorySegment fetch = arena.allocate(64);
            fetch.fill((byte) 0x55);
            s.atomicFetchAddLongNbi(fetch, a, 16, me + 1, right);
            s.atomicCompareSwapIntNbi(fetch.asSlice(8), a, 24, 0, 7, right);
            s.atomicFetchIncIntNbi(fetch.asSlice(16), a, 28, right);
            s.atomicSwapDoubleNbi(fetch.asSlice(24), a, 8, 9.0, me);     // own: -1.5 before
            s.atomicFetchFloatNbi(fetch.asSlice(32), a, 0, me);           // own: 2.75
            s.quiet();
            report(me, "nbi.fetchAdd", fetch.get(ValueLayout.JAVA_LONG, 0));
            report(me, "nbi.compareSwap", fetch.get(ValueLayout.JAVA_INT, 8));
            report(me, "nbi.fetchInc", fetch.get(ValueLayout.JAVA_INT, 16));
            report(me, "nbi.swapDouble", fetch.get(ValueLayout.JAVA_DOUBLE, 24));
            report(me, "nbi.fetchFloat", fetch.get(ValueLayout.JAVA_FLOAT, 32));
            MemorySegment small = arena.allocate(4);
            report(me, "nbi.smallFetch", outcome(() -> {
                s.atomicFetchAddLongNbi(small, a, 16, 1000, right);
                return "ok";
            }));
            s.barrierAll();
            report(me, "nbi.counter", s.atomicFetchLong(a, 16, me));   // left added left+1, the failed call nothing
            report(me, "nbi.cas", s.atomicFetchInt(a, 24, me) + "," + s.atomicFetchInt(a, 28, me));
        }

        SymmetricSegment sig = s.calloc(1, Long.BYTES);
        s.signalOp(sig, 0, 10, SignalOp.SET, right);
        s.fence();
        s.signalOp(sig, 0, 5, SignalOp.ADD, right);
        report(me, "signalOp.wait", s.signalWaitUntil(sig, 0, Cmp.EQ, 15));
        s.barrierAll();
        s.signalSet(sig, 0, 100, right);   // the OpenSHMEM 1.6 names
        s.fence();
        s.signalAdd(sig, 0, 7, right);
        report(me, "signalSetAdd.wait", s.signalWaitUntil(sig, 0, Cmp.EQ, 107));
        s.barrierAll();
        s.free(sig);
        s.free(a);
    }

    // ------------------------------------------------------------------ vector waits

    static void vectorWaits(Shmem s, int me, int n) {
        int right = (me + 1) % n;
        SymmetricSegment longs = s.calloc(4, Long.BYTES);
        SymmetricSegment ints = s.calloc(4, Integer.BYTES);
        for (int i = 0; i < 4; i++) {
            s.pInt(ints, 4L * i, 10 * (i + 1), right);
        }
        s.fence();   // whoever sees the longs sees the ints (blocking p's alone are not ordered: remote transport)
        for (int i = 0; i < 4; i++) {
            s.pLong(longs, 8L * i, i + 1, right);
        }
        s.quiet();
        s.waitUntilAllVectorLong(longs, 0, 4, null, Cmp.EQ, new long[] {1, 2, 3, 4});
        report(me, "vec.allDone", true);
        report(me, "vec.anyInt", s.waitUntilAnyVectorInt(ints, 0, 4, new boolean[] {true, false, false, false},
                Cmp.GE, new int[] {0, 99, 30, 99}));
        report(me, "vec.someInt", Arrays.toString(s.waitUntilSomeVectorInt(ints, 0, 4, null, Cmp.LT,
                new int[] {11, 20, 31, 40})));
        report(me, "vec.testAllFalse", s.testAllVectorLong(longs, 0, 4, null, Cmp.EQ, new long[] {1, 2, 3, 5}));
        report(me, "vec.testAllMasked", s.testAllVectorLong(longs, 0, 4, new boolean[] {false, true, false, true},
                Cmp.EQ, new long[] {1, 9, 3, 9}));
        report(me, "vec.testAny", s.testAnyVectorLong(longs, 0, 4, null, Cmp.EQ, new long[] {9, 2, 9, 9}));
        report(me, "vec.testSome", Arrays.toString(s.testSomeVectorLong(longs, 0, 4, null, Cmp.EQ,
                new long[] {1, 9, 3, 9})));
        report(me, "vec.testSomeInt", Arrays.toString(s.testSomeVectorInt(ints, 0, 4, null, Cmp.NE,
                new int[] {10, 0, 30, 0})));
        report(me, "vec.shortValues", outcome(() -> {
            s.testAllVectorInt(ints, 0, 4, null, Cmp.EQ, new int[] {1, 2});
            return "ok";
        }));
        s.barrierAll();
        s.free(ints);
        s.free(longs);
    }

    // ------------------------------------------------------------------ locks

    static void locks(Shmem s, int me, int n) {
        SymmetricSegment lock = s.calloc(2, Long.BYTES);
        SymmetricSegment counter = s.calloc(1, Long.BYTES);
        for (int i = 0; i < LOCK_ROUNDS; i++) {
            s.setLock(lock, 0);
            long v = s.gLong(counter, 0, 0);   // read-modify-write with plain get/put: only the lock makes it exact
            s.pLong(counter, 0, v + 1, 0);
            s.clearLock(lock, 0);
        }
        s.barrierAll();
        report(me, "lock.counter", s.gLong(counter, 0, 0));
        if (me == 0) {
            s.setLock(lock, 0);
        }
        s.barrierAll();
        report(me, "lock.testWhileHeld", me == 0 ? "holder" : String.valueOf(s.testLock(lock, 0)));
        s.barrierAll();
        if (me == 0) {
            s.clearLock(lock, 0);
        }
        s.barrierAll();
        if (me == n - 1) {
            boolean got = s.testLock(lock, 0);
            report(me, "lock.testWhenFree", got);
            if (got) {
                s.clearLock(lock, 0);
            }
        }
        report(me, "lock.misaligned", outcome(() -> {
            s.setLock(lock, 4);
            return "ok";
        }));
        s.barrierAll();
        s.free(counter);
        s.free(lock);
    }

    // ------------------------------------------------------------------ realloc, hints

    static void heap(Shmem s, int me) {
        long start = LocalCopy.heapStart(s);
        SymmetricSegment a = s.malloc(1000);
        s.put(a, 0, pattern(me, 1000), 0, 1000, me);
        s.quiet();
        SymmetricSegment grown = s.realloc(a, 3000);                 // the heap after a is free: in place
        report(me, "realloc.inPlace", grown.heapOffset() == a.heapOffset());
        report(me, "realloc.oldUnusable", outcome(() -> {
            s.pByte(a, 0, (byte) 1, me);
            return "ok";
        }));
        SymmetricSegment blocker = s.mallocWithHints(64, MallocHint.ATOMICS_REMOTE, MallocHint.SIGNAL_REMOTE);
        report(me, "hints.size", blocker.byteSize());
        SymmetricSegment moved = s.realloc(grown, 100_000);           // blocked by the next block: moves
        report(me, "realloc.moved", moved.heapOffset() != grown.heapOffset());
        report(me, "realloc.offset", moved.heapOffset() - start);
        report(me, "realloc.keptMoved", Arrays.equals(getBytes(s, moved, 1000), pattern(me, 1000)));
        SymmetricSegment shrunk = s.realloc(moved, 10);
        report(me, "realloc.shrunkInPlace", shrunk.heapOffset() == moved.heapOffset());
        report(me, "realloc.keptShrunk", Arrays.equals(getBytes(s, shrunk, 10), pattern(me, 10)));
        report(me, "realloc.tooBig", outcome(() -> s.realloc(shrunk, 2 * s.heapSize())));
        report(me, "realloc.stillUsable", Arrays.equals(getBytes(s, shrunk, 10), pattern(me, 10)));
        s.free(shrunk);
        s.free(blocker);
    }

    // ------------------------------------------------------------------ alltoalls

    static void alltoalls(Shmem s, int me, int n) {
        int nelems = 2;
        int dst = 2;
        int sst = 3;
        long srcCount = (long) sst * (n * nelems - 1) + 1;
        long dstCount = (long) dst * (n * nelems - 1) + 1;
        SymmetricSegment src = s.malloc(srcCount * 8);
        SymmetricSegment dest = s.calloc(dstCount, 8);
        long[] values = new long[(int) srcCount];
        Arrays.fill(values, -1);
        for (int j = 0; j < n; j++) {
            for (int k = 0; k < nelems; k++) {
                values[sst * (j * nelems + k)] = me * 100L + j * 10L + k;
            }
        }
        s.put(src, 0, values, 0, values.length, me);
        s.barrierAll();
        s.teamWorld().alltoalls(dest, src, dst, sst, nelems, DType.LONG);
        report(me, "alltoalls", Arrays.toString(getLongs(s, dest, 0, (int) dstCount)));
        report(me, "alltoalls.badStride", outcome(() -> {
            s.teamWorld().alltoalls(dest, src, 0, 1, 1, DType.LONG);
            return "ok";
        }));
        s.free(dest);
        s.free(src);
    }

    // ------------------------------------------------------------------ helpers

    static byte[] pattern(int me, int length) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) (me * 31 + i * 7);
        }
        return b;
    }

    static long[] getLongs(Shmem s, SymmetricSegment seg, long offset, int count) {
        long[] out = new long[count];
        s.get(out, 0, count, seg, offset, s.myPe());
        return out;
    }

    static byte[] getBytes(Shmem s, SymmetricSegment seg, int count) {
        byte[] out = new byte[count];
        s.get(out, 0, count, seg, 0, s.myPe());
        return out;
    }

    /** "ok" or the exception's simple class name. */
    static String outcome(ThrowingSupplier<?> action) {
        try {
            Object r = action.get();
            return r instanceof String str ? str : "ok";
        } catch (Exception e) {
            return e.getClass().getSimpleName();
        }
    }

    interface ThrowingSupplier<T> {
        T get() throws Exception;
    }
}
