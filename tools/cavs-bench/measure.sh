#!/bin/bash
# Runs every measurement of docs/performance.md ("Measured on this
# machine") and draws its charts:
#   tools/cavs-bench/measure.sh BUILD_DIR OUT_DIR
# Each run writes OUT_DIR/<name>.json (Google Benchmark JSON) and
# OUT_DIR/<name>.log; the charts go to OUT_DIR/images. About 30 minutes on a
# 2-core machine, most of it in the PyTorch per-sample baselines.
set -u
if [ $# -ne 2 ]; then
  echo "usage: $0 BUILD_DIR OUT_DIR" >&2
  exit 2
fi
bench="$1/bin/cavs-bench"
out="$2"
if [ ! -x "$bench" ]; then
  echo "$0: no cavs-bench in $1/bin (ninja -C $1 cavs-bench)" >&2
  exit 2
fi
mkdir -p "$out"
status=0
run() {
  local name=$1
  shift
  echo "== $name: cavs-bench $*"
  "$bench" "$@" --benchmark_out="$out/$name.json" \
    --benchmark_out_format=json >"$out/$name.log" 2>&1 || {
    echo "$name failed; see $out/$name.log" >&2
    status=1
  }
}
run treelstm-main --workload=treelstm --hidden=128,512 --batch=64 --threads=1 --mode=train,infer --min-seconds=3
run treelstm-threads --workload=treelstm --hidden=128,512 --batch=64 --threads=1,2 --mode=train,infer --min-seconds=3 --baselines=none
run treelstm-batch --workload=treelstm --hidden=128 --batch=1,16,32,64,128,256 --mode=train,infer --min-seconds=1
run treelstm-hidden --workload=treelstm --hidden=32,64,128,256,512 --batch=64 --mode=train,infer --min-seconds=1
run treelstm-h1024 --workload=treelstm --hidden=1024 --batch=64 --mode=train,infer --min-seconds=2 --baselines=none
run ablation-h128 --workload=treelstm --ablation --hidden=128 --mode=train --min-seconds=3
run ablation-h512 --workload=treelstm --ablation --hidden=512 --mode=train --min-seconds=3
run products --products --hidden=128,512 --min-seconds=0.5 --rounds=3
run treefc --workload=treefc --hidden=128,256 --batch=64 --mode=train,infer --min-seconds=2
run chainlstm --workload=chainlstm --hidden=256 --batch=64 --mode=train,infer --min-seconds=2
run fixedlstm --workload=fixedlstm --hidden=256 --batch=64 --mode=train,infer --min-seconds=2
run treegru --workload=treegru --hidden=128 --batch=64 --mode=train,infer --min-seconds=2
for workload in treelstm2type lattice; do
  run $workload --workload=$workload --hidden=128 --batch=64 --mode=train,infer --min-seconds=2
  run $workload-fewest --workload=$workload --hidden=128 --batch=64 --mode=train,infer --min-seconds=2 --schedule=fewest-tasks
done
python3 "$(dirname "$0")/plot.py" "$out"/treelstm-batch.json \
  "$out"/treelstm-hidden.json "$out"/treelstm-h1024.json \
  "$out"/ablation-h128.json "$out"/ablation-h512.json "$out"/treefc.json \
  --out "$out/images" || status=1
exit $status
