package org.jshmem;

import java.lang.foreign.MemorySegment;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.jshmem.spi.Collectives;
import org.jshmem.spi.TeamLayout;
import org.jshmem.spi.StreamCollectives;

/**
 * A set of PEs that make collective calls together (OpenSHMEM 1.5 teams): world PEs
 * {@code start + i * stride} for {@code i < nPes()}, numbered {@code 0 .. nPes()-1} in the team.
 * {@link Shmem#teamWorld()} has every PE, {@link Shmem#teamShared()} the PEs that share memory with
 * this one (on one node, the same); {@link #splitStrided} and {@link #split2d} make sub-teams.
 *
 * <pre>{@code
 * Team world = shmem.teamWorld();
 * try (Team odd = world.splitStrided(1, 2, world.nPes() / 2).orElse(null)) {   // null on even PEs
 *     if (odd != null) {
 *         odd.reduce(ReduceOp.SUM, DType.LONG, total, mine, count);
 *     }
 * }
 * }</pre>
 *
 * <p>Collectives: every member calls the same collectives on a team in the same order with the
 * same arguments ({@code JSHMEM_DEBUG=1} checks that, among the team's members only, and throws
 * {@link CollectiveMismatchException} on every member naming the PEs that differ). They are
 * blocking: on return this PE's destination holds the result and its source may be reused.
 * Sizes count elements of a {@link DType}; segments must hold the whole extent. Sources and
 * destinations must not overlap, except {@code dest == src} for {@link #reduce} and
 * {@link #broadcast}. A PE makes its collective calls (on all its teams) from one thread at a
 * time, as {@link Shmem}'s other collective calls.
 *
 * <p>GPU heaps ({@code JSHMEM_BACKEND=cuda|hip}): the collectives run as GPU kernels over the
 * members' mapped heaps (and copy engines for large pieces; see
 * {@code org.jshmem.gpu.GpuCollectives} for the algorithms and {@link ShmemConfig} for the
 * thresholds). The blocking forms wait for them. The {@code ...OnStream} forms
 * ({@link #reduceOnStream}, {@link #reduceScatterOnStream}, {@link #fcollectOnStream}, {@link #collectOnStream},
 * {@link #alltoallOnStream}, {@link #broadcastOnStream}, {@link #barrierOnStream},
 * {@link #syncOnStream}) queue the same collective on a {@link ShmemStream} and return at once:
 * it reads the sources and writes the destinations when the stream gets there, and its
 * synchronisation with the other members happens on the GPU, so calls may follow each other on a
 * stream with no host synchronisation in between. Rules: every member queues the same collectives
 * on a team in the same order; a team's collectives run one at a time (queue them on one stream, or
 * order the streams with events); a blocking collective on a team must not overlap on-stream
 * collectives of that team still queued (synchronize the stream first); for reductions on a GPU
 * heap {@code dest} and {@code src} are aligned to the element size. On a host heap the
 * {@code ...OnStream} forms throw {@link ShmemStateException}. Kernels reach a team through its
 * slot ({@link #layout()}{@code .slot()}) with the device library's block-scope collectives.
 *
 * <p>Small collectives on a GPU heap: a blocking call launches a kernel and waits for it, and that
 * launch and wait alone are most of its time. Many small collectives cost less queued on a stream,
 * back to back, where no call waits (compare {@code perf --form on_stream reduce} with the host
 * form; docs/performance.md).
 *
 * <p>A team holds a team slot: a PE has 64, of which jshmem keeps three (world, shared, and one
 * for {@link Shmem#close()}), so at most 61 split teams exist at once on a PE; {@link #close()}
 * destroys one and frees its slot. Closing {@link Shmem#teamWorld()} or {@link Shmem#teamShared()}
 * does nothing; they live until {@link Shmem#close()}.
 */
public final class Team implements AutoCloseable {
    private final Shmem shmem;
    private final TeamLayout layout;
    private final String name;
    private final boolean predefined;
    private final TeamConfig config;
    private boolean destroyed;
    private StreamOrder streamOrder;   // the on-stream collectives' order across streams

    Team(Shmem shmem, TeamLayout layout, String name, boolean predefined, TeamConfig config) {
        this.shmem = shmem;
        this.layout = layout;
        this.name = name;
        this.predefined = predefined;
        this.config = config;
    }

    /** The two teams of a {@link #split2d}: this PE's row ({@code x}) and column ({@code y}). Closing it destroys both. */
    public record Split2d(Team x, Team y) implements AutoCloseable {
        @Override
        public void close() {
            try {
                y.close();
            } finally {
                x.close();
            }
        }
    }

    // ---------------------------------------------------------------- membership

    /** This PE's number in the team, {@code 0 .. nPes()-1}. */
    public int myPe() {
        return layout.myIndex();
    }

    /** Number of PEs in the team. */
    public int nPes() {
        return layout.size();
    }

    /** The world PE number ({@link Shmem#myPe()} numbering) of team PE {@code pe}. */
    public int worldPe(int pe) {
        checkPe("Team.worldPe", pe);
        return layout.worldPe(pe);
    }

    /**
     * The number in {@code other} of this team's PE {@code pe}, or -1 if that PE is not a member
     * of {@code other} (OpenSHMEM's {@code shmem_team_translate_pe}).
     *
     * @throws PeOutOfRangeException if {@code pe} is not a PE of this team
     */
    public int translatePe(int pe, Team other) {
        Args.nonNull("Team.translatePe", "other", other);
        Objects.requireNonNull(other, "translatePe: other team is null");
        checkPe("Team.translatePe", pe);
        return other.layout.indexOf(layout.worldPe(pe));
    }

