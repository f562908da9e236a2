package org.jshmem.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ScalingChartTest {
    @TempDir
    Path dir;

    @Test
    void suiteLatenciesBecomeBusBandwidthByTheNcclFactors() throws Exception {
        Path csv = dir.resolve("cpu-4pe.csv");
        Files.writeString(csv, "# comment\n" + Csv.HEADER + "\n"
                + "jshmem,reduce,host,sum,long,4,1048576,50,3,us,100,90,110\n"
                + "jshmem,fcollect,host,fcollect,long,4,1048576,50,3,us,100,90,110\n"
                + "jshmem,broadcast,host,broadcast,long,4,1048576,50,3,us,100,90,110\n"
                + "jshmem,reduce,host,sum,long,4,8192,50,3,us,1,1,1\n"
                + "jshmem,put_bw,host,put,byte,4,1048576,50,3,GB/s,10,9,11\n");
        List<ScalingChart.Point> points = ScalingChart.read(csv, List.of(1L << 20));
        // 1 MiB in 100 us is 10.49 GB/s of algorithm bandwidth
        double alg = (1 << 20) / 100e3;
        assertEquals(List.of("jshmem reduce sum long host 1M", "jshmem fcollect long host 1M",
                "jshmem broadcast long host 1M"), points.stream().map(ScalingChart.Point::line).toList());
        assertTrue(points.stream().allMatch(p -> p.pes() == 4));
        assertEquals(alg * 2 * 3 / 4, points.get(0).busGBps(), 1e-9);
        assertEquals(alg * 3, points.get(1).busGBps(), 1e-9);
        assertEquals(alg, points.get(2).busGBps(), 1e-9);
    }

    @Test
    void gpuBenchRowsKeepTheirBusBandwidth() throws Exception {
        Path csv = dir.resolve("gpu-8pe.csv");
        Files.writeString(csv, "collective,form,bytes,iters,us_per_call,busbw_GBps,algorithm,pes\n"
                + "reduce_sum_float,stream,65536,200,10.5,10.92,two-shot 2 blocks,8\n"
                + "reduce_sum_float,stream,1024,200,9.4,0.19,one-shot one block,8\n"
                + "fcollect_signal_float,stream,65536,200,41.65,4.7,copy engines, a signal per block, barriers on both ends,8\n"
                + "reduce_sum_float,stream,65536,200,9.5,12.07,\"two-shot, members one at a time\",4\n");
        assertEquals(List.of(new ScalingChart.Point("jshmem reduce_sum_float stream 64K", 8, 10.92),
                        new ScalingChart.Point("jshmem fcollect_signal_float stream 64K", 8, 4.7),
                        new ScalingChart.Point("jshmem reduce_sum_float stream 64K", 4, 12.07)),
                ScalingChart.read(csv, List.of(64L << 10)));
    }

    @Test
    void writesAPngWithALinePerCollectiveAndSize() throws Exception {
        for (int n : new int[] {2, 4}) {
            Files.writeString(dir.resolve("r" + n + ".csv"), Csv.HEADER + "\njshmem,reduce,host,sum,long," + n
                    + ",8192,50,3,us," + n + ",1,9\n");
        }
        Path png = dir.resolve("chart.png");
        int rc = new CommandLine(new ScalingChart()).execute("-o", png.toString(), "--sizes", "8K",
                dir.resolve("r2.csv").toString(), dir.resolve("r4.csv").toString());
        assertEquals(0, rc);
        byte[] head = Files.readAllBytes(png);
        assertTrue(head.length > 1000 && head[1] == 'P' && head[2] == 'N' && head[3] == 'G', "not a PNG");
    }

    @Test
    void noFigureAtTheSizesIsAnError() throws Exception {
        Path csv = dir.resolve("r.csv");
        Files.writeString(csv, Csv.HEADER + "\njshmem,reduce,host,sum,long,2,8,50,3,us,1,1,1\n");
        int rc = new CommandLine(new ScalingChart()).execute("-o", dir.resolve("x.png").toString(), "--sizes", "1M",
                csv.toString());
        assertEquals(2, rc);
    }
}
