#!/usr/bin/env python3
"""Time the reference Monad engine, turn by turn, on rewind's Monad vectors.

Usage:
    monad-reference-bench.py REF VECTORS [--repeats N] [--go GO_BENCH_OUTPUT]

REF is a directory holding the reference's game/ package
(dartmouth-cs98/18w-si32, commit e5ae486; e.g. `git archive HEAD game | tar
-x -C REF`); nothing of it is copied here, it is imported from REF. VECTORS
is testdata/monad. The engine runs unmodified and in-process, as the
vectors were made (testdata/monad/README.md): game.Game.MAX_ITERS set to
the vector's turn limit, DEBUG_LOG_FN to /dev/null, random.seed(seed)
before Game(...), and stand-ins for the Bot objects whose read() returns the
recorded replies (raising TimeoutError where the vector's player timed out).

A turn is one pass of Game.start()'s loop: the game-over test, the log
entry (Logger.new_turn), sending the state, reading and parsing the
replies, combat, sorting, implicit mines, execution and the cell update.
It is timed with time.perf_counter() between successive calls of
is_game_over(), which opens each pass; the bots' read()/write() are
in-process and do nothing but hand back the recorded list. Each vector is
played REPEATS times (default 3) and every play's log must hash to the
vector's log_sha256, so the timed games are the vectors' games.

Per vector it reports the median and the mean time per turn, and the
median over the mid-game turns of the 4-player vectors (the middle half,
turns [n/4, 3n/4), as BenchmarkMonadRound4PlayersMidGame in games/monad),
each the median over the repeats. With --go, it reads `go test -bench`
output of games/monad (BenchmarkMonadVector, BenchmarkMonadVectorParse,
BenchmarkMonadRound4PlayersMidGame, whose med-ns/turn is the median of the
turns timed one by one, and ColorfightII's BenchmarkRound; any -count) and
prints the two side by side, each Go figure the median over the runs.
"""
import argparse
import gzip
import hashlib
import json
import os
import re
import statistics
import sys
import time


def load_reference(ref):
    if not os.path.isfile(os.path.join(ref, "game", "Game.py")):
        sys.exit("%s: no game/Game.py here; extract the reference's game/ folder into it" % ref)
    sys.path.insert(0, ref)
    try:
        import msgpack  # noqa: F401  (Logger imports it; Debian: python3-msgpack)
    except ImportError:
        sys.exit("the reference needs msgpack: apt-get install python3-msgpack (or pip install msgpack)")
    import game.Game
    game.Game.DEBUG_LOG_FN = os.devnull
    return game.Game


class ScriptedBot:
    """Stands in for game.Bot: read() returns the recorded reply of the turn."""

    def __init__(self, name, replies, timeout_turn):
        self.name, self.params = name, {}
        self.replies, self.timeout_turn, self.turn = replies, timeout_turn, 0

    def prep(self):
        pass

    def run(self):
        pass

    def write(self, data):
        pass

    def read(self):
        t = self.turn
        self.turn += 1
        if t == self.timeout_turn:
            raise TimeoutError("Timeout")
        return self.replies[t]


def play(G, v):
    """Plays vector v on the reference; returns the game and each turn's seconds."""
    import random
    timeout = {}
    for t in v["turns"]:
        for p in t.get("timed_out", []):
            timeout[p] = t["turn"]
    bots = []
    for p in range(v["players"]):
        replies = [t["commands"].get(str(p), []) for t in v["turns"]]
        bots.append(ScriptedBot(v["bots"]["names"][p], replies, timeout.get(p, -1)))
    G.MAX_ITERS = v["max_turns"]
    random.seed(v["seed"])
    g = G.Game(bots, v["uniform"])
    marks = []
    over = g.is_game_over
    clock = time.perf_counter

    def timed_is_game_over():
        marks.append(clock())
        return over()

    g.is_game_over = timed_is_game_over
    g.start()
    g.debug_fp.close()
    return g, [b - a for a, b in zip(marks, marks[1:])]


def mid_game(n):
    return n // 4, 3 * n // 4


