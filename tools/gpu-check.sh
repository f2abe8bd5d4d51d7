#!/usr/bin/env bash
# One command to verify the CUDA path on a machine with a GPU: configure with
# CUDA, build, run every test that needs a GPU or CUDA, benchmark the GPU
# against the CPU in the same run, and write one report.
#
#   tools/gpu-check.sh [BUILD_DIR]                 (default: build-gpu)
#   tools/gpu-check.sh --bundle FILE [WORK_DIR]    a build packed elsewhere
#
# A GPU machine that cannot build the project (no LLVM/MLIR 19) runs the
# same checks on a CUDA build packed by tools/gpu-bundle.sh on one that can;
# the checkout must be the one the build was made from.
#
# The report (BUILD_DIR/gpu-check-report.txt, or $CAVS_GPU_REPORT) has the
# nvidia-smi line, pass/fail per check and the benchmark figures. Without a
# GPU it says so, writes a report saying so, and exits 0: the skip is the
# answer. Exit status 1: a check failed. NVIDIA_SMI names the nvidia-smi to
# ask (tests point it at `false` to take the no-GPU path).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
bundle=
if [[ ${1:-} == --bundle ]]; then
  bundle=$(readlink -f "${2:?--bundle needs the archive tools/gpu-bundle.sh made}")
  shift 2
fi
build=$(mkdir -p "${1:-build-gpu}" && cd "${1:-build-gpu}" && pwd)
report=${CAVS_GPU_REPORT:-$build/gpu-check-report.txt}
smi=${NVIDIA_SMI:-nvidia-smi}
jobs=$(nproc)
: > "$report"

say() { echo "$*" | tee -a "$report"; }

# --- 1. Is there a GPU? --------------------------------------------------------
if ! gpus=$("$smi" --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null) ||
   [[ -z $gpus ]]; then
  say "gpu-check: skipped: no GPU ('$smi' lists none); the CUDA path was not checked"
  exit 0
fi
say "gpu-check: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname)"
say "nvidia-smi: $gpus"

failed=0
check() { # check NAME COMMAND...: runs it, logs to BUILD/gpu-check-NAME.log
  local name=$1 log="$build/gpu-check-$1.log"
  shift
  local start=$SECONDS
  if "$@" > "$log" 2>&1; then
    say "PASS $name ($((SECONDS - start)) s)"
  else
    say "FAIL $name ($((SECONDS - start)) s; see $log)"
    failed=1
  fi
}

# --- 2. Build with CUDA, or unpack a bundle ---------------------------------
if [[ -n $bundle ]]; then
  # The programs were compiled with the packing machine's absolute paths
  # (the examples' models, the runtime's headers and libraries): make them
  # name this checkout and the unpacked build.
  check unpack tar -C "$build" -xJf "$bundle"
  source_path=$(sed -n 's/^source=//p' "$build/paths")
  build_path=$(sed -n 's/^build=//p' "$build/paths")
  for link in "$source_path:$root" "$build_path:$build/build"; do
    from=${link%%:*} to=${link#*:}
    [[ $(readlink -f "$from") == "$(readlink -f "$to")" ]] && continue
    if [[ -e $from ]]; then
      say "gpu-check: $from exists and is not $to: the bundle's programs cannot run here"
      exit 1
    fi
    mkdir -p "$(dirname "$from")" && ln -s "$to" "$from"
  done
  # The bundle's libraries, then CUDA's, wherever this machine keeps them.
  cuda_dirs=$( (ldconfig -p | awk '/libcublas\.so|libnvrtc\.so/ {print $NF}'
    find / -xdev \( -name 'libcublas.so.*' -o -name 'libnvrtc.so.*' \) \
      -not -path '/proc/*' 2>/dev/null) | xargs -r -n1 dirname | sort -u | paste -sd:)
  export LD_LIBRARY_PATH=$build/deps${cuda_dirs:+:$cuda_dirs}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  say "libraries: $LD_LIBRARY_PATH"
  bin=$build_path/bin
else
  check configure cmake -G Ninja -S "$root" -B "$build" -DCAVS_ENABLE_CUDA=ON \
    -DMLIR_DIR=/usr/lib/llvm-19/lib/cmake/mlir
  check build cmake --build "$build" -j "$jobs"
  bin=$build/bin
fi
if ((failed)); then
  say "gpu-check: the build failed; nothing else ran"
  exit 1
fi

# --- 3. Every test that needs a GPU ------------------------------------------
# Run as programs, not through ctest, so that a bundle (no CMake, no lit)
# runs the same checks. A GPU test that skips fails here: this machine has
# one.
gtest() { # gtest NAME PROGRAM FILTER: runs the cases in nproc shards
  local name=$1 program=$2 filter=$3 log="$build/gpu-check-$1.log"
  local start=$SECONDS shard pids=()
  for ((shard = 0; shard < jobs; ++shard)); do
    GTEST_TOTAL_SHARDS=$jobs GTEST_SHARD_INDEX=$shard \
      "$program" --gtest_filter="$filter" > "$log.$shard" 2>&1 &
    pids+=($!)
  done
  local status=0
  for pid in "${pids[@]}"; do wait "$pid" || status=1; done
  cat "$log".* > "$log" && rm -f "$log".*
  local passed skipped
  passed=$(grep -c '^\[       OK \]' "$log")
  skipped=$(grep -c '^\[  SKIPPED \]' "$log")
  if ((status == 0 && skipped == 0 && passed > 0)); then
    say "PASS $name: $passed cases ($((SECONDS - start)) s)"
  else
    say "FAIL $name: $passed passed, $skipped skipped, exit $status ($((SECONDS - start)) s; see $log)"
    grep -E '^\[  (FAILED|SKIPPED) ' "$log" | sort -u | head -20 | tee -a "$report"
    failed=1
  fi
}
gtest device "$bin/cavs-runtime-tests" 'DeviceTest.*'
gtest kernels "$bin/cavs-conversion-tests" '*Cuda*:-*WithoutCuda*'
gtest models "$bin/cavs-integration-tests" '*OnGpu*'
# Training the Tree-LSTM on the GPU prints the CPU's figures, losses within
# 1e-3 relative (sums in another order, as treelstm-gpu-loss-curve.test).
check treelstm-train python3 "$root/test/support/same_training.py" --tolerance 1e-3 \
  "$bin/treelstm-train" --synthetic --epochs 2 --max-train 200 --threads 1 \
  --checkpoint "$build/gpu-check-treelstm.ckpt"
grep -vE '^ *$' "$build/gpu-check-treelstm-train.log" | tail -4 >> "$report"
# NCCL with one rank needs mpirun and a build's ctest.
if [[ -z $bundle ]] && command -v mpirun > /dev/null; then
  check nccl ctest --test-dir "$build" --output-on-failure -R nccl
else
  say "SKIP nccl: $([[ -n $bundle ]] && echo "a bundle has no ctest" || echo "no mpirun")"
fi

# --- 4. GPU against CPU, same models and data ---------------------------------
for workload in treelstm treelstm-nary; do
  for device in cpu cuda; do
    check "bench-$workload-$device" "$bin/cavs-bench" --workload=$workload \
      --hidden=128,512 --batch=64,256 --mode=train,infer --baselines=none \
      --min-seconds=1 --device=$device --cache="$build/gpu-check-cache"
    grep -E "^$workload/|sgemm|machine|device" "$build/gpu-check-bench-$workload-$device.log" |
      sed "s/^/$device: /" >> "$report"
  done
done

say "gpu-check: $( ((failed)) && echo FAILED || echo passed ); report: $report"
exit $failed
