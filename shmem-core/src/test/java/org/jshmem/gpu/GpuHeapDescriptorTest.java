package org.jshmem.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java mirror of {@code jshmem_state.h} must match the C header byte for byte: a C program
 * built with the machine's C compiler prints the header's sizes, offsets and constants, and
 * every one is compared with {@link GpuHeapDescriptor}.
 */
class GpuHeapDescriptorTest {
    private static final Path HEADER_DIR = Path.of(System.getProperty("jshmem.home", "../"), "shmem-device", "include");

    @Test
    void javaLayoutMatchesTheCHeader(@TempDir Path dir) throws IOException, InterruptedException {
        Path src = dir.resolve("layout.c");
        Files.writeString(src, """
                #include <stddef.h>
                #include <stdio.h>
                #include <jshmem/jshmem_state.h>
                #define P(name, value) printf("%s %llu\\n", name, (unsigned long long)(value))
                int main(void) {
                  P("sizeof_state", sizeof(jshmem_device_state_t));
                  P("sizeof_team", sizeof(jshmem_team_desc_t));
                  P("my_pe", offsetof(jshmem_device_state_t, my_pe));
                  P("n_pes", offsetof(jshmem_device_state_t, n_pes));
                  P("debug", offsetof(jshmem_device_state_t, debug));
                  P("wait_timeout_ms", offsetof(jshmem_device_state_t, wait_timeout_ms));
                  P("heap_size", offsetof(jshmem_device_state_t, heap_size));
                  P("heap_base", offsetof(jshmem_device_state_t, heap_base));
                  P("peer_base", offsetof(jshmem_device_state_t, peer_base));
                  P("teams", offsetof(jshmem_device_state_t, teams));
                  P("proxy", offsetof(jshmem_device_state_t, proxy));
                  P("trace", offsetof(jshmem_device_state_t, trace));
                  P("trace_header", JSHMEM_TRACE_HEADER);
                  P("trace_name", JSHMEM_TRACE_NAME);
                  P("sizeof_trace_record", sizeof(jshmem_trace_record_t));
                  #define R(f) P("record_" #f, offsetof(jshmem_trace_record_t, f))
                  R(begin); R(end); R(block); R(thread); R(value); R(op); R(name); R(category);
                  P("trace_category", JSHMEM_TRACE_CATEGORY);
                  P("proxy_ticket", JSHMEM_PROXY_TICKET_OFFSET);
                  P("proxy_slots", JSHMEM_PROXY_SLOTS);
                  P("proxy_payload", JSHMEM_PROXY_PAYLOAD);
                  P("proxy_header", JSHMEM_PROXY_HEADER);
                  P("sizeof_proxy_slot", sizeof(jshmem_proxy_slot_t));
                  #define F(f) P("slot_" #f, offsetof(jshmem_proxy_slot_t, f))
                  F(posted); F(done); F(free); F(op); F(pe); F(offset); F(bytes); F(value); F(comparand);
                  F(sig_offset); F(sig_op); F(width); F(amo); F(status); F(result);
                  P("proxy_PUT", JSHMEM_PROXY_PUT); P("proxy_GET", JSHMEM_PROXY_GET); P("proxy_AMO", JSHMEM_PROXY_AMO);
                  P("proxy_STORE", JSHMEM_PROXY_STORE); P("proxy_LOAD", JSHMEM_PROXY_LOAD);
                  P("amo_FETCH", JSHMEM_AMO_FETCH); P("amo_SET", JSHMEM_AMO_SET); P("amo_SWAP", JSHMEM_AMO_SWAP);
                  P("amo_COMPARE_SWAP", JSHMEM_AMO_COMPARE_SWAP); P("amo_ADD", JSHMEM_AMO_ADD);
                  P("amo_FETCH_ADD", JSHMEM_AMO_FETCH_ADD); P("amo_AND", JSHMEM_AMO_AND);
                  P("amo_FETCH_AND", JSHMEM_AMO_FETCH_AND); P("amo_OR", JSHMEM_AMO_OR); P("amo_FETCH_OR", JSHMEM_AMO_FETCH_OR);
                  P("amo_XOR", JSHMEM_AMO_XOR); P("amo_FETCH_XOR", JSHMEM_AMO_FETCH_XOR);
                  P("sig_SET", JSHMEM_SIGNAL_SET); P("sig_ADD", JSHMEM_SIGNAL_ADD);
                  P("max_pes", JSHMEM_MAX_PES);
                  P("max_teams", JSHMEM_MAX_TEAMS);
                  P("cell", JSHMEM_CELL);
                  P("gen_offset", JSHMEM_GEN_OFFSET);
                  P("coll_offset", JSHMEM_COLL_OFFSET);
                  P("internal_size", JSHMEM_INTERNAL_SIZE);
                  P("sync_cell_3_5", JSHMEM_SYNC_CELL(3, 5));
                  P("gen_cell_7", JSHMEM_GEN_CELL(7));
                  P("coll_cell_3_5", JSHMEM_COLL_CELL(3, 5));
                  P("ll_seq_cell_7", JSHMEM_LL_SEQ_CELL(7));
                  P("ll_lines_3", JSHMEM_LL_LINES(3, 0, 0));
                  P("ll_lines_3_1_5", JSHMEM_LL_LINES(3, 1, 5) - JSHMEM_LL_LINES(3, 0, 0));
                  P("ll_members", JSHMEM_LL_MEMBERS);
                  P("ll_payload", JSHMEM_LL_PAYLOAD);
                  P("ll_team_bytes", JSHMEM_LL_TEAM_BYTES);
                  P("dtype_BYTE", JSHMEM_DTYPE_BYTE); P("dtype_SHORT", JSHMEM_DTYPE_SHORT);
                  P("dtype_INT", JSHMEM_DTYPE_INT); P("dtype_LONG", JSHMEM_DTYPE_LONG);
                  P("dtype_FLOAT", JSHMEM_DTYPE_FLOAT); P("dtype_DOUBLE", JSHMEM_DTYPE_DOUBLE);
                  P("dtype_FP16", JSHMEM_DTYPE_FP16); P("dtype_BF16", JSHMEM_DTYPE_BF16);
                  P("op_SUM", JSHMEM_REDUCE_SUM); P("op_PROD", JSHMEM_REDUCE_PROD); P("op_MIN", JSHMEM_REDUCE_MIN);
                  P("op_MAX", JSHMEM_REDUCE_MAX); P("op_AND", JSHMEM_REDUCE_AND); P("op_OR", JSHMEM_REDUCE_OR);
                  P("op_XOR", JSHMEM_REDUCE_XOR);
                  return 0;
                }
                """);
        Path exe = dir.resolve("layout");
        run(dir, "cc", "-std=c11", "-Wall", "-Werror", "-I" + HEADER_DIR.toAbsolutePath(), src.toString(), "-o", exe.toString());
        Map<String, Long> c = new HashMap<>();
        for (String line : run(dir, exe.toString()).split("\n")) {
            String[] kv = line.trim().split(" ");
            c.put(kv[0], Long.parseLong(kv[1]));
        }
        assertEquals(c.get("sizeof_state"), GpuHeapDescriptor.STATE.byteSize());
        assertEquals(c.get("sizeof_team"), GpuHeapDescriptor.TEAM.byteSize());
        assertEquals(c.get("my_pe"), GpuHeapDescriptor.MY_PE);
        assertEquals(c.get("n_pes"), GpuHeapDescriptor.N_PES);
        assertEquals(c.get("debug"), GpuHeapDescriptor.DEBUG);
        assertEquals(c.get("wait_timeout_ms"), GpuHeapDescriptor.WAIT_TIMEOUT_MS);
        assertEquals(c.get("heap_size"), GpuHeapDescriptor.HEAP_SIZE);
        assertEquals(c.get("heap_base"), GpuHeapDescriptor.HEAP_BASE);
        assertEquals(c.get("peer_base"), GpuHeapDescriptor.PEER_BASE);
        assertEquals(c.get("teams"), GpuHeapDescriptor.TEAMS);
        assertEquals(c.get("proxy"), GpuHeapDescriptor.PROXY);
        assertEquals(c.get("trace"), GpuHeapDescriptor.TRACE);
        assertEquals(c.get("trace_header"), GpuHeapDescriptor.TRACE_HEADER);
        assertEquals(c.get("trace_name"), (long) GpuHeapDescriptor.TRACE_NAME);
        assertEquals(c.get("sizeof_trace_record"), GpuHeapDescriptor.TRACE_RECORD.byteSize());
        assertEquals(c.get("trace_category"), (long) GpuHeapDescriptor.TRACE_CATEGORY);
        for (String f : new String[] {"begin", "end", "block", "thread", "value", "op", "name", "category"}) {
            assertEquals(c.get("record_" + f), GpuHeapDescriptor.traceRecordField(f), "jshmem_trace_record_t." + f);
        }
        assertEquals(c.get("proxy_ticket"), GpuHeapDescriptor.PROXY_TICKET_OFFSET);
        assertEquals(c.get("proxy_slots"), GpuHeapDescriptor.PROXY_SLOTS);
        assertEquals(c.get("proxy_payload"), GpuHeapDescriptor.PROXY_PAYLOAD);
        assertEquals(c.get("proxy_header"), GpuHeapDescriptor.PROXY_HEADER);
        assertTrue(c.get("sizeof_proxy_slot") <= GpuHeapDescriptor.PROXY_HEADER, "the slot header fits its room");
        assertEquals(c.get("sizeof_proxy_slot"), GpuHeapDescriptor.PROXY_SLOT.byteSize());
        for (String f : new String[] {"posted", "done", "free", "op", "pe", "offset", "bytes", "value", "comparand",
            "sig_offset", "sig_op", "width", "amo", "status", "result"}) {
            assertEquals(c.get("slot_" + f), GpuHeapDescriptor.proxySlotField(f), "jshmem_proxy_slot_t." + f);
        }
        assertEquals(c.get("proxy_PUT"), GpuHeapDescriptor.PROXY_PUT);
        assertEquals(c.get("proxy_GET"), GpuHeapDescriptor.PROXY_GET);
        assertEquals(c.get("proxy_AMO"), GpuHeapDescriptor.PROXY_AMO);
        assertEquals(c.get("proxy_STORE"), GpuHeapDescriptor.PROXY_STORE);
        assertEquals(c.get("proxy_LOAD"), GpuHeapDescriptor.PROXY_LOAD);
        // the proxy passes AtomicOp and SignalOp ordinals as JSHMEM_AMO_* / JSHMEM_SIGNAL_* codes
        for (org.jshmem.AtomicOp o : org.jshmem.AtomicOp.values()) {
            assertEquals(c.get("amo_" + o.name()), (long) o.ordinal(), "JSHMEM_AMO_" + o);
        }
        for (org.jshmem.SignalOp o : org.jshmem.SignalOp.values()) {
            assertEquals(c.get("sig_" + o.name()), (long) o.ordinal(), "JSHMEM_SIGNAL_" + o);
        }
        assertEquals(c.get("max_pes"), GpuHeapDescriptor.MAX_PES);
        assertEquals(c.get("max_teams"), GpuHeapDescriptor.MAX_TEAMS);
        assertEquals(c.get("cell"), GpuHeapDescriptor.CELL);
        assertEquals(c.get("gen_offset"), GpuHeapDescriptor.GEN_OFFSET);
        assertEquals(c.get("coll_offset"), GpuHeapDescriptor.COLL_OFFSET);
        assertEquals(c.get("internal_size"), GpuHeapDescriptor.INTERNAL_SIZE);
        assertEquals(c.get("sync_cell_3_5"), GpuHeapDescriptor.syncCell(3, 5));
        assertEquals(c.get("gen_cell_7"), GpuHeapDescriptor.genCell(7));
        assertEquals(c.get("coll_cell_3_5"), GpuHeapDescriptor.collCell(3, 5));
        assertEquals(c.get("ll_seq_cell_7"), GpuHeapDescriptor.llSeqCell(7));
        assertEquals(c.get("ll_lines_3"), GpuHeapDescriptor.llLines(3));
        assertEquals(c.get("ll_lines_3_1_5"), (GpuHeapDescriptor.LL_MEMBERS + 5) * GpuHeapDescriptor.LL_MEMBER_BYTES);
        assertEquals(c.get("ll_members"), GpuHeapDescriptor.LL_MEMBERS);
        assertEquals(c.get("ll_payload"), GpuHeapDescriptor.LL_PAYLOAD);
        assertEquals(c.get("ll_team_bytes"), GpuHeapDescriptor.LL_TEAM_BYTES);
        // the tuning's limits are the lines' room
        assertEquals(GpuHeapDescriptor.LL_MEMBERS, org.jshmem.GpuCollectiveTuning.LOW_LATENCY_MEMBERS);
        assertEquals(GpuHeapDescriptor.LL_PAYLOAD, org.jshmem.GpuCollectiveTuning.LOW_LATENCY_LIMIT);
        // the collectives pass DType and ReduceOp ordinals as JSHMEM_DTYPE_* / JSHMEM_REDUCE_* codes
        for (org.jshmem.DType t : org.jshmem.DType.values()) {
            assertEquals(c.get("dtype_" + t.name()), (long) t.ordinal(), "JSHMEM_DTYPE_" + t);
        }
        for (org.jshmem.ReduceOp o : org.jshmem.ReduceOp.values()) {
            assertEquals(c.get("op_" + o.name()), (long) o.ordinal(), "JSHMEM_REDUCE_" + o);
        }
    }

    private static String run(Path dir, String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new AssertionError(String.join(" ", cmd) + " failed:\n" + out);
        }
        return out;
    }
}
