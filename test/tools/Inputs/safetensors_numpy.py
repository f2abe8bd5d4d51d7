#!/usr/bin/env python3
"""Checks cavs-ckpt's safetensors files against numpy, the way a Python
user reads and writes them: the format is parsed and written by hand here
(u64 little-endian header length, JSON header, raw little-endian data), so
nothing is shared with the runtime's code.

1. export: the checkpoint's parameters, read back with numpy, must equal
   bit for bit the values `cavs-ckpt dump` prints from the checkpoint (and,
   when the `safetensors` package is importable, what it reads);
2. import: a file written here (tensors in another order, metadata of its
   own, padded header) becomes a checkpoint whose dump has exactly the
   values written; a BF16 tensor is refused and nothing is written.

Prints one `ok:` line per check; exits non-zero on the first failure.
"""
import argparse
import importlib.util
import json
import os
import struct
import subprocess
import sys

import numpy as np


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


def no_duplicates(pairs):
    keys = [key for key, _ in pairs]
    if len(keys) != len(set(keys)):
        fail(f"duplicate keys in the header: {keys}")
    return dict(pairs)


def read_safetensors(path):
    """The metadata and the tensors (name -> float32 array) of a file."""
    with open(path, "rb") as f:
        raw = f.read()
    (length,) = struct.unpack("<Q", raw[:8])
    if (8 + length) % 8 != 0:
        fail(f"the data of {path} does not start 8-byte aligned")
    header = json.loads(raw[8:8 + length].decode("utf-8"),
                        object_pairs_hook=no_duplicates)
    data = raw[8 + length:]
    metadata = header.pop("__metadata__", {})
    tensors, covered = {}, 0
    for name, entry in sorted(header.items(),
                              key=lambda item: item[1]["data_offsets"]):
        begin, end = entry["data_offsets"]
        if entry["dtype"] != "F32" or begin != covered:
            fail(f"tensor {name}: {entry}")
        tensors[name] = np.frombuffer(data[begin:end], dtype="<f4").reshape(
            entry["shape"])
        covered = end
    if covered != len(data):
        fail(f"{path}: {len(data) - covered} bytes after the last tensor")
    return metadata, tensors


def write_safetensors(path, tensors, dtypes, metadata):
    """Writes `tensors` (name -> array) in reverse order, padded."""
    header, blobs, offset = {"__metadata__": metadata}, [], 0
    for name in reversed(list(tensors)):
        blob = tensors[name].astype(dtypes.get(name, "<f4")).tobytes()
        header[name] = {"dtype": "BF16" if name in dtypes else "F32",
                        "shape": list(tensors[name].shape),
                        "data_offsets": [offset, offset + len(blob)]}
        blobs.append(blob)
        offset += len(blob)
    text = json.dumps(header).encode("utf-8")
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + b"".join(blobs))


def dump(tool, path):
    """The tensors `cavs-ckpt dump` prints (name -> float32 array)."""
    out = subprocess.run([tool, "dump", path], check=True, text=True,
                         stdout=subprocess.PIPE).stdout
    tensors, name, shape, rows = {}, None, None, []

    def close():
        if name is not None:
            values = np.array([np.float32(v) for row in rows for v in row],
                              dtype=np.float32)
            tensors[name] = values.reshape(shape)

    for line in out.splitlines():
        if line.startswith(" "):
            rows.append(line.split())
            continue
        close()
        name, dims = line.split(" ", 1)
        shape, rows = json.loads(dims), []
    close()
    return tensors


def same_bits(a, b):
    return (a.shape == b.shape and
            np.array_equal(a.view(np.uint32), b.view(np.uint32)))


def expect_same(what, expected, actual):
    if set(expected) != set(actual):
        fail(f"{what}: tensors {sorted(actual)} instead of {sorted(expected)}")
    for name in expected:
        if not same_bits(expected[name], actual[name]):
            fail(f"{what}: {name} is {actual[name]}, not {expected[name]}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cavs-ckpt", required=True)
    parser.add_argument("--checkpoint", required=True,
                        help="a checkpoint of the model 'tiny'")
    parser.add_argument("--work", required=True, help="scratch folder")
    args = parser.parse_args()
    tool, work = args.cavs_ckpt, args.work

    exported = os.path.join(work, "exported.safetensors")
    subprocess.run([tool, "export", args.checkpoint, exported], check=True)
    metadata, tensors = read_safetensors(exported)
    expect_same("export", dump(tool, args.checkpoint), tensors)
    if metadata != {"cavs.model": "tiny",
                    "cavs.signature": "0x0123456789abcdef"}:
        fail(f"metadata {metadata}")
    print(f"ok: export: {len(tensors)} tensors equal the checkpoint's")
    if importlib.util.find_spec("safetensors") is not None:
        from safetensors.numpy import load_file
        expect_same("safetensors.numpy", tensors, load_file(exported))
        print("ok: safetensors.numpy reads the same")
    else:
        print("ok: safetensors.numpy: skipped (not installed)")

    rng = np.random.default_rng(7)
    written = {name: rng.standard_normal(value.shape).astype(np.float32)
               for name, value in tensors.items()}
    # A subnormal and a negative zero must survive too.
    written["b"][0] = np.float32(1e-38)
    written["b"][1] = np.float32(-0.0)
    mine = os.path.join(work, "numpy.safetensors")
    write_safetensors(mine, written, {}, {"format": "np"})
    imported = os.path.join(work, "imported.ckpt")
    subprocess.run([tool, "import", mine, "--into", args.checkpoint, "-o",
                    imported], check=True)
    expect_same("import", written, dump(tool, imported))
    print(f"ok: import: {len(written)} tensors written by numpy")

    bf16 = os.path.join(work, "bf16.safetensors")
    write_safetensors(bf16, written, {"b": "<u2"}, {})
    refused = os.path.join(work, "refused.ckpt")
    result = subprocess.run([tool, "import", bf16, "--into", args.checkpoint,
                             "-o", refused], text=True,
                            stderr=subprocess.PIPE)
    if result.returncode != 1 or os.path.exists(refused):
        fail(f"a BF16 parameter: exit {result.returncode}")
    print(f"ok: BF16 refused: {result.stderr.strip()}")


if __name__ == "__main__":
    main()