def bench_reference(G, vdir, repeats):
    import builtins
    real_print = builtins.print
    builtins.print = lambda *a, **k: None  # the engine prints "TIMED OUT"
    try:
        out = {}
        names = sorted(f[: -len(".commands.json")] for f in os.listdir(vdir) if f.endswith(".commands.json"))
        for name in names:
            with open(os.path.join(vdir, name + ".commands.json")) as f:
                v = json.load(f)
            with gzip.open(os.path.join(vdir, name + ".states.json.gz")) as f:
                want = json.load(f)["log_sha256"]
            med, mean, mid = [], [], []  # per play
            for _ in range(repeats):
                g, dts = play(G, v)
                if len(dts) != len(v["turns"]):
                    sys.exit("%s: the reference played %d turns, the vector has %d" % (name, len(dts), len(v["turns"])))
                if hashlib.sha256(g.get_raw_log().encode()).hexdigest() != want:
                    sys.exit("%s: the reference's log differs from the vector's log_sha256" % name)
                med.append(statistics.median(dts))
                mean.append(statistics.fmean(dts))
                a, b = mid_game(len(dts))
                mid.append(dts[a:b])
            out[name] = {
                "players": v["players"],
                "turns": len(v["turns"]),
                "median_us": statistics.median(med) * 1e6,
                "mean_us": statistics.median(mean) * 1e6,
                "mid": mid,
            }
            real_print("reference %s: %d players, %d turns, median %.0f us/turn, mean %.0f us/turn, log sha256 matches" % (
                name, v["players"], len(v["turns"]), out[name]["median_us"], out[name]["mean_us"]), file=sys.stderr)
        return out
    finally:
        builtins.print = real_print


BENCH = re.compile(r"^(BenchmarkMonad\S*?|BenchmarkRound)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op(?:\s+([\d.]+) med-ns/turn)?")


def read_go(path):
    """Returns {name: (mean ns/op, median ns/turn or None)}, each the median over the runs."""
    runs = {}
    with open(path) as f:
        for line in f:
            m = BENCH.match(line)
            if m:
                r = runs.setdefault(m.group(1), ([], []))
                r[0].append(float(m.group(2)))
                if m.group(3):
                    r[1].append(float(m.group(3)))
    return {k: (statistics.median(a), statistics.median(b) if b else None) for k, (a, b) in runs.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("ref", help="directory holding the reference's game/ package")
    ap.add_argument("vectors", help="the Monad vectors (testdata/monad)")
    ap.add_argument("--repeats", type=int, default=3, help="plays per vector (default 3)")
    ap.add_argument("--go", help="go test -bench output of games/monad to compare with")
    args = ap.parse_args()
    if args.repeats < 1:
        sys.exit("--repeats must be at least 1")
    G = load_reference(args.ref)
    ref = bench_reference(G, args.vectors, args.repeats)
    go = read_go(args.go) if args.go else {}

    def g(key, i=1):
        return go[key][i] if key in go else None

    def ratio(r_us, g_ns):
        return "%.0f×" % (r_us * 1000 / g_ns) if g_ns else "–"

    def ns(x):
        return "%.0f" % x if x else "–"

    print("Time per turn on the Monad vectors: the reference (CPython %s, %d plays per vector) and rewind (Go, median of the -count runs)." % (
        sys.version.split()[0], args.repeats))
    print("Medians of the turns timed one by one; means (total / turns) in the last two columns.")
    print()
    print("| vector | players | turns | reference µs/turn | Go ns/turn | Go ns/turn, replies parsed in the turn | reference / Go (parsed) | reference mean µs | Go mean ns (parsed) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, r in ref.items():
        step, parse = g("BenchmarkMonadVector/" + name), g("BenchmarkMonadVectorParse/" + name)
        print("| %s | %d | %d | %.0f | %s | %s | %s | %.0f | %s |" % (
            name, r["players"], r["turns"], r["median_us"], ns(step), ns(parse), ratio(r["median_us"], parse),
            r["mean_us"], ns(g("BenchmarkMonadVectorParse/" + name, 0))))
    four = [n for n, r in ref.items() if r["players"] == 4]
    if four:
        # The mid-game turns of all 4-player vectors together, as the Go
        # benchmark cycles through them: per play, the median of the pooled
        # turns; then the median over the plays.
        mid = statistics.median(
            statistics.median([d for n in four for d in ref[n]["mid"][k]]) for k in range(args.repeats)) * 1e6
        gm = g("BenchmarkMonadRound4PlayersMidGame")
        print()
        print("4 players, mid-game (%s, the middle half of their turns), median per turn: reference %.0f µs, "
              "Go %s ns (BenchmarkMonadRound4PlayersMidGame, replies parsed beforehand): %s" % (
                  ", ".join(four), mid, ns(gm), ratio(mid, gm)))
    if g("BenchmarkRound", 0):
        print("ColorfightII beside it (BenchmarkRound, vector c03, 8 players, 30×30): Go %s ns/round (mean)" % ns(g("BenchmarkRound", 0)))


if __name__ == "__main__":
    main()
