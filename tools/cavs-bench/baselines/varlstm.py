"""PyTorch baselines of examples/models/chainlstm.cavs (Var-LSTM: an LSTM
language model over one chain per sentence, vertex t predicting the word
of vertex t+1), in two ways:

  per-sample  a loop over each chain, one word at a time (dynamic
              declaration); the chain's outputs then go through the output
              layer in one product, and the batch loss is the sum over its
              chains
  level       the whole batch per time step: the input products of every
              word in one product up front, then per step one product of
              the active chains' previous states (gathered from the
              previous step's only), the output layer once over all
              vertices

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
    steps = [vertices for _, vertices in level_groups(batch)]  # level t = word t
    order = np.concatenate(steps)
    # The input products of every word in one product, in step order and
    # split per step: indexing one [vertices, 4H] tensor per step instead
    # would zero-fill its whole gradient once per step in backward.
    inputs = F.linear(harness.lookup(P["embed"], batch.attrs["word"][order]), P["W"], P["b"])
    # Row of every vertex within its step's tensors: where its successor
    # finds its state.
    row = np.zeros(batch.vertices, dtype=np.int64)
    c = h = None
    outputs = []
    for vertices, gates in zip(steps, inputs.split([len(v) for v in steps])):
        row[vertices] = np.arange(len(vertices))
        prev = batch.children[vertices, 0]
        if (prev >= 0).all() and h is not None:
            take = torch.from_numpy(row[prev])
            c, h = c.index_select(0, take), h.index_select(0, take)
            gates = gates + F.linear(h, P["U"])
        elif (prev >= 0).any() or h is not None:
            raise ValueError("not a batch of chains: a step mixes first and later words")
        c, h = cell(P, gates, c)
        outputs.append(h)
    return harness.output_loss(P, outputs, batch.attrs["next"][order])


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
