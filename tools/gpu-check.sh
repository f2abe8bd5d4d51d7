#!/usr/bin/env bash
# One command to verify the CUDA path on a machine with a GPU: configure with
# CUDA, build, run every test that needs a GPU or CUDA, benchmark the GPU
# against the CPU in the same run, and write one report.
#
#   tools/gpu-check.sh [BUILD_DIR]        (default: build-gpu)
#
# The report (BUILD_DIR/gpu-check-report.txt, or $CAVS_GPU_REPORT) has the
# nvidia-smi line, pass/fail per check and the benchmark figures. Without a
# GPU it says so, writes a report saying so, and exits 0: the skip is the
# answer. Exit status 1: a check failed. NVIDIA_SMI names the nvidia-smi to
# ask (tests point it at `false` to take the no-GPU path).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build-gpu}
report=${CAVS_GPU_REPORT:-$build/gpu-check-report.txt}
smi=${NVIDIA_SMI:-nvidia-smi}
jobs=$(nproc)
mkdir -p "$build"
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

# --- 2. Build with CUDA -------------------------------------------------------
check configure cmake -G Ninja -S "$root" -B "$build" -DCAVS_ENABLE_CUDA=ON \
  -DMLIR_DIR=/usr/lib/llvm-19/lib/cmake/mlir
check build cmake --build "$build" -j "$jobs"
if ((failed)); then
  say "gpu-check: the build failed; nothing else ran"
  exit 1
fi

# --- 3. Every test that needs CUDA or a GPU ------------------------------------
# The reference-evaluator match and bad input on the device (…OnGpu), the
# Tree-LSTM example on the device, NCCL with one rank, the CUDA kernels
# (NVRTC, host runs) and the cavs-bench device smoke test.
check gpu-tests ctest --test-dir "$build" -j "$jobs" --output-on-failure \
  -R 'OnGpu|[Gg]pu|[Cc]uda|nccl'
grep -E '^ *[0-9]+/[0-9]+ Test' "$build/gpu-check-gpu-tests.log" |
  sed -E 's/ +/ /g' >> "$report"
grep -E 'tests passed|Skipped' "$build/gpu-check-gpu-tests.log" | tee -a "$report"

# --- 4. GPU against CPU, same models and data ---------------------------------
bench="$build/bin/cavs-bench --workload=treelstm --hidden=128,512 --batch=64,256
  --mode=train,infer --baselines=none --min-seconds=1"
for device in cpu cuda; do
  check "bench-$device" $bench --device=$device --cache="$build/gpu-check-cache"
  grep -E '^treelstm/|sgemm|machine|device' "$build/gpu-check-bench-$device.log" |
    sed "s/^/$device: /" >> "$report"
done

say "gpu-check: $( ((failed)) && echo FAILED || echo passed ); report: $report"
exit $failed
