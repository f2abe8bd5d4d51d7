#!/usr/bin/env python3
"""Checks that a refused command leaves a file as it was (ctest).

Usage: keeps_file.py STATUS FILE COMMAND...
Writes known lines to FILE, runs COMMAND and passes when it exits with
STATUS and FILE still holds exactly those lines: a run refused before
training must not empty or change the user's files."""
import subprocess
import sys

CONTENT = '{"event": "epoch", "epoch": 1}\n'


def main():
    status, path, command = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    with open(path, "w") as file:
        file.write(CONTENT)
    run = subprocess.run(command, capture_output=True, text=True)
    print(run.stdout + run.stderr)
    with open(path) as file:
        after = file.read()
    if run.returncode != status:
        print(f"FAIL: exit status {run.returncode}, expected {status}")
        return 1
    if after != CONTENT:
        print(f"FAIL: {path} changed: {after!r}")
        return 1
    print(f"PASS: exit status {status}, {path} unchanged")
    return 0


if __name__ == "__main__":
    sys.exit(main())
