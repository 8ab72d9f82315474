# Monad test bot for the viewer's acceptance test: on every turn t with
# t % 5 == 3 it sends one move of 3 units east out of (0, 0), where it has
# no units, which the engine rejects; otherwise it sends nothing.
import json
import sys

for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        continue
    cmds = []
    if msg["turn"] % 5 == 3:
        cmds.append({"l": [0, 0], "c": "MOVE", "d": 1, "n": 3})
    sys.stdout.write(json.dumps({"cmd_list": cmds, "turn": msg["turn"]}) + "\n")
    sys.stdout.flush()
