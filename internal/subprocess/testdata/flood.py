# Hostile test bot: answers the first turn with a 10 MB line, then behaves.
import sys

from turnbot import reply, send, turns

for n, msg in turns():
    if n == 1:
        chunk = "x" * (1 << 20)
        for _ in range(10):
            sys.stdout.write(chunk)
        send("")
    else:
        reply(msg["turn"])
