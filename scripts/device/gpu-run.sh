#!/usr/bin/env bash
# Runs on the GPU machine from .devpack (see scripts/device/pack.sh): GPU tests and benchmarks.
#   gpu-run.sh tests [junit options]   the multi-PE suite on the GPU backend + the GPU-only tests
#   gpu-run.sh gpu-tests               only the GPU-only tests (tag "gpu", the perf suite's GPU forms included)
#   gpu-run.sh classes SELECTORS...    chosen JUnit classes (--select-class ...) on the GPU backend
#   gpu-run.sh rma                     perf on the GPU heap: host-called put/iput/get/get_nbi, device and
#                                      on-stream put/get bandwidth (destinations verified), 2 PEs
#   gpu-run.sh graph                   perf on the GPU heap, 2 PEs: barrier_latency, put_signal_latency, reduce and
#                                      fcollect queued on a stream (--form on_stream) and recorded in a CUDA graph
#                                      (--form graph)
#   gpu-run.sh contexts                perf on the GPU heap, 2 PEs: ctx_put_rate (two threads per PE, one shared
#                                      context vs a context each) and atomic_fp_latency beside atomic_latency
#   gpu-run.sh torch-allocator         PyTorch with finegrained-alloc as its CUDA allocator: the matmul
#                                      check, then a transformer-block training loop beside the default allocator
#   gpu-run.sh anchors                 NVSHMEM / p2p anchors
#   gpu-run.sh bench-coll [max [reps]] GPU collectives benchmark (GpuCollectivesBench), 2 PEs: default
#                                      thresholds, then reductions always two-shot, always one-shot,
#                                      no copy engines, the service kernel for the host-called small
#                                      ones (JSHMEM_GPU_SERVICE_US=1000), and the copy-engine reduce-scatter
#                                      and two-shot (JSHMEM_GPU_REDUCESCATTER_CE_MIN=1M); CSV and log per run in $OUT
#   gpu-run.sh scaling [counts]        GpuCollectivesBench on 2, 4 and 8 PEs (or the counts given; at most one
#                                      PE per GPU where there are several), up to 64 MB (SCALING_MAX), one CSV per
#                                      count, each after the NVSHMEM and NCCL anchors at that count
#                                      (SCALING_ANCHORS=0 skips them), and the bus bandwidth chart (ScalingChart)
#   gpu-run.sh gemm [shapes]           gemm-ext on this GPU: the cuBLAS anchor, then the GEMM alone on one PE
#                                      (every anchor shape, bf16 and fp16, validated against cuBLAS, and
#                                      beside cuBLAS timed as it is: --reference), in the same run; CSVs
#                                      and charts in $OUT
#   gpu-run.sh gemm-fused [np]         all-scatter and all-reduce (or GEMM_COLLECTIVES) on np PEs (default 2)
#                                      sharing the GPU under MPS, beside the reference path (cuBLAS + jshmem's
#                                      collective); GEMM_SHAPES, GEMM_DTYPE (bf16) choose the cases
#   gpu-run.sh trace [gemm|on_stream]  what tracing costs: the GEMM alone on 1 PE and the fused all-scatter on 2 PEs
#                                      (bf16, TRACE_SHAPES, default 8192x8192x8192, validated), and perf's on-stream
#                                      barrier, reduce and fcollect on 2 PEs, each with JSHMEM_TRACE unset, then set,
#                                      TRACE_ROUNDS times (default 2) (both parts, or the one named); under MPS on one
#                                      GPU; CSVs per round, and the last traces' summaries (trace-summary), in $OUT
#   gpu-run.sh gemm-tiles [shapes]     the GEMM alone on one PE with each kernel variant (tile) and
#                                      dtype, validated: the data behind the default tile
#   gpu-run.sh tp                      the tensor-parallel cases on 2 PEs: the PyTorch anchor
#                                      (anchors/run-torch.sh); the all-scatter's shard alone (8192x4096x8192 fp16
#                                      on each PE: the GEMM its fused form cannot beat); all_scatter fp16 8192^3,
#                                      all_gather_gemm fp16 8192x11008x4096, gemm_reduce_scatter and all_reduce
#                                      bf16, fused beside the reference path, validated, then 100 back-to-back calls
#                                      validated again; then GpuCollectivesBench to 64 MB (reduce-scatter's bus
#                                      bandwidth)
#   gpu-run.sh remote [junit options]  GPU heaps across "nodes" of this machine: the API suite, the
#                                      on-stream tests and the collectives (blocking and on-stream) on the GPU
#                                      backend with every peer remote, then on two "nodes"; then kernels' calls
#                                      to PEs of other nodes (DeviceProxyTest); then the remote transport's own
#                                      tests on this machine's MPI
#   gpu-run.sh cmd ...                 any command with the environment set
# Logs go to $OUT when it is set.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-/tmp/jshmem-out}
mkdir -p "$out"
export JSHMEM_MPI_JAR=$here/mpi.jar JSHMEM_MPI_LIB_DIR=/usr/lib/x86_64-linux-gnu
cp="$here/lib/*:$here/mpi.jar"
jars=$(printf '%s:' "$here"/lib/*.jar)   # spelled out: the JUnit console launcher does not expand "lib/*"
testcp="$here/test-classes:${jars}$here/mpi.jar"
. "$here/one-gpu.sh"
junit() {
  java -Djshmem.test.classpath="$testcp" -Djava.library.path=/usr/lib/x86_64-linux-gnu "$@"
}
# JUnit console with JVM options $1 (e.g. the test backend): the selection under MPS less the trap
# tests, then the trap tests without MPS (see one-gpu.sh). MPS on several GPUs too: the suite runs
# 3-PE jobs, and two of their PEs then share a GPU (time-sliced without MPS, a 3-PE all-gather + GEMM
# on 2 GPUs runs past its test's time limit). Test classes run GPU_TEST_PARALLELISM at a time (default 4):
# a job keeps this machine's cores and GPU busy a fraction of its time, as on the 2-core machine
# (tests/integration/pom.xml); 6 at a time on a 16-core H100 machine starved StressTest's 2-PE
# put-with-signal ring past its 3-minute limit. The classes that must run alone say so (@Isolated).
# Each test's time is in the XML reports under $OUT/junit and $OUT/junit-trap.
suite() {
  local props=($1); shift
  local launcher=("${props[@]}" -jar "$here/junit-platform-console-standalone.jar" execute -cp "$testcp" --details=${JUNIT_DETAILS:-testfeed} --disable-banner
    --config=junit.jupiter.execution.parallel.enabled=true --config=junit.jupiter.execution.parallel.mode.default=same_thread
    --config=junit.jupiter.execution.parallel.mode.classes.default=concurrent --config=junit.jupiter.execution.parallel.config.strategy=fixed
    --config=junit.jupiter.execution.parallel.config.fixed.parallelism=${GPU_TEST_PARALLELISM:-4})
  mps_start
  junit "${launcher[@]}" --reports-dir "$out/junit" --exclude-tag debug-trap "$@"; local rc=$?
  mps_stop
  [ "${TRAP_TESTS:-1}" = 0 ] && return $rc   # TRAP_TESTS=0: the selection alone (smoke.sh's long classes)
  echo "== the debug-trap tests, without MPS"
  junit "${launcher[@]}" --reports-dir "$out/junit-trap" --select-class org.jshmem.it.gpu.DeviceApiTest \
    --include-tag debug-trap || rc=$?
  return $rc
}
step=${1:-tests}; shift || true
# a step killed by its caller's time limit still stops the MPS server it started: one left up would make the
# next step's PEs its clients. `cmd` leaves MPS as it finds it.
[ "$step" = cmd ] || trap 'mps_stop > /dev/null 2>&1' EXIT
case $step in
  tests)
    # left out: the bootstrap tests (they build jobs from the JVM's class path, which under the console launcher
    # holds the launcher alone), and the classes and methods whose jobs run on host heaps whatever the suite's
    # backend, or test the launcher or expectations alone: none of them runs GPU code, and all run in CI
    suite -Djshmem.test.backend=cuda --select-package org.jshmem.it --exclude-classname \
      '.*(BootstrapFailureTest|MpiNativeBootstrapTest|RemoteSettingsTest|RemoteTransportTest|SpinTest|JshmemrunTest|SmokeTest|DeviceApiExpectedTest|NvtxTest)' \
      --exclude-tag host-heap \
      "$@" 2>&1 | tee "$out/gpu-tests.log" ;;
  remote)
    mps_start
    rc=0
    for mode in remote two-nodes; do
      echo "== GPU heaps, JSHMEM transport test mode $mode"
      junit -Djshmem.test.backend=cuda -Djshmem.test.transport=$mode -jar "$here/junit-platform-console-standalone.jar" \
        execute -cp "$testcp" --details=tree --disable-banner --select-class org.jshmem.it.ApiTest \
        --select-class org.jshmem.it.CompletenessTest --select-class org.jshmem.it.gpu.GpuStreamOpsTest \
        --select-class org.jshmem.it.coll.TeamCollectivesTest \
        --select-method 'org.jshmem.it.coll.GpuCollectivesTest#everyCollectiveBlockingAndOnAStream' "$@" || rc=1
    done 2>&1 | tee "$out/gpu-remote.log"
    echo "== kernels' calls to PEs of other nodes, through the device proxy" | tee -a "$out/gpu-remote.log"
    junit -jar "$here/junit-platform-console-standalone.jar" execute -cp "$testcp" --details=tree --disable-banner \
      --select-class org.jshmem.it.gpu.DeviceProxyTest 2>&1 | tee -a "$out/gpu-remote.log"
    echo "== the remote transport's tests on this machine's MPI" | tee -a "$out/gpu-remote.log"
    junit -jar "$here/junit-platform-console-standalone.jar" execute -cp "$testcp" --details=tree --disable-banner \
      --select-class org.jshmem.it.RemoteTransportTest --select-class org.jshmem.it.RemoteSettingsTest \
      --select-class org.jshmem.it.PeFailureTest 2>&1 | tee -a "$out/gpu-remote.log"
    mps_stop ;;
  gpu-tests)
    suite "" --select-package org.jshmem.it --select-package org.jshmem.perf --include-tag gpu "$@" 2>&1 \
      | tee "$out/gpu-only-tests.log" ;;
  classes)
    suite -Djshmem.test.backend=cuda "$@" 2>&1 | tee -a "$out/gpu-classes.log" ;;
  rma)
    # host-called RMA on the GPU heap (strided iput, non-blocking put/get) and the device and on-stream
    # bandwidth forms, each case's destination verified and checked against the copy engine's rate
    [ "$(gpu_count)" -lt 2 ] && mps_start
    for spec in "host put_bw iput_bw get_bw get_nbi_bw --sizes 8K,1M,8M" \
                "device put_bw get_bw --sizes 4K,64K,1M,4M,16M" "on_stream put_bw get_bw --sizes 4K,64K,1M,16M"; do
      set -- $spec; form=$1; shift
      echo "== perf --form $form $*, 2 PEs on $(gpu_count) GPU(s)"
      env JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=1G OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
        timeout 150 mpirun -np 2 --bind-to none java --enable-native-access=ALL-UNNAMED \
        -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" org.jshmem.perf.PerfMain "$@" --form "$form" \
        --progress never --csv "$out/rma-$form.csv" 2>&1 | tee -a "$out/rma.log"
    done
    mps_stop ;;
  graph)
    # the on-stream loops as queued one by one and recorded in a CUDA graph (perf --form graph), 2 PEs:
    # what a graph saves per operation
    [ "$(gpu_count)" -lt 2 ] && mps_start
    for form in on_stream graph; do
      echo "== perf --form $form, 2 PEs on $(gpu_count) GPU(s)"
      env JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=1G OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
        timeout 200 mpirun -np 2 --bind-to none java --enable-native-access=ALL-UNNAMED \
        -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" org.jshmem.perf.PerfMain barrier_latency \
        put_signal_latency reduce fcollect --sizes 8,4K,64K --form "$form" --progress never \
        --csv "$out/graph-$form.csv" 2>&1 | tee -a "$out/graph.log"
    done
    mps_stop ;;
  contexts)
    [ "$(gpu_count)" -lt 2 ] && mps_start
    echo "== perf ctx_put_rate atomic_fp_latency atomic_latency, 2 PEs on $(gpu_count) GPU(s)"
    env JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=256M OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
      timeout 200 mpirun -np 2 --bind-to none java --enable-native-access=ALL-UNNAMED \
      -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" org.jshmem.perf.PerfMain ctx_put_rate atomic_fp_latency \
      atomic_latency --form host -n 2000 --progress never --csv "$out/contexts.csv" "$@" 2>&1 | tee -a "$out/contexts.log"
    mps_stop ;;
  torch-allocator)
    python3 "$here/torch_allocator.py" "$here/libfinegrained_alloc_cuda.so" 2>&1 | tee "$out/torch-allocator.log"
    python3 "$here/torch_training.py" "$here/libfinegrained_alloc_cuda.so" --csv "$out/torch-training.csv" "$@" 2>&1 \
      | tee "$out/torch-training.log" ;;
  anchors)
    bash "$here/anchors/run-nvshmem.sh" 2>&1 | tee "$out/anchor-nvshmem.log"
    bash "$here/anchors/run-p2p.sh" 2>&1 | tee "$out/anchor-p2p.log" ;;
  bench-coll)
    [ "$(gpu_count)" -lt 2 ] && mps_start   # PEs sharing a GPU without MPS time-slice it (ms per sync)
    for v in default JSHMEM_GPU_REDUCE_ONESHOT_MAX=0 JSHMEM_GPU_REDUCE_ONESHOT_MAX=1G JSHMEM_GPU_COLL_CE_MIN=0 \
             JSHMEM_GPU_SERVICE_US=1000 JSHMEM_GPU_REDUCESCATTER_CE_MIN=1M; do
      name=$(echo "$v" | tr '=' '-' | tr 'A-Z' 'a-z')
      extra=(); [ "$v" != default ] && extra=("$v")
      echo "== GpuCollectivesBench, $v"
      env JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=512M OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
        ${extra[@]+"${extra[@]}"} timeout 300 mpirun -np 2 java --enable-native-access=ALL-UNNAMED \
        -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" org.jshmem.perf.gpu.GpuCollectivesBench \
        "$out/gpu-coll-$name.csv" "$@" 2>&1 | tee "$out/gpu-coll-$name.log"
    done
    mps_stop ;;
  scaling)
    # PEs never outnumber GPUs where there are several (oversubscribed GPUs would measure time-slicing);
    # on one GPU every count shares it under MPS. Each count: the anchors, then jshmem, interleaved.
    gpus=$(gpu_count); counts=()
    for n in ${1:-2 4 8}; do
      if [ "$gpus" -ge 2 ] && [ "$n" -gt "$gpus" ]; then echo "== $n PEs: skipped, this machine has $gpus GPUs"; else counts+=("$n"); fi
    done
    [ "$gpus" -lt 2 ] && mps_start
    for n in ${counts[@]+"${counts[@]}"}; do
      if [ "${SCALING_ANCHORS:-1}" = 1 ] && [ "$gpus" -ge 2 ]; then
        echo "== NVSHMEM anchor, $n PEs"
        bash "$here/anchors/run-nvshmem.sh" "$n" > "$out/anchor-nvshmem-${n}pe.log" 2>&1
        bash "$here/anchor-to-csv.sh" --nvshmem -o "$out/nvshmem-${n}pe.csv" "$out/anchor-nvshmem-${n}pe.log" \
          || { tail -5 "$out/anchor-nvshmem-${n}pe.log"; rm -f "$out/nvshmem-${n}pe.csv"; }
        echo "== NCCL / torch symm anchor, $n PEs"
        bash "$here/anchors/run-symm.sh" "$n" 2>&1 | tee "$out/anchor-symm-${n}pe.log"
        bash "$here/anchor-to-csv.sh" --nccl -o "$out/nccl-${n}pe.csv" "$out/anchor-symm-${n}pe.log" || rm -f "$out/nccl-${n}pe.csv"
      fi
      echo "== GpuCollectivesBench, $n PEs on $gpus GPU(s)"
      env JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=1G timeout 150 mpirun -np "$n" --oversubscribe java \
        --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
        org.jshmem.perf.gpu.GpuCollectivesBench "$out/gpu-coll-${n}pe.csv" "${SCALING_MAX:-64M}" 3 2>&1 | tee "$out/gpu-coll-${n}pe.log"
    done
    mps_stop
    # prints the points; the PNG needs fonts, which GPU machines may lack (then draw it on the build machine)
    java -cp "$cp" org.jshmem.perf.ScalingChart -o "$out/busbw-vs-pes.png" --sizes 1M,64M \
      --title "GPU collectives on $gpus GPU(s): bus bandwidth against PEs" "$out"/gpu-coll-*pe.csv \
      $(ls "$out"/nvshmem-*pe.csv "$out"/nccl-*pe.csv 2>/dev/null) 2>&1 | grep -v "^\s*at " \
      || { rm -f "$out/busbw-vs-pes.png"; echo "no chart here: run ScalingChart (see its javadoc) on the CSVs in $out"; } ;;
  gemm)
    bash "$here/anchors/run-gemm.sh" 2>&1 | tee "$out/anchor-cublas.csv"
    for tile in ${GEMM_TILES:-default}; do
      for t in bf16 fp16; do
        echo "== gemm alone, 1 PE, $t, tile $tile"
        opt=(); [ "$tile" != default ] && opt=(--tile "$tile")
        env JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=3G timeout 420 mpirun -np 1 java --enable-native-access=ALL-UNNAMED \
          -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" org.jshmem.gemm.cli.GemmMain -c none \
          --shapes "${1:-anchor}" --dtype $t --validate --reference --iters 20 --warmup 5 ${opt[@]+"${opt[@]}"} \
          --csv "$out/gemm-alone.csv" --plot "$out" 2>&1 | tee -a "$out/gemm-alone.log"
      done
    done ;;
  trace)
    part=${1:-both}
    cases=(); [ "$part" = on_stream ] || cases=("1 none" "2 all_scatter")
    [ "$(gpu_count)" -lt 2 ] && mps_start
    # off and on alternate, TRACE_ROUNDS times (default 2): the GPU's clocks and MPS drift between runs by as
    # much as tracing costs, so compare the medians of the rounds
    for r in $(seq "${TRACE_ROUNDS:-2}"); do for tracing in off on; do
      for case in ${cases[@]+"${cases[@]}"}; do
        set -- $case
        tenv=(); [ "$tracing" = on ] && tenv=(JSHMEM_TRACE="/tmp/jshmem-trace-$2.json")
        echo "== gemm $2 bf16, $1 PE(s), tracing $tracing"
        env JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=3G ${tenv[@]+"${tenv[@]}"} timeout 240 mpirun -np "$1" java \
          --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
          org.jshmem.gemm.cli.GemmMain -c "$2" --shapes "${TRACE_SHAPES:-8192x8192x8192}" --dtype bf16 --iters 20 \
          --warmup 5 --validate --csv "$out/trace-$tracing-$r.csv" 2>&1 | tee -a "$out/trace.log"
      done
      [ "$part" = gemm ] && continue
      tenv=(); [ "$tracing" = on ] && tenv=(JSHMEM_TRACE="/tmp/jshmem-trace-on_stream.json")
      echo "== perf barrier_latency reduce fcollect --form on_stream, 2 PEs, tracing $tracing"
      env JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=1G ${tenv[@]+"${tenv[@]}"} timeout 200 mpirun -np 2 --bind-to none java \
        --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" org.jshmem.perf.PerfMain \
        barrier_latency reduce fcollect --sizes 8,64K,1M --form on_stream --progress never \
        --csv "$out/trace-on_stream-$tracing-$r.csv" 2>&1 | tee -a "$out/trace.log"
    done; done
    mps_stop
    for c in none all_scatter on_stream; do
      [ -f "/tmp/jshmem-trace-$c.json" ] || continue
      echo "== trace-summary, $c" | tee -a "$out/trace-summary.txt"
      java -cp "$cp" org.jshmem.trace.TraceSummary "/tmp/jshmem-trace-$c.json" 2>&1 | tee -a "$out/trace-summary.txt"
      rm -f "/tmp/jshmem-trace-$c.json"
    done ;;
  gemm-tiles)
    for tile in ${GEMM_TILES:-128x256x32 128x128x32 128x256x64 128x128x64}; do
      for t in ${GEMM_DTYPES:-bf16}; do
        echo "== gemm alone, tile $tile, $t"
        env JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=3G timeout 300 mpirun -np 1 java --enable-native-access=ALL-UNNAMED \
          -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" org.jshmem.gemm.cli.GemmMain -c none \
          --kernel ${GEMM_KERNEL:-portable} --tile $tile --shapes "${1:-8192x8192x8192,3840x3840x4096,1000x999x1001}" \
          --dtype $t --validate --iters 10 --warmup 3 --csv "$out/gemm-tiles.csv" 2>&1 | tee -a "$out/gemm-tiles.log"
      done
    done ;;
  gemm-fused)
    np=${1:-2}
    [ "$(gpu_count)" -lt "$np" ] && mps_start
    for c in ${GEMM_COLLECTIVES:-all_scatter all_reduce}; do
      for shape in ${GEMM_SHAPES:-8192x8192x8192 4096x4096x4096 1024x8192x8192 2048x2048x2048 1024x1024x1024}; do
        echo "== gemm $c $shape, $np PEs on $(gpu_count) GPU(s)"
        env JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=4G timeout 300 mpirun -np "$np" --oversubscribe java \
          --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
          org.jshmem.gemm.cli.GemmMain -c $c --shapes $shape --dtype ${GEMM_DTYPE:-bf16} --validate --reference --iters 10 \
          --warmup 3 --path fused --csv "$out/gemm-fused-${np}pe.csv" 2>&1 | tee -a "$out/gemm-fused-${np}pe.log"
      done
    done
    mps_stop ;;
  tp)
    [ "$(gpu_count)" -lt 2 ] && mps_start
    echo "== PyTorch anchor on $(gpu_count) GPU(s)"
    (export PATH=/opt/torch/.venv/bin:$PATH; timeout 240 bash "$here/anchors/run-torch.sh") 2>&1 | tee "$out/torch-anchor.log"
    tp_gemm() {   # GemmMain on 2 PEs, 20 timed calls, validated: collective dtype shape [options]
      echo "== gemm $1 $3 $2, 2 PEs on $(gpu_count) GPU(s)"
      local c=$1 dt=$2 shape=$3; shift 3
      env JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=4G timeout 150 mpirun -np 2 --oversubscribe java \
        --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
        org.jshmem.gemm.cli.GemmMain -c $c --shapes $shape --dtype $dt --validate --iters 20 --warmup 5 "$@" \
        2>&1 | tee -a "$out/tp.log"
    }
    tp_gemm none fp16 8192x4096x8192 --csv "$out/tp-shard-alone.csv"   # the all-scatter's shard alone on each PE
    for case in "all_scatter fp16 8192x8192x8192" "all_gather_gemm fp16 8192x11008x4096" \
                "gemm_reduce_scatter bf16 8192x8192x4096" "all_reduce bf16 8192x8192x8192"; do
      tp_gemm $case --reference --back-to-back 100 --path fused --csv "$out/tp-fused.csv"
    done
    echo "== GpuCollectivesBench to 64 MB, 2 PEs on $(gpu_count) GPU(s)"
    env JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=1G timeout 150 mpirun -np 2 --oversubscribe java \
      --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
      org.jshmem.perf.gpu.GpuCollectivesBench "$out/tp-coll.csv" 64M 3 2>&1 | tee "$out/tp-coll.log"
    mps_stop ;;
  cmd) "$@" ;;
  *) echo "unknown step $step" >&2; exit 2 ;;
esac
