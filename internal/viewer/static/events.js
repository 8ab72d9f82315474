// rewind replay page, events.js: the events panel — the analysis's
// events (P.events: the game's and the shell's, worded in Go) filterable
// by kind, the turning points above them with their explanation, the
// later lead changes folded at first (without them, the analysis having
// failed, the frames' own events), their marks under the scrubber, and
// the jumps to the next event or rejected command.
(function (rewind) {
  'use strict';

  var dom = rewind.dom, el = dom.el, clear = dom.clear, words = rewind.paint.words;

  /**
   * @typedef {Object} ListItem
   * @property {number} turn
   * @property {string} kind
   * @property {number} player -1: nobody
   * @property {string} text
   * @property {boolean} [later] folded at first
   * @property {string} [explain] a turning point's explanation
   */

  /**
   * @typedef {Object} EventKind
   * @property {string} kind
   * @property {string} title
   * @property {boolean} [shown] ticked at first (unless false)
   */

  /**
   * The marks under the scrubber: last is its highest turn.
   * @typedef {Object} EventMarks
   * @property {HTMLElement} scrubber
   * @property {number} last
   * @property {function(number): string} color
   */

  /**
   * @typedef {Object} EventList
   * @property {function(number): void} mark
   * @property {function(number, number): number} step
   */

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
  /**
   * @param {HTMLElement} panel
   * @param {ListItem[]} items
   * @param {EventKind[]} kinds
   * @param {function(number): HTMLElement} swatch
   * @param {function(number): void} onPick
   * @param {{turning?: ListItem[], marks?: EventMarks}} [opts]
   * @returns {EventList}
   */
  function eventList(panel, items, kinds, swatch, onPick, opts) {
    clear(panel);
    panel.appendChild(el('h3', { text: 'events' }));
    // shown[kind]: true (all), false (none) or 'some' (all but the later).
    /** @type {Object<string, boolean|'some'>} */
    var shown = {};
    /** @type {Object<string, number>} */
    var count = {};
    /** @type {Object<string, number>} */
    var later = {};
    /** @type {HTMLLIElement[]} */
    var lis = [];
    items.forEach(function (e) {
      count[e.kind] = (count[e.kind] || 0) + 1;
      if (e.later) later[e.kind] = (later[e.kind] || 0) + 1;
    });
    kinds.forEach(function (k) { shown[k.kind] = k.shown === false ? false : later[k.kind] ? 'some' : true; });
    /** @param {ListItem} e */
    function visible(e) { var s = shown[e.kind]; return s === true || s === undefined || (s === 'some' && !e.later); }
    function filter() { lis.forEach(function (li, i) { li.hidden = !visible(items[i]); }); buildMarks(); if (marked != null) mark(marked); }
    // The marks under the scrubber: the turning points and the items
    // listed (not the folded ones).
    var mk = opts && opts.marks;
    /** @type {HTMLElement|null} */
    var marks = null;
    if (mk && mk.scrubber) {
      var scrubber = mk.scrubber, old = scrubber.parentNode && scrubber.parentNode.querySelector('.marks');
      if (old instanceof HTMLElement) marks = old;
      else {
        // Hidden from assistive technology: the list says the same.
        marks = el('div', { cls: 'marks', 'data-testid': 'marks', 'aria-hidden': 'true' });
        scrubber.after(marks);
      }
      marks.onclick = function (ev) { // one handler, however often the list is rebuilt
        var m = ev.target instanceof Element ? ev.target.closest('.mark') : null;
        if (m) onPick(Number(m.getAttribute('data-turn')));
      };
    }
    function buildMarks() {
      if (!marks || !mk) return;
      clear(marks);
      /** @type {Object<string, boolean>} */
      var seen = {};
      var strip = marks, spec = mk, last = Math.max(1, mk.last || 1);
      /**
       * @param {ListItem} e
       * @param {boolean} turning
       */
      function put(e, turning) {
        if (seen[e.kind + ' ' + e.turn]) return;
        seen[e.kind + ' ' + e.turn] = true;
        var m = el('span', { cls: 'mark mk-' + e.kind + (turning ? ' turning' : ''), 'data-turn': String(e.turn), 'data-kind': e.kind, title: e.turn + ': ' + e.text });
        m.style.left = (100 * Math.min(e.turn, last) / last) + '%';
        m.style.background = spec.color(e.player);
        strip.appendChild(m);
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
    /** @type {number|null} */
    var marked = null;
    /** @type {HTMLLIElement[]} */
    var nows = [];
    /** @type {HTMLLIElement|null} */
    var at = null;
    /** @type {HTMLLIElement|null} */
    var head = null;
    var scrollPending = false;
    /** @param {number} t */
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


  /**
   * events keeps st's events panel; pb seeks the turn of a pick, bd
   * gives the players' colours.
   * @param {PageState} st
   * @param {Playback} pb
   * @param {Board} bd
   * @returns {Events}
   */
  function events(st, pb, bd) {
    var panel = dom.byId('events');
    /** @type {EventList|null} */
    var list = null;
    /** @param {number} t */
    function pick(t) { pb.pause(); pb.seek(t); }
    function build() {
      var P = st.replay().P;
      /** @type {ListItem[]} */
      var items = [];
      /** @type {ListItem[]} */
      var turning = [];
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
      /** @type {EventKind[]} */
      var kinds = P.event_kinds.map(function (k) { return { kind: k.Name, title: words(k.Name) }; });
      items.forEach(function (e) {
        if (!kinds.some(function (k) { return k.kind === e.kind; })) kinds.push({ kind: e.kind, title: words(e.kind) });
      });
      list = eventList(panel, items, kinds, function (p) { return dom.swatch(bd.color(p)); }, pick,
        { turning: turning, marks: { scrubber: pb.scrubber, last: st.replay().F - 1, color: bd.color } });
    }
    /**
     * jump seeks the next (d = 1) or previous (d = -1) event shown.
     * @param {number} d
     */
    function jump(d) {
      var t = list ? list.step(st.view.turn, d) : -1;
      if (t >= 0) pick(t);
    }
    /**
     * jumpFailed seeks the next (d = 1) or previous (d = -1) turn where
     * the selected player (anyone, when none is) had a command rejected.
     * @param {number} d
     */
    function jumpFailed(d) {
      var P = st.replay().P, F = st.replay().F, sel = st.view.selected;
      for (var t = st.view.turn + d; t >= 0 && t < F; t += d) {
        var errs = P.frames[t].errors || [];
        for (var i = 0; i < errs.length; i++) {
          if (errs[i].i >= 0 && (sel < 0 || errs[i].p === sel)) { pick(t); return; }
        }
      }
    }
    return {
      build: build, jump: jump, jumpFailed: jumpFailed,
      mark: function (t) { if (list) list.mark(t); }
    };
  }

  rewind.events = events;
})(window.rewind);
