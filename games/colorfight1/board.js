// rewind: ColorFight v1's painter on the replay page
// (rewind.boards.colorfight1, the contract in the viewer's contract.js,
// drawn with rewind.paint's helpers). The game's board
// (games/colorfight1/rules, Game.Board): 30×30 square cells, terrain =
// cell type (0 normal, 1 gold, 2 energy), owner = seat, value = ms until
// the cell's attack finishes, badges base, building (a base under
// construction), taking, blast, gold, energy (read by name from the
// board's badges); one "attack" entity per cell being taken, its player
// the attacker's seat (−1 for a blast), its value the attack's whole
// duration in ms. A turn is a tick: turn t shows tick t−1 (turn 0 the
// setup, at tick 0), the setting "tick" its length in seconds of game
// time. An attack in flight is a clock filling in the attacker's colour
// towards its finish, the seconds left written in it; the inspector
// gives its progress and its finish in seconds of game time, the turn
// label (turnLabel) the tick and its time. Everything
// that comes from the replay is drawn or put in the page as text, never
// as HTML.
(function (rewind) {
  'use strict';

  var paint = rewind.paint, at = paint.at;

  /**
   * A cell type: its name and its ground (light, dark); a gold or energy
   * cell's mark colour.
   * @typedef {{name: string, light: string, dark: string, mark?: string}} ColorfightOneType
   */
  /** @type {ColorfightOneType[]} */
  var TYPES = [
    { name: 'normal', light: '#ebe8e1', dark: '#3a3b40' },
    { name: 'gold', light: '#f3e2a0', dark: '#5e4f1c', mark: '#c99400' },
    { name: 'energy', light: '#cfe2fa', dark: '#1f3b5e', mark: '#2f7fe0' }
  ];
  // A blast's clock (it has no attacker).
  var BLAST = '#222222';
  // DIM is the veil over everyone's cells but the selected player's.
  var DIM = { light: 'rgba(250,249,246,0.6)', dark: 'rgba(23,24,27,0.6)' };

  /**
   * The bits of the board's badges by name (-1: the board has none of
   * that name).
   * @typedef {{base: number, building: number, taking: number, blast: number}} ColorfightOneBits
   */
  /** @type {Packed|null} */
  var bitsFor = null;
  /** @type {ColorfightOneBits} */
  var bitInfo = { base: 0, building: 0, taking: 0, blast: 0 };
  /**
   * bitsOf is the badge masks of a board, read once per packed replay.
   * @param {Packed} packed
   * @returns {ColorfightOneBits}
   */
  function bitsOf(packed) {
    if (bitsFor === packed) return bitInfo;
    bitsFor = packed;
    var names = packed.board.badges || [];
    /** @param {string} n */
    var mask = function (n) { var k = names.indexOf(n); return k < 0 ? 0 : 1 << k; };
    return (bitInfo = { base: mask('base'), building: mask('building'), taking: mask('taking'), blast: mask('blast') });
  }

  /** @type {Packed|null} */
  var tickFor = null;
  var tickSeconds = 0;
  /**
   * tickOf is a tick's length in seconds of game time (the setting
   * "tick", "0.2 s"), 0 when the replay does not say.
   * @param {Packed} packed
   */
  function tickOf(packed) {
    if (tickFor === packed) return tickSeconds;
    tickFor = packed;
    var row = (packed.settings || []).find(function (s) { return s[0] === 'tick'; }), v = row ? parseFloat(row[1] || '') : NaN;
    return (tickSeconds = isFinite(v) && v > 0 ? v : 0);
  }
  /**
   * tickAt is the tick turn t shows: t−1 (turn 0, the setup, tick 0).
   * @param {number} t
   */
  function tickAt(t) { return Math.max(0, t - 1); }
  /**
   * seconds writes s seconds with at most 3 decimals.
   * @param {number} s
   */
  function seconds(s) { return String(+s.toFixed(3)) + ' s'; }
  /**
   * tickTime writes tick k and its time, tick seconds a tick: "tick 99 ·
   * 19.8 s"; the tick alone when the tick's length is not known (0).
   * @param {number} k
   * @param {number} tick
   */
  function tickTime(k, tick) { return 'tick ' + k + (tick > 0 ? ' · ' + seconds(k * tick) : ''); }

  /**
   * progressOf is how far an attack of total ms is with left ms to go, 0
   * to 1 (an attack of no length is done).
   * @param {number} left
   * @param {number} total
   */
  function progressOf(left, total) { return total > 0 ? Math.max(0, Math.min(1, 1 - left / total)) : 1; }

  /**
   * attackAt is the attack entity on (x, y) in frame f, null for none.
   * @param {Frame} f
   * @param {number} x
   * @param {number} y
   * @returns {Entity|null}
   */
  function attackAt(f, x, y) {
    var es = f.entities || [];
    for (var i = 0; i < es.length; i++) if (es[i].k === 'attack' && es[i].x === x && es[i].y === y) return es[i];
    return null;
  }

  /**
   * A command as sent: its endpoint and its JSON body, unknown until
   * checked.
   * @typedef {{path: string, body: unknown}} ColorfightOneCommand
   */
  /**
   * parse reads "/endpoint {json}", null for anything else.
   * @param {string} text
   * @returns {ColorfightOneCommand|null}
   */
  function parse(text) {
    var m = /^(\/[a-z]+)(?:\s+([\s\S]*))?$/.exec(String(text).trim());
    if (!m) return null;
    var body = null;
    if (m[2]) { try { body = JSON.parse(m[2]); } catch (e) { body = null; } }
    return { path: m[1] || '', body: body };
  }
  /**
   * field is body's field name, undefined when the body has none.
   * @param {unknown} body
   * @param {string} name
   * @returns {unknown}
   */
  function field(body, name) {
    if (!body || typeof body !== 'object') return undefined;
    return /** @type {Object<string, unknown>} */ (body)[name];
  }
  /**
   * where is the body's cell "(x, y)", '' when it has none.
   * @param {unknown} body
   */
  function where(body) {
    var x = field(body, 'cellx'), y = field(body, 'celly');
    return typeof x === 'number' && typeof y === 'number' ? at(x, y) : '';
  }

  /**
   * drawClock draws an attack in flight at c: a face, the part done in
   * colour col from 12 o'clock clockwise, a ring, and the seconds left in
   * the middle on a large enough cell.
   * @param {CanvasRenderingContext2D} ctx
   * @param {number[]} c
   * @param {number} R
   * @param {number} done
   * @param {number} left ms
   * @param {string} col
   * @param {boolean} dark
   */
  function drawClock(ctx, c, R, done, left, col, dark) {
    var r = R * 0.72, a0 = -Math.PI / 2;
    ctx.beginPath(); ctx.arc(c[0], c[1], r, 0, 2 * Math.PI);
    ctx.fillStyle = dark ? 'rgba(0,0,0,0.55)' : 'rgba(255,255,255,0.7)';
    ctx.fill();
    if (done > 0) {
      ctx.beginPath(); ctx.moveTo(c[0], c[1]);
      ctx.arc(c[0], c[1], r, a0, a0 + 2 * Math.PI * done);
      ctx.closePath();
      ctx.fillStyle = col; ctx.fill();
    }
    ctx.beginPath(); ctx.arc(c[0], c[1], r, 0, 2 * Math.PI);
    ctx.lineWidth = Math.max(1, R * 0.1); ctx.strokeStyle = col; ctx.stroke();
    if (R >= 11) {
      ctx.textAlign = 'center'; ctx.textBaseline = 'middle';
      paint.haloText(ctx, (left / 1000).toFixed(1), c[0], c[1] + 0.5, '#111', 'rgba(255,255,255,0.85)', R * 0.42);
    }
  }

  /** @type {Painter} */
  var painter = {
    // No number on the cells (an attack's clock says it), no generic
    // badge: the bases, marks and attacks are drawn here.
    cellLabel: function () { return ''; },
    badge: function () { return false; },
    terrainName: function (t) { var ty = TYPES[t]; return ty ? ty.name : null; },

    // A cell in its owner's colour, else its type's ground; a gold or
    // energy cell's diamond in its lower right corner; a base framed in
    // black (dashed while it is being built); everyone's but the selected
    // player's cells veiled.
    fills: true,
    cell: function (ctx, cell, c, R, g) {
      var ty = TYPES[cell.terrain] || TYPES[0], bits = bitsOf(g.packed), s = 2 * R;
      ctx.fillStyle = cell.owner >= 0 ? g.color(cell.owner) : g.dark ? ty.dark : ty.light;
      ctx.fillRect(c[0] - R + 0.5, c[1] - R + 0.5, s - 1, s - 1);
      if (ty.mark && R >= 3) {
        var d = Math.max(2, R * 0.32), mx = c[0] + R - d - 1, my = c[1] + R - d - 1;
        ctx.beginPath(); ctx.moveTo(mx, my - d); ctx.lineTo(mx + d, my); ctx.lineTo(mx, my + d); ctx.lineTo(mx - d, my); ctx.closePath();
        ctx.fillStyle = ty.mark; ctx.fill();
        ctx.lineWidth = 1; ctx.strokeStyle = g.dark ? '#000' : '#fff'; ctx.stroke();
      }
      if (cell.badges & (bits.base | bits.building)) {
        var fw = Math.max(2, Math.round(s / 7));
        ctx.lineWidth = fw;
        ctx.strokeStyle = g.dark ? '#f2f2f2' : '#111';
        ctx.setLineDash(cell.badges & bits.base ? [] : [Math.max(2, s / 6), Math.max(2, s / 8)]);
        ctx.strokeRect(c[0] - R + fw / 2 + 0.5, c[1] - R + fw / 2 + 0.5, s - fw - 1, s - fw - 1);
        ctx.setLineDash([]);
      }
      if (g.selected >= 0 && cell.owner !== g.selected) {
        ctx.fillStyle = g.dark ? DIM.dark : DIM.light;
        ctx.fillRect(c[0] - R, c[1] - R, s, s);
      }
      return true;
    },

    // An attack in flight: its clock, filled as far as it is (its cell's
    // ms left of its whole duration).
    entity: function (ctx, e, c, R, g) {
      if (e.k !== 'attack') return false;
      var left = g.cellAt(g.turn, e.x, e.y).value;
      var col = e.p >= 0 ? g.color(e.p) : BLAST;
      ctx.globalAlpha = g.selected >= 0 && e.p !== g.selected ? 0.4 : 1;
      drawClock(ctx, c, R, progressOf(left, e.v || 0), left, col, g.dark);
      ctx.globalAlpha = 1;
      return true;
    },

    // The cell's type and base, and its attack: who, how far, when it
    // finishes in seconds of game time.
    inspect: function (cell, g) {
      var ty = TYPES[cell.terrain], bits = bitsOf(g.packed);
      /** @type {Array<[string, string]>} */
      var rows = [['cell', ty ? ty.name : 'type ' + cell.terrain],
        ['base', cell.badges & bits.base ? 'yes' : cell.badges & bits.building ? 'being built' : 'none']];
      var e = attackAt(g.frame, cell.x, cell.y);
      if (e) {
        var total = e.v || 0, left = cell.value, tick = tickOf(g.packed), k = tickAt(g.turn);
        var who = e.p >= 0 ? g.name(e.p) : 'a blast';
        var text = (cell.badges & bits.blast ? 'blast' : 'by ' + who) + ': ' + Math.round(100 * progressOf(left, total)) + ' % of ' +
          seconds(total / 1000) + ', ' + seconds(left / 1000) + ' left';
        if (tick > 0) text += ', finishes at ' + seconds(k * tick + left / 1000) + ' of game time (now ' + tickTime(k, tick) + ')';
        rows.push(['attack', text]);
      }
      return rows;
    },

    // The commands panel: "attack (3, 4) with boost", "blast (3, 4)
    // square", "multiattack (3, 4)", "build a base at (3, 4)", "join as
    // me"; anything else stays as sent.
    command: function (text) {
      var c = parse(text);
      if (!c) return null;
      var b = c.body, w = where(b);
      switch (c.path) {
        case '/attack': return w ? 'attack ' + w + (field(b, 'boost') === true ? ' with boost' : '') : null;
        case '/blast': { var d = field(b, 'direction'); return w ? 'blast ' + w + (typeof d === 'string' ? ' ' + d : '') : null; }
        case '/multiattack': return w ? 'multiattack ' + w : null;
        case '/buildbase': return w ? 'build a base at ' + w : null;
        case '/joingame': { var n = field(b, 'name'); return typeof n === 'string' ? 'join as ' + n : null; }
      }
      return null;
    },

    // The turn label: the tick a turn shows and its time in seconds of
    // game time since the start ("turn 100 / 300 · tick 99 · 19.8 s").
    turnLabel: function (t, g) { return tickTime(tickAt(t), tickOf(g.packed)); },
    // The charts' axis in seconds of game time; in ticks when the tick's
    // length is not known.
    turnAxis: function (g) {
      var tick = tickOf(g.packed);
      if (tick > 0) return { name: 's', label: function (t) { return String(+(tickAt(t) * tick).toFixed(3)); } };
      return { name: 'tick', label: function (t) { return String(tickAt(t)); } };
    },

    legend: function (packed, g) {
      var tick = tickOf(packed);
      /** @type {LegendItem[]} */
      var items = TYPES.map(function (ty) { return { color: g.dark ? ty.dark : ty.light, text: ty.name + ' cell, unowned' }; });
      items.push({ color: TYPES[1].mark || '', text: 'gold cell (diamond)' }, { color: TYPES[2].mark || '', text: 'energy cell (diamond)' });
      items.push('cells in their owner\'s colour · a base framed in black, dashed while it is built');
      items.push({ color: BLAST, text: 'an attack in flight: a clock filling in the attacker\'s colour (a blast\'s black) towards its finish, the seconds left in it; the inspector gives its finish time' });
      if (tick > 0) items.push('a turn is a tick of ' + seconds(tick) + ' of game time: turn t is tick t−1, (t−1)·' + tick + ' s after the start');
      return items;
    }
  };

  rewind.boards.colorfight1 = painter;
})(window.rewind);