    /** Whether this is {@link Shmem#teamWorld()} or {@link Shmem#teamShared()}. */
    public boolean isPredefined() {
        return predefined;
    }

    /** The layout the algorithms see (world start, stride, size, slot), for backends and tools. */
    public TeamLayout layout() {
        return layout;
    }

    /** The config the team was made with ({@link TeamConfig#DEFAULT} for the predefined teams; OpenSHMEM's {@code shmem_team_get_config}). */
    public TeamConfig config() {
        return config;
    }

    /**
     * A communication context whose PE numbers are this team's (OpenSHMEM's
     * {@code shmem_team_create_ctx}); see {@link Shmem#createContext}. Destroying the team closes it.
     */
    public ShmemContext createContext(ContextOption... options) {
        checkUsable("Team.createContext");
        return ShmemContext.open(shmem, this, options);
    }

    /** The team's name in messages, e.g. {@code world/strided(1,1,3)}. */
    String name() {
        return name;
    }

    /**
     * Team PE {@code pe}'s copy of {@code segment} as memory this process addresses directly
     * (OpenSHMEM's {@code shmem_team_ptr}); see {@link Shmem#ptr}: empty on GPU heaps.
     */
    public java.util.Optional<java.lang.foreign.MemorySegment> ptr(SymmetricSegment segment, int pe) {
        checkUsable("Team.ptr");
        checkPe("Team.ptr", pe);
        return shmem.ptr(segment, layout.worldPe(pe));
    }

    private void checkPe(String call, int pe) {
        if (pe < 0 || pe >= layout.size()) {
            throw new PeOutOfRangeException(call, pe, layout.size(), "team " + name);
        }
    }

    // ---------------------------------------------------------------- splits

    /**
     * Collective over this team: a new team of this team's PEs {@code start + i * stride},
     * {@code i < size} (numbers in this team). Every member of this team calls it with the same
     * arguments; those in the new team get it, the others {@link Optional#empty()} (they have
     * nothing to close). The new team is ready on return (OpenSHMEM's
     * {@code shmem_team_split_strided}).
     *
     * @throws IllegalArgumentException if the PEs do not all lie in this team
     * @throws ShmemException           on every member if no team slot is free
     */
    public Optional<Team> splitStrided(int start, int stride, int size) {
        return splitStrided(start, stride, size, TeamConfig.DEFAULT);
    }

    /** {@link #splitStrided(int, int, int)} with the new team's {@code config} (the same on every member). */
    public Optional<Team> splitStrided(int start, int stride, int size, TeamConfig config) {
        Args.nonNull("Team.splitStrided", "config", config);
        String call = "splitStrided(" + start + ", " + stride + ", " + size + (config.equals(TeamConfig.DEFAULT) ? ""
                : ", " + config) + ")";
        checkUsable("Team.splitStrided");
        checkSame(() -> "Team." + call);
        int n = layout.size();
        if (size < 1 || start < 0 || start >= n || (size > 1 && stride < 1)
                || start + (long) (size - 1) * Math.max(stride, 1) >= n) {
            throw new IllegalArgumentException("Team." + call + " on team " + name + " of " + n + " PEs: the new team's"
                    + " PEs start + i * stride (i < size) must all be PEs of this team (0.." + (n - 1) + "), with"
                    + " start >= 0, stride >= 1 and size >= 1" + (size > 1 && stride >= 1 && start >= 0 && start < n
                    ? "; the last would be " + (start + (long) (size - 1) * stride) : "") + ".");
        }
        int s = size == 1 ? 1 : stride;
        int[] slot = shmem.runtime().agreeTeamSlots(layout, 1, "Team." + call);
        int mine = (layout.myIndex() - start) % s == 0 && layout.myIndex() >= start ? (layout.myIndex() - start) / s : -1;
        Team made = null;
        if (mine >= 0 && mine < size) {
            made = join(new TeamLayout(layout.worldPe(start), layout.stride() * s, size, slot[0], mine),
                    name + "/strided(" + start + "," + s + "," + size + ")", config);
        }
        parentSync("Team." + call);
        return Optional.ofNullable(made);
    }

    /**
     * Collective over this team: splits it into a 2D grid with {@code xRange} PEs per row (the
     * last row may be shorter). The x team of a PE is its row (team PEs {@code y*xRange ..
     * y*xRange + xRange - 1} of this team), its y team its column (team PEs {@code x, x + xRange,
     * ...}); every member gets both. An {@code xRange} above {@link #nPes()} counts as
     * {@link #nPes()} (OpenSHMEM's {@code shmem_team_split_2d}).
     */
    public Split2d split2d(int xRange) {
        return split2d(xRange, TeamConfig.DEFAULT, TeamConfig.DEFAULT);
    }

    /** {@link #split2d(int)} with the configs of the row ({@code x}) and column ({@code y}) teams. */
    public Split2d split2d(int xRange, TeamConfig xConfig, TeamConfig yConfig) {
        Args.nonNull("Team.split2d", "xConfig", xConfig, "yConfig", yConfig);
        String call = "split2d(" + xRange + (xConfig.equals(TeamConfig.DEFAULT) && yConfig.equals(TeamConfig.DEFAULT) ? ""
                : ", " + xConfig + ", " + yConfig) + ")";
        checkUsable("Team.split2d");
        checkSame(() -> "Team." + call);
        if (xRange < 1) {
            throw new IllegalArgumentException("Team." + call + " on team " + name + ": xRange must be >= 1 (the PEs per"
                    + " row of the grid)");
        }
        int n = layout.size();
        int xr = Math.min(xRange, n);
        int[] slots = shmem.runtime().agreeTeamSlots(layout, 2, "Team." + call);
        int me = layout.myIndex();
        int row = me / xr;
        int col = me % xr;
        int rowStart = row * xr;
        int rowSize = Math.min(xr, n - rowStart);
        int colSize = (n - col + xr - 1) / xr;
        Team x = join(new TeamLayout(layout.worldPe(rowStart), layout.stride(), rowSize, slots[0], col),
                name + "/x" + row, xConfig);
        Team y = join(new TeamLayout(layout.worldPe(col), layout.stride() * xr, colSize, slots[1], row),
                name + "/y" + col, yConfig);
        parentSync("Team." + call);
        return new Split2d(x, y);
    }

