#!/usr/bin/env bash
# Runs on the GPU machine: unpacks the carried Java runtime, sets the environment the GPU machine
# needs, then runs the given command. Packed into .devpack/ by scripts/device/pack.sh.  Example:
#   cd .devpack && bash on-device.sh bash gpu-run.sh tests
# The shared recipe (../shared/device/on-device.sh) with one change: the runtime comes as jre.txz
# (xz, about 18 MiB smaller than its jre.tgz), because the device tool's 64 MiB carry counts the
# tracked tree as well. Where the machine has no xz, Python's tarfile unpacks it.
here=$(cd "$(dirname "$0")" && pwd)
if [ ! -x /tmp/jre/bin/java ]; then
  tar -xJf "$here/jre.txz" -C /tmp 2>/dev/null \
    || python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' "$here/jre.txz" /tmp \
    || { echo "on-device.sh: cannot unpack $here/jre.txz (neither tar -J nor python3 worked)" >&2; exit 1; }
fi
export JAVA_HOME=/tmp/jre PATH=/tmp/jre/bin:$PATH
cudart=$(ls -d /usr/local/cuda/targets/x86_64-linux/lib /usr/local/cuda*/targets/x86_64-linux/lib 2>/dev/null | head -1)
export LD_LIBRARY_PATH=${cudart:+$cudart:}/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# mpirun runs as root there; NVLink multicast (NVLS) must stay off on these machines.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
exec "$@"
