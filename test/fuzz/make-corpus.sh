#!/usr/bin/env bash
# Regenerates the fuzzers' seed corpus (corpus/cavs, corpus/mlir) from the
# tree: the example models and the frontend's lit inputs as .cavs seeds; the
# .mlir lit inputs, one seed per `// -----` chunk and without their
# whole-line comments (RUN/CHECK lines only dilute the mutations), and the
# IR cavsc makes from each example model as IR seeds.
#
#   test/fuzz/make-corpus.sh [build dir, default build]
#
# Run it after changing those inputs, and commit the result.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$root/build}
cavsc=$build/bin/cavsc
[[ -x $cavsc ]] || { echo "make-corpus: $cavsc not built" >&2; exit 1; }
corpus=$root/test/fuzz/corpus

rm -rf "$corpus/cavs" "$corpus/mlir"
mkdir -p "$corpus/cavs" "$corpus/mlir"
for model in "$root"/examples/models/*.cavs; do
  name=$(basename "$model" .cavs)
  cp "$model" "$corpus/cavs/model-$name.cavs"
  "$cavsc" "$model" --emit=mlir -o "$corpus/mlir/model-$name.mlir"
done
for input in "$root"/test/Frontend/*.cavs; do
  cp "$input" "$corpus/cavs/frontend-$(basename "$input")"
done
for input in "$root"/test/*/*.mlir; do
  name=$(basename "$(dirname "$input")")-$(basename "$input" .mlir)
  python3 - "$input" "$corpus/mlir/$name" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
chunks = re.split(r"^// -----.*\n", text, flags=re.M)
for index, chunk in enumerate(chunks):
    code = "".join(line for line in chunk.splitlines(keepends=True)
                   if not line.lstrip().startswith("//")).strip()
    if code:
        suffix = f"-{index}" if len(chunks) > 1 else ""
        open(f"{sys.argv[2]}{suffix}.mlir", "w").write(code + "\n")
PY
done
echo "make-corpus: $(ls "$corpus/cavs" | wc -l) .cavs and $(ls "$corpus/mlir" | wc -l) .mlir seeds, $(cat "$corpus"/*/* | wc -c) bytes"
