package org.jshmem.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.jshmem.gpu.shim.Shim;
import org.junit.jupiter.api.Test;

class TimeSlicingWarningTest {
    private static final Shim.DeviceInfo H200 = new Shim.DeviceInfo(0, "NVIDIA H200", "0000:19:00", 9, 0, 132, 140L << 30);
    private static final boolean[] ZERO_AND_TWO = {true, false, true};

    @Test
    void theLowestPeOnASharedDeviceWarnsWithoutMps() {
        String w = GpuBackend.timeSlicingWarning(0, ZERO_AND_TWO, false, H200).orElseThrow();
        assertTrue(w.contains("PEs 0, 2 share NVIDIA H200 (device 0, PCI 0000:19:00"), w);
        assertTrue(w.contains("nvidia-cuda-mps-control -d"), w);
    }

    @Test
    void theOtherPesOnTheDeviceStaySilent() {
        assertEquals(Optional.empty(), GpuBackend.timeSlicingWarning(2, ZERO_AND_TWO, false, H200));
    }

    @Test
    void noWarningWithMpsOrAlone() {
        assertEquals(Optional.empty(), GpuBackend.timeSlicingWarning(0, ZERO_AND_TWO, true, H200));
        assertEquals(Optional.empty(), GpuBackend.timeSlicingWarning(1, new boolean[] {false, true}, false, H200));
    }
}
