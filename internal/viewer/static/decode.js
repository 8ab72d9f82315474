// rewind replay page, decode.js: the packed replay (viewer.Packed,
// contract.js's Packed) loaded and read. load fetches it (gzip'd JSON)
// or reads it inline from an exported page; open parses it into a
// Replay, which keeps the cells of any turn from frame 0's and each
// frame's changes.
(function (rewind) {
  'use strict';

  // Every K frames a copy of the cells is kept the first time a walk
  // passes, so a seek replays at most K frames of changes.
  var K = 32;

  /**
   * fetchBuffer fetches a page's packed data. The data gzip'd as it is
   * (?data=1, application/gzip) is inflated here, so only the compressed
   * bytes cross from the network to the page. An answer that is not 200
   * rejects with its text (the server's reason).
   * @param {string} url
   * @returns {Promise<ArrayBuffer>}
   */
  function fetchBuffer(url) {
    return fetch(url).then(function (res) {
      if (!res.ok) return res.text().then(function (t) { throw new Error(t || res.statusText); });
      if (res.headers.get('Content-Type') === 'application/gzip' && res.body) return new Response(res.body.pipeThrough(new DecompressionStream('gzip'))).arrayBuffer();
      return res.arrayBuffer();
    });
  }

  /**
   * load is the page's data: inline in an exported page (#rw-data,
   * gzip'd and base64'd), else fetched from root's data-src (a page with
   * neither rejects).
   * @param {HTMLElement} root
   * @returns {Promise<ArrayBuffer>}
   */
  function load(root) {
    var inline = document.getElementById('rw-data'), src = root.getAttribute('data-src');
    if (!inline) return src === null ? Promise.reject(new Error('the page has no data (no #rw-data, no data-src)')) : fetchBuffer(src);
    var s = atob((inline.textContent || '').trim()), bin = new Uint8Array(s.length);
    for (var i = 0; i < s.length; i++) bin[i] = s.charCodeAt(i);
    return new Response(new Blob([bin]).stream().pipeThrough(new DecompressionStream('gzip'))).arrayBuffer();
  }

  /**
   * open parses a packed replay. The cells of the turn last asked for
   * (cellsAt) are kept whole; the board's layers (P.board.layers) too:
   * layer k's values frame 0's whole, then [gap, value] pairs where they
   * change; a layer that never changes after frame 0 is in no
   * checkpoint. It throws on data of another version.
   * @param {ArrayBuffer} buf
   * @returns {Replay}
   */
  function open(buf) {
    /** @type {Packed} */
    var P = JSON.parse(new TextDecoder().decode(buf));
    if (!P || P.version !== 2) throw new Error('not a generic replay of version 2');
    var F = P.frames.length, W = P.board.width, H = P.board.height, N = W * H;
    var terrain = new Float64Array(N), owner = new Int32Array(N), value = new Float64Array(N), badges = new Uint32Array(N);
    var cur = -1;
    /**
     * The cells and the moving layers at every K-th turn walked past.
     * @type {Object<number, [Float64Array, Int32Array, Float64Array, Uint32Array, (Float64Array|null)[]]>}
     */
    var checkpoints = {};
    /** @type {Object<string, number>} */
    var layerIndex = {};
    var layers = (P.board.layers || []).map(function (name, j) { layerIndex[name] = j; return new Float64Array(N); });
    var moves = layers.map(function (l, j) {
      for (var t = 1; t < F; t++) { var fl = P.frames[t].layers; if (fl && fl[j]) return true; }
      return false;
    });
    /** @type {Object<string, number>} */
    var maxHealth = {};
    P.frames.forEach(function (f) {
      (f.entities || []).forEach(function (e) { maxHealth[e.k] = Math.max(maxHealth[e.k] || 0, e.h); });
    });

    /** @param {number} t */
    function applyFrame(t) {
      var f = P.frames[t], c = f.cells, i, k, j;
      if (t === 0) {
        for (i = 0; i < N; i++) { terrain[i] = c[4 * i]; owner[i] = c[4 * i + 1]; value[i] = c[4 * i + 2]; badges[i] = c[4 * i + 3]; }
      } else {
        // [gap, which fields (1 terrain, 2 owner, 4 value, 8 badges), their values]
        for (k = 0, i = -1; k + 1 < c.length;) {
          i += c[k];
          var m = c[k + 1];
          k += 2;
          if (m & 1) terrain[i] = c[k++];
          if (m & 2) owner[i] = c[k++];
          if (m & 4) value[i] = c[k++];
          if (m & 8) badges[i] = c[k++];
        }
      }
      for (j = 0; j < layers.length; j++) {
        var l = f.layers && f.layers[j];
        if (!l) continue;
        if (t === 0) layers[j].set(l.slice(0, N));
        else for (k = 0, i = -1; k + 1 < l.length; k += 2) { i += l[k]; layers[j][i] = l[k + 1]; }
      }
      cur = t;
      if (t % K === 0 && !checkpoints[t]) checkpoints[t] = [terrain.slice(), owner.slice(), value.slice(), badges.slice(), layers.map(function (l, j) { return moves[j] ? l.slice() : null; })];
    }
    /** @param {number} t */
    function cellsAt(t) {
      if (t === cur) return;
      if (t < cur || t - cur > K) {
        var c = Math.floor(t / K) * K;
        while (c > 0 && !checkpoints[c]) c -= K;
        var cp = checkpoints[c];
        terrain.set(cp[0]); owner.set(cp[1]); value.set(cp[2]); badges.set(cp[3]);
        cp[4].forEach(function (l, j) { if (l) layers[j].set(l); });
        cur = c;
      }
      while (cur < t) applyFrame(cur + 1);
    }
    /**
     * @param {number} i
     * @returns {Cell}
     */
    function cellOf(i) {
      return { x: i % W, y: Math.floor(i / W), terrain: terrain[i], owner: owner[i], value: value[i], badges: badges[i] };
    }
    /**
     * @param {number} x
     * @param {number} y
     */
    function inBoard(x, y) { return x >= 0 && y >= 0 && x < W && y < H; }
    /**
     * cellAt is cell (x, y) at turn t; the cells of the turn last asked
     * for stay where they were.
     * @param {number} t
     * @param {number} x
     * @param {number} y
     */
    function cellAt(t, x, y) {
      var keep = cur;
      cellsAt(t);
      var c = cellOf(y * W + x);
      cellsAt(keep);
      return c;
    }
    /**
     * layerAt is layer name's value at cell (x, y) at turn t, null for a
     * layer the board has not or a cell off it; the cells of the turn
     * last asked for stay where they were.
     * @param {string} name
     * @param {number} t
     * @param {number} x
     * @param {number} y
     */
    function layerAt(name, t, x, y) {
      var j = layerIndex.hasOwnProperty(name) ? layerIndex[name] : -1;
      if (j < 0 || !inBoard(x, y) || !(t >= 0 && t < F)) return null;
      if (t === cur || !moves[j]) return layers[j][y * W + x];
      var keep = cur;
      cellsAt(t);
      var v = layers[j][y * W + x];
      cellsAt(keep);
      return v;
    }
    // warm walks to the last frame and back, keeping every checkpoint.
    function warm() { var keep = cur; cellsAt(F - 1); cellsAt(keep); }

    applyFrame(0);
    return {
      P: P, F: F, W: W, H: H, N: N, NP: P.players.length, layers: layers, maxHealth: maxHealth,
      cellsAt: cellsAt, cellOf: cellOf, cellAt: cellAt, layerAt: layerAt, inBoard: inBoard, warm: warm
    };
  }

  rewind.decode = { fetch: fetchBuffer, load: load, open: open };
})(window.rewind);
