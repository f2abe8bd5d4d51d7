#!/usr/bin/env python3
"""Runs an example app on the CPU and on a (possibly emulated) GPU and checks
that both print the same training figures: loss, accuracies and test result
lines, with timings left out. Usage: same_training.py APP [ARGS...]"""
import subprocess
import sys

def figures(device):
    command = sys.argv[1:] + ["--device", device]
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({run.returncode}):\n{run.stderr}")
    # Epoch lines up to their timings, and the restored model's accuracy.
    lines = [line.split(";")[0] for line in run.stdout.splitlines()
             if line.startswith("epoch ") or "into a fresh model" in line]
    if not lines:
        sys.exit(f"{' '.join(command)} printed no training figures:\n{run.stdout}")
    return lines


cpu, gpu = figures("cpu"), figures("cuda")
if cpu != gpu:
    sys.exit("the runs differ:\n  cpu: " + "\n       ".join(cpu) +
             "\n  gpu: " + "\n       ".join(gpu))
print("\n".join(gpu))
