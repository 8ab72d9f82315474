#!/usr/bin/env python3
"""Time the reference ColorFight v1 server's UpdateGame, tick by tick, on
the game rewind's ColorFight v1 benchmarks play (8 players).

Usage:
    colorfight1-reference-bench.py REF INPUT [--repeats N] [--go GO_BENCH_OUTPUT]

REF is a directory holding the reference's app.py (gaogaotiantian/ColorFight
at f0380a8, e.g. `git archive f0380a8 | tar -x -C REF`); nothing of it is
copied here, it is imported from REF, unmodified. INPUT is the benchmarks'
game as a vector input (../shared/colorfight1/README.md's format), written by
    REWIND_CF1_BENCH_INPUT=INPUT go test -run TestBenchInput ./games/colorfight1/rules/
It holds 8 built-ins' joins (with their spawns) and actions over 1300 ticks,
and the game's end (every cell's owner, every user's cells and bases) as
rewind played it.

The reference is driven as the vectors were made (the README): one process,
Flask's test client, SQLite (a file in a temporary folder), the clock faked
(app.GetCurrDbTimeSecs returns now(k) = t0 + k*tick), random.seed(seed)
before /startgame, the cell types set after it, each join's random spawn put
back and Cell.Init(uid, now) applied to the input's spawn cell, then per tick
k >= 1 one POST /getgameinfo (the world update) and the tick's commands.
It runs on the Python 3 this script runs on, with the SQLAlchemy, Flask and
Flask-SQLAlchemy it finds (Debian: python3-sqlalchemy, python3-flask,
python3-flask-sqlalchemy): the reference's pins (Python 2.7, SQLAlchemy 1.3)
are not to be had here. What that takes, and nothing else: stub modules for
StringIO, line_profiler and redis (unused), an application context pushed
when the app is made (Flask-SQLAlchemy 3 wants one for the import's
create_all), tokens made text (Python 3's base64 gives bytes, which SQLite
would store as a blob no request matches), the users' names in answers
text again (Python 2's str.encode gives text), and random.shuffle as Python 2's
(int(random() * (i+1)); Python 3's draws differently), so the bases move as
on the reference's own interpreter. The game's end must equal INPUT's
"final", or the script says where it differs.

What is timed: app.UpdateGame(now, timeDiff) alone — the reference's world
update as /getgameinfo calls it, its SQL queries and commits on SQLite
included — with time.perf_counter() around each call, for the ticks after
the input's warm-up (301..1299, when all 8 players play). It prints the
median and the mean per update over the ticks, each the median over the
repeats (default 3), and the whole /getgameinfo request's too. With --go, it
reads `go test -bench` output of games/colorfight1/rules (BenchmarkTick,
BenchmarkUpdate; any -count) and prints the ratios, the Go figures the
median over the runs.
"""
import argparse
import base64
import io
import json
import os
import random
import re
import statistics
import sys
import tempfile
import time
import types


def py2_shuffle(x, rnd=None):
    """random.shuffle as CPython 2.7 draws it."""
    rnd = rnd or random.random
    for i in reversed(range(1, len(x))):
        j = int(rnd() * (i + 1))
        x[i], x[j] = x[j], x[i]


def load_reference(ref, db_path):
    if not os.path.isfile(os.path.join(ref, "app.py")):
        sys.exit("%s: no app.py here; extract the reference (gaogaotiantian/ColorFight f0380a8) into it" % ref)
    stringio = types.ModuleType("StringIO")
    stringio.StringIO = io.StringIO
    profiler = types.ModuleType("line_profiler")
    profiler.LineProfiler = object
    redis = types.ModuleType("redis")
    sys.modules.update({"StringIO": stringio, "line_profiler": profiler, "redis": redis})
    try:
        import flask
        import flask_sqlalchemy  # noqa: F401
    except ImportError as e:
        sys.exit("the reference needs Flask and Flask-SQLAlchemy (Debian: python3-flask python3-flask-sqlalchemy): %s" % e)
    try:
        import flask_cors  # noqa: F401
    except ImportError:
        cors = types.ModuleType("flask_cors")
        cors.CORS = lambda app: None
        sys.modules["flask_cors"] = cors

    class Flask(flask.Flask):
        def __init__(self, *a, **k):
            super().__init__(*a, **k)
            self.app_context().push()

    flask.Flask = Flask
    os.environ["DATABASE_URL"] = "sqlite:///" + db_path
    os.environ["ADMIN_PASSWORD"] = ""
    for k in ("REDISCLOUD_URL", "ROOM_PASSWORD", "PROFILE", "GAME_REFRESH_INTERVAL", "GAME_VERSION"):
        os.environ.pop(k, None)
    sys.path.insert(0, ref)
    import warnings
    warnings.simplefilter("ignore")
    import app  # noqa: E402  (the reference)
    text_b64 = types.ModuleType("base64")
    text_b64.urlsafe_b64encode = lambda b: base64.urlsafe_b64encode(b).decode("ascii")
    app.base64 = text_b64
    # UserDb.ToDict's name.encode("utf-8") is text on Python 2, bytes here.
    default = app.app.json.default
    app.app.json.default = lambda o: o.decode("utf-8") if isinstance(o, bytes) else default(o)
    random.shuffle = py2_shuffle
    return app


