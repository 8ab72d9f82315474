// rewind replay viewer. Loads the packed frames of one replay (fetched from
// the server, or inlined in a self-contained page) once, then draws any
// turn from typed arrays with no further request. Everything that comes
// from the replay (player names above all) is put in the page as text,
// never as HTML.
(function () {
  'use strict';

  var root = document.getElementById('replay');
  if (!root) return;

  // ---- state -------------------------------------------------------------
  var M = null;          // manifest
  var cell = {};         // cell field name -> {arr, stat}
  var user = {};         // user field name -> Float64Array (frames × players)
  var N = 0, W = 0, H = 0, P = 0, F = 0;
  var turn = 0, overlay = '', showBuildings = true;
  var hover = -1, pinned = -1, selected = 0; // cell indexes; player slot
  var charts = [];
  var keyEvents = [];    // turns with a home captured or a death
  // The event kinds the list and the scrubber's marks show (the filter's
  // boxes; at first the manifest's shown ones); each event's wording and
  // each kind's title come from the server (analysis).
  var shownKinds = null;
  var dark = RewindShell.dark; // the system's (prefers-color-scheme)
  var UNOWNED = dark ? '#3a3b40' : '#efece4';
  var BUILDING = [], LETTER = []; // by building type, from the manifest

  var canvas = document.getElementById('board');
  var ctx = canvas.getContext('2d');
  var scrubber = document.getElementById('scrubber');
  var overlaySelect = document.getElementById('overlay');
  var inspector = document.getElementById('inspector');
  var playersTable = document.getElementById('players');
  var commandsPanel = document.getElementById('commands');
  var eventsPanel = document.getElementById('events');
  var legend = document.getElementById('legend');
  // "Play on from here": on a library server only.
  var forkButton = document.getElementById('fork');
  var forkStatus = document.getElementById('fork-status');
  var forking = false;
  // A live game (the page of /live/ID): its events stream and charts.
  var eventsURL = root.getAttribute('data-events');
  var chartsURL = root.getAttribute('data-charts');
  var liveBadge = document.getElementById('live-badge');
  var liveStatus = document.getElementById('live-status');
  var live = eventsURL ? { over: false, fetching: false, again: false, updates: 0, game: null } : null;

  // The API tests and power users drive: window.rewind.seek(t) and friends.
  var api = window.rewind = {
    ready: false,
    error: null,
    seek: function (t) { seek(t); },
    turn: function () { return turn; },
    frames: function () { return F; },
    players: function () { return M ? M.players.slice() : []; },
    // owner(t, x, y) is the slot owning a cell (0 unowned).
    owner: function (t, x, y) { return get('owner', t, y * W + x); },
    // building(t, x, y) is the building type on a cell (0 none, 1 home,
    // 2 gold mine, 3 energy well, 4 fortress); color(slot) a player's colour.
    building: function (t, x, y) { return get('building', t, y * W + x); },
    color: function (slot) { return color(slot); },
    chartsReady: false,
    playing: function () { return shell.playing(); },
    speed: function () { return shell.speed(); },
    // live() is the state of a live game's page (null elsewhere): the
    // game as last announced, whether it is over, and how many times the
    // page took in new rounds.
    live: function () { return live ? { game: live.game, over: live.over, updates: live.updates } : null; }
  };

  // ---- the shell (shell.js: the chrome every game's page shares) -------
  var el = RewindShell.el, clear = RewindShell.clear, fmt = RewindShell.fmt;
  var shell = RewindShell({
    frames: function () { return M ? F : 0; },
    onTurn: showTurn,
    actions: {
      'prev-event': function () { jumpEvent(-1); },
      'next-event': function () { jumpEvent(1); }
    },
    keys: gameKey,
    onEscape: function () { if (pinned >= 0) { pinned = -1; draw(); renderInspector(); } },
    onResize: function () {
      layout(); draw();
      charts.forEach(function (c) { c.chart.resize(); c.rect = null; });
      moveCursors();
    }
  });
  function seek(t) { shell.seek(t); }
  function pause() { shell.pause(); }

  function color(slot) { return slot ? M.palette[(slot - 1) % M.palette.length] : UNOWNED; }
  function swatch(slot) { var s = el('span', { cls: 'swatch' }); s.style.background = color(slot); return s; }
  function name(slot) { return slot ? M.players[slot - 1].name : 'nobody'; }
  function slotOf(uid) { for (var i = 0; i < P; i++) if (M.players[i].uid === uid) return i + 1; return 0; }

  // ---- data --------------------------------------------------------------
  var TYPES = { u8: Uint8Array, u16: Uint16Array, i32: Int32Array, f64: Float64Array };

  function fetchBuffer(url) { return shell.fetch(url, root); }

  function parse(buf) {
    var head = new Uint8Array(buf, 0, 8);
    if (String.fromCharCode(head[0], head[1], head[2], head[3]) !== 'RWV1') throw new Error('not a rewind frame blob');
    var dv = new DataView(buf), off = dv.getUint32(4, true), n = dv.getUint32(8, true);
    M = JSON.parse(new TextDecoder().decode(new Uint8Array(buf, off, n)));
    cell = {}; user = {}; keyEvents = []; capturesAt = null;
    W = M.width; H = M.height; N = W * H; F = M.frames; P = M.players.length;
    BUILDING = M.buildings.map(function (b) { return b.name; });
    LETTER = M.buildings.map(function (b) { return b.letter; });
    sparse = []; expanded = 0;
    M.fields.forEach(function (f) {
      var arr = new TYPES[f.type](buf, f.offset, f.length);
      if (f.sparse) { // frame 0, then each frame's changed cells (docs/viewer.md), expanded as far as needed (expand)
        var dense = new TYPES[f.type](F * N);
        dense.set(arr.subarray(0, N));
        sparse.push({ dense: dense, arr: arr, counts: new Uint32Array(buf, f.counts_offset, F), cells: new Uint16Array(buf, f.cells_offset, f.length - N), j: N });
        arr = dense;
      }
      if (f.kind === 'cell') cell[f.name] = { arr: arr, stat: !!f.static };
      else user[f.name] = arr;
    });
    M.events.forEach(function (e) {
      if (e.kind === 'home_captured' || e.kind === 'died') {
        if (keyEvents[keyEvents.length - 1] !== e.turn) keyEvents.push(e.turn);
      }
    });
  }

  // expand makes the sparse fields' frames up to frame t whole: each is
  // the one before with its changes applied. The first frame needs only
  // the first frames; the rest follow once it is drawn.
  var sparse = [], expanded = 0;
  function expand(t) {
    if (t <= expanded) return;
    t = Math.min(t, F - 1);
    sparse.forEach(function (s) {
      var dense = s.dense, arr = s.arr, counts = s.counts, cells = s.cells, j = s.j;
      for (var u = expanded + 1; u <= t; u++) {
        var base = u * N, c = base;
        dense.copyWithin(base, base - N, base);
        for (var end = j + counts[u]; j < end; j++) { c += cells[j - N]; dense[c] += arr[j]; } // wraps as the packer did
      }
      s.j = j;
    });
    expanded = t;
  }
  function get(field, t, i) { var f = cell[field]; if (f.stat) return f.arr[i]; if (t > expanded) expand(t); return f.arr[t * N + i]; }
  function uget(field, t, slot) { return user[field][t * P + slot - 1]; }

  // ---- board -------------------------------------------------------------
  var size = 20, dpr = 1;
  // The cells are painted one pixel each into a W×H image that is drawn
  // scaled up in one call; buildings are stamped from pre-drawn sprites.
  var cellCanvas = document.createElement('canvas'), cellCtx = cellCanvas.getContext('2d'), cellImg = null;
  var sprites = document.createElement('canvas'), spriteSize = 0;
  var rgb = [];          // slot -> [r, g, b]

  function parseHex(h) { return [parseInt(h.substr(1, 2), 16), parseInt(h.substr(3, 2), 16), parseInt(h.substr(5, 2), 16)]; }

  function layout() {
    // The board fills its column's width, and at most the window's height
    // less the controls under it: from a 390 px phone to a 2560 px screen.
    var wrap = canvas.parentNode;
    var avail = Math.max(180, Math.min(wrap.clientWidth || 600, Math.max(360, window.innerHeight - 170)));
    size = Math.max(6, Math.floor(avail / Math.max(W, H)));
    dpr = window.devicePixelRatio || 1;
    canvas.style.width = (size * W) + 'px';
    canvas.style.height = (size * H) + 'px';
    canvas.width = Math.round(size * W * dpr);
    canvas.height = Math.round(size * H * dpr);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    if (!cellImg || cellImg.width !== W || cellImg.height !== H) {
      cellCanvas.width = W; cellCanvas.height = H;
      cellImg = cellCtx.createImageData(W, H);
    }
    for (var s = 0; s <= P; s++) rgb[s] = parseHex(color(s));
    drawSprites();
  }

  // drawSprites renders every building glyph (type × level 1..3) once, at
  // device resolution, on a transparent ground so the owner's colour shows
  // through: a home is a dark frame around its cell with a small H; the
  // other buildings a small disc with their letter in the cell's corner.
  function drawSprites() {
    var s = size, k = Math.round(s * dpr);
    spriteSize = k;
    sprites.width = k * 4 * 4; sprites.height = k;
    var g = sprites.getContext('2d');
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.textAlign = 'center';
    g.textBaseline = 'middle';
    for (var b = 1; b <= 4; b++) for (var lv = 0; lv <= 3; lv++) {
      var letter = LETTER[b] || '?';
      var x = ((b - 1) * 4 + lv) * s;
      if (b === 1) { // home: a dark frame, the owner's colour inside
        var fw = Math.max(2, Math.round(s / 6));
        g.fillStyle = '#111';
        g.fillRect(x, 0, s, fw); g.fillRect(x, s - fw, s, fw);
        g.fillRect(x, 0, fw, s); g.fillRect(x + s - fw, 0, fw, s);
        g.font = 'bold ' + Math.max(7, Math.floor(s * 0.42)) + 'px system-ui, sans-serif';
        g.fillStyle = '#111';
        g.fillText(s >= 16 && lv ? letter + lv : letter, x + s / 2, s / 2 + 0.5);
      } else { // a small disc in the lower right corner
        var r = s * 0.24, cx = x + s - r - 1, cy = s - r - 1;
        g.fillStyle = 'rgba(255,255,255,0.9)';
        g.beginPath();
        g.arc(cx, cy, r, 0, 2 * Math.PI);
        g.fill();
        g.fillStyle = b === 2 ? '#8a6400' : b === 3 ? '#0b4fa8' : '#333';
        g.font = 'bold ' + Math.max(6, Math.floor(s * 0.3)) + 'px system-ui, sans-serif';
        g.fillText(letter, cx, cy + 0.5);
        for (var d = 0; d < lv && s >= 14; d++) { // level: dots in the upper left
          g.beginPath();
          g.arc(x + 3 + d * 4, 3, 1.4, 0, 2 * Math.PI);
          g.fill();
        }
      }
    }
  }

  var overlayRange = {};
  function heatRGB(field, v) {
    var r = overlayRange[field];
    if (!r) {
      var lo = Infinity, hi = -Infinity;
      for (var i = 0; i < N; i++) { var x = get(field, 0, i); if (x < lo) lo = x; if (x > hi) hi = x; }
      r = overlayRange[field] = [lo, hi];
    }
    var k = r[1] > r[0] ? (v - r[0]) / (r[1] - r[0]) : 0;
    var base = field === 'natural_gold' ? [214, 160, 0] : field === 'natural_energy' ? [30, 110, 220] : [200, 40, 40];
    var a = 0.12 + 0.8 * k;
    return [255 + (base[0] - 255) * a, 255 + (base[1] - 255) * a, 255 + (base[2] - 255) * a];
  }

  function draw() {
    var t = turn, s = size;
    var oa = cell.owner.arr, ob = cell.owner.stat ? 0 : t * N, pb = cell.owner.stat ? 0 : (t - 1) * N;
    var px = cellImg.data;
    for (var i = 0; i < N; i++) {
      var c = overlay ? heatRGB(overlay, get(overlay, t, i)) : rgb[oa[ob + i]];
      px[4 * i] = c[0]; px[4 * i + 1] = c[1]; px[4 * i + 2] = c[2]; px[4 * i + 3] = 255;
    }
    cellCtx.putImageData(cellImg, 0, 0);
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(cellCanvas, 0, 0, W * s, H * s);
    if (overlay) { // owners as coloured frames over the heat map
      ctx.lineWidth = Math.max(2, s / 7);
      for (var slot = 1; slot <= P; slot++) {
        ctx.beginPath();
        for (var j = 0; j < N; j++) if (oa[ob + j] === slot) ctx.rect((j % W) * s + 1.5, ((j / W) | 0) * s + 1.5, s - 3, s - 3);
        ctx.strokeStyle = color(slot);
        ctx.stroke();
      }
    }
    // grid
    ctx.strokeStyle = 'rgba(0,0,0,0.12)';
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (var gx = 0; gx <= W; gx++) { ctx.moveTo(gx * s + 0.5, 0); ctx.lineTo(gx * s + 0.5, s * H); }
    for (var gy = 0; gy <= H; gy++) { ctx.moveTo(0, gy * s + 0.5); ctx.lineTo(s * W, gy * s + 0.5); }
    ctx.stroke();
    // cells captured this round: a yellow corner, the owner's colour
    // still showing
    if (t > 0 && !cell.owner.stat) {
      var c3 = Math.max(4, s * 0.35);
      ctx.fillStyle = '#ffe600';
      ctx.strokeStyle = 'rgba(0,0,0,0.6)';
      ctx.lineWidth = 1;
      ctx.beginPath();
      for (var q = 0; q < N; q++) {
        var o = oa[ob + q];
        if (o && oa[pb + q] !== o) {
          var qx = (q % W) * s + 1, qy = ((q / W) | 0) * s + 1;
          ctx.moveTo(qx, qy); ctx.lineTo(qx + c3, qy); ctx.lineTo(qx, qy + c3); ctx.closePath();
        }
      }
      ctx.fill();
      ctx.stroke();
    }
    // buildings (B hides all but the homes)
    var bf = cell.building, lf = cell.level, k = spriteSize;
    for (var m = 0; m < N; m++) {
      var b = bf.stat ? bf.arr[m] : bf.arr[t * N + m];
      if (!b || b > 4 || (b > 1 && !showBuildings)) continue;
      var lv = lf.stat ? lf.arr[m] : lf.arr[t * N + m];
      if (lv < 0 || lv > 3) lv = 0;
      ctx.drawImage(sprites, ((b - 1) * 4 + lv) * k, 0, k, k, (m % W) * s, ((m / W) | 0) * s, s, s);
    }
    if (overlay && s >= 18) {
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.font = Math.floor(s * 0.36) + 'px system-ui, sans-serif';
      ctx.fillStyle = '#000';
      for (var n = 0; n < N; n++) {
        if ((bf.stat ? bf.arr[n] : bf.arr[t * N + n])) continue;
        ctx.fillText(String(get(overlay, t, n)), (n % W) * s + s / 2, ((n / W) | 0) * s + s / 2);
      }
    }
    // The selected player stands out: everyone else's cells are dimmed.
    if (selected) {
      ctx.fillStyle = dark ? 'rgba(23,24,27,0.6)' : 'rgba(250,249,246,0.6)';
      ctx.beginPath();
      for (var d = 0; d < N; d++) if (oa[ob + d] !== selected) ctx.rect((d % W) * s, ((d / W) | 0) * s, s, s);
      ctx.fill();
    }
    drawActions(t, s);
    var mark = pinned >= 0 ? pinned : hover;
    if (mark >= 0) {
      ctx.strokeStyle = '#000';
      ctx.lineWidth = 2;
      ctx.strokeRect((mark % W) * s + 1, ((mark / W) | 0) * s + 1, s - 2, s - 2);
    }
  }

  // ---- actions on the board ---------------------------------------------
  // The selected player's commands of the round that made this turn, drawn
  // on their cells: an attack a ring (with its energy on large cells), a
  // build a plus, an upgrade an arrow; succeeded in the player's colour on
  // white, failed in red and crossed. Commands are in the official text
  // form ("a X Y E", "b X Y L", "u X Y"); anything else is not drawn.
  var CMD = /^([abu]) (\d+) (\d+)(?: (\S+))?$/;
  function actionsOf(t, slot) {
    var cmds = (M.commands && M.commands[t] && M.commands[t][slot - 1]) || [], failed = {}, out = [];
    ((M.errors && M.errors[t]) || []).forEach(function (e) { if (e[0] === slot) failed[e[1]] = true; });
    for (var k = 0; k < cmds.length; k++) {
      var m = CMD.exec(cmds[k]);
      if (!m) continue;
      var x = +m[2], y = +m[3];
      if (x >= W || y >= H) continue;
      out.push({ kind: m[1], x: x, y: y, arg: m[4] || '', failed: !!failed[k] });
    }
    return out;
  }
  function drawActions(t, s) {
    if (!selected || !M.has_commands || t < 1) return;
    var acts = actionsOf(t, selected);
    if (!acts.length) return;
    var col = color(selected), lw = Math.max(1.5, s / 10);
    ctx.save();
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.font = 'bold ' + Math.max(7, Math.floor(s * 0.3)) + 'px system-ui, sans-serif';
    acts.forEach(function (a) {
      var cx = a.x * s + s / 2, cy = a.y * s + s / 2, r = s * 0.36;
      ctx.lineWidth = lw;
      ctx.setLineDash(a.failed ? [Math.max(2, s / 8), Math.max(2, s / 10)] : []);
      ctx.strokeStyle = a.failed ? '#d0021b' : '#fff';
      ctx.fillStyle = a.failed ? 'rgba(208,2,27,0.25)' : 'rgba(255,255,255,0.35)';
      ctx.beginPath();
      if (a.kind === 'a') {
        ctx.arc(cx, cy, r, 0, 2 * Math.PI);
        ctx.fill();
        ctx.stroke();
        ctx.beginPath();
        ctx.setLineDash([]);
        ctx.lineWidth = Math.max(1, lw / 2);
        ctx.strokeStyle = a.failed ? '#d0021b' : col;
        ctx.arc(cx, cy, r - lw, 0, 2 * Math.PI);
        ctx.stroke();
        if (s >= 22) { ctx.fillStyle = a.failed ? '#d0021b' : '#000'; ctx.fillText(a.arg, cx, cy); }
      } else if (a.kind === 'b') {
        ctx.moveTo(cx - r, cy); ctx.lineTo(cx + r, cy); ctx.moveTo(cx, cy - r); ctx.lineTo(cx, cy + r);
        ctx.stroke();
      } else {
        ctx.moveTo(cx - r * 0.7, cy); ctx.lineTo(cx, cy - r); ctx.lineTo(cx + r * 0.7, cy); ctx.moveTo(cx, cy - r); ctx.lineTo(cx, cy + r);
        ctx.stroke();
      }
      if (a.failed) { // a cross
        ctx.setLineDash([]);
        ctx.strokeStyle = '#d0021b';
        ctx.lineWidth = Math.max(1, lw / 2);
        ctx.beginPath();
        ctx.moveTo(a.x * s + 2, a.y * s + 2); ctx.lineTo(a.x * s + s - 2, a.y * s + s - 2);
        ctx.stroke();
      }
    });
    ctx.restore();
  }
  // nextError seeks the next turn after this one where the selected
  // player (anyone, when none is) has a failed command.
  function nextError(dir) {
    if (!M.errors) return;
    pause();
    for (var t = turn + dir; t >= 0 && t < F; t += dir) {
      var errs = M.errors[t] || [], hit = false;
      for (var i = 0; i < errs.length && !hit; i++) hit = !selected || errs[i][0] === selected;
      var short = (M.shortened && M.shortened[t]) || [];
      for (var j = 0; j < short.length && !hit; j++) hit = short[j][2] > 0 && (!selected || short[j][0] === selected);
      if (hit) { seek(t); return; }
    }
  }
  api.actions = function (t, slot) { return actionsOf(t, slot); };
  // select makes slot the selected player (0: none), as a click on it in
  // the panel or the board's legend does.
  function select(slot) {
    selected = slot;
    renderPlayers();
    renderCommands();
    highlightCharts();
    draw();
    legend.querySelectorAll('.item.player').forEach(function (it) { it.classList.toggle('selected', +it.getAttribute('data-slot') === selected); });
  }
  api.select = select;
  api.selected = function () { return selected; };

  // ---- panels ------------------------------------------------------------
  function renderInspector() {
    var i = pinned >= 0 ? pinned : hover;
    clear(inspector);
    if (i < 0) { inspector.appendChild(el('p', { cls: 'hint', text: 'Hover or click a cell.' })); return; }
    var t = turn, o = get('owner', t, i), b = get('building', t, i);
    var rows = [
      ['cell', '(' + (i % W) + ', ' + ((i / W) | 0) + ')' + (pinned >= 0 ? '  pinned' : '')],
      ['owner', null],
      ['building', b ? (BUILDING[b] || 'building ' + b) + ' level ' + get('level', t, i) : BUILDING[0]],
      ['attack cost', fmt(get('attack_cost', t, i))],
      ['force field', fmt(get('force_field', t, i))],
      ['natural gold', fmt(get('natural_gold', t, i))],
      ['natural energy', fmt(get('natural_energy', t, i))],
      ['natural cost', fmt(get('natural_cost', t, i))],
      ['income', fmt(get('gold', t, i)) + ' gold, ' + fmt(get('energy', t, i)) + ' energy']
    ];
    var tbl = el('table');
    rows.forEach(function (r) {
      var v = r[1] === null ? el('td', null, swatch(o), name(o)) : el('td', { text: r[1] });
      tbl.appendChild(el('tr', null, el('th', { text: r[0] }), v));
    });
    if (t > 0) {
      var prev = get('owner', t - 1, i);
      if (prev !== o && o) tbl.appendChild(el('tr', null, el('th', { text: 'this round' }), el('td', { text: 'captured from ' + name(prev) })));
    }
    inspector.appendChild(tbl);
  }

  // The buildings column lists homes, mines, wells and fortresses, headed by
  // their board letters.
  function playerCols() { return ['', 'player', 'gold', 'energy', 'income', 'tax', 'cells', LETTER.slice(1).join(' '), 'tech']; }
  // What each column of the player table means (its header's tooltip).
  function playerColTips() {
    return ['', 'The player (click to see its commands and bot log)', 'Gold held at this turn',
      'Energy held at this turn', 'Gold / energy gained per round from its cells and buildings',
      'Gold paid per round in tax (grows with the number of cells and buildings)', 'Cells owned',
      'Buildings owned: ' + BUILDING.slice(1).map(function (b, i) { return LETTER[i + 1] + ' ' + b; }).join(', '),
      'Tech level: the level of its home, which caps its buildings\' levels'];
  }
  function renderPlayers() {
    var t = turn, order = [];
    for (var s = 1; s <= P; s++) if (uget('present', t, s)) order.push(s);
    order.sort(function (a, b) { return uget('gold', t, b) - uget('gold', t, a) || a - b; });
    clear(playersTable);
    var head = el('tr');
    var cols = playerCols(), tips = playerColTips();
    cols.forEach(function (c, i) { head.appendChild(el('th', tips[i] ? { text: c, title: tips[i] } : { text: c })); });
    playersTable.appendChild(el('thead', null, head));
    var body = el('tbody');
    order.forEach(function (s) {
      var tr = el('tr', { 'data-slot': String(s), cls: (s === selected ? 'selected' : '') + (uget('dead', t, s) ? ' dead' : '') },
        el('td', null, swatch(s)),
        el('td', { cls: 'name', text: name(s) + (uget('dead', t, s) ? ' (dead)' : '') }),
        el('td', { text: fmt(uget('gold', t, s)) }),
        el('td', { text: fmt(uget('energy', t, s)) }),
        el('td', { text: '+' + fmt(uget('gold_source', t, s)) + ' / +' + fmt(uget('energy_source', t, s)) }),
        el('td', { text: fmt(uget('tax_amount', t, s)) }),
        el('td', { text: fmt(uget('cells', t, s)) }),
        el('td', { text: uget('homes', t, s) + ' ' + uget('mines', t, s) + ' ' + uget('wells', t, s) + ' ' + uget('fortresses', t, s) }),
        el('td', { text: String(uget('tech_level', t, s)) }));
      body.appendChild(tr);
    });
    if (!order.length) body.appendChild(el('tr', null, el('td', { colspan: String(cols.length), cls: 'hint', text: 'No player has joined yet at turn ' + t + '.' })));
    playersTable.appendChild(body);
  }

  function renderCommands() { renderCommandList(); renderBotLog(); }

  // The selected player's bot log (its stderr while it was asked for the
  // round's commands: M.logs, docs/viewer.md), as text in a <pre>: never
  // markup, whatever the bot printed.
  function renderBotLog() {
    if (selected && M.players[selected - 1] && M.players[selected - 1].no_log) {
      commandsPanel.appendChild(el('p', { cls: 'hint', 'data-testid': 'botlog-unseen', text: 'This player played through the official client: rewind sees its commands, not its program, so there is no bot log (its stderr stays on its own machine).' }));
      return;
    }
    if (!M.logs || !selected) return;
    var log = (M.logs[turn] || [])[selected - 1] || '';
    if (!log && turn < 2) return;
    commandsPanel.appendChild(el('h4', { cls: 'botlog-head', text: 'Bot log (stderr) of this round' }));
    if (log) commandsPanel.appendChild(el('pre', { cls: 'botlog', 'data-testid': 'botlog', text: log }));
    else commandsPanel.appendChild(el('p', { cls: 'hint', 'data-testid': 'botlog-none', text: 'Nothing logged this round.' }));
    if (M.logs_note) commandsPanel.appendChild(el('p', { cls: 'hint', text: M.logs_note }));
  }

  // capturesAt[t] lists the manifest's captures of turn t ([turn, taker,
  // other, cells]: the analysis's exchanges, by round).
  var capturesAt = null;
  function capturesOf(t) {
    if (!capturesAt) {
      capturesAt = [];
      (M.captures || []).forEach(function (c) { (capturesAt[c[0]] = capturesAt[c[0]] || []).push(c); });
    }
    return capturesAt[t] || [];
  }
  // roundCaptures says what the selected player took and lost in the
  // round that made turn t, and from and to whom.
  function roundCaptures(t) {
    if (t < 1) return;
    var took = [], lost = [];
    capturesOf(t).forEach(function (c) {
      if (c[1] === selected) took.push({ o: c[2], n: c[3] });
      else if (c[2] === selected) lost.push({ o: c[1], n: c[3] });
    });
    var p = el('p', { cls: 'hint exchanges', 'data-testid': 'round-exchanges' }, 'This round it ');
    function list(items, verb, prep) {
      p.appendChild(document.createTextNode(verb + ' '));
      if (!items.length) { p.appendChild(document.createTextNode('no cell')); return; }
      items.forEach(function (f, i) {
        if (i) p.appendChild(document.createTextNode(', '));
        var part = el('span', { cls: 'ex', 'data-other': String(f.o), 'data-cells': String(f.n) }, fmt(f.n) + ' ' + prep + ' ');
        if (f.o) part.appendChild(swatch(f.o));
        part.appendChild(document.createTextNode(f.o ? name(f.o) : 'unowned cells'));
        p.appendChild(part);
      });
    }
    list(took, 'took', 'from');
    p.appendChild(document.createTextNode(' and '));
    list(lost, 'lost', 'to');
    p.appendChild(document.createTextNode('.'));
    commandsPanel.appendChild(p);
  }

  function renderCommandList() {
    clear(commandsPanel);
    if (!M.has_commands) {
      commandsPanel.appendChild(el('p', { cls: 'hint', text: 'This ' + M.format + ' replay records states, not commands.' }));
      return;
    }
    if (!selected) {
      commandsPanel.appendChild(el('p', { cls: 'hint', text: 'Click a player to see its commands for this round.' }));
      return;
    }
    var t = turn, cmds = (M.commands[t] || [])[selected - 1] || [];
    var errs = {};
    (M.errors[t] || []).forEach(function (e) { if (e[0] === selected) errs[e[1]] = e[2]; });
    // Inferred commands (a .cfr) are marked as such, in the server's words.
    if (M.commands_inferred) commandsPanel.setAttribute('data-inferred', '');
    else commandsPanel.removeAttribute('data-inferred');
    // A player whose commands are not all listed (docs/viewer.md, limits):
    // its exact counts, and the listed ones are the first.
    var short = null;
    ((M.shortened && M.shortened[t]) || []).forEach(function (s) { if (s[0] === selected) short = s; });
    var total = short ? short[1] : cmds.length;
    // Commands[t] are those of the round that made turn t: the bot's reply
    // to turn t-1, acting in round t-1 → t (docs/replay-format.md).
    commandsPanel.appendChild(el('h3', null, swatch(selected), name(selected) + ': ' + total + ' command' + (total === 1 ? '' : 's') + (t > 0 ? ' in round ' + (t - 1) + ' → ' + t + ' (its reply to turn ' + (t - 1) + ')' : ' for turn 0')));
    // Over the game, the cells it took from whom (the analysis's
    // exchanges, summed by the server).
    var ex = M.exchanges && M.exchanges[selected - 1];
    if (ex) {
      var from = [];
      for (var o = 0; o < ex.length; o++) if (ex[o]) from.push({ o: o, n: ex[o] });
      from.sort(function (a, b) { return b.n - a.n || a.o - b.o; });
      if (from.length) {
        var p = el('p', { cls: 'hint exchanges', 'data-testid': 'exchanges' }, 'Over the game it took ');
        from.forEach(function (f, i) {
          if (i) p.appendChild(document.createTextNode(', '));
          p.appendChild(document.createTextNode(fmt(f.n) + ' from '));
          if (f.o) p.appendChild(swatch(f.o));
          p.appendChild(document.createTextNode(f.o ? name(f.o) : 'unowned cells'));
        });
        p.appendChild(document.createTextNode('.'));
        commandsPanel.appendChild(p);
      }
    }
    roundCaptures(t);
    if (M.commands_inferred) commandsPanel.appendChild(el('p', { cls: 'inferred', 'data-testid': 'inferred', text: M.commands_note }));
    if (M.unexplained && M.unexplained.indexOf(t) >= 0) { commandsPanel.appendChild(el('p', { cls: 'hint unexplained', text: M.unexplained_note })); return; }
    var more = short ? el('p', { cls: 'hint shortened', 'data-testid': 'shortened', text: (cmds.length ? '…and ' + (short[1] - cmds.length) + ' more' : 'None of them is listed') + '; ' + short[2] + ' of the ' + short[1] + ' failed. ' + (M.shortened_note || '') }) : null;
    if (!cmds.length) { commandsPanel.appendChild(more || el('p', { cls: 'hint', text: t === 0 ? 'Turn 0 is the map before the game.' : 'No commands this round.' })); return; }
    var ol = el('ol', { start: '0' });
    cmds.forEach(function (c, k) {
      var li = el('li', null, el('span', { cls: 'cmd', title: c, 'data-raw': c, text: describeCommand(c, t) }));
      if (errs[k] !== undefined) { li.className = 'failed'; li.appendChild(el('span', { cls: 'err', text: ' ✗ ' + (M.error_text[errs[k]] || 'error ' + errs[k]) })); }
      ol.appendChild(li);
    });
    commandsPanel.appendChild(ol);
    if (more) commandsPanel.appendChild(more);
  }

  // describeCommand words a command of round t-1 → t from its protocol
  // text c (docs/bot-protocol.md), the buildings named as the server names
  // them (M.buildings): "attack (27, 19) with 1725 energy", "build gold
  // mine at (7, 8)", "upgrade (3, 4) to level 2" (the cell's level at turn
  // t-1, plus one). Text it does not recognise is shown as it is; the
  // panel keeps the raw text on hover. The one place commands are worded.
  function describeCommand(c, t) {
    var f = String(c).trim().split(/\s+/), num = /^-?\d+$/;
    if (f.length < 3 || !num.test(f[1]) || !num.test(f[2])) return c;
    var x = +f[1], y = +f[2], at = '(' + x + ', ' + y + ')';
    if (f[0] === 'a' && f.length === 4 && num.test(f[3])) return 'attack ' + at + ' with ' + f[3] + ' energy';
    if (f[0] === 'b' && f.length === 4) {
      for (var k = 1; k < LETTER.length; k++) if (LETTER[k] && LETTER[k].toLowerCase() === f[3]) return 'build ' + BUILDING[k] + ' at ' + at;
      return 'build "' + f[3] + '" (no such building) at ' + at;
    }
    if (f[0] === 'u' && f.length === 3) {
      var on = t > 0 && x >= 0 && y >= 0 && x < W && y < H;
      var lvl = on ? get('level', t - 1, y * W + x) : 0;
      return 'upgrade ' + at + (lvl > 0 ? ' to level ' + (lvl + 1) : '');
    }
    return c;
  }
  api.describeCommand = describeCommand;

  var eventRows = [];
  var eventList = null, marks = null, lastCurrent = null, lastAt = null;
  function buildEvents() {
    clear(eventsPanel);
    eventRows = [];
    lastCurrent = null; lastAt = null; scrolled = false;
    if (!shownKinds) {
      // true: all shown; a number: those up to that turn (the lead
      // changes of the opening, until the box is used); false: none.
      shownKinds = {};
      (M.event_kinds || []).forEach(function (k) { shownKinds[k.kind] = k.shown || k.shown_until || false; });
    }
    eventsPanel.appendChild(el('h3', { text: 'Events' }));
    // The filter: one box a kind that this game has, with its count.
    var count = {};
    M.events.forEach(function (e) { count[e.kind] = (count[e.kind] || 0) + 1; });
    var filter = el('div', { cls: 'ev-filter', 'data-testid': 'event-filter' });
    (M.event_kinds || []).forEach(function (k) {
      if (!count[k.kind]) return;
      var box = el('input', { type: 'checkbox', 'data-kind': k.kind });
      var until = typeof shownKinds[k.kind] === 'number' ? shownKinds[k.kind] : 0;
      box.checked = shownKinds[k.kind] === true;
      box.indeterminate = until > 0;
      box.addEventListener('change', function () {
        shownKinds[k.kind] = box.checked;
        box.blur();
        buildEvents();
        markEvents();
      });
      filter.appendChild(el('label', { cls: 'ev-kind kind-' + k.kind, title: until ? 'Those up to turn ' + until + ' are listed; check for all' : '' }, box, ' ' + k.title + ' (' + count[k.kind] + ')',
        until ? el('span', { cls: 'ev-until', 'data-testid': 'ev-until', text: ' to turn ' + until }) : null));
    });
    eventsPanel.appendChild(filter);
    // The turning points first (the analysis's: spending surges, lead
    // swings with what each side did, the lead for good), whatever the
    // filter, so a reader finds them without scrolling past the churn.
    var tps = M.events.filter(function (e) { return e.turning; });
    if (tps.length) {
      var tp = el('ol', { cls: 'turning-points', 'data-testid': 'turning-points', 'aria-label': 'Turning points' });
      tps.forEach(function (e) {
        var li = el('li', { cls: 'tp tp-' + e.kind, 'data-turn': String(e.turn) }, el('span', { cls: 'ev-turn', text: String(e.turn) }), ' ', swatch(slotOf(e.uid)), el('span', { cls: 'ev-text', text: e.text }));
        if (e.explain) li.appendChild(el('div', { cls: 'tp-explain', text: e.explain }));
        li.addEventListener('click', function () { pause(); seek(e.turn); });
        tp.appendChild(li);
      });
      eventsPanel.appendChild(el('h4', { cls: 'tp-head', text: 'Turning points' }));
      eventsPanel.appendChild(tp);
      eventsPanel.appendChild(el('h4', { cls: 'tp-head', text: 'All events' }));
    }
    var ol = eventList = el('ol', { cls: 'event-list' });
    M.events.forEach(function (e) {
      if (!eventShown(e)) return;
      var li = el('li', { cls: 'ev ev-' + e.kind, 'data-turn': String(e.turn) }, el('span', { cls: 'ev-turn', text: String(e.turn) }), ' ', swatch(slotOf(e.uid)), el('span', { cls: 'ev-text', text: e.text }));
      li.addEventListener('click', function () { pause(); seek(e.turn); });
      ol.appendChild(li);
      eventRows.push(li);
    });
    if (!eventRows.length) ol.appendChild(el('li', { cls: 'hint', text: 'No events.' }));
    eventsPanel.appendChild(ol);
    buildMarks();
  }
  function eventShown(e) {
    var k = shownKinds[e.kind];
    return k === true || (typeof k === 'number' && e.turn <= k);
  }
  // buildMarks puts a mark under the scrubber at each shown event's turn.
  function buildMarks() {
    if (!marks) {
      marks = el('div', { cls: 'marks', 'data-testid': 'marks', 'aria-hidden': 'true' });
      scrubber.parentNode.insertBefore(marks, scrubber.nextSibling);
    }
    clear(marks);
    var seen = {};
    var last = Math.max(1, F - 1);
    M.events.forEach(function (e) {
      if (!eventShown(e) || seen[e.kind + ' ' + e.turn]) return;
      seen[e.kind + ' ' + e.turn] = true;
      var m = el('span', { cls: 'mark mk-' + e.kind, 'data-turn': String(e.turn), title: e.turn + ': ' + e.text });
      m.style.left = (100 * e.turn / last) + '%';
      m.style.background = color(slotOf(e.uid));
      marks.appendChild(m);
    });
  }
  // markEvents marks the events of this turn, and scrolls the list (not
  // the page) to the last event at or before it.
  function markEvents() {
    if (lastCurrent) for (var i = 0; i < lastCurrent.length; i++) lastCurrent[i].classList.remove('now');
    lastCurrent = eventsPanel.querySelectorAll('li[data-turn="' + turn + '"]');
    for (var j = 0; j < lastCurrent.length; j++) lastCurrent[j].classList.add('now');
    var at = null;
    for (var k = 0; k < eventRows.length; k++) {
      if (+eventRows[k].getAttribute('data-turn') > turn) break;
      at = eventRows[k];
    }
    if (lastAt === at && scrolled) return;
    if (lastAt) lastAt.classList.remove('at');
    lastAt = at;
    if (at) at.classList.add('at');
    // Scroll at the next frame: reading the layout here would force it in
    // the middle of every seek.
    if (!scrollPending) { scrollPending = true; requestAnimationFrame(scrollEvents); }
  }
  var scrollPending = false, scrolled = false;
  function scrollEvents() {
    scrollPending = false;
    scrolled = true;
    var target = lastAt || eventRows[0];
    if (!target || !eventList || !target.isConnected) return;
    var top = target.offsetTop, h = eventList.clientHeight;
    if (top < eventList.scrollTop || top + target.offsetHeight > eventList.scrollTop + h) eventList.scrollTop = Math.max(0, top - h / 3);
  }

  function buildLegend() {
    clear(legend);
    for (var s = 1; s <= P; s++) {
      var item = el('span', { cls: 'item player' + (s === selected ? ' selected' : ''), 'data-slot': String(s) }, swatch(s), name(s));
      item.title = (M.players[s - 1].bot ? 'bot: ' + M.players[s - 1].bot + ' · ' : '') + 'click to highlight';
      legend.appendChild(item);
    }
    legend.appendChild(el('span', { cls: 'item' }, swatch(0), 'unowned'));
    var key = [];
    for (var b = 1; b < M.buildings.length; b++) key.push(M.buildings[b].letter + ' ' + M.buildings[b].name);
    legend.appendChild(el('span', { cls: 'item key', text: key.join(' · ') + ' (dots: level) · a home is framed in black on its owner\'s colour · yellow corner: captured this round' }));
    var box = el('input', { type: 'checkbox', id: 'buildings-toggle' });
    box.checked = showBuildings;
    box.addEventListener('change', function () { setBuildings(box.checked); box.blur(); });
    legend.appendChild(el('label', { cls: 'item key', title: 'Show the mines, wells and fortresses (B)' }, box, ' buildings'));
  }

  // ---- charts ------------------------------------------------------------
  // The charts' options come from the server (analysis series), never
  // from the frames: the page's own, then a live game's newer ones.
  // A served page fetches them from data-charts once the first frame is
  // drawn (null until then); an exported page has them inline.
  var chartsJSON = document.getElementById('rw-charts');
  var chartSpecs = chartsJSON ? JSON.parse(chartsJSON.textContent || '[]') : null;
  // Ticks and labels at round turns (the shell's roundTick).
  var roundTick = RewindShell.roundTick(function () { return F; });
  var AXIS = { axisLabel: { interval: roundTick }, axisTick: { interval: roundTick, alignWithLabel: true } };

  // Legends are linked: a player hidden in one chart is hidden in all
  // (hidden[label]); the player selected in the panel is highlighted.
  var hidden = {};
  var linking = false;
  function label(slot) { return M.players[slot - 1].label || M.players[slot - 1].name; }
  function legendState() {
    var sel = {};
    for (var s = 1; s <= P; s++) sel[label(s)] = !hidden[label(s)];
    return sel;
  }
  function syncLegends() {
    linking = true;
    var sel = legendState();
    charts.forEach(function (c) { c.chart.setOption({ legend: { selected: sel } }); });
    linking = false;
  }
  function highlightCharts() {
    charts.forEach(function (c) {
      c.chart.dispatchAction({ type: 'downplay' });
      if (selected) c.chart.dispatchAction({ type: 'highlight', seriesName: label(selected) });
    });
  }
  function addChart(id, div, option) {
    var c = shell.chart(div, option), chart = c.chart; // its cursor, a click seeks
    c.id = id;
    chart.setOption({ xAxis: AXIS, dataZoom: [{ type: 'inside', xAxisIndex: 0 }], legend: { selected: legendState() } });
    // A click on a legend (legendselectchanged) or an action
    // (legendselected, legendunselected): the same change everywhere.
    ['legendselectchanged', 'legendselected', 'legendunselected'].forEach(function (kind) {
      chart.on(kind, function (ev) {
        if (linking || !ev.selected) return;
        hidden[ev.name] = !ev.selected[ev.name];
        syncLegends();
      });
    });
    chart.on('datazoom', function () { moveCursors(); });
    charts.push(c);
    return c;
  }
  // loadCharts runs ECharts (inline in an exported page, else fetched
  // from data-echarts now), then builds the charts.
  function loadCharts() {
    if (!chartSpecs && chartsURL) {
      fetchChartSpecs().then(function (specs) { chartSpecs = chartSpecs || specs; }, function (err) {
        chartSpecs = chartSpecs || [];
        api.chartsError = String(err && err.message || err);
      }).then(loadCharts);
      return;
    }
    var src = root.getAttribute('data-echarts');
    if (window.echarts || !src) { initCharts(); return; }
    var js = document.createElement('script');
    js.src = src;
    js.onload = initCharts;
    document.head.appendChild(js);
  }
  function initCharts() {
    if (!window.echarts || charts.length || !M) return;
    buildStats();
    (chartSpecs || []).forEach(function (spec) {
      var div = document.querySelector('[data-chart="' + spec.id + '"]');
      if (!div) { // a shell page (data-shell) names no chart: one div each
        var host = document.querySelector('.charts');
        if (!host) return;
        div = host.appendChild(el('div', { cls: 'chart', id: 'chart-' + spec.id, 'data-chart': spec.id, 'data-testid': 'chart' }));
      }
      addChart(spec.id, div, spec.option);
    });
    api.chartsReady = true;
    moveCursors();
  }

  // ---- the stats chart ---------------------------------------------------
  // One chart, its series picked among the manifest's stats: the frames'
  // values and the analysis's series columns (docs/viewer.md), never
  // computed here. Linear or log scale, zoom, PNG and CSV export.
  var stat = null, statLog = false;
  function statValue(field, t, s) { return user[field][t * P + s - 1]; }
  function statTitle() {
    for (var i = 0; i < M.stats.length; i++) if (M.stats[i].field === stat.field) return M.stats[i].title;
    return stat.field;
  }
  function statOption() {
    var cats = [], series = [];
    for (var t = 1; t < F; t++) cats.push(t);
    for (var s = 1; s <= P; s++) {
      var data = [];
      for (var u = 1; u < F; u++) {
        var v = statValue(stat.field, u, s);
        data.push(statLog && v <= 0 ? null : v);
      }
      series.push({ type: 'line', name: label(s), data: data, showSymbol: false, color: color(s), emphasis: { focus: 'series' } });
    }
    return {
      animation: false,
      title: { text: statTitle() },
      tooltip: { trigger: 'axis' },
      legend: { top: 30, type: 'scroll', selected: legendState() },
      grid: { top: 70, bottom: 60, left: 10, right: 40, containLabel: true },
      xAxis: { type: 'category', name: 'turn', data: cats },
      yAxis: statLog ? { type: 'log', logBase: 10 } : { type: 'value' },
      dataZoom: [{ type: 'inside', xAxisIndex: 0 }, { type: 'slider', xAxisIndex: 0, height: 18, bottom: 8 }],
      series: series
    };
  }
  function drawStat() {
    stat.c.chart.setOption(statOption(), { replaceMerge: ['series', 'yAxis'] });
    stat.c.chart.setOption({ xAxis: AXIS });
    stat.c.rect = null;
    moveCursors();
  }
  function download(name, url) {
    var a = el('a', { href: url, download: name });
    document.body.appendChild(a);
    a.click();
    a.remove();
  }
  // statCSV is the picked series as `rewind analyze --format csv` writes
  // it: turn,uid,<column>, turn-major, for the players shown.
  function statCSV() {
    var lines = ['turn,uid,' + stat.field];
    for (var t = 1; t < F; t++) for (var s = 1; s <= P; s++) {
      if (hidden[label(s)]) continue;
      lines.push(t + ',' + M.players[s - 1].uid + ',' + statValue(stat.field, t, s));
    }
    return lines.join('\n') + '\n';
  }
  function buildStats() {
    var host = document.querySelector('.charts');
    if (!host || !M.stats || !M.stats.length) return;
    var pick = el('select', { id: 'stat', title: 'Series' });
    M.stats.forEach(function (st) { if (user[st.field]) pick.appendChild(el('option', { value: st.field, text: st.title })); });
    var log = el('input', { type: 'checkbox', id: 'stat-log' });
    var png = el('button', { type: 'button', id: 'stat-png', title: 'The chart as a PNG image' }, 'PNG');
    var csv = el('button', { type: 'button', id: 'stat-csv', title: 'The series as CSV, as rewind analyze --format csv writes it' }, 'CSV');
    var bar = el('div', { cls: 'stat-bar' }, el('label', null, 'series ', pick), el('label', null, log, ' log scale'), png, csv);
    var div = el('div', { cls: 'chart stat-chart', id: 'chart-stat', 'data-testid': 'stat-chart' });
    var box = el('div', { cls: 'stat-box' }, bar, div);
    host.insertBefore(box, host.firstChild);
    stat = { field: pick.value, c: null };
    stat.c = addChart('stat', div, statOption());
    pick.addEventListener('change', function () { stat.field = pick.value; pick.blur(); drawStat(); });
    log.addEventListener('change', function () { statLog = log.checked; log.blur(); drawStat(); });
    png.addEventListener('click', function () {
      download('rewind-' + stat.field + '.png', stat.c.chart.getDataURL({ type: 'png', pixelRatio: 2, backgroundColor: '#fff' }));
      png.blur();
    });
    csv.addEventListener('click', function () {
      var url = URL.createObjectURL(new Blob([statCSV()], { type: 'text/csv' }));
      download('rewind-' + stat.field + '.csv', url);
      setTimeout(function () { URL.revokeObjectURL(url); }, 1000);
      csv.blur();
    });
  }
  // legendSelect(chart, name, on) clicks a legend entry of one chart.
  api.legendSelect = function (id, nm, on) {
    charts.forEach(function (c) { if (c.id === id) c.chart.dispatchAction({ type: on ? 'legendSelect' : 'legendUnSelect', name: nm }); });
  };
  api.statCSV = function () { return stat ? statCSV() : ''; };
  api.pickStat = function (field, logScale) {
    var pick = document.getElementById('stat');
    pick.value = field; pick.dispatchEvent(new Event('change'));
    var log = document.getElementById('stat-log');
    if (log.checked !== !!logScale) { log.checked = !!logScale; log.dispatchEvent(new Event('change')); }
  };
  api.chartState = function () {
    return charts.map(function (c) {
      var o = c.chart.getOption();
      return { id: c.id, selected: (o.legend && o.legend[0] && o.legend[0].selected) || {}, yType: o.yAxis && o.yAxis[0] && o.yAxis[0].type, title: o.title && o.title[0] && o.title[0].text, names: (o.series || []).map(function (x) { return x.name; }) };
    });
  };
  function setCharts(specs) {
    chartSpecs = specs;
    specs.forEach(function (spec) {
      for (var i = 0; i < charts.length; i++) {
        if (charts[i].id !== spec.id) continue;
        charts[i].chart.setOption(spec.option);
        charts[i].chart.setOption({ xAxis: AXIS, legend: { selected: legendState() } });
        charts[i].rect = null;
      }
    });
    moveCursors();
  }
  function moveCursors() {
    for (var i = 0; i < charts.length; i++) charts[i].move(turn);
  }

  // ---- navigation --------------------------------------------------------
  // showTurn shows turn t (the shell's seek: clamped, in the address).
  function showTurn(t) {
    expand(t);
    turn = t;
    draw();
    renderPlayers();
    renderInspector();
    renderCommands();
    markEvents();
    moveCursors();
    if (forkButton) forkButton.disabled = forking || t < 1 || t >= F - 1;
  }

  function jumpEvent(dir) {
    pause();
    var target = null;
    for (var i = 0; i < keyEvents.length; i++) {
      var e = keyEvents[dir > 0 ? i : keyEvents.length - 1 - i];
      if ((dir > 0 && e > turn) || (dir < 0 && e < turn)) { target = e; break; }
    }
    if (target !== null) seek(target);
  }

  function setOverlay(v) {
    overlay = v;
    overlaySelect.value = v;
    draw();
    drawScale();
  }
  function setBuildings(on) {
    showBuildings = on;
    var box = document.getElementById('buildings-toggle');
    if (box) box.checked = on;
    draw();
  }
  // drawScale shows the overlay's colour scale: its range, low to high.
  var scaleBox = null;
  function drawScale() {
    if (!scaleBox) {
      scaleBox = el('div', { cls: 'scale', 'data-testid': 'overlay-scale' });
      legend.parentNode.insertBefore(scaleBox, legend);
    }
    clear(scaleBox);
    scaleBox.hidden = !overlay;
    if (!overlay) return;
    heatRGB(overlay, 0);
    var r = overlayRange[overlay], stops = [];
    for (var i = 0; i <= 4; i++) {
      var c = heatRGB(overlay, r[0] + (r[1] - r[0]) * i / 4);
      stops.push('rgb(' + Math.round(c[0]) + ',' + Math.round(c[1]) + ',' + Math.round(c[2]) + ')');
    }
    var bar = el('span', { cls: 'scale-bar' });
    bar.style.background = 'linear-gradient(to right, ' + stops.join(', ') + ')';
    scaleBox.appendChild(el('span', { cls: 'scale-name', text: overlaySelect.options[overlaySelect.selectedIndex].text }));
    scaleBox.appendChild(el('span', { cls: 'scale-lo', text: fmt(r[0]) }));
    scaleBox.appendChild(bar);
    scaleBox.appendChild(el('span', { cls: 'scale-hi', text: fmt(r[1]) }));
  }

  // gameKey takes the page's own keys (the shell has the playback's).
  function gameKey(e) {
    switch (e.key) {
      case 'n': case 'N': jumpEvent(1); return true;
      case 'p': case 'P': jumpEvent(-1); return true;
      case 'o': case 'O': {
        var opts = overlaySelect.options, i = overlaySelect.selectedIndex;
        setOverlay(opts[(i + 1) % opts.length].value);
        return true;
      }
      case 'b': case 'B': setBuildings(!showBuildings); return true;
      case 'e': nextError(1); return true;
      case 'E': nextError(-1); return true;
    }
    return false;
  }

  function cellAt(ev) {
    var r = canvas.getBoundingClientRect();
    var x = Math.floor((ev.clientX - r.left) / size), y = Math.floor((ev.clientY - r.top) / size);
    return x >= 0 && y >= 0 && x < W && y < H ? y * W + x : -1;
  }

  // "Play on from here" first shows the seats: each player with the bot
  // that played it and a choice of the bots the server offers (GET
  // /api/fork/bots: the built-ins and the bots it was started with),
  // preselected to the seat's own bot. "Play" POSTs the replay's id, the
  // current turn and the choices in uid order; the server plays a new
  // game on from there and answers where it is, which the page opens.
  var forkForm = null;
  function playOn() {
    if (forking || !forkButton) return;
    pause();
    if (forkForm) { forkForm.remove(); forkForm = null; return; }
    forkStatus.className = 'fork-status';
    forkStatus.textContent = 'Asking the server which bots can play…';
    fetch(forkButton.getAttribute('data-url') + '/bots', { credentials: 'same-origin' }).then(function (res) {
      return res.json();
    }).then(function (r) {
      if (!r.choices) throw new Error(r.error || 'the server offers no bots');
      forkStatus.textContent = '';
      showSeats(r.choices);
    }).catch(function (err) {
      forkStatus.className = 'fork-status bad';
      forkStatus.textContent = String(err && err.message || err);
    });
  }

  function showSeats(choices) {
    var builtins = choices.filter(function (c) { return c.id === c.bot && c.id.indexOf(':') < 0; });
    var seats = M.players.slice().sort(function (a, b) { return a.uid - b.uid; });
    forkForm = el('form', { cls: 'fork-seats', 'data-testid': 'fork-seats' });
    var table = el('table');
    table.appendChild(el('tr', null, el('th', { text: 'seat' }), el('th', { text: 'played by' }), el('th', { text: 'plays on with' })));
    seats.forEach(function (p, i) {
      var sel = el('select', { 'data-uid': String(p.uid), 'aria-label': 'bot of ' + p.name });
      var own = choices.filter(function (c) { return p.bot && c.bot === p.bot; })[0];
      var pick = own || builtins[i % builtins.length] || choices[0];
      choices.forEach(function (c) {
        var o = el('option', { value: c.id, text: c.label });
        if (c === pick) o.selected = true;
        sel.appendChild(o);
      });
      table.appendChild(el('tr', null,
        el('td', null, swatchOf(p.uid), el('span', { text: ' ' + p.name })),
        el('td', { text: p.no_log ? 'the official client' : (p.bot || 'not recorded') }),
        el('td', null, sel)));
    });
    forkForm.appendChild(table);
    var go = el('button', { type: 'submit', id: 'fork-go', text: 'play on from turn ' + turn });
    forkForm.appendChild(go);
    forkForm.addEventListener('submit', function (ev) { ev.preventDefault(); submitFork(); });
    forkStatus.parentNode.appendChild(forkForm);
  }

  function swatchOf(uid) {
    var slot = 0;
    M.players.forEach(function (p, i) { if (p.uid === uid) slot = i + 1; });
    return swatch(slot);
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
      // The new game opens where it leaves its parent.
      location.assign(r.url + '#turn=' + t);
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
    overlaySelect.addEventListener('change', function () { setOverlay(overlaySelect.value); overlaySelect.blur(); });
    canvas.addEventListener('mousemove', function (ev) {
      var i = cellAt(ev);
      if (i === hover) return;
      hover = i;
      if (pinned < 0) { draw(); renderInspector(); }
    });
    canvas.addEventListener('mouseleave', function () {
      hover = -1;
      if (pinned < 0) { draw(); renderInspector(); }
    });
    canvas.addEventListener('click', function (ev) {
      var i = cellAt(ev);
      pinned = pinned === i ? -1 : i;
      draw();
      renderInspector();
    });
    legend.addEventListener('click', function (ev) {
      var it = ev.target.closest('.item.player');
      if (!it) return;
      var s = parseInt(it.getAttribute('data-slot'), 10);
      select(selected === s ? 0 : s);
    });
    playersTable.addEventListener('click', function (ev) {
      var tr = ev.target.closest('tr[data-slot]');
      if (!tr) return;
      var s = parseInt(tr.getAttribute('data-slot'), 10);
      select(selected === s ? 0 : s);
    });
  }

  function start(buf) {
    performance.mark('rw-data'); // the blob is here (the benchmark's timeline)
    parse(buf);
    performance.mark('rw-parsed');
    scrubber.max = String(F - 1);
    if (M.has_commands && P) selected = 0;
    layout();
    buildLegend();
    buildEvents();
    wire();
    // Without #turn=N, open on turn 1: turn 0 is the map before anyone
    // joined; a live game opens on its newest round.
    var t = shell.hashTurn();
    seek(t === null ? (live ? F - 1 : Math.min(1, F - 1)) : t);
    shell.loaded();
    performance.mark('rw-first-frame');
    api.ready = true;
    setTimeout(function () { expand(F - 1); }, 0); // the other frames, once the first is on screen
    // Charts come after the first frame is on screen: ECharts (1 MB of
    // script) is fetched and run only then, so the board never waits for it.
    var later = function () { requestAnimationFrame(function () { setTimeout(loadCharts, 0); }); };
    if (document.readyState === 'complete') later(); else window.addEventListener('load', later);
    if (live) follow();
  }

  // ---- live games --------------------------------------------------------
  // The server sends an event per new round it has packed (followers skip
  // to the newest); the page then fetches the game so far and takes it in:
  // at the live edge the view follows the newest round, otherwise it stays
  // where the user is while the scrubber's range grows.
  function follow() {
    if (!window.EventSource) return;
    var es = new EventSource(eventsURL);
    es.addEventListener('round', function (ev) { announce(JSON.parse(ev.data)); });
    es.addEventListener('done', function (ev) {
      es.close();
      announce(JSON.parse(ev.data));
    });
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
    if (link) { liveStatus.appendChild(document.createTextNode(' ')); liveStatus.appendChild(el('a', { href: link, text: linkText })); }
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
      say('The game is over after ' + g.turn + ' rounds.', g.replay, 'Open the finished replay');
      refreshLive(); // the whole game, with its final standings
    } else {
      say('Live: turn ' + g.turn + ' of ' + g.max_turn + '.');
      if (g.turn > F - 1) refreshLive();
    }
  }
  // refreshLive fetches the game so far; one fetch at a time, and one more
  // after it if rounds came meanwhile.
  function refreshLive() {
    if (live.fetching) { live.again = true; return; }
    live.fetching = true;
    live.again = false;
    Promise.all([fetchBuffer(root.getAttribute('data-src')), fetchChartSpecs()]).then(function (r) {
      extend(r[0]);
      setCharts(r[1]);
      live.updates++;
    }).catch(function (err) {
      say('Cannot take in the new rounds: ' + String(err && err.message || err));
    }).then(function () {
      live.fetching = false;
      if (live.again) refreshLive();
    });
  }
  function fetchChartSpecs() {
    return fetch(chartsURL).then(function (res) {
      if (!res.ok) return res.text().then(function (t) { throw new Error(t || res.statusText); });
      return res.json();
    });
  }
  // extend takes in a newer blob of the same game.
  function extend(buf) {
    var edge = turn >= F - 1;
    parse(buf);
    scrubber.max = String(F - 1);
    layout();
    buildLegend();
    buildEvents();
    if (stat && stat.c) drawStat();
    seek(edge && !shell.playing() ? F - 1 : turn);
  }

  performance.mark('rw-script'); // the script ran, the blob is asked for (the benchmark's timeline)
  shell.load(root).then(start).catch(shell.fail);
})();
