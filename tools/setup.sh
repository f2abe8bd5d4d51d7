#!/usr/bin/env bash
# cavsc setup: installs the Debian 12 packages cavsc needs (only those that
# are missing), configures and builds the tree with CMake + Ninja, then runs
# the requested job. Both README quick-start commands go through here.
#
#   tools/setup.sh demo  [cmake args...]   build, then run the main job
#   tools/setup.sh test  [cmake args...]   build, then run the whole test suite
#                                          and every fuzzer for a short while
#   tools/setup.sh build [cmake args...]   build only
#
# Environment: CAVS_BUILD_DIR (default: <repo>/build), CAVS_JOBS (default:
# the number of cores). Extra arguments go to CMake, e.g.
# `tools/setup.sh test -DCAVS_ENABLE_CUDA=OFF`. The fuzzers need clang-19
# (installed when possible, else skipped), build in CAVS_FUZZ_BUILD_DIR
# (default: <repo>/build-fuzz) and run CAVS_FUZZ_SECONDS each (default 60;
# 0 skips them).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${CAVS_BUILD_DIR:-$root/build}
jobs=${CAVS_JOBS:-$(nproc)}
fuzz_dir=${CAVS_FUZZ_BUILD_DIR:-$root/build-fuzz}
fuzz_seconds=${CAVS_FUZZ_SECONDS:-60}

usage() { sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; }
die() { echo "setup: error: $*" >&2; exit 1; }
# Prints those of the given Debian packages that are not installed.
missing_of() {
  local package
  for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
      echo "$package"
  done
}
# Runs a command as root: directly, or through sudo; fails without either.
as_root() {
  if [[ $(id -u) -eq 0 ]]; then
    "$@"
  elif command -v sudo >/dev/null; then
    sudo "$@"
  else
    return 1
  fi
}
can_be_root() { [[ $(id -u) -eq 0 ]] || command -v sudo >/dev/null; }

job=${1:-}
case "$job" in
  demo|test|build) shift ;;
  -h|--help) usage; exit 0 ;;
  *) usage >&2; exit 2 ;;
esac

