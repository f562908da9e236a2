#!/usr/bin/env bash
# Session 2026-11-27g, call G on 2 x H200: the device put 1 MB row, kernel time against event time. Nsight Compute
# (--clock-control none) times each put_bw kernel of the NVSHMEM anchor and of jshmem's perf (1 MB x 10 iterations
# per launch, 32 blocks of 1024 threads, both), beside the event timings of the same runs.
set -u
here=$(pwd)
w=/tmp/oG; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
echo "ncu: $NCU"
SECONDS=0
nv=$(python3 -c "import nvidia.nvshmem,os;print(os.path.dirname(nvidia.nvshmem.__file__))" 2>/dev/null)
[ -d "$nv" ] || nv=$(find / -path '*nvidia/nvshmem' -type d -not -path '/proc/*' 2>/dev/null | head -1)
mkdir -p /tmp/nvlib && ln -sf "$nv/lib/libnvshmem_host.so.3" /tmp/nvlib/libnvshmem_host.so
cd anchors
nvcc -O3 -rdc=true -gencode=arch=compute_90,code=sm_90 -I"$nv/include" $(mpicc --showme:compile) \
  nvshmem_anchor.cu -o /tmp/nvshmem_anchor -L/tmp/nvlib -lnvshmem_host "$nv/lib/libnvshmem_device.a" \
  $(mpicc --showme:link) -lcuda 2>&1 | grep -v -i warning
cd ..
echo "anchor built at ${SECONDS}s"
export LD_LIBRARY_PATH=$nv/lib:${LD_LIBRARY_PATH:-} NVSHMEM_DISABLE_NVLS=1
m="--clock-control none --kernel-name regex:put_bw --metrics gpu__time_duration.sum,launch__grid_size"
timeout 150 mpirun -np 2 -x LD_LIBRARY_PATH -x NVSHMEM_DISABLE_NVLS $NCU $m /tmp/nvshmem_anchor > $w/ncu-nvshmem.log 2>&1
echo "anchor under ncu rc=$? at ${SECONDS}s"
grep -E "^ +[0-9]+ +[0-9.]+ +[0-9.]+$|put_bw" $w/ncu-nvshmem.log | head -5
tar czf "$out/callG.tgz" -C $w .
cp="$here/lib/*:$here/mpi.jar"
JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=1G timeout 150 mpirun -np 2 --bind-to none $NCU $m \
  java --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
  org.jshmem.perf.PerfMain put_bw --sizes 64K,1M --reps 5 --form device --progress never --csv $w/jshmem.csv > $w/ncu-jshmem.log 2>&1
echo "jshmem under ncu rc=$? at ${SECONDS}s"
grep -E "gpu__time_duration|launch__grid_size" $w/ncu-nvshmem.log | head -60 > $w/nvshmem-durations.txt
grep -E "gpu__time_duration|launch__grid_size" $w/ncu-jshmem.log | head -60 > $w/jshmem-durations.txt
paste -d' ' <(grep -o "gpu__time_duration.sum.*" $w/ncu-nvshmem.log | head -40 | tr -s ' ') /dev/null | head -40
echo ---
grep -o "gpu__time_duration.sum.*" $w/ncu-jshmem.log | head -20 | tr -s ' '
tar czf "$out/callG.tgz" -C $w .
