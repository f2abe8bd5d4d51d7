#!/usr/bin/env python3
"""Checks an example app's --resume against an uninterrupted run (ctest).

Trains on generated data three times with the same flags:

  * full:  --epochs 3 --checkpoint full.ckpt
  * part:  --epochs 1 --checkpoint part.ckpt
  * rest:  --epochs 3 --checkpoint part.ckpt --resume part.ckpt

(each with --metrics, the resumed run continuing part's file after a
step line of epoch 2 that a stopped run could have left) and passes when
the resumed run says so, prints the uninterrupted run's
epoch lines for epochs 2 and 3 exactly (up to their timings, from the
'; N s, ' on) and the same final test figures (lines starting 'restored ' or
'test '), and leaves the same bytes in part.ckpt and part.ckpt.best as
the uninterrupted run in full.ckpt and full.ckpt.best.

With --run-mpi every run goes through test/dist/run_mpi.py (mpirun -np 2;
exit 77, a skip, without mpirun) and the app gets --distributed. (It
checks any app: check_distributed.py beside it is the SST apps' test.)

With --errors it then checks refused resumes, each of which must exit with
the expected status and message and leave the checkpoint's bytes and the
--metrics file as they were (and make no --metrics file): --epochs already reached, another --seed, a damaged file (checksum),
a checkpoint whose .best is missing, --freeze-embeddings where the run
froze nothing (apps that have the flag), (with --cavs-ckpt PATH) one of
parameters alone, and (with --other-data FLAGS) the same number of
training samples with other contents.
With --craft it also rewrites the training state of a checkpoint, with its
own encoder of the format of docs/runtime.md (so keep the model small): no
state, format version 1, a best epoch after the last, a field of the wrong
type, a seed above 2^63 - 1, a best score that is NaN, a shuffling state
that the seed does not lead to; and that a best score of -inf (every epoch
diverged) resumes.
"""
import argparse
import filecmp
import json
import os
import re
import shutil
import struct
import sys

from check_distributed import run, verdict

SKIP = 77
EPOCHS = 3


def figures(output):
    """Epoch lines by epoch (without timings) and the final test figures."""
    epochs, after = {}, []
    for line in output.splitlines():
        if line.startswith("epoch "):
            # Without the timings: "; 0.2 s, 1267 trees/s, ..." at the end.
            epochs[int(line.split()[1].split("/")[0])] = re.sub(
                r"; [0-9.]+ s, .*", "", line)
        elif line.startswith(("restored ", "test ")):
            after.append(line)
    return epochs, after


def untimed(value):
    """A metrics line without its timings (seconds, rates, phases)."""
    if isinstance(value, dict):
        return {key: untimed(item) for key, item in value.items()
                if key not in ("wall_seconds", "seconds", "phases",
                               "samples_per_second", "vertices_per_second")}
    return value


