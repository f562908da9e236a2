package org.jshmem.it.coll;

import static org.jshmem.it.PeProgram.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import org.jshmem.Shmem;
import org.jshmem.Team;

/**
 * The teams a collectives job runs on, made from its specs: {@code world}, {@code shared},
 * {@code strided:START:STRIDE:SIZE} (a split of world), {@code 2d:XRANGE} (both teams of a 2D split,
 * labelled {@code 2d:X.x} and {@code 2d:X.y}). Closing destroys the teams it split, last first.
 */
final class JobTeams implements AutoCloseable {
    private final Shmem shmem;
    /** Label to team; null where this PE is not a member. */
    private final Map<String, Team> teams = new LinkedHashMap<>();
    private final List<AutoCloseable> toClose = new ArrayList<>();

    JobTeams(Shmem shmem, List<String> specs) {
        this.shmem = shmem;
        for (String spec : specs) {
            if (spec.equals("world")) {
                teams.put(spec, shmem.teamWorld());
            } else if (spec.equals("shared")) {
                teams.put(spec, shmem.teamShared());
            } else if (spec.startsWith("strided:")) {
                String[] p = spec.split(":");
                Optional<Team> t = shmem.teamWorld().splitStrided(Integer.parseInt(p[1]), Integer.parseInt(p[2]),
                        Integer.parseInt(p[3]));
                t.ifPresent(toClose::add);
                teams.put(spec, t.orElse(null));
            } else if (spec.startsWith("2d:")) {
                Team.Split2d s = shmem.teamWorld().split2d(Integer.parseInt(spec.substring(3)));
                toClose.add(s);
                teams.put(spec + ".x", s.x());
                teams.put(spec + ".y", s.y());
            } else {
                throw new IllegalArgumentException("unknown team " + spec);
            }
        }
    }

    /**
     * Reports every team's layout ({@code layout.LABEL}: my index / size : world PEs, or
     * {@code none}; {@code translate.LABEL}: the members translated back, and my world PE), then
     * runs {@code body} on each team this PE is a member of, in spec order.
     */
    void forEachMember(BiConsumer<String, Team> body) {
        int me = shmem.myPe();
        for (Map.Entry<String, Team> e : teams.entrySet()) {
            Team t = e.getValue();
            String label = e.getKey();
            if (t == null) {
                report(me, "layout." + label, "none");
                continue;
            }
            StringBuilder members = new StringBuilder();
            StringBuilder back = new StringBuilder();
            for (int i = 0; i < t.nPes(); i++) {
                members.append(i == 0 ? "" : ",").append(t.worldPe(i));
                back.append(i == 0 ? "" : ",").append(shmem.teamWorld().translatePe(t.worldPe(i), t));
            }
            report(me, "layout." + label, t.myPe() + "/" + t.nPes() + ":" + members);
            report(me, "translate." + label, back + ":" + t.translatePe(t.myPe(), shmem.teamWorld()));
            body.accept(label, t);
        }
    }

    @Override
    public void close() {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            try {
                toClose.get(i).close();
            } catch (Exception x) {
                throw new IllegalStateException(x);
            }
        }
    }
}
