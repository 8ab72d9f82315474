# Hostile test bot: answers two turns, then exits with status 3 when the
# third turn message arrives.
import sys

from turnbot import reply, turns

for n, msg in turns():
    if n == 3:
        sys.exit(3)
    reply(msg["turn"])