    private Team join(TeamLayout t, String teamName, TeamConfig teamConfig) {
        shmem.runtime().join(t.slot(), t.start(), t.stride(), t.size());
        shmem.runtime().takeTeamSlot(t.slot());
        shmem.teamCreated(t);   // GPU heaps: device state and the slot's device cells (the split's closing sync follows)
        return new Team(shmem, t, teamName, false, teamConfig);
    }

    private void parentSync(String call) {
        shmem.runtime().sync(layout.slot(), layout.start(), layout.stride(), layout.size(), call);
    }

    // ---------------------------------------------------------------- synchronisation

    /** Collective: waits until every member has called it (OpenSHMEM's {@code shmem_team_sync}). */
    public void sync() {
        checkUsable("Team.sync");
        checkSame(() -> "Team.sync()");
        collectives().sync(layout);
    }

    /** Collective: completes this PE's puts and atomics ({@link Shmem#quiet()}), then {@link #sync()}. */
    public void barrier() {
        checkUsable("Team.barrier");
        checkSame(() -> "Team.barrier()");
        shmem.backend().quiet();
        collectives().sync(layout);
    }

    /**
     * Collective, GPU heaps: queues a barrier of the team on {@code stream}: the stream's earlier
     * work (its stores to peers included) is complete on every member before any member's later
     * work on its stream starts (NVSHMEM's {@code nvshmemx_team_barrier_on_stream}).
     *
     * @throws ShmemStateException on a host heap
     */
    public void barrierOnStream(ShmemStream stream) {
        String method = "Team.barrierOnStream";
        checkUsable(method);
        StreamCollectives g = shmem.streams(method).collectives();
        requireStream(method, stream);
        checkSame(() -> method + "()");
        MemorySegment on = queueing(method, stream);
        g.barrierOnStream(layout, on);
        queued(method, stream);
    }

    /**
     * Collective, GPU heaps: queues a synchronisation of the team on {@code stream} (every member's
     * stream has reached it; in practice it orders as much as {@link #barrierOnStream}, since kernel
     * boundaries complete the stream's earlier stores).
     *
     * @throws ShmemStateException on a host heap
     */
    public void syncOnStream(ShmemStream stream) {
        String method = "Team.syncOnStream";
        checkUsable(method);
        StreamCollectives g = shmem.streams(method).collectives();
        requireStream(method, stream);
        checkSame(() -> method + "()");
        MemorySegment on = queueing(method, stream);
        g.syncOnStream(layout, on);
        queued(method, stream);
    }

    // ---------------------------------------------------------------- collectives
    // Each collective has a blocking form and, on GPU heaps, an ...OnStream form that queues it on a
    // stream and returns (NVSHMEM's nvshmemx_*_on_stream): the same arguments and checks, the
    // source read and the destination written when the stream gets there. See the class comment for
    // the rules of the on-stream forms.

    /**
     * Collective: copies {@code nelems} elements of {@code src} on team PE {@code root} to
     * {@code dest} on every member, the root included. {@code dest == src} is allowed.
     */
    public void broadcast(SymmetricSegment dest, SymmetricSegment src, long nelems, int root, DType type) {
        Args.nonNull("Team.broadcast", "dest", dest, "src", src, "type", type);
        broadcast("Team.broadcast", dest, src, nelems, root, type, null, false);
    }

    /** {@link #broadcast} queued on {@code stream} (GPU heaps; {@link ShmemStateException} on a host heap). */
    public void broadcastOnStream(SymmetricSegment dest, SymmetricSegment src, long nelems, int root, DType type,
                                  ShmemStream stream) {
        Args.nonNull("Team.broadcastOnStream", "dest", dest, "src", src, "type", type);
        broadcast("Team.broadcastOnStream", dest, src, nelems, root, type, stream, true);
    }

    private void broadcast(String method, SymmetricSegment dest, SymmetricSegment src, long nelems, int root, DType type,
                           ShmemStream stream, boolean onStream) {
        Supplier<String> call = () -> method + "(dest " + dest + ", src " + src + ", nelems " + nelems + ", root "
                + root + ", " + type + ")";
        StreamCollectives g = begin(method, call, stream, onStream);
        long bytes = extent(call, nelems, type, 1);
        long d = range(call, method, "dest", dest, bytes);
        long s = range(call, method, "src", src, bytes);
        if (root < 0 || root >= layout.size()) {
            throw new PeOutOfRangeException(call.get() + ": root", root, layout.size(), "team " + name);
        }
        noOverlap(call, d, bytes, s, bytes, true);
        if (g == null) {
            collectives().broadcast(layout, d, s, bytes, root);
        } else {
            MemorySegment on = queueing(method, stream);
            g.broadcastOnStream(layout, d, s, bytes, root, on);
            queued(method, stream);
        }
    }

    /**
     * Collective: every member's {@code nelems} elements of {@code src}, concatenated in team
     * order, into {@code dest} ({@code nPes() * nelems} elements) on every member.
     */
    public void fcollect(SymmetricSegment dest, SymmetricSegment src, long nelems, DType type) {
        Args.nonNull("Team.fcollect", "dest", dest, "src", src, "type", type);
        fcollect("Team.fcollect", dest, src, nelems, type, null, false);
    }

