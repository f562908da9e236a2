package org.jshmem.gpu;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.MemoryLayout.sequenceLayout;
import static java.lang.foreign.MemoryLayout.structLayout;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.StructLayout;

/**
 * The GPU heap layout and the device state struct, mirrored from
 * {@code shmem-device/include/jshmem/jshmem_state.h}: change both together (a test compares them).
 */
public final class GpuHeapDescriptor {
    public static final int MAX_PES = 64;
    public static final int MAX_TEAMS = 64;
    public static final long CELL = 128;
    public static final long SYNC_OFFSET = 0;
    public static final long SYNC_BYTES = (long) MAX_TEAMS * MAX_PES * CELL;
    public static final long GEN_OFFSET = SYNC_OFFSET + SYNC_BYTES;
    public static final long GEN_BYTES = MAX_TEAMS * CELL;
    public static final long COLL_OFFSET = GEN_OFFSET + GEN_BYTES;
    public static final long COLL_BYTES = (long) MAX_TEAMS * MAX_PES * CELL;
    public static final long LL_SEQ_OFFSET = COLL_OFFSET + COLL_BYTES;
    /** The device proxy's ticket counter (one cell). */
    public static final long PROXY_TICKET_OFFSET = LL_SEQ_OFFSET + MAX_TEAMS * CELL;
    /** Most members of a team whose reductions may take the low-latency (LL) form. */
    public static final int LL_MEMBERS = 8;
    /** Most bytes per member of a low-latency reduction. */
    public static final long LL_PAYLOAD = 4096;
    /** A member's lines of one parity: 16 bytes carry 8 of payload. */
    public static final long LL_MEMBER_BYTES = LL_PAYLOAD / 8 * 16;
    public static final long LL_TEAM_BYTES = 2L * LL_MEMBERS * LL_MEMBER_BYTES;
    public static final long LL_OFFSET = 2L << 20;
    /** Bytes at the start of every PE's heap that jshmem keeps for itself. */
    public static final long INTERNAL_SIZE = LL_OFFSET + MAX_TEAMS * LL_TEAM_BYTES;

    /** Slots of the device proxy ring ({@code jshmem_proxy.h}, {@link DeviceProxy}). */
    public static final int PROXY_SLOTS = 32;
    /** Payload bytes of a proxy slot: the most one request carries. */
    public static final long PROXY_PAYLOAD = 65536;
    /** Header bytes of a proxy slot (the request; the payload follows). */
    public static final long PROXY_HEADER = 128;
    public static final long PROXY_SLOT_BYTES = PROXY_HEADER + PROXY_PAYLOAD;
    /** Proxy request kinds ({@code JSHMEM_PROXY_*}). */
    public static final int PROXY_PUT = 1;
    public static final int PROXY_GET = 2;
    public static final int PROXY_AMO = 3;
    public static final int PROXY_STORE = 4;
    public static final int PROXY_LOAD = 5;

    /** {@code jshmem_proxy_slot_t}: a proxy slot's header. */
    public static final StructLayout PROXY_SLOT = structLayout(
            JAVA_LONG.withName("posted"), JAVA_LONG.withName("done"), JAVA_LONG.withName("free"),
            JAVA_INT.withName("op"), JAVA_INT.withName("pe"),
            JAVA_LONG.withName("offset"), JAVA_LONG.withName("bytes"), JAVA_LONG.withName("value"),
            JAVA_LONG.withName("comparand"), JAVA_LONG.withName("sig_offset"),
            JAVA_INT.withName("sig_op"), JAVA_INT.withName("width"), JAVA_INT.withName("amo"), JAVA_INT.withName("status"),
            JAVA_LONG.withName("result"));

    /** {@code jshmem_team_desc_t}: members are world PEs start + i * stride, i < size. */
    public static final StructLayout TEAM = structLayout(
            JAVA_INT.withName("start"), JAVA_INT.withName("stride"), JAVA_INT.withName("size"), JAVA_INT.withName("slot"));

    /** {@code jshmem_device_state_t}. */
    public static final StructLayout STATE = structLayout(
            JAVA_INT.withName("my_pe"),
            JAVA_INT.withName("n_pes"),
            JAVA_INT.withName("debug"),
            JAVA_INT.withName("wait_timeout_ms"),
            JAVA_LONG.withName("heap_size"),
            ADDRESS.withName("heap_base"),
            sequenceLayout(MAX_PES, ADDRESS).withName("peer_base"),
            sequenceLayout(MAX_TEAMS, TEAM).withName("teams"),
            ADDRESS.withName("proxy"),
            ADDRESS.withName("trace"));

    /** The device trace ring's header bytes ({next, capacity}) before its records. */
    public static final long TRACE_HEADER = 128;
    /** Bytes of a record's name and of its category, their NULs included. */
    public static final int TRACE_NAME = 20;
    public static final int TRACE_CATEGORY = 8;

    /** {@code jshmem_trace_record_t}: one span a kernel recorded. */
    public static final StructLayout TRACE_RECORD = structLayout(
            JAVA_LONG.withName("begin"), JAVA_LONG.withName("end"), JAVA_INT.withName("block"), JAVA_INT.withName("thread"),
            JAVA_LONG.withName("value"), JAVA_INT.withName("op"), sequenceLayout(TRACE_NAME, JAVA_BYTE).withName("name"),
            sequenceLayout(TRACE_CATEGORY, JAVA_BYTE).withName("category"));

    public static final long MY_PE = STATE.byteOffset(groupElement("my_pe"));
    public static final long N_PES = STATE.byteOffset(groupElement("n_pes"));
    public static final long DEBUG = STATE.byteOffset(groupElement("debug"));
    public static final long WAIT_TIMEOUT_MS = STATE.byteOffset(groupElement("wait_timeout_ms"));
    public static final long HEAP_SIZE = STATE.byteOffset(groupElement("heap_size"));
    public static final long HEAP_BASE = STATE.byteOffset(groupElement("heap_base"));
    public static final long PEER_BASE = STATE.byteOffset(groupElement("peer_base"));
    public static final long TEAMS = STATE.byteOffset(groupElement("teams"));
    public static final long PROXY = STATE.byteOffset(groupElement("proxy"));
    public static final long TRACE = STATE.byteOffset(groupElement("trace"));

    /** Offset of a field of {@link #TRACE_RECORD} in a record. */
    public static long traceRecordField(String name) {
        return TRACE_RECORD.byteOffset(groupElement(name));
    }

    /** Offset of a field of {@link #PROXY_SLOT} in a slot. */
    public static long proxySlotField(String name) {
        return PROXY_SLOT.byteOffset(groupElement(name));
    }

    private GpuHeapDescriptor() {
    }

    /** Offset of sync cell [team][pe] in a heap. */
    public static long syncCell(int team, int pe) {
        return SYNC_OFFSET + ((long) team * MAX_PES + pe) * CELL;
    }

    /** Offset of a PE's own generation cell of team slot {@code team}. */
    public static long genCell(int team) {
        return GEN_OFFSET + (long) team * CELL;
    }

    /** Offset of coll cell [team][pe] in a heap. */
    public static long collCell(int team, int pe) {
        return COLL_OFFSET + ((long) team * MAX_PES + pe) * CELL;
    }

    /** Offset of a PE's own count of low-latency reductions in team slot {@code team}. */
    public static long llSeqCell(int team) {
        return LL_SEQ_OFFSET + (long) team * CELL;
    }

    /** Offset of team slot {@code team}'s low-latency lines (both parities, every member) in a heap. */
    public static long llLines(int team) {
        return LL_OFFSET + team * LL_TEAM_BYTES;
    }
}
