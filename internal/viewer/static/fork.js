// rewind replay page, fork.js: "play on from here" on a library's page
// (#fork): the seats, each with a choice of bot, and the new game opened.
(function (rewind) {
  'use strict';

  var dom = rewind.dom, el = dom.el, clear = dom.clear;

  /**
   * @typedef {Object} BotChoice
   * @property {string} id
   * @property {string} bot
   * @property {string} label
   */

  /**
   * The server's answers (JSON): the bots it offers for a game
   * (GET /api/fork/bots), the new game it played (POST /api/fork); error
   * when it could not.
   * @typedef {{choices?: BotChoice[], error?: string}} BotsAnswer
   * @typedef {{url?: string, id?: string, error?: string}} ForkAnswer
   */

  /** @type {Fork} */
  var NO_FORK = { wire: function () {}, update: function () {} };

  /**
   * disable disables (on) or enables the seats' choices and the button
   * of form.
   * @param {HTMLFormElement} form
   * @param {boolean} on
   */
  function disable(form, on) {
    form.querySelectorAll('select, button').forEach(function (x) {
      if (x instanceof HTMLSelectElement || x instanceof HTMLButtonElement) x.disabled = on;
    });
  }

  /**
   * fork offers to play st's replay on from the turn shown, when the
   * page has a #fork button.
   * @param {PageState} st
   * @param {Playback} pb
   * @param {Board} bd
   * @returns {Fork}
   */
  function fork(st, pb, bd) {
    // On a library's page (#fork), "play on from here" first shows the
    // seats: each player with the bot that played it and a choice of the
    // bots the server offers for this game (GET /api/fork/bots?game=…: its
    // built-ins and the bots the server was started with), preselected to
    // the seat's own bot (a seat that names none gets the built-ins in
    // turn). "play on" POSTs the replay's id, the turn shown and the
    // choices in player order; the server plays the new game and answers
    // where it is, which the page opens at that turn.
    var button = document.getElementById('fork');
    if (!(button instanceof HTMLButtonElement)) return NO_FORK;
    var forkButton = button, forkStatus = dom.byId('fork-status'), forkURL = forkButton.getAttribute('data-url') || '';
    var forking = false;
    /** @type {HTMLFormElement|null} */
    var forkForm = null;
    function playOn() {
      if (forking) return;
      pb.pause();
      if (forkForm) { forkForm.remove(); forkForm = null; return; }
      forkStatus.className = 'fork-status';
      forkStatus.textContent = 'Asking the server which bots can play…';
      fetch(forkURL + '/bots?game=' + encodeURIComponent(st.replay().P.game), { credentials: 'same-origin' }).then(function (res) {
        return res.json();
      }).then(function (/** @type {BotsAnswer} */ r) {
        if (!r.choices || !r.choices.length) throw new Error(r.error || 'the server offers no bots for this game');
        forkStatus.textContent = '';
        showSeats(r.choices);
      }).catch(function (err) {
        forkStatus.className = 'fork-status bad';
        forkStatus.textContent = dom.errorText(err);
      });
    }
    /** @param {BotChoice[]} choices */
    function showSeats(choices) {
      var builtins = choices.filter(function (c) { return c.id === c.bot && c.id.indexOf(':') < 0; });
      var form = forkForm = el('form', { cls: 'fork-seats', 'data-testid': 'fork-seats' });
      var table = el('table');
      table.appendChild(el('tr', null, el('th', { text: 'seat' }), el('th', { text: 'played by' }), el('th', { text: 'plays on with' }), el('th', { text: '' })));
      st.replay().P.players.forEach(function (pl, p) {
        var sel = el('select', { 'data-player': String(p), 'aria-label': 'bot of ' + pl.name });
        var own = choices.filter(function (c) { return pl.bot && c.bot === pl.bot; })[0];
        var pick = own || builtins[p % Math.max(1, builtins.length)] || choices[0];
        choices.forEach(function (c) {
          var o = el('option', { value: c.id, text: c.label });
          if (c === pick) o.selected = true;
          sel.appendChild(o);
        });
        // The note says, before it plays, whether the seat plays on with
        // its own bot or which bot the choice puts in its place.
        var note = el('td', { cls: 'fork-note', 'data-testid': 'fork-note' });
        var played = pl.no_log ? 'the official client' : (pl.bot || '');
        var say = function () {
          var c = choices.filter(function (x) { return x.id === sel.value; })[0];
          note.textContent = c && pl.bot && c.bot === pl.bot ? 'as it played'
            : 'in place of ' + (played ? played : 'a bot the replay does not name');
          note.className = c && pl.bot && c.bot === pl.bot ? 'fork-note' : 'fork-note replaced';
        };
        sel.addEventListener('change', say);
        say();
        table.appendChild(el('tr', null, el('td', null, dom.swatch(bd.color(p)), ' ' + bd.name(p)),
          el('td', { text: played || 'not recorded' }), el('td', null, sel), note));
      });
      form.appendChild(table);
      form.appendChild(el('button', { type: 'submit', id: 'fork-go', text: 'play on from turn ' + st.view.turn }));
      form.addEventListener('submit', function (ev) { ev.preventDefault(); submitFork(form); });
      if (forkStatus.parentNode) forkStatus.parentNode.appendChild(form);
    }
    /** @param {HTMLFormElement} form */
    function submitFork(form) {
      var t = st.view.turn;
      forking = true;
      forkButton.disabled = true;
      forkStatus.className = 'fork-status';
      forkStatus.textContent = 'Playing on from turn ' + t + '…';
      var url = forkURL + '?id=' + encodeURIComponent(forkButton.getAttribute('data-id') || '') + '&turn=' + t;
      form.querySelectorAll('select').forEach(function (sel) { url += '&bot=' + encodeURIComponent(sel.value); });
      disable(form, true);
      fetch(url, { method: 'POST', credentials: 'same-origin' }).then(function (res) {
        return res.json().catch(function () { return { error: 'the server answered ' + res.status }; });
      }).then(function (/** @type {ForkAnswer} */ r) {
        if (!r.url) throw new Error(r.error || 'no new replay');
        clear(forkStatus);
        forkStatus.className = 'fork-status ok';
        forkStatus.appendChild(document.createTextNode('New game: '));
        forkStatus.appendChild(el('a', { href: r.url + '#turn=' + t, text: r.id || '' }));
        location.assign(r.url + '#turn=' + t); // the new game opens where it leaves its parent
      }).catch(function (err) {
        forking = false;
        update(st.view.turn);
        disable(form, false);
        forkStatus.className = 'fork-status bad';
        forkStatus.textContent = dom.errorText(err);
      });
    }

    // update enables the button at turn t: one with a turn before and after.
    /** @param {number} t */
    function update(t) { forkButton.disabled = forking || t < 1 || t >= st.replay().F - 1; }
    function wire() { forkButton.addEventListener('click', playOn); }
    return { wire: wire, update: update };
  }

  rewind.fork = fork;
})(window.rewind);
