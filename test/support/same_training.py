#!/usr/bin/env python3
"""Runs an example app on the CPU and on a (possibly emulated) GPU and checks
that both print the same training figures: loss, accuracies and the restored
checkpoint's result, with timings left out.

Usage: same_training.py [--tolerance REL] [--gpu-says TEXT] [--ranks N] APP [ARGS...]
With --ranks, both runs go through `mpirun -np N` (exit 77, a ctest skip,
when mpirun is missing); with --gpu-says, the GPU run must print TEXT. The
figures must be the same text, but with --tolerance each number may differ
by REL relative: a real GPU adds in another order (atomics, cuBLAS's own
blocking) than the CPU, and the host emulation of one does not."""
import os
import re
import shutil
import subprocess
import sys

SKIP = 77


def launcher(args):
    if not args or args[0] != "--ranks":
        return [], args
    mpirun = shutil.which("mpirun")
    if not mpirun:
        print("SKIPPED: mpirun not found; install openmpi-bin")
        sys.exit(SKIP)
    if os.geteuid() == 0:
        os.environ.update(OMPI_ALLOW_RUN_AS_ROOT="1",
                          OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    prefix = [mpirun, "--oversubscribe", "-np", args[1]]
    if "CAVS_CUDA_LIBRARY" in os.environ:
        prefix += ["-x", "CAVS_CUDA_LIBRARY"]
    return prefix, args[2:]


def tolerance(args):
    if args and args[0] == "--tolerance":
        return float(args[1]), args[2:]
    return 0.0, args


NUMBER = re.compile(r"[-+]?[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")


def agree(cpu, gpu, rel):
    """Same lines but for numbers within rel of each other."""
    if len(cpu) != len(gpu):
        return False
    for a, b in zip(cpu, gpu):
        if NUMBER.sub("#", a) != NUMBER.sub("#", b):
            return False
        for x, y in zip(NUMBER.findall(a), NUMBER.findall(b)):
            if abs(float(x) - float(y)) > rel * max(abs(float(x)), abs(float(y))):
                return False
    return True


def expected_text(args):
    if args and args[0] == "--gpu-says":
        return args[1], args[2:]
    return "", args


def figures(prefix, app, device, says=""):
    command = prefix + app + ["--device", device]
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({run.returncode}):\n"
                 f"{run.stdout}{run.stderr}")
    if says not in run.stdout:
        sys.exit(f"{' '.join(command)} did not print '{says}':\n{run.stdout}")
    # Epoch lines up to their timings, and the restored model's accuracy.
    lines = [line.split(";")[0] for line in run.stdout.splitlines()
             if line.startswith("epoch ") or "into a fresh model" in line]
    if not lines:
        sys.exit(f"{' '.join(command)} printed no training figures:\n"
                 f"{run.stdout}")
    return lines


rel, rest = tolerance(sys.argv[1:])
gpu_says, rest = expected_text(rest)
prefix, app = launcher(rest)
cpu, gpu = figures(prefix, app, "cpu"), figures(prefix, app, "cuda", gpu_says)
if not agree(cpu, gpu, rel):
    sys.exit("the runs differ:\n  cpu: " + "\n       ".join(cpu) +
             "\n  gpu: " + "\n       ".join(gpu))
print("\n".join(gpu))
