#!/usr/bin/env python3
"""Runs one data-parallel test under mpirun on this machine (ctest).

Skips (exit 77, ctest's SKIP_RETURN_CODE) when mpirun is missing, or when
the job fails after printing "SKIPPED:" (a GPU test without a GPU). Adds
--oversubscribe (more ranks than cores is fine for correctness) and, as
root, Open MPI's run-as-root switches. With --expect-failure the job must
end non-zero within --max-seconds and print --message; --then runs a
follow-up command (e.g. loading the last checkpoint) that must succeed.
"{rank}" in the command becomes each rank's number (one mpirun app context
per rank), so that ranks can be given different data.
"""
import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

SKIP = 77


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mpirun", default="mpirun")
    parser.add_argument("--np", type=int, default=2)
    parser.add_argument("--expect-failure", action="store_true")
    parser.add_argument("--max-seconds", type=float, default=120)
    parser.add_argument("--message", default="")
    parser.add_argument("--timeout-env", default="")
    parser.add_argument("--then", default="",
                        help="one string: the follow-up command line")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = [c for c in args.command if c != "--"]

    mpirun = shutil.which(args.mpirun)
    if not mpirun:
        print(f"SKIPPED: {args.mpirun} not found; install openmpi-bin")
        return SKIP
    env = dict(os.environ)
    env["CAVS_NUM_THREADS"] = "1"
    if args.timeout_env:
        env["CAVS_DIST_TIMEOUT"] = args.timeout_env
    launch = [mpirun, "--oversubscribe"]
    if os.geteuid() == 0:
        # Open MPI refuses root unless told twice (flag and confirmation).
        launch.append("--allow-run-as-root")
        env["OMPI_ALLOW_RUN_AS_ROOT"] = "1"
        env["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"
    if any("{rank}" in c for c in command):
        # mpirun's MPMD form: ranks in the order of the contexts.
        for rank in range(args.np):
            launch += ([":"] if rank else []) + ["-np", "1"]
            launch += [c.replace("{rank}", str(rank)) for c in command]
    else:
        launch += ["-np", str(args.np)] + command
    print("+", " ".join(launch), flush=True)
    start = time.monotonic()
    try:
        result = subprocess.run(launch, env=env, text=True,
                                stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT,
                                timeout=args.max_seconds + 60)
        output, code = result.stdout, result.returncode
    except subprocess.TimeoutExpired as expired:
        print(expired.output or "")
        print(f"FAIL: the job still ran after {args.max_seconds + 60:.0f} s")
        return 1
    elapsed = time.monotonic() - start
    print(output)
    print(f"exit status {code} after {elapsed:.1f} s")

    if args.expect_failure:
        if code == 0:
            print("FAIL: the job should have failed")
            return 1
        if elapsed > args.max_seconds:
            print(f"FAIL: the failure took over {args.max_seconds} s")
            return 1
    elif code != 0:
        if "SKIPPED:" in output:
            return SKIP
        print("FAIL: the job failed")
        return 1
    if args.message and not re.search(args.message, output):
        print(f"FAIL: no output matches /{args.message}/")
        return 1
    if args.then:
        print("+", args.then, flush=True)
        follow = subprocess.run(shlex.split(args.then), env=env)
        if follow.returncode != 0:
            print("FAIL: the follow-up command failed")
            return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
