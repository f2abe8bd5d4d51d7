#!/usr/bin/env python3
"""Runs an example app with --metrics and plain progress lines (stderr to a
file, not a terminal) and checks both against examples/README.md
("Metrics"): every metrics line is a JSON object with the documented keys
and types, one epoch line per epoch, step lines every N steps when asked,
progress lines on stderr, and one loss unit in the epoch lines, the
progress lines and the metrics.

Usage: check_metrics.py --work DIR --epochs N --unit UNIT --eval-split NAME
           [--train-figures A,B] [--eval-figures A,B] [--metrics-every K]
           APP [ARGS...]
The app gets --epochs N --metrics DIR/<app>.jsonl --progress-every 0.001
(and --metrics-every K) after ARGS."""
import argparse
import json
import math
import os
import re
import subprocess
import sys

HEAD = {"event": str, "epoch": int, "step": int, "wall_seconds": float,
        "lr": float, "loss_unit": str}
SPLIT = {"loss": float, "samples": int, "targets": int, "vertices": int,
         "seconds": float, "samples_per_second": float,
         "vertices_per_second": float, "tasks_per_batch": float}
PHASES = ["forward", "backward", "update", "batching", "exchange"]
NUMBER = r"[0-9]+(?:\.[0-9]+)?"


def fail(message):
    sys.exit(f"check_metrics.py: {message}")


def check_members(where, obj, expected, nullable=()):
    """The members of `expected` with their types, and no others (figures
    are added by the caller); a float member may be an integer literal, a
    nullable one null (a number JSON cannot hold)."""
    for key, kind in expected.items():
        if key not in obj:
            fail(f"{where}: no '{key}' in {obj}")
        value = obj[key]
        if value is None and key in nullable:
            continue
        ok = (isinstance(value, (int, float)) and not isinstance(value, bool)
              if kind is float else type(value) is kind)
        if not ok:
            fail(f"{where}: '{key}' is {value!r}, not {kind.__name__}")


def check_split(where, split, figures, training):
    expected = dict(SPLIT)
    expected.update((name, float) for name in figures)
    if training:
        expected["phases"] = dict
    check_members(where, split, expected,
                  nullable={"loss", "samples_per_second",
                            "vertices_per_second", *figures})
    if set(split) != set(expected):
        fail(f"{where}: members {sorted(split)}, expected {sorted(expected)}")
    if training:
        check_members(where + ".phases", split["phases"],
                      {name: float for name in PHASES})
        if set(split["phases"]) != set(PHASES):
            fail(f"{where}.phases: members {sorted(split['phases'])}")
    if split["loss"] is None or not math.isfinite(split["loss"]):
        fail(f"{where}: loss {split['loss']} on data the app learns")


def check_metrics(path, args):
    lines = open(path).read().splitlines()
    epochs, steps, last_step, last_wall = [], [], 0, 0.0
    for number, text in enumerate(lines, 1):
        where = f"{path}:{number}"
        try:
            line = json.loads(text)
        except ValueError as error:
            fail(f"{where}: not JSON ({error}): {text}")
        if not isinstance(line, dict):
            fail(f"{where}: not an object: {text}")
        check_members(where, line, HEAD)
        if line["loss_unit"] != args.unit:
            fail(f"{where}: loss_unit {line['loss_unit']!r}, not {args.unit!r}")
        if line["step"] < last_step or line["wall_seconds"] < last_wall:
            fail(f"{where}: step or wall_seconds went back")
        last_step, last_wall = line["step"], line["wall_seconds"]
        check_split(where + ".train", line["train"],
                    args.train_figures if line["event"] == "epoch" else [],
                    training=True)
        if line["event"] == "epoch":
            check_split(f"{where}.{args.eval_split}", line[args.eval_split],
                        args.eval_figures, training=False)
            members = set(HEAD) | {"train", args.eval_split}
            epochs.append(line)
        elif line["event"] == "step":
            members = set(HEAD) | {"train"}
            if line["step"] % args.metrics_every:
                fail(f"{where}: step {line['step']} is not a multiple of "
                     f"{args.metrics_every}")
            steps.append(line)
        else:
            fail(f"{where}: event {line['event']!r}")
        if set(line) != members:
            fail(f"{where}: members {sorted(line)}, expected {sorted(members)}")
    if [line["epoch"] for line in epochs] != list(range(1, args.epochs + 1)):
        fail(f"epoch lines {[line['epoch'] for line in epochs]}, expected "
             f"1..{args.epochs}")
    if args.metrics_every and len(steps) < epochs[-1]["step"] // args.metrics_every:
        fail(f"{len(steps)} step lines for {epochs[-1]['step']} steps, every "
             f"{args.metrics_every}")
    if not args.metrics_every and steps:
        fail("step lines without --metrics-every")
    return epochs


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--work", required=True)
    parser.add_argument("--epochs", type=int, required=True)
    parser.add_argument("--unit", required=True)
    parser.add_argument("--eval-split", required=True)
    parser.add_argument("--train-figures", default="")
    parser.add_argument("--eval-figures", default="")
    parser.add_argument("--metrics-every", type=int, default=0)
    parser.add_argument("app", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    args.train_figures = [f for f in args.train_figures.split(",") if f]
    args.eval_figures = [f for f in args.eval_figures.split(",") if f]
    os.makedirs(args.work, exist_ok=True)
    name = os.path.basename(args.app[0])
    metrics = os.path.join(args.work, name + ".jsonl")
    stderr_path = os.path.join(args.work, name + ".stderr")
    command = args.app + ["--epochs", str(args.epochs), "--metrics", metrics,
                          "--progress-every", "0.001"]
    if args.metrics_every:
        command += ["--metrics-every", str(args.metrics_every)]
    with open(stderr_path, "w") as stderr:
        run = subprocess.run(command, stdout=subprocess.PIPE, stderr=stderr,
                             text=True)
    progress = open(stderr_path).read()
    if run.returncode != 0:
        fail(f"{' '.join(command)} failed ({run.returncode}):\n"
             f"{run.stdout}{progress}")
    epochs = check_metrics(metrics, args)

    # Progress: plain lines in the app's unit, no terminal control codes.
    unit = re.escape(args.unit)
    pattern = (rf"epoch [0-9]+: [0-9]+/[0-9]+ \([0-9]+%\), {NUMBER} s, eta "
               rf"[0-9]+ s, {unit} {NUMBER}")
    lines = progress.splitlines()
    if not any(re.fullmatch(pattern, line) for line in lines):
        fail(f"no progress line like '{pattern}' on stderr:\n{progress}")
    if "\r" in progress or "\033" in progress:
        fail("terminal control codes on stderr, which is a file")

    # The epoch lines state the training loss in the same unit.
    printed = [re.search(rf"{unit} ({NUMBER})|({NUMBER}) {unit}", line)
               for line in run.stdout.splitlines() if line.startswith("epoch ")]
    if len(printed) != args.epochs or None in printed:
        fail(f"epoch lines without '{args.unit}':\n{run.stdout}")
    for match, line in zip(printed, epochs):
        value = float(match.group(1) or match.group(2))
        if abs(value - line["train"]["loss"]) > 1e-3 * max(1.0, abs(value)):
            fail(f"epoch {line['epoch']}: printed {args.unit} {value}, "
                 f"metrics say {line['train']['loss']}")
    steps = sum(1 for line in open(metrics) if '"event": "step"' in line)
    print(f"{metrics}: {len(epochs)} epoch lines, {steps} step lines; "
          f"{len(lines)} progress lines")


if __name__ == "__main__":
    main()
