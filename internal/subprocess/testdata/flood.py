# Hostile test bot: answers the first turn with a 10 MB line, then behaves.
import json
import sys

n = 0
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] != "turn":
        continue
    n += 1
    if n == 1:
        chunk = "x" * (1 << 20)
        for _ in range(10):
            sys.stdout.write(chunk)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(json.dumps({"cmd_list": ["a 0 0 %d" % msg["turn"]]}) + "\n")
    sys.stdout.flush()
