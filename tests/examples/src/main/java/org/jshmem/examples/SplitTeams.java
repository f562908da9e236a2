package org.jshmem.examples;

import org.jshmem.DType;
import org.jshmem.ReduceOp;
import org.jshmem.Shmem;
import org.jshmem.SymmetricSegment;
import org.jshmem.Team;

/**
 * Collectives on sub-teams: a strided split and a 2D split of the world team.
 *
 * <p>First the even-numbered PEs form a team with {@code splitStrided(0, 2, ...)}: they sum their
 * PE numbers with {@code reduce}, and their team PE 0 sends them all a few settings with
 * {@code broadcast}. The odd PEs are not in that team and make none of its calls. Then
 * {@code split2d} puts every PE in a grid: its row team and its column team. Summing along the rows,
 * then summing those row sums down the columns, gives every PE the sum over the whole grid: an
 * all-reduce in two steps, as large jobs do (inside a node, then across nodes).
 *
 * <p>Run on 4 PEs (any number works):
 * <pre>bin/jshmemrun -np 4 -cp tests/examples/target/jshmem-examples-0.1.0-SNAPSHOT.jar org.jshmem.examples.SplitTeams</pre>
 */
public final class SplitTeams {

    public static void main(String[] args) {
        boolean ok;
        try (Shmem shmem = Shmem.init()) {
            int me = shmem.myPe();
            int n = shmem.nPes();
            Team world = shmem.teamWorld();

            // Symmetric memory is allocated by every PE of the job, members of a sub-team or not.
            SymmetricSegment mine = shmem.malloc(Long.BYTES);
            SymmetricSegment sum = shmem.malloc(Long.BYTES);
            SymmetricSegment settings = shmem.malloc(4 * Long.BYTES);
            SymmetricSegment rowSum = shmem.malloc(Long.BYTES);
            shmem.pLong(mine, 0, me, me);
            StringBuilder line = new StringBuilder("PE " + me + " of " + n + ":");
            boolean evensOk = true;

            // The even PEs 0, 2, 4, ... : world PEs start + i * stride for i < size. Every world PE
            // calls the split; the members get the team, the others an empty Optional (null here).
            int evenCount = (n + 1) / 2;
            try (Team evens = world.splitStrided(0, 2, evenCount).orElse(null)) {
                if (evens != null) {
                    evens.reduce(ReduceOp.SUM, DType.LONG, sum, mine, 1);
                    long expected = (long) (evenCount - 1) * evenCount;   // 0 + 2 + ... + 2(evenCount-1)
                    long got = shmem.gLong(sum, 0, me);

                    // team PE 0 (world PE 0) fills the settings, and broadcast copies them to every member
                    if (evens.myPe() == 0) {
                        shmem.put(settings, 0, new long[] {1024, 7, got, -1}, 0, 4, me);
                    }
                    evens.broadcast(settings, settings, 4, 0, DType.LONG);
                    long[] received = new long[4];
                    shmem.get(received, 0, 4, settings, 0, me);
                    evensOk = got == expected && received[0] == 1024 && received[1] == 7 && received[2] == expected;
                    line.append(String.format(" evens team PE %d of %d, sum %d (expected %d), broadcast %s;",
                            evens.myPe(), evens.nPes(), got, expected, received[2] == expected ? "OK" : "WRONG"));
                } else {
                    line.append(" not in the evens team;");
                }
            }   // closing a team frees its slot (at most 64 teams exist at once); null is not closed

            // A grid with two PEs a row (one a row for an odd count, so that every row is full and every
            // column meets every row). x is this PE's row team, y its column team.
            int xRange = n % 2 == 0 ? 2 : 1;
            boolean gridOk;
            try (Team.Split2d grid = world.split2d(xRange)) {
                grid.x().reduce(ReduceOp.SUM, DType.LONG, rowSum, mine, 1);
                grid.y().reduce(ReduceOp.SUM, DType.LONG, sum, rowSum, 1);
                long total = shmem.gLong(sum, 0, me);
                // this PE's index in its row team is its column number, and in its column team its row number
                gridOk = total == (long) n * (n - 1) / 2;
                line.append(String.format(" row %d (PE %d of %d), column %d (PE %d of %d), sum over the grid %d: %s",
                        grid.y().myPe(), grid.x().myPe(), grid.x().nPes(), grid.x().myPe(), grid.y().myPe(),
                        grid.y().nPes(), total, gridOk ? "OK" : "WRONG"));
            }

            boolean mineOk = evensOk && gridOk;
            line.append(mineOk ? " -- OK" : " -- FAILED");
            System.out.print(line + System.lineSeparator());   // one whole line per PE
            System.out.flush();

            // every PE's verdict, as the minimum over the world
            shmem.pLong(mine, 0, mineOk ? 1 : 0, me);
            world.reduce(ReduceOp.MIN, DType.LONG, sum, mine, 1);
            ok = shmem.gLong(sum, 0, me) == 1;
            shmem.barrierAll();
            if (me == 0) {
                System.out.print(String.format("split teams: %d PEs, grid of %d a row: %s%n", n, xRange,
                        ok ? "every PE OK" : "FAILED"));
            }
        }
        if (!ok) {
            System.exit(1);
        }
    }
}
