package org.jshmem.it;

import static org.jshmem.it.PeProgram.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.jshmem.Shmem;

/**
 * Reports the mode of the node's shared-memory file as this PE mapped it (through
 * {@code /proc/self/map_files}, which reaches the file after its unlink) and where the native
 * libraries were loaded from, and how much of the node file's mapping is resident right after
 * init (JSHMEM_PREFAULT).
 */
public final class ModesProgram {
    public static void main(String[] args) throws IOException {
        String dir = System.getenv().getOrDefault("JSHMEM_SHM_DIR", "/dev/shm");
        try (Shmem s = Shmem.init()) {
            int me = s.myPe();
            for (String line : Files.readAllLines(Path.of("/proc/self/maps"))) {
                String[] f = line.trim().split("\\s+", 6);
                if (f.length == 6 && f[5].startsWith(dir + "/jshmem-")) {
                    Path file = Path.of("/proc/self/map_files", f[0]);
                    report(me, "heapFileMode", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
                    break;
                }
            }
            boolean inHeap = false;
            for (String line : Files.readAllLines(Path.of("/proc/self/smaps"))) {
                if (line.matches("^[0-9a-f]+-[0-9a-f]+ .*")) {
                    inHeap = line.contains(dir + "/jshmem-");
                } else if (inHeap && line.startsWith("Rss:")) {
                    report(me, "heapMappingRssKb", line.replaceAll("[^0-9]", ""));
                }
            }
            for (String line : Files.readAllLines(Path.of("/proc/self/maps"))) {
                if (line.contains("libjshmem_")) {
                    report(me, "nativeLibrary", line.substring(line.indexOf('/')));
                    break;
                }
            }
            s.barrierAll();
        }
    }
}
