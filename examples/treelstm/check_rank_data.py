#!/usr/bin/env python3
"""Checks that an SST app's --distributed refuses ranks whose evaluation
data differs (ctest).

Training batches are compared across the ranks by every step, but the dev
set only feeds the dev accuracy that picks the best checkpoint, so a rank
with another dev.txt used to skew it silently. This writes a tiny SST
folder per rank and runs the app under `mpirun -np 2` through
test/dist/run_mpi.py (each rank gets --data WORK/rank{rank}):

  * the same files in both folders: the run succeeds (the files are
    compared, not their paths);
  * another dev.txt on rank 1: every rank fails before training, naming
    rank 1's dev set and its file;
  * another train.txt on rank 1 (one more tree, with a new word): the
    vocabulary differs, which is found before the first step would find
    the other training batch;
  * another --eval-batch on rank 1: every rank fails before training,
    naming the flag (each rank shards its own evaluation batches, so the
    dev accuracy counted trees twice or not at all, with exit status 0).
"""
import argparse
import os
import shutil
import subprocess
import sys

SKIP = 77
WORDS = ["good", "bad", "fine", "dull", "fun", "slow", "great", "poor"]


def tree(i):
    """A small labelled binary tree in the SST format."""
    a, b, c = (WORDS[(i * k + k) % len(WORDS)] for k in (1, 3, 5))
    return (f"({i % 5} ({(i + 1) % 5} {a}) ({(i + 2) % 5} ({(i + 3) % 5} {b}) "
            f"({(i + 4) % 5} {c})))")


def write_split(folder, name, trees):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "w") as out:
        out.write("\n".join(trees) + "\n")


def write_data(work, case, change):
    """WORK/case/rank0 and rank1 with the same splits, then `change` to
    rank 1's; returns the --data pattern."""
    base = os.path.join(work, case)
    for rank in (0, 1):
        folder = os.path.join(base, f"rank{rank}")
        write_split(folder, "train.txt", [tree(i) for i in range(20)])
        write_split(folder, "dev.txt", [tree(i) for i in range(20, 35)])
        write_split(folder, "test.txt", [tree(i) for i in range(35, 50)])
    change(os.path.join(base, "rank1"))
    return os.path.join(base, "rank{rank}")


def other_dev(folder):
    # Another root label of the first tree: the same size and words.
    write_split(folder, "dev.txt",
                ["(4" + tree(20)[2:]] + [tree(i) for i in range(21, 35)])


def other_words(folder):
    write_split(folder, "train.txt",
                [tree(i) for i in range(20)] + ["(3 (2 new) (4 good))"])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--app", required=True)
    parser.add_argument("--run-mpi", required=True)
    parser.add_argument("--mpirun", default="mpirun")
    parser.add_argument("--work", required=True)
    args = parser.parse_args()
    train = ["--epochs", "1", "--batch", "5", "--threads", "1"]

    def run(case, change, flags, *expectation):
        data = write_data(args.work, case, change)
        checkpoint = os.path.join(args.work, case, "treelstm.ckpt")
        command = [sys.executable, args.run_mpi, "--mpirun", args.mpirun,
                   *expectation, "--", args.app, "--distributed", "--data",
                   data, "--checkpoint", checkpoint, *train, *flags]
        print("+", " ".join(command), flush=True)
        return subprocess.run(command).returncode

    def same(folder):
        pass

    # The "same" run's checkpoint, once per rank: resumed by rank 0 only
    # (here: under another name on rank 1), the ranks failed a step later.
    resumed = os.path.join(args.work, "resumed")

    for case, change, flags, expectation in (
            ("same", same, [], []),
            ("other-dev", other_dev, [],
             ["--expect-failure", "--max-seconds", "60", "--message",
              r"error: rank 1's dev set \(\S*/other-dev/rank1/dev.txt\) "
              r"differs from rank 0's \(\S*/other-dev/rank0/dev.txt\)"]),
            ("other-words", other_words, [],
             ["--expect-failure", "--max-seconds", "60", "--message",
              r"error: rank 1's vocabulary \(\S*/rank1/train.txt\) differs"]),
            ("other-eval-batch", same, ["--eval-batch", "1{rank}"],
             ["--expect-failure", "--max-seconds", "60", "--message",
              r"error: rank 1 runs with --eval-batch 11, rank 0 with "
              r"--eval-batch 10; every rank must run with the same "
              r"--eval-batch"]),
            ("other-resume", same, ["--resume", resumed + "{rank}.ckpt"],
             ["--expect-failure", "--max-seconds", "60", "--message",
              r"error: rank 1 runs with --resume \S*/resumed1.ckpt, rank 0 "
              r"with --resume \S*/resumed0.ckpt; every rank must run with "
              r"the same --resume"])):
        if case == "other-resume":
            for rank in (0, 1):
                for suffix in ("", ".best"):
                    shutil.copy(os.path.join(args.work, "same",
                                             "treelstm.ckpt" + suffix),
                                f"{resumed}{rank}.ckpt{suffix}")
        code = run(case, change, flags, *expectation)
        if code != 0:
            print(f"FAIL: case {case}" if code != SKIP else "SKIPPED")
            return code
    print("PASS: ranks with other evaluation data or settings fail, naming "
          "the file or flag")
    return 0


if __name__ == "__main__":
    sys.exit(main())
