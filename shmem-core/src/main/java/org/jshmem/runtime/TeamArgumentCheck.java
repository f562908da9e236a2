package org.jshmem.runtime;

import static org.jshmem.node.ControlDescriptor.SYNC_CHECK;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jshmem.CollectiveMismatchException;
import org.jshmem.spi.TeamLayout;
import org.jshmem.node.NodeBarrier;

/**
 * {@code JSHMEM_DEBUG=1}: checks that every member of a team is making the same collective call
 * with the same arguments, through the control block (so only the team's members take part).
 * The members share a 64-bit hash of their call's description; if the hashes differ, they share
 * the descriptions themselves, 8 bytes per exchange, so that every member throws the same
 * {@link CollectiveMismatchException} naming the PEs that differ and what each passed.
 */
final class TeamArgumentCheck {
    private static final int RECORD = 256;

    private TeamArgumentCheck() {
    }

    static void check(NodeBarrier barrier, TeamLayout t, String teamName, String call) {
        if (t.size() == 1) {
            return;
        }
        byte[] mine = call.getBytes(StandardCharsets.UTF_8);
        String waitingIn = call + " (JSHMEM_DEBUG argument check)";
        long[] hashes = share(barrier, t, hash(mine), waitingIn);
        if (Arrays.stream(hashes).distinct().count() == 1) {
            return;
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
        List<String> calls = new ArrayList<>();
        for (int i = 0; i < t.size(); i++) {
            int end = 0;
            while (end < RECORD && all[i][end] != 0) {
                end++;
            }
            String s = new String(all[i], 0, end, StandardCharsets.UTF_8);
            calls.add(i == t.myIndex() ? call : s + (end == RECORD ? "..." : ""));
        }
        List<String> differ = new ArrayList<>();
        StringBuilder detail = new StringBuilder();
        for (int i = 0; i < t.size(); i++) {
            boolean same = hashes[i] == hashes[0];
            if (!same) {
                differ.add(pe(t, i, teamName));
            }
            if (i == 0 || !same || i == t.myIndex()) {
                detail.append(detail.isEmpty() ? "" : ", ").append(pe(t, i, teamName)).append(": ").append(calls.get(i));
            }
        }
        throw new CollectiveMismatchException("collective call mismatch (JSHMEM_DEBUG=1) on team " + teamName + ": "
                + (differ.size() == 1 ? differ.get(0) + " differs" : String.join(", ", differ) + " differ") + " from "
                + pe(t, 0, teamName) + " [" + detail + "]. Every member of a team must make the same collective calls"
                + " on it, in the same order, with the same arguments.");
    }

    private static String pe(TeamLayout t, int index, String teamName) {
        return "PE " + t.worldPe(index) + ("world".equals(teamName) ? "" : " (team PE " + index + ")");
    }

    /** Every member's word, in team order; ends with a sync so the word may be written again at once. */
    private static long[] share(NodeBarrier barrier, TeamLayout t, long word, String waitingIn) {
        long[] all = barrier.exchange(t.slot(), t.start(), t.stride(), t.size(), SYNC_CHECK, word, waitingIn);
        barrier.sync(t.slot(), t.start(), t.stride(), t.size(), waitingIn);
        return all;
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
