#!/usr/bin/env bash
# cavsc setup: installs the Debian 12 packages cavsc needs (only those that
# are missing), configures and builds the tree with CMake + Ninja, then runs
# the requested job. Both README quick-start commands go through here.
#
#   tools/setup.sh demo  [cmake args...]   build, then run the main job
#   tools/setup.sh test  [cmake args...]   build, then run the whole test suite
#   tools/setup.sh build [cmake args...]   build only
#
# Environment: CAVS_BUILD_DIR (default: <repo>/build), CAVS_JOBS (default:
# the number of cores). Extra arguments go to CMake, e.g.
# `tools/setup.sh test -DCAVS_ENABLE_CUDA=OFF`.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${CAVS_BUILD_DIR:-$root/build}
jobs=${CAVS_JOBS:-$(nproc)}

usage() { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; }
die() { echo "setup: error: $*" >&2; exit 1; }

job=${1:-}
case "$job" in
  demo|test|build) shift ;;
  -h|--help) usage; exit 0 ;;
  *) usage >&2; exit 2 ;;
esac

# --- 1. Debian packages ------------------------------------------------------
# gcc: cavsc links model libraries with the system C compiler at run time.
# Open MPI: the data-parallel trainer (cavs/dist.h) and its mpirun tests.
packages=(
  cmake ninja-build gcc g++ python3 pkg-config
  llvm-19-dev llvm-19-tools libmlir-19-dev mlir-19-tools
  libfmt-dev libopenblas-dev libgtest-dev libgmock-dev libbenchmark-dev
  libopenmpi-dev openmpi-bin
)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$package")
done
if ((${#missing[@]})); then
  echo "setup: installing missing packages: ${missing[*]}"
  if [[ $(id -u) -eq 0 ]]; then
    sudo=()
  elif command -v sudo >/dev/null; then
    sudo=(sudo)
  else
    die "missing packages (${missing[*]}) and no root rights to install them; run: sudo apt-get install -y ${missing[*]}"
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -q || die "apt-get update failed"
  "${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}" ||
    die "apt-get install failed for: ${missing[*]}"
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
    ;;
esac
