// rewind replay page, keys.js: the page's keys (those of the playback,
// of the help and, through o.keys, the page's own) and the keyboard
// help (?).
(function (rewind) {
  'use strict';

  /**
   * keys listens to the page's keys once wired: the playback's (pb),
   * then o.keys(e) for the others (true: it took the key); Esc closes
   * the help, or calls o.onEscape.
   * @param {Playback} pb
   * @param {{keys?: function(KeyboardEvent): boolean, onEscape?: function(): void}} o
   * @returns {Keys}
   */
  function keys(pb, o) {
    var byId = rewind.dom.byId, help = byId('help');
    /** @param {boolean} [show] */
    function toggleHelp(show) { help.hidden = show === undefined ? !help.hidden : !show; }

    /** @param {KeyboardEvent} e */
    function onKey(e) {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      // Keys are the page's first (a capturing listener on window): after
      // a dropdown, a box or the slider was used, the arrows still change
      // the turn. Only text fields keep their keys.
      var target = e.target;
      if ((target instanceof HTMLInputElement && target !== pb.scrubber && target.type !== 'checkbox' && target.type !== 'range') || target instanceof HTMLTextAreaElement) return;
      var handled = true;
      switch (e.key) {
        case ' ': pb.actions.play(); break;
        case 'ArrowLeft': pb.step(e.shiftKey ? -10 : -1); break;
        case 'ArrowRight': pb.step(e.shiftKey ? 10 : 1); break;
        case 'ArrowDown': case 'PageDown': pb.step(-10); break;
        case 'ArrowUp': case 'PageUp': pb.step(10); break;
        case 'Home': pb.actions.start(); break;
        case 'End': pb.actions.end(); break;
        case '[': pb.changeSpeed(-1); break;
        case ']': pb.changeSpeed(1); break;
        case '?': toggleHelp(); break;
        case 'Escape':
          if (!help.hidden) toggleHelp(false);
          else if (o.onEscape) o.onEscape();
          break;
        default: handled = !!(o.keys && o.keys(e));
      }
      if (handled) e.preventDefault();
    }

    function wire() {
      window.addEventListener('keydown', onKey, true);
      // Space on a focused button or dropdown (its keypress, its keyup)
      // must not act a second time after the page's keydown.
      /** @type {('keypress'|'keyup')[]} */
      var after = ['keypress', 'keyup'];
      after.forEach(function (type) {
        window.addEventListener(type, function (e) {
          if (e.key === ' ' && (e.target instanceof HTMLButtonElement || e.target instanceof HTMLSelectElement)) e.preventDefault();
        }, true);
      });
      byId('help-button').addEventListener('click', function () { toggleHelp(); });
      help.addEventListener('click', function (e) { if (e.target === help) toggleHelp(false); });
    }

    return { wire: wire, toggleHelp: toggleHelp };
  }

  rewind.keys = keys;
})(window.rewind);
