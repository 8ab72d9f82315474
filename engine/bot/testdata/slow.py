# Hostile test bot: like echo.py, but sleeps SECONDS (first argument) before
# answering its second turn message, i.e. past the runner's deadline. With a
# second argument "echo" it echoes the turn in its replies.
import json
import sys
import time

delay = float(sys.argv[1])
echo = len(sys.argv) > 2 and sys.argv[2] == "echo"
n = 0
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] != "turn":
        continue
    n += 1
    if n == 2:
        time.sleep(delay)
    reply = {"cmd_list": ["a 0 0 %d" % msg["turn"]]}
    if echo:
        reply["turn"] = msg["turn"]
    sys.stdout.write(json.dumps(reply) + "\n")
    sys.stdout.flush()
