"""PyTorch baselines of examples/models/chainlstm.cavs (Var-LSTM: an LSTM
language model over one chain per sentence, vertex t predicting the word
of vertex t+1), in two ways:

  per-sample  a loop over each chain, one word at a time (dynamic
              declaration); the chain's outputs then go through the output
              layer in one product, and the batch loss is the sum over its
              chains
  level       the whole batch per time step: the input products of every
              word in one product up front, then per step one product of
              the active chains' previous states, the output layer once
              over all vertices

Run by cavs-bench; see harness.py for the arguments."""

import harness
import numpy as np
import torch
import torch.nn.functional as F

from trees import level_groups, sample_roots

NAMES = ["embed", "W", "U", "b", "W_o", "b_o"]


def cell(P, gates, c):
    """gates: W x + U h + b; c: the previous cell state, or None at the start."""
    i, f, o, u = gates.chunk(4, 1)
    c_new = torch.sigmoid(i) * torch.tanh(u)
    if c is not None:
        c_new = torch.sigmoid(f) * c + c_new
    return c_new, torch.sigmoid(o) * torch.tanh(c_new)


def level(P, batch):
    inputs = F.linear(harness.lookup(P["embed"], batch.attrs["word"]), P["W"], P["b"])
    # Row of every vertex within its step's tensors: where its successor
    # finds its state.
    row = np.zeros(batch.vertices, dtype=np.int64)
    c = h = None
    outputs, order = [], []
    for _, vertices in level_groups(batch):  # the steps: level t = word t
        row[vertices] = np.arange(len(vertices))
        gates = inputs[torch.from_numpy(vertices.astype(np.int64))]
        prev = batch.children[vertices, 0]
        if (prev >= 0).all() and h is not None:
            take = torch.from_numpy(row[prev])
            c, h = c[take], h[take]
            gates = gates + F.linear(h, P["U"])
        elif (prev >= 0).any() or h is not None:
            raise ValueError("not a batch of chains: a step mixes first and later words")
        c, h = cell(P, gates, c)
        outputs.append(h)
        order.append(vertices)
    return harness.output_loss(P, outputs, batch.attrs["next"][np.concatenate(order)])


def per_sample(P, batch):
    words, labels = batch.attrs["word"], batch.attrs["next"]
    total = 0
    for sample in range(batch.samples):
        (last,) = sample_roots(batch, sample)
        chain = [int(last)]
        while batch.children[chain[-1], 0] >= 0:
            chain.append(int(batch.children[chain[-1], 0]))
        chain.reverse()
        c = h = None
        outputs = []
        for v in chain:
            gates = F.linear(harness.lookup(P["embed"], words[v:v + 1]), P["W"], P["b"])
            if h is not None:
                gates = gates + F.linear(h, P["U"])
            c, h = cell(P, gates, c)
            outputs.append(h)
        total = total + harness.output_loss(P, outputs, labels[chain])
    return total


if __name__ == "__main__":
    harness.main("chainlstm", {"level": level, "per-sample": per_sample},
                 lambda export: export.require(NAMES, [1]))
