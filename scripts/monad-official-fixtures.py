#!/usr/bin/env python3
"""Regenerate testdata/monad/official/: real logs of the Monad reference engine.

The conformance vectors (testdata/monad/mNN.states.json.gz) hold, under "log",
the log object the reference engine (dartmouth-cs98/18w-si32, game/, commit
e5ae486) built while playing the game; json.dumps of it reproduces the engine's
bytes (checked against "log_sha256" here). From it this script writes the two
forms the reference itself writes:

  mNN.replay.json  Logger.get_raw_log() = json.dumps(log), what the devkit's
                   scripts/match.py saves as replay.json;
  mNN.mp.gz        Logger.get_log() = gzip.compress(msgpack.packb(log)), what
                   the worker uploads as log.mp.gz (Logger.write writes the
                   same bytes through gzip.open). The gzip header's mtime is
                   set to 0 so that the files are reproducible.

msgpack must be the one the reference used (msgpack-python; Debian's
python3-msgpack 1.0.3: `apt-get install python3-msgpack`, then run this with
/usr/bin/python3). Usage, from the repository root:

  /usr/bin/python3 scripts/monad-official-fixtures.py

Only a few games are written, to keep testdata small (< 1 MB); the tests read
the other vectors' logs from the states files directly.
"""
import gzip
import hashlib
import json
import os
import sys

import msgpack

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
VECTORS = os.path.join(ROOT, "testdata", "monad")
OUT = os.path.join(VECTORS, "official")

MSGPACK = ["m01", "m02", "m05", "m06"]
JSON = ["m05"]


def main():
    os.makedirs(OUT, exist_ok=True)
    for name in sorted(set(MSGPACK + JSON)):
        with gzip.open(os.path.join(VECTORS, name + ".states.json.gz")) as f:
            states = json.load(f)
        log = states["log"]
        raw = json.dumps(log)
        if hashlib.sha256(raw.encode()).hexdigest() != states["log_sha256"]:
            sys.exit("%s: json.dumps(log) does not reproduce log_sha256" % name)
        if name in JSON:
            with open(os.path.join(OUT, name + ".replay.json"), "w") as f:
                f.write(raw)
        if name in MSGPACK:
            with open(os.path.join(OUT, name + ".mp.gz"), "wb") as f:
                f.write(gzip.compress(msgpack.packb(log), mtime=0))
        print(name, "ok")


if __name__ == "__main__":
    main()
