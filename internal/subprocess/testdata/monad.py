# Monad test bot: mines with every unit it has, sends one element that is
# not a command object (rejected on its own), and echoes the turn. With the
# argument "crash" it exits at turn 5; with "slow" it stops answering at
# turn 5.
import json
import sys
import time

mode = sys.argv[1] if len(sys.argv) > 1 else ""
player = None
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        assert msg["game"] == "monad", msg
        player = msg["player"]
        continue
    if msg["turn"] == 5 and mode == "crash":
        sys.exit(3)
    if msg["turn"] >= 5 and mode == "slow":
        time.sleep(3600)
    cmds = []
    for y, row in enumerate(msg["cells"]):
        for x, (resource, owner, units, hive, counter) in enumerate(row):
            if owner == player and units > 0:
                cmds.append({"l": [x, y], "c": "MINE", "d": 7, "n": units})
    cmds.append("junk")
    sys.stdout.write(json.dumps({"cmd_list": cmds, "turn": msg["turn"]}) + "\n")
    sys.stdout.flush()
