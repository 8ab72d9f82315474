// rewind replay page, panels.js: the text around the board — the
// active player's bar, the player table, the cell inspector, the
// commands of the turn with the bot log, the legend, the outcome and
// notices in the header, and the painter's own controls (Painter.controls)
// in the toolbar and the help.
(function (rewind) {
  'use strict';

  var dom = rewind.dom, el = dom.el, clear = dom.clear, fmt = dom.fmt, words = rewind.paint.words;

  /**
   * panels fills the page's panels from st at st.view's turn; bd is the
   * board (its colours, names and geometry), o.changed() is called when
   * a painter's control changed (the board and the legend to redraw).
   * @param {PageState} st
   * @param {Board} bd
   * @param {{changed: function(): void}} o
   * @returns {Panels}
   */
  function panels(st, bd, o) {
    var byId = dom.byId, canvas = byId('board'), playersTable = byId('players'), inspector = byId('inspector');
    var commandsPanel = byId('commands'), legend = byId('legend'), activeBar = byId('active');
    var color = bd.color, name = bd.name;
    /** @param {number} p */
    function swatch(p) { return dom.swatch(color(p)); }

    function renderActive() {
      var P = st.replay().P, F = st.replay().F, turn = st.view.turn;
      clear(activeBar);
      var f = P.frames[turn], next = turn + 1 < F ? P.frames[turn + 1].active : -1;
      if (!P.sequential) { activeBar.hidden = true; canvas.style.boxShadow = ''; return; }
      activeBar.hidden = false;
      if (f.active >= 0) {
        activeBar.appendChild(el('span', { cls: 'who', 'data-player': String(f.active) }, swatch(f.active), el('b', { text: name(f.active) }), ' acted this turn'));
        canvas.style.boxShadow = '0 0 0 3px ' + color(f.active);
      } else {
        activeBar.appendChild(el('span', { text: turn === 0 ? 'The board before the first turn.' : 'Nobody acted this turn.' }));
        canvas.style.boxShadow = '';
      }
      if (next >= 0) activeBar.appendChild(el('span', { cls: 'next' }, ' · next: ', swatch(next), name(next)));
    }

    // The player table: the game's headline columns (P.table, its document
    // layout) with a toggle to every metric, else every metric. A value the
    // stream cannot know (P.metrics[i].unknown) is '–'.
    var allMetrics = false;
    /**
     * running[k][p][t]: headline column k's value for player p at turn t
     * (null: a column of no running value), for the replay runningFor.
     * @type {(Float64Array[]|null)[]}
     */
    var running = [];
    /** @type {Replay|null} */
    var runningFor = null;
    /**
     * @param {number} i
     * @param {number} v
     */
    function metricText(i, v) { var P = st.replay().P; return P.metrics[i] && P.metrics[i].unknown ? '–' : v == null ? '' : fmt(v); }
    // runningColumns computes, once a replay, each headline column's
    // running values (peaks, their turns, the last event's turn) per
    // player and frame.
    function runningColumns() {
      var rp = st.replay();
      if (runningFor === rp) return running;
      var P = rp.P, F = rp.F, NP = rp.NP;
      runningFor = rp;
      running = (P.table || []).map(function (c) {
        if (c.of !== 'peak' && c.of !== 'peak_turn' && c.of !== 'event_turn') return null;
        /** @type {Float64Array[]} */
        var out = [];
        for (var p = 0; p < NP; p++) {
          var vals = new Float64Array(F), best = 0, at = 0;
          for (var t = 1; t < F; t++) {
            if (c.of === 'event_turn') {
              (P.frames[t].events || []).forEach(function (e) { if (e.n === c.event && e.p === p) at = t; });
            } else {
              var v = (P.frames[t].values[p] || [])[c.metric];
              if (v > best) { best = v; at = t; }
            }
            vals[t] = c.of === 'peak' ? best : at;
          }
          out.push(vals);
        }
        return out;
      });
      return running;
    }
    /**
     * @param {number} k
     * @param {PackedColumn} c
     * @param {number} p
     * @param {Frame} f
     */
    function columnText(k, c, p, f) {
      var P = st.replay().P, v = (f.values[p] || [])[c.metric];
      if (c.metric >= 0 && P.metrics[c.metric].unknown) return '–';
      if (c.of === 'final') return fmt(v);
      if (c.of === 'flag') return v ? 'yes' : '';
      var run = runningColumns()[k];
      return run ? fmt(run[p][st.view.turn]) : '';
    }
    function renderPlayers() {
      var P = st.replay().P, NP = st.replay().NP, selected = st.view.selected;
      clear(playersTable);
      var f = P.frames[st.view.turn], head = el('tr'), table = P.table && P.table.length && !allMetrics ? P.table : null;
      if (P.table && P.table.length) {
        var toggle = el('button', { type: 'button', cls: 'link', 'data-testid': 'all-metrics', title: 'Show every metric of the game, or its headline columns' },
          allMetrics ? 'headline columns' : 'all ' + P.metrics.length + ' metrics');
        toggle.addEventListener('click', function (ev) { ev.stopPropagation(); allMetrics = !allMetrics; renderPlayers(); toggle.blur(); });
        playersTable.appendChild(el('caption', null, toggle));
      }
      head.appendChild(el('th', { text: '#', title: 'rank after this turn' }));
      head.appendChild(el('th', { text: 'player' }));
      if (P.has_marks) head.appendChild(el('th', { text: 'marks', title: 'Show the marks this seat\'s bot drew over the board (docs/bot-protocol.md "Marks")' }));
      if (table) table.forEach(function (c) {
        var m = c.metric >= 0 ? P.metrics[c.metric] : null;
        head.appendChild(el('th', { text: c.heading, title: m ? words(m.name) + ' (' + m.unit + ')' + (c.of === 'final' ? '' : ': ' + words(c.of) + ' so far') : words(c.event) + ': the last turn' }));
      });
      // An amount's value is the round's (cells captured this round): its
      // heading says so, as the headline columns' say "total".
      else P.metrics.forEach(function (m, i) { head.appendChild(el('th', { text: words(m.name) + (m.kind === 'amount' ? ' this round' : ''), title: m.unit + ' (' + m.kind + ')' + (i === P.score ? ', the score' : '') + (m.unknown ? '; not known from this replay' : '') })); });
      playersTable.appendChild(el('thead', null, head));
      /** @type {Object<number, number>} */
      var rank = {};
      (f.ranking || []).forEach(function (p, i) { rank[p] = i + 1; });
      var body = el('tbody');
      for (var p = 0; p < NP; p++) {
        var cls = [];
        if (p === selected) cls.push('selected');
        if (P.sequential && p === f.active) cls.push('active');
        var tr = el('tr', { 'data-player': String(p), cls: cls.join(' ') });
        tr.appendChild(el('td', { text: rank[p] ? String(rank[p]) : '' }));
        var nm = el('td', { cls: 'name', title: P.players[p].bot ? 'bot: ' + P.players[p].bot : '' }, swatch(p), el('span', { cls: 'name-text', title: name(p), text: name(p) }));
        if (f.faults && f.faults[p]) nm.appendChild(el('span', { cls: 'fault', title: f.faults[p], text: ' ⚠ ' + f.faults[p] }));
        tr.appendChild(nm);
        if (P.has_marks) tr.appendChild(el('td', { cls: 'marks-toggle' }, marksToggle(p)));
        if (table) table.forEach(function (c, k) { tr.appendChild(el('td', { cls: c.metric === P.score && c.of === 'final' ? 'score' : '', text: columnText(k, c, p, f) })); });
        else (f.values[p] || []).forEach(function (v, i) { tr.appendChild(el('td', { cls: i === P.score ? 'score' : '', text: metricText(i, v) })); });
        body.appendChild(tr);
      }
      playersTable.appendChild(body);
    }
    /**
     * marksToggle is seat p's checkbox that shows or hides the marks its
     * bot drew (st.view.hiddenMarks); a click on it selects no player.
     * @param {number} p
     */
    function marksToggle(p) {
      /** @type {Object<number, boolean>} */
      var hidden = st.view.hiddenMarks || {};
      st.view.hiddenMarks = hidden;
      var box = /** @type {HTMLInputElement} */ (el('input', { type: 'checkbox', 'data-testid': 'marks-toggle', 'data-player': String(p), 'aria-label': 'show the marks of ' + name(p), title: 'Show the marks ' + name(p) + '\'s bot drew' }));
      box.checked = !hidden[p];
      box.addEventListener('click', function (ev) { ev.stopPropagation(); });
      box.addEventListener('change', function () { hidden[p] = !box.checked; o.changed(); box.blur(); });
      return box;
    }
    /** @param {boolean} on */
    function setAllMetrics(on) { allMetrics = !!on; renderPlayers(); }

    function renderInspector() {
      var rp = st.replay(), P = rp.P, v = st.view, painter = st.painter, i = v.pinned >= 0 ? v.pinned : v.hover;
      clear(inspector);
      if (i < 0) { inspector.appendChild(el('p', { cls: 'hint', text: 'Hover or click a cell.' })); return; }
      rp.cellsAt(v.turn);
      var c = rp.cellOf(i), tb = el('table');
      inspector.appendChild(el('h3', { text: 'cell (' + c.x + ', ' + c.y + ')' + (v.pinned >= 0 ? ' · pinned' : '') }));
      var tname = painter.terrainName ? painter.terrainName(c.terrain) : null;
      /**
       * @param {string} k
       * @param {Node|string} val
       */
      function row(k, val) { tb.appendChild(el('tr', null, el('th', { text: k }), el('td', null, val))); }
      row(words(P.board.terrain) || 'terrain', tname != null ? tname + ' (' + c.terrain + ')' : fmt(c.terrain));
      row('owner', el('span', null, c.owner >= 0 ? swatch(c.owner) : null, name(c.owner)));
      row(words(P.board.value) || 'value', fmt(c.value));
      var layerNames = P.board.layers || [];
      rp.layers.forEach(function (l, j) { row(words(layerNames[j]), fmt(l[i])); });
      var rows = painter.inspect ? painter.inspect(c, bd.geometry()) : null;
      if (rows) rows.forEach(function (r) { row(r[0], r[1]); });
      else if (P.board.badges && P.board.badges.length) {
        /** @type {string[]} */
        var bs = [];
        P.board.badges.forEach(function (b, k) { if (c.badges & (1 << k)) bs.push(words(b)); });
        row('badges', bs.join(', ') || 'none');
      }
      (P.frames[v.turn].entities || []).forEach(function (e) {
        if (e.x !== c.x || e.y !== c.y) return;
        row(words(e.k), el('span', null, swatch(e.p), name(e.p) + ' · health ' + fmt(e.h) + (e.v ? ' · ' + fmt(e.v) : '') + (e.l ? ' · ' + e.l : '')));
      });
      inspector.appendChild(tb);
    }

    // The commands of the turn (the selected player's, or everyone's), the
    // failed ones struck through with their error, and a bot log: the
    // selected player's, else the active one's. Turn t's commands are
    // those of the round t-1 → t, the bots' replies to turn t-1
    // (docs/replay-format.md); in a Sequential game, the player-turn of
    // the one who acted.
    /**
     * @param {number} p
     * @param {number} n
     * @param {Frame} f
     */
    function commandsHead(p, n, f) {
      var t = st.view.turn, count = n + ' command' + (n === 1 ? '' : 's'), sequential = st.replay().P.sequential;
      if (sequential && p === f.active) return name(p) + ' acted this turn: ' + count + ' (its reply to turn ' + (t - 1) + ')';
      if (sequential) return name(p) + ': ' + count + ' in turn ' + t + ' (its reply to turn ' + (t - 1) + ')';
      return name(p) + ': ' + count + ' in round ' + (t - 1) + ' → ' + t + ' (its reply to turn ' + (t - 1) + ')';
    }
    function renderCommands() {
      var P = st.replay().P, NP = st.replay().NP, turn = st.view.turn, selected = st.view.selected, painter = st.painter;
      clear(commandsPanel);
      var f = P.frames[turn];
      commandsPanel.appendChild(el('h3', { text: 'commands of turn ' + turn + (selected >= 0 ? ' · ' + name(selected) : '') }));
      if (turn === 0) { commandsPanel.appendChild(el('p', { cls: 'hint', text: 'Turn 0 is the board before the first turn.' })); return; }
      // Each seat's reply time of the round (the selected one's), when
      // the replay has them (side data: docs/viewer.md "Reply times").
      if (f.replies) {
        var replies = el('p', { cls: 'reply-times', 'data-testid': 'reply-times' }, 'reply time: ');
        for (var q = 0, sep = ''; q < NP; q++) {
          if (selected >= 0 && q !== selected) continue;
          replies.appendChild(el('span', { cls: 'reply-time', 'data-player': String(q) }, sep, swatch(q), name(q) + ' ' + dom.replyText(f.replies[q])));
          sep = ' · ';
        }
        commandsPanel.appendChild(replies);
      }
      if (selected < 0 && P.has_commands) commandsPanel.appendChild(el('p', { cls: 'hint', 'data-testid': 'click-player', text: 'Click a player to see only its commands and its bot log for this ' + (P.sequential ? 'turn.' : 'round.') }));
      // The painter's lines on the selected player (ColorfightII: whom it
      // took cells from), as text.
      if (selected >= 0 && painter.player) (painter.player(selected, f, bd.geometry()) || []).forEach(function (l) {
        commandsPanel.appendChild(el('p', { cls: 'hint player-line', 'data-testid': l.id || 'player-line', text: l.text }));
      });
      if (!P.has_commands) commandsPanel.appendChild(el('p', { cls: 'hint', text: 'This replay records states, not commands.' }));
      // Inferred commands (an official replay of states) are said to be,
      // in the server's words; a turn without known commands says so.
      if (P.commands_inferred) commandsPanel.appendChild(el('p', { cls: 'inferred', 'data-testid': 'inferred', text: P.commands_note || '' }));
      var unknown = P.has_commands && f.no_commands;
      if (unknown) commandsPanel.appendChild(el('p', { cls: 'hint unexplained', 'data-testid': 'no-commands', text: P.commands_inferred ? P.unexplained_note || '' : 'The commands of this turn are not known.' }));
      /** @type {Object<number, PackedError[]>} */
      var errs = {};
      (f.errors || []).forEach(function (e) { (errs[e.p] = errs[e.p] || []).push(e); });
      var any = false;
      for (var p = 0; p < NP; p++) {
        if (selected >= 0 && p !== selected) continue;
        var cmds = (f.commands || [])[p] || [], pe = errs[p] || [], sent = f.sent ? f.sent[p] : cmds.length;
        if (!cmds.length && !pe.length && !sent) continue;
        any = true;
        var box = el('div', { cls: 'player-cmds', 'data-player': String(p) }, el('h4', { 'data-testid': 'commands-head' }, swatch(p), commandsHead(p, Math.max(sent || 0, cmds.length), f)));
        var list = el('ol', { start: '0' });
        cmds.forEach(function (c, k) {
          var bad = pe.filter(function (e) { return e.i === k; });
          var said = painter.command ? painter.command(c, p, f, bd.geometry()) : null;
          var li = el('li', { cls: bad.length ? 'failed' : '' }, el('span', said == null ? { cls: 'cmd', text: c } : { cls: 'cmd said', text: said, title: c, 'data-raw': c }));
          bad.forEach(function (e) { li.appendChild(el('div', { cls: 'err', text: e.t + (e.c ? ' (' + e.c + ')' : '') })); });
          list.appendChild(li);
        });
        if (cmds.length) box.appendChild(list);
        // The commands not listed: how many, and how many of them were
        // rejected (those past MaxCommandsShown counted by the server, the
        // others' errors listed below).
        if (sent > cmds.length) {
          var rejected = (f.rejected ? f.rejected[p] || 0 : 0) + pe.filter(function (e) { return e.i >= cmds.length; }).length;
          box.appendChild(el('p', { cls: 'hint', 'data-testid': 'commands-more', text: '…and ' + (sent - cmds.length) + ' more (' + rejected + ' rejected)' }));
        }
        pe.forEach(function (e) { if (e.i < 0 || e.i >= cmds.length) box.appendChild(el('div', { cls: 'err', text: (e.i < 0 ? '' : 'command ' + e.i + ': ') + e.t })); });
        commandsPanel.appendChild(box);
      }
      if (!any && !unknown) commandsPanel.appendChild(el('p', { cls: 'hint', text: 'No commands.' }));
      var who = selected >= 0 ? selected : f.active;
      if (who < 0) return;
      var log = (f.logs || [])[who] || '', unseen = P.players[who].no_log;
      commandsPanel.appendChild(el('h4', { cls: 'botlog-head' }, 'Bot log of ', swatch(who), name(who), ' this turn'));
      // An official client's program is not rewind's to see: the server
      // says why it has no log (P.players[who].no_log).
      if (log) commandsPanel.appendChild(el('pre', { cls: 'botlog', 'data-testid': 'botlog', text: log }));
      else if (unseen) commandsPanel.appendChild(el('p', { cls: 'hint', 'data-testid': 'botlog-unseen', text: unseen }));
      else commandsPanel.appendChild(el('p', { cls: 'hint', 'data-testid': 'botlog-none', text: 'Nothing logged this turn.' }));
    }

    function markLegend() {
      legend.querySelectorAll('.item.player').forEach(function (it) { var p = it.getAttribute('data-player'); it.classList.toggle('selected', p !== null && +p === st.view.selected); });
    }
    function buildLegend() {
      var P = st.replay().P, NP = st.replay().NP, painter = st.painter;
      clear(legend);
      for (var p = 0; p < NP; p++) legend.appendChild(el('span', { cls: 'item player', 'data-player': String(p) }, swatch(p), name(p)));
      /** @type {string[]} */
      var key = [];
      var items = typeof painter.legend === 'function' ? painter.legend(P, bd.geometry()) : painter.legend;
      if (typeof items === 'string') key.push(items);
      else if (items) {
        // Items: text, or {color, text} with a swatch.
        items.forEach(function (it) {
          if (typeof it === 'string') { legend.appendChild(el('span', { cls: 'item key', text: it })); return; }
          legend.appendChild(el('span', { cls: 'item key' }, dom.swatch(it.color), it.text));
        });
      } else {
        if (P.board.terrain) key.push('ground: ' + words(P.board.terrain));
        if (P.board.value) key.push('number: ' + words(P.board.value));
        (P.board.badges || []).forEach(function (b, k) { var bdg = bd.badgeOf(k); if (bdg) key.push(bdg.text + ': ' + words(b)); });
        key.push('discs: units with their health');
        key.push('arrows, blasts, numbered paths: the turn\'s effects (E hides them)');
      }
      if (key.length) legend.appendChild(el('span', { cls: 'item key', text: key.join(' · ') }));
    }

    // showOutcome puts the analysis's outcome in the header, after the
    // summary.
    function showOutcome() {
      var s = document.querySelector('[data-testid=summary]'), out = document.querySelector('[data-testid=outcome]'), outcome = st.replay().P.outcome;
      if (!s || !outcome) return;
      if (!out) { out = el('span', { cls: 'summary outcome', 'data-testid': 'outcome' }); s.after(out); }
      out.textContent = outcome;
    }
    // notices puts the replay's warning and notice above root.
    /** @param {HTMLElement} root */
    function notices(root) {
      var P = st.replay().P;
      if (P.warning) root.before(el('p', { cls: 'warning', role: 'alert', text: P.warning }));
      if (P.notice) root.before(el('p', { cls: 'notice', 'data-testid': 'notice', text: P.notice }));
    }

    // ---- the painter's controls -----------------------------------------
    // Built once (the painter's, for the page's game): a select or a
    // checkbox each in the toolbar, a row each in the help; their state
    // in st.controls (Geometry.controls).
    /** @type {{c: PainterControl, key: string, input: HTMLInputElement|HTMLSelectElement}[]} */
    var controls = [];
    function buildControls() {
      var bar = document.querySelector('.controls'), help = document.querySelector('#help table');
      (st.painter.controls || []).forEach(function (c) {
        if (!c || !c.id || st.controls.hasOwnProperty(c.id)) return;
        var key = c.key ? String(c.key).toLowerCase() : '', title = (c.help || c.label || c.id) + (key ? ' (' + key.toUpperCase() + ')' : '');
        /** @type {HTMLInputElement|HTMLSelectElement} */
        var input;
        if (c.choices) {
          var sel = input = el('select', { id: 'control-' + c.id, 'data-control': c.id, title: title });
          c.choices.forEach(function (ch) { sel.appendChild(el('option', { value: String(ch[0]), text: ch[1] })); });
          sel.value = String(rewind.board.controlValue(c));
          st.controls[c.id] = sel.value;
          sel.addEventListener('change', function () { setControl(c.id, sel.value); sel.blur(); });
        } else {
          var box = input = el('input', { type: 'checkbox', id: 'control-' + c.id, 'data-control': c.id });
          box.checked = !!rewind.board.controlValue(c);
          st.controls[c.id] = box.checked;
          box.addEventListener('change', function () { setControl(c.id, box.checked); box.blur(); });
        }
        controls.push({ c: c, key: key, input: input });
        if (bar) bar.appendChild(c.choices ? el('label', { title: title }, (c.label || c.id) + ' ', input) : el('label', { title: title }, input, ' ' + (c.label || c.id)));
        if (help && key) {
          // Before the Esc row, the last two being Esc's and the help's.
          var row = el('tr', { 'data-control': c.id }, el('td', null, el('kbd', { text: key.toUpperCase() })), el('td', { text: c.help || c.label || c.id }));
          var rows = help.querySelectorAll('tr'), esc = rows.length >= 2 ? rows[rows.length - 2] : null;
          if (esc) esc.before(row); else help.appendChild(row);
        }
      });
    }
    /**
     * @param {string} id
     * @param {string|boolean} v
     */
    function setControl(id, v) {
      controls.forEach(function (k) {
        if (k.c.id !== id) return;
        // A control with choices is a select, any other a checkbox.
        var input = k.input;
        if (input instanceof HTMLSelectElement) { input.value = String(v); st.controls[id] = input.value; }
        else { input.checked = !!v; st.controls[id] = input.checked; }
      });
      o.changed();
    }
    /**
     * controlKey takes key when it is a control's (true), stepping a
     * select's choices or flipping a checkbox.
     * @param {string} key
     */
    function controlKey(key) {
      key = String(key).toLowerCase();
      for (var i = 0; i < controls.length; i++) {
        var k = controls[i];
        if (!k.key || k.key !== key) continue;
        var input = k.input;
        if (input instanceof HTMLSelectElement) setControl(k.c.id, input.options[(input.selectedIndex + 1) % input.options.length].value);
        else setControl(k.c.id, !input.checked);
        return true;
      }
      return false;
    }

    return {
      renderActive: renderActive, renderPlayers: renderPlayers, renderInspector: renderInspector, renderCommands: renderCommands,
      buildLegend: buildLegend, markLegend: markLegend, showOutcome: showOutcome, notices: notices,
      buildControls: buildControls, controlKey: controlKey, setAllMetrics: setAllMetrics
    };
  }

  rewind.panels = panels;
})(window.rewind);
