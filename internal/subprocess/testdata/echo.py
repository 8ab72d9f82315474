# Well-behaved test bot: answers every turn message with turnbot's
# command. With the argument "echo" it also echoes the turn in the reply.
# Writes a greeting on stderr.
import json
import sys

from turnbot import reply

echo = len(sys.argv) > 1 and sys.argv[1] == "echo"
sys.stderr.write("echo bot: hello from stderr\n")
sys.stderr.flush()
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        sys.stderr.write("echo bot: uid %d seed %d\n" % (msg["uid"], msg["seed"]))
        continue
    reply(msg["turn"], echo)
