package org.jshmem.it.gpu;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jshmem.it.JobResult;
import org.jshmem.it.MpiJob;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The Java side of the device library on a GPU ({@link DeviceModuleProgram}, one PE): compile
 * errors, modules from run-time compilation, from the bytes of a cubin and from a file, state
 * binding, launch errors, a chained launch and use after close. Tag "gpu": run on the GPU machine.
 */
@Tag("gpu")
class DeviceModuleTest {

    @Test
    void compileLoadLaunchAndMisuse() {
        JobResult r = MpiJob.of(1, DeviceModuleProgram.class).env("JSHMEM_BACKEND", "cuda")
                .timeout(Duration.ofSeconds(180)).run();
        assertTrue(r.succeeded(), r::toString);
        Map<String, String> v = r.reports(0);
        List<Executable> checks = new ArrayList<>();
        checks.add(() -> assertEquals("true", v.get("done"), r::toString));

        // a compile error names the file and line in the log, and the exception says what failed
        checks.add(() -> assertTrue(v.get("compileError").startsWith("CompileException | compiling broken.cu failed"),
                v.get("compileError")));
        checks.add(() -> assertTrue(v.get("compileError").contains("no_such_variable"), v.get("compileError")));
        checks.add(() -> assertTrue(v.get("compileError.log").contains("broken.cu(3)"), v.get("compileError.log")));
        checks.add(() -> assertTrue(v.get("compileError.log").contains("no_such_variable"), v.get("compileError.log")));

        // run-time compiled module: bound state, its globals, a launch
        checks.add(() -> assertEquals("true", v.get("compiled.bindsState")));
        checks.add(() -> assertEquals("4", v.get("compiled.counterBytes")));
        checks.add(() -> assertEquals("true", v.get("compiled.noSuchGlobal")));
        checks.add(() -> assertEquals(written(100, 1), v.get("compiled.out")));

        // a launch the device refuses names the kernel; the context stays usable
        checks.add(() -> assertTrue(v.get("badLaunch").startsWith("GpuException | "), v.get("badLaunch")));
        checks.add(() -> assertTrue(v.get("badLaunch").contains("write_pe"), v.get("badLaunch")));
        checks.add(() -> assertTrue(v.get("badLaunch").contains("2048"), v.get("badLaunch")));
        checks.add(() -> assertEquals(written(200, 1), v.get("afterBadLaunch.out")));
        checks.add(() -> assertTrue(v.get("unknownKernel").startsWith("GpuException | "), v.get("unknownKernel")));
        checks.add(() -> assertTrue(v.get("unknownKernel").contains("no_such_kernel"), v.get("unknownKernel")));

        // arguments Java cannot map are refused before the launch
        checks.add(() -> assertTrue(v.get("badArgument").startsWith("IllegalArgumentException | argument 1 of kernel"
                + " write_pe has type java.lang.String"), v.get("badArgument")));
        checks.add(() -> assertTrue(v.get("nullArgument").startsWith("IllegalArgumentException | argument 1 of kernel"
                + " write_pe is null"), v.get("nullArgument")));
        checks.add(() -> assertEquals(written(250, 1), v.get("afterBadArguments.out")));

        // the image of run-time compilation (a cubin) loads from bytes and from a file
        checks.add(() -> assertEquals("true", v.get("image.elf"), "a cubin is an ELF file"));
        checks.add(() -> assertEquals("true", v.get("fromBytes.bindsState")));
        checks.add(() -> assertEquals(written(300, 1), v.get("fromBytes.out")));
        checks.add(() -> assertEquals("true", v.get("fromFile.bindsState")));
        checks.add(() -> assertEquals(written(400, 1), v.get("fromFile.out")));

        // without jshmem.h there is no state to bind, and the kernel still runs
        checks.add(() -> assertEquals("false", v.get("plain.bindsState")));
        checks.add(() -> assertEquals(written(500, 0), v.get("plain.out")));
        // a multiprocessor of any GPU jshmem supports holds at least 8 blocks of 128 threads of this kernel
        checks.add(() -> assertTrue(Integer.parseInt(v.get("coop.max")) >= 8, v.get("coop.max")));
        checks.add(() -> assertEquals(v.get("coop.max") + "," + v.get("coop.max"), v.get("coop.met")));
        checks.add(() -> assertTrue(v.get("coop.tooBig").startsWith("IllegalArgumentException | "), v.get("coop.tooBig")));
        checks.add(() -> assertTrue(v.get("coop.tooBig").contains("cannot be resident at once"), v.get("coop.tooBig")));

        // each chained pair: out[0] written, seen after the wait (its wait holds), and seen before it (0: early);
        // on compute capability 9.0 and up one of the tries starts early (the last), below that none can
        checks.add(() -> {
            List<String> tries = List.of(v.get("chained.out").split(";"));
            boolean overlaps = Integer.parseInt(v.get("chained.ccMajor")) >= 9;
            assertTrue(tries.stream().allMatch(t -> t.equals("7,7,7") || t.equals("7,7,0")), tries.toString());
            assertEquals(overlaps ? "7,7,0" : "7,7,7", tries.get(tries.size() - 1), tries.toString());
            assertEquals(overlaps ? 1 : 0, tries.stream().filter("7,7,0"::equals).count(), tries.toString());
        });

        // after close: every use that needs the module fails naming it; a second close does nothing
        checks.add(() -> assertEquals("module good.cu (closed)", v.get("closed.toString")));
        String closed = "ShmemStateException | module good.cu was closed";
        checks.add(() -> assertEquals(closed, v.get("closed.kernel")));
        checks.add(() -> assertEquals(closed, v.get("closed.launch")));
        checks.add(() -> assertEquals(closed, v.get("closed.global")));
        checks.add(() -> assertEquals("no exception", v.get("closed.closeAgain")));
        assertAll(checks);
    }

    /** out[0..32] after a 32-thread launch with {@code value}: value + lane, then out[32]. */
    private static String written(int value, int last) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < DeviceModuleProgram.LANES; i++) {
            b.append(value + i).append(',');
        }
        return b.append(last).toString();
    }
}
