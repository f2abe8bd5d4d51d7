#!/usr/bin/env python3
"""Training curves of the example apps' --metrics files as a PNG.

Reads one or more files that an app wrote with `--metrics FILE` (JSON
lines, examples/README.md "Metrics") and draws, with Debian's
python3-matplotlib, four panels into one PNG: the loss (in the app's unit)
and the evaluated split's figure (accuracy or perplexity) against the epoch
and against the wall time since the run started. Training is dashed, the
evaluation solid; step lines (--metrics-every), where there are any, add the
training loss within each epoch. Several files are several runs, one colour
each, named after the file.
"""

import argparse
import json
import math
import os
import sys

# Members of a split that are not a figure of the app's (README.md).
SPLIT_MEMBERS = {"loss", "samples", "targets", "vertices", "seconds",
                 "samples_per_second", "vertices_per_second",
                 "tasks_per_batch", "phases"}
FIGURE_ORDER = ["accuracy", "perplexity"]


class Run:
    """The lines of one metrics file."""

    def __init__(self, path):
        self.name = os.path.splitext(os.path.basename(path))[0]
        self.epochs, self.steps = [], []
        with open(path) as file:
            for number, text in enumerate(file, 1):
                try:
                    line = json.loads(text)
                    event = line["event"]
                except (ValueError, TypeError, KeyError) as error:
                    raise ValueError(f"{path}:{number}: not a metrics line ({error})")
                (self.epochs if event == "epoch" else self.steps).append(line)
        if not self.epochs:
            raise ValueError(f"no epoch lines in {path}")
        first = self.epochs[0]
        self.unit = first["loss_unit"]
        self.eval = next(key for key in first if key not in
                         ("event", "epoch", "step", "wall_seconds", "lr", "loss_unit", "train"))
        figures = [key for key in first[self.eval] if key not in SPLIT_MEMBERS]
        self.figure = next((f for f in FIGURE_ORDER if f in figures), figures[0] if figures else None)

    def step_curves(self):
        """Per epoch, its step lines as (fractional epoch: the share of the
        epoch's samples done, wall time, training loss so far)."""
        totals = {line["epoch"]: line["train"]["samples"] for line in self.epochs}
        curves = {}
        for line in self.steps:
            if totals.get(line["epoch"]):
                x = line["epoch"] - 1 + line["train"]["samples"] / totals[line["epoch"]]
                curves.setdefault(line["epoch"], []).append(
                    (x, line["wall_seconds"], line["train"]["loss"]))
        return list(curves.values())


def curve(axes, xs, ys, **style):
    """A null (a diverged loss) leaves a gap."""
    axes.plot(xs, [math.nan if y is None else y for y in ys], **style)


def draw(plt, runs, path, title):
    figure, panels = plt.subplots(2, 2, figsize=(10, 7))
    for index, run in enumerate(runs):
        color = f"C{index}"
        prefix = run.name + " " if len(runs) > 1 else ""
        for row, x_of in ((0, lambda line: line["epoch"]), (1, lambda line: line["wall_seconds"])):
            loss, metric = panels[row]
            xs = [x_of(line) for line in run.epochs]
            # The loss so far restarts with each epoch: a curve per epoch.
            for epoch, points in enumerate(run.step_curves()):
                curve(loss, [point[row] for point in points], [point[2] for point in points],
                      color=color, alpha=0.4, linewidth=1,
                      label=None if epoch else prefix + "train, epoch so far")
            for split, style in (("train", "--"), (run.eval, "-")):
                curve(loss, xs, [line[split]["loss"] for line in run.epochs], color=color,
                      linestyle=style, marker="o", label=prefix + split)
                if run.figure:
                    curve(metric, xs, [line[split].get(run.figure) for line in run.epochs],
                          color=color, linestyle=style, marker="o", label=prefix + split)
    units = sorted({run.unit for run in runs})
    figures = sorted({run.figure for run in runs if run.figure})
    for row, xlabel in ((0, "epoch"), (1, "wall time since start (s)")):
        loss, metric = panels[row]
        loss.set_ylabel(", ".join(units))
        # Accuracies are percentages (README.md).
        metric.set_ylabel(", ".join(f + " (%)" if "accuracy" in f else f for f in figures)
                          or "(no figures)")
        for axes in (loss, metric):
            axes.set_xlabel(xlabel)
            axes.grid(True, alpha=0.3)
            if axes.lines:
                axes.legend()
        if row == 0:
            for axes in (loss, metric):
                axes.xaxis.get_major_locator().set_params(integer=True)
    figure.suptitle(title)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
    print("wrote", path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("metrics", nargs="+", help="--metrics files of example apps")
    parser.add_argument("--out", help="the PNG file (default: the first file with .png)")
    parser.add_argument("--title", help="the chart's title (default: the files' names)")
    args = parser.parse_args()
    try:
        runs = [Run(path) for path in args.metrics]
    except (OSError, ValueError) as error:
        sys.exit(f"plot-metrics.py: {error}")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("plot-metrics.py: python3-matplotlib is missing (apt-get install python3-matplotlib)")
    out = args.out or os.path.splitext(args.metrics[0])[0] + ".png"
    draw(plt, runs, out, args.title or ", ".join(run.name for run in runs))


if __name__ == "__main__":
    main()
