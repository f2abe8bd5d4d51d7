"""PyTorch baselines of examples/models/treelstm-nary.cavs (binary N-ary
Tree-LSTM: unlike treelstm.cavs, each child position has its own matrices,
for the i, o, u gates and for each child's forget gate; leaves as
treelstm's, softmax cross entropy at every labelled vertex). Both
implementations, `level` and `per-sample`, are treelstm.py's with this
inner vertex; per batch, the matrices that multiply the same child are
stacked once, so an inner vertex (or level) takes one product per child.

Run by cavs-bench; see harness.py for the arguments."""

import harness
import torch
import torch.nn.functional as F

import treelstm

NAMES = ["embed", "W_iou", "b_iou", "U_iou_l", "U_iou_r", "c_iou", "U_fl_l", "U_fl_r",
         "U_fr_l", "U_fr_r", "b_f", "W_o", "b_o"]


def stacked(P):
    """P plus, per child position, its i, o, u rows and its rows of the left
    and the right forget gate as one matrix (the gates in that order), and
    their biases."""
    return dict(P, U_left=torch.cat([P["U_iou_l"], P["U_fl_l"], P["U_fr_l"]]),
                U_right=torch.cat([P["U_iou_r"], P["U_fl_r"], P["U_fr_r"]]),
                b_gates=torch.cat([P["c_iou"], P["b_f"], P["b_f"]]))


def node_cell(P, c_kids, h_kids):
    """The inner vertex on stacked(P); c_kids, h_kids: [left, right], each
    [n, H]."""
    (c_l, c_r), (h_l, h_r) = c_kids, h_kids
    gates = F.linear(h_l, P["U_left"]) + F.linear(h_r, P["U_right"], P["b_gates"])
    i, o, u, f_l, f_r = gates.chunk(5, 1)
    c = (torch.sigmoid(i) * torch.tanh(u) + torch.sigmoid(f_l) * c_l
         + torch.sigmoid(f_r) * c_r)
    return c, torch.sigmoid(o) * torch.tanh(c)


def run(impl):
    """`impl` of treelstm.py with this model's inner vertex."""
    return lambda P, batch: impl(stacked(P), batch, node_cell=node_cell)


if __name__ == "__main__":
    harness.main("treelstm_nary", {"level": run(treelstm.level),
                                   "per-sample": run(treelstm.per_sample)},
                 lambda export: export.require(NAMES, [0, 2]))
