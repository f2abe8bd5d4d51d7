"""Shared part of the PyTorch baselines of cavs-bench.

cavs-bench exports a model's initial parameters and its benchmark batches to
a folder, runs `python3 <model>.py --dir DIR --impl IMPL ...`, and compares
the per-step losses with its own (docs/performance.md, "PyTorch
baselines"). This module reads that folder, trains with the same Adagrad
rule, times the steps and writes the result as JSON; the model files only
define the forward pass (the summed loss of one batch) of each
implementation.

The folder (written by tools/cavs-bench/BaselineExport.cpp):
  manifest.json   {"format": 1, "workload", "model", "hidden", "batch_size",
                   "optimizer": {"kind": "adagrad", "learning_rate",
                                 "epsilon", "weight_decay", "clip_norm"},
                   "params": [{"name", "shape": [rows(, cols)], "offset"}],
                   "arities": [arity of each vertex type],
                   "attributes": [names],
                   "batches": [{"file", "samples", "vertices"}]}
  params.f32      every parameter, row-major float32, at its "offset"
                  (in floats); the values of cavs::Model(def, seed 1)
  batch-NNN.i32   int32 little-endian: sample offsets (samples + 1: first
                  vertex of each sample, then the vertex count), vertex
                  types (vertices), child slots (vertices * max arity;
                  batch-wide vertex ids, -1 when absent or beyond the
                  type's arity), then one array (vertices) per attribute in
                  manifest order
"""

import argparse
import ctypes
import json
import os
import sys
import time

# Before torch loads libgomp, which reads it once: its idle threads sleep
# instead of spinning, so that OpenBLAS's threads, which run the products
# between torch's parallel loops, get the cores. Spinning, 2 threads ran
# the Tree-LSTM at H = 512, batch 256 at 32-66 samples/s instead of 380.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402


class Batch:
    """One exported batch of graphs, as numpy arrays."""

    def __init__(self, path, samples, vertices, max_arity, attributes):
        data = np.fromfile(path, dtype="<i4")
        expected = samples + 1 + vertices * (1 + max_arity + len(attributes))
        if data.size != expected:
            raise ValueError(f"{path}: {data.size} int32 values, expected {expected}")
        self.samples, self.vertices = samples, vertices
        at = 0

        def take(count):
            nonlocal at
            at += count
            return data[at - count:at]

        self.offsets = take(samples + 1)
        self.types = take(vertices)
        self.children = take(vertices * max_arity).reshape(vertices, max_arity)
        self.attrs = {name: take(vertices) for name in attributes}


class Export:
    """The whole folder: manifest, initial parameters and batches."""

    def __init__(self, folder):
        with open(os.path.join(folder, "manifest.json")) as f:
            self.manifest = json.load(f)
        if self.manifest.get("format") != 1:
            raise ValueError(f"{folder}: unknown export format {self.manifest.get('format')}")
        flat = np.fromfile(os.path.join(folder, "params.f32"), dtype="<f4")
        self.params = {}
        for p in self.manifest["params"]:
            size = int(np.prod(p["shape"]))
            values = flat[p["offset"]:p["offset"] + size].reshape(p["shape"])
            self.params[p["name"]] = torch.tensor(values, requires_grad=True)
        self.arities = self.manifest["arities"]
        max_arity = max(self.arities)
        self.batches = [Batch(os.path.join(folder, b["file"]), b["samples"], b["vertices"],
                              max_arity, self.manifest["attributes"])
                        for b in self.manifest["batches"]]

    def require(self, names, arities):
        """Fails clearly when the export is not of the expected model."""
        missing = [n for n in names if n not in self.params]
        if missing:
            raise ValueError(f"the exported model lacks parameters {missing}")
        if self.arities != arities:
            raise ValueError(f"vertex type arities {self.arities}, expected {arities}")


# --- Pieces the models share ------------------------------------------------

def lookup(table, words):
    """Rows `words` of `table` (a sparse gradient), zeros where words < 0 (as
    cavs's lookup). `words` is a numpy array."""
    words = torch.from_numpy(np.ascontiguousarray(words, dtype=np.int64))
    valid = words >= 0
    if bool(valid.all()):
        return F.embedding(words, table, sparse=True)
    rows = valid.nonzero().squeeze(1)
    out = torch.zeros(words.numel(), table.shape[1])
    return out.index_copy(0, rows, F.embedding(words[rows], table, sparse=True))


def loss_sum(logits, labels):
    """Softmax cross entropy summed over the rows whose label is >= 0 (what
    cavs's `loss softmax_cross_entropy` adds up)."""
    labels = torch.from_numpy(np.ascontiguousarray(labels, dtype=np.int64))
    keep = (labels >= 0).nonzero().squeeze(1)
    if keep.numel() == 0:
        return logits.sum() * 0
    return F.cross_entropy(logits[keep], labels[keep], reduction="sum")


def output_loss(P, outputs, labels):
    """The output layer W_o h + b_o over the stacked vertex `outputs` (one
    product), then loss_sum with their `labels`."""
    return loss_sum(F.linear(torch.cat(outputs), P["W_o"], P["b_o"]), labels)


# --- Threads and BLAS --------------------------------------------------------

