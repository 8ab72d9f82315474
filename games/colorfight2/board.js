// rewind: ColorfightII's painter on the replay page (rewind.boards.colorfight2,
// the contract in the viewer's contract.js, drawn with
// rewind.paint's helpers), as ColorfightII's own site draws the game. The
// game's board (games/colorfight2/rules): Square cells, terrain =
// natural_cost, value = attack_cost, owner = uid-1, one badge bit per
// building type ("home", "gold_mine", "energy_well", "fortress") and one
// per level above 1 ("level_2", "level_3"); the buildings' names, letters
// ("gold_mine" is G, as commands write it) and levels are read from the
// board's badge names. The turn's commands are drawn from the frame's
// commands as sent ("a x y e", "b x y g|e|f", "u x y";
// docs/bot-protocol.md) and their errors. Its controls: O the next
// overlay (natural cost: the board's terrain; natural gold and natural
// energy: its layers natural_gold and natural_energy), B the mines, wells
// and fortresses shown or hidden. Everything that comes from the replay
// is drawn or put in the page as text, never as HTML.
(function (rewind) {
  'use strict';

  var paint = rewind.paint, words = paint.words, at = paint.at;

  // Unowned ground: from CHEAP (the board's lowest natural cost) to DEAR
  // (its highest).
  var CHEAP = { light: [239, 236, 228], dark: [58, 59, 64] };
  var DEAR = { light: [172, 160, 136], dark: [108, 98, 78] };
  var REJECTED = '#d0021b';
  // A building's letter colour (the home's is its frame's).
  /** @type {Object<string, string>} */
  var INK = { gold_mine: '#8a6400', energy_well: '#0b4fa8' };
  var LEVEL = /^level_(\d+)$/;
  // A command as sent: kind, x, y and its argument.
  var CMD = /^([abu]) (-?\d+) (-?\d+)(?: (\S+))?$/;


  /**
   * The badges of a board: buildings[k] is the name of bit k when it is
   * a building type (null for a level), levels[k] the level bit k says.
   * @typedef {{buildings: (string|null)[], levels: number[]}} ColorfightBadges
   */
  /**
   * What stands on a cell: the building type (its badge's name), its
   * letter and its level.
   * @typedef {{name: string, letter: string, level: number}} ColorfightBuilding
   */
  /**
   * A command as sent: its kind (a, b or u), its cell and its argument
   * ('' for none).
   * @typedef {{kind: string, x: number, y: number, arg: string}} ColorfightCommand
   */

  // The badges of a board, read once per packed replay.
  /** @type {Packed|null} */
  var badgesFor = null;
  /** @type {ColorfightBadges} */
  var badgeInfo = { buildings: [], levels: [] };
  /**
   * @param {Packed} packed
   * @returns {ColorfightBadges}
   */
  function badgesOf(packed) {
    if (badgesFor === packed) return badgeInfo;
    badgesFor = packed;
    /** @type {ColorfightBadges} */
    var info = badgeInfo = { buildings: [], levels: [] };
    (packed.board.badges || []).forEach(function (name, k) {
      var m = LEVEL.exec(name);
      info.buildings[k] = m ? null : name;
      info.levels[k] = m ? +m[1] : 0;
    });
    return info;
  }
  /** @param {string} name */
  function letter(name) { return name.charAt(0).toUpperCase(); }
  /**
   * building is what stands on a cell, or null.
   * @param {Cell} cell
   * @param {Packed} packed
   * @returns {ColorfightBuilding|null}
   */
  function building(cell, packed) {
    var b = badgesOf(packed), name = null, level = 1;
    for (var k = 0; k < b.buildings.length; k++) {
      if (!(cell.badges & (1 << k))) continue;
      if (b.buildings[k]) name = b.buildings[k];
      else level = Math.max(level, b.levels[k]);
    }
    return name ? { name: name, letter: letter(name), level: level } : null;
  }
  /**
   * buildingByLetter is the building type a build command's letter names.
   * @param {string} l
   * @param {Packed} packed
   */
  function buildingByLetter(l, packed) {
    var b = badgesOf(packed).buildings;
    for (var k = 0; k < b.length; k++) { var name = b[k]; if (name && letter(name).toLowerCase() === l) return name; }
    return null;
  }

  // The overlays: natural cost is the board's terrain, natural gold and
  // energy its layers; each shaded white to its colour (the ColorfightII
  // page's) over the map's range.
  var OVERLAYS = [['natural_cost', 'natural cost'], ['natural_gold', 'natural gold'], ['natural_energy', 'natural energy']];
  /** @type {Object<string, number[]>} */
  var HEAT = { natural_cost: [200, 40, 40], natural_gold: [214, 160, 0], natural_energy: [30, 110, 220] };
  /**
   * overlayOf is the field of the overlay the control shows, '' for none.
   * @param {Geometry} g
   */
  function overlayOf(g) { var o = g.controls.overlay; return typeof o === 'string' && HEAT[o] ? o : ''; }
  // rangeOf is a field's range over the map (frame 0's: the natural
  // values never change), read once per packed replay.
  /** @type {Packed|null} */
  var rangeFor = null;
  /** @type {Object<string, number[]>} */
  var ranges = {};
  /**
   * @param {string} field
   * @param {Packed} packed
   * @returns {number[]} [lowest, highest]
   */
  function rangeOf(field, packed) {
    if (rangeFor !== packed) { rangeFor = packed; ranges = {}; }
    if (ranges[field]) return ranges[field];
    var f0 = packed.frames[0], j = (packed.board.layers || []).indexOf(field), lo = Infinity, hi = -Infinity, i;
    if (field === 'natural_cost') for (i = 0; i < f0.cells.length; i += 4) { lo = Math.min(lo, f0.cells[i]); hi = Math.max(hi, f0.cells[i]); }
    else if (j >= 0 && f0.layers && f0.layers[j]) f0.layers[j].forEach(function (v) { lo = Math.min(lo, v); hi = Math.max(hi, v); });
    return (ranges[field] = lo <= hi ? [lo, hi] : [0, 0]);
  }
  /** @param {Packed} packed */
  function costRange(packed) { return rangeOf('natural_cost', packed); }
  /**
   * fieldOf is a cell's value of an overlay's field.
   * @param {string} field
   * @param {Cell} cell
   * @param {Geometry} g
   */
  function fieldOf(field, cell, g) {
    if (field === 'natural_cost') return cell.terrain;
    var v = g.layer(field, g.turn, cell.x, cell.y);
    return v == null ? 0 : v;
  }
  /**
   * @param {number} f
   * @param {boolean} dark
   */
  function shade(f, dark) { return paint.shade(dark ? CHEAP.dark : CHEAP.light, dark ? DEAR.dark : DEAR.light, f); }
  // DIM is the veil over everyone's cells but the selected player's.
  var DIM = { light: [250, 249, 246], dark: [23, 24, 27], alpha: 0.6 };
  // dimmed is colour (#rrggbb or rgb(r,g,b)) under the veil, as one
  // colour; '' for a colour written otherwise.
  /** @type {Object<string, string>} */
  var dimmedOf = {};
  /**
   * @param {string} colour
   * @param {boolean} dark
   */
  function dimmed(colour, dark) {
    var key = colour + (dark ? ' dark' : ''), d = dimmedOf[key];
    if (d) return d;
    var m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(colour), rgb;
    if (m) rgb = [parseInt(m[1], 16), parseInt(m[2], 16), parseInt(m[3], 16)];
    else if ((m = /^rgb\((\d+),\s*(\d+),\s*(\d+)\)$/.exec(colour))) rgb = m.slice(1).map(Number);
    else return '';
    var base = dark ? DIM.dark : DIM.light;
    return (dimmedOf[key] = 'rgb(' + rgb.map(function (v, k) { return Math.round(v * (1 - DIM.alpha) + base[k] * DIM.alpha); }).join(',') + ')');
  }
  // colours keeps the colour strings made for a value, so a draw makes
  // none per cell: key (a field or the ground, light or dark) → value →
  // colour, for the packed replay colourFor.
  /** @type {Packed|null} */
  var colourFor = null;
  /** @type {Object<string, Object<number, string>>} */
  var colours = {};
  /**
   * @param {string} key
   * @param {number} v
   * @param {Packed} packed
   * @param {function(): string} make
   */
  function cached(key, v, packed, make) {
    if (colourFor !== packed) { colourFor = packed; colours = {}; }
    var m = colours[key] || (colours[key] = {});
    var c = m[v];
    if (c === undefined) c = m[v] = make();
    return c;
  }
  /**
   * @param {number} cost
   * @param {Packed} packed
   * @param {boolean} dark
   */
  function ground(cost, packed, dark) {
    return cached(dark ? 'ground-dark' : 'ground', cost, packed, function () {
      var r = costRange(packed);
      return shade(r[1] > r[0] ? (cost - r[0]) / (r[1] - r[0]) : 0, dark);
    });
  }
  /**
   * heat is an overlay's colour of a value of its field: white to the
   * field's colour over the board's range, as that page's.
   * @param {string} field
   * @param {number} v
   * @param {Packed} packed
   */
  function heat(field, v, packed) {
    return cached(field, v, packed, function () {
      var r = rangeOf(field, packed), f = r[1] > r[0] ? (v - r[0]) / (r[1] - r[0]) : 0, a = 0.12 + 0.8 * Math.max(0, Math.min(1, f));
      return 'rgb(' + HEAT[field].map(function (c) { return Math.round(255 + (c - 255) * a); }).join(',') + ')';
    });
  }

  /**
   * parse reads one command as sent, null when it is none of the three.
   * @param {string} text
   * @returns {ColorfightCommand|null}
   */
  function parse(text) {
    var m = CMD.exec(String(text).trim().replace(/\s+/g, ' '));
    if (!m) return null;
    return { kind: m[1], x: +m[2], y: +m[3], arg: m[4] || '' };
  }

  // A home: a dark frame around the cell, its letter and level in the
  // middle; any other building: a small disc with its letter in the
  // lower right corner, its level as dots in the upper left.
  // sprites keeps each building's drawing (drawBuilding's, on a canvas
  // of its own) by what it shows and the cell's size in device pixels,
  // so a draw of the board copies them rather than writing text.
  /** @type {Object<string, HTMLCanvasElement>} */
  var sprites = {};
  /**
   * @param {CanvasRenderingContext2D} ctx
   * @param {ColorfightBuilding} b
   * @param {number[]} c
   * @param {number} R
   */
  function drawSprite(ctx, b, c, R) {
    var dpr = window.devicePixelRatio || 1, key = b.name + ' ' + b.level + ' ' + R + ' ' + dpr;
    var sp = sprites[key];
    if (!sp) {
      var n = Math.ceil(2 * R * dpr);
      sp = sprites[key] = document.createElement('canvas');
      sp.width = sp.height = n;
      var sc = sp.getContext('2d');
      if (sc) { sc.scale(dpr, dpr); drawBuilding(sc, b, [R, R], R); }
    }
    // On whole device pixels, a copy rather than a resampling.
    ctx.drawImage(sp, Math.round((c[0] - R) * dpr) / dpr, Math.round((c[1] - R) * dpr) / dpr, sp.width / dpr, sp.height / dpr);
  }
  /**
   * @param {CanvasRenderingContext2D} ctx
   * @param {ColorfightBuilding} b
   * @param {number[]} c
   * @param {number} R
   */
  function drawBuilding(ctx, b, c, R) {
    var s = 2 * R, x0 = c[0] - R, y0 = c[1] - R;
    ctx.textAlign = 'center'; ctx.textBaseline = 'middle';
    if (b.name === 'home') {
      var fw = Math.max(2, Math.round(s / 6));
      ctx.fillStyle = '#111';
      ctx.fillRect(x0, y0, s, fw); ctx.fillRect(x0, y0 + s - fw, s, fw);
      ctx.fillRect(x0, y0, fw, s); ctx.fillRect(x0 + s - fw, y0, fw, s);
      ctx.font = 'bold ' + Math.max(7, Math.floor(s * 0.42)) + 'px system-ui, sans-serif';
      ctx.fillText(s >= 16 ? b.letter + b.level : b.letter, c[0], c[1] + 0.5);
      return;
    }
    var r = s * 0.24, cx = x0 + s - r - 1, cy = y0 + s - r - 1;
    ctx.fillStyle = 'rgba(255,255,255,0.9)';
    ctx.beginPath(); ctx.arc(cx, cy, r, 0, 2 * Math.PI); ctx.fill();
    ctx.fillStyle = INK[b.name] || '#333';
    ctx.font = 'bold ' + Math.max(6, Math.floor(s * 0.3)) + 'px system-ui, sans-serif';
    ctx.fillText(b.letter, cx, cy + 0.5);
    for (var d = 0; d < b.level && s >= 14; d++) {
      ctx.beginPath(); ctx.arc(x0 + 3 + d * 4, y0 + 3, 1.4, 0, 2 * Math.PI); ctx.fill();
    }
  }

  // One command on its cell: an attack a ring (with its energy on large
  // cells), a build a plus, an upgrade an arrow; in white with the
  // player's colour inside, or red, dashed and crossed when rejected.
  /**
   * @param {CanvasRenderingContext2D} ctx
   * @param {ParsedCommand<ColorfightCommand>} m
   * @param {Geometry} g
   */
  function drawCommand(ctx, m, g) {
    var R = g.r, s = 2 * R, c = g.center(m.cmd.x, m.cmd.y), cx = c[0], cy = c[1], r = s * 0.36, lw = Math.max(1.5, s / 10);
    var col = g.color(m.p), bad = m.failed;
    ctx.lineWidth = lw;
    ctx.setLineDash(bad ? [Math.max(2, s / 8), Math.max(2, s / 10)] : []);
    ctx.strokeStyle = bad ? REJECTED : '#fff';
    ctx.fillStyle = bad ? 'rgba(208,2,27,0.25)' : 'rgba(255,255,255,0.35)';
    ctx.beginPath();
    if (m.cmd.kind === 'a') {
      ctx.arc(cx, cy, r, 0, 2 * Math.PI);
      ctx.fill(); ctx.stroke();
      ctx.beginPath(); ctx.setLineDash([]);
      ctx.lineWidth = Math.max(1, lw / 2);
      ctx.strokeStyle = bad ? REJECTED : col;
      ctx.arc(cx, cy, r - lw, 0, 2 * Math.PI);
      ctx.stroke();
      if (s >= 22) {
        ctx.font = 'bold ' + Math.max(7, Math.floor(s * 0.3)) + 'px system-ui, sans-serif';
        ctx.fillStyle = bad ? REJECTED : '#000';
        ctx.fillText(m.cmd.arg, cx, cy);
      }
    } else if (m.cmd.kind === 'b') {
      ctx.moveTo(cx - r, cy); ctx.lineTo(cx + r, cy); ctx.moveTo(cx, cy - r); ctx.lineTo(cx, cy + r);
      ctx.stroke();
    } else {
      ctx.moveTo(cx - r * 0.7, cy); ctx.lineTo(cx, cy - r); ctx.lineTo(cx + r * 0.7, cy); ctx.moveTo(cx, cy - r); ctx.lineTo(cx, cy + r);
      ctx.stroke();
    }
    if (bad) {
      ctx.setLineDash([]);
      ctx.strokeStyle = REJECTED;
      ctx.lineWidth = Math.max(1, lw / 2);
      ctx.beginPath(); ctx.moveTo(cx - R + 2, cy - R + 2); ctx.lineTo(cx + R - 2, cy + R - 2); ctx.stroke();
    }
    ctx.setLineDash([]);
  }

  /** @type {Object<string, string>} */
  var KINDS = { a: 'attack', b: 'build', u: 'upgrade' };

  // exchangesOf finds the exchange metrics of a packed replay, read once:
  // from[K] the index of captured_from_K, to[K] of lost_to_K (K a uid);
  // null when it has none.
  /** @type {Packed|null} */
  var exFor = null;
  /** @type {{from: number[], to: number[]}|null} */
  var exInfo = null;
  /** @param {Packed} packed */
  function exchangesOf(packed) {
    if (exFor === packed) return exInfo;
    exFor = packed;
    /** @type {{from: number[], to: number[]}} */
    var ex = { from: [], to: [] };
    packed.metrics.forEach(function (m, i) {
      var a = /^captured_from_(\d+)$/.exec(m.name), b = /^lost_to_(\d+)$/.exec(m.name);
      if (a) ex.from[+a[1]] = i;
      if (b) ex.to[+b[1]] = i;
    });
    exInfo = ex.from.length ? ex : null;
    return exInfo;
  }

  /** @type {Painter} */
  var painter = {
    // No number on the cells, no generic badge: the buildings are drawn
    // by cell.
    cellLabel: function () { return ''; },
    badge: function () { return false; },

    // O: the natural cost overlay; B: the buildings but homes shown or
    // hidden.
    controls: [
      { id: 'overlay', label: 'overlay', key: 'o', help: 'next overlay (natural cost, gold, energy)', choices: [['', 'none']].concat(OVERLAYS) },
      { id: 'buildings', label: 'buildings', key: 'b', on: true, help: 'show / hide the mines, wells and fortresses' }
    ],

    // A cell in its owner's colour, unowned ground shaded by its natural
    // cost, then its building; everyone's but the selected player's
    // cells dimmed. Under an overlay every cell is shaded by its natural
    // cost, gold or energy, with the value written, and an owner is a
    // frame in its colour.
    fills: true,
    cell: function (ctx, cell, c, R, g) {
      var field = overlayOf(g), over = !!field, v = over ? fieldOf(field, cell, g) : 0;
      var b = building(cell, g.packed);
      if (b && b.name !== 'home' && g.controls.buildings === false) b = null;
      var dim = g.selected >= 0 && cell.owner !== g.selected, fill = over ? heat(field, v, g.packed) : cell.owner >= 0 ? g.color(cell.owner) : ground(cell.terrain, g.packed, g.dark);
      // A dimmed cell with nothing over its fill is filled dimmed at
      // once; any other is dimmed after (below).
      var veiled = dim && !over && !(b && R >= 3) ? dimmed(fill, g.dark) : '', dimNow = !!veiled;
      // ColorfightII's board is square: a cell is a rectangle, filled
      // at once (no path).
      var r = dimNow ? R : R - 0.5;
      ctx.fillStyle = dimNow ? veiled : fill;
      ctx.fillRect(c[0] - r, c[1] - r, 2 * r, 2 * r);
      if (over && cell.owner >= 0) {
        var fw = Math.max(2, R * 0.3);
        g.cellPath(c[0], c[1], R - 0.5 - fw / 2);
        ctx.lineWidth = fw;
        ctx.strokeStyle = g.color(cell.owner);
        ctx.stroke();
      }
      if (over && R >= 7 && !(b && b.name === 'home')) {
        ctx.textAlign = 'center'; ctx.textBaseline = 'middle';
        ctx.font = Math.max(7, Math.floor(R * 0.7)) + 'px system-ui, sans-serif';
        ctx.fillStyle = '#111';
        ctx.fillText(String(v), c[0], c[1] + 0.5);
      }
      if (b && R >= 3) drawSprite(ctx, b, c, R);
      if (dim && !dimNow) {
        ctx.fillStyle = g.dark ? 'rgba(' + DIM.dark + ',' + DIM.alpha + ')' : 'rgba(' + DIM.light + ',' + DIM.alpha + ')';
        ctx.fillRect(c[0] - R, c[1] - R, 2 * R, 2 * R);
      }
      return true;
    },

    // The inspector names the building and its level.
    inspect: function (cell, g) {
      var b = building(cell, g.packed);
      return [['building', b ? words(b.name) + ' level ' + b.level : 'none']];
    },

    // The commands panel: "attack (27, 19) with 1725 energy", "build gold
    // mine at (7, 8)", "upgrade (3, 4) to level 2" (the building's level
    // the turn before, plus one); text of none of these stays as sent.
    command: function (text, p, f, g) {
      var c = parse(text);
      if (!c) return null;
      var where = at(c.x, c.y);
      if (c.kind === 'a') return /^-?\d+$/.test(c.arg) ? 'attack ' + where + ' with ' + c.arg + ' energy' : null;
      if (c.kind === 'b') {
        if (!c.arg) return null;
        var name = buildingByLetter(c.arg, g.packed);
        return name ? 'build ' + words(name) + ' at ' + where : 'build "' + c.arg + '" (no such building) at ' + where;
      }
      if (c.arg) return null;
      var b = g.turn > 0 && g.inBoard(c.x, c.y) ? building(g.cellAt(g.turn - 1, c.x, c.y), g.packed) : null;
      return 'upgrade ' + where + (b ? ' to level ' + (b.level + 1) : '');
    },

    // The turn's commands (the selected player's, or everyone's) on
    // their cells.
    overlay: function (ctx, f, g) {
      /** @type {string[]} */
      var drew = [];
      ctx.textAlign = 'center'; ctx.textBaseline = 'middle';
      g.commandsOf(f, parse).forEach(function (m) {
        if (g.selected >= 0 && m.p !== g.selected) return;
        if (!g.inBoard(m.cmd.x, m.cmd.y)) return;
        drawCommand(ctx, m, g);
        drew.push(KINDS[m.cmd.kind] + (m.failed ? '_rejected' : ''));
      });
      return drew;
    },

    // The selected player's exchanges (the metrics captured_from_K and
    // lost_to_K, K a uid, 0 unowned cells): this round, and over the
    // game.
    player: function (p, f, g) {
      var ex = exchangesOf(g.packed);
      if (!ex) return null;
      /** @param {number} k */
      var who = function (k) { return k === 0 ? 'unowned cells' : g.name(k - 1); };
      /**
       * @param {number[]} pairs
       * @param {string} prep
       */
      var list = function (pairs, prep) {
        /** @type {string[]} */
        var out = [];
        pairs.forEach(function (n, k) { if (n > 0) out.push(n + ' ' + prep + ' ' + who(k)); });
        return out.length ? out.join(', ') : 'no cell';
      };
      /** @type {number[]} */
      var took = [];
      /** @type {number[]} */
      var lost = [];
      /** @type {number[]} */
      var all = [];
      var from = ex.from;
      from.forEach(function (i, k) { took[k] = (f.values[p] || [])[i]; });
      ex.to.forEach(function (i, k) { lost[k] = (f.values[p] || [])[i]; });
      g.packed.frames.forEach(function (fr) { from.forEach(function (i, k) { all[k] = (all[k] || 0) + Math.max(0, (fr.values[p] || [])[i] || 0); }); });
      return [
        { id: 'round-exchanges', text: 'This round it took ' + list(took, 'from') + ' and lost ' + list(lost, 'to') + '.' },
        { id: 'exchanges', text: 'Over the game it took ' + list(all, 'from') + '.' }
      ];
    },

    legend: function (packed, g) {
      /** @type {string[]} */
      var keys = [];
      var dark = g.dark, r = costRange(packed);
      badgesOf(packed).buildings.forEach(function (name) { if (name) keys.push(letter(name) + ' ' + words(name)); });
      var field = overlayOf(g);
      if (field) {
        var fr = rangeOf(field, packed), what = words(field);
        return [
          { color: heat(field, fr[0], packed), text: what + ' ' + fr[0] + ' (low)' },
          { color: heat(field, fr[1], packed), text: what + ' ' + fr[1] + ' (high)' },
          'overlay: each cell shaded by its ' + what + ', written in it; an owner\'s cells framed in its colour (O: next overlay)'
        ];
      }
      return [
        { color: shade(0, dark), text: 'unowned, natural cost ' + r[0] },
        { color: shade(1, dark), text: 'unowned, natural cost ' + r[1] },
        'cells in their owner\'s colour',
        keys.join(' · ') + ' (dots: level) · a home is framed in black on its owner\'s colour',
        'the turn\'s commands (E hides them): ring = attack with its energy · + = build · arrow = upgrade · red, dashed and crossed: rejected'
      ];
    }
  };

  rewind.boards.colorfight2 = painter;
})(window.rewind);