class Checker:
    def __init__(self, args, app_args):
        self.args = args
        self.env = dict(os.environ, CAVS_NUM_THREADS="1")
        self.prefix = []
        if args.run_mpi:
            self.prefix = [sys.executable, args.run_mpi, "--mpirun",
                           args.mpirun, "--"]
            app_args = app_args + ["--distributed"]
        self.base = [args.app] + app_args + ["--seed", str(args.seed)]
        self.failures = []

    def path(self, name):
        return os.path.join(self.args.work, name)

    def train(self, *flags):
        code, output = run(self.prefix + self.base + list(flags), self.env)
        if code == SKIP:
            raise SystemExit(SKIP)
        return code, output

    def compare(self):
        code, full = self.train("--epochs", str(EPOCHS), "--checkpoint",
                                self.path("full.ckpt"), "--metrics",
                                self.path("full.jsonl"), "--metrics-every", "1")
        if code != 0:
            raise SystemExit("FAIL: the uninterrupted run failed")
        part = self.path("part.ckpt")
        metrics = self.path("part.jsonl")
        code, _ = self.train("--epochs", "1", "--checkpoint", part,
                             "--metrics", metrics, "--metrics-every", "1")
        if code != 0:
            raise SystemExit("FAIL: the run of epoch 1 failed")
        shutil.copy(part, self.path("epoch1.ckpt"))
        shutil.copy(part + ".best", self.path("epoch1.ckpt.best"))
        # A run stopped during epoch 2 had written a step line of it.
        with open(metrics) as lines:
            first = json.loads(lines.readline())
        # The stop cut the line after it: no newline (a resume refused the
        # file as no run's).
        with open(metrics, "a") as lines:
            lines.write(json.dumps(dict(first, epoch=2)) + "\n")
            lines.write(json.dumps(dict(first, epoch=2))[:25])
        # Another --lr: the run's own comes from the checkpoint, and the
        # banner must not claim this one.
        code, rest = self.train("--epochs", str(EPOCHS), "--checkpoint", part,
                                "--resume", part, "--metrics", metrics,
                                "--metrics-every", "1", "--lr", "123")
        if code != 0:
            raise SystemExit("FAIL: the resumed run failed")
        if f"resumed {part} after epoch 1" not in rest:
            self.failures.append("the resumed run does not say it resumed")
        # (Not the lines of run_mpi.py that echo the command.)
        said = [line for line in rest.splitlines() if not line.startswith("+")]
        if any("lr 123" in line for line in said) or "the run's lr " not in rest:
            self.failures.append("the resumed run does not print the run's "
                                 "learning rate, or prints --lr 123")
        # The run's weight decay in the banner's terms (--wd), where the
        # first run's banner states one.
        started = re.search(r"weight decay ([0-9.e+-]+)", full)
        resumed = re.search(r"the run's lr .* weight decay ([0-9.e+-]+)", rest)
        if started and (not resumed or
                        float(resumed.group(1)) != float(started.group(1))):
            self.failures.append(
                f"the resumed run's weight decay "
                f"{resumed.group(1) if resumed else '(none)'} is not the "
                f"--wd {started.group(1)} the run started with")
        full_epochs, full_after = figures(full.replace("full.ckpt", "X"))
        rest_epochs, rest_after = figures(rest.replace("part.ckpt", "X"))
        if sorted(rest_epochs) != list(range(2, EPOCHS + 1)):
            self.failures.append(f"the resumed run reported epochs "
                                 f"{sorted(rest_epochs)}, not 2 to {EPOCHS}")
        for epoch in range(2, EPOCHS + 1):
            if rest_epochs.get(epoch) != full_epochs.get(epoch):
                self.failures.append(
                    f"epoch {epoch}:\n  uninterrupted: "
                    f"{full_epochs.get(epoch)}\n  resumed:       "
                    f"{rest_epochs.get(epoch)}")
        if rest_after != full_after:
            self.failures.append(f"after the epochs:\n  uninterrupted: "
                                 f"{full_after}\n  resumed:       {rest_after}")
        self.compare_metrics(self.path("full.jsonl"), metrics)
        for suffix in ("", ".best"):
            if not filecmp.cmp(self.path("full.ckpt" + suffix),
                               self.path("part.ckpt" + suffix), shallow=False):
                self.failures.append(f"full.ckpt{suffix} and part.ckpt{suffix} "
                                     "differ")

    def compare_metrics(self, full_path, resumed_path):
        """The resumed run's --metrics file holds the uninterrupted run's
        lines (up to timings), its wall time never going back."""
        def lines(path):
            with open(path) as f:
                return [json.loads(line) for line in f]
        full, resumed = lines(full_path), lines(resumed_path)
        if [untimed(line) for line in resumed] != [untimed(line)
                                                    for line in full]:
            self.failures.append(
                f"the metrics files differ: {len(full)} lines uninterrupted, "
                f"{len(resumed)} resumed (first difference: " + next(
                    (f"{untimed(a)} vs {untimed(b)}"
                     for a, b in zip(full, resumed)
                     if untimed(a) != untimed(b)), "in length") + ")")
        walls = [line["wall_seconds"] for line in resumed]
        if walls != sorted(walls):
            self.failures.append(f"the resumed metrics' wall time goes back: "
                                 f"{walls}")

    def refused(self, what, checkpoint, flags, status, message, output=None):
        """Resuming `checkpoint` with `flags` (saving to `output`, by default
        `checkpoint`) must fail and change nothing: neither the checkpoint's
        files nor the run's --metrics file, nor create a --metrics file that
        was not there."""
        output = output or checkpoint
        metrics = self.path("refused.jsonl")
        with open(metrics, "w") as lines:
            lines.write('{"event": "epoch", "epoch": 1}\n')
        absent = self.path("refused-absent.jsonl")
        if os.path.exists(absent):
            os.remove(absent)
        files = [checkpoint, checkpoint + ".best", metrics]
        before = [open(f, "rb").read() if os.path.exists(f) else None
                  for f in files]
        # The metrics file is that of the run, then one that is absent.
        code, printed = run(self.base + ["--epochs", str(EPOCHS), "--resume",
                                         checkpoint, "--checkpoint", output,
                                         "--metrics", metrics] + flags,
                            self.env)
        absent_code, _ = run(self.base + ["--epochs", str(EPOCHS), "--resume",
                                          checkpoint, "--checkpoint", output,
                                          "--metrics", absent] + flags,
                             self.env)
        if absent_code != status or os.path.exists(absent):
            self.failures.append(f"{what}: with an absent --metrics file, "
                                 f"exit status {absent_code} and the file "
                                 f"{'made' if os.path.exists(absent) else 'not made'}")
        if code != status or message not in printed:
            self.failures.append(f"{what}: exit status {code}, expected "
                                 f"{status} and the message '{message}'")
        if re.search(r"^epoch ", printed, re.MULTILINE):
            self.failures.append(f"{what}: it trained")
        after = [open(f, "rb").read() if os.path.exists(f) else None
                 for f in files]
        if after != before:
            self.failures.append(f"{what}: the checkpoint or metrics files "
                                 "changed")

    def errors(self):
        full = self.path("full.ckpt")
        self.refused("epochs reached", full, [], 2,
                     f"--resume {full}: the run has trained {EPOCHS} epochs, "
                     f"--epochs {EPOCHS} asks for no more; raise --epochs")
        shutil.copy(self.path("epoch1.ckpt"), self.path("seed.ckpt"))
        self.refused("another seed", self.path("seed.ckpt"),
                     ["--seed", str(self.args.seed + 1)], 2,
                     f"the run was trained with --seed {self.args.seed}, this "
                     f"command line gives {self.args.seed + 1}; resume with "
                     "the run's flags")
        data = bytearray(open(self.path("epoch1.ckpt"), "rb").read())
        data[len(data) // 2] ^= 0x20
        open(self.path("damaged.ckpt"), "wb").write(data)
        self.refused("a damaged file", self.path("damaged.ckpt"), [], 1,
                     "is corrupt: checksum mismatch")
        shutil.copy(self.path("epoch1.ckpt"), self.path("nobest.ckpt"))
        self.refused("a missing best checkpoint", self.path("nobest.ckpt"),
                     [], 1,
                     f"--resume {self.path('nobest.ckpt')}: its best "
                     f"checkpoint '{self.path('nobest.ckpt')}.best' (epoch 1) "
                     "is missing")
        # Saving onto the resumed run's best checkpoint would replace it with
        # the last epoch (and report it as the best).
        onbest = self.path("onbest.ckpt")
        shutil.copy(self.path("epoch1.ckpt"), onbest)
        shutil.copy(self.path("epoch1.ckpt.best"), onbest + ".best")
        self.refused("the checkpoint on the best one", onbest, [], 2,
                     f"--checkpoint {onbest}.best is the best checkpoint of "
                     f"--resume {onbest} (epoch 1); saving the last epoch "
                     "there would overwrite it", output=onbest + ".best")
        # A --metrics file that is no run's: it was kept, the run's lines
        # appended to it.
        foreign = self.path("foreign.ckpt")
        for suffix in ("", ".best"):
            shutil.copy(self.path("epoch1.ckpt" + suffix), foreign + suffix)
        lines = self.path("foreign.txt")
        with open(lines, "w") as out:
            out.write("not a metrics line\n")
        code, printed = run(self.base + ["--epochs", str(EPOCHS), "--resume",
                                         foreign, "--checkpoint", foreign,
                                         "--metrics", lines], self.env)
        message = (f"--metrics {lines}: line 1 is no metrics line of a run; "
                   "resume with the run's own --metrics file or a new one")
        if (code != 2 or message not in printed or
                re.search(r"^epoch ", printed, re.MULTILINE) or
                open(lines).read() != "not a metrics line\n"):
            self.failures.append(f"a foreign --metrics file: exit status "
                                 f"{code}, expected 2, the message "
                                 f"'{message}' and the file kept")
        _, usage = run([self.args.app, "--help"], self.env)
        if "--freeze-embeddings" in usage:
            shutil.copy(self.path("epoch1.ckpt"), self.path("frozen.ckpt"))
            shutil.copy(self.path("epoch1.ckpt.best"),
                        self.path("frozen.ckpt.best"))
            self.refused("other frozen parameters", self.path("frozen.ckpt"),
                         ["--freeze-embeddings"], 2,
                         "the run froze other parameters than this command "
                         "line does (--freeze-embeddings)")
        if self.args.cavs_ckpt:
            # Parameters alone (cavs-ckpt import of exported tensors): no
            # optimizer state either, yet the reason is the run state.
            tensors = self.path("bare.safetensors")
            bare = self.path("bare.ckpt")
            for command in (["export", self.path("epoch1.ckpt"), tensors],
                            ["import", tensors, "--into",
                             self.path("epoch1.ckpt"), "-o", bare]):
                code, _ = run([self.args.cavs_ckpt] + command, self.env)
                if code != 0:
                    raise SystemExit(f"FAIL: cavs-ckpt {command[0]} failed")
            self.refused("parameters alone", bare, [], 2,
                         f"--resume {bare}: the checkpoint holds no training "
                         "state")
            # They evaluate, with a warning: nothing tells their vocabulary
            # or seed (another vocabulary's scored garbage silently).
            _, usage = run([self.args.app, "--help"], self.env)
            if "--evaluate" in usage:
                code, printed = run(self.base + ["--evaluate", bare],
                                    self.env)
                warning = (f"warning: {bare} (--evaluate) holds no training "
                           "state, so its vocabulary and seed cannot be "
                           "checked")
                if code != 0 or warning not in printed:
                    self.failures.append(
                        f"--evaluate of parameters alone: exit status {code}, "
                        f"expected 0 and '{warning}'")
        if self.args.other_data:
            shutil.copy(self.path("epoch1.ckpt"), self.path("data.ckpt"))
            shutil.copy(self.path("epoch1.ckpt.best"),
                        self.path("data.ckpt.best"))
            self.refused("other training data", self.path("data.ckpt"),
                         self.args.other_data.split(), 2,
                         f"--resume {self.path('data.ckpt')}: the run was "
                         "trained on other data")

    def craft(self):
        """Refused resumes of rewritten training states."""
        checkpoint = Checkpoint(open(self.path("epoch1.ckpt"), "rb").read())
        fields = checkpoint.fields
        cases = [
            ("no training state", 2, [], 2,
             "the checkpoint holds no training state"),
            ("format version 1", 1, [], 2,
             "the checkpoint holds no training state"),
            ("best epoch after the last", 2,
             replace(fields, "best_epoch", U64, 2), 1,
             "bad training state: its best epoch 2 comes after its last "
             "epoch 1"),
            ("a field of the wrong type", 2, replace(fields, "seed", F64, 3),
             1, "bad training state: training-state field 'seed' is a f64, "
             "not a u64"),
            ("a missing field", 2,
             [f for f in fields if f[0] != "train_samples"], 1,
             "bad training state: the training state has no field "
             "'train_samples'"),
            ("a seed no --seed gives", 2,
             replace(fields, "seed", U64, 2**64 - 1), 1,
             "bad training state: training-state field 'seed' is "
             "18446744073709551615, above the largest --seed, 2^63 - 1"),
            ("a best score that is no number", 2,
             replace(fields, "best_score", F64, float("nan")), 1,
             "bad training state: training-state field 'best_score' is nan, "
             "not a score"),
            ("a shuffling state off by one", 2,
             replace(fields, "shuffle_state", U64,
                     value(fields, "shuffle_state") + 1), 1,
             "bad training state: the shuffling state"),
        ]
        for i, (what, version, new_fields, status, message) in enumerate(
                cases):
            path = self.path(f"crafted-{i}.ckpt")
            open(path, "wb").write(checkpoint.encode(version, new_fields))
            self.refused(what, path, [], status, message)
        # -inf is the best score of a run whose every epoch diverged (a NaN
        # score ranks below all others): such a run resumes.
        path = self.path("diverged.ckpt")
        open(path, "wb").write(checkpoint.encode(
            2, replace(fields, "best_score", F64, float("-inf"))))
        shutil.copy(self.path("epoch1.ckpt.best"), path + ".best")
        code, output = run(self.base + ["--epochs", "2", "--resume", path,
                                        "--checkpoint", path], self.env)
        if code != 0 or not re.search(r"^epoch 2", output, re.MULTILINE):
            self.failures.append(f"a run whose every epoch diverged (best "
                                 f"score -inf) did not resume: exit status "
                                 f"{code}")
        # The encoder itself: the app's file, decoded and encoded again.
        if checkpoint.encode(2, fields) != checkpoint.data:
            self.failures.append("the test's encoder does not reproduce the "
                                 "app's checkpoint")


U64, F64 = 1, 2


def replace(fields, name, kind, number):
    return [(n, kind, number) if n == name else (n, k, v)
            for n, k, v in fields]


def value(fields, name):
    return next(v for n, _, v in fields if n == name)


def crc32c(data):
    table = []
    for byte in range(256):
        crc = byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
        table.append(crc)
    crc = 0xFFFFFFFF
    for byte in data:
        crc = table[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


class Checkpoint:
    """A version-2 checkpoint split into the bytes before its training
    state and the state's fields (name, type, value)."""

    def __init__(self, data):
        self.data = data
        self.pos = 28
        self.string()
        self.tensors()
        if self.u32():  # optimizer kind
            self.pos += 8  # step count
            for _ in range(self.u32()):
                self.string()
                self.pos += 8
            for _ in range(self.u32()):
                self.string()
                self.tensors()
        self.records = data[28:self.pos]
        self.fields = []
        for _ in range(self.u32()):
            name, kind = self.string(), self.u32()
            number = struct.unpack_from("<Q" if kind == U64 else "<d",
                                        data, self.pos)[0]
            self.pos += 8
            self.fields.append((name, kind, number))
        assert self.pos == len(data) - 4, "bytes after the training state"

    def u32(self):
        self.pos += 4
        return struct.unpack_from("<I", self.data, self.pos - 4)[0]

    def string(self):
        size = self.u32()
        self.pos += size
        return self.data[self.pos - size:self.pos].decode()

    def tensors(self):
        for _ in range(self.u32()):
            self.string()
            rank = self.u32()
            self.pos += 8 * rank + 4  # dimensions, dtype
            size = struct.unpack_from("<Q", self.data, self.pos)[0]
            self.pos += 8 + size

    def encode(self, version, fields):
        body = bytearray(self.records)
        if version >= 2:
            body += struct.pack("<I", len(fields))
            for name, kind, number in fields:
                body += struct.pack("<I", len(name)) + name.encode()
                body += struct.pack("<I", kind)
                body += struct.pack("<Q" if kind == U64 else "<d", number)
        head = (self.data[:8] + struct.pack("<IQ", version, 28 + len(body) + 4)
                + self.data[20:28])
        data = head + body
        return bytes(data + struct.pack("<I", crc32c(data)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--app", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--run-mpi")
    parser.add_argument("--mpirun", default="mpirun")
    parser.add_argument("--errors", action="store_true")
    parser.add_argument("--craft", action="store_true")
    parser.add_argument("--cavs-ckpt", default="",
                        help="cavs-ckpt, to make a checkpoint of parameters "
                             "alone (with --errors)")
    parser.add_argument("--other-data", default="",
                        help="one string (--other-data=...): flags that "
                             "change the training data, not its size")
    parser.add_argument("app_args", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    checker = Checker(args, [a for a in args.app_args if a != "--"])
    checker.compare()
    if args.errors:
        checker.errors()
    if args.craft:
        checker.craft()
    return verdict(checker.failures,
                   "the resumed run matches the uninterrupted one")


if __name__ == "__main__":
    sys.exit(main())
