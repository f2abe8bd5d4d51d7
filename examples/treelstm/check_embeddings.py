#!/usr/bin/env python3
"""Checks treelstm-train's --embeddings and --freeze-embeddings (ctest).

Writes a tiny SST folder and pretrained vectors for 6 of its 8 words, then
runs the app:

  * GloVe text: the banner reports 6 of 8 words (75.00 %), and training
    moves the loaded rows;
  * gzipped word2vec text, frozen: the banner says so, and the saved
    checkpoint holds the file's vectors in the rows of their words and the
    same whole table after one epoch as after two, while the output layer
    trains;
  * vectors of another dimension fail with the file and line; a missing
    file is a usage error (status 2).

The checkpoint is read by finding the parameter's tensor record (name,
rank, dims, dtype, byte count, values; docs/runtime.md, "Checkpoint file
format"): the parameters come before any optimizer state of the same name.
"""
import argparse
import gzip
import os
import re
import struct
import subprocess
import sys

WORDS = ["good", "bad", "fine", "dull", "fun", "slow", "great", "poor"]
# Words with a vector (and one the vocabulary lacks).
VECTOR_WORDS = ["good", "bad", "fun", "slow", "great", "poor", "absent"]
DIM = 300  # E of examples/models/treelstm.cavs


def tree(i):
    """A small labelled binary tree in the SST format."""
    a, b, c = (WORDS[(i * k + k) % len(WORDS)] for k in (1, 3, 5))
    return (f"({i % 5} ({(i + 1) % 5} {a}) ({(i + 2) % 5} ({(i + 3) % 5} {b}) "
            f"({(i + 4) % 5} {c})))")


def vector(word):
    """Values exact in f32 and distinct per word."""
    seed = sum(map(ord, word))
    return [((seed * 7 + j * 13) % 64 - 32) / 64 for j in range(DIM)]


def write_data(data):
    os.makedirs(data, exist_ok=True)
    splits = {"train.txt": range(30), "dev.txt": range(30, 40),
              "test.txt": range(40, 50)}
    for name, ids in splits.items():
        with open(os.path.join(data, name), "w") as out:
            out.write("".join(tree(i) + "\n" for i in ids))


def vocabulary(data):
    """The app's word ids: words of train.txt in order of appearance."""
    with open(os.path.join(data, "train.txt")) as text:
        words = re.findall(r"\(\d ([^()\s]+)\)", text.read())
    return list(dict.fromkeys(words))


def vector_text(header):
    lines = [f"{len(VECTOR_WORDS)} {DIM}\n"] if header else []
    for word in VECTOR_WORDS:
        lines.append(word + " " + " ".join(map(str, vector(word))) + "\n")
    return "".join(lines)


def read_tensor(path, name):
    """The values of tensor `name` of the checkpoint at `path`."""
    with open(path, "rb") as f:
        data = f.read()
    key = struct.pack("<I", len(name)) + name.encode()
    at = data.index(key) + len(key)
    rank, = struct.unpack_from("<I", data, at)
    dims = struct.unpack_from(f"<{rank}Q", data, at + 4)
    at += 4 + 8 * rank
    dtype, size = struct.unpack_from("<IQ", data, at)
    assert dtype == 1 and size == 4 * dims[0] * (dims[1] if rank == 2 else 1)
    return dims, struct.unpack_from(f"<{size // 4}f", data, at + 12)


def run(app, *args, status=0):
    command = [app, "--threads", "1", "--batch", "10", "--eval-batch", "50",
               *args]
    print("+", " ".join(command), flush=True)
    result = subprocess.run(command, text=True, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    print(result.stdout)
    if result.returncode != status:
        sys.exit(f"FAIL: exit status {result.returncode}, expected {status}")
    return result.stdout


def expect(condition, message):
    if not condition:
        sys.exit("FAIL: " + message)


def rows(table, ids):
    return {i: list(table[i * DIM:(i + 1) * DIM]) for i in ids}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--app", required=True)
    parser.add_argument("--work", required=True)
    args = parser.parse_args()
    data = os.path.join(args.work, "sst")
    write_data(data)
    ids = {word: i for i, word in enumerate(vocabulary(data))}
    expect(sorted(ids) == sorted(WORDS), f"unexpected vocabulary {ids}")
    loaded = [ids[w] for w in VECTOR_WORDS if w in ids]
    expected = {ids[w]: vector(w) for w in VECTOR_WORDS if w in ids}

    glove = os.path.join(args.work, "glove.txt")
    with open(glove, "w") as out:
        out.write(vector_text(header=False))
    trained = os.path.join(args.work, "trained.ckpt")
    output = run(args.app, "--data", data, "--epochs", "1", "--embeddings",
                 glove, "--checkpoint", trained)
    expect(f"embeddings: {glove} (GloVe text, {DIM} dims): 6 of 8 vocabulary "
           "words found, coverage 75.00%\n" in output, "no GloVe coverage line")
    dims, table = read_tensor(trained, "embed")
    expect(dims[1] == DIM, f"embed has shape {dims}")
    expect(rows(table, loaded) != expected, "training left the vectors as "
           "they were without --freeze-embeddings")

    word2vec = os.path.join(args.work, "vectors.w2v.gz")
    with gzip.open(word2vec, "wt") as out:
        out.write(vector_text(header=True))
    tables, layers = [], []
    for epochs in ("1", "2"):
        frozen = os.path.join(args.work, f"frozen{epochs}.ckpt")
        output = run(args.app, "--data", data, "--epochs", epochs,
                     "--embeddings", word2vec, "--freeze-embeddings",
                     "--checkpoint", frozen)
        expect(f"embeddings: {word2vec} (word2vec text, gzipped, {DIM} dims): "
               "6 of 8 vocabulary words found, coverage 75.00%, frozen\n"
               in output, "no word2vec coverage line")
        table = read_tensor(frozen, "embed")[1]
        expect(rows(table, loaded) == expected,
               "the frozen checkpoint lacks the file's vectors")
        tables.append(table)
        layers.append(read_tensor(frozen, "W_o")[1])
    expect(tables[0] == tables[1], "the frozen table changed while training")
    expect(layers[0] != layers[1], "the output layer did not train")

    small = os.path.join(args.work, "small.txt")
    with open(small, "w") as out:
        out.write("good 0.5 0.25\n")
    output = run(args.app, "--data", data, "--epochs", "1", "--embeddings",
                 small, status=1)
    expect(f"{small}:1: the vectors have 2 values but the table has {DIM} "
           "columns" in output, "no message for the wrong dimension")
    missing = os.path.join(args.work, "missing.txt")
    output = run(args.app, "--data", data, "--embeddings", missing, status=2)
    expect(f"--embeddings: cannot open word vectors '{missing}'" in output,
           "no message for a missing file")
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