# --- 1. Debian packages ------------------------------------------------------
# gcc: cavsc links model libraries with the system C compiler at run time.
# Open MPI: the data-parallel trainer (cavs/dist.h) and its mpirun tests.
# nlohmann-json: the runtime reads safetensors headers with it; numpy: the
# safetensors test (test/tools/cavs-ckpt-numpy.test) reads and writes them.
# zlib: the runtime reads gzipped word vectors (cavs/word_vectors.h).
packages=(
  cmake ninja-build gcc g++ python3 pkg-config
  llvm-19-dev llvm-19-tools libmlir-19-dev mlir-19-tools
  libfmt-dev nlohmann-json3-dev libopenblas-dev libdnnl-dev libgtest-dev
  libgmock-dev libbenchmark-dev python3-numpy
  libopenmpi-dev openmpi-bin zlib1g-dev
)
export DEBIAN_FRONTEND=noninteractive
mapfile -t missing < <(missing_of "${packages[@]}")
if ((${#missing[@]})); then
  echo "setup: installing missing packages: ${missing[*]}"
  can_be_root ||
    die "missing packages (${missing[*]}) and no root rights to install them; run: sudo apt-get install -y ${missing[*]}"
  as_root apt-get update -q || die "apt-get update failed"
  as_root apt-get install -y -q --no-install-recommends "${missing[@]}" ||
    die "apt-get install failed for: ${missing[*]}"
fi
# The fuzzers (test job) need clang and its libFuzzer and sanitizer
# runtimes, of the same LLVM as the build. They are optional: without them
# the fuzzers are skipped, not the tests.
fuzz_packages=(clang-19 libclang-rt-19-dev)
if [[ $job == test && $fuzz_seconds != 0 ]]; then
  mapfile -t missing < <(missing_of "${fuzz_packages[@]}")
  if ((${#missing[@]})) && can_be_root; then
    echo "setup: installing the fuzzers' packages: ${missing[*]}"
    { as_root apt-get update -q &&
      as_root apt-get install -y -q --no-install-recommends "${missing[@]}"; } ||
      echo "setup: warning: apt-get install failed for: ${missing[*]}" >&2
  fi
fi

# --- 2. Configure and build -------------------------------------------------------
if [[ ! -f $build_dir/build.ninja || $# -gt 0 ]]; then
  cmake -G Ninja -S "$root" -B "$build_dir" \
    -DMLIR_DIR=/usr/lib/llvm-19/lib/cmake/mlir "$@" || die "CMake configuration failed"
fi
start=$(date +%s)
cmake --build "$build_dir" -j "$jobs" || die "build failed"
echo "setup: build finished in $(($(date +%s) - start)) s ($build_dir)"

# --- 3. The job --------------------------------------------------------------------
bin=$build_dir/bin
case "$job" in
  build) ;;
  demo)
    "$bin/cavsc" --version
    model=$root/examples/models/treelstm.cavs
    echo "setup: compiling $model to the cavs dialect"
    "$bin/cavsc" "$model" --emit=mlir -o "$build_dir/treelstm.mlir"
    "$bin/cavsc" "$model" --emit=mlir-optimized -o "$build_dir/treelstm.opt.mlir"
    echo "setup: wrote $build_dir/treelstm.mlir (frontend) and treelstm.opt.mlir (optimized)"
    "$bin/cavsc" "$model" --emit=stats
    # The example app (examples/treelstm): the model compiled into a shared
    # library by cavs_add_model, trained from C++ for one short epoch on the
    # first 1000 SST training trees (on a generated synthetic sample when
    # ../shared/data/sst is absent), then restored from its checkpoint.
    if [[ -x $bin/treelstm-train ]]; then
      echo "setup: training the Tree-LSTM example briefly (examples/treelstm/README.md)"
      "$bin/treelstm-train" --epochs 1 --max-train 1000 \
        --checkpoint "$build_dir/treelstm.ckpt" || die "treelstm-train failed"
    else
      echo "setup: $bin/treelstm-train was not built (CAVS_BUILD_EXAMPLES=OFF?); skipping the training demo"
    fi
    ;;
  test)
    ctest --test-dir "$build_dir" --output-on-failure -j "$jobs"
    # Every fuzz target for a short while, built with ASan and UBSan in a
    # folder of its own (test/fuzz/CMakeLists.txt); ctest above has already
    # replayed their seeds and regression inputs (label fuzz-corpus).
    if [[ $fuzz_seconds == 0 ]]; then
      echo "setup: CAVS_FUZZ_SECONDS=0: not running the fuzzers"
    elif mapfile -t missing < <(missing_of "${fuzz_packages[@]}") && ((${#missing[@]})); then
      echo "setup: not running the fuzzers: ${missing[*]} missing (sudo apt-get install ${missing[*]})"
    else
      start=$(date +%s)
      if [[ ! -f $fuzz_dir/build.ninja ]]; then
        cmake -G Ninja -S "$root" -B "$fuzz_dir" \
          -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 \
          -DCAVS_ENABLE_FUZZER=ON -DCAVS_ENABLE_TESTS=OFF -DCAVS_ENABLE_CUDA=OFF \
          -DCAVS_ENABLE_MPI=OFF -DCAVS_BUILD_EXAMPLES=OFF \
          -DMLIR_DIR=/usr/lib/llvm-19/lib/cmake/mlir ||
          die "CMake configuration of the fuzzing build failed"
      fi
      cmake -DCAVS_FUZZ_SMOKE_SECONDS="$fuzz_seconds" "$fuzz_dir" >/dev/null ||
        die "CMake configuration of the fuzzing build failed"
      cmake --build "$fuzz_dir" -j "$jobs" --target fuzz-smoke ||
        die "fuzz-smoke failed (reproducers and logs in $fuzz_dir/test/fuzz/smoke)"
      echo "setup: fuzzers built and run in $(($(date +%s) - start)) s ($fuzz_dir)"
    fi
    ;;
esac
