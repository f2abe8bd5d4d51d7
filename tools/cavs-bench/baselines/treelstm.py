"""PyTorch baselines of examples/models/treelstm.cavs (binary child-sum
Tree-LSTM: a `leaf` type reading its word, a `node` type combining two
children, softmax cross entropy at every labelled vertex), in two ways:

  per-sample  recursion over each tree, one vertex at a time (dynamic
              declaration); a tree's vertex outputs then go through the
              output layer in one product, and the batch loss is the sum
              over its trees
  level       the whole batch by level and vertex type: one batched
              product per level, each level gathering its children's
              states from the levels below (trees.Routes), the output
              layer once over all vertices

Run by cavs-bench; see harness.py for the arguments."""

import harness
import numpy as np
import torch
import torch.nn.functional as F

from trees import Routes, level_groups, recurse

LEAF, NODE = 0, 1
NAMES = ["embed", "W_iou", "b_iou", "U_iou", "c_iou", "U_f", "b_f", "W_o", "b_o"]


def leaf_cell(P, x):
    i, o, u = F.linear(x, P["W_iou"], P["b_iou"]).chunk(3, 1)
    c = torch.sigmoid(i) * torch.tanh(u)
    return c, torch.sigmoid(o) * torch.tanh(c)


def node_cell(P, c_kids, h_kids):
    """c_kids, h_kids: one [n, H] tensor per child slot."""
    i, o, u = F.linear(sum(h_kids), P["U_iou"], P["c_iou"]).chunk(3, 1)
    # Both children's forget gates in one product.
    f = torch.sigmoid(F.linear(torch.cat(h_kids), P["U_f"], P["b_f"]))
    c = torch.sigmoid(i) * torch.tanh(u) + sum(
        fk * ck for fk, ck in zip(f.chunk(len(h_kids)), c_kids))
    return c, torch.sigmoid(o) * torch.tanh(c)


def level(P, batch, node_cell=node_cell):
    """`node_cell`: as this file's, for the variants of the inner vertex
    (treelstm_nary.py)."""
    hidden = P["b_f"].shape[0]
    routes = Routes(batch, level_groups(batch), 2 * hidden)
    outputs = []
    for g, (kind, vertices) in enumerate(routes.groups):
        if kind == LEAF:
            c, h = leaf_cell(P, harness.lookup(P["embed"], batch.attrs["word"][vertices]))
        else:
            kids = [k.split(hidden, 1) for k in routes.gather(g)]
            c, h = node_cell(P, [k[0] for k in kids], [k[1] for k in kids])
        routes.store(g, torch.cat([c, h], 1))
        outputs.append(h)
    order = np.concatenate([vertices for _, vertices in routes.groups])
    return harness.output_loss(P, outputs, batch.attrs["label"][order])


def per_sample(P, batch, node_cell=node_cell):
    hidden = P["b_f"].shape[0]
    absent = (torch.zeros(1, hidden), torch.zeros(1, hidden))
    words = batch.attrs["word"]

    def cell(v, visit):
        if batch.types[v] == LEAF:
            return leaf_cell(P, harness.lookup(P["embed"], words[v:v + 1]))
        kids = [visit(int(k)) or absent for k in batch.children[v]]
        return node_cell(P, [k[0] for k in kids], [k[1] for k in kids])

    return recurse(P, batch, batch.attrs["label"], cell, output=lambda state: state[1])


if __name__ == "__main__":
    harness.main("treelstm", {"level": level, "per-sample": per_sample},
                 lambda export: export.require(NAMES, [0, 2]))