    /** {@link #fcollect} queued on {@code stream} (GPU heaps; {@link ShmemStateException} on a host heap). */
    public void fcollectOnStream(SymmetricSegment dest, SymmetricSegment src, long nelems, DType type,
                                 ShmemStream stream) {
        Args.nonNull("Team.fcollectOnStream", "dest", dest, "src", src, "type", type);
        fcollect("Team.fcollectOnStream", dest, src, nelems, type, stream, true);
    }

    private void fcollect(String method, SymmetricSegment dest, SymmetricSegment src, long nelems, DType type,
                          ShmemStream stream, boolean onStream) {
        Supplier<String> call = () -> method + "(dest " + dest + ", src " + src + ", nelems " + nelems + ", " + type + ")";
        StreamCollectives g = begin(method, call, stream, onStream);
        long bytes = extent(call, nelems, type, 1);
        long d = range(call, method, "dest", dest, extent(call, nelems, type, layout.size()));
        long s = range(call, method, "src", src, bytes);
        noOverlap(call, d, bytes * layout.size(), s, bytes, false);
        if (g == null) {
            collectives().fcollect(layout, d, s, bytes);
        } else {
            MemorySegment on = queueing(method, stream);
            g.fcollectOnStream(layout, d, s, bytes, on);
            queued(method, stream);
        }
    }

    /**
     * Collective: like {@link #fcollect} with a count of each member's own: {@code dest} gets the
     * members' elements concatenated in team order. Returns the total number of elements.
     *
     * @throws HeapBoundsException on every member if {@code dest} cannot hold the total
     */
    public long collect(SymmetricSegment dest, SymmetricSegment src, long nelems, DType type) {
        Args.nonNull("Team.collect", "dest", dest, "src", src, "type", type);
        // the counts (and so src slices' sizes) differ from PE to PE by design: only where src starts is compared
        Supplier<String> call = () -> "Team.collect(dest " + dest + ", src at heap offset "
                + (src == null ? "null" : src.heapOffset()) + ", " + type + ")";
        checkUsable("Team.collect");
        checkSame(call);
        long bytes = extent(call, nelems, type, 1);
        long d = range(call, "Team.collect", "dest", dest, 0);
        long s = range(call, "Team.collect", "src", src, bytes);
        noOverlap(call, d, dest.byteSize(), s, bytes, false);
        return collectives().collect(layout, d, dest.byteSize(), s, bytes) / type.byteSize();
    }

    /**
     * Collective, GPU heaps: {@link #collect} queued on {@code stream}. A stream cannot wait for
     * the members to tell each other their counts, so the caller passes them all: {@code counts[i]}
     * is the number of elements team PE {@code i} contributes ({@code counts[myPe()]} is this PE's,
     * from the start of {@code src}), the same array on every member. {@code dest} must hold their
     * sum, which is returned (elements).
     *
     * @throws IllegalArgumentException if {@code counts} does not have {@link #nPes()} non-negative entries
     * @throws ShmemStateException      on a host heap
     */
    public long collectOnStream(SymmetricSegment dest, SymmetricSegment src, long[] counts, DType type,
                                ShmemStream stream) {
        Args.nonNull("Team.collectOnStream", "dest", dest, "src", src, "counts", counts);
        Args.nonNull("Team.collectOnStream", "type", type);
        String method = "Team.collectOnStream";
        Supplier<String> call = () -> method + "(dest " + dest + ", src at heap offset "
                + (src == null ? "null" : src.heapOffset()) + ", counts " + java.util.Arrays.toString(counts) + ", "
                + type + ")";
        StreamCollectives g = begin(method, call, stream, true);
        Gather x = gather(call, method, dest, src, counts, type, false);
        MemorySegment on = queueing(method, stream);
        g.collectOnStream(layout, x.dest(), x.src(), x.bytesPerMember(), on);
        queued(method, stream);
        return x.total() / type.byteSize();
    }

    /**
     * Collective, SM-free all-gather with a signal per block: like
     * {@link #fcollectOnStream}, but every member pulls the blocks with copy-engine copies (the
     * others' in rotated order from the next member on, its own last: a consumer can read that one
     * in {@code src} meanwhile) and, as team PE i's block lands, sets the 8-byte
     * signal {@code i} of {@code signals} (at byte {@code 8 i}) on this PE to {@code signal}, so
     * that a kernel on another stream can wait for block i alone ({@code jshmem_signal_wait_until},
     * or {@link Shmem#signalWaitUntilOnStream}) and start on it while the rest is in flight. Use a
     * new signal value per call (e.g. a call counter) so that no reset is needed. It starts and ends
     * with a team barrier on the stream: the members' {@code src} is read only once all of them
     * have queued the call, and is reusable when the stream's work is done. {@code src} may be this
     * PE's block of {@code dest} itself (in place: not copied), on every member or on none.
     * Between PEs on one GPU (MPS) the driver may run the copies on the SMs.
     *
     * <p>A consumer kernel that occupies every SM (a persistent GEMM) must not start before the
     * opening barrier has passed, or the barrier's own kernel finds no SM: pass an event as
     * {@code entered}, which is recorded on {@code stream} right after that barrier, and make the
     * consumer's stream wait for it.
     *
     * @param signals {@link #nPes()} 8-byte signals, 8-byte aligned
     * @param entered recorded once every member has entered (null: none)
     * @throws ShmemStateException on a host heap
     */
    public void fcollectSignalOnStream(SymmetricSegment dest, SymmetricSegment src, long nelems, DType type,
                                       SymmetricSegment signals, long signal, ShmemStream stream, ShmemEvent entered) {
        long[] counts = new long[layout.size()];
        java.util.Arrays.fill(counts, nelems);
        collectSignal("Team.fcollectSignalOnStream", dest, src, counts, type, signals, signal, stream, entered, true);
    }

