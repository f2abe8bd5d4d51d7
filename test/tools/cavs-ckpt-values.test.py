"""Writes the safetensors files of cavs-ckpt-values.test into argv[1]."""
import json
import struct
import sys


def write(path, header, data):
    text = json.dumps(header).encode()
    text += b" " * ((8 - len(text) % 8) % 8)
    with open(path, "wb") as out:
        out.write(struct.pack("<Q", len(text)) + text + data)


folder = sys.argv[1]
# Quiet and signalling NaNs of both signs, then 1.5.
nans = struct.pack("<5I", 0x7FC00000, 0xFFC00000, 0x7FA00000, 0xFFA00000,
                   0x3FC00000)
write(f"{folder}/nans.safetensors",
      {"a": {"dtype": "F32", "shape": [5], "data_offsets": [0, 20]}}, nans)
write(f"{folder}/empty.safetensors",
      {"e": {"dtype": "F32", "shape": [1 << 62, 0], "data_offsets": [0, 0]}},
      b"")
