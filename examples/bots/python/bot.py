#!/usr/bin/env python3
"""Example rewind external bot (protocol 1), Python 3 standard library only.

Run it in a match with:

    rewind play --bot greedy --bot "python3 examples/bots/python/bot.py"

The runner writes one JSON message per line on our stdin ("start" once,
then one "turn" per round) and expects exactly one JSON line on our stdout
for every "turn": {"cmd_list": [...], "turn": T}. See docs/bot-protocol.md.
Anything we print on stderr goes to the runner's log, never to the game,
so debug output must go to stderr.

Strategy (deliberately simple):
  * attack the cells next to our territory that we can afford, cheapest
    first (ties: richest cell first), paying exactly the attack cost;
  * if we lost our Home and hold 1000 gold, rebuild it;
  * otherwise build gold mines on our richest empty cells while gold allows.
"""
import json
import sys

# Field positions in a cell array, in the order of game_map["headers"].
# We look them up by name so a reordered header list would still work.
DEFAULT_HEADERS = ["attack_cost", "force_field", "building", "gold", "energy",
                   "owner", "position", "natural_gold", "natural_energy",
                   "natural_cost"]

BUILD_COST = {"h": 1000, "g": 200, "e": 200, "f": 200}


def log(*args):
    """Debug output: stderr only (stdout is reserved for replies)."""
    print(*args, file=sys.stderr, flush=True)


def decide(msg):
    """Return the command list for one "turn" message."""
    uid = msg["uid"]
    me = msg["users"].get(str(uid))
    if me is None or me.get("dead"):
        return []
    energy, gold = me["energy"], me["gold"]
    gm = msg["game_map"]
    col = {name: i for i, name in enumerate(gm.get("headers", DEFAULT_HEADERS))}
    rows = gm["data"]  # rows[y][x]
    height = len(rows)
    width = len(rows[0]) if height else 0

    def field(cell, name):
        return cell[col[name]]

    mine = []  # (x, y, cell) of our cells
    for y in range(height):
        for x in range(width):
            if field(rows[y][x], "owner") == uid:
                mine.append((x, y, rows[y][x]))

    cmds = []
    # 1. Attacks: every cell next to ours that we do not own, once.
    targets = {}
    for x, y, _ in mine:
        for nx, ny in ((x, y - 1), (x, y + 1), (x - 1, y), (x + 1, y)):
            if 0 <= nx < width and 0 <= ny < height and (nx, ny) not in targets:
                cell = rows[ny][nx]
                if field(cell, "owner") != uid:
                    value = field(cell, "natural_gold") + field(cell, "natural_energy")
                    targets[(nx, ny)] = (field(cell, "attack_cost"), -value)
    for (x, y), (cost, _) in sorted(targets.items(), key=lambda kv: (kv[1], kv[0])):
        if cost > energy:
            break  # sorted by cost: nothing further is affordable
        cmds.append("a %d %d %d" % (x, y, cost))
        energy -= cost

    # 2. Buildings on our empty cells, richest in gold first.
    empty = [(field(c, "natural_gold"), x, y) for x, y, c in mine
             if field(c, "building")[0] == " "]
    empty.sort(reverse=True)
    if me["tech_level"] == 0:
        # No Home: nothing else can be built until we have one again.
        if gold >= BUILD_COST["h"] and empty:
            _, x, y = empty[0]
            cmds.append("b %d %d h" % (x, y))
        return cmds
    for _, x, y in empty:
        if gold < BUILD_COST["g"]:
            break
        cmds.append("b %d %d g" % (x, y))
        gold -= BUILD_COST["g"]
    return cmds


def main():
    for line in sys.stdin:  # one message per line; EOF means the game is over
        line = line.strip()
        if not line:
            continue
        try:
            msg = json.loads(line)
        except ValueError as err:
            log("bot: ignoring a line that is not JSON:", err)
            continue
        kind = msg.get("type")
        if kind == "start":
            log("bot: playing as uid", msg["uid"], "protocol", msg.get("protocol"))
            continue
        if kind != "turn":
            continue  # unknown message types are ignored (forward compatible)
        try:
            cmds = decide(msg)
        except Exception as err:  # never die on a surprise: skip the round
            log("bot: turn", msg.get("turn"), "failed:", repr(err))
            cmds = []
        # Exactly one reply line per turn; echoing the turn is optional.
        sys.stdout.write(json.dumps({"cmd_list": cmds, "turn": msg["turn"]}) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
