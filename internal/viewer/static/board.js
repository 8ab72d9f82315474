// rewind replay page, board.js: the board of a turn on the canvas —
// its geometry (a Square, Hex or HexAxial board), the cells coloured by
// terrain and owner with their value and badges, the entities with a
// health bar and a label, the effects of the turn (lines, areas, paths
// step by step, marks), each drawing overridable by the game's painter
// (contract.js's Painter, rewind.boards[game]) through the geometry it
// is given (Geometry).
(function (rewind) {
  'use strict';

  var dom = rewind.dom, paint = rewind.paint, dark = dom.dark;
  var SQRT3 = Math.sqrt(3), PAD = 6;
  var TERRAIN = dark ? ['#2b2c31', '#4a4740', '#3d4a3a', '#4b3f33', '#36434f', '#4a3a4a', '#3f4a48']
    : ['#efece4', '#b9b2a3', '#c5d4b8', '#d6c3a0', '#b8c8d8', '#d4bfd4', '#bfd6d2'];
  var INK = dark ? '#e4e4e7' : '#1d1d1f';

  /**
   * board draws st's replay on canvas, at st.view's turn.
   * @param {PageState} st
   * @param {HTMLCanvasElement} canvas
   * @returns {Board}
   */
  function board(st, canvas) {
    var context = canvas.getContext('2d');
    if (!context) throw new Error('the board\'s canvas has no 2d context');
    var ctx = context;
    var R = 20, dpr = 1, OX = 0; // OX: hex-axial, the x of (0, 0)'s centre
    // The view's zoom: the board drawn Z times its size, shifted by (ZX,
    // ZY) CSS pixels, on the same canvas; every painter draws through it
    // unawares (draw's transform), and cellAt reads the pointer through it.
    var Z = 1, ZX = 0, ZY = 0, MAX_ZOOM = 8;

    /** @param {number} p */
    function color(p) { var P = st.r && st.r.P; return p >= 0 && P ? P.palette[p % P.palette.length] : (dark ? '#777' : '#888'); }
    /** @param {number} p */
    function name(p) { var rp = st.replay(); return p >= 0 && p < rp.NP ? rp.P.players[p].name : 'nobody'; }
    function topo() { return st.replay().P.board.topology; }

    // ---- geometry -------------------------------------------------------
    // square: cells of side 2R; hex: pointy-top hexagons of radius R, even
    // rows shifted right by half a cell (Monad's map); hex-axial: flat-top
    // hexagons of radius R in a diamond, (0, 0) at the top, X growing
    // down-left and Y down-right (Skyport's map).
    /**
     * @param {number} x
     * @param {number} y
     * @returns {number[]}
     */
    function center(x, y) {
      var tp = topo();
      if (tp === 'hex') return [PAD + SQRT3 * R * (x + 0.5 + (y % 2 === 0 ? 0.5 : 0)), PAD + R + 1.5 * R * y];
      if (tp === 'hex-axial') return [OX + 1.5 * R * (y - x), PAD + SQRT3 / 2 * R * (1 + x + y)];
      return [PAD + R * (2 * x + 1), PAD + R * (2 * y + 1)];
    }
    // step is the distance between neighbours' centres.
    function step() { return topo() === 'square' ? 2 * R : SQRT3 * R; }
    /** @param {number} r */
    function size(r) {
      var tp = topo(), W = st.replay().W, H = st.replay().H;
      if (tp === 'hex') return [2 * PAD + (W + 0.5) * SQRT3 * r, 2 * PAD + 1.5 * r * (H - 1) + 2 * r];
      if (tp === 'hex-axial') return [2 * PAD + 2 * r + 1.5 * r * (W - 1 + H - 1), 2 * PAD + SQRT3 * r * (1 + (W - 1 + H - 1) / 2)];
      return [2 * PAD + 2 * r * W, 2 * PAD + 2 * r * H];
    }
    /**
     * cellPath begins a path of the cell at (cx, cy) of radius r; with
     * more, it adds the cell to the path begun (one stroke for many).
     * @param {number} cx
     * @param {number} cy
     * @param {number} r
     * @param {boolean} [more]
     */
    function cellPath(cx, cy, r, more) {
      var tp = topo();
      if (!more) ctx.beginPath();
      if (tp === 'square') { ctx.rect(cx - r, cy - r, 2 * r, 2 * r); return; }
      var off = tp === 'hex' ? -90 : 0;
      for (var k = 0; k < 6; k++) {
        var a = Math.PI / 180 * (60 * k + off), px = cx + r * Math.cos(a), py = cy + r * Math.sin(a);
        if (k === 0) ctx.moveTo(px, py); else ctx.lineTo(px, py);
      }
      ctx.closePath();
    }
    /**
     * distance is the number of steps between two cells, by each
     * topology's neighbours (engine.Topology).
     * @param {number} x1
     * @param {number} y1
     * @param {number} x2
     * @param {number} y2
     */
    function distance(x1, y1, x2, y2) {
      var tp = topo();
      if (tp === 'square') return Math.abs(x1 - x2) + Math.abs(y1 - y2);
      if (tp === 'hex-axial') { var dj = x1 - x2, dk = y1 - y2; return Math.max(Math.abs(dj), Math.abs(dk), Math.abs(dj - dk)); }
      // hex: even rows shifted right ("even-r"); through axial coordinates.
      var qa = x1 - (y1 + (y1 & 1)) / 2, qb = x2 - (y2 + (y2 & 1)) / 2, dq = qa - qb, dr = y1 - y2;
      return (Math.abs(dq) + Math.abs(dr) + Math.abs(dq + dr)) / 2;
    }

    // layout sizes the canvas and the cells to the window: its width to
    // its box's, its height to at most the canvas's data-height (a part
    // of the window's height; 0.72 without: the compare page's two
    // boards take less, to leave room for the scrubber below).
    function layout() {
      var wrap = canvas.parentElement, part = parseFloat(canvas.getAttribute('data-height') || '') || 0.72;
      var availW = Math.max(240, Math.min((wrap && wrap.clientWidth) || 600, 1000));
      var availH = Math.max(320, Math.min(window.innerHeight * part, 900));
      var s1 = size(1), fixed = size(0);
      R = Math.min((availW - fixed[0]) / (s1[0] - fixed[0]), (availH - fixed[1]) / (s1[1] - fixed[1]), 44);
      R = Math.max(5, Math.floor(R * 10) / 10);
      var sz = size(R), was = canvas.clientWidth;
      OX = PAD + R + 1.5 * R * (st.replay().W - 1);
      dpr = window.devicePixelRatio || 1;
      // The zoom stays on the same part of the board at the new size.
      if (was > 0) { ZX *= Math.ceil(sz[0]) / was; ZY *= Math.ceil(sz[0]) / was; }
      canvas.style.width = Math.ceil(sz[0]) + 'px';
      canvas.style.height = Math.ceil(sz[1]) + 'px';
      canvas.width = Math.round(Math.ceil(sz[0]) * dpr);
      canvas.height = Math.round(Math.ceil(sz[1]) * dpr);
      clampZoom();
    }

    // ---- zoom -----------------------------------------------------------
    // The board zooms by the wheel, a pinch, the + and − buttons (around
    // the pointer, the pinch's middle, the board's middle) and back with
    // the reset button; zoomed in, a drag moves it. The board always
    // covers its canvas.
    function clampZoom() {
      var w = canvas.clientWidth || parseFloat(canvas.style.width) || 0, h = canvas.clientHeight || parseFloat(canvas.style.height) || 0;
      Z = Math.max(1, Math.min(MAX_ZOOM, Z));
      ZX = Math.min(0, Math.max(w * (1 - Z), ZX));
      ZY = Math.min(0, Math.max(h * (1 - Z), ZY));
    }
    /**
     * zoomBy multiplies the zoom by f around (x, y), CSS pixels of the
     * canvas (its middle when not given), and draws.
     * @param {number} f
     * @param {number} [x]
     * @param {number} [y]
     */
    function zoomBy(f, x, y) {
      var cx = x === undefined ? canvas.clientWidth / 2 : x, cy = y === undefined ? canvas.clientHeight / 2 : y;
      var z = Math.max(1, Math.min(MAX_ZOOM, Z * f));
      // The board's point under (cx, cy) stays there.
      ZX = cx - (cx - ZX) * z / Z; ZY = cy - (cy - ZY) * z / Z; Z = z;
      clampZoom();
      zoomed();
    }
    function resetZoom() { Z = 1; ZX = 0; ZY = 0; zoomed(); }
    // zoomed draws the board at the new zoom and keeps the controls' state.
    function zoomed() {
      canvas.style.touchAction = Z > 1 ? 'none' : 'pan-x pan-y';
      canvas.classList.toggle('zoomed', Z > 1);
      if (resetButton) resetButton.disabled = Z === 1;
      if (outButton) outButton.disabled = Z === 1;
      if (inButton) inButton.disabled = Z >= MAX_ZOOM;
      draw();
    }
    /**
     * toCanvas is the canvas's CSS pixel of board point pt, through the
     * zoom.
     * @param {number[]} pt
     * @returns {number[]}
     */
    function toCanvas(pt) { return [ZX + Z * pt[0], ZY + Z * pt[1]]; }
    /** @type {HTMLButtonElement|null} */
    var inButton = null;
    /** @type {HTMLButtonElement|null} */
    var outButton = null;
    /** @type {HTMLButtonElement|null} */
    var resetButton = null;
    // dragged says that the pointer moved the board since it went down:
    // the click that ends a drag pins no cell.
    var dragged = false;
    // wireZoom puts the zoom's buttons beside the canvas and listens to
    // the wheel and the pointers on it.
    function wireZoom() {
      var wrap = canvas.parentElement;
      if (!wrap || inButton) return;
      /**
       * @param {string} text
       * @param {string} id
       * @param {string} title
       * @param {function(): void} act
       */
      function button(text, id, title, act) {
        var b = dom.el('button', { type: 'button', id: id, 'data-testid': id, title: title, 'aria-label': title, text: text });
        b.addEventListener('click', function () { act(); b.blur(); });
        return /** @type {HTMLButtonElement} */ (b);
      }
      inButton = button('+', 'zoom-in', 'Zoom in (or the wheel, a pinch)', function () { zoomBy(1.5); });
      outButton = button('−', 'zoom-out', 'Zoom out', function () { zoomBy(1 / 1.5); });
      resetButton = button('1:1', 'zoom-reset', 'The whole board again', resetZoom);
      wrap.appendChild(dom.el('div', { cls: 'zoom', role: 'group', 'aria-label': 'Zoom' }, inButton, outButton, resetButton));
      canvas.addEventListener('wheel', function (ev) {
        var f = Math.pow(2, -ev.deltaY / (ev.deltaMode === 1 ? 10 : 300));
        // Past the zoom's ends the wheel scrolls the page, as elsewhere.
        if ((f < 1 && Z <= 1) || (f > 1 && Z >= MAX_ZOOM) || f === 1) return;
        ev.preventDefault();
        var r = canvas.getBoundingClientRect();
        zoomBy(f, ev.clientX - r.left, ev.clientY - r.top);
      }, { passive: false });
      // The pointers down on the canvas: one drags, two pinch.
      /** @type {Object<number, number[]>} */
      var down = {};
      var start = { d: 0, x: 0, y: 0 };
      /** @param {PointerEvent} ev */
      function at(ev) { var r = canvas.getBoundingClientRect(); return [ev.clientX - r.left, ev.clientY - r.top]; }
      function pinch() {
        var ps = Object.keys(down).map(function (k) { return down[+k]; });
        if (ps.length < 2) return null;
        var dx = ps[0][0] - ps[1][0], dy = ps[0][1] - ps[1][1];
        return { d: Math.sqrt(dx * dx + dy * dy), x: (ps[0][0] + ps[1][0]) / 2, y: (ps[0][1] + ps[1][1]) / 2 };
      }
      canvas.addEventListener('pointerdown', function (ev) {
        down[ev.pointerId] = at(ev);
        // Its move and up come here even off the canvas (a synthetic
        // pointer has nothing to capture).
        try { canvas.setPointerCapture(ev.pointerId); } catch (err) { /* not an active pointer */ }
        var pn = pinch();
        if (pn) start = pn; else start = { d: 0, x: down[ev.pointerId][0], y: down[ev.pointerId][1] };
        dragged = false;
      });
      canvas.addEventListener('pointermove', function (ev) {
        var was = down[ev.pointerId];
        if (!was) return;
        var now = at(ev);
        down[ev.pointerId] = now;
        var pn = pinch();
        if (pn) {
          if (start.d > 0 && pn.d > 0) { zoomBy(pn.d / start.d, pn.x, pn.y); ZX += pn.x - start.x; ZY += pn.y - start.y; clampZoom(); draw(); }
          start = pn;
          dragged = true;
          return;
        }
        if (Z === 1) return;
        if (!dragged && Math.abs(now[0] - start.x) + Math.abs(now[1] - start.y) < 4) return;
        dragged = true;
        ZX += now[0] - was[0]; ZY += now[1] - was[1];
        clampZoom();
        draw();
      });
      /** @param {PointerEvent} ev */
      function up(ev) { delete down[ev.pointerId]; }
      canvas.addEventListener('pointerup', up);
      canvas.addEventListener('pointercancel', up);
      zoomed();
    }

    /**
     * cellAt is the index of the cell under a mouse event, -1 for none.
     * @param {MouseEvent} ev
     */
    function cellAt(ev) {
      var r = canvas.getBoundingClientRect(), px = (ev.clientX - r.left - ZX) / Z, py = (ev.clientY - r.top - ZY) / Z, best = -1, bd = Infinity, W = st.replay().W, N = st.replay().N;
      for (var i = 0; i < N; i++) {
        var c = center(i % W, Math.floor(i / W)), d = (c[0] - px) * (c[0] - px) + (c[1] - py) * (c[1] - py);
        if (d < bd) { bd = d; best = i; }
      }
      return bd <= R * R * 1.1 ? best : -1;
    }

    // ---- drawing --------------------------------------------------------
    /** @param {Cell} c */
    function terrainColor(c) {
      var v = st.painter.terrainColor && st.painter.terrainColor(c.terrain, c, dark);
      if (v) return v;
      var t = Math.abs(Math.round(c.terrain));
      return TERRAIN[t % TERRAIN.length];
    }
    /**
     * badgeOf is how badge bit is drawn, null when it is not.
     * @param {number} bit
     * @returns {{text: string, color: string}|null}
     */
    function badgeOf(bit) {
      var names = st.replay().P.board.badges || [], b = st.painter.badge && st.painter.badge(bit, names[bit]);
      if (b === false) return null;
      return b || { text: (names[bit] || '?').charAt(0).toUpperCase(), color: dark ? '#ddd' : '#333' };
    }
    // commandsOf is Geometry.commandsOf: each frame's parsed once, by
    // the painter's one parse (a second parse would get the first's).
    /** @type {WeakMap<Frame, ParsedCommand<unknown>[]>} */
    var parsedCommands = new WeakMap();
    /**
     * @template T
     * @param {Frame} f
     * @param {function(string): (T|null)} parse
     * @returns {ParsedCommand<T>[]}
     */
    function commandsOf(f, parse) {
      var done = parsedCommands.get(f);
      if (done) return /** @type {ParsedCommand<T>[]} */ (done);
      /** @type {ParsedCommand<T>[]} */
      var out = [];
      /** @type {Object<string, boolean>} */
      var bad = {};
      (f.errors || []).forEach(function (e) { if (e.i >= 0) bad[e.p + ':' + e.i] = true; });
      (f.commands || []).forEach(function (list, p) {
        (list || []).forEach(function (text, i) {
          var c = parse(text);
          if (c) out.push({ p: p, i: i, cmd: c, failed: !!bad[p + ':' + i] });
        });
      });
      parsedCommands.set(f, out);
      return out;
    }
    /** @type {Geometry|null} */
    var g = null;
    /**
     * geometry is the painter's Geometry at st's view: made at the first
     * call, brought up to date at each (the turn, its frame and the one
     * before, the player selected, the cell radius).
     * @returns {Geometry}
     */
    function geometry() {
      var P = st.replay().P, turn = st.view.turn;
      if (!g) g = {
        center: center, color: color, dark: dark, step: step, distance: distance, cellPath: cellPath,
        inBoard: function (x, y) { return st.replay().inBoard(x, y); }, name: name, textColor: paint.textColor,
        cellAt: function (t, x, y) { return st.replay().cellAt(t, x, y); },
        layer: function (nm, t, x, y) { return st.replay().layerAt(nm, t, x, y); },
        commandsOf: commandsOf, controls: st.controls,
        r: R, turn: turn, frame: P.frames[turn], prev: null, packed: P, selected: -1
      };
      g.r = R; g.turn = turn; g.frame = P.frames[turn]; g.prev = turn > 0 ? P.frames[turn - 1] : null; g.packed = P; g.selected = st.view.selected;
      return g;
    }

    function draw() {
      if (!st.r) return;
      var rp = st.r, P = rp.P, W = rp.W, N = rp.N, v = st.view, painter = st.painter, turn = v.turn, selected = v.selected;
      rp.cellsAt(turn);
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.clearRect(0, 0, canvas.width, canvas.height);
      ctx.setTransform(dpr * Z, 0, 0, dpr * Z, dpr * ZX, dpr * ZY);
      var f = P.frames[turn], cells = 0, g = geometry();
      /** @type {Object<number, number>} */
      var occupied = {};
      (f.entities || []).forEach(function (e) { occupied[e.y * W + e.x] = (occupied[e.y * W + e.x] || 0) + 1; });
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      var inner = topo() === 'square' ? R - 0.5 : R - 0.6;
      // The cells' ground and owners, then their outlines (one stroke),
      // then what is written on them.
      /** @type {boolean[]} */
      var owned = [];
      var i, c, cell, own;
      for (i = 0; i < N; i++) {
        c = center(i % W, Math.floor(i / W)); cell = rp.cellOf(i);
        if (!(painter.fills && painter.cell)) {
          cellPath(c[0], c[1], inner);
          ctx.fillStyle = terrainColor(cell);
          ctx.fill();
        }
        own = painter.cell ? !!painter.cell(ctx, cell, c, R, g) : false;
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
        c = center(i % W, Math.floor(i / W)); cell = rp.cellOf(i); own = owned[i];
        cells++;
        var label = painter.cellLabel ? painter.cellLabel(cell) : null;
        if (label == null && cell.value !== 0) label = Math.abs(cell.value) > 99999 ? Math.round(cell.value / 1000) + 'k' : String(cell.value);
        if (label && R >= 9) {
          var busy = occupied[i];
          ctx.font = (busy ? Math.max(7, Math.round(R * 0.36)) : Math.max(8, Math.round(R * 0.55))) + 'px system-ui, sans-serif';
          ctx.fillStyle = cell.owner >= 0 && !own ? paint.textColor(color(cell.owner)) : INK;
          ctx.fillText(label, c[0], busy ? c[1] + R * 0.68 : c[1]);
        }
        if (cell.badges && R >= 8) drawBadges(cell.badges, c);
        if (i === v.pinned || (v.pinned < 0 && i === v.hover)) {
          cellPath(c[0], c[1], R - 1.5);
          ctx.lineWidth = 2.5;
          ctx.strokeStyle = dark ? '#6ea2ff' : '#1f5fbf';
          ctx.stroke();
        }
      }
      /** @type {string[]} */
      var drawnEffects = [];
      if (v.showEffects) (f.effects || []).forEach(function (e) { if (drawEffect(e, 'under', g)) drawnEffects.push(e.k + ':' + (e.n || '')); });
      var ents = drawEntities(f.entities || [], g);
      if (v.showEffects) (f.effects || []).forEach(function (e) { drawEffect(e, 'over', g); });
      /** @type {string[]} */
      var overlay = [];
      if (v.showEffects && painter.overlay) {
        ctx.save();
        overlay = painter.overlay(ctx, f, g) || [];
        ctx.restore();
      }
      rewind.drawn = { cells: cells, entities: ents, effects: drawnEffects, overlay: overlay, marks: drawMarks(turn + 1 < rp.F ? P.frames[turn + 1].marks || [] : []) };
    }

    /**
     * drawMarks draws, over everything, the marks the bots drew answering
     * this turn (those of the next frame, its round: docs/viewer.md
     * "Marks") through the board's geometry, but for the seats whose
     * marks are hidden (view.hiddenMarks): cells first, then lines, dots
     * and texts on top. It returns how many it drew.
     * @param {PackedMark[]} marks
     */
    function drawMarks(marks) {
      var rp = st.replay(), hidden = st.view.hiddenMarks || {}, n = 0, halo = dark ? '#000' : '#fff';
      ['cell', 'line', 'dot', 'text'].forEach(function (kind) {
        marks.forEach(function (m) {
          if (m.k !== kind || hidden[m.p] || !rp.inBoard(m.x, m.y)) return;
          var col = m.c || color(m.p), a = center(m.x, m.y);
          ctx.save();
          if (kind === 'cell') {
            cellPath(a[0], a[1], R - 1);
            ctx.globalAlpha = 0.5; ctx.fillStyle = col; ctx.fill();
            ctx.globalAlpha = 1; ctx.lineWidth = 2; ctx.strokeStyle = col; ctx.stroke();
          } else if (kind === 'line') {
            if (!rp.inBoard(m.x2 || 0, m.y2 || 0)) { ctx.restore(); return; }
            var b = center(m.x2 || 0, m.y2 || 0);
            ctx.lineCap = 'round';
            ctx.lineWidth = Math.max(4, R * 0.22); ctx.strokeStyle = halo;
            ctx.beginPath(); ctx.moveTo(a[0], a[1]); ctx.lineTo(b[0], b[1]); ctx.stroke();
            ctx.lineWidth = Math.max(2, R * 0.12); ctx.strokeStyle = col;
            ctx.beginPath(); ctx.moveTo(a[0], a[1]); ctx.lineTo(b[0], b[1]); ctx.stroke();
          } else if (kind === 'dot') {
            ctx.beginPath(); ctx.arc(a[0], a[1], Math.max(3, R * 0.3), 0, 2 * Math.PI);
            ctx.fillStyle = col; ctx.fill();
            ctx.lineWidth = Math.max(1.5, R * 0.08); ctx.strokeStyle = halo; ctx.stroke();
          } else {
            ctx.textAlign = 'center'; ctx.textBaseline = 'middle';
            paint.haloText(ctx, m.t || '', a[0], a[1], col, halo, Math.max(9, R * 0.5));
          }
          ctx.restore();
          n++;
        });
      });
      return n;
    }

    /**
     * @param {number} bits
     * @param {number[]} c
     */
    function drawBadges(bits, c) {
      var k = 0, s = Math.max(5, R * 0.3), n = (st.replay().P.board.badges || []).length;
      for (var b = 0; b < 32; b++) {
        if (!(bits & (1 << b)) || b >= n) continue;
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

    /**
     * drawEntities draws the entities: a disc in the owner's colour with
     * its label, a health bar above (full at the most health its kind has
     * in the replay); several on one cell are spread around its centre.
     * It returns how many it placed.
     * @param {Entity[]} list
     * @param {Geometry} g
     */
    function drawEntities(list, g) {
      var rp = st.replay(), W = rp.W, H = rp.H, maxHealth = rp.maxHealth, selected = st.view.selected, painter = st.painter, n = 0;
      /** @type {Object<number, number>} */
      var at = {};
      /** @type {Object<number, number>} */
      var seen = {};
      list.forEach(function (e) { var i = e.y * W + e.x; at[i] = (at[i] || 0) + 1; });
      list.forEach(function (e) {
        if (e.x < 0 || e.y < 0 || e.x >= W || e.y >= H) return;
        var i = e.y * W + e.x, k = seen[i] = (seen[i] || 0) + 1, m = at[i], c = center(e.x, e.y);
        if (m > 1) { var a = 2 * Math.PI * (k - 1) / m; c = [c[0] + Math.cos(a) * R * 0.35, c[1] + Math.sin(a) * R * 0.35]; }
        n++;
        if (painter.entity && painter.entity(ctx, e, c, R, g)) return;
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
          ctx.fillStyle = paint.textColor(color(e.p));
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

    /**
     * drawEffect draws one effect of the turn: areas and paths under the
     * entities ('under'), lines and marks over them ('over'); it reports
     * whether e is one it draws in that pass and could place.
     * @param {Effect} e
     * @param {'under'|'over'} pass
     * @param {Geometry} g
     */
    function drawEffect(e, pass, g) {
      var under = e.k === 'area' || e.k === 'path', rp = st.replay();
      if (!rp.inBoard(e.x, e.y) || (pass === 'over' && under)) return false;
      if (pass === 'under' && !under) return true; // counted here, drawn over the entities
      if (st.painter.effect && st.painter.effect(ctx, e, g)) return true;
      var col = color(e.p), a = center(e.x, e.y);
      ctx.save();
      if (e.k === 'line') {
        var b = center(e.x2 || 0, e.y2 || 0), dx = b[0] - a[0], dy = b[1] - a[1], len = Math.sqrt(dx * dx + dy * dy) || 1, ux = dx / len, uy = dy / len;
        ctx.lineCap = 'round';
        ctx.lineWidth = Math.max(5, R * 0.32); ctx.strokeStyle = 'rgba(255,255,255,0.75)';
        ctx.beginPath(); ctx.moveTo(a[0], a[1]); ctx.lineTo(b[0], b[1]); ctx.stroke();
        ctx.lineWidth = Math.max(2.5, R * 0.14); ctx.strokeStyle = col;
        ctx.beginPath(); ctx.moveTo(a[0], a[1]); ctx.lineTo(b[0] - ux * R * 0.3, b[1] - uy * R * 0.3); ctx.stroke();
        paint.arrowHead(ctx, b[0] - ux * R * 0.3, b[1] - uy * R * 0.3, ux, uy, Math.max(7, R * 0.4), col);
        paint.burst(ctx, b[0], b[1], R * 0.45, col);
      } else if (e.k === 'area') {
        var rad = Math.max(0, e.r || 0), W = rp.W;
        for (var i = 0; i < rp.N; i++) {
          var x = i % W, y = Math.floor(i / W);
          if (distance(x, y, e.x, e.y) > rad) continue;
          var c = center(x, y);
          cellPath(c[0], c[1], R - 1);
          ctx.globalAlpha = 0.38; ctx.fillStyle = col; ctx.fill();
          ctx.globalAlpha = 1; ctx.lineWidth = 2; ctx.setLineDash([4, 3]); ctx.strokeStyle = col; ctx.stroke();
          ctx.setLineDash([]);
        }
        paint.burst(ctx, a[0], a[1], R * 0.6, col);
      } else if (e.k === 'path') {
        var pts = [a], through = e.pts || [];
        for (var k = 0; k + 1 < through.length; k += 2) if (rp.inBoard(through[k], through[k + 1])) pts.push(center(through[k], through[k + 1]));
        ctx.lineWidth = Math.max(3, R * 0.16); ctx.strokeStyle = col; ctx.setLineDash([R * 0.3, R * 0.2]); ctx.lineCap = 'round';
        paint.polyline(ctx, pts); ctx.stroke();
        ctx.setLineDash([]);
        // Each step numbered, in order.
        pts.forEach(function (p, j) {
          if (j === 0) return;
          var q = pts[j - 1], dx = p[0] - q[0], dy = p[1] - q[1], l = Math.sqrt(dx * dx + dy * dy) || 1;
          var mx = (p[0] + q[0]) / 2, my = (p[1] + q[1]) / 2;
          paint.arrowHead(ctx, mx + dx / l * R * 0.2, my + dy / l * R * 0.2, dx / l, dy / l, Math.max(6, R * 0.3), col);
          ctx.beginPath(); ctx.arc(p[0], p[1], Math.max(6, R * 0.26), 0, 2 * Math.PI);
          ctx.fillStyle = dark ? '#111' : '#fff'; ctx.fill(); ctx.lineWidth = 2; ctx.strokeStyle = col; ctx.stroke();
          ctx.fillStyle = col; ctx.font = paint.font(R * 0.3, true, 8);
          ctx.fillText(String(j), p[0], p[1] + 0.5);
        });
      } else {
        // A mark: its value (damage negative, red), or its name.
        var val = e.v || 0, text = val ? (val > 0 ? '+' : '−') + Math.abs(val) : paint.words(e.n || '•');
        ctx.font = paint.font(R * 0.55, true, 10);
        ctx.lineWidth = 3.5; ctx.strokeStyle = dark ? '#000' : '#fff'; ctx.lineJoin = 'round';
        var mx2 = a[0] + R * 0.52, my2 = a[1] + R * 0.05;
        ctx.textAlign = 'left';
        ctx.strokeText(text, mx2, my2);
        ctx.fillStyle = val < 0 ? '#d0342c' : val > 0 ? '#1c8c2c' : INK;
        ctx.fillText(text, mx2, my2);
      }
      ctx.restore();
      return true;
    }

    return {
      layout: layout, draw: draw, cellAt: cellAt, center: center, color: color, name: name, badgeOf: badgeOf, geometry: geometry,
      radius: function () { return R; }, pixelRatio: function () { return dpr; },
      wireZoom: wireZoom, zoomBy: zoomBy, resetZoom: resetZoom, toCanvas: toCanvas,
      zoom: function () { return { z: Z, x: ZX, y: ZY }; }, dragged: function () { return dragged; }
    };
  }

  /**
   * controlValue is a painter control's value before the user touches
   * it: a select's first choice, a checkbox ticked unless on is false.
   * @param {PainterControl} c
   * @returns {string|boolean}
   */
  board.controlValue = function (c) { return c.choices ? String((c.choices[0] || [''])[0]) : c.on !== false; };
  rewind.board = board;
})(window.rewind);
