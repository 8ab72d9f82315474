// rewind viewer shell: what every game's replay page shares (docs/viewer.md).
// The page's script (board.js) draws its game; the shell owns
// the rest of the viewer chrome, once for every game: loading the packed
// blob (fetched, or inline in an exported page), the turn (scrubber, turn
// label, #turn=N in the address), playing and its speed, the playback
// buttons (data-act), the keys of the playback and of the help, and the
// small DOM helpers. Everything put in the page is text, never HTML.
//
//   var shell = RewindShell({
//     frames: function () { return F; },   // frames now (0: not loaded yet)
//     onTurn: function (t) { ... },        // show turn t (0 ≤ t < frames)
//     actions: { 'next-event': fn },       // more data-act buttons
//     keys: function (e) { return handled; }, // the game's own keys
//     onEscape: function () { ... },       // Esc with the help closed
//     onResize: function () { ... }        // the window was resized
//   });
//   shell.load(root).then(start).catch(shell.fail);
//   ... shell.wire(); shell.seek(shell.hashTurn() ...);
(function () {
  'use strict';

  var TURNS_PER_SECOND = 10; // at 1×
  // Dark mode follows the system's (prefers-color-scheme): the page's
  // colours in the style sheet, the charts' ECharts theme here.
  var dark = !!(window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches);
  var SPEEDS = [0.25, 0.5, 1, 2, 4, 8, 16, 32];

  // el makes an element: attrs' text is its text, cls its class, the rest
  // attributes; the further arguments are children (strings as text).
  function el(tag, attrs) {
    var e = document.createElement(tag);
    if (attrs) for (var k in attrs) {
      if (k === 'text') e.textContent = attrs[k];
      else if (k === 'cls') e.className = attrs[k];
      else e.setAttribute(k, attrs[k]);
    }
    for (var i = 2; i < arguments.length; i++) {
      var c = arguments[i];
      if (c == null) continue;
      e.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
    }
    return e;
  }
  function clear(e) { while (e.firstChild) e.removeChild(e.firstChild); }
  // fmt writes a number rounded, its thousands separated ("1,234"); one
  // formatter for every call (toLocaleString makes one each time).
  var numbers = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
  function fmt(n) { return numbers.format(Math.round(n)); }

  // fetchBuffer fetches a page's packed data. The data gzip'd as it is
  // (?data=1, application/gzip) is inflated here, so only the
  // compressed bytes cross from the network to the page. An answer that
  // is not 200 rejects with its text (the server's reason).
  function fetchBuffer(url) {
    return fetch(url).then(function (res) {
      if (!res.ok) return res.text().then(function (t) { throw new Error(t || res.statusText); });
      if (res.headers.get('Content-Type') === 'application/gzip') return new Response(res.body.pipeThrough(new DecompressionStream('gzip'))).arrayBuffer();
      return res.arrayBuffer();
    });
  }

  // loadBuffer is the page's data: inline in an exported page (#rw-data,
  // gzip'd and base64'd), else fetched from root's data-src.
  function loadBuffer(root) {
    var inline = document.getElementById('rw-data');
    if (!inline) return fetchBuffer(root.getAttribute('data-src'));
    var s = atob(inline.textContent.trim()), bin = new Uint8Array(s.length);
    for (var i = 0; i < s.length; i++) bin[i] = s.charCodeAt(i);
    return new Response(new Blob([bin]).stream().pipeThrough(new DecompressionStream('gzip'))).arrayBuffer();
  }

  // hashTurn reads turn=N from a hash (the address's when none is given).
  function hashTurn(hash) {
    var m = /(?:^#|&)turn=(\d+)/.exec(hash === undefined ? location.hash : hash);
    return m ? parseInt(m[1], 10) : null;
  }

  // roundTick(frames) is the charts' tick filter (ECharts' interval
  // callback): ticks and labels at round turns (1, 50, 100… rather than
  // 1, 33, 65…) for frames() frames; category i is turn i+1.
  function roundTick(frames) {
    function tickStep() {
      var n = Math.max(1, frames() - 1), raw = n / 8, p = Math.pow(10, Math.floor(Math.log10(raw || 1)));
      var steps = [1, 2, 5, 10];
      for (var i = 0; i < steps.length; i++) if (steps[i] * p >= raw) return Math.max(1, steps[i] * p);
      return 10 * p;
    }
    return function (i) { var t = i + 1; return t === 1 || t % tickStep() === 0; };
  }

  function Shell(o) {
    var scrubber = document.getElementById('scrubber');
    var turnLabel = document.getElementById('turn');
    var playButton = document.getElementById('play');
    var speedSelect = document.getElementById('speed');
    var loading = document.getElementById('loading');
    var help = document.getElementById('help');
    var turn = 0, playing = false, speed = 1, hashTimer = 0, last = 0, acc = 0;

    function frames() { return o.frames() || 0; }
    function writeHash() {
      hashTimer = 0;
      var h = '#turn=' + turn;
      if (location.hash !== h) history.replaceState(null, '', h);
    }
    // seek shows turn t (clamped to the frames), keeps it in the address
    // and measures itself ("rw-seek": the benchmarks' seeks).
    function seek(t) {
      var F = frames();
      if (!F) return;
      var t0 = performance.now();
      t = Math.max(0, Math.min(F - 1, Math.round(Number(t)) || 0));
      turn = t;
      scrubber.max = String(F - 1);
      scrubber.value = String(t);
      turnLabel.textContent = 'turn ' + t + ' / ' + (F - 1);
      o.onTurn(t);
      if (!hashTimer) hashTimer = setTimeout(writeHash, playing ? 250 : 60);
      performance.measure('rw-seek', { start: t0, end: performance.now() });
    }
    function step(d) { pause(); seek(turn + d); }
    function frame(now) {
      if (!playing) return;
      if (last) acc += (now - last) * speed * TURNS_PER_SECOND / 1000;
      last = now;
      if (acc >= 1) {
        var n = Math.floor(acc);
        acc -= n;
        seek(Math.min(frames() - 1, turn + n));
        if (turn >= frames() - 1) { pause(); return; }
      }
      requestAnimationFrame(frame);
    }
    function play() {
      if (playing || !frames()) return;
      if (turn >= frames() - 1) seek(0);
      playing = true; last = 0; acc = 0;
      playButton.textContent = '⏸';
      playButton.setAttribute('aria-pressed', 'true');
      requestAnimationFrame(frame);
    }
    function pause() {
      if (!playing) return;
      playing = false;
      playButton.textContent = '▶';
      playButton.setAttribute('aria-pressed', 'false');
      if (!hashTimer) hashTimer = setTimeout(writeHash, 60);
    }
    function setSpeed(v) { speed = v; speedSelect.value = String(v); }
    function changeSpeed(d) {
      var i = SPEEDS.indexOf(speed);
      setSpeed(SPEEDS[Math.max(0, Math.min(SPEEDS.length - 1, i + d))]);
    }
    function toggleHelp(show) { help.hidden = show === undefined ? !help.hidden : !show; }

    var actions = {
      start: function () { pause(); seek(0); },
      end: function () { pause(); seek(frames() - 1); },
      back1: function () { step(-1); },
      fwd1: function () { step(1); },
      back10: function () { step(-10); },
      fwd10: function () { step(10); },
      play: function () { playing ? pause() : play(); }
    };
    for (var k in o.actions || {}) actions[k] = o.actions[k];

    function onKey(e) {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      // Keys are the page's first (a capturing listener on window): after
      // a dropdown, a box or the slider was used, the arrows still change
      // the turn. Only text fields keep their keys.
      var tag = e.target && e.target.tagName;
      if ((tag === 'INPUT' && e.target !== scrubber && e.target.type !== 'checkbox' && e.target.type !== 'range') || tag === 'TEXTAREA') return;
      var handled = true;
      switch (e.key) {
        case ' ': actions.play(); break;
        case 'ArrowLeft': step(e.shiftKey ? -10 : -1); break;
        case 'ArrowRight': step(e.shiftKey ? 10 : 1); break;
        case 'ArrowDown': case 'PageDown': step(-10); break;
        case 'ArrowUp': case 'PageUp': step(10); break;
        case 'Home': actions.start(); break;
        case 'End': actions.end(); break;
        case '[': changeSpeed(-1); break;
        case ']': changeSpeed(1); break;
        case '?': toggleHelp(); break;
        case 'Escape':
          if (!help.hidden) toggleHelp(false);
          else if (o.onEscape) o.onEscape();
          break;
        default: handled = !!(o.keys && o.keys(e));
      }
      if (handled) e.preventDefault();
    }

    // wire connects the controls, once the blob is loaded.
    function wire() {
      document.querySelectorAll('[data-act]').forEach(function (b) {
        // Buttons release the focus, as the dropdowns do: a focused button
        // would otherwise also take Space (activating itself a second time
        // after the page's own Space toggled play).
        b.addEventListener('click', function () { actions[b.getAttribute('data-act')](); b.blur(); });
      });
      scrubber.addEventListener('input', function () { pause(); seek(scrubber.value); });
      speedSelect.addEventListener('change', function () { setSpeed(parseFloat(speedSelect.value)); speedSelect.blur(); });
      window.addEventListener('keydown', onKey, true);
      // Space on a focused button or dropdown (its keypress, its keyup)
      // must not act a second time after the page's keydown.
      ['keypress', 'keyup'].forEach(function (type) {
        window.addEventListener(type, function (e) {
          var tag = e.target && e.target.tagName;
          if (e.key === ' ' && (tag === 'BUTTON' || tag === 'SELECT')) e.preventDefault();
        }, true);
      });
      document.getElementById('help-button').addEventListener('click', function () { toggleHelp(); });
      help.addEventListener('click', function (e) { if (e.target === help) toggleHelp(false); });
      // The hash the change brought (its newURL), not the address's now:
      // the page's own write of #turn=N after a seek (writeHash) may have
      // replaced it since, and the change asked for must still win.
      window.addEventListener('hashchange', function (e) {
        var t = hashTurn(e.newURL ? new URL(e.newURL).hash : undefined);
        if (t !== null && t !== turn) seek(t);
      });
      var resizeTimer = 0;
      window.addEventListener('resize', function () {
        clearTimeout(resizeTimer);
        resizeTimer = setTimeout(function () { if (o.onResize) o.onResize(); }, 100);
      });
    }

    // chart makes an ECharts chart of the turns in div (category i is
    // turn i+1): the page's light or dark theme, a cursor at the turn
    // shown (c.move(t); c.rect, the plot area, is set back to null when
    // the chart's size changes) and a click on the plot seeking its turn.
    function chart(div, option) {
      var ch = window.echarts.init(div, dark ? 'dark' : null);
      ch.setOption(option);
      if (dark) ch.setOption({ backgroundColor: 'transparent' });
      var c = { chart: ch, cursor: el('div', { cls: 'cursor' }), rect: null, div: div };
      div.appendChild(c.cursor);
      ch.getZr().on('click', function (ev) {
        var p = [ev.offsetX, ev.offsetY];
        if (!ch.containPixel('grid', p)) return;
        var idx = ch.convertFromPixel({ xAxisIndex: 0 }, p[0]);
        if (typeof idx !== 'number' || isNaN(idx)) return;
        pause();
        seek(Math.round(idx) + 1);
      });
      c.move = function (t) {
        if (t < 1) { c.cursor.style.display = 'none'; return; }
        var x = ch.convertToPixel({ xAxisIndex: 0 }, t - 1);
        if (!c.rect) { // the plot area, so the cursor spans just the grid
          var g = ch.getModel().getComponent('grid');
          c.rect = g && g.coordinateSystem ? g.coordinateSystem.getRect() : null;
          if (c.rect) { c.cursor.style.top = c.rect.y + 'px'; c.cursor.style.height = c.rect.height + 'px'; }
        }
        c.cursor.style.display = 'block';
        c.cursor.style.left = x + 'px';
      };
      return c;
    }

    // fail shows why the replay cannot be shown, in place of the board
    // (the data answer's reason: a 422's text).
    function fail(err) {
      var msg = String(err && err.message || err);
      if (window.rewind) window.rewind.error = msg;
      loading.hidden = false;
      loading.textContent = 'Cannot show this replay: ' + msg;
      loading.classList.add('failed');
    }

    return {
      seek: seek, step: step, play: play, pause: pause, wire: wire, fail: fail, chart: chart,
      setSpeed: setSpeed, toggleHelp: toggleHelp, hashTurn: hashTurn,
      turn: function () { return turn; },
      playing: function () { return playing; },
      speed: function () { return speed; },
      // loaded hides the loading notice: the first frame is drawn.
      loaded: function () { loading.hidden = true; },
      load: loadBuffer, fetch: fetchBuffer
    };
  }

  // eventList fills panel with a game's events, filterable by kind, each
  // a line seeking its turn when clicked:
  //   items: [{turn, kind, player, text, later}] in order (player -1:
  //     nobody; later: folded at first, listed when its kind's box is
  //     checked — the box of a kind with folded items starts half-checked);
  //   kinds: [{kind, title, shown}] (shown: ticked at first);
  //   swatch(p): the player's colour swatch; onPick(turn): a click;
  //   opts.turning: [{turn, kind, player, text, explain}], the turning
  //     points, listed above the events whatever the filter, each with
  //     its explanation under it;
  //   opts.marks: {scrubber, last, color(p)}: a mark under the scrubber
  //     (the range input; last, its highest turn) at the turn of each
  //     turning point and each listed item, one a kind and turn, in
  //     its player's colour, its text its tooltip, a click seeking it;
  //     the filter redraws them.
  // It returns {mark(turn): highlight the items of turn ("now") and mark
  // the last listed item at or before it ("at"), scrolled into view
  // inside the list (never the page) at the next frame; step(turn, d):
  // the turn of the next (d = 1) or previous (d = -1) shown item, or -1}.
  function eventList(panel, items, kinds, swatch, onPick, opts) {
    clear(panel);
    panel.appendChild(el('h3', { text: 'events' }));
    // shown[kind]: true (all), false (none) or 'some' (all but the later).
    var shown = {}, count = {}, later = {}, lis = [];
    items.forEach(function (e) {
      count[e.kind] = (count[e.kind] || 0) + 1;
      if (e.later) later[e.kind] = (later[e.kind] || 0) + 1;
    });
    kinds.forEach(function (k) { shown[k.kind] = k.shown === false ? false : later[k.kind] ? 'some' : true; });
    function visible(e) { var s = shown[e.kind]; return s === true || s === undefined || (s === 'some' && !e.later); }
    function filter() { lis.forEach(function (li, i) { li.hidden = !visible(items[i]); }); buildMarks(); if (marked != null) mark(marked); }
    // The marks under the scrubber: the turning points and the items
    // listed (not the folded ones).
    var mk = opts && opts.marks, marks = null;
    if (mk && mk.scrubber) {
      marks = mk.scrubber.parentNode.querySelector('.marks');
      if (!marks) {
        // Hidden from assistive technology: the list says the same.
        marks = el('div', { cls: 'marks', 'data-testid': 'marks', 'aria-hidden': 'true' });
        mk.scrubber.parentNode.insertBefore(marks, mk.scrubber.nextSibling);
      }
      marks.onclick = function (ev) { // one handler, however often the list is rebuilt
        var m = ev.target.closest('.mark');
        if (m) onPick(+m.getAttribute('data-turn'));
      };
    }
    function buildMarks() {
      if (!marks) return;
      clear(marks);
      var seen = {}, last = Math.max(1, mk.last || 1);
      function put(e, turning) {
        if (seen[e.kind + ' ' + e.turn]) return;
        seen[e.kind + ' ' + e.turn] = true;
        var m = el('span', { cls: 'mark mk-' + e.kind + (turning ? ' turning' : ''), 'data-turn': String(e.turn), 'data-kind': e.kind, title: e.turn + ': ' + e.text });
        m.style.left = (100 * Math.min(e.turn, last) / last) + '%';
        m.style.background = mk.color(e.player);
        marks.appendChild(m);
      }
      ((opts && opts.turning) || []).forEach(function (e) { put(e, true); });
      items.forEach(function (e) { if (visible(e)) put(e, false); });
    }
    var bar = el('div', { cls: 'ev-filter' });
    kinds.forEach(function (k) {
      if (!count[k.kind]) return;
      var box = el('input', { type: 'checkbox', 'data-kind': k.kind });
      box.checked = shown[k.kind] === true;
      box.indeterminate = shown[k.kind] === 'some';
      var folded = later[k.kind] ? el('span', { cls: 'ev-until', 'data-testid': 'ev-folded', text: shown[k.kind] === 'some' ? ' · ' + later[k.kind] + ' later folded' : '' }) : null;
      box.addEventListener('change', function () {
        shown[k.kind] = box.checked;
        if (folded) folded.textContent = '';
        box.blur();
        filter();
      });
      bar.appendChild(el('label', { title: later[k.kind] ? 'The later ones are folded at first: check to list them all' : '' }, box, ' ' + k.title + ' (' + count[k.kind] + ')', folded));
    });
    panel.appendChild(bar);
    var tps = (opts && opts.turning) || [];
    if (tps.length) {
      var tp = el('ol', { cls: 'turning-points', 'data-testid': 'turning-points', 'aria-label': 'Turning points' });
      tps.forEach(function (e) {
        var li = el('li', { cls: 'tp tp-' + e.kind, 'data-turn': String(e.turn), 'data-kind': e.kind },
          el('span', { cls: 'ev-turn', text: String(e.turn) }), ' ', e.player >= 0 ? swatch(e.player) : null, el('span', { cls: 'ev-text', text: e.text }));
        if (e.explain) li.appendChild(el('div', { cls: 'tp-explain', text: e.explain }));
        li.addEventListener('click', function () { onPick(e.turn); });
        tp.appendChild(li);
      });
      panel.appendChild(el('h4', { cls: 'tp-head', text: 'Turning points' }));
      panel.appendChild(tp);
      panel.appendChild(el('h4', { cls: 'tp-head', text: 'All events' }));
    }
    var list = el('ul', { cls: 'event-list' });
    items.forEach(function (e) {
      var li = el('li', { cls: 'ev ev-' + e.kind, 'data-turn': String(e.turn), 'data-kind': e.kind },
        el('span', { cls: 'ev-turn', text: String(e.turn) }), e.player >= 0 ? swatch(e.player) : null, e.text);
      li.addEventListener('click', function () { onPick(e.turn); });
      list.appendChild(li);
      lis.push(li);
    });
    if (!items.length) panel.appendChild(el('p', { cls: 'hint', text: 'No events.' }));
    panel.appendChild(list);
    // mark: the rows of turn t are "now"; the last listed row at or
    // before t (the first listed row before any) is "at", and kept in view
    // inside the list at the next frame (reading the layout in a seek
    // would force it there, every turn of a playback).
    var marked = null, nows = [], at = null, head = null, scrollPending = false;
    function mark(t) {
      marked = t;
      nows.forEach(function (li) { li.classList.remove('now'); });
      nows = [];
      var best = -1, first = -1;
      items.forEach(function (e, i) {
        if (e.turn === t) { lis[i].classList.add('now'); nows.push(lis[i]); }
        if (!visible(e)) return;
        if (first < 0 || e.turn < items[first].turn) first = i;
        if (e.turn <= t && (best < 0 || e.turn >= items[best].turn)) best = i;
      });
      var row = best >= 0 ? lis[best] : null;
      if (at !== row) {
        if (at) at.classList.remove('at');
        if (row) row.classList.add('at');
        at = row;
      }
      head = first >= 0 ? lis[first] : null;
      if ((at || head) && !scrollPending) {
        scrollPending = true;
        requestAnimationFrame(function () {
          scrollPending = false;
          var r = at || head;
          if (!r || !r.isConnected || r.hidden) return;
          var top = r.offsetTop, h = list.clientHeight;
          if (top < list.scrollTop || top + r.offsetHeight > list.scrollTop + h) list.scrollTop = Math.max(0, top - h / 3);
        });
      }
    }
    filter();
    return {
      mark: mark,
      step: function (t, d) {
        var best = -1;
        items.forEach(function (e) {
          if (!visible(e)) return;
          if (d > 0 && e.turn > t && (best < 0 || e.turn < best)) best = e.turn;
          if (d < 0 && e.turn < t && e.turn > best) best = e.turn;
        });
        return best;
      }
    };
  }

  // loadECharts calls then once window.echarts is there: at once in an
  // exported page (inlined), else after fetching root's data-echarts.
  function loadECharts(root, then) {
    if (window.echarts) { then(); return; }
    var js = document.createElement('script');
    js.src = root.getAttribute('data-echarts');
    js.onload = then;
    document.head.appendChild(js);
  }

  Shell.eventList = eventList;
  Shell.loadECharts = loadECharts;
  Shell.el = el;
  Shell.clear = clear;
  Shell.fmt = fmt;
  Shell.hashTurn = hashTurn;
  Shell.roundTick = roundTick;
  Shell.dark = dark;
  window.RewindShell = Shell;
})();
