# Hostile test bot: answers two turns, then exits with status 3 when the
# third turn message arrives.
import json
import sys

n = 0
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] != "turn":
        continue
    n += 1
    if n == 3:
        sys.exit(3)
    sys.stdout.write(json.dumps({"cmd_list": ["a 0 0 %d" % msg["turn"]]}) + "\n")
    sys.stdout.flush()
