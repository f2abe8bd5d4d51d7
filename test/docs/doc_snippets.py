#!/usr/bin/env python3
"""Runs the code blocks of the documentation against a build, so that a
snippet that drifts from the code fails the test suite.

A fenced block is tested when the last non-blank line before it is

    <!-- test: KIND [key=value ...] -->

and a ```sh, ```c or ```cpp block without such a marker must say why it is
not run, so that no command or program slips in untested:

    <!-- not tested: REASON -->

Kinds (each block runs in a scratch folder of its own, which holds `build`,
a link to the build tree, and links to the checkout's examples/ and tools/):

  sh      the commands, run by bash -e
  output  `$ COMMAND` lines, each followed by its exact output (stdout and
          stderr); build/bin is on the PATH
  cavs    a complete model, which cavsc must compile
  c, cpp  a program: its #include lines, then the body of main (or a whole
          program, with main), compiled against the runtime, linked and run

Keys: model=PATH (sh, output) copies a model to model.cavs; model=NAME
(c, cpp) compiles examples/models/NAME.cavs into NAME.h and libNAME.so
with cavsc, for the program to include and link; include=HEADER adds an
#include; files=PATH,... copies files of the checkout into the folder;
requires=FEATURE skips the block unless --feature FEATURE is given (cuda:
this build compiles CUDA code).
"""
import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys

MARKER = re.compile(r"<!--\s*(test|not tested):\s*(.*?)\s*-->")
FENCE = re.compile(r"^```(\S*)\s*$")
# Blocks in these languages are commands or programs: they need a marker.
PROGRAM_LANGUAGES = {"sh", "c", "cpp"}
KINDS = {"sh", "output", "cavs", "c", "cpp"}


class Block:
    def __init__(self, path, line, language, marker, text):
        self.path, self.line, self.language = path, line, language
        self.marker, self.text = marker, text

    def where(self):
        return f"{self.path}:{self.line}"


def read_blocks(path):
    """The fenced blocks of a markdown file, each with the marker before it."""
    blocks, lines = [], open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        fence = FENCE.match(lines[i])
        if not fence:
            i += 1
            continue
        before = next((l for l in reversed(lines[:i]) if l.strip()), "")
        marker = MARKER.search(before)
        end = i + 1
        while end < len(lines) and not lines[end].startswith("```"):
            end += 1
        blocks.append(Block(path, i + 1, fence.group(1),
                            marker.groups() if marker else None,
                            "\n".join(lines[i + 1:end]) + "\n"))
        i = end + 1
    return blocks


