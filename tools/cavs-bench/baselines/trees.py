"""How the baselines walk a batch of graphs: by level for the batched
implementations, by recursion from each root for the per-sample ones."""

import harness
import numpy as np
import torch


def heights(batch):
    """The level of every vertex: 0 without children, else 1 + the highest
    child's (what a bottom-up schedule over the batch does first)."""
    children = batch.children
    level = np.zeros(batch.vertices, dtype=np.int64)
    present = children >= 0
    safe = np.where(present, children, 0)
    # One pass per level: a vertex's level is final once its children's are.
    while True:
        below = np.where(present, level[safe] + 1, 0).max(axis=1, initial=0)
        if np.array_equal(below, level):
            return level
        level = below


def level_groups(batch):
    """(type, vertex ids) per level and vertex type, bottom up: each group is
    one batched computation."""
    level = heights(batch)
    order = np.lexsort((batch.types, level))
    keys = np.stack([level[order], batch.types[order]], axis=1)
    starts = np.flatnonzero(np.any(keys[1:] != keys[:-1], axis=1)) + 1
    return [(int(batch.types[g[0]]), g) for g in np.split(order, starts)]


class StateBuffer:
    """What each vertex scattered, one row per vertex plus a zero row that
    absent children read. Written out of place once per level (the usual
    batched-by-level code: autograd sees one index_copy per level)."""

    def __init__(self, vertices, width):
        self.zero_row = vertices
        self.rows = torch.zeros(vertices + 1, width)

    def gather(self, children):
        """The states of child slots `children` (numpy, -1 when absent)."""
        index = np.where(children >= 0, children, self.zero_row)
        return self.rows[torch.from_numpy(index.astype(np.int64))]

    def scatter(self, vertices, values):
        index = torch.from_numpy(vertices.astype(np.int64))
        self.rows = self.rows.index_copy(0, index, values)


def sample_roots(batch, sample):
    """The vertices of `sample` that no vertex has as a child."""
    first, end = batch.offsets[sample], batch.offsets[sample + 1]
    kids = batch.children[first:end]
    has_parent = np.zeros(end - first, dtype=bool)
    has_parent[kids[kids >= 0] - first] = True
    return [first + v for v in np.flatnonzero(~has_parent)]


def recurse(P, batch, labels, cell, output=lambda state: state):
    """The per-sample loss: for each sample, recursion from its roots with
    `cell(v, visit)` computing vertex v's state (visit(child) returns the
    child's, None when absent), each vertex once; then the output layer
    over the sample's vertex outputs (`output(state)`), summed over the
    samples."""
    total = 0
    for sample in range(batch.samples):
        outputs, order, done = [], [], {}

        def visit(v):
            if v < 0:
                return None
            if v not in done:
                done[v] = cell(v, visit)
                outputs.append(output(done[v]))
                order.append(v)
            return done[v]

        for root in sample_roots(batch, sample):
            visit(int(root))
        total = total + harness.output_loss(P, outputs, labels[order])
    return total
