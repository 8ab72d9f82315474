// rewind replay page, logsearch.js: search in the bots' logs. A text box
// (shown when the replay holds any log) lists the turns whose logs hold
// the text, and Enter seeks the next of them (Shift+Enter the previous), selecting the player
// whose log it is so that its log is the one shown.
(function (rewind) {
  'use strict';

  var dom = rewind.dom, el = dom.el, clear = dom.clear;

  // maxListed is the most matching turns listed (all are counted and
  // reached with Enter).
  var maxListed = 100;

  /**
   * logSearch fills the page's #log-search from st; o.select(p) selects
   * player p (the page's select).
   * @param {PageState} st
   * @param {Playback} pb
   * @param {{select: function(number): void}} o
   * @returns {LogSearch}
   */
  function logSearch(st, pb, o) {
    var box = dom.byId('log-search');
    var input = el('input', { type: 'search', placeholder: 'search the bot logs', 'aria-label': 'Search the bot logs', 'data-testid': 'log-search-input' });
    var status = el('p', { cls: 'hint', role: 'status', 'data-testid': 'log-search-status' });
    var list = el('ol', { cls: 'log-hits', 'data-testid': 'log-hits' });
    /** @type {LogHit[]} */
    var hits = [];
    var asked = '';

    /**
     * find lists the turns whose logs hold q (case does not matter), in
     * turn order, each with the first player whose log holds it.
     * @param {string} q
     * @returns {LogHit[]}
     */
    function find(q) {
      var P = st.replay().P, needle = q.toLowerCase();
      /** @type {LogHit[]} */
      var out = [];
      if (!needle) return out;
      P.frames.forEach(function (f, t) {
        var logs = f.logs || [];
        for (var p = 0; p < logs.length; p++) {
          var log = logs[p];
          if (log && log.toLowerCase().indexOf(needle) >= 0) { out.push({ turn: t, player: p }); return; }
        }
      });
      return out;
    }

    /** @param {LogHit} h */
    function go(h) {
      if (st.view.selected !== h.player) o.select(h.player);
      pb.seek(h.turn);
    }

    function render() {
      clear(list);
      var name = st.r ? function (/** @type {number} */ p) { return st.replay().P.players[p].name; } : String;
      hits.slice(0, maxListed).forEach(function (h) {
        var b = el('button', { type: 'button', cls: 'log-hit', 'data-turn': String(h.turn) }, 'turn ' + h.turn + ' · ' + name(h.player));
        b.addEventListener('click', function () { go(h); });
        list.appendChild(el('li', null, b));
      });
      if (!asked) status.textContent = '';
      else if (!hits.length) status.textContent = 'No bot log holds “' + asked + '”.';
      else status.textContent = hits.length + ' turn' + (hits.length === 1 ? '' : 's') + ' hold “' + asked + '”' + (hits.length > maxListed ? ' (the first ' + maxListed + ' listed; Enter goes through all)' : '') + '. Enter: the next; Shift+Enter: the previous.';
    }

    /**
     * next seeks the first match after the view's turn (d = 1) or the
     * last before it (d = -1), going round at the ends, of q (typed into
     * the box) or of what the box holds.
     * @param {number} d
     * @param {string=} q
     */
    function next(d, q) {
      if (q !== undefined) input.value = q;
      q = input.value.trim();
      if (q !== asked) { asked = q; hits = find(q); render(); }
      if (!hits.length) return;
      var t = st.view.turn, h = null;
      if (d > 0) h = hits.find(function (x) { return x.turn > t; }) || hits[0];
      else for (var i = hits.length - 1; i >= 0 && !h; i--) if (hits[i].turn < t) h = hits[i];
      go(h || hits[hits.length - 1]);
    }

    input.addEventListener('keydown', function (e) {
      if (e.key !== 'Enter') return;
      e.preventDefault();
      next(e.shiftKey ? -1 : 1);
    });
    input.addEventListener('input', function () { if (!input.value.trim()) { asked = ''; hits = []; render(); } });

    // build shows the box when the replay holds a log, and lists anew
    // what was asked (a live game's new turns).
    function build() {
      var any = st.replay().P.frames.some(function (f) { return (f.logs || []).some(Boolean); });
      box.hidden = !any;
      if (!any) return;
      if (!box.firstChild) box.append(el('label', { cls: 'log-search-label' }, 'Bot logs ', input), status, list);
      if (asked) { hits = find(asked); render(); }
    }

    return { build: build, next: next };
  }

  rewind.logSearch = logSearch;
})(window.rewind);