class Runner:
    def __init__(self, args):
        self.args = args
        self.source = os.path.abspath(args.source_root)
        self.build = os.path.abspath(args.build_dir)

    def run(self, command, cwd, **kwargs):
        env = dict(os.environ)
        env["PATH"] = os.path.join(self.build, "bin") + os.pathsep + env["PATH"]
        return subprocess.run(command, cwd=cwd, env=env, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              **kwargs)

    def check(self, command, cwd, what, **kwargs):
        result = self.run(command, cwd, **kwargs)
        if result.returncode != 0:
            raise Failure(f"{what} failed (exit {result.returncode}):\n"
                          f"{result.stdout}")
        return result.stdout

    def scratch(self, block, index):
        folder = os.path.join(os.path.abspath(self.args.work),
                              f"{index:02d}-{os.path.basename(block.path)}-"
                              f"{block.line}")
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        os.symlink(self.build, os.path.join(folder, "build"))
        for name in ("examples", "tools"):
            os.symlink(os.path.join(self.source, name),
                       os.path.join(folder, name))
        return folder

    def test(self, block, kind, keys, folder):
        for path in filter(None, keys.get("files", "").split(",")):
            shutil.copy(os.path.join(self.source, path), folder)
        if kind in ("sh", "output") and "model" in keys:
            shutil.copy(os.path.join(self.source, keys["model"]),
                        os.path.join(folder, "model.cavs"))
        if kind == "sh":
            self.check(["bash", "-euo", "pipefail", "-c", block.text], folder,
                       "the commands")
        elif kind == "output":
            self.output(block.text, folder)
        elif kind == "cavs":
            with open(os.path.join(folder, "block.cavs"), "w") as f:
                f.write(block.text)
            self.check([os.path.join(self.build, "bin", "cavsc"), "block.cavs",
                        "--emit=mlir", "-o", "block.mlir"], folder, "cavsc")
        else:
            self.program(block.text, kind, keys, folder)

    def output(self, text, folder):
        commands = re.split(r"^\$ ", text, flags=re.M)[1:]
        for chunk in commands:
            command, _, expected = chunk.partition("\n")
            got = self.run(["bash", "-c", command], folder).stdout
            if got != expected:
                raise Failure(f"'{command}' printed:\n{got}\n"
                              f"but the documentation shows:\n{expected}")

    def program(self, text, kind, keys, folder):
        includes = [f'#include "{keys["include"]}"'] if "include" in keys else []
        body = []
        for line in text.splitlines():
            (includes if line.startswith("#include") else body).append(line)
        source = "\n".join(includes) + "\n"
        if re.search(r"\bint main\s*\(", text):
            source += "\n".join(body) + "\n"
        else:
            ret = "  return 0;\n" if kind == "c" else ""
            source += ("int main(void) {\n" + "\n".join(body) + "\n" + ret +
                       "}\n")
        name = "program." + ("c" if kind == "c" else "cpp")
        with open(os.path.join(folder, name), "w") as f:
            f.write(source)
        libs = []
        if "model" in keys:
            model = keys["model"]
            cavs = os.path.join(self.source, "examples", "models",
                                model + ".cavs")
            cavsc = os.path.join(self.build, "bin", "cavsc")
            for output in (f"lib{model}.so", f"{model}.h"):
                self.check([cavsc, cavs, "-o", output], folder, "cavsc")
            libs.append(os.path.join(folder, f"lib{model}.so"))
        lib = os.path.join(self.build, "lib")
        compiler = self.args.cc if kind == "c" else self.args.cxx
        standard = "-std=c11" if kind == "c" else "-std=c++17"
        self.check(shlex.split(compiler) + [
            standard, "-Wall", "-Wextra", "-Werror", "-Wno-unused-variable",
            "-Wno-unused-but-set-variable", name, "-o", "program",
            "-I", folder, "-I", os.path.join(self.source, "runtime", "include"),
            *libs, "-L", lib, "-lcavs_runtime",
            f"-Wl,-rpath,{folder}:{lib}"], folder, "compiling")
        self.check(["./program"], folder, "running the program")


class Failure(Exception):
    pass


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source-root", required=True)
    parser.add_argument("--build-dir", required=True)
    parser.add_argument("--work", required=True, help="scratch folder")
    parser.add_argument("--cc", default=os.environ.get("CC", "cc"))
    parser.add_argument("--cxx", default=os.environ.get("CXX", "c++"))
    parser.add_argument("--feature", action="append", default=[])
    parser.add_argument("files", nargs="+", help="markdown files")
    args = parser.parse_args()

    runner, failures, index = Runner(args), 0, 0
    for path in args.files:
        for block in read_blocks(path):
            if block.marker is None:
                if block.language in PROGRAM_LANGUAGES:
                    print(f"{block.where()}: error: a ```{block.language} "
                          "block needs <!-- test: KIND --> or "
                          "<!-- not tested: REASON --> before it")
                    failures += 1
                continue
            what, spec = block.marker
            if what == "not tested":
                continue
            kind, *pairs = spec.split()
            keys = dict(pair.split("=", 1) for pair in pairs)
            if kind not in KINDS:
                print(f"{block.where()}: error: unknown kind '{kind}'")
                failures += 1
                continue
            if keys.get("requires", "") not in ["", *args.feature]:
                print(f"{block.where()}: {kind}: skipped (needs "
                      f"{keys['requires']})")
                continue
            index += 1
            try:
                runner.test(block, kind, keys, runner.scratch(block, index))
                print(f"{block.where()}: {kind}: ok")
            except Failure as failure:
                print(f"{block.where()}: error: {kind} block: {failure}")
                failures += 1
    print(f"{index} blocks run, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
