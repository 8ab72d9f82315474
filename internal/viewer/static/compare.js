// rewind compare page, compare.js: two replays A and B of any game
// (docs/viewer.md "The compare page") put together from the replay page's
// parts (decode, playback, keys, board, charts, clip) and the games'
// painters: both boards on one scrubber (the same turn, or each its own
// when unlocked), the commands of both at the turns shown with those that
// differ marked, the charts of both overlaid (A solid, B dashed) and the
// first divergence, as `rewind diff A B` finds it (the page's diff
// answer, internal/diff), marked on the scrubber. Its API is
// rewind.compare (contract.js's CompareAPI) beside the replay page's
// ready, error, seek, turn and frames.
(function (rewind) {
  'use strict';

  var found = document.getElementById('compare');
  if (!found) return;
  var root = found, dom = rewind.dom, el = dom.el, clear = dom.clear, byId = dom.byId;

  /**
   * Side is one replay of the page: its state, board and own turn.
   * @typedef {{id: string, letter: string, title: string, st: PageState, canvas: HTMLCanvasElement, bd: Board, drawn: Drawn, own: HTMLInputElement, ownLabel: HTMLElement}} Side
   */
  /**
   * @param {string} id
   * @returns {Side}
   */
  function side(id) {
    /** @type {PageState} */
    var st = {
      r: null, painter: {}, view: { turn: 0, selected: -1, hover: -1, pinned: -1, showEffects: true }, controls: {},
      replay: function () {
        if (!st.r) throw new Error('the replay is not loaded yet');
        return st.r;
      }
    };
    var canvas = byId('board-' + id, HTMLCanvasElement), box = canvas.closest('.compare-side'), h = box && box.querySelector('h2');
    return {
      id: id, letter: id.toUpperCase(), title: h ? (h.textContent || '').replace(/^\s*[AB]\s*/, '') : id, st: st, canvas: canvas,
      bd: rewind.board(st, canvas), drawn: { cells: 0, entities: 0, effects: [], overlay: [] },
      own: byId('scrubber-' + id, HTMLInputElement), ownLabel: byId('turn-' + id)
    };
  }
  var A = side('a'), B = side('b'), sides = [A, B];
  var commandsBox = byId('compare-commands'), note = byId('divergence'), mark = byId('divergence-mark');
  var lockBox = byId('lock', HTMLInputElement), toDivergence = byId('to-divergence', HTMLButtonElement);
  // locked: both boards at the scrubber's turn; else B at the scrubber's
  // turn plus offset (each board's own slider sets it).
  var locked = true, offset = 0;
  /** @type {number|null} */
  var divergence = null;
  /** @type {number[]} */
  var differing = [];

  /** @param {Side} s */
  function frames(s) { return s.st.r ? s.st.r.F : 0; }
  function allFrames() { return Math.max(frames(A), frames(B)); }
  /**
   * @param {Side} s
   * @param {number} t
   */
  function clamp(s, t) { return Math.max(0, Math.min(frames(s) - 1, t)); }

  var pb = rewind.playback({
    frames: allFrames,
    onTurn: show,
    caption: function (t) {
      var hook = A.st.painter.turnLabel;
      return hook && A.st.r && t < frames(A) ? hook(t, A.bd.geometry()) : null;
    },
    actions: {}
  });
  var charts = rewind.charts(A.st, pb, root, A.bd, { st: B.st, bd: B.bd });
  var clip = rewind.clip({
    boards: function () { return sides.map(function (s) { return { canvas: s.canvas, label: s.letter + ': ' + s.title + ' · turn ' + s.st.view.turn }; }); },
    label: function () { return 'compare · ' + (byId('turn').textContent || ''); },
    seek: function (t) { pb.seek(t); }, turn: function () { return pb.turn(); }, frames: allFrames,
    name: function () { return 'compare-' + A.title + '-' + B.title; }
  });
  var keys = rewind.keys(pb, {
    keys: function (e) {
      switch (e.key) {
        case 'd': case 'D': jumpToDivergence(); return true;
        case 'l': case 'L': setLock(!locked); return true;
      }
      return false;
    }
  });

  /** @param {number} t */
  function show(t) {
    A.st.view.turn = clamp(A, t);
    B.st.view.turn = clamp(B, locked ? t : t + offset);
    sides.forEach(drawSide);
    renderCommands();
    charts.move(A.st.view.turn);
  }
  /** @param {Side} s */
  function drawSide(s) {
    s.bd.draw();
    s.drawn = rewind.drawn;
    s.own.max = String(frames(s) - 1);
    s.own.value = String(s.st.view.turn);
    s.ownLabel.textContent = 'turn ' + s.st.view.turn + ' / ' + (frames(s) - 1);
  }
  /**
   * setOwn shows turn t on side s alone (unlocked): B keeps the
   * scrubber's turn plus its offset, A is the scrubber's turn.
   * @param {Side} s
   * @param {number} t
   */
  function setOwn(s, t) {
    pb.pause();
    if (s === B) { offset = clamp(B, t) - pb.turn(); show(pb.turn()); return; }
    var b = B.st.view.turn;
    offset = b - clamp(A, t);
    pb.seek(clamp(A, t));
  }
  /** @param {boolean} on */
  function setLock(on) {
    locked = !!on;
    lockBox.checked = locked;
    offset = 0;
    sides.forEach(function (s) { s.own.disabled = locked; });
    show(pb.turn());
  }
  function jumpToDivergence() {
    if (divergence === null || divergence < 0) return;
    pb.pause();
    if (!locked) setLock(true);
    pb.seek(divergence);
  }

  // The commands of the turns shown, seat by seat, A's beside B's; a
  // seat whose commands differ is marked, and so is each command that is
  // not the other's at its place.
  function renderCommands() {
    var ta = A.st.view.turn, tb = B.st.view.turn, fa = A.st.replay().P.frames[ta], fb = B.st.replay().P.frames[tb];
    var PA = A.st.replay().P, PB = B.st.replay().P, n = Math.max(PA.players.length, PB.players.length);
    clear(commandsBox);
    differing = [];
    commandsBox.appendChild(el('h3', { text: 'commands of turn ' + ta + (tb !== ta ? ' (A) and turn ' + tb + ' (B)' : '') + ', A beside B' }));
    if (ta === 0 && tb === 0) { commandsBox.appendChild(el('p', { cls: 'hint', text: 'Turn 0 is the board before the first turn.' })); return; }
    if (!PA.has_commands || !PB.has_commands) commandsBox.appendChild(el('p', { cls: 'hint', text: (PA.has_commands ? 'B' : 'A') + ' records states, not commands: its commands are not compared.' }));
    for (var p = 0; p < n; p++) {
      var ca = (fa.commands || [])[p] || [], cb = (fb.commands || [])[p] || [];
      var same = ca.length === cb.length && ca.every(function (c, k) { return c === cb[k]; });
      var known = PA.has_commands && PB.has_commands && !fa.no_commands && !fb.no_commands;
      if (!ca.length && !cb.length) continue;
      var differs = known && !same;
      if (differs) differing.push(p + 1);
      var na = p < PA.players.length ? A.bd.name(p) : '–', nb = p < PB.players.length ? B.bd.name(p) : '–';
      var box = el('div', { cls: 'seat' + (differs ? ' differs' : ''), 'data-seat': String(p + 1), 'data-testid': 'seat-commands', 'data-differs': differs ? '1' : '0' },
        el('h4', null, dom.swatch(A.bd.color(p)), 'seat ' + (p + 1) + ': ' + na + (nb !== na ? ' / ' + nb : '') + (differs ? ' · differs' : known ? ' · the same' : '')));
      box.appendChild(list(A, ca, cb, fa, p));
      box.appendChild(list(B, cb, ca, fb, p));
      commandsBox.appendChild(box);
    }
    if (!commandsBox.querySelector('.seat')) commandsBox.appendChild(el('p', { cls: 'hint', text: 'No commands.' }));
  }
  /**
   * list is side s's commands mine of seat p at frame f, each not the
   * other's at its place (theirs) marked.
   * @param {Side} s
   * @param {string[]} mine
   * @param {string[]} theirs
   * @param {Frame} f
   * @param {number} p
   */
  function list(s, mine, theirs, f, p) {
    /** @type {Object<number, string>} */
    var bad = {};
    (f.errors || []).forEach(function (e) { if (e.p === p && e.i >= 0) bad[e.i] = e.t; });
    var ol = el('ol', { start: '0' }), painter = s.st.painter;
    mine.forEach(function (c, k) {
      var said = painter.command ? painter.command(c, p, f, s.bd.geometry()) : null;
      var cls = (c !== theirs[k] ? 'differs' : '') + (bad[k] ? ' failed' : '');
      ol.appendChild(el('li', { cls: cls.trim(), title: (said ? said + ' · ' : '') + (bad[k] ? 'rejected: ' + bad[k] : ''), 'data-testid': c !== theirs[k] ? 'command-differs' : 'command' }, el('span', { cls: 'cmd', text: c })));
    });
    return el('div', null, el('div', { cls: 'col-head', text: s.letter + (mine.length ? '' : ': none') }), ol);
  }

  /**
   * The diff's answer (docs/diff-json.md), the parts the page shows.
   * @typedef {{verdict: string, setup_differences: string[]|null, commands: {round: number, turn: number, seats: {seat: number, differs: boolean}[]}|null, state: {turn: number}|null, state_compared_by: string}} DiffAnswer
   */
  /** @param {DiffAnswer} d */
  function showDiff(d) {
    var at = d.commands ? d.commands.turn : d.state ? d.state.turn : -1;
    divergence = at;
    var text;
    if (d.verdict === 'different setups') text = 'Different setups (' + (d.setup_differences || []).join('; ') + '): no divergence to find; their outcomes and charts are compared.';
    else if (d.verdict === 'same') text = 'The same game: the same commands and states at every turn.';
    else if (d.commands) {
      var seats = d.commands.seats.filter(function (s) { return s.differs; }).map(function (s) { return s.seat; });
      text = 'First divergence: round ' + d.commands.round + ' (to turn ' + d.commands.turn + '), the commands of seat ' + seats.join(', ') + (d.state ? '; the state first differs at turn ' + d.state.turn + ' (by ' + d.state_compared_by + ')' : '') + '.';
    } else if (d.state) text = 'First divergence: the state at turn ' + d.state.turn + ' (by ' + d.state_compared_by + ').';
    else text = 'No turn differs, but the games are not as long.';
    note.textContent = text;
    note.classList.toggle('same', d.verdict === 'same');
    note.setAttribute('data-turn', String(at));
    if (at >= 0) {
      var F = allFrames(), frac = F > 1 ? at / (F - 1) : 0;
      // Over the slider's track: its thumb (16 px) travels 16 px less.
      mark.style.left = 'calc(' + (frac * 100) + '% + ' + (8 - 16 * frac) + 'px)';
      mark.title = 'first divergence: turn ' + at;
      mark.setAttribute('data-turn', String(at));
      mark.hidden = false;
      toDivergence.disabled = false;
    }
  }

  function wire() {
    pb.wire();
    keys.wire();
    clip.wire();
    lockBox.addEventListener('change', function () { setLock(lockBox.checked); lockBox.blur(); });
    toDivergence.addEventListener('click', function () { jumpToDivergence(); toDivergence.blur(); });
    sides.forEach(function (s) {
      s.own.addEventListener('input', function () { if (!locked) setOwn(s, +s.own.value); });
    });
    var resizeTimer = 0;
    window.addEventListener('resize', function () {
      clearTimeout(resizeTimer);
      resizeTimer = setTimeout(function () { sides.forEach(function (s) { s.bd.layout(); }); show(pb.turn()); charts.resize(); }, 100);
    });
  }

  /**
   * @param {Side} s
   * @param {ArrayBuffer} buf
   */
  function open(s, buf) {
    s.st.r = rewind.decode.open(buf);
    var painter = s.st.painter = rewind.boards[s.st.r.P.game] || {};
    (painter.controls || []).forEach(function (c) { if (c && c.id) s.st.controls[c.id] = rewind.board.controlValue(c); });
    s.bd.layout();
  }

  /** @param {ArrayBuffer[]} bufs */
  function start(bufs) {
    open(A, bufs[0]);
    open(B, bufs[1]);
    charts.build();
    wire();
    var t = rewind.playback.hashTurn();
    pb.seek(t === null ? Math.min(1, allFrames() - 1) : t);
    pb.loaded();
    rewind.ready = true;
    var ra = A.st.replay(), rb = B.st.replay();
    setTimeout(function () { ra.warm(); rb.warm(); }, 0);
  }

  rewind.game = 'compare';
  rewind.ready = false;
  rewind.error = null;
  rewind.chartsReady = false;
  rewind.seek = function (t) { pb.seek(t); };
  rewind.turn = function () { return pb.turn(); };
  rewind.frames = allFrames;
  rewind.packed = function () { return A.st.r ? A.st.r.P : null; };
  rewind.chartState = function () { return charts.chartState(); };
  rewind.compare = {
    turns: function () { return { a: A.st.view.turn, b: B.st.view.turn }; },
    drawn: function () { return { a: A.drawn, b: B.drawn }; },
    divergence: function () { return divergence; },
    lock: setLock,
    seekB: function (t) { if (!locked) setOwn(B, t); },
    differing: function () { return differing.slice(); }
  };

  var src = [root.getAttribute('data-src-a') || '', root.getAttribute('data-src-b') || ''];
  Promise.all(src.map(function (u, i) {
    return rewind.decode.fetch(u).catch(function (err) { throw new Error('AB'.charAt(i) + ': ' + dom.errorText(err)); });
  })).then(start).then(function () {
    return fetch(root.getAttribute('data-diff') || '').then(function (res) {
      if (!res.ok) return res.text().then(function (t) { throw new Error(t || res.statusText); });
      return res.json();
    }).then(showDiff).catch(function (err) {
      divergence = -1;
      note.textContent = 'No divergence found: ' + dom.errorText(err);
    });
  }).catch(pb.fail);
})(window.rewind);
