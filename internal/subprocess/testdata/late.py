# Hostile test bot: like echo.py, but holds its reply to the second turn
# message until an event that comes after the runner's deadline for it, so
# the reply is late whatever the timing:
#   late.py next [echo]       until the third turn message has arrived;
#   late.py file GO SENT      until the file GO exists; once the late reply
#                             is flushed it creates the file SENT.
# With "echo" it echoes the turn in its replies.
import os
import sys
import time

import turnbot

mode = sys.argv[1]
echo = sys.argv[-1] == "echo"
held = None  # turn whose reply is held back


def reply(turn):
    turnbot.reply(turn, echo)


for n, msg in turnbot.turns():
    if n == 2 and mode == "next":
        held = msg["turn"]
        continue
    if n == 2 and mode == "file":
        while not os.path.exists(sys.argv[2]):
            time.sleep(0.01)  # waiting for the event, not timing anything
        reply(msg["turn"])
        open(sys.argv[3], "w").close()
        continue
    if held is not None:
        reply(held)
        held = None
    reply(msg["turn"])
