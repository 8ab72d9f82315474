#!/usr/bin/env python3
"""Skyport bot that draws marks: laser and mortar, it walks toward the
nearest resource and mines it, and over the board a line to each other
player with a dot on them, the resource it is heading for coloured, and
its health written on its own tile. Cells are [j, k], as Skyport's positions
("j, k") and map (data[j][k]) write them. See docs/bot-protocol.md,
"Marks", and docs/skyport.md.

    rewind play --game skyport --bot hunter --bot "python3 examples/bots/python/marks_skyport.py"
"""
import json
import sys

import rewindmarks

# (dj, dk) of each direction (RULES-SKYPORT §1).
DIRS = {"up": (-1, -1), "down": (1, 1), "right-down": (0, 1),
        "right-up": (-1, 0), "left-down": (1, 0), "left-up": (0, -1)}
RESOURCES = "CRE"  # scrap, rubidium, explosium
WALKABLE = "GCRE"


def pos(p):
    j, k = p["position"].split(",")
    return int(j), int(k)


def distance(a, b):
    dj, dk = b[0] - a[0], b[1] - a[1]
    if dj * dk >= 0:
        return max(abs(dj), abs(dk))
    return abs(dj) + abs(dk)


def turn(msg):
    state = msg["state"]
    if state["turn"] == 0 or "position" not in state["players"][0]:
        return [{"message": "loadout", "primary-weapon": "laser", "secondary-weapon": "mortar"}]
    me, others = state["players"][0], state["players"][1:]  # the actor first
    data = state["map"]["data"]
    here = pos(me)
    size = (len(data), len(data[0]) if data else 0)
    for o in others:
        if "position" in o:
            rewindmarks.line(here, pos(o), "#d0021b")
            rewindmarks.dot(pos(o), "#d0021b")
    rewindmarks.text("hp %d" % me["health"], here)
    if data[here[0]][here[1]] in RESOURCES:
        rewindmarks.flush()
        return [{"message": "action", "type": "mine"}]
    goals = [(distance(here, (j, k)), (j, k)) for j in range(size[0]) for k in range(size[1]) if data[j][k] in RESOURCES]
    cmds = []
    if goals:
        goal = min(goals)[1]
        rewindmarks.cell(goal, "#2e9d3a")
        steps = []
        for name, (dj, dk) in sorted(DIRS.items()):
            j, k = here[0] + dj, here[1] + dk
            if 0 <= j < size[0] and 0 <= k < size[1] and data[j][k] in WALKABLE:
                steps.append((distance((j, k), goal), name))
        if steps:
            cmds.append({"message": "action", "type": "move", "direction": min(steps)[1]})
    rewindmarks.flush()
    return cmds


def main():
    for line in sys.stdin:
        msg = json.loads(line)
        if msg.get("type") != "turn":
            continue
        try:
            cmds = turn(msg)
        except Exception as err:  # never die on a surprise: skip the turn
            sys.stderr.write("bot: turn %s failed: %r\n" % (msg.get("turn"), err))
            cmds = []
        sys.stdout.write(json.dumps({"cmd_list": cmds, "turn": msg["turn"]}) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
