"""Time the reference Monad engine on the conformance vectors.

Usage: python3 refbench.py GAME_PARENT_DIR VECTOR_DIR [REPEATS]

GAME_PARENT_DIR holds the reference's game/ package (dartmouth-cs98/18w-si32
at e5ae486, e.g. extracted with `git archive HEAD game | tar x`). The engine
runs unmodified, in-process, as the vectors were made: random.seed(seed)
before Game(...), game.Game.MAX_ITERS = max_turns, DEBUG_LOG_FN = /dev/null,
scripted bots whose read() returns the vector's recorded replies. msgpack is
only used by Bot.read/write over pipes and Logger.get_log, neither of which
runs here, so an empty stand-in module is installed when the real one is
missing. Prints, per vector, the median time per turn of Game.start() and
whether the log's sha256 equals the vector's (it must).
"""
import gzip, hashlib, json, os, sys, time, types

sys.path.insert(0, sys.argv[1])
try:
    import msgpack  # noqa: F401
except ImportError:
    sys.modules["msgpack"] = types.ModuleType("msgpack")
import random
import game.Game

game.Game.DEBUG_LOG_FN = os.devnull


class ScriptedBot:
    def __init__(self, name, replies, timeout_turn):
        self.name, self.params, self.replies, self.timeout_turn = name, {}, replies, timeout_turn
        self.turn = 0

    def prep(self): pass
    def run(self): pass
    def write(self, data): pass

    def read(self):
        t = self.turn
        self.turn += 1
        if t == self.timeout_turn:
            raise TimeoutError("Timeout")
        return self.replies[t]


class G(game.Game.Game):
    pass


def play(v):
    n = v["players"]
    timeout = {}
    for t in v["turns"]:
        for p in t.get("timed_out", []):
            timeout[p] = t["turn"]
    bots = []
    for p in range(n):
        replies = [t["commands"].get(str(p), []) for t in v["turns"]]
        bots.append(ScriptedBot(v["bots"]["names"][p], replies, timeout.get(p, -1)))
    game.Game.MAX_ITERS = v["max_turns"]
    random.seed(v["seed"])
    g = G(bots, v["uniform"])
    t0 = time.perf_counter()
    g.start()
    dt = time.perf_counter() - t0
    return g, dt


def main():
    vdir = sys.argv[2]
    reps = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    import builtins
    builtins.print = lambda *a, **k: None  # the engine prints "TIMED OUT"
    out = sys.stdout
    for name in sorted(f[:-len(".commands.json")] for f in os.listdir(vdir) if f.endswith(".commands.json")):
        v = json.load(open(os.path.join(vdir, name + ".commands.json")))
        st = json.load(gzip.open(os.path.join(vdir, name + ".states.json.gz")))
        times = []
        ok = True
        for _ in range(reps):
            g, dt = play(v)
            turns = len(g.logger.log["turns"]) - 1
            times.append(dt / turns)
            ok = ok and hashlib.sha256(g.get_raw_log().encode()).hexdigest() == st["log_sha256"]
        times.sort()
        out.write("%s: %d players, %d turns, median %.0f us/turn (min %.0f), log sha256 %s\n" % (
            name, v["players"], turns, times[len(times) // 2] * 1e6, times[0] * 1e6, "matches" if ok else "DIFFERS"))
        out.flush()


main()
