# Monad test bot for TestMonadRejectedCommandShown: on every turn it sends
# two commands the rules reject before the turn — a move without its
# direction and one with direction 9 — so the page must show them as sent.
import json
import sys

for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        continue
    cmds = [{"l": [2, 3], "c": "MOVE", "n": 4}, {"l": [5, 6], "c": "MOVE", "d": 9, "n": 1}]
    sys.stdout.write(json.dumps({"cmd_list": cmds, "turn": msg["turn"]}) + "\n")
    sys.stdout.flush()