def openblas():
    """The OpenBLAS that torch loaded (via libblas.so.3), or None."""
    with open("/proc/self/maps") as maps:
        paths = {line.split()[-1] for line in maps if "openblas" in line and "/" in line}
    for path in sorted(paths):
        try:
            lib = ctypes.CDLL(path)
            lib.openblas_get_corename.restype = ctypes.c_char_p
            return path, lib
        except (OSError, AttributeError):
            continue
    return None


def set_threads(threads):
    """torch's intra-op threads and OpenBLAS's threads: torch does not set the
    latter itself (only MKL's), and OpenBLAS defaults to every core."""
    torch.set_num_threads(threads)
    torch.zeros(2, 2) @ torch.zeros(2, 2)  # makes torch load its BLAS
    info = {"torch": torch.__version__, "torch_threads": torch.get_num_threads(),
            "python": sys.executable}
    found = openblas()
    if found:
        path, lib = found
        lib.openblas_set_num_threads(threads)
        info.update(blas=path, openblas_core=lib.openblas_get_corename().decode(),
                    openblas_threads=lib.openblas_get_num_threads())
    else:
        info["blas"] = "not OpenBLAS"
    return info


# --- Memory ------------------------------------------------------------------

def keep_freed_memory():
    """Makes glibc's malloc keep freed memory for reuse. By default it maps
    large blocks on their own (from 128 KiB, adapting up to 32 MiB) and
    unmaps them when freed, and trims the heap's top, so every step
    page-faults its large tensors afresh,
    zero-filled by the kernel (at H = 512, batch 256, 1 thread: Tree-FC
    55-58 samples/s without, 86-90 with; Tree-LSTM 279 and 289-313). cavs's
    runtime reuses its buffers across batches likewise. Returns whether it
    took effect (not where the C library has no mallopt)."""
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except AttributeError:
        return False
    M_TRIM_THRESHOLD, M_MMAP_MAX = -1, -4  # glibc's malloc.h
    # Every block from the heap (mmap's threshold cannot exceed 32 MiB, and
    # the large tensors are bigger), and the heap never trimmed.
    return bool(mallopt(M_MMAP_MAX, 0) and mallopt(M_TRIM_THRESHOLD, 2**31 - 1))


# --- Training ---------------------------------------------------------------

def make_optimizer(export):
    """Adagrad as cavs's (runtime/src/optim/Adagrad.cpp): s += g*g,
    p -= lr * g / (sqrt(s) + eps), accumulator starting at 0, no decay of
    the learning rate; torch.optim.Adagrad's rule is the same, on dense and
    on sparse (embedding) gradients alike."""
    o = export.manifest["optimizer"]
    if o["kind"] != "adagrad" or o["clip_norm"] != 0 or o["weight_decay"] != 0:
        raise ValueError(f"unsupported optimizer settings {o} (Adagrad without "
                         "clipping or weight decay only: sparse gradients)")
    return torch.optim.Adagrad(export.params.values(), lr=o["learning_rate"],
                               eps=o["epsilon"], lr_decay=0, weight_decay=0,
                               initial_accumulator_value=0)


def train_step(forward, params, optimizer, batch):
    """Forward, backward, Adagrad step on one batch; returns the loss."""
    optimizer.zero_grad(set_to_none=True)
    loss = forward(params, batch)
    loss.backward()
    optimizer.step()
    return float(loss)


def main(model, impls, check):
    """Runs a model file: `impls` maps an implementation name to its forward
    function (params, Batch) -> summed loss; `check(export)` validates the
    export."""
    parser = argparse.ArgumentParser(description=f"PyTorch {model} baseline of cavs-bench")
    parser.add_argument("--dir", required=True, help="the folder cavs-bench exported")
    parser.add_argument("--impl", required=True, choices=sorted(impls))
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--steps", type=int, default=3,
                        help="training steps from the initial parameters whose losses are reported")
    parser.add_argument("--min-seconds", type=float, default=0,
                        help="then train on for this long, timed (0: no timing)")
    parser.add_argument("--out", help="the JSON result (default: DIR/result-IMPL.json)")
    args = parser.parse_args()

    info = set_threads(args.threads)
    info["keep_freed_memory"] = keep_freed_memory()
    export = Export(args.dir)
    check(export)
    forward = impls[args.impl]
    optimizer = make_optimizer(export)
    batches = export.batches
    losses = [train_step(forward, export.params, optimizer, batches[i % len(batches)])
              for i in range(args.steps)]

    # Timed like cavs-bench's benchmarks: from the first batch on, each step
    # timed alone (preparing a batch's levels or recursion included, as the
    # runtime's scheduling is), until min_seconds have passed.
    times, samples, vertices = [], 0, 0
    while args.min_seconds > 0 and sum(times) < args.min_seconds:
        batch = batches[len(times) % len(batches)]
        start = time.perf_counter()
        train_step(forward, export.params, optimizer, batch)
        times.append(time.perf_counter() - start)
        samples += batch.samples
        vertices += batch.vertices

    result = dict(model=model, impl=args.impl, threads=args.threads, losses=losses,
                  batch_seconds=times, samples=samples, vertices=vertices,
                  samples_per_second=samples / sum(times) if times else 0, **info)
    out = args.out or os.path.join(args.dir, f"result-{args.impl}.json")
    with open(out, "w") as f:
        json.dump(result, f, indent=1)
