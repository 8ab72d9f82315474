// rewind replay page, live.js: a live game's page (/live/ID) following
// its game. The server sends an event per new version of the game it
// has packed (followers skip to the newest); the page then fetches the
// frames so far again and takes them in (o.extend). One fetch at a time,
// one more after it if turns came meanwhile: no polling.
(function (rewind) {
  'use strict';

  var el = rewind.dom.el, clear = rewind.dom.clear, errorText = rewind.dom.errorText;

  /**
   * live follows the game of root's data-events (its frames at
   * data-src); o.frames() is how many frames the page has, o.extend(buf)
   * takes in newer ones.
   * @param {HTMLElement} root
   * @param {{frames: function(): number, extend: function(ArrayBuffer): void}} o
   * @returns {Live}
   */
  function live(root, o) {
    var eventsURL = root.getAttribute('data-events') || '', dataURL = root.getAttribute('data-src') || '';
    var liveBadge = document.getElementById('live-badge');
    var liveStatus = document.getElementById('live-status');
    /** @type {{over: boolean, fetching: boolean, again: boolean, updates: number, game: LiveGame|null}} */
    var live = { over: false, fetching: false, again: false, updates: 0, game: null };
    // The server sends an event per new version of the game it has packed
    // (followers skip to the newest); the page then fetches the frames so
    // far again and takes them in: at the live edge the view follows the
    // newest turn, otherwise it stays where the user scrubbed to while the
    // scrubber's range grows. One fetch at a time, one more after it if
    // turns came meanwhile: no polling.
    function follow() {
      if (!window.EventSource) return;
      var es = new EventSource(eventsURL);
      es.addEventListener('round', function (/** @type {MessageEvent} */ ev) { announce(JSON.parse(ev.data)); });
      es.addEventListener('done', function (/** @type {MessageEvent} */ ev) { es.close(); announce(JSON.parse(ev.data)); });
      es.addEventListener('gone', function (/** @type {MessageEvent} */ ev) {
        es.close();
        var why = JSON.parse(ev.data).error;
        if (!live.over) { live.over = true; say('This game can no longer be followed: ' + why); badge('GONE'); }
      });
      es.onerror = function () {
        // The browser retries by itself unless the server refused the
        // stream (too many followers); then try again a little later.
        if (es.readyState === EventSource.CLOSED && !live.over) setTimeout(follow, 10000);
      };
    }
    /**
     * @param {string} text
     * @param {string} [link]
     * @param {string} [linkText]
     */
    function say(text, link, linkText) {
      if (!liveStatus) return;
      clear(liveStatus);
      liveStatus.appendChild(document.createTextNode(text));
      if (link) { liveStatus.appendChild(document.createTextNode(' ')); liveStatus.appendChild(el('a', { href: link, text: linkText || '', 'data-testid': 'live-replay' })); }
    }
    /** @param {string} text */
    function badge(text) {
      if (!liveBadge) return;
      liveBadge.textContent = text;
      liveBadge.classList.toggle('over', text !== 'LIVE');
    }
    /** @param {LiveGame} g */
    function announce(g) {
      live.game = g;
      if (g.done) {
        live.over = true;
        badge('FINISHED');
        say('The game is over after ' + g.turn + ' turns.', g.replay, 'Open the finished replay');
        refreshLive(); // the whole game, with its final standings
      } else {
        say('Live: turn ' + g.turn + ' of ' + g.max_turn + '.');
        if (g.turn > o.frames() - 1) refreshLive();
      }
    }
    function refreshLive() {
      if (live.fetching) { live.again = true; return; }
      live.fetching = true;
      live.again = false;
      rewind.decode.fetch(dataURL).then(function (buf) {
        o.extend(buf);
        live.updates++;
      }).catch(function (err) {
        say('Cannot take in the new turns: ' + errorText(err));
      }).then(function () {
        live.fetching = false;
        if (live.again) refreshLive();
      });
    }

    return {
      follow: follow,
      state: function () { return { game: live.game, over: live.over, updates: live.updates }; }
    };
  }

  rewind.follow = live;
})(window.rewind);
