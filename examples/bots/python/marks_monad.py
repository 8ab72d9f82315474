#!/usr/bin/env python3
"""Monad bot that draws marks: every unit mines where it stands, and over
the board a dot on each of its stacks, its hives coloured, a line from its
first hive to the richest cell it can see, and the resource left written
there. See docs/bot-protocol.md, "Marks" and "Monad".

    rewind play --game monad --bot expander --bot "python3 examples/bots/python/marks_monad.py"
"""
import json
import sys

import rewindmarks


def main():
    player = None
    for line in sys.stdin:
        msg = json.loads(line)
        if msg.get("type") == "start":
            player = msg["player"]
            continue
        if msg.get("type") != "turn":
            continue
        cmds, hives, best = [], [], None
        for y, row in enumerate(msg["cells"]):
            for x, (resource, owner, units, hive, counter) in enumerate(row):
                if owner == player and units > 0:
                    cmds.append({"l": [x, y], "c": "MINE", "d": 7, "n": units})
                    rewindmarks.dot((x, y))
                if hive == player:
                    hives.append((x, y))
                    rewindmarks.cell((x, y), "#7b3fbf")
                if owner < 0 and (best is None or resource > best[0]):
                    best = (resource, (x, y))
        if hives and best is not None:
            rewindmarks.line(hives[0], best[1], "#e07000")
            rewindmarks.text(str(best[0]), best[1], "#e07000")
        rewindmarks.flush()
        sys.stdout.write(json.dumps({"cmd_list": cmds, "turn": msg["turn"]}) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
