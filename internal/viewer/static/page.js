// rewind replay page, page.js: the page of any game (docs/viewer.md
// "The replay page"), put together from the parts the other scripts add
// to rewind (decode, playback, keys, board, panels, events, charts, clip,
// fork, follow) and the game's painter (rewind.boards[game]). It loads the packed
// frames once, shows the turn asked for, and keeps rewind's page API
// (Rewind's ready … live), which the tests drive.
(function (rewind) {
  'use strict';

  var page = document.getElementById('generic');
  if (!page) return;
  var root = page, byId = rewind.dom.byId;
  performance.mark('rw-script');

  /** @type {PageState} */
  var st = {
    r: null, painter: {}, view: { turn: 0, selected: -1, hover: -1, pinned: -1, showEffects: true }, controls: {},
    replay: function () {
      if (!st.r) throw new Error('the replay is not loaded yet');
      return st.r;
    }
  };
  var v = st.view;
  var canvas = byId('board', HTMLCanvasElement);
  var effectsBox = byId('show-effects', HTMLInputElement);
  var liveGame = root.getAttribute('data-events') ? rewind.follow(root, { frames: function () { return st.r ? st.r.F : 0; }, extend: extend }) : null;

  var pb = rewind.playback({
    frames: function () { return st.r ? st.r.F : 0; },
    onTurn: showTurn,
    caption: function (t) {
      var hook = st.painter.turnLabel;
      return hook && st.r ? hook(t, bd.geometry()) : null;
    },
    actions: {
      'next-event': function () { events.jump(1); },
      'prev-event': function () { events.jump(-1); }
    }
  });
  var bd = rewind.board(st, canvas);
  var panels = rewind.panels(st, bd, { changed: function () { bd.draw(); panels.buildLegend(); panels.markLegend(); } });
  var events = rewind.events(st, pb, bd);
  var logSearch = rewind.logSearch(st, pb, { select: select });
  var charts = rewind.charts(st, pb, root, bd);
  var fork = rewind.fork(st, pb, bd);
  var clip = rewind.clip({
    boards: function () { return [{ canvas: canvas, label: '' }]; },
    label: function () { return document.title + ' · ' + (byId('turn').textContent || ''); },
    seek: function (t) { pb.seek(t); }, turn: function () { return v.turn; },
    frames: function () { return st.r ? st.r.F : 0; }, name: function () { return document.title || 'replay'; }
  });
  var keys = rewind.keys(pb, {
    keys: function (e) {
      switch (e.key) {
        case 'e': case 'E': setEffects(!v.showEffects); return true;
        case 'n': case 'N': events.jump(1); return true;
        case 'p': case 'P': events.jump(-1); return true;
        case 'x': events.jumpFailed(1); return true;
        case 'X': events.jumpFailed(-1); return true;
      }
      return panels.controlKey(e.key);
    },
    onEscape: function () { if (v.pinned >= 0) { v.pinned = -1; bd.draw(); panels.renderInspector(); } }
  });

  // The page's API, which the tests drive.
  rewind.game = 'generic';
  rewind.ready = false;
  rewind.error = null;
  rewind.chartsReady = false;
  rewind.drawn = { cells: 0, entities: 0, effects: [], overlay: [] };
  rewind.seek = function (t) { pb.seek(t); };
  // searchLogs(q, d) searches the bot logs for q and seeks the next
  // (d = 1) or previous (d = -1) turn whose log holds it, as Enter does.
  rewind.searchLogs = function (q, d) { logSearch.next(d, q); };
  rewind.turn = function () { return v.turn; };
  rewind.frames = function () { return st.r ? st.r.F : 0; };
  rewind.packed = function () { return st.r ? st.r.P : null; };
  // center(x, y) is the canvas pixel (device pixels) at a cell's centre.
  // (Through the board's zoom.)
  rewind.center = function (x, y) { var c = bd.toCanvas(bd.center(x, y)), d = bd.pixelRatio(); return [Math.round(c[0] * d), Math.round(c[1] * d)]; };
  // zoom() is the board's zoom and shift; zoomBy(f, x, y) zooms by f
  // around a CSS pixel of the canvas, as the wheel does.
  rewind.zoom = function () { return bd.zoom(); };
  /**
   * @param {number} f
   * @param {number} [x]
   * @param {number} [y]
   */
  rewind.zoomBy = function (f, x, y) { bd.zoomBy(f, x, y); };
  rewind.cell = function (t, x, y) { var rp = st.replay(); rp.cellsAt(t); return rp.cellOf(y * rp.W + x); };
  rewind.layer = function (name, t, x, y) { return st.replay().layerAt(name, t, x, y); };
  rewind.color = function (p) { return bd.color(p); };
  rewind.radius = function () { return bd.radius(); };
  rewind.select = function (p) { select(p); };
  // live() is the state of a live game's page (null elsewhere): the game
  // as last announced, whether it is over, and how many times the page
  // took in new turns.
  rewind.live = function () { return liveGame ? liveGame.state() : null; };
  rewind.allMetrics = function (on) { panels.setAllMetrics(on); };
  rewind.controls = function () { return st.controls; };
  rewind.pickMetric = function (k, metric) { return charts.pickMetric(k, metric); };
  // logScale(k, on) ticks or unticks chart k's log box; legendSelect(k,
  // label, on) clicks a player's entry of chart k's legend; chartCSV(k)
  // is what its CSV button saves; chartState() what each chart shows.
  rewind.logScale = function (k, on) { charts.logScale(k, on); };
  rewind.legendSelect = function (k, label, on) { charts.legendSelect(k, label, on); };
  rewind.chartCSV = function (k) { return charts.chartCSV(k); };
  rewind.chartState = function () { return charts.chartState(); };

  /** @param {number} t */
  function showTurn(t) {
    v.turn = t;
    bd.draw();
    panels.renderActive();
    panels.renderPlayers();
    panels.renderInspector();
    panels.renderCommands();
    events.mark(t);
    charts.move(t);
    fork.update(t);
  }
  /** @param {boolean} on */
  function setEffects(on) { v.showEffects = on; effectsBox.checked = on; bd.draw(); }
  /** @param {number} p */
  function select(p) {
    v.selected = p;
    panels.markLegend();
    bd.draw(); panels.renderPlayers(); panels.renderCommands();
    charts.highlight();
  }

  function wire() {
    pb.wire();
    keys.wire();
    fork.wire();
    clip.wire();
    effectsBox.addEventListener('change', function () { setEffects(effectsBox.checked); effectsBox.blur(); });
    canvas.addEventListener('mousemove', function (ev) {
      var i = bd.cellAt(ev);
      if (i === v.hover) return;
      v.hover = i;
      if (v.pinned < 0) { bd.draw(); panels.renderInspector(); }
    });
    canvas.addEventListener('mouseleave', function () { v.hover = -1; if (v.pinned < 0) { bd.draw(); panels.renderInspector(); } });
    bd.wireZoom();
    canvas.addEventListener('click', function (ev) {
      if (bd.dragged()) return; // the end of a drag of the zoomed board
      var i = bd.cellAt(ev);
      v.pinned = v.pinned === i ? -1 : i;
      bd.draw(); panels.renderInspector();
    });
    /**
     * @param {Event} ev
     * @param {string} sel
     */
    function pick(ev, sel) {
      var it = ev.target instanceof Element ? ev.target.closest(sel) : null;
      if (!it) return;
      var p = parseInt(it.getAttribute('data-player') || '', 10);
      select(v.selected === p ? -1 : p);
    }
    byId('legend').addEventListener('click', function (ev) { pick(ev, '.item.player'); });
    byId('players').addEventListener('click', function (ev) { pick(ev, 'tr[data-player]'); });
    var resizeTimer = 0;
    window.addEventListener('resize', function () {
      clearTimeout(resizeTimer);
      resizeTimer = setTimeout(function () { bd.layout(); bd.draw(); charts.resize(); }, 100);
    });
  }

  /** @param {ArrayBuffer} buf */
  function open(buf) {
    performance.mark('rw-data');
    st.r = rewind.decode.open(buf);
    st.painter = rewind.boards[st.r.P.game] || {};
  }

  /** @param {ArrayBuffer} buf */
  function start(buf) {
    open(buf);
    panels.notices(root);
    bd.layout();
    panels.buildControls();
    panels.buildLegend();
    events.build();
    logSearch.build();
    panels.showOutcome();
    charts.build();
    wire();
    // Without #turn=N, open on turn 1 (turn 0 is the setup); a live game
    // opens on its newest turn.
    var t = rewind.playback.hashTurn(), F = st.replay().F;
    pb.seek(t === null ? (liveGame ? F - 1 : Math.min(1, F - 1)) : t);
    pb.loaded();
    performance.mark('rw-first-frame');
    rewind.ready = true;
    // The checkpoints of the cells, once the first frame is on screen.
    var r = st.replay();
    setTimeout(function () { r.warm(); }, 0);
    if (liveGame) liveGame.follow();
  }

  // extend takes in the frames of the same game so far, newer ones: at
  // the live edge the view follows the newest turn, otherwise it stays
  // where the user scrubbed to.
  /** @param {ArrayBuffer} buf */
  function extend(buf) {
    var edge = v.turn >= st.replay().F - 1;
    open(buf);
    bd.layout();
    panels.buildLegend();
    panels.markLegend();
    events.build();
    logSearch.build();
    panels.showOutcome();
    charts.refresh();
    var r = st.replay();
    pb.seek(edge && !pb.playing() ? r.F - 1 : v.turn);
    setTimeout(function () { r.warm(); }, 0);
  }

  rewind.decode.load(root).then(start).catch(pb.fail);
})(window.rewind);
