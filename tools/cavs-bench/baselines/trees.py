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


class Routes:
    """The states of a batch walked by level group, stored so that each
    group reads only the rows it needs.

    Writing every level's states into one per-vertex buffer (index_copy out
    of place) copies the whole buffer once per level, and autograd keeps
    and zero-fills each copy: O(levels x vertices) work, which made the
    batched baselines slower at batch 256 than at 64. Gathering from each
    group's own output instead still costs a zero-filled gradient of the
    whole source per read (index_select's backward), and the leaves, half
    the vertices, are read by every level. So each group's vertices are
    ordered by the group that first reads them, and its state is split
    (once, one cat in backward) into one chunk per such reader: a group
    reads from chunks meant for it, plus the few rows other groups read
    first (a vertex with several parents). Absent children read zeros.

    The routes are prepared with numpy once per batch: `groups` are those
    of level_groups, each group's vertices reordered; gather then takes
    one index_select per source chunk."""

    def __init__(self, batch, groups, width):
        self.width = width
        group_of = np.zeros(batch.vertices, dtype=np.int64)
        for g, (_, vertices) in enumerate(groups):
            group_of[vertices] = g
        # The first group that reads each vertex (len(groups): none does).
        first = np.full(batch.vertices, len(groups), dtype=np.int64)
        parents, slots = np.nonzero(batch.children >= 0)
        np.minimum.at(first, batch.children[parents, slots], group_of[parents])

        self.groups, self.splits = [], []
        chunk_of = np.zeros(batch.vertices, dtype=np.int64)
        row_of = np.zeros(batch.vertices, dtype=np.int64)
        chunks = 0
        for kind, vertices in groups:
            vertices = vertices[np.argsort(first[vertices], kind="stable")]
            _, starts, sizes = np.unique(first[vertices], return_index=True, return_counts=True)
            for chunk, (start, size) in enumerate(zip(starts, sizes), chunks):
                chunk_of[vertices[start:start + size]] = chunk
                row_of[vertices[start:start + size]] = np.arange(size)
            chunks += len(sizes)
            self.groups.append((kind, vertices))
            self.splits.append(sizes.tolist())
        self.chunks = []
        self.plans = [self._plan(batch.children[vertices], chunk_of, row_of)
                      for _, vertices in self.groups]

    @staticmethod
    def _plan(children, chunk_of, row_of):
        """For one group's child slots (rows: vertices, columns: slots),
        slot-major: the sources [(chunk, rows)], the number of absent
        children, the permutation from source order back to slot-major
        order (None when it is the identity) and the slots; None without
        any child."""
        kids = children.T.reshape(-1)
        present = kids >= 0
        if not present.any():
            return None
        source = np.where(present, chunk_of[np.where(present, kids, 0)], np.iinfo(np.int64).max)
        order = np.argsort(source, kind="stable")
        chunks, starts = np.unique(source[order], return_index=True)
        bounds = list(starts[1:]) + [len(order)]
        sources = [(int(c), torch.from_numpy(row_of[kids[order[a:b]]]))
                   for c, a, b in zip(chunks, starts, bounds) if present[order[a]]]
        absent = int((~present).sum())
        identity = np.array_equal(order, np.arange(len(order)))
        back = None if identity else torch.from_numpy(np.argsort(order))
        return sources, absent, back, children.shape[1]

    def gather(self, group):
        """The child states of `group`: one [vertices, width] tensor per
        slot, its vertices in the order of self.groups; None when none of
        them has a child. Every group below must have been stored."""
        plan = self.plans[group]
        if plan is None:
            return None
        sources, absent, back, slots = plan
        parts = [self.chunks[c].index_select(0, rows) for c, rows in sources]
        if absent:
            parts.append(torch.zeros(absent, self.width))
        rows = parts[0] if len(parts) == 1 else torch.cat(parts)
        if back is not None:
            rows = rows.index_select(0, back)
        return rows.chunk(slots)

    def store(self, group, state):
        """Stores the [vertices, width] state of `group`, groups in order."""
        if len(self.chunks) != sum(len(s) for s in self.splits[:group]):
            raise ValueError(f"group {group} stored out of order")
        self.chunks.extend(state.split(self.splits[group]))


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
