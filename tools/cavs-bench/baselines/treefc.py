"""PyTorch baselines of examples/models/treefc.cavs (a `leaf` type: tanh of
its word embedding plus b; a `node` type: one fully connected layer over its
two children's states; softmax cross entropy at every labelled vertex), in
two ways:

  per-sample  recursion over each tree, one vertex at a time (dynamic
              declaration): an absent child contributes nothing, a vertex
              without a word no embedding; a tree's vertex outputs then go
              through the output layer in one product, and the batch loss
              is the sum over its trees
  level       the whole batch by level: per level one batched product per
              child slot (skipped where no vertex of the level has that
              child: the leaves), each level gathering its children's
              states from the levels below (trees.Routes), the output
              layer once over all vertices

Run by cavs-bench; see harness.py for the arguments."""

import harness
import numpy as np
import torch
import torch.nn.functional as F

from trees import Routes, level_groups, recurse

NAMES = ["embed", "W_l", "W_r", "b", "W_o", "b_o"]
SLOTS = ["W_l", "W_r"]  # the weight of child slot 0 and 1


def level(P, batch):
    hidden = P["b"].shape[0]
    routes = Routes(batch, level_groups(batch), hidden)
    outputs = []
    for g, (_, vertices) in enumerate(routes.groups):
        pre = P["b"].expand(len(vertices), hidden)
        words = batch.attrs["word"][vertices]
        if (words >= 0).any():
            pre = pre + harness.lookup(P["embed"], words)
        kids = routes.gather(g)
        for k, weight in enumerate(SLOTS):
            if (batch.children[vertices, k] >= 0).any():
                pre = pre + F.linear(kids[k], P[weight])
        h = torch.tanh(pre)
        routes.store(g, h)
        outputs.append(h)
    order = np.concatenate([vertices for _, vertices in routes.groups])
    return harness.output_loss(P, outputs, batch.attrs["label"][order])


def per_sample(P, batch):
    words = batch.attrs["word"]

    def cell(v, visit):
        pre = P["b"].unsqueeze(0)
        if words[v] >= 0:
            pre = pre + harness.lookup(P["embed"], words[v:v + 1])
        for k, weight in enumerate(SLOTS):
            kid = visit(int(batch.children[v, k]))
            if kid is not None:
                pre = pre + F.linear(kid, P[weight])
        return torch.tanh(pre)

    return recurse(P, batch, batch.attrs["label"], cell)


if __name__ == "__main__":
    harness.main("treefc", {"level": level, "per-sample": per_sample},
                 lambda export: export.require(NAMES, [0, 2]))
