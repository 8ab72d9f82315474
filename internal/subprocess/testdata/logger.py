# Test bot that logs to stderr while it is asked for commands: on turns
# divisible by 3 two lines (one hostile to a web page: a script tag and
# ANSI colour escapes), on turn 5 20000 bytes (to be cut), on other turns
# nothing. It sends no commands. The one copy: internal/recording's and
# internal/viewer's tests run it too (testutil.LoggerBot).
import json
import sys

from turnbot import send, turns

for _, msg in turns():
    t = msg["turn"]
    if t % 3 == 0:
        sys.stderr.write("turn %d: thinking\n" % t)
        sys.stderr.write("<script>alert(%d)</script> \x1b[31mred\x1b[0m\n" % t)
    if t == 5:
        sys.stderr.write("x" * 20000)
    sys.stderr.flush()
    send(json.dumps({"cmd_list": [], "turn": t}))
