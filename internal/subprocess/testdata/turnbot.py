# What the test bots in this folder share (they import it as turnbot; it
# is found because it stands beside them): the loop over turn messages and
# the replies they send.
import json
import sys


def turns():
    """Yields (n, msg) for each turn message read from stdin, n counting
    them from 1; messages of other types are skipped."""
    n = 0
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] != "turn":
            continue
        n += 1
        yield n, msg


def command(turn, echo=False):
    """The reply of a well-behaved bot: one command that carries the turn
    number ("a 0 0 <turn>"), so tests can check that replies are not
    shifted between rounds; with echo, the turn echoed as well."""
    r = {"cmd_list": ["a 0 0 %d" % turn]}
    if echo:
        r["turn"] = turn
    return r


def send(line):
    """Writes one line of reply and flushes it."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def reply(turn, echo=False):
    """Sends command(turn, echo)."""
    send(json.dumps(command(turn, echo)))
