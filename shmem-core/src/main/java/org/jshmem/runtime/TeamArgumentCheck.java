package org.jshmem.runtime;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jshmem.CollectiveMismatchException;
import org.jshmem.node.NodeBarrier;
import org.jshmem.spi.TeamLayout;

/**
 * Checks that every member of a team is making the same collective call with the same arguments,
 * through the control block (so only the team's members take part): the symmetric allocation
 * calls always ({@link #allocationMismatch}), the other collectives with {@code JSHMEM_DEBUG=1}
 * ({@link #check}). The members share a 64-bit hash of their call's description in one
 * synchronisation; only if the hashes differ do they share the descriptions themselves, 8 bytes
 * per exchange, so that every member throws the same {@link CollectiveMismatchException} naming the
 * PEs that differ and what each passed.
 */
final class TeamArgumentCheck {
    private static final int RECORD = 256;

    private TeamArgumentCheck() {
    }

    /** Every member's call in team order, with the hash each shared; {@code text} is null when all hashes agree. */
    private record Calls(long[] hashes, String[] text) {
    }

    /** {@code JSHMEM_DEBUG=1}: throws on every member if the members' calls differ; one synchronisation when they agree. */
    static void check(NodeBarrier barrier, TeamLayout t, String teamName, String call) {
        if (t.size() == 1) {
            return;
        }
        Calls calls = share(barrier, t, call, call + " (JSHMEM_DEBUG argument check)");
        if (calls.text() == null) {
            return;
        }
        long[] hashes = calls.hashes();
        List<String> differ = new ArrayList<>();
        StringBuilder detail = new StringBuilder();
        for (int i = 0; i < t.size(); i++) {
            boolean same = hashes[i] == hashes[0];
            if (!same) {
                differ.add(pe(t, i, teamName));
            }
            if (i == 0 || !same || i == t.myIndex()) {
                detail.append(detail.isEmpty() ? "" : ", ").append(pe(t, i, teamName)).append(": ")
                        .append(calls.text()[i]);
            }
        }
        throw new CollectiveMismatchException("collective call mismatch (JSHMEM_DEBUG=1) on team " + teamName + ": "
                + (differ.size() == 1 ? differ.get(0) + " differs" : String.join(", ", differ) + " differ") + " from "
                + pe(t, 0, teamName) + " [" + detail + "]. Every member of a team must make the same collective calls"
                + " on it, in the same order, with the same arguments.");
    }

    /**
     * The check of the symmetric allocation calls, made on every call: it is the world
     * synchronisation the call makes anyway, carrying the hash of {@code call} (a description of
     * the call and its arguments, e.g. {@code malloc(1024)}). Returns null when every PE made the
     * same call, else the message, the same on every PE, of the {@link CollectiveMismatchException}
     * each PE then throws.
     */
    static String allocationMismatch(NodeBarrier barrier, TeamLayout world, String call) {
        Calls calls = share(barrier, world, call, call);
        return calls.text() == null ? null : allocationMessage(calls.text());
    }

    /** The message of an allocation mismatch, from every PE's call in PE order. */
    static String allocationMessage(String[] calls) {
        Map<String, List<Integer>> pes = new LinkedHashMap<>();
        for (int pe = 0; pe < calls.length; pe++) {
            pes.computeIfAbsent(calls[pe], c -> new ArrayList<>()).add(pe);
        }
        String name = name(calls[0]);
        boolean sameName = Arrays.stream(calls).allMatch(c -> name(c).equals(name));
        StringBuilder who = new StringBuilder();
        pes.forEach((c, list) -> who.append(who.isEmpty() ? "" : "; ").append(c).append(" on ").append(peList(list)));
        return "collective call mismatch: " + (sameName ? name + " was called with different arguments on different PEs"
                : "the PEs made different symmetric allocation calls") + ": " + who + ". Every PE must make the same"
                + " allocation calls (malloc, calloc, align, mallocWithHints, realloc, free) in the same order with the"
                + " same arguments; this call allocated and freed nothing.";
    }

    /** The call's name: its description up to the first parenthesis. */
    private static String name(String call) {
        int paren = call.indexOf('(');
        return paren < 0 ? call : call.substring(0, paren);
    }

    /** "PE 3", "PEs 0-2", "PEs 0, 2, 5-7". */
    static String peList(List<Integer> pes) {
        StringBuilder s = new StringBuilder(pes.size() == 1 ? "PE " : "PEs ");
        for (int i = 0; i < pes.size(); ) {
            int j = i;
            while (j + 1 < pes.size() && pes.get(j + 1) == pes.get(j) + 1) {
                j++;
            }
            s.append(i == 0 ? "" : ", ").append(pes.get(i));
            if (j > i) {
                s.append(j == i + 1 ? ", " : "-").append(pes.get(j));
            }
            i = j + 1;
        }
        return s.toString();
    }

    private static String pe(TeamLayout t, int index, String teamName) {
        return "PE " + t.worldPe(index) + ("world".equals(teamName) ? "" : " (team PE " + index + ")");
    }

    /**
     * Shares the hash of {@code call}; if the members' hashes differ, the first {@link #RECORD}
     * bytes of every member's description too (the same text on every member).
     */
    private static Calls share(NodeBarrier barrier, TeamLayout t, String call, String waitingIn) {
        byte[] mine = call.getBytes(StandardCharsets.UTF_8);
        long[] hashes = share(barrier, t, hash(mine), waitingIn);
        if (Arrays.stream(hashes).allMatch(h -> h == hashes[0])) {
            return new Calls(hashes, null);
        }
        byte[] record = Arrays.copyOf(mine, RECORD);
        byte[][] all = new byte[t.size()][RECORD];
        for (int at = 0; at < RECORD; at += Long.BYTES) {
            long word = 0;
            for (int b = 0; b < Long.BYTES; b++) {
                word |= (record[at + b] & 0xFFL) << (8 * b);
            }
            long[] words = share(barrier, t, word, waitingIn);
            for (int i = 0; i < t.size(); i++) {
                for (int b = 0; b < Long.BYTES; b++) {
                    all[i][at + b] = (byte) (words[i] >>> (8 * b));
                }
            }
        }
        String[] text = new String[t.size()];
        for (int i = 0; i < t.size(); i++) {
            int end = 0;
            while (end < RECORD && all[i][end] != 0) {
                end++;
            }
            text[i] = new String(all[i], 0, end, StandardCharsets.UTF_8) + (end == RECORD ? "..." : "");
        }
        return new Calls(hashes, text);
    }

    /** Every member's word, in team order (one synchronisation; the check words alternate, so no second one). */
    private static long[] share(NodeBarrier barrier, TeamLayout t, long word, String waitingIn) {
        return barrier.exchangeCheck(t.slot(), t.start(), t.stride(), t.size(), word, waitingIn);
    }

    /** FNV-1a, 64 bits. */
    private static long hash(byte[] bytes) {
        long h = 0xcbf29ce484222325L;
        for (byte b : bytes) {
            h ^= b & 0xFF;
            h *= 0x100000001b3L;
        }
        return h;
    }
}
