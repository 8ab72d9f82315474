// rewind: Monad's painter on the replay page (rewind.boards.monad, the
// contract in the viewer's contract.js, drawn with
// rewind.paint's helpers). The game's board (games/monad/rules): the 20×20 Hex map (even rows shifted right), terrain = the
// resource left, owner = the player whose units stand there (or, in an
// empty hive's cell, the hive's owner), value = those units, badge
// "hive". There are no entities or effects: the turn's moves are drawn
// from the frame's commands as sent ({"l": [x, y], "c": "MOVE" | "BUILD"
// | "MINE", "d": 1..7, "n": count}, docs/monad.md) and their errors.
// Everything that comes from the replay is drawn or put in the page as
// text, never as HTML.
(function (rewind) {
  'use strict';

  var paint = rewind.paint, at = paint.at, dark = rewind.dom.dark;

  // The ground: from BASE (no resource) to RICH (FULL or more).
  var FULL = 50;
  var RICH = { light: [214, 190, 92], dark: [122, 106, 46] };
  var BASE = { light: [239, 236, 228], dark: [43, 44, 49] };
  var REJECTED = '#b3261e';
  // The direction "d" of a command (1..6: east, west, north-east,
  // north-west, south-east, south-west; 7 is none: no step) as the angle
  // of its step on the board, in degrees (y grows downwards). Where a
  // step leads is read from the board's own geometry (target), not from
  // a second copy of the map's neighbour rule.
  /** @type {(number|null)[]} */
  var ANGLE = [null, 0, 180, -60, -120, 60, 120], NONE = 7;
  // The hive's mark: a small hexagon above the cell's centre.
  var MARK_Y = -0.42, MARK_R = 0.3;

  /**
   * @param {number} v
   * @param {boolean} dark
   */
  function shade(v, dark) { return paint.shade(dark ? BASE.dark : BASE.light, dark ? RICH.dark : RICH.light, v / FULL); }
  /**
   * @param {unknown} v
   * @returns {v is number}
   */
  function isInt(v) { return typeof v === 'number' && Math.floor(v) === v; }

  /**
   * A command as sent, read: its kind (MOVE, BUILD, MINE, or ? for
   * another), its cell, its direction (0: none given) and its count.
   * @typedef {{kind: string, x: number, y: number, d: number, n: number}} MonadCommand
   */

  /**
   * parse reads one command as sent (JSON, its fields checked here); null
   * when it is not one the board can place (the engine rejected it: the
   * frame's errors say why).
   * @param {string} text
   * @returns {MonadCommand|null}
   */
  function parse(text) {
    /** @type {unknown} */
    var json;
    try { json = JSON.parse(text); } catch (err) { return null; }
    if (!json || typeof json !== 'object') return null;
    var c = /** @type {{l?: unknown, c?: unknown, d?: unknown, n?: unknown}} */ (json);
    if (!Array.isArray(c.l)) return null;
    /** @type {unknown[]} */
    var l = c.l;
    var x = l[0], y = l[1], n = c.n, d = c.d;
    // What the rules reject before the turn (no direction, one outside
    // 1..7, a negative position) is no command to place: the panel shows it as
    // sent, with why.
    if (!isInt(x) || !isInt(y) || !isInt(n) || x < 0 || y < 0 || d === undefined || (d !== null && d !== 0 && !(isInt(d) && d >= 1 && d <= NONE))) return null;
    var kind = c.c === 'MOVE' || c.c === 'BUILD' || c.c === 'MINE' ? c.c : '?';
    return { kind: kind, x: x, y: y, d: isInt(d) ? d : 0, n: n };
  }

  /**
   * target is the cell a step from (x, y) in direction d leads to (it may
   * be off the map): of the cells around it, the one whose centre is
   * nearest the point one step away at d's angle; (x, y) itself for none,
   * null for a direction that is none of these.
   * @param {Geometry} g
   * @param {number} x
   * @param {number} y
   * @param {number} d
   * @returns {number[]|null}
   */
  function target(g, x, y, d) {
    if (d === NONE) return [x, y];
    var a = ANGLE[d];
    if (a == null) return null;
    var c = g.center(x, y), s = g.step(), px = c[0] + s * Math.cos(a * Math.PI / 180), py = c[1] + s * Math.sin(a * Math.PI / 180);
    /** @type {number[]|null} */
    var best = null;
    var bd = Infinity;
    for (var dy = -1; dy <= 1; dy++) {
      for (var dx = -1; dx <= 1; dx++) {
        var q = g.center(x + dx, y + dy), dd = (q[0] - px) * (q[0] - px) + (q[1] - py) * (q[1] - py);
        if (dd < bd) { bd = dd; best = [x + dx, y + dy]; }
      }
    }
    return best;
  }

  /** @param {number} n */
  function units(n) { return n + ' unit' + (n === 1 ? '' : 's'); }

  /**
   * hiveBit is the hive badge's bit in the packed board (its badges'
   * order).
   * @param {Geometry} g
   */
  function hiveBit(g) {
    var k = (g.packed.board.badges || []).indexOf('hive');
    return k < 0 ? 0 : 1 << k;
  }

  /**
   * arrow draws a MOVE as an arrow to the cell it leads to, in col; false
   * when it leads nowhere.
   * @param {CanvasRenderingContext2D} ctx
   * @param {Geometry} g
   * @param {ParsedCommand<MonadCommand>} m
   * @param {string} col
   */
  function arrow(ctx, g, m, col) {
    var R = g.r, to = target(g, m.cmd.x, m.cmd.y, m.cmd.d);
    if (!to || (to[0] === m.cmd.x && to[1] === m.cmd.y)) return false;
    var a = g.center(m.cmd.x, m.cmd.y), b = g.center(to[0], to[1]), ok = !m.failed;
    var dx = b[0] - a[0], dy = b[1] - a[1], len = Math.sqrt(dx * dx + dy * dy) || 1, ux = dx / len, uy = dy / len;
    var sx = a[0] + ux * R * 0.3, sy = a[1] + uy * R * 0.3, ex = b[0] - ux * R * 0.35, ey = b[1] - uy * R * 0.35;
    ctx.setLineDash(ok ? [] : [3, 2]);
    ctx.lineWidth = Math.max(2, R * 0.2);
    ctx.strokeStyle = ok ? '#fff' : REJECTED;
    ctx.beginPath(); ctx.moveTo(sx, sy); ctx.lineTo(ex, ey); ctx.stroke();
    if (ok) {
      ctx.lineWidth = Math.max(1, R * 0.1);
      ctx.strokeStyle = '#111';
      ctx.beginPath(); ctx.moveTo(sx, sy); ctx.lineTo(ex, ey); ctx.stroke();
    }
    ctx.setLineDash([]);
    paint.arrowHead(ctx, ex, ey, ux, uy, R * 0.4, ok ? '#111' : REJECTED);
    if (R >= 10) {
      // The count beside the arrow's middle, not over its line.
      var label = ok ? String(m.cmd.n) : '×' + m.cmd.n, mx = (sx + ex) / 2 - uy * R * 0.38, my = (sy + ey) / 2 + ux * R * 0.38;
      ctx.font = Math.max(8, Math.round(R * 0.5)) + 'px system-ui, sans-serif';
      var tw = ctx.measureText(label).width + 4;
      ctx.fillStyle = ok ? 'rgba(255,255,255,0.85)' : 'rgba(255,235,235,0.92)';
      ctx.fillRect(mx - tw / 2, my - R * 0.3, tw, R * 0.6);
      ctx.fillStyle = ok ? col : REJECTED;
      ctx.fillText(label, mx, my);
    }
    return true;
  }

  /** @type {Painter} */
  var painter = {
    terrainColor: function (t, cell, dark) { return shade(t, dark); },
    // The units are drawn by cell (over the owner's fill), the hive as a
    // frame and a mark, not as a badge.
    cellLabel: function () { return ''; },
    badge: function (bit, name) { return name === 'hive' ? false : null; },

    // Units: the owner's colour with their number; a hive: a thick frame
    // and a mark in its owner's colour, the number below it.
    cell: function (ctx, cell, c, R, g) {
      var hive = (cell.badges & hiveBit(g)) !== 0, col = cell.owner >= 0 ? g.color(cell.owner) : null;
      var fade = g.selected >= 0 && cell.owner !== g.selected;
      ctx.save();
      if (col && cell.value > 0) {
        g.cellPath(c[0], c[1], R * 0.86);
        ctx.fillStyle = col;
        ctx.globalAlpha = fade ? 0.35 : 1;
        ctx.fill();
        ctx.globalAlpha = 1;
      }
      if (hive) {
        g.cellPath(c[0], c[1], R - 1.2);
        ctx.lineWidth = Math.max(2, R * 0.16);
        ctx.strokeStyle = g.dark ? '#fff' : '#111';
        ctx.stroke();
        g.cellPath(c[0], c[1] + MARK_Y * R, R * MARK_R);
        ctx.fillStyle = col || (g.dark ? '#777' : '#888');
        ctx.fill();
        ctx.lineWidth = 1;
        ctx.strokeStyle = '#fff';
        g.cellPath(c[0], c[1] + MARK_Y * R, R * MARK_R + 1);
        ctx.stroke();
      }
      if (cell.value > 0 && R >= 8) {
        ctx.font = (hive ? 'bold ' : '') + Math.max(8, Math.round(R * 0.62)) + 'px system-ui, sans-serif';
        ctx.textAlign = 'center'; ctx.textBaseline = 'middle';
        ctx.fillStyle = col ? g.textColor(col) : '#111';
        var v = cell.value;
        ctx.fillText(v > 9999 ? Math.round(v / 1000) + 'k' : String(v), c[0], c[1] + (hive ? 0.22 * R : 0));
      }
      ctx.restore();
      return true;
    },

    // The commands panel: "move 5 units from (3, 4) to (4, 4)", "build a
    // hive at (3, 4)", "mine (3, 4) with 5 units".
    command: function (text, p, f, g) {
      var c = parse(text);
      if (!c) return null;
      if (c.kind === 'MOVE') {
        var to = target(g, c.x, c.y, c.d);
        return 'move ' + units(c.n) + ' from ' + at(c.x, c.y) + (to ? ' to ' + at(to[0], to[1]) : ' (no direction)');
      }
      if (c.kind === 'BUILD') return 'build a hive at ' + at(c.x, c.y);
      if (c.kind === 'MINE') return 'mine ' + at(c.x, c.y) + ' with ' + units(c.n);
      return 'unknown command at ' + at(c.x, c.y);
    },

    // The turn's commands (the selected player's, or everyone's): a MOVE
    // as an arrow to the neighbour with its count (red and dashed when
    // rejected), a BUILD as a plus, a MINE as a dot.
    overlay: function (ctx, f, g) {
      var R = g.r;
      /** @type {string[]} */
      var drew = [];
      ctx.textAlign = 'center'; ctx.textBaseline = 'middle';
      g.commandsOf(f, parse).forEach(function (m) {
        if (g.selected >= 0 && m.p !== g.selected) return;
        if (!g.inBoard(m.cmd.x, m.cmd.y)) return;
        var a = g.center(m.cmd.x, m.cmd.y), ink = m.failed ? REJECTED : '#111';
        if (m.cmd.kind === 'MOVE') {
          if (arrow(ctx, g, m, g.color(m.p))) drew.push(m.failed ? 'move_rejected' : 'move');
        } else if (m.cmd.kind === 'BUILD') {
          var s = R * 0.45;
          ctx.lineWidth = Math.max(2, R * 0.16);
          ctx.strokeStyle = ink;
          ctx.beginPath();
          ctx.moveTo(a[0] - s, a[1] + 0.3 * R); ctx.lineTo(a[0] + s, a[1] + 0.3 * R);
          ctx.moveTo(a[0], a[1] + 0.3 * R - s); ctx.lineTo(a[0], a[1] + 0.3 * R + s);
          ctx.stroke();
          drew.push(m.failed ? 'build_rejected' : 'build');
        } else if (m.cmd.kind === 'MINE') {
          ctx.fillStyle = ink;
          ctx.beginPath(); ctx.arc(a[0] + R * 0.5, a[1] + R * 0.35, Math.max(1.5, R * 0.12), 0, 2 * Math.PI); ctx.fill();
          drew.push(m.failed ? 'mine_rejected' : 'mine');
        }
      });
      return drew;
    },

    // hiveMark(R) is the offset of a hive's mark from its cell's centre,
    // in CSS pixels, for a cell radius R (the tests read its colour).
    hiveMark: function (R) { return [0, MARK_Y * R]; },

    legend: [
      { color: shade(0, dark), text: 'no resource' },
      { color: shade(FULL, dark), text: FULL + '+ resource (the ground)' },
      'number: units · thick frame with a mark: a hive, the mark in its owner\'s colour',
      'the turn\'s commands (E hides them): arrow = move with its count (red dashed, ×N: rejected) · + = build a hive · dot = mine'
    ]
  };

  rewind.boards.monad = painter;
})(window.rewind);
