// rewind Monad replay page: the Monad-only page beside the generic one
// (static/monad.js is Monad's board script for the generic page). Loads
// the packed frames of one Monad replay (viewer/monad.go: an "RWM1" blob)
// once, then draws any turn of the hex board from typed arrays with no
// further request. The charts and the events are the analysis's (the
// manifest's series and events), never computed here; the moves' targets
// are the engine's (packed), so no rule of the game is repeated in this
// file. Everything that comes from the replay (player names above all)
// is put in the page as text, never as HTML.
(function () {
  'use strict';

  var root = document.getElementById('monad');
  if (!root) return;
  performance.mark('rw-script');

  // ---- state -------------------------------------------------------------
  var M = null;            // manifest
  var cell = {};           // cell field -> typed array (frames × cells)
  var stat = {};           // player field -> Float64Array (frames × players)
  var mv = null;           // {start, rec, count}
  var W = 0, H = 0, N = 0, P = 0, F = 0;
  var turn = 0, showMoves = true;
  var hover = -1, pinned = -1, selected = -1; // cell indexes; player (0-based)
  var series = 0;          // index of the charted series in M.series
  var chart = null, mc = null; // the chart (the shell's: mc.chart), once made
  var dark = RewindShell.dark; // the system's (prefers-color-scheme)
  var EMPTY = dark ? '#2b2c31' : '#efece4';
  var RICH = dark ? [122, 106, 46] : [214, 190, 92]; // a cell full of resource
  var BASE = dark ? [43, 44, 49] : [239, 236, 228];
  var SQRT3 = Math.sqrt(3);

  var canvas = document.getElementById('board');
  var ctx = canvas.getContext('2d');
  var movesBox = document.getElementById('show-moves');
  var inspector = document.getElementById('inspector');
  var playersTable = document.getElementById('players');
  var movesPanel = document.getElementById('moves');
  var eventsPanel = document.getElementById('events');
  var legend = document.getElementById('legend');
  var picker = document.getElementById('stat');
  var chartDiv = document.getElementById('chart-stat');

  // The API the tests drive: window.rewind.seek(t) and friends.
  var api = window.rewind = {
    game: 'monad',
    ready: false,
    error: null,
    chartsReady: false,
    seek: function (t) { seek(t); },
    turn: function () { return turn; },
    frames: function () { return F; },
    players: function () { return M ? M.players.slice() : []; },
    // owner(t, x, y) and hive(t, x, y) are a player (0-based) or -1.
    owner: function (t, x, y) { return cget('owner', t, y * W + x) - 1; },
    hive: function (t, x, y) { return cget('hive', t, y * W + x) - 1; },
    units: function (t, x, y) { return cget('units', t, y * W + x); },
    resource: function (t, x, y) { return cget('resource', t, y * W + x); },
    color: function (p) { return color(p); },
    // hivePoint(x, y) is the canvas pixel at the middle of the cell's
    // hive mark, which is filled with the hive owner's colour.
    hivePoint: function (x, y) { var c = center(x, y); return [Math.round(c[0] * dpr), Math.round((c[1] - 0.42 * R) * dpr)]; },
    moves: function (t) { return movesOf(t); },
    playing: function () { return shell.playing(); },
    seriesNames: function () { return M ? M.series.map(function (s) { return s.name; }) : []; },
    pickSeries: function (name) {
      picker.value = name;
      picker.dispatchEvent(new Event('change'));
    },
    chartState: function () {
      if (!chart) return null;
      var o = chart.getOption();
      return { title: o.title && o.title[0] && o.title[0].text, names: (o.series || []).map(function (s) { return s.name; }), lengths: (o.series || []).map(function (s) { return s.data.length; }) };
    }
  };

  // ---- the shell (shell.js: the chrome every game's page shares) -------
  var el = RewindShell.el, clear = RewindShell.clear, fmt = RewindShell.fmt;
  var shell = RewindShell({
    frames: function () { return M ? F : 0; },
    onTurn: showTurn,
    keys: function (e) {
      if (e.key !== 'm' && e.key !== 'M') return false;
      setShowMoves(!showMoves);
      return true;
    },
    onEscape: function () { if (pinned >= 0) { pinned = -1; draw(); renderInspector(); } },
    onResize: function () {
      layout(); draw();
      if (chart) { chart.resize(); mc.rect = null; moveCursor(); }
    }
  });
  function seek(t) { shell.seek(t); }
  function pause() { shell.pause(); }

  function color(p) { return p >= 0 ? M.palette[p % M.palette.length] : EMPTY; }
  function swatch(p) { var s = el('span', { cls: 'swatch' }); s.style.background = color(p); return s; }
  function name(p) { return p >= 0 ? M.players[p].name : 'nobody'; }

  // ---- data --------------------------------------------------------------
  var TYPES = { u8: Uint8Array, u16: Uint16Array, i32: Int32Array, f64: Float64Array };

  function parse(buf) {
    performance.mark('rw-data'); // the blob is here (the benchmark's timeline)
    var head = new Uint8Array(buf, 0, 8);
    if (String.fromCharCode(head[0], head[1], head[2], head[3]) !== 'RWM1') throw new Error('not a rewind Monad blob');
    var dv = new DataView(buf), off = dv.getUint32(4, true), n = dv.getUint32(8, true);
    M = JSON.parse(new TextDecoder().decode(new Uint8Array(buf, off, n)));
    M.series = M.series || []; M.events = M.events || [];
    W = M.width; H = M.height; N = W * H; F = M.frames; P = M.players.length;
    var arrays = {};
    deltas = []; expanded = 0;
    M.fields.forEach(function (f) {
      var arr = new TYPES[f.type](buf, f.offset, f.length);
      if (f.delta) deltas.push(arr); // frame t holds its difference from frame t-1 (expand)
      arrays[f.name + ':' + f.kind] = arr;
      if (f.kind === 'cell') cell[f.name] = arr;
      else if (f.kind === 'player') stat[f.name] = arr;
    });
    mv = { start: arrays['move_start:move'], rec: arrays['moves:move'], count: arrays['move_count:move'] };
  }

  // expand makes the delta fields' frames up to frame t whole (each the
  // one before plus its difference; typed arrays wrap as the packer did).
  // The first frame needs only the first frames; the rest follow once it
  // is drawn.
  var deltas = [], expanded = 0;
  function expand(t) {
    if (t <= expanded) return;
    t = Math.min(t, F - 1);
    deltas.forEach(function (arr) {
      for (var i = (expanded + 1) * N, end = (t + 1) * N; i < end; i++) arr[i] += arr[i - N];
    });
    expanded = t;
  }
  function cget(field, t, i) { if (t > expanded) expand(t); return cell[field][t * N + i]; }

  function pget(field, t, p) { return stat[field][t * P + p]; }

  // movesOf lists frame t's packed moves (the turn that led to it).
  function movesOf(t) {
    var out = [];
    for (var i = mv.start[t]; i < mv.start[t + 1]; i++) {
      var r = mv.rec, o = i * 8;
      out.push({ player: r[o], x: r[o + 1], y: r[o + 2], tx: r[o + 3] - 1, ty: r[o + 4] - 1, kind: r[o + 5], code: r[o + 6], implicit: r[o + 7] === 1, count: mv.count[i] });
    }
    return out;
  }

  // ---- board -------------------------------------------------------------
  // Pointy-top hexagons of radius R; even rows are shifted right by half
  // a cell (the engine's even-r layout, monad.Neighbor).
  var R = 14, dpr = 1, PAD = 4;

  function center(x, y) {
    var cw = SQRT3 * R;
    return [PAD + cw * (x + 0.5 + (y % 2 === 0 ? 0.5 : 0)), PAD + R + 1.5 * R * y];
  }

  function layout() {
    var wrap = canvas.parentNode;
    var avail = Math.max(240, Math.min(wrap.clientWidth || 600, 900));
    R = Math.max(7, Math.floor(((avail - 2 * PAD) / ((W + 0.5) * SQRT3)) * 10) / 10);
    var cssW = Math.ceil(2 * PAD + (W + 0.5) * SQRT3 * R), cssH = Math.ceil(2 * PAD + 1.5 * R * (H - 1) + 2 * R);
    dpr = window.devicePixelRatio || 1;
    canvas.style.width = cssW + 'px';
    canvas.style.height = cssH + 'px';
    canvas.width = Math.round(cssW * dpr);
    canvas.height = Math.round(cssH * dpr);
  }

  function hexPath(cx, cy, r) {
    ctx.beginPath();
    for (var k = 0; k < 6; k++) {
      var a = Math.PI / 180 * (60 * k - 90);
      var px = cx + r * Math.cos(a), py = cy + r * Math.sin(a);
      if (k === 0) ctx.moveTo(px, py); else ctx.lineTo(px, py);
    }
    ctx.closePath();
  }

  function resourceShade(v) {
    var f = Math.max(0, Math.min(1, v / 50));
    return 'rgb(' + [0, 1, 2].map(function (k) { return Math.round(BASE[k] + (RICH[k] - BASE[k]) * f); }).join(',') + ')';
  }

  function textColor(hex) {
    var r = parseInt(hex.substr(1, 2), 16), g = parseInt(hex.substr(3, 2), 16), b = parseInt(hex.substr(5, 2), 16);
    return (0.299 * r + 0.587 * g + 0.114 * b) > 150 ? '#111' : '#fff';
  }

  function draw() {
    if (!M) return;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    var t = turn, base = t * N;
    var fontPx = Math.max(8, Math.round(R * 0.62)), lastFont = '';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    for (var y = 0; y < H; y++) {
      for (var x = 0; x < W; x++) {
        var i = y * W + x, c = center(x, y);
        var owner = cell.owner[base + i] - 1, hive = cell.hive[base + i] - 1;
        var res = cell.resource[base + i], units = cell.units[base + i];
        // The ground: shaded by the resource left.
        hexPath(c[0], c[1], R - 0.5);
        ctx.fillStyle = resourceShade(res);
        ctx.fill();
        if (owner >= 0) {
          // Units: the owner's colour, the cell's resource a band below.
          hexPath(c[0], c[1], R * 0.86);
          ctx.fillStyle = color(owner);
          ctx.globalAlpha = selected >= 0 && owner !== selected ? 0.35 : 1;
          ctx.fill();
          ctx.globalAlpha = 1;
        }
        if (hive >= 0) {
          // A hive: a black frame, and a mark in its owner's colour.
          hexPath(c[0], c[1], R - 1.2);
          ctx.lineWidth = Math.max(2, R * 0.16);
          ctx.strokeStyle = dark ? '#fff' : '#111';
          ctx.stroke();
          hexPath(c[0], c[1] - 0.42 * R, R * 0.3);
          ctx.fillStyle = color(hive);
          ctx.fill();
          ctx.lineWidth = 1;
          ctx.strokeStyle = '#fff';
          hexPath(c[0], c[1] - 0.42 * R, R * 0.3 + 1);
          ctx.stroke();
        }
        if (units > 0 && R >= 8) {
          var font = (hive >= 0 ? 'bold ' : '') + fontPx + 'px system-ui, sans-serif';
          if (font !== lastFont) { ctx.font = font; lastFont = font; }
          ctx.fillStyle = owner >= 0 ? textColor(color(owner)) : '#111';
          ctx.fillText(units > 9999 ? Math.round(units / 1000) + 'k' : String(units), c[0], c[1] + (hive >= 0 ? 0.22 * R : 0));
        }
        if (i === pinned || (pinned < 0 && i === hover)) {
          hexPath(c[0], c[1], R - 1);
          ctx.lineWidth = 2;
          ctx.strokeStyle = '#1f5fbf';
          ctx.stroke();
        }
      }
    }
    if (showMoves) drawMoves(t);
  }

  // drawMoves draws the turn's commands: a MOVE as an arrow to the
  // neighbour (the player's colour when applied, red and dashed when
  // rejected) with its count; a BUILD as a plus; explicit MINEs as a dot.
  // Implicit mines (every held cell mines) are not drawn.
  function drawMoves(t) {
    var ms = movesOf(t);
    ctx.save();
    ms.forEach(function (m) {
      if (m.implicit || (selected >= 0 && m.player !== selected)) return;
      var a = center(m.x, m.y), ok = m.code === 0;
      if (M.kinds[m.kind] === 'MOVE') {
        var b = center(m.tx, m.ty);
        var dx = b[0] - a[0], dy = b[1] - a[1], len = Math.sqrt(dx * dx + dy * dy) || 1;
        var ux = dx / len, uy = dy / len;
        var sx = a[0] + ux * R * 0.3, sy = a[1] + uy * R * 0.3, ex = b[0] - ux * R * 0.35, ey = b[1] - uy * R * 0.35;
        ctx.setLineDash(ok ? [] : [3, 2]);
        ctx.lineWidth = Math.max(2, R * 0.2);
        ctx.strokeStyle = ok ? '#fff' : '#b3261e';
        ctx.beginPath(); ctx.moveTo(sx, sy); ctx.lineTo(ex, ey); ctx.stroke();
        if (ok) {
          ctx.lineWidth = Math.max(1, R * 0.1);
          ctx.strokeStyle = '#111';
          ctx.beginPath(); ctx.moveTo(sx, sy); ctx.lineTo(ex, ey); ctx.stroke();
        }
        ctx.setLineDash([]);
        var h = R * 0.4;
        ctx.fillStyle = ok ? '#111' : '#b3261e';
        ctx.beginPath();
        ctx.moveTo(ex + ux * h * 0.4, ey + uy * h * 0.4);
        ctx.lineTo(ex - ux * h + uy * h * 0.6, ey - uy * h - ux * h * 0.6);
        ctx.lineTo(ex - ux * h - uy * h * 0.6, ey - uy * h + ux * h * 0.6);
        ctx.closePath();
        ctx.fill();
        if (R >= 10) {
          // The count beside the arrow's middle, not over its line.
          var label = ok ? String(m.count) : '×' + m.count, mx = (sx + ex) / 2 - uy * R * 0.38, my = (sy + ey) / 2 + ux * R * 0.38;
          ctx.font = Math.max(8, Math.round(R * 0.5)) + 'px system-ui, sans-serif';
          var tw = ctx.measureText(label).width + 4;
          ctx.fillStyle = ok ? 'rgba(255,255,255,0.85)' : 'rgba(255,235,235,0.92)';
          ctx.fillRect(mx - tw / 2, my - R * 0.3, tw, R * 0.6);
          ctx.fillStyle = ok ? color(m.player) : '#b3261e';
          ctx.textAlign = 'center'; ctx.textBaseline = 'middle';
          ctx.fillText(label, mx, my);
        }
      } else if (M.kinds[m.kind] === 'BUILD') {
        var s = R * 0.45;
        ctx.lineWidth = Math.max(2, R * 0.16);
        ctx.strokeStyle = ok ? '#111' : '#b3261e';
        ctx.beginPath();
        ctx.moveTo(a[0] - s, a[1] + 0.3 * R); ctx.lineTo(a[0] + s, a[1] + 0.3 * R);
        ctx.moveTo(a[0], a[1] + 0.3 * R - s); ctx.lineTo(a[0], a[1] + 0.3 * R + s);
        ctx.stroke();
      } else {
        ctx.fillStyle = ok ? '#111' : '#b3261e';
        ctx.beginPath(); ctx.arc(a[0] + R * 0.5, a[1] + R * 0.35, Math.max(1.5, R * 0.12), 0, 2 * Math.PI); ctx.fill();
      }
    });
    ctx.restore();
  }

  function cellAt(ev) {
    var r = canvas.getBoundingClientRect();
    var px = ev.clientX - r.left, py = ev.clientY - r.top, best = -1, bd = Infinity;
    var y0 = Math.round((py - PAD - R) / (1.5 * R));
    for (var y = Math.max(0, y0 - 1); y <= Math.min(H - 1, y0 + 1); y++) {
      for (var x = 0; x < W; x++) {
        var c = center(x, y), d = (c[0] - px) * (c[0] - px) + (c[1] - py) * (c[1] - py);
        if (d < bd) { bd = d; best = y * W + x; }
      }
    }
    return bd <= R * R ? best : -1;
  }

  // ---- panels ------------------------------------------------------------
  function renderPlayers() {
    clear(playersTable);
    var head = el('tr');
    ['', 'player', 'resources', 'units', 'hives', 'cells'].forEach(function (c) { head.appendChild(el('th', { text: c })); });
    playersTable.appendChild(el('thead', null, head));
    var body = el('tbody');
    for (var p = 0; p < P; p++) {
      var tr = el('tr', { 'data-player': String(p) });
      if (p === selected) tr.className = 'selected';
      if (turn > 0 && pget('units', turn, p) === 0 && pget('hives', turn, p) === 0) tr.className += ' dead';
      tr.appendChild(el('td', null, swatch(p)));
      tr.appendChild(el('td', { cls: 'name', text: name(p), title: M.players[p].bot || '' }));
      ['resources', 'units', 'hives', 'cells'].forEach(function (f) { tr.appendChild(el('td', { text: fmt(pget(f, turn, p)) })); });
      body.appendChild(tr);
    }
    playersTable.appendChild(body);
  }

  function renderInspector() {
    var i = pinned >= 0 ? pinned : hover;
    clear(inspector);
    if (i < 0) { inspector.appendChild(el('p', { cls: 'hint', text: 'Hover or click a cell.' })); return; }
    var x = i % W, y = Math.floor(i / W), b = turn * N + i;
    var owner = cell.owner[b] - 1, hive = cell.hive[b] - 1;
    inspector.appendChild(el('h3', { text: 'cell (' + x + ', ' + y + ')' + (pinned >= 0 ? ' · pinned' : '') }));
    var tb = el('table');
    [['units', owner >= 0 ? fmt(cell.units[b]) + ' of ' : '0'],
      ['hive', hive >= 0 ? 'of ' : 'none'],
      ['resource', fmt(cell.resource[b])]].forEach(function (r, k) {
      var td = el('td', null, r[1]);
      if (k === 0 && owner >= 0) td.appendChild(el('span', null, swatch(owner), name(owner)));
      if (k === 1 && hive >= 0) td.appendChild(el('span', null, swatch(hive), name(hive)));
      tb.appendChild(el('tr', null, el('th', { text: r[0] }), td));
    });
    inspector.appendChild(tb);
  }

  function renderMoves() { renderMoveList(); renderBotLog(); }

  // The selected player's bot log (its stderr while it was asked for the
  // turn's commands: M.logs, docs/viewer.md), as text in a <pre>: never
  // markup, whatever the bot printed.
  function renderBotLog() {
    if (!M.logs || selected < 0) return;
    var log = (M.logs[turn] || [])[selected] || '';
    if (!log && turn < 2) return;
    movesPanel.appendChild(el('h4', { cls: 'botlog-head', text: 'Bot log (stderr) of this turn' }));
    if (log) movesPanel.appendChild(el('pre', { cls: 'botlog', 'data-testid': 'botlog', text: log }));
    else movesPanel.appendChild(el('p', { cls: 'hint', 'data-testid': 'botlog-none', text: 'Nothing logged this turn.' }));
    if (M.logs_note) movesPanel.appendChild(el('p', { cls: 'hint', text: M.logs_note }));
  }

  function renderMoveList() {
    clear(movesPanel);
    var ms = movesOf(turn).filter(function (m) { return selected < 0 || m.player === selected; });
    var shown = ms.filter(function (m) { return !m.implicit; }), implicit = ms.length - shown.length;
    var title = 'moves of turn ' + turn + (selected >= 0 ? ' · ' : ' · everyone');
    var h = el('h3', { text: title });
    if (selected >= 0) h.appendChild(el('span', null, swatch(selected), name(selected)));
    movesPanel.appendChild(h);
    (M.moves_shortened || []).forEach(function (s) {
      if (s[0] === turn) movesPanel.appendChild(el('p', { cls: 'hint', text: 'The players sent ' + s[1] + ' commands this turn; ' + (M.moves_note || '') }));
    });
    if (implicit) movesPanel.appendChild(el('p', { cls: 'hint', text: implicit + ' implicit mine' + (implicit === 1 ? '' : 's') + ' (cells with units and no command mine by themselves)' }));
    if (!shown.length) { movesPanel.appendChild(el('p', { cls: 'hint', text: turn === 0 ? 'Turn 0 is the map before the first move.' : 'No commands.' })); return; }
    var list = el('ol');
    shown.slice(0, 300).forEach(function (m) {
      var li = el('li', { cls: m.code ? 'failed' : '' }, swatch(m.player), el('span', { cls: 'cmd', title: rawMove(m), 'data-raw': rawMove(m), text: describeMove(m) }));
      if (m.code) li.appendChild(el('div', { cls: 'err', text: M.error_text[m.code] || ('error ' + m.code) }));
      list.appendChild(li);
    });
    movesPanel.appendChild(list);
    if (shown.length > 300) movesPanel.appendChild(el('p', { cls: 'hint', text: '…and ' + (shown.length - 300) + ' more' }));
  }

  // describeMove words a move as the moves panel lists it: "move 5 units
  // from (3, 4) to (4, 4)", "build a hive at (3, 4)", "mine (3, 4) with 5
  // units"; rawMove is its short protocol form ("MOVE (3, 4) → (4, 4) ×5":
  // a .rwd keeps the parsed command, not its text), shown on hover. The
  // one place Monad moves are worded.
  function describeMove(m) {
    var kind = M.kinds[m.kind], at = '(' + m.x + ', ' + m.y + ')', units = m.count + ' unit' + (m.count === 1 ? '' : 's');
    if (kind === 'MOVE') return 'move ' + units + ' from ' + at + ' to (' + m.tx + ', ' + m.ty + ')';
    if (kind === 'BUILD') return 'build a hive at ' + at;
    if (kind === 'MINE') return 'mine ' + at + ' with ' + units;
    return 'unknown command at ' + at;
  }
  function rawMove(m) {
    var kind = M.kinds[m.kind], what = kind + ' (' + m.x + ', ' + m.y + ')';
    if (kind === 'MOVE') what += ' → (' + m.tx + ', ' + m.ty + ')';
    if (kind !== 'BUILD') what += ' ×' + m.count;
    return what;
  }
  api.describeMove = describeMove;

  function buildLegend() {
    clear(legend);
    for (var p = 0; p < P; p++) legend.appendChild(el('span', { cls: 'item player', 'data-player': String(p) }, swatch(p), name(p)));
    legend.appendChild(el('span', { cls: 'item key', text: 'framed with a mark: a hive · number: units · ground: resource left (darker is more) · arrows: moves (red dashed: rejected)' }));
  }

  // The event list: the analysis's events, worded by it, filtered by
  // kind (the manifest's kinds and titles; lead changes off at first).
  var eventItems = [], shownKinds = null;
  function buildEvents() {
    clear(eventsPanel);
    eventsPanel.appendChild(el('h3', { text: 'events' }));
    if (!shownKinds) {
      shownKinds = {};
      (M.event_kinds || []).forEach(function (k) { shownKinds[k.kind] = k.shown; });
    }
    var count = {};
    M.events.forEach(function (e) { count[e.kind] = (count[e.kind] || 0) + 1; });
    var filter = el('div', { cls: 'ev-filter' });
    (M.event_kinds || []).forEach(function (k) {
      if (!count[k.kind]) return;
      var box = el('input', { type: 'checkbox', 'data-kind': k.kind });
      box.checked = !!shownKinds[k.kind];
      box.addEventListener('change', function () { shownKinds[k.kind] = box.checked; box.blur(); filterEvents(); });
      filter.appendChild(el('label', null, box, ' ' + k.title + ' (' + count[k.kind] + ')'));
    });
    eventsPanel.appendChild(filter);
    var list = el('ul', { cls: 'event-list' });
    eventItems = [];
    M.events.forEach(function (e) {
      var li = el('li', { cls: 'ev ev-' + e.kind, 'data-turn': String(e.turn), 'data-kind': e.kind }, el('span', { cls: 'ev-turn', text: String(e.turn) }), e.player >= 0 && e.player < P ? swatch(e.player) : null, e.text);
      li.addEventListener('click', function () { pause(); seek(e.turn); });
      list.appendChild(li);
      eventItems.push(li);
    });
    if (!M.events.length) eventsPanel.appendChild(el('p', { cls: 'hint', text: 'No events.' }));
    eventsPanel.appendChild(list);
    filterEvents();
  }
  function filterEvents() {
    eventItems.forEach(function (li) { li.hidden = shownKinds[li.getAttribute('data-kind')] === false; });
  }
  function markEvents() {
    eventItems.forEach(function (li) { li.classList.toggle('now', +li.getAttribute('data-turn') === turn); });
  }

  function select(p) {
    selected = p;
    legend.querySelectorAll('.item.player').forEach(function (it) { it.classList.toggle('selected', +it.getAttribute('data-player') === selected); });
    draw(); renderPlayers(); renderMoves();
    if (chart) {
      chart.dispatchAction({ type: 'downplay' });
      if (selected >= 0) chart.dispatchAction({ type: 'highlight', seriesName: label(selected) });
    }
  }

  // ---- charts ------------------------------------------------------------
  // One chart, its series picked among the analysis's (M.series): one
  // line per player, category i is turn i+1, ticks at round turns.
  function label(p) { return M.players[p].label || M.players[p].name; }
  // Ticks and labels at round turns (the shell's roundTick).
  var roundTick = RewindShell.roundTick(function () { return F; });
  function seriesTitle(s) { return s.name.replace(/_/g, ' ') + (s.unit && s.unit !== s.name ? ' (' + s.unit + ')' : ''); }
  function chartOption() {
    var s = M.series[series], cats = [], lines = [];
    for (var t = 1; t < F; t++) cats.push(t);
    for (var p = 0; p < P; p++) {
      lines.push({ type: 'line', name: label(p), data: (s.values[p] || []).slice(1, F), showSymbol: false, color: color(p), emphasis: { focus: 'series' } });
    }
    return {
      animation: false,
      title: { text: seriesTitle(s) },
      tooltip: { trigger: 'axis' },
      legend: { top: 30, type: 'scroll' },
      grid: { top: 70, bottom: 60, left: 20, right: 40, containLabel: true },
      xAxis: { type: 'category', name: 'turn', data: cats, axisLabel: { interval: roundTick }, axisTick: { interval: roundTick, alignWithLabel: true } },
      yAxis: { type: 'value', minInterval: 1 },
      dataZoom: [{ type: 'inside', xAxisIndex: 0 }, { type: 'slider', xAxisIndex: 0, height: 18, bottom: 8 }],
      series: lines
    };
  }
  function drawChart() {
    if (!chart) return;
    chart.setOption(chartOption(), { replaceMerge: ['series'] });
    mc.rect = null;
    moveCursor();
  }
  function buildPicker() {
    clear(picker);
    M.series.forEach(function (s, i) { picker.appendChild(el('option', { value: s.name, text: seriesTitle(s) })); });
    picker.addEventListener('change', function () {
      for (var i = 0; i < M.series.length; i++) if (M.series[i].name === picker.value) series = i;
      picker.blur();
      drawChart();
    });
  }
  function loadCharts() {
    if (!M.series.length) { chartDiv.appendChild(el('p', { cls: 'hint', text: 'No series.' })); return; }
    if (window.echarts) { initChart(); return; }
    var js = document.createElement('script');
    js.src = root.getAttribute('data-echarts');
    js.onload = initChart;
    document.head.appendChild(js);
  }
  function initChart() {
    if (chart || !window.echarts) return;
    mc = shell.chart(chartDiv, chartOption()); // its cursor, a click seeks
    chart = mc.chart;
    chart.on('datazoom', function () { moveCursor(); });
    api.chartsReady = true;
    moveCursor();
  }
  function moveCursor() {
    if (mc) mc.move(turn);
  }

  // ---- navigation --------------------------------------------------------
  // showTurn shows turn t (the shell's seek: clamped, in the address).
  function showTurn(t) {
    expand(t);
    turn = t;
    draw();
    renderPlayers();
    renderInspector();
    renderMoves();
    markEvents();
    moveCursor();
  }
  function setShowMoves(on) { showMoves = on; movesBox.checked = on; draw(); }
  function wire() {
    shell.wire();
    movesBox.addEventListener('change', function () { setShowMoves(movesBox.checked); movesBox.blur(); });
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

  function start(buf) {
    parse(buf);
    layout();
    buildLegend();
    buildEvents();
    buildPicker();
    wire();
    var t = shell.hashTurn();
    seek(t === null ? Math.min(1, F - 1) : t);
    shell.loaded();
    performance.mark('rw-first-frame');
    api.ready = true;
    setTimeout(function () { expand(F - 1); }, 0); // the other frames, once the first is on screen
    // ECharts (1 MB of script) is fetched only after the first frame.
    var later = function () { requestAnimationFrame(function () { setTimeout(loadCharts, 0); }); };
    if (document.readyState === 'complete') later(); else window.addEventListener('load', later);
  }

  // An exported page (rewind export --html) carries the blob inline
  // (#rw-data); a served one fetches it (the shell's load).
  shell.load(root).then(start).catch(shell.fail);
})();