    /**
     * Collective: {@link #fcollectSignalOnStream} with a count of each member's own, given as in
     * {@link #collectOnStream(SymmetricSegment, SymmetricSegment, long[], DType, ShmemStream)}:
     * team PE i's {@code counts[i]} elements land after the blocks of PEs 0 .. i-1.
     * Returns the total number of elements.
     */
    public long collectSignalOnStream(SymmetricSegment dest, SymmetricSegment src, long[] counts, DType type,
                                      SymmetricSegment signals, long signal, ShmemStream stream, ShmemEvent entered) {
        return collectSignal("Team.collectSignalOnStream", dest, src, counts, type, signals, signal, stream, entered,
                true);
    }

    /**
     * Collective: {@link #collectSignalOnStream} for a consumer that reads this PE's own block in
     * {@code src}: the other members' blocks are pulled from their {@code src} into {@code dest} and
     * signalled as there, but this PE's block of {@code dest} is left as it is and its signal is not
     * set. An all-gather + GEMM computes its own rows from A in place; copying them into the gathered
     * A first held its kernel back by that copy. {@code src} must lie outside {@code dest} on every
     * member. Returns the total number of elements.
     */
    public long collectOthersSignalOnStream(SymmetricSegment dest, SymmetricSegment src, long[] counts, DType type,
                                            SymmetricSegment signals, long signal, ShmemStream stream,
                                            ShmemEvent entered) {
        return collectSignal("Team.collectOthersSignalOnStream", dest, src, counts, type, signals, signal, stream,
                entered, false);
    }

    private long collectSignal(String method, SymmetricSegment dest, SymmetricSegment src, long[] counts, DType type,
                               SymmetricSegment signals, long signal, ShmemStream stream, ShmemEvent entered,
                               boolean ownBlock) {
        Args.nonNull(method, "dest", dest, "src", src, "counts", counts);
        Args.nonNull(method, "type", type, "signals", signals);
        // in place, src differs per PE: say "in place" so that JSHMEM_DEBUG's same-call check compares equal texts
        String from = inPlace(dest, src, counts, type) ? "src in place" : "src at heap offset " + src.heapOffset();
        Supplier<String> call = () -> method + "(dest " + dest + ", " + from + ", counts "
                + java.util.Arrays.toString(counts) + ", " + type + ", signals " + signals + ", signal " + signal + ")";
        StreamCollectives g = begin(method, call, stream, true);
        Gather x = gather(call, method, dest, src, counts, type, ownBlock);
        long sig = shmem.target(method, signals, 0, (long) layout.size() * Long.BYTES, shmem.myPe(), Long.BYTES);
        noOverlap(call, x.dest(), x.total(), sig, (long) layout.size() * Long.BYTES, false);
        MemorySegment on = queueing(method, stream);
        g.barrierOnStream(layout, on);
        if (entered != null) {
            stream.record(entered);
        }
        g.collectSignalOnStream(layout, x.dest(), x.src(), x.bytesPerMember(), sig, signal, ownBlock, on);
        g.barrierOnStream(layout, on);
        queued(method, stream);
        return x.total() / type.byteSize();
    }

    /** Whether src is this PE's block of dest (counts as in collect; false where they do not fit the team). */
    private boolean inPlace(SymmetricSegment dest, SymmetricSegment src, long[] counts, DType type) {
        if (counts.length != layout.size()) {
            return false;
        }
        long before = 0;
        for (int i = 0; i < layout.myIndex(); i++) {
            before += counts[i];
        }
        return src.heapOffset() == dest.heapOffset() + before * type.byteSize();
    }

    /** A checked gather: heap offsets, every member's bytes and their sum. */
    private record Gather(long dest, long src, long[] bytesPerMember, long total) {
    }

    /** The checks of the gathers with counts: one count per member, sizes in range, src apart from dest (or in place). */
    private Gather gather(Supplier<String> call, String method, SymmetricSegment dest, SymmetricSegment src,
                          long[] counts, DType type, boolean inPlaceAllowed) {
        if (counts.length != layout.size()) {
            throw new IllegalArgumentException(call.get() + ": counts has " + counts.length + " entries; the team has "
                    + layout.size() + " PEs (one count per team PE, the same array on every member)");
        }
        long[] bytesPerMember = new long[counts.length];
        long total = 0, mineAt = 0;
        for (int i = 0; i < counts.length; i++) {
            bytesPerMember[i] = extent(call, counts[i], type, 1);
            mineAt = i == layout.myIndex() ? total : mineAt;
            try {
                total = Math.addExact(total, bytesPerMember[i]);
            } catch (ArithmeticException e) {
                throw new IllegalArgumentException(call.get() + ": the counts' sum does not fit in a long");
            }
        }
        long mine = bytesPerMember[layout.myIndex()];
        long d = range(call, method, "dest", dest, total);
        long s = range(call, method, "src", src, mine);
        if (!(inPlaceAllowed && s == d + mineAt)) {
            noOverlap(call, d, total, s, mine, false);
        }
        return new Gather(d, s, bytesPerMember, total);
    }

    /**
     * Collective: block {@code j} ({@code nelemsPerPe} elements) of {@code src} on team PE
     * {@code i} goes to block {@code i} of {@code dest} on team PE {@code j}; both segments hold
     * {@code nPes() * nelemsPerPe} elements.
     */
    public void alltoall(SymmetricSegment dest, SymmetricSegment src, long nelemsPerPe, DType type) {
        Args.nonNull("Team.alltoall", "dest", dest, "src", src, "type", type);
        alltoall("Team.alltoall", dest, src, nelemsPerPe, type, null, false);
    }

