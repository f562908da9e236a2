package org.jshmem.node;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jshmem.bootstrap.Bootstrap;

/**
 * Watches the PEs while they set up the node's shared memory, the window in which its file has a
 * name in the file system. If a PE dies then, the survivors (blocked in an MPI exchange, where no
 * jshmem liveness check runs) must not wait forever nor leave the file behind:
 * <ul>
 * <li>a watchdog thread checks every {@value #POLL_MS} ms that the other PEs' processes are alive;
 *     when one is gone it removes the file, prints an error naming the dead PE and ends this
 *     process (its main thread is stuck in MPI);</li>
 * <li>a shutdown hook does the same when mpirun ends this process first (its default when a PE
 *     dies: SIGTERM to the others).</li>
 * </ul>
 * Both stop at {@link #close()}, once the file is unlinked and every PE has mapped it; from then
 * on the control block's liveness table ({@link PeWatch}) names dead PEs.
 *
 * <p>For tests, the system property {@code jshmem.test.dieAt=<step id>:<rank>} makes that rank
 * kill itself (SIGKILL) when it reaches that step (see {@link #step}).
 */
public final class StartupGuard implements AutoCloseable {
    private static final long POLL_MS = 50;

    private final int myPe;
    private final long[] pids;
    private final boolean[] visible;   // a PE whose process this one cannot see (another pid namespace) is not judged
    private final Thread hook;
    private final Thread watchdog;
    private volatile String step = "starting";
    private volatile Path file;
    private volatile Runnable cleanup = () -> { };
    private volatile boolean done;

    private StartupGuard(int myPe, long[] pids) {
        this.myPe = myPe;
        this.pids = pids;
        this.visible = new boolean[pids.length];
        for (int pe = 0; pe < pids.length; pe++) {
            visible[pe] = ProcessHandle.of(pids[pe]).isPresent();
        }
        this.hook = new Thread(() -> fail(deadPes(), "this process is being ended (mpirun ends the job when a PE dies)"),
                "jshmem-startup-hook-PE" + myPe);
        this.watchdog = Thread.ofPlatform().daemon().name("jshmem-startup-watchdog-PE" + myPe).unstarted(this::watch);
    }

    /** Collective: exchanges the PEs' process ids and starts watching them. */
    public static StartupGuard begin(Bootstrap boot) {
        long mine = ProcessHandle.current().pid();
        long[] pids = new long[boot.size()];
        if (boot.size() == 1) {
            pids[0] = mine;
        } else {
            ByteBuffer all = ByteBuffer.wrap(boot.allgather(ByteBuffer.allocate(Long.BYTES).putLong(mine).array()));
            for (int pe = 0; pe < pids.length; pe++) {
                pids[pe] = all.getLong();
            }
        }
        StartupGuard g = new StartupGuard(boot.rank(), pids);
        Runtime.getRuntime().addShutdownHook(g.hook);
        g.watchdog.start();
        return g;
    }

    /**
     * Names the step this PE is in: {@code what} for the error, {@code id} (a word) for the
     * fault injection of tests.
     */
    public void step(String id, String what) {
        step = what;
        String dieAt = System.getProperty("jshmem.test.dieAt");
        if (dieAt != null && dieAt.equals(id + ":" + myPe)) {
            try {
                new ProcessBuilder("kill", "-9", Long.toString(ProcessHandle.current().pid())).start().waitFor();
                Thread.sleep(60_000);
            } catch (IOException | InterruptedException e) {
                Runtime.getRuntime().halt(137);
            }
        }
    }

    /** The node's file, named in the file system until every PE has mapped it: removed if start-up fails. */
    public void file(Path f) {
        file = f;
    }

    /** More to undo if start-up fails (e.g. files of a dead PE 0 that this PE never learnt the name of). */
    public void onFailure(Runnable r) {
        cleanup = r;
    }

    /** The ranks whose processes are gone. */
    private List<Integer> deadPes() {
        List<Integer> dead = new ArrayList<>();
        for (int pe = 0; pe < pids.length; pe++) {
            if (pe != myPe && visible[pe] && ProcessHandle.of(pids[pe]).map(p -> !p.isAlive()).orElse(true)) {
                dead.add(pe);
            }
        }
        return dead;
    }

    private void watch() {
        while (!done) {
            List<Integer> dead = deadPes();
            if (!dead.isEmpty() && !done) {
                fail(dead, "the others wait for it in vain");
                Runtime.getRuntime().halt(1);   // the main thread is blocked in MPI; nothing else can end it
            }
            try {
                Thread.sleep(POLL_MS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private synchronized void fail(List<Integer> dead, String why) {
        if (done) {
            return;
        }
        done = true;
        Path f = file;
        String removed = "";
        try {
            if (f != null && Files.deleteIfExists(f)) {
                removed = "; removed " + f;
            }
        } catch (IOException e) {
            removed = "; could not remove " + f + ": " + e.getMessage();
        }
        cleanup.run();
        StringBuilder who = new StringBuilder();
        for (int pe : dead) {
            who.append(who.isEmpty() ? "" : ", ").append("PE ").append(pe).append(" (process ").append(pids[pe]).append(")");
        }
        System.err.println("org.jshmem.BootstrapException: jshmem start-up failed on PE " + myPe + " (" + step + "): "
                + (dead.isEmpty() ? "a PE stopped" : who + " died") + " during start-up; "
                + why + removed + ". Look at the output of the PE that died.");
        System.err.flush();
    }

    /** Start-up is over (or failed with an exception this PE reports itself): stop watching. */
    @Override
    public void close() {
        synchronized (this) {
            done = true;
        }
        watchdog.interrupt();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs, and does nothing now
        }
    }
}
