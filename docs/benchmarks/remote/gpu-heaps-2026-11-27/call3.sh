#!/usr/bin/env bash
# GPU heaps across "nodes" (issue 17 item 3) again, then the one-node GPU suite's classes that the change touches
cd "$(dirname "$0")"
timeout 330 bash gpu-run.sh remote; echo "remote rc=$?"
timeout 230 bash gpu-run.sh classes --select-class org.jshmem.it.ApiTest --select-class org.jshmem.it.CompletenessTest \
  --select-class org.jshmem.it.gpu.GpuStreamOpsTest --select-method 'org.jshmem.it.coll.GpuCollectivesTest#everyCollectiveBlockingAndOnAStream' \
  > "$OUT/one-node.log" 2>&1; echo "one-node rc=$?"
sed 's/\x1b\[[0-9;]*m//g' "$OUT/one-node.log" | grep -E "✔|✘|tests (successful|failed)" | head -40
