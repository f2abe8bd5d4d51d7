#!/usr/bin/env python3
"""Checks that --evaluate refuses a checkpoint of another vocabulary (ctest).

Trains an SST app one epoch on the synthetic sample, then evaluates its
checkpoint on a copy of that sample whose train.txt lists the trees in
reverse order: the same words, so the same vocabulary size, but other
word ids. That must exit with status 2 naming the vocabulary, and
evaluating on the sample itself must still work.

With --seeded (an app whose seed decides the vertices' cell types, as
treelstm2type's), the run trains with --seed 2: --evaluate without it must
exit with status 2 naming the seed (it scored other cells), with it work.
"""
import argparse
import os
import re
import sys

from check_distributed import run, verdict


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--app", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--seeded", action="store_true")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    env = dict(os.environ)
    checkpoint = os.path.join(args.work, "synthetic.ckpt")
    common = ["--max-train", "60", "--threads", "1"]
    seed = ["--seed", "2"] if args.seeded else []
    code, output = run([args.app, "--synthetic", "--epochs", "1",
                        "--checkpoint", checkpoint] + common + seed, env)
    match = re.search(r"^data: (.*)$", output, re.MULTILINE)
    if code != 0 or not match:
        print(f"FAIL: training exited with status {code}")
        return 1
    sample = match.group(1).strip()
    other = os.path.join(args.work, "reversed")
    os.makedirs(other, exist_ok=True)
    for name in ("train.txt", "dev.txt", "test.txt"):
        lines = open(os.path.join(sample, name)).read().splitlines()
        if name == "train.txt":
            lines.reverse()
        open(os.path.join(other, name), "w").write("\n".join(lines) + "\n")

    failures = []
    code, output = run([args.app, "--data", other, "--evaluate",
                        checkpoint] + common + seed, env)
    if code != 2 or "trained with another vocabulary" not in output:
        failures.append(f"another vocabulary: exit status {code}, expected 2 "
                        "and 'trained with another vocabulary'")
    if "restored " in output:
        failures.append("another vocabulary: it reported an accuracy")
    code, output = run([args.app, "--synthetic", "--evaluate", checkpoint] +
                       common + seed, env)
    if code != 0 or "restored " not in output:
        failures.append(f"the run's own data: exit status {code}, expected 0 "
                        "and its accuracy")
    if args.seeded:
        code, output = run([args.app, "--synthetic", "--evaluate",
                            checkpoint] + common, env)
        if code != 2 or "trained with --seed 2" not in output:
            failures.append(f"another seed: exit status {code}, expected 2 "
                            "and 'trained with --seed 2'")
        if "restored " in output:
            failures.append("another seed: it reported an accuracy")
    return verdict(failures,
                   "--evaluate refuses a checkpoint of another vocabulary")


if __name__ == "__main__":
    sys.exit(main())
