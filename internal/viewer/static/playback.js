// rewind replay page, playback.js: the turn shown and how it changes —
// the scrubber, the turn label (with the painter's caption of the turn),
// #turn=N in the address, playing and its speed, the playback buttons
// (data-act), the loading notice.
(function (rewind) {
  'use strict';

  var TURNS_PER_SECOND = 10; // at 1×
  var SPEEDS = [0.25, 0.5, 1, 2, 4, 8, 16, 32];

  /**
   * hashTurn reads turn=N from a hash (the address's when none is given).
   * @param {string} [hash]
   * @returns {number|null}
   */
  function hashTurn(hash) {
    var m = /(?:^#|&)turn=(\d+)/.exec(hash === undefined ? location.hash : hash);
    return m ? parseInt(m[1], 10) : null;
  }

  /**
   * playback drives the page's turn: o.frames() is how many frames there
   * are now (0: not loaded yet), o.onTurn(t) shows turn t, o.caption(t),
   * when given, says more of turn t once shown (the painter's turnLabel),
   * null for nothing; o.actions are more data-act buttons.
   * @param {{frames: function(): number, onTurn: function(number): void, caption?: function(number): (string|null), actions?: Object<string, function(): void>}} o
   * @returns {Playback}
   */
  function playback(o) {
    var byId = rewind.dom.byId;
    var scrubber = byId('scrubber', HTMLInputElement), turnLabel = byId('turn'), playButton = byId('play');
    var speedSelect = byId('speed', HTMLSelectElement), loading = byId('loading');
    var turn = 0, playing = false, speed = 1, hashTimer = 0, last = 0, acc = 0;

    function frames() { return o.frames() || 0; }
    function writeHash() {
      hashTimer = 0;
      var h = '#turn=' + turn;
      if (location.hash !== h) history.replaceState(null, '', h);
    }
    /**
     * seek shows turn t (clamped to the frames), keeps it in the address
     * and measures itself ("rw-seek": the benchmarks' seeks).
     * @param {number|string} t
     */
    function seek(t) {
      var F = frames();
      if (!F) return;
      var t0 = performance.now();
      var n = Math.max(0, Math.min(F - 1, Math.round(Number(t)) || 0));
      turn = n;
      scrubber.max = String(F - 1);
      scrubber.value = String(n);
      o.onTurn(n);
      var caption = o.caption ? o.caption(n) : null, label = 'turn ' + n + ' / ' + (F - 1) + (caption ? ' · ' + caption : '');
      turnLabel.textContent = label;
      scrubber.setAttribute('aria-valuetext', label);
      if (!hashTimer) hashTimer = setTimeout(writeHash, playing ? 250 : 60);
      performance.measure('rw-seek', { start: t0, end: performance.now() });
    }
    /** @param {number} d */
    function step(d) { pause(); seek(turn + d); }
    /** @param {number} now */
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
    /** @param {number} v */
    function setSpeed(v) { speed = v; speedSelect.value = String(v); }
    /** @param {number} d */
    function changeSpeed(d) {
      var i = SPEEDS.indexOf(speed);
      setSpeed(SPEEDS[Math.max(0, Math.min(SPEEDS.length - 1, i + d))]);
    }

    /** @type {Object<string, function(): void>} */
    var actions = {
      start: function () { pause(); seek(0); },
      end: function () { pause(); seek(frames() - 1); },
      back1: function () { step(-1); },
      fwd1: function () { step(1); },
      back10: function () { step(-10); },
      fwd10: function () { step(10); },
      play: function () { if (playing) pause(); else play(); }
    };
    var more = o.actions || {};
    for (var k in more) actions[k] = more[k];

    // wire connects the controls, once the data is loaded (a data-act
    // of no action does nothing).
    function wire() {
      document.querySelectorAll('[data-act]').forEach(function (b) {
        // Buttons release the focus, as the dropdowns do: a focused button
        // would otherwise also take Space (activating itself a second time
        // after the page's own Space toggled play).
        var name = b.getAttribute('data-act') || '';
        if (b instanceof HTMLElement) b.addEventListener('click', function () { if (actions[name]) actions[name](); b.blur(); });
      });
      scrubber.addEventListener('input', function () { pause(); seek(scrubber.value); });
      speedSelect.addEventListener('change', function () { setSpeed(parseFloat(speedSelect.value)); speedSelect.blur(); });
      // The hash the change brought (its newURL), not the address's now:
      // the page's own write of #turn=N after a seek (writeHash) may have
      // replaced it since, and the change asked for must still win.
      window.addEventListener('hashchange', function (e) {
        var t = hashTurn(e.newURL ? new URL(e.newURL).hash : undefined);
        if (t !== null && t !== turn) seek(t);
      });
    }

    /**
     * fail shows why the replay cannot be shown, in place of the board
     * (the data answer's reason: a 422's text).
     * @param {unknown} err
     */
    function fail(err) {
      var msg = rewind.dom.errorText(err);
      rewind.error = msg;
      loading.hidden = false;
      loading.textContent = 'Cannot show this replay: ' + msg;
      loading.classList.add('failed');
    }

    return {
      seek: seek, step: step, play: play, pause: pause, wire: wire, fail: fail,
      setSpeed: setSpeed, changeSpeed: changeSpeed, actions: actions, scrubber: scrubber,
      turn: function () { return turn; },
      playing: function () { return playing; },
      speed: function () { return speed; },
      // loaded hides the loading notice: the first frame is drawn.
      loaded: function () { loading.hidden = true; }
    };
  }

  playback.hashTurn = hashTurn;
  rewind.playback = playback;
})(window.rewind);