def play(app, inp, timed):
    """Plays INPUT on a fresh game; returns the times of UpdateGame and of
    /getgameinfo for the timed ticks, and the game's end."""
    client = app.app.test_client()
    clock = {"now": 0.0}
    app.GetCurrDbTimeSecs = lambda dbtime=None: clock["now"]
    update = app.UpdateGame
    times = {"update": [], "poll": []}
    state = {"k": 0}

    def timed_update(now, diff):
        t0 = time.perf_counter()
        r = update(now, diff)
        if state["k"] in timed:
            times["update"].append(time.perf_counter() - t0)
        return r

    app.UpdateGame = timed_update
    t0, tick = inp["clock"]["t0"], inp["clock"]["tick"]

    def post(ep, body):
        r = client.post(ep, data=json.dumps(body), content_type="application/json")
        return r.status_code, r.get_json(silent=True)

    clock["now"] = t0
    random.seed(inp["seed"])
    status, ans = post("/startgame", inp["startgame"])
    if status != 200 or ans != {"msg": "Success"}:
        sys.exit("/startgame: %s %s" % (status, ans))
    gold, energy = set(inp["gold_cells"]), set(inp["energy_cells"])
    for c in app.CellDb.query.all():
        c.cell_type = "gold" if c.id in gold else "energy" if c.id in energy else "normal"
    app.db.session.commit()
    cols = [c.name for c in app.CellDb.__table__.columns if c.name != "timestamp"]
    tokens = []
    cmds = {c["k"]: c["cmds"] for c in inp["commands"]}
    for k in range(inp["ticks"] + 1):
        state["k"] = k
        clock["now"] = t0 + k * tick
        if k > 0:
            p0 = time.perf_counter()
            status, _ = post("/getgameinfo", {"protocol": 2, "timeAfter": clock["now"]})
            if k in timed:
                times["poll"].append(time.perf_counter() - p0)
            if status != 200:
                sys.exit("tick %d: /getgameinfo %s" % (k, status))
        for c in cmds.get(k, []):
            body = dict(c["body"])
            tok = body.get("token")
            if isinstance(tok, dict):
                body["token"] = tokens[tok["$join"]]
            if c["ep"] != "/joingame":
                post(c["ep"], body)
                continue
            before = {x.id: [getattr(x, n) for n in cols] for x in app.CellDb.query.all()}
            status, ans = post("/joingame", body)
            tokens.append(ans.get("token") if ans else None)
            if status != 200 or not ans or "uid" not in ans or not c.get("spawn"):
                continue
            for x in app.CellDb.query.all():
                if [getattr(x, n) for n in cols] != before[x.id]:
                    for n, v in zip(cols, before[x.id]):
                        setattr(x, n, v)
            x, y = c["spawn"]
            app.CellDb.query.get(x + 30 * y).Init(ans["uid"], clock["now"])
            app.db.session.commit()
    owners = [c.owner for c in app.CellDb.query.order_by(app.CellDb.id).all()]
    users = [[u.id, u.cells, u.bases] for u in app.UserDb.query.order_by(app.UserDb.id).all()]
    return times, owners, users


def go_figures(path):
    """The median ns of BenchmarkTick (ns/op) and BenchmarkUpdate
    (ns/update) in a go test -bench output."""
    out = {"tick": [], "update": []}
    for line in open(path):
        m = re.match(r"BenchmarkTick(?:-\d+)?\s+\d+\s+([\d.]+) ns/op", line)
        if m:
            out["tick"].append(float(m.group(1)))
        m = re.match(r"BenchmarkUpdate(?:-\d+)?\s+\d+\s+[\d.]+ ns/op\s+([\d.]+) ns/update", line)
        if m:
            out["update"].append(float(m.group(1)))
    return {k: statistics.median(v) for k, v in out.items() if v}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("ref")
    ap.add_argument("input")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--go")
    a = ap.parse_args()
    inp = json.load(open(a.input))
    warm = inp["bench"]["warm"]
    timed = set(range(warm + 1, inp["ticks"] + 1))
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        app = load_reference(a.ref, os.path.join(tmp, "colorfight.db"))
        for r in range(a.repeats):
            times, owners, users = play(app, inp, timed)
            fin = inp["final"]
            if owners != fin["owners"] or users != fin["users"]:
                diff = sum(1 for g, w in zip(owners, fin["owners"]) if g != w)
                sys.exit("repeat %d: the reference's game ended otherwise than rewind's: %d cells' owners differ; users %s, rewind's %s" % (r + 1, diff, users, fin["users"]))
            runs.append(times)
    med = lambda key: statistics.median(statistics.median(t[key]) for t in runs) * 1e9
    mean = lambda key: statistics.median(statistics.mean(t[key]) for t in runs) * 1e9
    print("reference UpdateGame (8 players, ticks %d..%d, %d repeats, the same game as rewind's at the end): median %.0f ns, mean %.0f ns per update"
          % (min(timed), max(timed), a.repeats, med("update"), mean("update")))
    print("reference /getgameinfo (update and answer): median %.0f ns, mean %.0f ns per poll" % (med("poll"), mean("poll")))
    if a.go:
        g = go_figures(a.go)
        if "update" in g:
            print("rewind BenchmarkUpdate (rules.State.Advance): %.0f ns/update; the reference's UpdateGame takes %.0f× as long (median)" % (g["update"], med("update") / g["update"]))
        if "tick" in g:
            print("rewind BenchmarkTick (update and commands): %.0f ns/tick; the reference's UpdateGame alone takes %.0f× as long (median)" % (g["tick"], med("update") / g["tick"]))


if __name__ == "__main__":
    main()
