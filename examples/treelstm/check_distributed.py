#!/usr/bin/env python3
"""Checks an SST app's --distributed against one process (ctest).

Trains briefly on the synthetic SST sample twice with the same global
batches and seed: in one process, and under `mpirun -np 2` through
test/dist/run_mpi.py (which adds --oversubscribe and the run-as-root
switches, and exits 77 when mpirun is missing). Passes when

  * the distributed run learned (test root accuracy of its restored
    checkpoint at least --min-test-acc, as the single-process test asks),
  * every epoch's loss per tree equals the single process's (the trainer
    sums gradients, so N ranks equal one process up to float rounding:
    within 1e-5 relative, plus one unit of the printed last digit), and
    every accuracy is equal,
  * the checkpoint the ranks wrote loads in one process (--evaluate) and
    gives the single-process run's dev and test accuracy.

With --no-mpi (a runtime built without MPI) it checks instead that
--distributed fails with exit status 2 and says why, then skips (77).
"""
import argparse
import os
import re
import subprocess
import sys

SKIP = 77
EPOCH = re.compile(r"epoch (\d+)/\d+: loss/tree ([0-9.]+), train root acc "
                   r"([0-9.]+)%, dev root acc ([0-9.]+)% \(loss/tree ([0-9.]+)\)")
RESTORED = re.compile(r"restored \S+ \(([^)]*)\) into a fresh model: dev root "
                      r"acc ([0-9.]+)%, test root acc ([0-9.]+)% \((\d+) of")


def run(command, env):
    print("+", " ".join(command), flush=True)
    result = subprocess.run(command, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    print(result.stdout, flush=True)
    return result.returncode, result.stdout


def verdict(failures, success):
    """Prints each failure, or `success` when there is none; the exit
    status."""
    for failure in failures:
        print("FAIL:", failure)
    if failures:
        return 1
    print("PASS:", success)
    return 0


def figures(output, what):
    epochs = EPOCH.findall(output)
    restored = RESTORED.findall(output)
    if not epochs and not restored:
        raise SystemExit(f"FAIL: no figures in the output of the {what}")
    return epochs, restored


def close(a, b):
    """Equal up to 1e-5 relative and the rounding of 4 printed decimals."""
    return abs(float(a) - float(b)) <= 1e-5 * abs(float(a)) + 1e-4


def check_no_mpi(app, env):
    code, output = run([app, "--synthetic", "--distributed", "--epochs", "1"],
                       env)
    if code != 2 or "built without MPI" not in output:
        print("FAIL: --distributed without MPI must exit 2 and say so")
        return 1
    print("SKIPPED: the runtime was built without MPI (CAVS_ENABLE_MPI); "
          "--distributed fails cleanly")
    return SKIP


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--app", required=True)
    parser.add_argument("--run-mpi", required=True)
    parser.add_argument("--mpirun", default="mpirun")
    parser.add_argument("--work", required=True)
    parser.add_argument("--no-mpi", action="store_true")
    parser.add_argument("--min-test-acc", type=float, default=40)
    args = parser.parse_args()
    env = dict(os.environ, CAVS_NUM_THREADS="1")
    if args.no_mpi:
        return check_no_mpi(args.app, env)

    # A last batch of 10 trees, so the shards are uneven too.
    train = ["--synthetic", "--epochs", "2", "--max-train", "310",
             "--threads", "1", "--seed", "3"]
    name = os.path.basename(args.app)
    single_ckpt = os.path.join(args.work, name + "-single.ckpt")
    dist_ckpt = os.path.join(args.work, name + "-dist.ckpt")
    code, output = run([args.app] + train + ["--checkpoint", single_ckpt], env)
    if code != 0:
        print("FAIL: the single-process run failed")
        return 1
    single = figures(output, "single-process run")

    code, output = run([sys.executable, args.run_mpi, "--mpirun", args.mpirun,
                        "--", args.app, "--distributed"] + train +
                       ["--checkpoint", dist_ckpt], env)
    if code == SKIP:
        print(output.strip().splitlines()[-1])
        return SKIP
    if code != 0:
        print("FAIL: the distributed run failed")
        return 1
    dist = figures(output, "distributed run")

    failures = []
    if len(dist[0]) != len(single[0]):
        failures.append(f"{len(dist[0])} epochs reported, expected "
                        f"{len(single[0])}")
    for one, many in zip(single[0], dist[0]):
        epoch = one[0]
        for name, a, b in (("loss/tree", one[1], many[1]),
                           ("dev loss/tree", one[4], many[4])):
            if not close(a, b):
                failures.append(f"epoch {epoch}: {name} {b} with 2 ranks, "
                                f"{a} in one process")
        for name, a, b in (("train root acc", one[2], many[2]),
                           ("dev root acc", one[3], many[3])):
            if a != b:
                failures.append(f"epoch {epoch}: {name} {b}% with 2 ranks, "
                                f"{a}% in one process")
    if dist[1] != single[1]:
        failures.append(f"restored checkpoints: {dist[1]} with 2 ranks, "
                        f"{single[1]} in one process")
    if dist[1] and float(dist[1][0][2]) < args.min_test_acc:
        failures.append(f"test root acc {dist[1][0][2]}% is below "
                        f"{args.min_test_acc}%: it did not learn")

    # The ranks' checkpoint in one process, evaluate-only.
    # The same seed: treelstm2type derives each vertex's cell from it.
    code, output = run([args.app, "--synthetic", "--threads", "1", "--seed",
                        "3", "--evaluate", dist_ckpt], env)
    loaded = RESTORED.findall(output)
    if code != 0 or not loaded:
        failures.append("the distributed checkpoint did not load in one "
                        "process")
    elif single[1] and loaded[0][1:] != single[1][0][1:]:
        failures.append(f"the distributed checkpoint in one process: "
                        f"{loaded[0][1:]}, expected {single[1][0][1:]}")

    return verdict(failures,
                   "2 ranks match one process; the checkpoint loads in one")


if __name__ == "__main__":
    sys.exit(main())
