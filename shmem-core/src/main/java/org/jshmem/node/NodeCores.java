package org.jshmem.node;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * How many cores the node gives this job, whatever this process's own CPU affinity: under
 * mpirun's default binding each PE is bound to one core, so {@code availableProcessors()} says 1
 * even though every PE has a core of its own. Counts the online CPUs, limited by a cgroup v2 CPU
 * quota ({@code cpu.max}) when there is one; falls back to {@code availableProcessors()}.
 */
public final class NodeCores {
    private NodeCores() {
    }

    /** The node's cores available to this job. */
    public static int count() {
        int online = parseCpuList(read(Path.of("/sys/devices/system/cpu/online")));
        int cores = online > 0 ? online : Runtime.getRuntime().availableProcessors();
        int quota = cgroupQuota(read(Path.of("/sys/fs/cgroup/cpu.max")));
        return quota > 0 ? Math.min(cores, quota) : cores;
    }

    /** The number of CPUs in a list such as {@code 0-3,8,10-11}; 0 if it cannot be read. */
    static int parseCpuList(String list) {
        if (list == null || !list.trim().matches("\\d+(-\\d+)?(,\\d+(-\\d+)?)*")) {
            return 0;
        }
        int n = 0;
        try {
            for (String part : list.trim().split(",")) {
                int dash = part.indexOf('-');
                n += dash < 0 ? 1 : Integer.parseInt(part.substring(dash + 1)) - Integer.parseInt(part.substring(0, dash)) + 1;
            }
        } catch (NumberFormatException e) {
            return 0;
        }
        return n;
    }

    /** The CPUs a cgroup v2 {@code cpu.max} ("quota period", or "max period") allows, rounded up; 0 when unlimited or unknown. */
    static int cgroupQuota(String cpuMax) {
        if (cpuMax == null) {
            return 0;
        }
        String[] f = cpuMax.trim().split("\\s+");
        if (f.length != 2 || f[0].equals("max")) {
            return 0;
        }
        try {
            long quota = Long.parseLong(f[0]);
            long period = Long.parseLong(f[1]);
            return period > 0 ? (int) Math.max(1, (quota + period - 1) / period) : 0;
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
