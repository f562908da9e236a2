package org.jshmem.gemm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The stamp layout of the all-scatter, by the kernel's stores and by the copy engines, as its kernels read it. */
class GemmWorkspaceTest {
    private static final ShardLayout LAYOUT = new ShardLayout(GemmCollective.ALL_SCATTER,
            new GemmShape(2600, 1536, 1024), 3);
    private static final StreamKSchedule SCHEDULE = StreamKSchedule.plan(LAYOUT.local(1), new TileShape(128, 256, 64),
            132, 8, StreamKSchedule.Split.DATA_PARALLEL);

    @Test
    void copyEnginesNeedAStampPerPeAndARecordPerChunkOfTileRows() {
        assertEquals(21, SCHEDULE.tilesM(), "2600 rows in tiles of 128");
        assertEquals(3, GemmWorkspace.chunks(SCHEDULE, 8), "chunks of 8, 8 and 5 tile rows");
        GemmWorkspace.Sizes sizes = GemmWorkspace.sizes(SCHEDULE, Epilogue.ALL_SCATTER, LAYOUT, 3,
                new GemmWorkspace.GemmSizing(126, 42, 1, 8));
        assertEquals((3 + 3 * 3 + 1) * Long.BYTES, sizes.arrive(),
                "3 arrival stamps, 3 records {count, done, tiles}, copied");
        // jgemm_epilogue.h counts tile row tm into the record at
        // arrive + n_pes + JGEMM_CHUNK_RECORD * (tm / scatter_rows); done is next
        assertEquals(2 * Long.BYTES, GemmWorkspace.arrivedOffset(2));
        assertEquals((3 + 1) * Long.BYTES, GemmWorkspace.chunkDoneOffset(3, 0));
        assertEquals((3 + 3 * 2 + 1) * Long.BYTES, GemmWorkspace.chunkDoneOffset(3, 2));
        // after the last record: the copy stream's copied stamp, the last long
        assertEquals(sizes.arrive() - Long.BYTES, GemmWorkspace.copiedOffset(3, 3));
    }

    @Test
    void theKernelsChunkRecordIsTheWorkspaces() throws IOException {
        assertEquals(GemmWorkspace.CHUNK_RECORD, defined("jgemm.h", "JGEMM_CHUNK_RECORD"));
    }

    /** The number a kernel header #defines {@code name} to. */
    private static int defined(String header, String name) throws IOException {
        String text;
        try (InputStream in = GemmWorkspace.class.getResourceAsStream("/org/jshmem/gemm/kernels/" + header)) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        Matcher m = Pattern.compile("#define " + name + " (\\d+)").matcher(text);
        assertTrue(m.find(), header + " defines " + name);
        return Integer.parseInt(m.group(1));
    }

    @Test
    void theKernelsStoresNeedAStampPerTileOfEveryPe() {
        GemmWorkspace.Sizes sizes = GemmWorkspace.sizes(SCHEDULE, Epilogue.ALL_SCATTER, LAYOUT, 3,
                new GemmWorkspace.GemmSizing(126, 42, 1, 0));
        assertEquals(126 * Long.BYTES, sizes.arrive());
    }
}
