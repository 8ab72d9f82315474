# Well-behaved test bot: answers every turn message with one command that
# carries the turn number ("a 0 0 <turn>"), so tests can check that replies
# are not shifted between rounds. With the argument "echo" it also echoes
# the turn in the reply. Writes a greeting on stderr.
import json
import sys

echo = len(sys.argv) > 1 and sys.argv[1] == "echo"
sys.stderr.write("echo bot: hello from stderr\n")
sys.stderr.flush()
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        sys.stderr.write("echo bot: uid %d seed %d\n" % (msg["uid"], msg["seed"]))
        continue
    reply = {"cmd_list": ["a 0 0 %d" % msg["turn"]]}
    if echo:
        reply["turn"] = msg["turn"]
    sys.stdout.write(json.dumps(reply) + "\n")
    sys.stdout.flush()
