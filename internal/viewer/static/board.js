// rewind generic replay page: any game through the seam (viewer.Packed,
// docs/viewer.md "The replay page"). Loads the packed frames once (gzip'd
// JSON), then draws any turn of a Square, Hex or HexAxial board on a
// canvas: cells coloured by terrain and owner with their value and
// badges, the entities with a health bar and a label, the effects of the
// turn (lines, areas, paths step by step, marks), the active player. The
// shell (shell.js) owns the turn, the scrubber, the keys and #turn=N.
// Everything from the replay (player names above all) is put in the page
// as text, never as HTML.
//
// A game may bring its own script, static/<ruleset>.js, loaded before
// this one, registering a painter that overrides any of these (each may
// return null/false to keep the generic drawing):
//
//   (window.Rewind = window.Rewind || {}).boards = Rewind.boards || {};
//   Rewind.boards['skyport'] = {
//     terrainColor: function (terrain, cell, dark) { return css colour },
//     terrainName:  function (terrain) { return 'rock' },   // inspector
//     cellLabel:    function (cell) { return text },          // not the value
//     badge:        function (bit, name) { return {text, color} }, // false: not drawn
//     command:      function (text, p, frame, g) { return words }, // commands panel
//     cell:   function (ctx, cell, at, r, g) { draw; return true }, // owner
//     fills:  true,                     // cell paints the whole cell
//     entity: function (ctx, e, at, r, g) { draw; return true },
//     effect: function (ctx, e, g) { draw; return true },
//     overlay: function (ctx, frame, g) { draw; return ['what', ...] },
//     inspect: function (cell, g) { return [[name, text], ...] }, // inspector
//     player: function (p, frame, g) { return [{text, id}, ...] }, // the
//                                       // selected player's lines
//     legend: 'what the colours mean',  // or [text | {color, text}, ...],
//                                       // or function (packed, g) giving one
//     controls: [                       // the painter's own toggles
//       {id: 'overlay', label: 'overlay', key: 'o', help: 'next overlay',
//        choices: [['', 'none'], ['cost', 'natural cost']]},  // a select
//       {id: 'buildings', label: 'buildings', key: 'b', on: true,
//        help: 'show / hide the buildings'}                   // a checkbox
//     ]
//   };
//
// where cell is {x, y, terrain, owner, value, badges}, at the cell's or
// entity's pixel centre, r the cell radius and g the page's geometry and
// colours (g.center(x, y), g.r, g.color(p), g.dark, g.step(),
// g.distance(x1, y1, x2, y2), g.cellPath(cx, cy, r): a cell's outline as
// the current path, g.inBoard(x, y), g.name(p), g.textColor(hex): the
// ink readable on a fill of colour hex, g.cellAt(t, x, y): the cell
// (x, y) at turn t (it may replay up to 64 frames of changes: for a few
// cells, not for every cell of a draw), g.layer(name, t, x, y): the
// value of the board's layer name (P.board.layers, engine.Board.Layers)
// at cell (x, y) at turn t, null for a layer the board has not (at the
// turn drawn, or of a layer that never changes, at no cost: for every
// cell of a draw), g.commandsOf(frame, parse): the
// frame's commands as the game's parse(text) reads them (null: one it
// does not draw), parsed once per frame, as [{p, i, cmd, failed}] with
// failed set for those the frame's errors name; and of the frame drawn:
// g.turn, g.frame, g.prev (the frame before, null at 0), g.packed,
// g.selected: the player picked in the legend or table, -1 for none).
// cell draws over a cell's terrain fill (before its label and badges);
// returning true skips the generic owner fill; with fills set, cell
// paints the whole cell and the board does not fill its terrain first. command words one of
// player p's commands of the frame for the commands panel (the text as
// sent stays its tooltip); null keeps the text. overlay draws last, over
// entities and effects, only while the effects are shown; the names it
// returns are kept in rewind.drawn.overlay. A line effect's x2/y2 and
// any omitted number are 0. inspect's rows replace the inspector's
// badges row. controls are put in the playback toolbar and the help,
// their key (one the page does not take) steps a select's choices or
// flips a checkbox; g.controls[id] is a select's value or a checkbox's
// state, and a change redraws the board and the legend.
(function () {
  'use strict';

  var Rewind = window.Rewind = window.Rewind || {};
  Rewind.boards = Rewind.boards || {};
  var root = document.getElementById('generic');
  if (!root) return;
  performance.mark('rw-script');

  var el = RewindShell.el, clear = RewindShell.clear, fmt = RewindShell.fmt, dark = RewindShell.dark;
  var P = null, F = 0, W = 0, H = 0, N = 0, NP = 0, topo = 'square';
  var painter = {};
  var turn = 0, showEffects = true, hover = -1, pinned = -1, selected = -1;
  var SQRT3 = Math.sqrt(3), PAD = 6, R = 20, dpr = 1;
  var EMPTY = dark ? '#2b2c31' : '#efece4';
  var TERRAIN = dark ? ['#2b2c31', '#4a4740', '#3d4a3a', '#4b3f33', '#36434f', '#4a3a4a', '#3f4a48']
    : ['#efece4', '#b9b2a3', '#c5d4b8', '#d6c3a0', '#b8c8d8', '#d4bfd4', '#bfd6d2'];
  var INK = dark ? '#e4e4e7' : '#1d1d1f';

  var canvas = document.getElementById('board');
  var ctx = canvas.getContext('2d');
  var effectsBox = document.getElementById('show-effects');
  var playersTable = document.getElementById('players');
  var inspector = document.getElementById('inspector');
  var commandsPanel = document.getElementById('commands');
  var eventsPanel = document.getElementById('events');
  var legend = document.getElementById('legend');
  var activeBar = document.getElementById('active');
  var chartsBox = document.getElementById('charts');
  // A live game (the page of /live/ID): its events stream.
  var eventsURL = root.getAttribute('data-events');
  var liveBadge = document.getElementById('live-badge');
  var liveStatus = document.getElementById('live-status');
  var live = eventsURL ? { over: false, fetching: false, again: false, updates: 0, game: null } : null;

  // The API the tests drive.
  var api = window.rewind = {
    game: 'generic',
    ready: false,
    error: null,
    chartsReady: false,
    seek: function (t) { shell.seek(t); },
    turn: function () { return turn; },
    frames: function () { return F; },
    packed: function () { return P; },
    // drawn says what the last draw put on the board.
    drawn: { cells: 0, entities: 0, effects: [] },
    // center(x, y) is the canvas pixel (device pixels) at a cell's centre.
    center: function (x, y) { var c = center(x, y); return [Math.round(c[0] * dpr), Math.round(c[1] * dpr)]; },
    cell: function (t, x, y) { cellsAt(t); return cellOf(y * W + x); },
    layer: function (name, t, x, y) { return layerAt(name, t, x, y); },
    color: function (p) { return color(p); },
    radius: function () { return R; },
    select: function (p) { select(p); },
    // live() is the state of a live game's page (null elsewhere): the
    // game as last announced, whether it is over, and how many times the
    // page took in new turns.
    live: function () { return live ? { game: live.game, over: live.over, updates: live.updates } : null; }
  };

  var shell = RewindShell({
    frames: function () { return P ? F : 0; },
    onTurn: showTurn,
    actions: {
      'next-event': function () { jumpEvent(1); },
      'prev-event': function () { jumpEvent(-1); }
    },
    keys: function (e) {
      switch (e.key) {
        case 'e': case 'E': setEffects(!showEffects); return true;
        case 'n': case 'N': jumpEvent(1); return true;
        case 'p': case 'P': jumpEvent(-1); return true;
        case 'x': jumpFailed(1); return true;
        case 'X': jumpFailed(-1); return true;
      }
      return controlKey(e.key);
    },
    onEscape: function () { if (pinned >= 0) { pinned = -1; draw(); renderInspector(); } },
    onResize: function () {
      layout(); draw();
      charts.forEach(function (c) { c.chart.resize(); c.rect = null; c.move(turn); });
    }
  });

  function color(p) { return p >= 0 && P ? P.palette[p % P.palette.length] : (dark ? '#777' : '#888'); }
  function swatch(p) { var s = el('span', { cls: 'swatch' }); s.style.background = color(p); return s; }
  function name(p) { return p >= 0 && p < NP ? P.players[p].name : 'nobody'; }
  function words(s) { return String(s || '').replace(/_/g, ' '); }

  // ---- cells: frame 0 whole, then each frame's changes ------------------
  // The cells of the frame shown (cur) are kept whole; every K frames a
  // copy is kept the first time the walk passes, so a seek replays at
  // most K frames of changes.
  // The board's layers (P.board.layers) likewise: layer k's values in
  // layers[k], frame 0's whole, then [gap, value] pairs where they
  // change; a layer that never changes after frame 0 (moves[k] false)
  // is in no checkpoint.
  var K = 32, cur = -1, terrain, owner, value, badges, checkpoints = {};
  var layers = [], moves = [], layerIndex = {};
  function applyFrame(t) {
    var f = P.frames[t], c = f.cells, i, k, j;
    if (t === 0) {
      for (i = 0; i < N; i++) { terrain[i] = c[4 * i]; owner[i] = c[4 * i + 1]; value[i] = c[4 * i + 2]; badges[i] = c[4 * i + 3]; }
    } else {
      // [gap, which fields (1 terrain, 2 owner, 4 value, 8 badges), their values]
      for (k = 0, i = -1; k + 1 < c.length;) {
        i += c[k];
        var m = c[k + 1];
        k += 2;
        if (m & 1) terrain[i] = c[k++];
        if (m & 2) owner[i] = c[k++];
        if (m & 4) value[i] = c[k++];
        if (m & 8) badges[i] = c[k++];
      }
    }
    for (j = 0; j < layers.length; j++) {
      var l = f.layers && f.layers[j];
      if (!l) continue;
      if (t === 0) layers[j].set(l.slice(0, N));
      else for (k = 0, i = -1; k + 1 < l.length; k += 2) { i += l[k]; layers[j][i] = l[k + 1]; }
    }
    cur = t;
    if (t % K === 0 && !checkpoints[t]) checkpoints[t] = [terrain.slice(), owner.slice(), value.slice(), badges.slice(), layers.map(function (l, j) { return moves[j] ? l.slice() : null; })];
  }
  function cellsAt(t) {
    if (t === cur) return;
    if (t < cur || t - cur > K) {
      var c = Math.floor(t / K) * K;
      while (c > 0 && !checkpoints[c]) c -= K;
      var cp = checkpoints[c];
      terrain.set(cp[0]); owner.set(cp[1]); value.set(cp[2]); badges.set(cp[3]);
      cp[4].forEach(function (l, j) { if (l) layers[j].set(l); });
      cur = c;
    }
    while (cur < t) applyFrame(cur + 1);
  }
  // layerAt is layer name's value at cell (x, y) at turn t, null for a
  // layer the board has not or a cell off it; the cells of the turn
  // shown stay where they were.
  function layerAt(name, t, x, y) {
    var j = layerIndex.hasOwnProperty(name) ? layerIndex[name] : -1;
    if (j < 0 || !inBoard(x, y) || !(t >= 0 && t < F)) return null;
    if (t === cur || !moves[j]) return layers[j][y * W + x];
    var keep = cur;
    cellsAt(t);
    var v = layers[j][y * W + x];
    cellsAt(keep);
    return v;
  }
  function cellOf(i) {
    return { x: i % W, y: Math.floor(i / W), terrain: terrain[i], owner: owner[i], value: value[i], badges: badges[i] };
  }

  // ---- geometry ---------------------------------------------------------
  // square: cells of side 2R; hex: pointy-top hexagons of radius R, even
  // rows shifted right by half a cell (Monad's map); hex-axial: flat-top
  // hexagons of radius R in a diamond, (0, 0) at the top, X growing
  // down-left and Y down-right (Skyport's map).
  var OX = 0; // hex-axial: x of (0, 0)'s centre
  function center(x, y) {
    if (topo === 'hex') return [PAD + SQRT3 * R * (x + 0.5 + (y % 2 === 0 ? 0.5 : 0)), PAD + R + 1.5 * R * y];
    if (topo === 'hex-axial') return [OX + 1.5 * R * (y - x), PAD + SQRT3 / 2 * R * (1 + x + y)];
    return [PAD + R * (2 * x + 1), PAD + R * (2 * y + 1)];
  }
  // step is the distance between neighbours' centres.
  function step() { return topo === 'square' ? 2 * R : SQRT3 * R; }
  function size(r) {
    if (topo === 'hex') return [2 * PAD + (W + 0.5) * SQRT3 * r, 2 * PAD + 1.5 * r * (H - 1) + 2 * r];
    if (topo === 'hex-axial') return [2 * PAD + 2 * r + 1.5 * r * (W - 1 + H - 1), 2 * PAD + SQRT3 * r * (1 + (W - 1 + H - 1) / 2)];
    return [2 * PAD + 2 * r * W, 2 * PAD + 2 * r * H];
  }
  // cellPath begins a path of the cell at (cx, cy) of radius r; with
  // more, it adds the cell to the path begun (one stroke for many).
  function cellPath(cx, cy, r, more) {
    if (!more) ctx.beginPath();
    if (topo === 'square') { ctx.rect(cx - r, cy - r, 2 * r, 2 * r); return; }
    var off = topo === 'hex' ? -90 : 0;
    for (var k = 0; k < 6; k++) {
      var a = Math.PI / 180 * (60 * k + off), px = cx + r * Math.cos(a), py = cy + r * Math.sin(a);
      if (k === 0) ctx.moveTo(px, py); else ctx.lineTo(px, py);
    }
    ctx.closePath();
  }
  // distance is the number of steps between two cells, by each
  // topology's neighbours (engine.Topology).
  function distance(x1, y1, x2, y2) {
    if (topo === 'square') return Math.abs(x1 - x2) + Math.abs(y1 - y2);
    if (topo === 'hex-axial') { var dj = x1 - x2, dk = y1 - y2; return Math.max(Math.abs(dj), Math.abs(dk), Math.abs(dj - dk)); }
    // hex: even rows shifted right ("even-r"); through axial coordinates.
    var qa = x1 - (y1 + (y1 & 1)) / 2, qb = x2 - (y2 + (y2 & 1)) / 2, dq = qa - qb, dr = y1 - y2;
    return (Math.abs(dq) + Math.abs(dr) + Math.abs(dq + dr)) / 2;
  }

  function layout() {
    var wrap = canvas.parentNode;
    var availW = Math.max(240, Math.min(wrap.clientWidth || 600, 1000));
    var availH = Math.max(320, Math.min(window.innerHeight * 0.72, 900));
    var s1 = size(1), fixed = size(0);
    R = Math.min((availW - fixed[0]) / (s1[0] - fixed[0]), (availH - fixed[1]) / (s1[1] - fixed[1]), 44);
    R = Math.max(5, Math.floor(R * 10) / 10);
    var sz = size(R);
    OX = PAD + R + 1.5 * R * (W - 1);
    dpr = window.devicePixelRatio || 1;
    canvas.style.width = Math.ceil(sz[0]) + 'px';
    canvas.style.height = Math.ceil(sz[1]) + 'px';
    canvas.width = Math.round(Math.ceil(sz[0]) * dpr);
    canvas.height = Math.round(Math.ceil(sz[1]) * dpr);
  }

  function cellAt(ev) {
    var r = canvas.getBoundingClientRect(), px = ev.clientX - r.left, py = ev.clientY - r.top, best = -1, bd = Infinity;
    for (var i = 0; i < N; i++) {
      var c = center(i % W, Math.floor(i / W)), d = (c[0] - px) * (c[0] - px) + (c[1] - py) * (c[1] - py);
      if (d < bd) { bd = d; best = i; }
    }
    return bd <= R * R * 1.1 ? best : -1;
  }

  // ---- drawing ----------------------------------------------------------
  function textColor(hex) {
    var r = parseInt(hex.substr(1, 2), 16), g = parseInt(hex.substr(3, 2), 16), b = parseInt(hex.substr(5, 2), 16);
    return (0.299 * r + 0.587 * g + 0.114 * b) > 150 ? '#111' : '#fff';
  }
  function terrainColor(c) {
    var v = painter.terrainColor && painter.terrainColor(c.terrain, c, dark);
    if (v) return v;
    var t = Math.abs(Math.round(c.terrain));
    return TERRAIN[t % TERRAIN.length];
  }
  function badgeOf(bit) {
    var b = painter.badge && painter.badge(bit, P.board.badges[bit]);
    if (b === false) return null;
    return b || { text: (P.board.badges[bit] || '?').charAt(0).toUpperCase(), color: dark ? '#ddd' : '#333' };
  }
  // cellAtTurn is cell (x, y) at turn t; the cells of the turn shown
  // stay where they were.
  function cellAtTurn(t, x, y) {
    var keep = cur;
    cellsAt(t);
    var c = cellOf(y * W + x);
    cellsAt(keep);
    return c;
  }
  // commandsOf is g.commandsOf (see the head of this file).
  var parsedCommands = typeof WeakMap === 'function' ? new WeakMap() : null;
  function commandsOf(f, parse) {
    var out = parsedCommands && parsedCommands.get(f);
    if (out) return out;
    out = [];
    var bad = {};
    (f.errors || []).forEach(function (e) { if (e.i >= 0) bad[e.p + ':' + e.i] = true; });
    (f.commands || []).forEach(function (list, p) {
      (list || []).forEach(function (text, i) {
        var c = parse(text);
        if (c) out.push({ p: p, i: i, cmd: c, failed: !!bad[p + ':' + i] });
      });
    });
    if (parsedCommands) parsedCommands.set(f, out);
    return out;
  }
  var geometry = { center: center, color: color, dark: dark, step: step, distance: distance, cellPath: cellPath, inBoard: inBoard, name: name, textColor: textColor, cellAt: cellAtTurn, layer: layerAt, commandsOf: commandsOf, controls: {} };

  function draw() {
    if (!P) return;
    cellsAt(turn);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    var f = P.frames[turn], occupied = {}, cells = 0;
    geometry.r = R; geometry.turn = turn; geometry.frame = f; geometry.prev = turn > 0 ? P.frames[turn - 1] : null; geometry.packed = P; geometry.selected = selected;
    (f.entities || []).forEach(function (e) { occupied[e.y * W + e.x] = (occupied[e.y * W + e.x] || 0) + 1; });
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    var inner = topo === 'square' ? R - 0.5 : R - 0.6;
    // The cells' ground and owners, then their outlines (one stroke),
    // then what is written on them.
    var owned = [];
    for (var i = 0; i < N; i++) {
      var x = i % W, y = Math.floor(i / W), c = center(x, y), cell = cellOf(i);
      if (!(painter.fills && painter.cell)) {
        cellPath(c[0], c[1], inner);
        ctx.fillStyle = terrainColor(cell);
        ctx.fill();
      }
      var own = painter.cell ? painter.cell(ctx, cell, c, R, geometry) : false;
      owned[i] = own;
      if (cell.owner >= 0 && !own) {
        cellPath(c[0], c[1], inner * 0.8);
        ctx.globalAlpha = selected >= 0 && cell.owner !== selected ? 0.3 : 0.8;
        ctx.fillStyle = color(cell.owner);
        ctx.fill();
        ctx.globalAlpha = 1;
      }
    }
    ctx.beginPath();
    for (i = 0; i < N; i++) { c = center(i % W, Math.floor(i / W)); cellPath(c[0], c[1], inner, true); }
    ctx.lineWidth = 1;
    ctx.strokeStyle = dark ? 'rgba(255,255,255,0.12)' : 'rgba(0,0,0,0.14)';
    ctx.stroke();
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    for (i = 0; i < N; i++) {
      x = i % W; y = Math.floor(i / W); c = center(x, y); cell = cellOf(i); own = owned[i];
      cells++;
      var label = painter.cellLabel ? painter.cellLabel(cell) : null;
      if (label == null && cell.value !== 0) label = Math.abs(cell.value) > 99999 ? Math.round(cell.value / 1000) + 'k' : String(cell.value);
      if (label && R >= 9) {
        var busy = occupied[i];
        ctx.font = (busy ? Math.max(7, Math.round(R * 0.36)) : Math.max(8, Math.round(R * 0.55))) + 'px system-ui, sans-serif';
        ctx.fillStyle = cell.owner >= 0 && !own ? textColor(color(cell.owner)) : INK;
        ctx.fillText(label, c[0], busy ? c[1] + R * 0.68 : c[1]);
      }
      if (cell.badges && R >= 8) drawBadges(cell.badges, c);
      if (i === pinned || (pinned < 0 && i === hover)) {
        cellPath(c[0], c[1], R - 1.5);
        ctx.lineWidth = 2.5;
        ctx.strokeStyle = dark ? '#6ea2ff' : '#1f5fbf';
        ctx.stroke();
      }
    }
    var drawnEffects = [];
    if (showEffects) (f.effects || []).forEach(function (e) { if (drawEffect(e, 'under')) drawnEffects.push(e.k + ':' + (e.n || '')); });
    var ents = drawEntities(f.entities || []);
    if (showEffects) (f.effects || []).forEach(function (e) { drawEffect(e, 'over'); });
    var overlay = [];
    if (showEffects && painter.overlay) {
      ctx.save();
      overlay = painter.overlay(ctx, f, geometry) || [];
      ctx.restore();
    }
    api.drawn = { cells: cells, entities: ents, effects: drawnEffects, overlay: overlay };
  }

  function drawBadges(bits, c) {
    var k = 0, s = Math.max(5, R * 0.3);
    for (var b = 0; b < 32; b++) {
      if (!(bits & (1 << b)) || b >= P.board.badges.length) continue;
      var bd = badgeOf(b);
      if (!bd) continue;
      var bx = c[0] - R * 0.5 + k * (s * 1.15), by = c[1] - R * 0.52;
      ctx.fillStyle = dark ? 'rgba(20,20,24,0.85)' : 'rgba(255,255,255,0.9)';
      ctx.beginPath(); ctx.arc(bx, by, s * 0.62, 0, 2 * Math.PI); ctx.fill();
      ctx.lineWidth = 1; ctx.strokeStyle = bd.color; ctx.stroke();
      ctx.fillStyle = bd.color;
      ctx.font = 'bold ' + Math.round(s * 0.8) + 'px system-ui, sans-serif';
      ctx.fillText(bd.text, bx, by + 0.5);
      k++;
    }
  }

  // Entities: a disc in the owner's colour with its label, a health bar
  // above (full at the most health its kind has in the replay); several on
  // one cell are spread around its centre.
  var maxHealth = {};
  function drawEntities(list) {
    var at = {}, n = 0;
    list.forEach(function (e) { var i = e.y * W + e.x; at[i] = (at[i] || 0) + 1; });
    var seen = {};
    list.forEach(function (e) {
      if (e.x < 0 || e.y < 0 || e.x >= W || e.y >= H) return;
      var i = e.y * W + e.x, k = seen[i] = (seen[i] || 0) + 1, m = at[i], c = center(e.x, e.y);
      if (m > 1) { var a = 2 * Math.PI * (k - 1) / m; c = [c[0] + Math.cos(a) * R * 0.35, c[1] + Math.sin(a) * R * 0.35]; }
      n++;
      if (painter.entity && painter.entity(ctx, e, c, R, geometry)) return;
      var r = R * (m > 1 ? 0.36 : 0.5), fade = selected >= 0 && e.p !== selected;
      ctx.globalAlpha = fade ? 0.35 : 1;
      ctx.beginPath(); ctx.arc(c[0], c[1] + 1.5, r, 0, 2 * Math.PI);
      ctx.fillStyle = 'rgba(0,0,0,0.3)'; ctx.fill();
      ctx.beginPath(); ctx.arc(c[0], c[1], r, 0, 2 * Math.PI);
      ctx.fillStyle = color(e.p); ctx.fill();
      ctx.lineWidth = Math.max(1.5, R * 0.08); ctx.strokeStyle = dark ? '#111' : '#fff'; ctx.stroke();
      var label = e.l || (e.k || '?').charAt(0).toUpperCase();
      if (R >= 9) {
        ctx.font = 'bold ' + Math.max(8, Math.round(r * (label.length > 2 ? 0.7 : 0.95))) + 'px system-ui, sans-serif';
        ctx.fillStyle = textColor(color(e.p));
        ctx.fillText(label.length > 4 ? label.substr(0, 4) : label, c[0], c[1] + 0.5);
      }
      var mh = maxHealth[e.k] || 0;
      if (mh > 0) {
        var bw = R * 1.2, bh = Math.max(3, R * 0.14), bx = c[0] - bw / 2, by = c[1] - r - bh - 3, fr = Math.max(0, Math.min(1, e.h / mh));
        ctx.fillStyle = dark ? '#111' : '#333'; ctx.fillRect(bx - 1, by - 1, bw + 2, bh + 2);
        ctx.fillStyle = fr > 0.5 ? '#2e9d3a' : fr > 0.25 ? '#e0a100' : '#d0342c';
        ctx.fillRect(bx, by, bw * fr, bh);
      }
      ctx.globalAlpha = 1;
    });
    return n;
  }

  function inBoard(x, y) { return x >= 0 && y >= 0 && x < W && y < H; }
  function arrowHead(x, y, ux, uy, h, fill) {
    ctx.beginPath();
    ctx.moveTo(x + ux * h * 0.5, y + uy * h * 0.5);
    ctx.lineTo(x - ux * h + uy * h * 0.6, y - uy * h - ux * h * 0.6);
    ctx.lineTo(x - ux * h - uy * h * 0.6, y - uy * h + ux * h * 0.6);
    ctx.closePath(); ctx.fillStyle = fill; ctx.fill();
  }
  // drawEffect draws one effect of the turn: areas and paths under the
  // entities ('under'), lines and marks over them ('over'); it reports
  // whether e is one it draws in that pass and could place.
  function drawEffect(e, pass) {
    var under = e.k === 'area' || e.k === 'path';
    if (!inBoard(e.x, e.y) || (pass === 'over' && under)) return false;
    if (pass === 'under' && !under) return true; // counted here, drawn over the entities
    if (painter.effect && painter.effect(ctx, e, geometry)) return true;
    var col = color(e.p), a = center(e.x, e.y);
    ctx.save();
    if (e.k === 'line') {
      var b = center(e.x2 || 0, e.y2 || 0), dx = b[0] - a[0], dy = b[1] - a[1], len = Math.sqrt(dx * dx + dy * dy) || 1, ux = dx / len, uy = dy / len;
      ctx.lineCap = 'round';
      ctx.lineWidth = Math.max(5, R * 0.32); ctx.strokeStyle = 'rgba(255,255,255,0.75)';
      ctx.beginPath(); ctx.moveTo(a[0], a[1]); ctx.lineTo(b[0], b[1]); ctx.stroke();
      ctx.lineWidth = Math.max(2.5, R * 0.14); ctx.strokeStyle = col;
      ctx.beginPath(); ctx.moveTo(a[0], a[1]); ctx.lineTo(b[0] - ux * R * 0.3, b[1] - uy * R * 0.3); ctx.stroke();
      arrowHead(b[0] - ux * R * 0.3, b[1] - uy * R * 0.3, ux, uy, Math.max(7, R * 0.4), col);
      burst(b[0], b[1], R * 0.45, col);
    } else if (e.k === 'area') {
      var rad = Math.max(0, e.r || 0);
      for (var i = 0; i < N; i++) {
        var x = i % W, y = Math.floor(i / W);
        if (distance(x, y, e.x, e.y) > rad) continue;
        var c = center(x, y);
        cellPath(c[0], c[1], R - 1);
        ctx.globalAlpha = 0.38; ctx.fillStyle = col; ctx.fill();
        ctx.globalAlpha = 1; ctx.lineWidth = 2; ctx.setLineDash([4, 3]); ctx.strokeStyle = col; ctx.stroke();
        ctx.setLineDash([]);
      }
      burst(a[0], a[1], R * 0.6, col);
    } else if (e.k === 'path') {
      var pts = [a];
      for (var k = 0; k + 1 < (e.pts || []).length; k += 2) if (inBoard(e.pts[k], e.pts[k + 1])) pts.push(center(e.pts[k], e.pts[k + 1]));
      ctx.lineWidth = Math.max(3, R * 0.16); ctx.strokeStyle = col; ctx.setLineDash([R * 0.3, R * 0.2]); ctx.lineCap = 'round';
      ctx.beginPath(); pts.forEach(function (p, j) { if (j === 0) ctx.moveTo(p[0], p[1]); else ctx.lineTo(p[0], p[1]); }); ctx.stroke();
      ctx.setLineDash([]);
      // Each step numbered, in order.
      pts.forEach(function (p, j) {
        if (j === 0) return;
        var q = pts[j - 1], dx = p[0] - q[0], dy = p[1] - q[1], l = Math.sqrt(dx * dx + dy * dy) || 1;
        var mx = (p[0] + q[0]) / 2, my = (p[1] + q[1]) / 2;
        arrowHead(mx + dx / l * R * 0.2, my + dy / l * R * 0.2, dx / l, dy / l, Math.max(6, R * 0.3), col);
        ctx.beginPath(); ctx.arc(p[0], p[1], Math.max(6, R * 0.26), 0, 2 * Math.PI);
        ctx.fillStyle = dark ? '#111' : '#fff'; ctx.fill(); ctx.lineWidth = 2; ctx.strokeStyle = col; ctx.stroke();
        ctx.fillStyle = col; ctx.font = 'bold ' + Math.max(8, Math.round(R * 0.3)) + 'px system-ui, sans-serif';
        ctx.fillText(String(j), p[0], p[1] + 0.5);
      });
    } else {
      // A mark: its value (damage negative, red), or its name.
      var text = e.v ? (e.v > 0 ? '+' : '−') + Math.abs(e.v) : words(e.n || '•');
      ctx.font = 'bold ' + Math.max(10, Math.round(R * 0.55)) + 'px system-ui, sans-serif';
      ctx.lineWidth = 3.5; ctx.strokeStyle = dark ? '#000' : '#fff'; ctx.lineJoin = 'round';
      var mx2 = a[0] + R * 0.52, my2 = a[1] + R * 0.05;
      ctx.textAlign = 'left';
      ctx.strokeText(text, mx2, my2);
      ctx.fillStyle = e.v < 0 ? '#d0342c' : e.v > 0 ? '#1c8c2c' : INK;
      ctx.fillText(text, mx2, my2);
    }
    ctx.restore();
    return true;
  }
  function burst(x, y, r, col) {
    ctx.beginPath();
    for (var k = 0; k < 16; k++) {
      var a = Math.PI / 8 * k, rr = k % 2 ? r * 0.45 : r;
      if (k === 0) ctx.moveTo(x + rr, y); else ctx.lineTo(x + Math.cos(a) * rr, y + Math.sin(a) * rr);
    }
    ctx.closePath();
    ctx.fillStyle = '#ffd23f'; ctx.globalAlpha = 0.9; ctx.fill(); ctx.globalAlpha = 1;
    ctx.lineWidth = 1.5; ctx.strokeStyle = col; ctx.stroke();
  }

  // ---- panels -----------------------------------------------------------
  function renderActive() {
    clear(activeBar);
    var f = P.frames[turn], next = turn + 1 < F ? P.frames[turn + 1].active : -1;
    if (!P.sequential) { activeBar.hidden = true; canvas.style.boxShadow = ''; return; }
    activeBar.hidden = false;
    if (f.active >= 0) {
      activeBar.appendChild(el('span', { cls: 'who', 'data-player': String(f.active) }, swatch(f.active), el('b', { text: name(f.active) }), ' acted this turn'));
      canvas.style.boxShadow = '0 0 0 3px ' + color(f.active);
    } else {
      activeBar.appendChild(el('span', { text: turn === 0 ? 'The board before the first turn.' : 'Nobody acted this turn.' }));
      canvas.style.boxShadow = '';
    }
    if (next >= 0) activeBar.appendChild(el('span', { cls: 'next' }, ' · next: ', swatch(next), name(next)));
  }

  // The player table: the game's headline columns (P.table, its document
  // layout) with a toggle to every metric, else every metric. A value the
  // stream cannot know (P.metrics[i].unknown) is '–'.
  var allMetrics = false, running = null;
  function metricText(i, v) { return P.metrics[i] && P.metrics[i].unknown ? '–' : v == null ? '' : fmt(v); }
  // runningColumns computes, once, each headline column's running values
  // (peaks, their turns, the last event's turn) per player and frame.
  function runningColumns() {
    if (running) return running;
    running = (P.table || []).map(function (c) {
      if (c.of !== 'peak' && c.of !== 'peak_turn' && c.of !== 'event_turn') return null;
      var out = [];
      for (var p = 0; p < NP; p++) {
        var vals = new Float64Array(F), best = 0, at = 0;
        for (var t = 1; t < F; t++) {
          if (c.of === 'event_turn') {
            (P.frames[t].events || []).forEach(function (e) { if (e.n === c.event && e.p === p) at = t; });
          } else {
            var v = (P.frames[t].values[p] || [])[c.metric];
            if (v > best) { best = v; at = t; }
          }
          vals[t] = c.of === 'peak' ? best : at;
        }
        out.push(vals);
      }
      return out;
    });
    return running;
  }
  function columnText(k, c, p, f) {
    var v = (f.values[p] || [])[c.metric];
    if (c.metric >= 0 && P.metrics[c.metric].unknown) return '–';
    if (c.of === 'final') return fmt(v);
    if (c.of === 'flag') return v ? 'yes' : '';
    return fmt(runningColumns()[k][p][turn]);
  }
  function renderPlayers() {
    clear(playersTable);
    var f = P.frames[turn], head = el('tr'), table = P.table && P.table.length && !allMetrics ? P.table : null;
    if (P.table && P.table.length) {
      var toggle = el('button', { type: 'button', cls: 'link', 'data-testid': 'all-metrics', title: 'Show every metric of the game, or its headline columns' },
        allMetrics ? 'headline columns' : 'all ' + P.metrics.length + ' metrics');
      toggle.addEventListener('click', function (ev) { ev.stopPropagation(); allMetrics = !allMetrics; renderPlayers(); toggle.blur(); });
      playersTable.appendChild(el('caption', null, toggle));
    }
    head.appendChild(el('th', { text: '#', title: 'rank after this turn' }));
    head.appendChild(el('th', { text: 'player' }));
    if (table) table.forEach(function (c) {
      var m = c.metric >= 0 ? P.metrics[c.metric] : null;
      head.appendChild(el('th', { text: c.heading, title: m ? words(m.name) + ' (' + m.unit + ')' + (c.of === 'final' ? '' : ': ' + words(c.of) + ' so far') : words(c.event) + ': the last turn' }));
    });
    else P.metrics.forEach(function (m, i) { head.appendChild(el('th', { text: words(m.name), title: m.unit + ' (' + m.kind + ')' + (i === P.score ? ', the score' : '') + (m.unknown ? '; not known from this replay' : '') })); });
    playersTable.appendChild(el('thead', null, head));
    var rank = {};
    (f.ranking || []).forEach(function (p, i) { rank[p] = i + 1; });
    var body = el('tbody');
    for (var p = 0; p < NP; p++) {
      var cls = [];
      if (p === selected) cls.push('selected');
      if (P.sequential && p === f.active) cls.push('active');
      var tr = el('tr', { 'data-player': String(p), cls: cls.join(' ') });
      tr.appendChild(el('td', { text: rank[p] ? String(rank[p]) : '' }));
      var nm = el('td', { cls: 'name', title: P.players[p].bot ? 'bot: ' + P.players[p].bot : '' }, swatch(p), name(p));
      if (f.faults && f.faults[p]) nm.appendChild(el('span', { cls: 'fault', title: f.faults[p], text: ' ⚠ ' + f.faults[p] }));
      tr.appendChild(nm);
      if (table) table.forEach(function (c, k) { tr.appendChild(el('td', { cls: c.metric === P.score && c.of === 'final' ? 'score' : '', text: columnText(k, c, p, f) })); });
      else (f.values[p] || []).forEach(function (v, i) { tr.appendChild(el('td', { cls: i === P.score ? 'score' : '', text: metricText(i, v) })); });
      body.appendChild(tr);
    }
    playersTable.appendChild(body);
  }
  api.allMetrics = function (on) { allMetrics = !!on; renderPlayers(); };

  function renderInspector() {
    var i = pinned >= 0 ? pinned : hover;
    clear(inspector);
    if (i < 0) { inspector.appendChild(el('p', { cls: 'hint', text: 'Hover or click a cell.' })); return; }
    cellsAt(turn);
    var c = cellOf(i), tb = el('table');
    inspector.appendChild(el('h3', { text: 'cell (' + c.x + ', ' + c.y + ')' + (pinned >= 0 ? ' · pinned' : '') }));
    var tname = painter.terrainName ? painter.terrainName(c.terrain) : null;
    function row(k, v) { tb.appendChild(el('tr', null, el('th', { text: k }), el('td', null, v))); }
    row(words(P.board.terrain) || 'terrain', tname != null ? tname + ' (' + c.terrain + ')' : fmt(c.terrain));
    var ow = el('span', null, c.owner >= 0 ? swatch(c.owner) : null, name(c.owner));
    row('owner', ow);
    row(words(P.board.value) || 'value', fmt(c.value));
    layers.forEach(function (l, j) { row(words(P.board.layers[j]), fmt(l[i])); });
    var rows = painter.inspect ? painter.inspect(c, geometry) : null;
    if (rows) rows.forEach(function (r) { row(r[0], r[1]); });
    else if (P.board.badges && P.board.badges.length) {
      var bs = [];
      P.board.badges.forEach(function (b, k) { if (c.badges & (1 << k)) bs.push(words(b)); });
      row('badges', bs.join(', ') || 'none');
    }
    (P.frames[turn].entities || []).forEach(function (e) {
      if (e.x !== c.x || e.y !== c.y) return;
      row(words(e.k), el('span', null, swatch(e.p), name(e.p) + ' · health ' + fmt(e.h) + (e.v ? ' · ' + fmt(e.v) : '') + (e.l ? ' · ' + e.l : '')));
    });
    inspector.appendChild(tb);
  }

  // The commands of the turn (the selected player's, or everyone's), the
  // failed ones struck through with their error, and a bot log: the
  // selected player's, else the active one's. Turn t's commands are
  // those of the round t-1 → t, the bots' replies to turn t-1
  // (docs/replay-format.md); in a Sequential game, the player-turn of
  // the one who acted.
  function commandsHead(p, n, f) {
    var t = turn, count = n + ' command' + (n === 1 ? '' : 's');
    if (P.sequential && p === f.active) return name(p) + ' acted this turn: ' + count + ' (its reply to turn ' + (t - 1) + ')';
    if (P.sequential) return name(p) + ': ' + count + ' in turn ' + t + ' (its reply to turn ' + (t - 1) + ')';
    return name(p) + ': ' + count + ' in round ' + (t - 1) + ' → ' + t + ' (its reply to turn ' + (t - 1) + ')';
  }
  function renderCommands() {
    clear(commandsPanel);
    var f = P.frames[turn];
    commandsPanel.appendChild(el('h3', { text: 'commands of turn ' + turn + (selected >= 0 ? ' · ' + name(selected) : '') }));
    if (turn === 0) { commandsPanel.appendChild(el('p', { cls: 'hint', text: 'Turn 0 is the board before the first turn.' })); return; }
    if (selected < 0 && P.has_commands) commandsPanel.appendChild(el('p', { cls: 'hint', 'data-testid': 'click-player', text: 'Click a player to see only its commands and its bot log for this ' + (P.sequential ? 'turn.' : 'round.') }));
    // The painter's lines on the selected player (ColorfightII: whom it
    // took cells from), as text.
    if (selected >= 0 && painter.player) (painter.player(selected, f, geometry) || []).forEach(function (l) {
      commandsPanel.appendChild(el('p', { cls: 'hint player-line', 'data-testid': l.id || 'player-line', text: l.text }));
    });
    if (!P.has_commands) commandsPanel.appendChild(el('p', { cls: 'hint', text: 'This replay records states, not commands.' }));
    // Inferred commands (an official replay of states) are said to be,
    // in the server's words; a turn without known commands says so.
    if (P.commands_inferred) commandsPanel.appendChild(el('p', { cls: 'inferred', 'data-testid': 'inferred', text: P.commands_note }));
    var unknown = P.has_commands && f.no_commands;
    if (unknown) commandsPanel.appendChild(el('p', { cls: 'hint unexplained', 'data-testid': 'no-commands', text: P.commands_inferred ? P.unexplained_note : 'The commands of this turn are not known.' }));
    var errs = {};
    (f.errors || []).forEach(function (e) { (errs[e.p] = errs[e.p] || []).push(e); });
    var any = false;
    for (var p = 0; p < NP; p++) {
      if (selected >= 0 && p !== selected) continue;
      var cmds = (f.commands || [])[p] || [], pe = errs[p] || [], sent = f.sent ? f.sent[p] : cmds.length;
      if (!cmds.length && !pe.length && !sent) continue;
      any = true;
      var box = el('div', { cls: 'player-cmds', 'data-player': String(p) }, el('h4', { 'data-testid': 'commands-head' }, swatch(p), commandsHead(p, Math.max(sent || 0, cmds.length), f)));
      var list = el('ol', { start: '0' });
      cmds.forEach(function (c, k) {
        var bad = pe.filter(function (e) { return e.i === k; });
        var said = painter.command ? painter.command(c, p, f, geometry) : null;
        var li = el('li', { cls: bad.length ? 'failed' : '' }, el('span', said == null ? { cls: 'cmd', text: c } : { cls: 'cmd said', text: said, title: c, 'data-raw': c }));
        bad.forEach(function (e) { li.appendChild(el('div', { cls: 'err', text: e.t + (e.c ? ' (' + e.c + ')' : '') })); });
        list.appendChild(li);
      });
      if (cmds.length) box.appendChild(list);
      // The commands not listed: how many, and how many of them were
      // rejected (those past MaxCommandsShown counted by the server, the
      // others' errors listed below).
      if (sent > cmds.length) {
        var rejected = (f.rejected ? f.rejected[p] || 0 : 0) + pe.filter(function (e) { return e.i >= cmds.length; }).length;
        box.appendChild(el('p', { cls: 'hint', 'data-testid': 'commands-more', text: '…and ' + (sent - cmds.length) + ' more (' + rejected + ' rejected)' }));
      }
      pe.forEach(function (e) { if (e.i < 0 || e.i >= cmds.length) box.appendChild(el('div', { cls: 'err', text: (e.i < 0 ? '' : 'command ' + e.i + ': ') + e.t })); });
      commandsPanel.appendChild(box);
    }
    if (!any && !unknown) commandsPanel.appendChild(el('p', { cls: 'hint', text: 'No commands.' }));
    var who = selected >= 0 ? selected : f.active;
    if (who < 0) return;
    var log = (f.logs || [])[who] || '';
    commandsPanel.appendChild(el('h4', { cls: 'botlog-head' }, 'Bot log of ', swatch(who), name(who), ' this turn'));
    // An official client's program is not rewind's to see: the server
    // says why it has no log (P.players[who].no_log).
    if (log) commandsPanel.appendChild(el('pre', { cls: 'botlog', 'data-testid': 'botlog', text: log }));
    else if (P.players[who].no_log) commandsPanel.appendChild(el('p', { cls: 'hint', 'data-testid': 'botlog-unseen', text: P.players[who].no_log }));
    else commandsPanel.appendChild(el('p', { cls: 'hint', 'data-testid': 'botlog-none', text: 'Nothing logged this turn.' }));
  }

  function markLegend() {
    legend.querySelectorAll('.item.player').forEach(function (it) { it.classList.toggle('selected', +it.getAttribute('data-player') === selected); });
  }
  function buildLegend() {
    clear(legend);
    for (var p = 0; p < NP; p++) legend.appendChild(el('span', { cls: 'item player', 'data-player': String(p) }, swatch(p), name(p)));
    var key = [], items = typeof painter.legend === 'function' ? painter.legend(P, geometry) : painter.legend;
    if (typeof items === 'string') key.push(items);
    else if (items) {
      // Items: text, or {color, text} with a swatch.
      items.forEach(function (it) {
        if (typeof it === 'string') { legend.appendChild(el('span', { cls: 'item key', text: it })); return; }
        var s = el('span', { cls: 'swatch' }); s.style.background = it.color;
        legend.appendChild(el('span', { cls: 'item key' }, s, it.text));
      });
    } else {
      if (P.board.terrain) key.push('ground: ' + words(P.board.terrain));
      if (P.board.value) key.push('number: ' + words(P.board.value));
      (P.board.badges || []).forEach(function (b, k) { var bd = badgeOf(k); if (bd) key.push(bd.text + ': ' + words(b)); });
      key.push('discs: units with their health');
      key.push('arrows, blasts, numbered paths: the turn\'s effects (E hides them)');
    }
    if (key.length) legend.appendChild(el('span', { cls: 'item key', text: key.join(' · ') }));
  }

  // ---- events -----------------------------------------------------------
  // The analysis's events (P.events: the game's and the shell's, worded
  // in Go), the turning points above them with their explanation, the
  // later lead changes folded at first; without them (the analysis
  // failed) the frames' own events.
  var events = null;
  function buildEvents() {
    var items = [], turning = [];
    if (P.events) {
      P.events.forEach(function (e) {
        items.push({ turn: e.turn, kind: e.kind, player: e.p, text: e.t, later: !!e.later });
        if (e.turning) turning.push({ turn: e.turn, kind: e.kind, player: e.p, text: e.t, explain: e.explain || '' });
      });
    } else {
      P.frames.forEach(function (f, t) {
        (f.events || []).forEach(function (e) { items.push({ turn: t, kind: e.n, player: e.p, text: e.t }); });
      });
    }
    var kinds = P.event_kinds.map(function (k) { return { kind: k.Name, title: words(k.Name) }; });
    items.forEach(function (e) {
      if (!kinds.some(function (k) { return k.kind === e.kind; })) kinds.push({ kind: e.kind, title: words(e.kind) });
    });
    events = RewindShell.eventList(eventsPanel, items, kinds, swatch, function (t) { shell.pause(); shell.seek(t); },
      { turning: turning, marks: { scrubber: document.getElementById('scrubber'), last: F - 1, color: color } });
  }
  // jumpFailed seeks the next (d = 1) or previous (d = -1) turn where
  // the selected player (anyone, when none is) had a command rejected.
  function jumpFailed(d) {
    for (var t = turn + d; t >= 0 && t < F; t += d) {
      var errs = P.frames[t].errors || [];
      for (var i = 0; i < errs.length; i++) {
        if (errs[i].i >= 0 && (selected < 0 || errs[i].p === selected)) { shell.pause(); shell.seek(t); return; }
      }
    }
  }
  // showOutcome puts the analysis's outcome in the header, after the
  // summary.
  function showOutcome() {
    var s = document.querySelector('[data-testid=summary]'), o = document.querySelector('[data-testid=outcome]');
    if (!s || !P.outcome) return;
    if (!o) { o = el('span', { cls: 'summary outcome', 'data-testid': 'outcome' }); s.parentNode.insertBefore(o, s.nextSibling); }
    o.textContent = P.outcome;
  }
  function jumpEvent(d) {
    var t = events ? events.step(turn, d) : -1;
    if (t >= 0) { shell.pause(); shell.seek(t); }
  }

  // ---- charts: a line per player ------------------------------------------
  // A game of at most ALL_CHARTS metrics has a chart per metric; one of
  // more (ColorfightII's accounting and exchanges) has FEW_CHARTS, each
  // with a picker of the metric it shows: the score first, then the
  // metrics in the game's order. Each chart's bar has a log scale box
  // (a value ≤ 0 is then a gap), PNG (the chart as an image) and CSV (its
  // metric as `rewind analyze --format csv` writes it for this replay,
  // for the players its legend shows: chartCSV). The legends are linked:
  // a player hidden in one is hidden in every chart (hidden[seriesName]).
  var ALL_CHARTS = 24, FEW_CHARTS = 4;
  var charts = [], views = [], hidden = {}, linking = false;
  var roundTick = RewindShell.roundTick(function () { return F; });
  // chartMetrics are the metrics the charts show at first (indexes).
  function chartMetrics() {
    var all = P.metrics.map(function (m, i) { return i; });
    if (all.length <= ALL_CHARTS) return all;
    var score = P.score >= 0 && P.score < all.length ? P.score : 0;
    return [score].concat(all.filter(function (i) { return i !== score; })).slice(0, FEW_CHARTS);
  }
  function metricTitle(m) { return words(m.name) + (m.unit && m.unit !== m.name ? ' (' + m.unit + ')' : ''); }
  function seriesName(p) { return P.players[p].label || name(p); }
  function legendState() {
    var sel = {};
    for (var p = 0; p < NP; p++) sel[seriesName(p)] = !hidden[seriesName(p)];
    return sel;
  }
  function buildCharts() {
    clear(chartsBox);
    charts = []; views = [];
    if (!P.metrics.length) { chartsBox.appendChild(el('p', { cls: 'hint', text: 'The game declares no metrics.' })); return; }
    var picks = chartMetrics(), picker = picks.length < P.metrics.length;
    picks.forEach(function (mi, k) {
      var div = el('div', { cls: 'chart metric-chart', 'data-testid': 'chart', 'data-metric': P.metrics[mi].name, 'data-index': String(mi) });
      var v = { metric: mi, log: false, div: div, sel: null }, bar = el('div', { cls: 'chart-bar' });
      views.push(v);
      if (picker) {
        var sel = v.sel = el('select', { cls: 'metric-pick', 'data-testid': 'metric-pick', title: 'The metric this chart shows', 'aria-label': 'metric of chart ' + (k + 1) });
        P.metrics.forEach(function (m, i) {
          var o = el('option', { value: String(i), text: metricTitle(m) });
          if (i === mi) o.selected = true;
          sel.appendChild(o);
        });
        sel.addEventListener('change', function () { pickMetric(k, +sel.value); sel.blur(); });
        bar.appendChild(el('label', { cls: 'chart-pick' }, 'chart ', sel));
      }
      var log = el('input', { type: 'checkbox', cls: 'chart-log', 'data-testid': 'chart-log' });
      var png = el('button', { type: 'button', cls: 'chart-png', 'data-testid': 'chart-png', title: 'This chart as a PNG image' }, 'PNG');
      var csv = el('button', { type: 'button', cls: 'chart-csv', 'data-testid': 'chart-csv', title: 'This metric as CSV, as rewind analyze --format csv writes it, for the players shown' }, 'CSV');
      log.addEventListener('change', function () { setLog(k, log.checked); log.blur(); });
      png.addEventListener('click', function () { savePNG(k); png.blur(); });
      csv.addEventListener('click', function () { saveCSV(k); csv.blur(); });
      bar.appendChild(el('span', { cls: 'chart-tools' }, el('label', { title: 'A log scale (values of 0 or less are not drawn)' }, log, ' log'), png, csv));
      chartsBox.appendChild(el('div', { cls: 'chart-box', 'data-chart': String(k) }, bar, div));
    });
    var later = function () { requestAnimationFrame(function () { setTimeout(function () { RewindShell.loadECharts(root, initCharts); }, 0); }); };
    if (document.readyState === 'complete') later(); else window.addEventListener('load', later);
  }
  // chartOption is the option of a chart of view v (its metric, its
  // scale).
  function chartOption(v) {
    var m = P.metrics[v.metric], i = v.metric, cats = [], lines = [];
    for (var t = 1; t < F; t++) cats.push(t);
    for (var p = 0; p < NP; p++) {
      var data = [];
      // A value the stream cannot know is a gap, and so is one a log
      // scale cannot draw.
      for (var t2 = 1; t2 < F; t2++) {
        var x = (P.frames[t2].values[p] || [])[i];
        data.push(m.unknown || (v.log && !(x > 0)) ? null : x);
      }
      lines.push({ type: 'line', name: seriesName(p), data: data, showSymbol: false, color: color(p), emphasis: { focus: 'series' }, step: P.sequential ? 'end' : false });
    }
    return {
      animation: false,
      title: { text: metricTitle(m) + (m.unknown ? ' · not known from this replay' : ''), textStyle: { fontSize: 14 } },
      tooltip: { trigger: 'axis' },
      legend: { top: 26, type: 'scroll', selected: legendState() },
      grid: { top: 64, bottom: 48, left: 16, right: 44, containLabel: true },
      xAxis: { type: 'category', name: 'turn', data: cats, axisLabel: { interval: roundTick }, axisTick: { interval: roundTick, alignWithLabel: true } },
      yAxis: v.log ? { type: 'log', logBase: 10 } : { type: 'value', minInterval: 1 },
      dataZoom: [{ type: 'inside', xAxisIndex: 0 }, { type: 'slider', xAxisIndex: 0, height: 14, bottom: 6 }],
      series: lines
    };
  }
  function highlight(c) {
    c.chart.dispatchAction({ type: 'downplay' });
    if (selected >= 0) c.chart.dispatchAction({ type: 'highlight', seriesName: seriesName(selected) });
  }
  function initCharts() {
    if (charts.length || !window.echarts) return;
    views.forEach(function (v) {
      var c = shell.chart(v.div, chartOption(v));
      c.view = v;
      c.chart.on('datazoom', function () { c.move(turn); });
      // A click on a legend (legendselectchanged) or an action
      // (legendselected, legendunselected): the same in every chart.
      ['legendselectchanged', 'legendselected', 'legendunselected'].forEach(function (kind) {
        c.chart.on(kind, function (ev) {
          if (linking || !ev.selected) return;
          hidden[ev.name] = !ev.selected[ev.name];
          syncLegends();
        });
      });
      charts.push(c);
      c.move(turn);
      highlight(c);
    });
    api.chartsReady = true;
  }
  function syncLegends() {
    linking = true;
    var sel = legendState();
    charts.forEach(function (c) { c.chart.setOption({ legend: { selected: sel } }); });
    linking = false;
  }
  // redraw sets chart k's option again after its view changed.
  function redraw(k) {
    var c = charts[k];
    if (!c) return; // ECharts not loaded yet: initCharts reads the view
    c.chart.setOption(chartOption(views[k]), { replaceMerge: ['series', 'yAxis'] });
    c.rect = null;
    c.move(turn);
    highlight(c);
  }
  // pickMetric makes chart k show metric i (its picker's choice).
  function pickMetric(k, i) {
    var v = views[k];
    if (!v || !(i >= 0 && i < P.metrics.length)) return;
    v.metric = i;
    v.div.setAttribute('data-metric', P.metrics[i].name);
    v.div.setAttribute('data-index', String(i));
    if (v.sel && v.sel.value !== String(i)) v.sel.value = String(i);
    redraw(k);
  }
  // setLog puts chart k on a log scale (on) or a linear one.
  function setLog(k, on) {
    var v = views[k];
    if (!v) return;
    v.log = !!on;
    var box = v.div.parentNode.querySelector('.chart-log');
    if (box.checked !== v.log) box.checked = v.log;
    redraw(k);
  }
  // chartCSV is chart k's metric as `rewind analyze --format csv` writes
  // it for this replay, the rows of the players shown: its layout is
  // analysis.SeriesCSV's (P.series_csv: the header, then from turn first
  // one row a turn a player, the turn, the player's key and the value),
  // the values the frames' (the analysis's series are the frames').
  function chartCSV(k) {
    var l = P.series_csv, i = views[k].metric, out = [l.head + ',' + l.columns[i]];
    for (var t = l.first; t < F; t++) {
      for (var p = 0; p < NP; p++) if (!hidden[seriesName(p)]) out.push(t + ',' + l.keys[p] + ',' + P.frames[t].values[p][i]);
    }
    return out.join('\n') + '\n';
  }
  function fileName(k, ext) { return 'rewind-' + P.metrics[views[k].metric].name.replace(/[^A-Za-z0-9_.-]+/g, '_') + '.' + ext; }
  function download(file, url) {
    var a = el('a', { href: url, download: file });
    document.body.appendChild(a);
    a.click();
    a.remove();
  }
  function saveCSV(k) {
    var url = URL.createObjectURL(new Blob([chartCSV(k)], { type: 'text/csv' }));
    download(fileName(k, 'csv'), url);
    setTimeout(function () { URL.revokeObjectURL(url); }, 1000);
  }
  function savePNG(k) {
    var c = charts[k];
    // On the chart's own background (the page's theme), not a transparent one.
    if (c) download(fileName(k, 'png'), c.chart.getDataURL({ type: 'png', pixelRatio: 2, backgroundColor: getComputedStyle(c.div).backgroundColor || '#fff' }));
  }
  // pickMetric(k, metric) is the picker of chart k choosing metric (its
  // name); false for a metric the game has not.
  api.pickMetric = function (k, metric) {
    for (var i = 0; i < P.metrics.length; i++) if (P.metrics[i].name === metric) { pickMetric(k, i); return true; }
    return false;
  };
  // logScale(k, on) ticks or unticks chart k's log box; legendSelect(k,
  // label, on) clicks a player's entry of chart k's legend; chartCSV(k)
  // is what its CSV button saves; chartState() what each chart shows.
  api.logScale = function (k, on) { setLog(k, on); };
  api.legendSelect = function (k, nm, on) {
    if (charts[k]) charts[k].chart.dispatchAction({ type: on ? 'legendSelect' : 'legendUnSelect', name: nm });
  };
  api.chartCSV = chartCSV;
  api.chartState = function () {
    return charts.map(function (c) {
      var o = c.chart.getOption();
      return { metric: P.metrics[c.view.metric].name, selected: (o.legend && o.legend[0] && o.legend[0].selected) || {}, yType: o.yAxis && o.yAxis[0] && o.yAxis[0].type, title: o.title && o.title[0] && o.title[0].text, names: (o.series || []).map(function (x) { return x.name; }) };
    });
  };

  // ---- navigation -------------------------------------------------------
  function showTurn(t) {
    turn = t;
    draw();
    renderActive();
    renderPlayers();
    renderInspector();
    renderCommands();
    if (events) events.mark(t);
    charts.forEach(function (c) { c.move(t); });
    if (forkButton) forkButton.disabled = forking || t < 1 || t >= F - 1;
  }
  function setEffects(on) { showEffects = on; effectsBox.checked = on; draw(); }
  function select(p) {
    selected = p;
    markLegend();
    draw(); renderPlayers(); renderCommands();
    charts.forEach(highlight);
  }
  // ---- the painter's controls ---------------------------------------------
  // Built once (the painter's, for the page's game): a select or a
  // checkbox each in the toolbar, a row each in the help.
  var controls = [];
  function buildControls() {
    var bar = document.querySelector('.controls'), help = document.querySelector('#help table');
    (painter.controls || []).forEach(function (c) {
      if (!c || !c.id || geometry.controls.hasOwnProperty(c.id)) return;
      var key = c.key ? String(c.key).toLowerCase() : '', title = (c.help || c.label || c.id) + (key ? ' (' + key.toUpperCase() + ')' : ''), input;
      if (c.choices) {
        input = el('select', { id: 'control-' + c.id, 'data-control': c.id, title: title });
        c.choices.forEach(function (ch) { input.appendChild(el('option', { value: String(ch[0]), text: ch[1] })); });
        geometry.controls[c.id] = input.value;
        input.addEventListener('change', function () { setControl(c.id, input.value); input.blur(); });
      } else {
        input = el('input', { type: 'checkbox', id: 'control-' + c.id, 'data-control': c.id });
        input.checked = c.on !== false;
        geometry.controls[c.id] = input.checked;
        input.addEventListener('change', function () { setControl(c.id, input.checked); input.blur(); });
      }
      controls.push({ c: c, key: key, input: input });
      if (bar) bar.appendChild(c.choices ? el('label', { title: title }, (c.label || c.id) + ' ', input) : el('label', { title: title }, input, ' ' + (c.label || c.id)));
      if (help && key) {
        // Before the Esc row, the last two being Esc's and the help's.
        var row = el('tr', { 'data-control': c.id }, el('td', null, el('kbd', { text: key.toUpperCase() })), el('td', { text: c.help || c.label || c.id }));
        var rows = help.querySelectorAll('tr'), esc = rows.length >= 2 ? rows[rows.length - 2] : null;
        if (esc) esc.parentNode.insertBefore(row, esc); else help.appendChild(row);
      }
    });
  }
  function setControl(id, v) {
    controls.forEach(function (k) {
      if (k.c.id !== id) return;
      if (k.c.choices) k.input.value = String(v); else k.input.checked = !!v;
      geometry.controls[id] = k.c.choices ? k.input.value : k.input.checked;
    });
    draw();
    buildLegend();
    markLegend();
  }
  function controlKey(key) {
    key = String(key).toLowerCase();
    for (var i = 0; i < controls.length; i++) {
      var k = controls[i];
      if (!k.key || k.key !== key) continue;
      if (k.c.choices) { var o = k.input.options; setControl(k.c.id, o[(k.input.selectedIndex + 1) % o.length].value); }
      else setControl(k.c.id, !k.input.checked);
      return true;
    }
    return false;
  }
  api.controls = function () { return geometry.controls; };

  // ---- play on from here ---------------------------------------------------
  // On a library's page (#fork), "play on from here" first shows the
  // seats: each player with the bot that played it and a choice of the
  // bots the server offers for this game (GET /api/fork/bots?game=…: its
  // built-ins and the bots the server was started with), preselected to
  // the seat's own bot (a seat that names none gets the built-ins in
  // turn). "play on" POSTs the replay's id, the turn shown and the
  // choices in player order; the server plays the new game and answers
  // where it is, which the page opens at that turn.
  var forkButton = document.getElementById('fork'), forkStatus = document.getElementById('fork-status');
  var forking = false, forkForm = null;
  function playOn() {
    if (forking || !forkButton) return;
    shell.pause();
    if (forkForm) { forkForm.remove(); forkForm = null; return; }
    forkStatus.className = 'fork-status';
    forkStatus.textContent = 'Asking the server which bots can play…';
    fetch(forkButton.getAttribute('data-url') + '/bots?game=' + encodeURIComponent(P.game), { credentials: 'same-origin' }).then(function (res) {
      return res.json();
    }).then(function (r) {
      if (!r.choices || !r.choices.length) throw new Error(r.error || 'the server offers no bots for this game');
      forkStatus.textContent = '';
      showSeats(r.choices);
    }).catch(function (err) {
      forkStatus.className = 'fork-status bad';
      forkStatus.textContent = String(err && err.message || err);
    });
  }
  function showSeats(choices) {
    var builtins = choices.filter(function (c) { return c.id === c.bot && c.id.indexOf(':') < 0; });
    forkForm = el('form', { cls: 'fork-seats', 'data-testid': 'fork-seats' });
    var table = el('table');
    table.appendChild(el('tr', null, el('th', { text: 'seat' }), el('th', { text: 'played by' }), el('th', { text: 'plays on with' })));
    P.players.forEach(function (pl, p) {
      var sel = el('select', { 'data-player': String(p), 'aria-label': 'bot of ' + pl.name });
      var own = choices.filter(function (c) { return pl.bot && c.bot === pl.bot; })[0];
      var pick = own || builtins[p % Math.max(1, builtins.length)] || choices[0];
      choices.forEach(function (c) {
        var o = el('option', { value: c.id, text: c.label });
        if (c === pick) o.selected = true;
        sel.appendChild(o);
      });
      table.appendChild(el('tr', null, el('td', null, swatch(p), ' ' + name(p)),
        el('td', { text: pl.no_log ? 'the official client' : (pl.bot || 'not recorded') }), el('td', null, sel)));
    });
    forkForm.appendChild(table);
    forkForm.appendChild(el('button', { type: 'submit', id: 'fork-go', text: 'play on from turn ' + turn }));
    forkForm.addEventListener('submit', function (ev) { ev.preventDefault(); submitFork(); });
    forkStatus.parentNode.appendChild(forkForm);
  }
  function submitFork() {
    var t = turn;
    forking = true;
    forkButton.disabled = true;
    forkStatus.className = 'fork-status';
    forkStatus.textContent = 'Playing on from turn ' + t + '…';
    var url = forkButton.getAttribute('data-url') + '?id=' + encodeURIComponent(forkButton.getAttribute('data-id')) + '&turn=' + t;
    forkForm.querySelectorAll('select').forEach(function (sel) { url += '&bot=' + encodeURIComponent(sel.value); });
    forkForm.querySelectorAll('select, button').forEach(function (x) { x.disabled = true; });
    fetch(url, { method: 'POST', credentials: 'same-origin' }).then(function (res) {
      return res.json().catch(function () { return { error: 'the server answered ' + res.status }; });
    }).then(function (r) {
      if (!r.url) throw new Error(r.error || 'no new replay');
      clear(forkStatus);
      forkStatus.className = 'fork-status ok';
      forkStatus.appendChild(document.createTextNode('New game: '));
      forkStatus.appendChild(el('a', { href: r.url + '#turn=' + t, text: r.id }));
      location.assign(r.url + '#turn=' + t); // the new game opens where it leaves its parent
    }).catch(function (err) {
      forking = false;
      forkButton.disabled = turn < 1 || turn >= F - 1;
      forkForm.querySelectorAll('select, button').forEach(function (x) { x.disabled = false; });
      forkStatus.className = 'fork-status bad';
      forkStatus.textContent = String(err && err.message || err);
    });
  }

  function wire() {
    shell.wire();
    if (forkButton) forkButton.addEventListener('click', playOn);
    effectsBox.addEventListener('change', function () { setEffects(effectsBox.checked); effectsBox.blur(); });
    canvas.addEventListener('mousemove', function (ev) {
      var i = cellAt(ev);
      if (i === hover) return;
      hover = i;
      if (pinned < 0) { draw(); renderInspector(); }
    });
    canvas.addEventListener('mouseleave', function () { hover = -1; if (pinned < 0) { draw(); renderInspector(); } });
    canvas.addEventListener('click', function (ev) {
      var i = cellAt(ev);
      pinned = pinned === i ? -1 : i;
      draw(); renderInspector();
    });
    function pick(ev, sel) {
      var it = ev.target.closest(sel);
      if (!it) return;
      var p = parseInt(it.getAttribute('data-player'), 10);
      select(selected === p ? -1 : p);
    }
    legend.addEventListener('click', function (ev) { pick(ev, '.item.player'); });
    playersTable.addEventListener('click', function (ev) { pick(ev, 'tr[data-player]'); });
  }

  function parse(buf) {
    performance.mark('rw-data');
    cur = -1; checkpoints = {}; running = null;
    P = JSON.parse(new TextDecoder().decode(buf));
    if (!P || P.version !== 2) throw new Error('not a generic replay of version 2');
    F = P.frames.length; W = P.board.width; H = P.board.height; N = W * H; NP = P.players.length;
    topo = P.board.topology;
    painter = Rewind.boards[P.game] || {};
    terrain = new Float64Array(N); owner = new Int32Array(N); value = new Float64Array(N); badges = new Uint32Array(N);
    layerIndex = {};
    layers = (P.board.layers || []).map(function (name, j) { layerIndex[name] = j; return new Float64Array(N); });
    moves = layers.map(function (l, j) {
      for (var t = 1; t < F; t++) if (P.frames[t].layers && P.frames[t].layers[j]) return true;
      return false;
    });
    P.frames.forEach(function (f) {
      (f.entities || []).forEach(function (e) { maxHealth[e.k] = Math.max(maxHealth[e.k] || 0, e.h); });
    });
    applyFrame(0);
  }

  function notices() {
    var main = root;
    if (P.warning) main.parentNode.insertBefore(el('p', { cls: 'warning', role: 'alert', text: P.warning }), main);
    if (P.notice) main.parentNode.insertBefore(el('p', { cls: 'notice', 'data-testid': 'notice', text: P.notice }), main);
  }

  function start(buf) {
    parse(buf);
    notices();
    layout();
    buildControls();
    buildLegend();
    buildEvents();
    showOutcome();
    buildCharts();
    wire();
    // Without #turn=N, open on turn 1 (turn 0 is the setup); a live game
    // opens on its newest turn.
    var t = shell.hashTurn();
    shell.seek(t === null ? (live ? F - 1 : Math.min(1, F - 1)) : t);
    shell.loaded();
    performance.mark('rw-first-frame');
    api.ready = true;
    // The checkpoints of the cells, once the first frame is on screen.
    setTimeout(function () { var keep = turn; cellsAt(F - 1); cellsAt(keep); }, 0);
    if (live) follow();
  }

  // ---- live games --------------------------------------------------------
  // The server sends an event per new version of the game it has packed
  // (followers skip to the newest); the page then fetches the frames so
  // far again and takes them in: at the live edge the view follows the
  // newest turn, otherwise it stays where the user scrubbed to while the
  // scrubber's range grows. One fetch at a time, one more after it if
  // turns came meanwhile: no polling.
  function follow() {
    if (!window.EventSource) return;
    var es = new EventSource(eventsURL);
    es.addEventListener('round', function (ev) { announce(JSON.parse(ev.data)); });
    es.addEventListener('done', function (ev) { es.close(); announce(JSON.parse(ev.data)); });
    es.addEventListener('gone', function (ev) {
      es.close();
      var why = JSON.parse(ev.data).error;
      if (!live.over) { live.over = true; say('This game can no longer be followed: ' + why); badge('GONE'); }
    });
    es.onerror = function () {
      // The browser retries by itself unless the server refused the
      // stream (too many followers); then try again a little later.
      if (es.readyState === EventSource.CLOSED && !live.over) setTimeout(follow, 10000);
    };
  }
  function say(text, link, linkText) {
    if (!liveStatus) return;
    clear(liveStatus);
    liveStatus.appendChild(document.createTextNode(text));
    if (link) { liveStatus.appendChild(document.createTextNode(' ')); liveStatus.appendChild(el('a', { href: link, text: linkText, 'data-testid': 'live-replay' })); }
  }
  function badge(text) {
    if (!liveBadge) return;
    liveBadge.textContent = text;
    liveBadge.classList.toggle('over', text !== 'LIVE');
  }
  function announce(g) {
    live.game = g;
    if (g.done) {
      live.over = true;
      badge('FINISHED');
      say('The game is over after ' + g.turn + ' turns.', g.replay, 'Open the finished replay');
      refreshLive(); // the whole game, with its final standings
    } else {
      say('Live: turn ' + g.turn + ' of ' + g.max_turn + '.');
      if (g.turn > F - 1) refreshLive();
    }
  }
  function refreshLive() {
    if (live.fetching) { live.again = true; return; }
    live.fetching = true;
    live.again = false;
    shell.fetch(root.getAttribute('data-src')).then(function (buf) {
      extend(buf);
      live.updates++;
    }).catch(function (err) {
      say('Cannot take in the new turns: ' + String(err && err.message || err));
    }).then(function () {
      live.fetching = false;
      if (live.again) refreshLive();
    });
  }
  // extend takes in the frames of the same game so far, newer ones.
  function extend(buf) {
    var edge = turn >= F - 1;
    parse(buf);
    layout();
    buildLegend();
    markLegend();
    buildEvents();
    showOutcome();
    charts.forEach(function (c) { c.chart.setOption(chartOption(c.view), true); c.rect = null; });
    shell.seek(edge && !shell.playing() ? F - 1 : turn);
    setTimeout(function () { var keep = turn; cellsAt(F - 1); cellsAt(keep); }, 0);
  }

  shell.load(root).then(start).catch(shell.fail);
})();
