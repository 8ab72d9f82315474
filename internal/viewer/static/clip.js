// rewind replay page, clip.js: a clip of the page to share (docs/viewer.md
// "Clips") — a PNG of the turn shown, and a WebM video of the board(s),
// and optionally the charts, over a range of turns. Everything is drawn
// and encoded in the browser (canvas.captureStream and MediaRecorder):
// no request, no server-side rendering.
(function (rewind) {
  'use strict';

  var dom = rewind.dom, dark = dom.dark;
  // The video types tried, in order; the first the browser records wins.
  var TYPES = ['video/webm;codecs=vp8', 'video/webm;codecs=vp9', 'video/webm'];

  /**
   * clip exports src's boards: wire() connects the page's #clip controls
   * (clip.templ); png() and webm(o) make the files, which the controls
   * then download. The last export's outcome is rewind.clipResult.
   * @param {ClipSource} src
   * @returns {Clip}
   */
  function clip(src) {
    var byId = dom.byId, busy = false;

    /**
     * layout is where each part of a frame of the clip goes: the boards
     * side by side under a line of text, the charts (withCharts) two a row
     * below, scaled to half the boards' width.
     * @param {boolean} withCharts
     */
    function layout(withCharts) {
      var boards = src.boards(), d = window.devicePixelRatio || 1, gap = Math.round(8 * d), head = Math.round(22 * d);
      var w = 0, h = 0;
      boards.forEach(function (b, i) { w += b.canvas.width + (i ? gap : 0); h = Math.max(h, b.canvas.height); });
      /** @type {{box: HTMLElement, canvas: HTMLCanvasElement, x: number, y: number, w: number, h: number}[]} */
      var charts = [];
      var y = head + (boards.length > 1 ? head : 0) + h + gap;
      if (withCharts) {
        var cw = Math.floor((w - gap) / 2), row = 0;
        document.querySelectorAll('#charts .chart').forEach(function (box, k) {
          var c = box.querySelector('canvas');
          if (!(box instanceof HTMLElement) || !(c instanceof HTMLCanvasElement) || !c.width) return;
          var ch = Math.round(cw * c.height / c.width);
          charts.push({ box: box, canvas: c, x: (k % 2) * (cw + gap), y: y, w: cw, h: ch });
          row = Math.max(row, ch);
          if (k % 2 === 1) { y += row + gap; row = 0; }
        });
        y += row;
      }
      // Even sizes: the video encoders want them.
      return { boards: boards, charts: charts, gap: gap, head: head, d: d, width: 2 * Math.ceil(w / 2), height: 2 * Math.ceil(y / 2) };
    }

    /**
     * draw paints the turn shown on canvas, as l lays it out.
     * @param {HTMLCanvasElement} canvas
     * @param {ReturnType<typeof layout>} l
     */
    function draw(canvas, l) {
      var context = canvas.getContext('2d');
      if (!context) throw new Error('the clip\'s canvas has no 2d context');
      var ctx = context;
      ctx.fillStyle = dark ? '#17181b' : '#ffffff';
      ctx.fillRect(0, 0, canvas.width, canvas.height);
      ctx.fillStyle = dark ? '#e4e4e7' : '#1d1d1f';
      ctx.textBaseline = 'middle';
      ctx.font = Math.round(13 * l.d) + 'px system-ui, sans-serif';
      ctx.fillText(src.label(), 4 * l.d, l.head / 2);
      var x = 0, top = l.head + (l.boards.length > 1 ? l.head : 0);
      l.boards.forEach(function (b) {
        if (l.boards.length > 1) ctx.fillText(b.label, x + 4 * l.d, l.head * 1.5, b.canvas.width - 8 * l.d);
        ctx.drawImage(b.canvas, x, top);
        x += b.canvas.width + l.gap;
      });
      l.charts.forEach(function (c) {
        ctx.drawImage(c.canvas, c.x, c.y, c.w, c.h);
        // The chart's cursor at the turn is an element over its canvas.
        var cur = c.box.querySelector('.cursor'), s = c.w / (c.box.clientWidth || c.w);
        if (cur instanceof HTMLElement && cur.style.display === 'block') {
          ctx.fillStyle = dark ? 'rgba(255,255,255,0.6)' : 'rgba(0,0,0,0.55)';
          ctx.fillRect(c.x + cur.offsetLeft * s, c.y + cur.offsetTop * s, Math.max(1, 2 * s), cur.offsetHeight * s);
        }
      });
    }

    /**
     * png is the turn shown (its board or boards, with a line saying the
     * turn) as a PNG image.
     * @returns {Promise<Blob>}
     */
    function png() {
      var l = layout(false), canvas = document.createElement('canvas');
      canvas.width = l.width; canvas.height = l.height;
      draw(canvas, l);
      return new Promise(function (resolve, reject) {
        canvas.toBlob(function (b) { if (b) resolve(b); else reject(new Error('the browser made no PNG')); }, 'image/png');
      });
    }

    /**
     * webm records turns o.from to o.to (clamped to the replay), o.fps a
     * second, as a WebM video: each turn is shown, drawn and given to the
     * recorder as one frame. The page shows the turn it showed before
     * once it is done. It rejects when the browser cannot record (no
     * MediaRecorder, no WebM) or another recording is under way.
     * @param {{from: number, to: number, fps: number, charts: boolean}} o
     * @returns {Promise<Blob>}
     */
    function webm(o) {
      if (busy) return Promise.reject(new Error('a clip is being recorded already'));
      if (typeof MediaRecorder === 'undefined') return Promise.reject(new Error('this browser cannot record video (it has no MediaRecorder)'));
      var type = TYPES.find(function (t) { return MediaRecorder.isTypeSupported(t); });
      if (!type) return Promise.reject(new Error('this browser cannot record WebM video'));
      var F = src.frames(), from = Math.max(0, Math.min(F - 1, Math.round(o.from) || 0)), to = Math.max(from, Math.min(F - 1, Math.round(o.to) || 0));
      var ms = 1000 / Math.max(1, Math.min(60, o.fps || 10)), keep = src.turn(), mime = type;
      busy = true;
      src.seek(from);
      var l = layout(!!o.charts), canvas = document.createElement('canvas');
      canvas.width = l.width; canvas.height = l.height;
      draw(canvas, l);
      var stream = canvas.captureStream(0), track = /** @type {CanvasCaptureMediaStreamTrack} */ (stream.getVideoTracks()[0]);
      var rec = new MediaRecorder(stream, { mimeType: mime, videoBitsPerSecond: 4000000 });
      /** @type {Blob[]} */
      var chunks = [];
      rec.ondataavailable = function (e) { if (e.data && e.data.size) chunks.push(e.data); };
      return new Promise(function (resolve, reject) {
        function done() {
          busy = false;
          stream.getTracks().forEach(function (t) { t.stop(); });
          src.seek(keep);
        }
        rec.onstop = function () { done(); resolve(new Blob(chunks, { type: 'video/webm' })); };
        rec.onerror = function () { done(); reject(new Error('the browser\'s recorder failed')); };
        rec.start();
        var t = from;
        function tick() {
          src.seek(t);
          draw(canvas, l);
          track.requestFrame();
          say('Recording turn ' + t + ' of ' + from + '–' + to + '…');
          if (++t > to) { setTimeout(function () { rec.stop(); }, ms); return; }
          setTimeout(tick, ms);
        }
        tick();
      });
    }

    /** @param {string} text */
    function say(text) { byId('clip-status').textContent = text; }
    /**
     * offer downloads blob as file, and leaves its link on the page.
     * @param {Blob} blob
     * @param {string} file
     * @param {number} from
     * @param {number} to
     */
    function offer(blob, file, from, to) {
      var link = byId('clip-link', HTMLAnchorElement), old = link.href;
      if (old && old.indexOf('blob:') === 0) URL.revokeObjectURL(old);
      link.href = URL.createObjectURL(blob);
      link.download = file;
      link.textContent = 'download ' + file + ' (' + Math.ceil(blob.size / 1024) + ' KiB)';
      link.hidden = false;
      rewind.clipResult = { type: blob.type, size: blob.size, url: link.href, file: file, from: from, to: to, error: '' };
      link.click();
    }
    /** @param {unknown} err */
    function failed(err) {
      var msg = dom.errorText(err);
      say('No clip: ' + msg);
      rewind.clipResult = { type: '', size: 0, url: '', file: '', from: 0, to: 0, error: msg };
    }
    function safeName() { return src.name().replace(/[^A-Za-z0-9_.-]+/g, '_').replace(/\.[A-Za-z0-9]+$/, ''); }

    function wire() {
      var box = byId('clip'), fromBox = byId('clip-from', HTMLInputElement), toBox = byId('clip-to', HTMLInputElement);
      var fps = byId('clip-fps', HTMLSelectElement), withCharts = byId('clip-charts', HTMLInputElement);
      var pngButton = byId('clip-png', HTMLButtonElement), webmButton = byId('clip-webm', HTMLButtonElement);
      // Opened, the range starts at the turn shown and lasts 50 turns.
      box.addEventListener('toggle', function () {
        if (!(box instanceof HTMLDetailsElement) || !box.open) return;
        var F = src.frames(), t = src.turn();
        fromBox.max = toBox.max = String(F - 1);
        fromBox.value = String(t);
        toBox.value = String(Math.min(F - 1, t + 50));
      });
      pngButton.addEventListener('click', function () {
        pngButton.blur();
        var t = src.turn();
        png().then(function (b) { say('PNG of turn ' + t + '.'); offer(b, safeName() + '-turn-' + t + '.png', t, t); }).catch(failed);
      });
      webmButton.addEventListener('click', function () {
        webmButton.blur();
        var from = +fromBox.value, to = +toBox.value;
        webmButton.disabled = pngButton.disabled = true;
        webm({ from: from, to: to, fps: +fps.value, charts: withCharts.checked }).then(function (b) {
          say('WebM video of turns ' + from + '–' + to + '.');
          offer(b, safeName() + '-turns-' + from + '-' + to + '.webm', from, to);
        }).catch(failed).then(function () { webmButton.disabled = pngButton.disabled = false; });
      });
    }

    return { wire: wire, png: png, webm: webm };
  }

  rewind.clip = clip;
})(window.rewind);