    /** {@link #alltoall} queued on {@code stream} (GPU heaps; {@link ShmemStateException} on a host heap). */
    public void alltoallOnStream(SymmetricSegment dest, SymmetricSegment src, long nelemsPerPe, DType type,
                                 ShmemStream stream) {
        Args.nonNull("Team.alltoallOnStream", "dest", dest, "src", src, "type", type);
        alltoall("Team.alltoallOnStream", dest, src, nelemsPerPe, type, stream, true);
    }

    private void alltoall(String method, SymmetricSegment dest, SymmetricSegment src, long nelemsPerPe, DType type,
                          ShmemStream stream, boolean onStream) {
        Supplier<String> call = () -> method + "(dest " + dest + ", src " + src + ", nelemsPerPe " + nelemsPerPe + ", "
                + type + ")";
        StreamCollectives g = begin(method, call, stream, onStream);
        long all = extent(call, nelemsPerPe, type, layout.size());
        long d = range(call, method, "dest", dest, all);
        long s = range(call, method, "src", src, all);
        noOverlap(call, d, all, s, all, false);
        if (g == null) {
            collectives().alltoall(layout, d, s, nelemsPerPe * type.byteSize());
        } else {
            MemorySegment on = queueing(method, stream);
            g.alltoallOnStream(layout, d, s, nelemsPerPe * type.byteSize(), on);
            queued(method, stream);
        }
    }

    /**
     * Collective, strided all-to-all (OpenSHMEM's {@code shmem_alltoalls}): team PE {@code i} sends
     * its elements {@code src[sst * (j * nelems + k)]}, {@code k < nelems}, to team PE {@code j},
     * which stores them at {@code dest[dst * (i * nelems + k)]}. Strides count elements of
     * {@code type}; with both 1 it is {@link #alltoall}. Each member writes its blocks straight into
     * the others' {@code dest}, between two syncs of the team.
     *
     * @throws IllegalArgumentException for a stride below 1 or overlapping segments
     */
    public void alltoalls(SymmetricSegment dest, SymmetricSegment src, long dst, long sst, long nelems, DType type) {
        String method = "Team.alltoalls";
        Args.nonNull(method, "dest", dest, "src", src, "type", type);
        Supplier<String> call = () -> method + "(dest " + dest + ", src " + src + ", dst " + dst + ", sst " + sst
                + ", nelems " + nelems + ", " + type + ")";
        if (dst < 1 || sst < 1) {
            throw new IllegalArgumentException(call.get() + ": the strides dst and sst must be >= 1 (in elements)");
        }
        begin(method, call, null, false);
        long size = type.byteSize();
        long n = layout.size();
        long count = Math.multiplyExact(n, Math.max(nelems, 0));
        long dBytes = count == 0 ? 0 : Math.multiplyExact(Math.multiplyExact(count - 1, dst) + 1, size);
        long sBytes = count == 0 ? 0 : Math.multiplyExact(Math.multiplyExact(count - 1, sst) + 1, size);
        extent(call, nelems, type, layout.size());
        long d = range(call, method, "dest", dest, dBytes);
        long s = range(call, method, "src", src, sBytes);
        noOverlap(call, d, dBytes, s, sBytes, false);
        collectives().sync(layout);   // every member is in the call: no one still reads its dest
        int me = layout.myIndex();
        for (int k = 0; k < n && nelems > 0; k++) {
            int j = (me + k) % (int) n;   // start at a different peer on each member
            shmem.backend().copyStrided(layout.worldPe(j), d + me * nelems * dst * size, dst * size, shmem.myPe(),
                    s + j * nelems * sst * size, sst * size, size, nelems);
        }
        shmem.backend().quiet();
        collectives().sync(layout);
    }

    /**
     * Collective: {@code dest[k] = src_0[k] op src_1[k] op ... op src_{n-1}[k]} over the members
     * in team order, for {@code k < nelems}, on every member (an all-reduce). {@code dest == src}
     * (in place) is allowed. Integer results wrap around; FP16 and BF16 are combined in
     * {@code float} and rounded once.
     *
     * @throws IllegalArgumentException for a bitwise {@code op} on a floating-point {@code type}
     */
    public void reduce(ReduceOp op, DType type, SymmetricSegment dest, SymmetricSegment src, long nelems) {
        Args.nonNull("Team.reduce", "op", op, "type", type, "dest", dest);
        Args.nonNull("Team.reduce", "src", src);
        reduce("Team.reduce", op, type, dest, src, nelems, null, false);
    }

    /**
     * {@link #reduce} queued on {@code stream} (GPU heaps). On a GPU heap {@code dest} and
     * {@code src} must be aligned to the element size (segments from {@link Shmem#malloc} are;
     * slices at other offsets throw {@link IllegalArgumentException}).
     *
     * @throws ShmemStateException on a host heap
     */
    public void reduceOnStream(ReduceOp op, DType type, SymmetricSegment dest, SymmetricSegment src, long nelems,
                               ShmemStream stream) {
        Args.nonNull("Team.reduceOnStream", "op", op, "type", type, "dest", dest);
        Args.nonNull("Team.reduceOnStream", "src", src);
        reduce("Team.reduceOnStream", op, type, dest, src, nelems, stream, true);
    }

