"""Marks a bot draws over the board (docs/bot-protocol.md, "Marks").

A mark is one line on stderr: the prefix "rewind:mark " and a JSON object.
rewind records it with the turn and the seat, beside the game (it never
changes what is played), and the replay page draws it over the board of
the turn the bot was answering, with a checkbox per seat to hide it.
Cells are [x, y] in the game's own coordinates, as its turn message
writes them (ColorfightII and Monad [x, y], Skyport [j, k]). A colour is
"#rrggbb"; without one the seat's colour is used. Python 3 standard
library only; copy this file beside your bot.
"""
import json
import sys


def _mark(obj):
    sys.stderr.write("rewind:mark " + json.dumps(obj, separators=(",", ":")) + "\n")


def _colored(obj, color):
    if color is not None:
        obj["color"] = color
    return obj


def dot(cell, color=None):
    """A dot on cell [x, y]."""
    _mark(_colored({"dot": list(cell)}, color))


def line(a, b, color=None):
    """A line from cell a to cell b."""
    _mark(_colored({"line": [list(a), list(b)]}, color))


def cell(c, color=None):
    """Cell c coloured (a translucent fill over it)."""
    _mark(_colored({"cell": list(c)}, color))


def text(s, at, color=None):
    """A short text (at most 64 bytes of UTF-8) on cell at."""
    _mark(_colored({"text": s, "at": list(at)}, color))


def flush():
    """Flush the marks: call it before replying, so they are this turn's."""
    sys.stderr.flush()
