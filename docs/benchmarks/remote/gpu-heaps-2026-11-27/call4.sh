#!/usr/bin/env bash
# GPU heaps across "nodes" (issue 17 item 3): the on-stream signal wait on the host, the shared team per node in the checks
cd "$(dirname "$0")"
timeout 450 bash gpu-run.sh remote > "$OUT/remote-run.log" 2>&1; echo "remote rc=$?"
sed 's/\x1b\[[0-9;]*m//g' "$OUT/gpu-remote.log" | grep -E "✘|== |tests (successful|failed)"
