# Hostile test bot: a different kind of bad reply on each turn message,
# with good replies in between to show the bot stays usable.
import json

from turnbot import command, send, turns


def good(turn):
    return json.dumps(command(turn))


for n, msg in turns():
    t = msg["turn"]
    out = {
        1: "hello world, this is not JSON",
        2: json.dumps({"cmd_list": 5}),
        3: "[1, 2]",
        4: good(t),
        5: json.dumps({"cmd_list": ["u 1 1"] * 10001}),
        6: json.dumps({"cmd_list": ["a 1 1 " + "9" * 2000]}),
        7: json.dumps({"cmd_list": ["a 0 0 %d" % t, 7]}),
        8: json.dumps({"cmd_list": [], "turn": t + 5}),
        9: json.dumps({"commands": []}),
    }.get(n, good(t))
    send(out)