    private void reduce(String method, ReduceOp op, DType type, SymmetricSegment dest, SymmetricSegment src,
                        long nelems, ShmemStream stream, boolean onStream) {
        Supplier<String> call = () -> method + "(" + op + ", " + type + ", dest " + dest + ", src " + src + ", nelems "
                + nelems + ")";
        StreamCollectives g = begin(method, call, stream, onStream);
        checkOpAndType(call, op, type);
        long bytes = extent(call, nelems, type, 1);
        long d = range(call, method, "dest", dest, bytes);
        long s = range(call, method, "src", src, bytes);
        noOverlap(call, d, bytes, s, bytes, true);
        if (g == null) {
            collectives().reduce(layout, op, type, d, s, nelems);
        } else {
            MemorySegment on = queueing(method, stream);
            g.reduceOnStream(layout, op, type, d, s, nelems, on);
            queued(method, stream);
        }
    }

    /** The operation applies to the type (bitwise ones to integer types only). */
    private static void checkOpAndType(Supplier<String> call, ReduceOp op, DType type) {
        if (op.isBitwise() && !type.isInteger()) {
            throw new IllegalArgumentException(call.get() + ": " + op + " is a bitwise operation, defined only for"
                    + " integer types (BYTE, SHORT, INT, LONG); " + type + " is a floating-point type. Use SUM, PROD,"
                    + " MIN or MAX, or reduce the bits as an integer type of the same size.");
        }
    }

    /**
     * Collective reduce-scatter: on team PE {@code i}, {@code dest[k] = src_0[i*nelemsPerPe + k] op
     * ... op src_{n-1}[i*nelemsPerPe + k]} over the members in team order, for {@code k <
     * nelemsPerPe}: each member receives its block of the element-wise reduction. {@code src}
     * holds {@code nPes() * nelemsPerPe} elements, {@code dest} {@code nelemsPerPe}; they must not
     * overlap. Every operation and type of {@link #reduce}, with the same rounding.
     *
     * @throws IllegalArgumentException for a bitwise {@code op} on a floating-point {@code type},
     *                                  or overlapping segments
     */
    public void reduceScatter(ReduceOp op, DType type, SymmetricSegment dest, SymmetricSegment src, long nelemsPerPe) {
        Args.nonNull("Team.reduceScatter", "op", op, "type", type, "dest", dest);
        Args.nonNull("Team.reduceScatter", "src", src);
        reduceScatter("Team.reduceScatter", op, type, dest, src, nelemsPerPe, null, false);
    }

    /**
     * {@link #reduceScatter} queued on {@code stream} (GPU heaps; {@code dest} and {@code src}
     * aligned to the element size, as for {@link #reduceOnStream}).
     *
     * @throws ShmemStateException on a host heap
     */
    public void reduceScatterOnStream(ReduceOp op, DType type, SymmetricSegment dest, SymmetricSegment src,
                                      long nelemsPerPe, ShmemStream stream) {
        Args.nonNull("Team.reduceScatterOnStream", "op", op, "type", type, "dest", dest);
        Args.nonNull("Team.reduceScatterOnStream", "src", src);
        reduceScatter("Team.reduceScatterOnStream", op, type, dest, src, nelemsPerPe, stream, true);
    }

    /**
     * Collective inclusive prefix sum (OpenSHMEM 1.6's {@code shmem_<T>_sum_inscan}): on team PE
     * {@code i}, {@code dest[k] = src_0[k] + src_1[k] + ... + src_i[k]} over the members in team
     * order, for {@code k < nelems}. Every type of {@link #reduce}, with its rounding; {@code dest
     * == src} (in place) is allowed.
     */
    public void sumInscan(DType type, SymmetricSegment dest, SymmetricSegment src, long nelems) {
        scan("Team.sumInscan", type, dest, src, nelems, true);
    }

    /**
     * Collective exclusive prefix sum (OpenSHMEM 1.6's {@code shmem_<T>_sum_exscan}): on team PE
     * {@code i}, {@code dest[k] = src_0[k] + ... + src_{i-1}[k]}; on team PE 0, zeros (the sum of no
     * member). Otherwise as {@link #sumInscan}.
     */
    public void sumExscan(DType type, SymmetricSegment dest, SymmetricSegment src, long nelems) {
        scan("Team.sumExscan", type, dest, src, nelems, false);
    }

    private void scan(String method, DType type, SymmetricSegment dest, SymmetricSegment src, long nelems,
                      boolean inclusive) {
        Supplier<String> call = () -> method + "(" + type + ", dest " + dest + ", src " + src + ", nelems " + nelems + ")";
        begin(method, call, null, false);
        long bytes = extent(call, nelems, type, 1);
        long d = range(call, method, "dest", dest, bytes);
        long s = range(call, method, "src", src, bytes);
        noOverlap(call, d, bytes, s, bytes, true);
        collectives().sumScan(layout, type, d, s, nelems, inclusive);
    }

    private void reduceScatter(String method, ReduceOp op, DType type, SymmetricSegment dest, SymmetricSegment src,
                               long nelemsPerPe, ShmemStream stream, boolean onStream) {
        Supplier<String> call = () -> method + "(" + op + ", " + type + ", dest " + dest + ", src " + src
                + ", nelemsPerPe " + nelemsPerPe + ")";
        StreamCollectives g = begin(method, call, stream, onStream);
        checkOpAndType(call, op, type);
        long block = extent(call, nelemsPerPe, type, 1);
        long all = extent(call, nelemsPerPe, type, layout.size());
        long d = range(call, method, "dest", dest, block);
        long s = range(call, method, "src", src, all);
        noOverlap(call, d, block, s, all, false);
        if (g == null) {
            collectives().reduceScatter(layout, op, type, d, s, nelemsPerPe);
        } else {
            MemorySegment on = queueing(method, stream);
            g.reduceScatterOnStream(layout, op, type, d, s, nelemsPerPe, on);
            queued(method, stream);
        }
    }

