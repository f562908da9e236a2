package org.jshmem.it.coll;

import static org.jshmem.it.PeProgram.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jshmem.DType;
import org.jshmem.ReduceOp;
import org.jshmem.Shmem;
import org.jshmem.SymmetricSegment;
import org.jshmem.Team;
import org.jshmem.it.LocalCopy;

/**
 * Misuse of teams and collectives, each tried by every PE with the same arguments: reports
 * {@code PE <n> err.<case> <ExceptionClass>: <message>} (or {@code none}). Then team slots:
 * how many splits fit, and splitting and destroying many times over. With argument
 * {@code mismatch} (run with {@code JSHMEM_DEBUG=1}) the PEs instead pass different arguments.
 */
public final class TeamErrorsProgram {
    private final Shmem shmem;
    private final int me;
    private final int n;

    private TeamErrorsProgram(Shmem shmem) {
        this.shmem = shmem;
        this.me = shmem.myPe();
        this.n = shmem.nPes();
    }

    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init()) {
            TeamErrorsProgram p = new TeamErrorsProgram(shmem);
            if (args.length > 0 && args[0].equals("mismatch")) {
                p.mismatches();
            } else {
                p.errors();
                p.slots();
                p.nonMemberCloses();
            }
            report(shmem.myPe(), "done", "ok");
        }
    }

    private void attempt(String name, Runnable action) {
        String outcome = "none";
        try {
            action.run();
        } catch (RuntimeException e) {
            outcome = e.getClass().getSimpleName() + ": " + e.getMessage();
        }
        report(me, "err." + name, outcome.replace('\n', ' '));
    }

    private void errors() {
        Team world = shmem.teamWorld();
        SymmetricSegment a = shmem.malloc(4096);
        SymmetricSegment b = shmem.malloc(4096);
        SymmetricSegment tiny = shmem.malloc(16);
        attempt("rootOutOfRange", () -> world.broadcast(a, b, 4, n, DType.LONG));
        attempt("rootNegative", () -> world.broadcast(a, b, 4, -1, DType.LONG));
        attempt("bitwiseOnFloat", () -> world.reduce(ReduceOp.AND, DType.FLOAT, a, b, 4));
        attempt("bitwiseOnBf16", () -> world.reduce(ReduceOp.XOR, DType.BF16, a, b, 4));
        attempt("reduceDestTooSmall", () -> world.reduce(ReduceOp.SUM, DType.LONG, tiny, b, 3));
        attempt("fcollectDestTooSmall", () -> world.fcollect(a.asSlice(0, 8L * 100), b, 100, DType.LONG));
        attempt("alltoallSrcTooSmall", () -> world.alltoall(a, b.asSlice(0, 8L * 100), 100, DType.LONG));
        attempt("fcollectOverlap", () -> world.fcollect(a, a.asSlice(0, 64), 8, DType.LONG));
        attempt("reducePartialOverlap", () -> world.reduce(ReduceOp.SUM, DType.LONG, a.asSlice(8, 64), a.asSlice(0, 64), 8));
        attempt("negativeCount", () -> world.reduce(ReduceOp.SUM, DType.INT, a, b, -1));
        attempt("reduceScatterSrcTooSmall", () -> world.reduceScatter(ReduceOp.SUM, DType.LONG, a, b.asSlice(0, 8L * 100), 100));
        attempt("reduceScatterDestTooSmall", () -> world.reduceScatter(ReduceOp.SUM, DType.LONG, tiny, b, 3));
        attempt("reduceScatterOverlap", () -> world.reduceScatter(ReduceOp.SUM, DType.LONG, a.asSlice(0, 64), a, 8));
        attempt("reduceScatterBitwiseOnFloat", () -> world.reduceScatter(ReduceOp.OR, DType.DOUBLE, a, b, 4));
        attempt("reduceScatterNullOp", () -> world.reduceScatter(null, DType.LONG, a, b, 4));
        attempt("nullType", () -> world.fcollect(a, b, 1, null));
        attempt("splitOutside", () -> world.splitStrided(0, 2, n));
        attempt("splitEmpty", () -> world.splitStrided(0, 1, 0));
        attempt("split2dZero", () -> world.split2d(0));
        attempt("worldPeOutOfRange", () -> world.worldPe(n));
        attempt("translateOutOfRange", () -> world.translatePe(-1, shmem.teamShared()));
        attempt("useAfterDestroy", () -> {
            Team t = world.splitStrided(0, 1, n).orElseThrow();
            t.close();
            t.close();   // twice: nothing
            t.sync();
        });
        attempt("freedSegment", () -> {
            SymmetricSegment f = shmem.malloc(64);
            shmem.free(f);
            world.reduce(ReduceOp.SUM, DType.LONG, a, f, 1);
        });
        // every PE contributes me+1 longs: the total does not fit a destination of 8 bytes (n > 1)
        attempt("collectTooSmall", () -> world.collect(tiny.asSlice(0, 8), b.asSlice(0, 8L * (me + 1)), me + 1, DType.LONG));
        attempt("closeWorld", () -> {
            world.close();
            shmem.teamShared().close();
            world.sync();
        });
        // membership: PE 1 alone (or PE 0 on one PE)
        Optional<Team> single = world.splitStrided(n > 1 ? 1 : 0, 1, 1);
        report(me, "member.single", single.map(t -> t.myPe() + "/" + t.nPes() + "/" + t.worldPe(0)).orElse("empty"));
        single.ifPresent(Team::close);
        // still in step after all that: a sum over every PE
        LocalCopy.writeLong(shmem, a, 0, me + 1);
        world.reduce(ReduceOp.SUM, DType.LONG, b, a, 1);
        report(me, "afterErrors.sum", LocalCopy.readLong(shmem, b, 0));
        shmem.free(tiny);
        shmem.free(b);
        shmem.free(a);
    }

    /** How many teams fit, and that slots are reused correctly many times over. */
    private void slots() {
        Team world = shmem.teamWorld();
        List<Team> made = new ArrayList<>();
        String failure = "none";
        try {
            for (int i = 0; i < 100; i++) {
                made.add(world.splitStrided(0, 1, n).orElseThrow());
            }
        } catch (RuntimeException e) {
            failure = e.getClass().getSimpleName() + ": " + e.getMessage();
        }
        report(me, "slots.made", made.size());
        report(me, "slots.failure", failure);
        for (int i = made.size() - 1; i >= 0; i -= 2) {   // free every other one, from the end
            made.remove(i).close();
        }
        SymmetricSegment a = shmem.malloc(64);
        SymmetricSegment b = shmem.malloc(64);
        long sum = 0;
        for (int round = 0; round < 200; round++) {
            // alternate between a team of everyone and a team of the odd PEs, and a 2D split
            Optional<Team> t = round % 3 == 0 ? world.splitStrided(n > 1 ? 1 : 0, 2, n > 1 ? n / 2 : 1)
                    : Optional.of(world.splitStrided(0, 1, n).orElseThrow());
            if (round % 3 == 2) {
                try (Team.Split2d s = world.split2d(2)) {
                    LocalCopy.writeLong(shmem, a, 0, round + me);
                    s.y().reduce(ReduceOp.MAX, DType.LONG, b, a, 1);
                    sum += LocalCopy.readLong(shmem, b, 0);
                    s.x().sync();
                }
            }
            if (t.isPresent()) {
                try (Team team = t.get()) {
                    LocalCopy.writeLong(shmem, a, 0, round * 10L + team.worldPe(team.myPe()));
                    team.reduce(ReduceOp.SUM, DType.LONG, b, a, 1);
                    sum += LocalCopy.readLong(shmem, b, 0);
                    team.fcollect(b, a, 1, DType.LONG);
                    sum += LocalCopy.readLong(shmem, b, 8L * (team.nPes() - 1));
                }
            }
        }
        report(me, "slots.reuseSum", sum);
        for (Team t : made) {
            t.close();
        }
        shmem.free(b);
        shmem.free(a);
    }

    /** A PE outside a team closes jshmem while the team's members still wait for each other. */
    private void nonMemberCloses() {
        if (n < 3) {
            return;
        }
        Optional<Team> pair = shmem.teamWorld().splitStrided(0, 1, 2);
        if (pair.isEmpty()) {
            return;   // PEs 2..n-1 go on to close() at once
        }
        try (Team t = pair.get()) {
            for (int i = 0; i < 2; i++) {
                if (t.myPe() == 0) {
                    sleep(300);   // longer than the liveness interval: PE 1 waits, sees PE 2 closing
                }
                t.sync();
            }
            report(me, "nonMemberCloses", "ok");
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** With JSHMEM_DEBUG=1, on 3 PEs: calls that differ between PEs. */
    private void mismatches() {
        Team world = shmem.teamWorld();
        SymmetricSegment a = shmem.malloc(4096);
        SymmetricSegment b = shmem.malloc(4096);
        attempt("count", () -> world.reduce(ReduceOp.SUM, DType.LONG, b, a, me == 2 ? 5 : 4));
        attempt("kind", () -> {
            if (me == 0) {
                world.broadcast(b, a, 4, 0, DType.INT);
            } else {
                world.fcollect(b, a, 4, DType.INT);
            }
        });
        attempt("split", () -> world.splitStrided(0, 1, me == 0 ? 2 : 3).ifPresent(Team::close));
        Optional<Team> pair = world.splitStrided(1, 1, 2);
        if (pair.isPresent()) {
            try (Team t = pair.get()) {
                attempt("subteamOp", () -> t.reduce(me == 2 ? ReduceOp.MAX : ReduceOp.SUM, DType.INT, b, a, 4));
                attempt("subteamSame", () -> t.reduce(ReduceOp.SUM, DType.INT, b, a, 4));
            }
        }
        // a matching call still works after the mismatches
        LocalCopy.writeLong(shmem, a, 0, me + 1);
        world.reduce(ReduceOp.SUM, DType.LONG, b, a, 1);
        report(me, "afterMismatch.sum", LocalCopy.readLong(shmem, b, 0));
        shmem.free(b);
        shmem.free(a);
    }
}
