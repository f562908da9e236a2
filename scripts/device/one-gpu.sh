# Sourced by the device scripts. On a machine with one GPU every PE of a job shares it. MPS lets
# the PEs' kernels run side by side; without it the GPU time-slices between processes, and a kernel
# that waits for a peer's kernel waits whole slices. But a kernel that traps puts the MPS server in
# a fault state that refuses new clients for a while, and MPS loses device printf: the debug-trap
# tests run without it.
gpu_count() { nvidia-smi -L 2>/dev/null | grep -c '^GPU'; }

mps_pipes=/tmp/jshmem-mps

mps_start() {
  export CUDA_MPS_PIPE_DIRECTORY=$mps_pipes CUDA_MPS_LOG_DIRECTORY=$mps_pipes-log
  mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
  nvidia-cuda-mps-control -d && echo "== MPS started: the PEs that share a GPU run side by side"
}

# Stops the server mps_start started, if any (also from a shell that did not start it).
mps_stop() {
  [ -e "$mps_pipes/control" ] || return 0
  echo quit | CUDA_MPS_PIPE_DIRECTORY=$mps_pipes nvidia-cuda-mps-control
  sleep 2
  unset CUDA_MPS_PIPE_DIRECTORY CUDA_MPS_LOG_DIRECTORY
}
