#!/usr/bin/env python3
"""Charts of cavs-bench results (docs/performance.md).

Reads the JSON that `cavs-bench --benchmark_out=FILE` writes (one or more
files) and draws, with Debian's python3-matplotlib, PNG charts into OUTDIR:

  <workload>-<mode>-h<H>-t<T>-vs-batch.png    samples/s against batch size
  <workload>-<mode>-bs<B>-t<T>-vs-hidden.png  samples/s against hidden size
  <workload>-<mode>-h<H>-ablation.png         the ablation steps as bars

one line per system: cavsc and, when the run had them, the PyTorch
baselines. A chart is drawn only where its axis has two or more values; a
configuration found in several files keeps its last figure, one measured in
several rounds of a file (--rounds) their median.

Benchmark names are <workload>/<mode>/bs:<B>/h:<H>/threads:<T>[/gemm:<E>]
[/<variant>][/round:<R>][/sched:...][/device:<D>] (Google Benchmark appends
/min_time:.../manual_time; rows of another schedule are left out); the variant is an ablation step (all-off,
lazy-only, ...) or a baseline (pytorch-level, pytorch-per-sample). Rows of
another GEMM engine or device are a system of their own ("cavsc (openblas)").
"""

import argparse
import collections
import json
import os
import statistics
import sys

ABLATION_ORDER = ["all-off", "lazy-only", "fusion-only", "merge-only", "no-lazy", "no-fusion", "no-merge", "all-on"]


def parse_name(name):
    """The fields of a benchmark name, or None for a name of another tool."""
    parts = name.split("/")
    if len(parts) < 5:
        return None
    fields = {"workload": parts[0], "mode": parts[1], "variant": "", "gemm": "", "device": ""}
    for part in parts[2:]:
        key, sep, value = part.partition(":")
        if sep and key in ("bs", "h", "threads"):
            fields[key] = int(value)
        elif sep and key in ("gemm", "device"):
            fields[key] = value
        elif sep and key == "sched":
            return None  # another schedule than the sweep's default
        elif not sep and part != "manual_time":
            fields["variant"] = part
    if not {"bs", "h", "threads"} <= fields.keys():
        return None
    return fields


def read_runs(paths):
    runs = []
    for path in paths:
        with open(path) as file:
            data = json.load(file)
        # The rounds of one configuration (--rounds) count as their median.
        rates = collections.defaultdict(list)
        for bench in data.get("benchmarks", []):
            fields = parse_name(bench.get("name", ""))
            if fields is None or "samples/s" not in bench or bench.get("error_occurred"):
                continue
            rates[tuple(sorted(fields.items()))].append(float(bench["samples/s"]))
        for key, values in rates.items():
            fields = dict(key)
            fields["rate"] = statistics.median(values)
            runs.append(fields)
    return runs


def system_of(run):
    if run["variant"].startswith("pytorch"):
        return run["variant"]
    where = ", ".join(run[key] for key in ("gemm", "device") if run[key])
    return f"cavsc ({where})" if where else "cavsc"


def line_chart(plt, path, title, xlabel, series):
    """series: {system: [(x, samples/s)]}."""
    figure, axes = plt.subplots(figsize=(6, 4))
    for system in sorted(series, key=lambda s: (s != "cavsc", s)):
        points = sorted(series[system])
        axes.plot([x for x, _ in points], [y for _, y in points], marker="o", label=system)
    axes.set_xscale("log", base=2)
    axes.set_yscale("log")
    xs = sorted({x for points in series.values() for x, _ in points})
    axes.set_xticks(xs)
    axes.set_xticklabels([str(x) for x in xs])
    axes.tick_params(axis="x", which="minor", bottom=False, labelbottom=False)
    axes.set_xlabel(xlabel)
    axes.set_ylabel("samples/s")
    axes.set_title(title)
    axes.grid(True, which="both", alpha=0.3)
    axes.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
    print("wrote", path)


def sweep_charts(plt, runs, outdir):
    """Throughput against batch size and against hidden size."""
    plain = [r for r in runs if r["variant"] == "" or r["variant"].startswith("pytorch")]
    for axis, fixed, label, suffix in (("bs", "h", "batch size", "vs-batch"),
                                        ("h", "bs", "hidden size", "vs-hidden")):
        # A configuration measured in several files keeps its last figure.
        groups = collections.defaultdict(lambda: collections.defaultdict(dict))
        for run in plain:
            key = (run["workload"], run["mode"], run[fixed], run["threads"])
            groups[key][system_of(run)][run[axis]] = run["rate"]
        for (workload, mode, value, threads), by_system in sorted(groups.items()):
            series = {system: list(points.items()) for system, points in by_system.items()}
            if len({x for points in series.values() for x, _ in points}) < 2:
                continue
            tag = f"h{value}" if fixed == "h" else f"bs{value}"
            name = f"{workload}-{mode}-{tag}-t{threads}-{suffix}.png"
            title = f"{workload} {mode}, {fixed}={value}, {threads} thread(s)"
            line_chart(plt, os.path.join(outdir, name), title, label, series)


def ablation_charts(plt, runs, outdir):
    steps = collections.defaultdict(list)
    for run in runs:
        if run["variant"] in ABLATION_ORDER:
            steps[(run["workload"], run["mode"], run["h"], system_of(run))].append(run)
    for (workload, mode, hidden, system), group in sorted(steps.items()):
        group.sort(key=lambda r: (ABLATION_ORDER.index(r["variant"]), r["threads"]))
        labels = [r["variant"] + (f" ({r['threads']} thr)" if r["threads"] > 1 else "") for r in group]
        base = group[0]["rate"] if group[0]["variant"] == "all-off" else None
        figure, axes = plt.subplots(figsize=(7, 4))
        bars = axes.bar(range(len(group)), [r["rate"] for r in group], color="tab:blue")
        if base:
            for bar, run in zip(bars, group):
                axes.annotate(f"{run['rate'] / base:.2f}x", (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                              ha="center", va="bottom")
        axes.set_xticks(range(len(group)))
        axes.set_xticklabels(labels, rotation=20, ha="right")
        axes.set_ylabel("samples/s")
        axes.set_title(f"{workload} {mode}: ablation, bs={group[0]['bs']}, h={group[0]['h']}"
                       + ("" if system == "cavsc" else f", {system[len('cavsc ('):-1]}"))
        figure.tight_layout()
        tag = "".join(f"-{group[0][key]}" for key in ("gemm", "device") if group[0][key])
        path = os.path.join(outdir, f"{workload}-{mode}-h{hidden}{tag}-ablation.png")
        figure.savefig(path, dpi=100)
        plt.close(figure)
        print("wrote", path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", nargs="+", help="cavs-bench --benchmark_out JSON files")
    parser.add_argument("--out", required=True, help="folder for the PNG files")
    args = parser.parse_args()
    try:
        runs = read_runs(args.results)
    except (OSError, ValueError) as error:
        sys.exit(f"plot.py: {error}")
    if not runs:
        sys.exit("plot.py: no cavs-bench results in " + ", ".join(args.results))
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("plot.py: python3-matplotlib is missing (apt-get install python3-matplotlib)")
    os.makedirs(args.out, exist_ok=True)
    sweep_charts(plt, runs, args.out)
    ablation_charts(plt, runs, args.out)


if __name__ == "__main__":
    main()
