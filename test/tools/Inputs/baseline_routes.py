"""Checks trees.Routes of cavs-bench's PyTorch baselines on a hand-made batch
against a naive walk: every group's gathered child states, and the
gradients that flow back through them to the stored states.

The batch (types: 0 leaf, 1 inner vertex with two child slots; -1 absent):
  sample 0: 0, 1 leaves; 2 = (0, 1); 3 = (2, 1): 1 has two parents, on
            different levels; 4 = (3, -1)
  sample 1: 5, 6 leaves; 7 = (-1, 5); 8 = (6, 7); 9 = (8, 5): 5 read by
            levels 1 and 3
  sample 2: 10 = (-1, -1), an inner vertex without children; 11 leaf;
            12 = (10, 11)
Each vertex stores the state (v + 1, 10 v + 10), so that zeros can only
come from an absent child."""

import argparse
import sys
import types

import numpy as np

parser = argparse.ArgumentParser()
parser.add_argument("--baselines", required=True, help="tools/cavs-bench/baselines")
sys.path.insert(0, parser.parse_args().baselines)
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import torch  # noqa: E402
from trees import Routes, level_groups  # noqa: E402

CHILDREN = [(-1, -1), (-1, -1), (0, 1), (2, 1), (3, -1),
            (-1, -1), (-1, -1), (-1, 5), (6, 7), (8, 5),
            (-1, -1), (-1, -1), (10, 11)]
TYPES = [0, 0, 1, 1, 1, 0, 0, 1, 1, 1, 1, 0, 1]
batch = types.SimpleNamespace(samples=3, vertices=len(TYPES),
                              offsets=np.array([0, 5, 10, 13], dtype=np.int32),
                              types=np.array(TYPES, dtype=np.int32),
                              children=np.array(CHILDREN, dtype=np.int32))
WIDTH = 2


def state(vertices):
    v = torch.tensor(vertices, dtype=torch.float32)
    return torch.stack([v + 1, 10 * v + 10], 1).requires_grad_()


groups = level_groups(batch)
routes = Routes(batch, groups, WIDTH)
# The same groups in the same order, each vertex once.
assert [k for k, _ in routes.groups] == [k for k, _ in groups]
assert all(sorted(a) == sorted(b) for (_, a), (_, b) in zip(routes.groups, groups))

# Each group's state is split by the group that reads it first (the
# leaves: 0, 1, 5, 11 by level 1, 6 by level 2), so no read's gradient
# spans a whole group's state.
print(f"splits: {routes.splits}")

stored, weight_of = [], {}
total = 0
for g, (kind, vertices) in enumerate(routes.groups):
    kids = routes.gather(g)
    if not (batch.children[vertices] >= 0).any():
        assert kids is None, f"group {g} has no children, gathered {kids}"
    else:
        for slot, rows in enumerate(kids):
            for r, v in enumerate(vertices):
                child = batch.children[v, slot]
                want = [0, 0] if child < 0 else [child + 1, 10 * child + 10]
                assert rows[r].tolist() == want, (g, slot, v, rows[r].tolist(), want)
                # A distinct weight per (vertex, slot) for the gradients.
                weight_of[v, slot] = 100 * v + slot + 1
            weights = torch.tensor([[weight_of[v, slot]] * WIDTH for v in vertices],
                                   dtype=torch.float32)
            total = total + (rows * weights).sum()
    stored.append(state(vertices.tolist()))
    routes.store(g, stored[-1])
print(f"ok: {len(groups)} level groups, {batch.vertices} vertices: children as the naive walk's")

# d total / d state(u) = the sum of the weights of the slots that read u.
total.backward()
for (_, vertices), s in zip(routes.groups, stored):
    grad = torch.zeros_like(s) if s.grad is None else s.grad  # None: no group reads s
    for r, u in enumerate(vertices):
        want = sum(w for (v, slot), w in weight_of.items() if batch.children[v, slot] == u)
        assert grad[r].tolist() == [want] * WIDTH, (u, grad[r].tolist(), want)
print("ok: gradients as the naive walk's")

fresh = Routes(batch, groups, WIDTH)
try:
    fresh.store(1, state(fresh.groups[1][1].tolist()))
    print("FAIL: a store out of order was accepted")
except ValueError as e:
    print(f"ok: out of order refused: {e}")
