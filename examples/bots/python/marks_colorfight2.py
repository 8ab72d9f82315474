#!/usr/bin/env python3
"""ColorfightII bot that draws marks: bot.py's strategy, and over the board
the cells it attacks (a dot each, red for the dearest), a line from its
home to its first target, its richest cell coloured gold, and its energy
written on its home. See docs/bot-protocol.md, "Marks".

    rewind play --bot greedy --bot "python3 examples/bots/python/marks_colorfight2.py"
"""
import json
import sys

import rewindmarks
from bot import decide, DEFAULT_HEADERS


def draw(msg, cmds):
    uid = msg["uid"]
    me = msg["users"].get(str(uid))
    if me is None or me.get("dead"):
        return
    gm = msg["game_map"]
    col = {name: i for i, name in enumerate(gm.get("headers", DEFAULT_HEADERS))}
    rows = gm["data"]
    home, richest = None, None
    for y, row in enumerate(rows):
        for x, c in enumerate(row):
            if c[col["owner"]] != uid:
                continue
            if c[col["building"]][0] == "h":
                home = (x, y)
            if richest is None or c[col["natural_gold"]] > richest[0]:
                richest = (c[col["natural_gold"]], (x, y))
    attacks = [tuple(int(v) for v in cmd.split()[1:4]) for cmd in cmds if cmd.startswith("a ")]
    dearest = max((a[2] for a in attacks), default=None)
    for x, y, cost in attacks:
        rewindmarks.dot((x, y), "#d0021b" if cost == dearest else None)
    if home is not None and attacks:
        rewindmarks.line(home, attacks[0][:2], "#1f5fbf")
    if richest is not None:
        rewindmarks.cell(richest[1], "#f5c400")
    if home is not None:
        rewindmarks.text("e%d" % me["energy"], home)
    rewindmarks.flush()


def main():
    for line in sys.stdin:
        msg = json.loads(line)
        if msg.get("type") != "turn":
            continue
        cmds = decide(msg)
        draw(msg, cmds)
        sys.stdout.write(json.dumps({"cmd_list": cmds, "turn": msg["turn"]}) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
