#!/usr/bin/env bash
# Packs a CUDA build for a GPU machine that cannot build the project: one
# with the CUDA toolkit and a driver but without LLVM/MLIR 19, OpenBLAS and
# the rest of tools/setup.sh's packages (the GPU machines lent to this
# project's sessions are such). `tools/gpu-check.sh --bundle FILE` runs the
# GPU checks from the archive there.
#
#   tools/gpu-bundle.sh [BUILD_DIR] [OUT]   (defaults: build, BUILD_DIR/gpu-bundle.tar.xz)
#
# The archive holds the build's programs, shared libraries, model libraries
# and generated example data, the build's and the source tree's absolute
# paths (its programs were compiled with them), and every shared library
# they load that is neither the C and C++ runtime's nor CUDA's (the GPU
# machine has its own, CUDA's matching its driver). libz3 and libicudata are replaced by empty
# stand-ins: libLLVM and libxml2 load them but cavsc never calls them (z3
# serves the static analyzer, ICU's data libxml2's encoding conversions),
# and they are half of the archive's size. The stand-in for z3 relies on
# lazy binding: do not set LD_BIND_NOW when running from the bundle.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-build}" && pwd)
out=${2:-$build/gpu-bundle.tar.xz}
die() { echo "gpu-bundle: $*" >&2; exit 1; }
[[ -f $build/lib/libcavs_runtime_cuda.so ]] ||
  die "$build has no lib/libcavs_runtime_cuda.so: configure it with -DCAVS_ENABLE_CUDA=ON and build it"

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/build" "$stage/deps"

# The build's files the checks run: programs, shared libraries (model
# libraries included) and the examples' generated data; not the tests'
# scratch folders or static libraries.
(cd "$build" && find bin lib examples \
    -path examples/test-work -prune -o -name CMakeFiles -prune -o \
    \( -type f -o -type l \) ! -name '*.a' ! -name '*.o' ! -name '*.cmake' \
    ! -name Makefile ! -name '*.ninja' -print0 |
  xargs -0 cp -a --parents -t "$stage/build")
printf 'source=%s\nbuild=%s\n' "$root" "$build" > "$stage/paths"

# Their shared libraries, but the C and C++ runtime's (every Linux has its
# own, a newer one runs these programs, and CUDA's libraries may need it)
# and CUDA's.
is_system() {
  [[ $1 =~ /(ld-linux[^/]*|lib(c|m|dl|rt|pthread|util|resolv|stdc\+\+|gcc_s)\.so[^/]*)$ ]] ||
    [[ $1 =~ /lib(cuda|cudart|cublas|cublasLt|nvrtc|nccl|nvJitLink)[^/]*\.so ]]
}
find "$stage/build" -type f \( -perm -u+x -o -name '*.so*' \) -print0 |
  xargs -0 ldd 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// {print $3}' |
  sort -u | while read -r lib; do
    [[ $lib == "$build"/* ]] && continue
    is_system "$lib" || cp -L "$lib" "$stage/deps/"
  done

# The stand-ins, under the names (sonames) the real ones have.
stand_in() { # stand_in LIBRARY C_SOURCE
  local lib=$stage/deps/$1
  [[ -f $lib ]] || return 0
  local soname
  soname=$(objdump -p "$lib" | awk '$1 == "SONAME" {print $2}')
  echo "$2" | cc -shared -x c - -o "$stage/deps/$soname" -Wl,-soname,"$soname"
}
for z3 in "$stage"/deps/libz3.so*; do
  [[ -f $z3 ]] && stand_in "$(basename "$z3")" ''
done
for icudata in "$stage"/deps/libicudata.so*; do
  [[ -f $icudata ]] || continue
  # libicuuc refers to one symbol of it, icudtNN_dat: define it, empty.
  symbol=$(nm -D "$icudata" | awk '$3 ~ /^icudt[0-9]+_dat$/ {print $3; exit}')
  stand_in "$(basename "$icudata")" "const char $symbol[64];"
done

tar -C "$stage" -cf - . | xz -T0 -6 > "$out"
echo "gpu-bundle: $out ($(du -h "$out" | cut -f1)); run on the GPU machine: tools/gpu-check.sh --bundle $(basename "$out")"