    /**
     * The checks every collective starts with, blocking or on a stream: the team is usable; for an
     * on-stream form, a GPU heap (first: {@link ShmemStateException} on a host heap) and a stream;
     * with {@code JSHMEM_DEBUG=1}, the same call on every member. Returns the on-stream collectives,
     * or null for a blocking form.
     */
    private StreamCollectives begin(String method, Supplier<String> call, ShmemStream stream, boolean onStream) {
        checkUsable(method);
        StreamCollectives g = onStream ? shmem.streams(method).collectives() : null;
        if (onStream) {
            requireStream(method, stream);
        }
        checkSame(call);
        return g;
    }

    /**
     * Before an on-stream collective is queued on {@code stream}: makes it wait for the team's previous
     * one where that was queued on another stream ({@link StreamOrder}); returns the stream's handle.
     */
    private MemorySegment queueing(String method, ShmemStream stream) {
        streamOrder().before(shmem, stream, method);
        return stream.handle(method);
    }

    /** After an on-stream collective was queued on {@code stream}. */
    private void queued(String method, ShmemStream stream) {
        streamOrder().after(stream, method);
    }

    /** This team's {@link StreamOrder}, made on the first on-stream collective (GPU heaps only). */
    StreamOrder streamOrder() {
        if (streamOrder == null) {
            streamOrder = new StreamOrder(shmem.streams("Team on-stream collectives"));
        }
        return streamOrder;
    }

    /** Frees the stream order's event, if any. */
    void closeStreamOrder() {
        if (streamOrder != null) {
            streamOrder.close();
        }
    }

    private static ShmemStream requireStream(String method, ShmemStream stream) {
        if (stream == null) {
            throw new NullPointerException(method + ": stream is null");
        }
        return stream;
    }

    // ---------------------------------------------------------------- checks

    private Collectives collectives() {
        return shmem.collectives();
    }

    private void checkUsable(String method) {
        shmem.checkOpen(method);
        if (destroyed) {
            throw new ShmemStateException(method + ": team " + name + " was destroyed (closed); make a new one"
                    + " with splitStrided or split2d");
        }
    }

    /** With {@code JSHMEM_DEBUG=1}: the same call with the same arguments on every member ({@code call} describes it). */
    private void checkSame(Supplier<String> call) {
        if (shmem.config().debug()) {
            shmem.runtime().checkTeamArguments(layout, name, call.get());
        }
    }

    /** {@code count * members} elements of {@code type}, in bytes. */
    private static long extent(Supplier<String> call, long count, DType type, int members) {
        if (type == null) {
            throw new NullPointerException(call.get() + ": type is null");
        }
        if (count < 0) {
            throw new IllegalArgumentException(call.get() + ": the element count must not be negative");
        }
        try {
            return Math.multiplyExact(Math.multiplyExact(count, type.byteSize()), members);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(call.get() + ": " + count + " elements of " + type + " x " + members
                    + " PEs does not fit in a long");
        }
    }

    /** Checks that {@code seg} holds {@code bytes} from its start; returns its heap offset. */
    private long range(Supplier<String> call, String method, String what, SymmetricSegment seg, long bytes) {
        if (seg == null) {
            throw new NullPointerException(call.get() + ": " + what + " is null");
        }
        try {
            return shmem.target(method, seg, 0, bytes, shmem.myPe());
        } catch (HeapBoundsException e) {
            throw new HeapBoundsException(call.get() + ": " + what + " is too small: the call needs " + bytes
                    + " bytes, " + seg + " has " + seg.byteSize() + ". Allocate a larger segment or pass fewer elements.");
        }
    }

    private static void noOverlap(Supplier<String> call, long d, long dBytes, long s, long sBytes, boolean sameAllowed) {
        if (sameAllowed && d == s && dBytes == sBytes) {
            return;
        }
        if (dBytes > 0 && sBytes > 0 && d < s + sBytes && s < d + dBytes) {
            throw new IllegalArgumentException(call.get() + ": dest (heap bytes " + d + ".." + (d + dBytes)
                    + ") and src (" + s + ".." + (s + sBytes) + ") overlap" + (sameAllowed
                    ? "; they may be the same range (in place) but not partly overlap" : "; use separate segments"));
        }
    }

    // ---------------------------------------------------------------- lifecycle

    /**
     * Collective over the team: destroys it (OpenSHMEM's {@code shmem_team_destroy}) after a
     * {@link #sync()}, freeing its slot. Later calls on it throw {@link ShmemStateException}. On a
     * GPU heap it first waits until all of this PE's GPU work (every stream) has finished, so that
     * no queued work still uses the slot when another team gets it.
     * Does nothing on a predefined team, on a destroyed one, or after {@link Shmem#close()}.
     */
    @Override
    public void close() {
        if (predefined || destroyed || shmem.isClosed()) {
            return;
        }
        checkSame(() -> "Team.close()");
        shmem.closeContexts(layout);
        shmem.teamClosing();       // GPU heaps: this PE's GPU work (every stream) is done ...
        collectives().sync(layout);  // ... on every member, before the slot can go to another team
        destroyed = true;
        closeStreamOrder();
        shmem.runtime().releaseTeamSlot(layout.slot());
        shmem.teamReleased(layout.slot());
    }

    @Override
    public String toString() {
        return "team " + name + " [world PEs " + layout.start() + (layout.size() > 1 ? " + i*" + layout.stride() : "")
                + ", " + layout.size() + " PE" + (layout.size() == 1 ? "" : "s") + "; this PE is team PE " + layout.myIndex()
                + (destroyed ? "; destroyed" : "") + "]";
    }
}
