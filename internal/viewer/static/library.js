// rewind library page: sorting, filtering, uploads, and picking up new
// replays as they appear. Rows come from the server already escaped; this
// script only reorders, hides and replaces them.
(function () {
  'use strict';
  var found = document.getElementById('library');
  if (!(found instanceof HTMLTableElement)) return;
  var table = found, filterBox = document.getElementById('filter'), count = document.getElementById('count');
  var filter = filterBox instanceof HTMLInputElement ? filterBox : null;
  var sortKey = 'date', sortDir = -1;
  // An indexed library sorts, filters and pages on the server, and pushes
  // changes (library-index.js): this script then only uploads and
  // follows live games.
  var indexed = table.hasAttribute('data-indexed');

  /** @returns {HTMLTableSectionElement} */
  function tbody() {
    var b = document.getElementById('library-rows');
    if (!(b instanceof HTMLTableSectionElement)) throw new Error('the library page has no #library-rows');
    return b;
  }
  function rows() { return Array.from(tbody().rows); }

  function apply() {
    if (indexed) return;
    var q = filter ? filter.value.trim().toLowerCase() : '', shown = 0, all = rows();
    var th = table.querySelector('th[data-sort="' + sortKey + '"]'), type = th && th.getAttribute('data-type');
    all.sort(function (a, b) {
      var x = a.getAttribute('data-' + sortKey) || '', y = b.getAttribute('data-' + sortKey) || '';
      var c = type === 'num' ? (parseFloat(x) || 0) - (parseFloat(y) || 0) : x.localeCompare(y);
      return c * sortDir || (a.getAttribute('data-id') || '').localeCompare(b.getAttribute('data-id') || '');
    });
    var body = tbody();
    all.forEach(function (r) {
      var hay = (r.getAttribute('data-id') + ' ' + r.getAttribute('data-game') + ' ' + r.getAttribute('data-players') + ' ' + r.getAttribute('data-winner')).toLowerCase();
      var ok = !q || hay.indexOf(q) >= 0;
      r.hidden = !ok;
      if (ok) shown++;
      body.appendChild(r);
    });
    if (count) count.textContent = shown === all.length ? all.length + ' replays' : shown + ' of ' + all.length + ' replays';
    table.querySelectorAll('th[data-sort]').forEach(function (th) {
      if (th.getAttribute('data-sort') === sortKey) th.setAttribute('aria-sort', sortDir > 0 ? 'ascending' : 'descending');
      else th.removeAttribute('aria-sort');
    });
  }

  if (!indexed) table.querySelectorAll('th[data-sort]').forEach(function (th) {
    th.addEventListener('click', function () {
      var k = th.getAttribute('data-sort') || '';
      if (k === sortKey) sortDir = -sortDir; else { sortKey = k; sortDir = th.getAttribute('data-type') === 'num' ? -1 : 1; }
      apply();
    });
  });
  if (!indexed && filter) filter.addEventListener('input', apply);

  // Refresh the rows when replays appear, change or go.
  /** @param {HTMLTableSectionElement} body */
  function signature(body) {
    return Array.from(body.rows, function (r) { return r.getAttribute('data-id') + ':' + r.getAttribute('data-size'); }).sort().join('|');
  }
  function refresh() {
    if (indexed) { if (window.rewindLibraryRefresh) window.rewindLibraryRefresh(); return Promise.resolve(); }
    return fetch('/library/rows').then(function (res) { return res.ok ? res.text() : null; }).then(function (html) {
      if (html === null) return;
      var doc = new DOMParser().parseFromString('<table>' + html + '</table>', 'text/html');
      var fresh = doc.getElementById('library-rows');
      if (!(fresh instanceof HTMLTableSectionElement) || signature(fresh) === signature(tbody())) return;
      tbody().replaceWith(document.adoptNode(fresh));
      var empty = document.querySelector('.empty');
      if (empty instanceof HTMLElement && fresh.rows.length) empty.hidden = true;
      apply();
    }).catch(function () {});
  }
  if (!indexed) setInterval(function () { if (!document.hidden) refresh(); }, 5000);

  // The games being played (a server following live games): their list,
  // refreshed every 2 s from the server, which renders it.
  var liveBusy = false;
  function refreshLive() {
    var cur = document.getElementById('live-rows');
    if (!cur || liveBusy) return;
    liveBusy = true;
    fetch('/library/live').then(function (res) { return res.ok ? res.text() : null; }).then(function (html) {
      if (html === null) return;
      var doc = new DOMParser().parseFromString(html, 'text/html');
      var fresh = doc.getElementById('live-rows');
      var now = document.getElementById('live-rows');
      if (fresh && now && fresh.innerHTML !== now.innerHTML) now.replaceWith(document.adoptNode(fresh));
    }).catch(function () {}).then(function () { liveBusy = false; });
  }
  if (document.getElementById('live-rows')) setInterval(function () { if (!document.hidden) refreshLive(); }, 2000);

  /**
   * The server's answer to an upload (JSON): the replay it keeps, or why
   * not.
   * @typedef {{id?: string, note?: string, url?: string, error?: string, duplicate?: boolean}} UploadAnswer
   */

  /**
   * uploads takes the files dropped on drop or chosen in its input
   * (#upload-input), saying how it went in #upload-status.
   * @param {HTMLElement} drop
   */
  function uploads(drop) {
    var input = document.getElementById('upload-input'), status = document.getElementById('upload-status');
    if (!(input instanceof HTMLInputElement) || !status) return;
    var picker = input, said = status;
    var max = parseInt(drop.getAttribute('data-max') || '', 10);
    /**
     * @param {string} text
     * @param {boolean} ok
     * @param {string} [link]
     */
    function say(text, ok, link) {
      said.textContent = text;
      said.className = ok ? 'ok' : 'bad';
      if (link) {
        var a = document.createElement('a');
        a.href = link;
        a.textContent = 'open it';
        said.appendChild(document.createTextNode(' '));
        said.appendChild(a);
      }
    }
    /** @param {File} file */
    function upload(file) {
      // The names the server takes are the file input's accept list.
      var exts = picker.accept.split(','), low = file.name.toLowerCase();
      if (!exts.some(function (x) { return low.length > x.length && low.slice(-x.length) === x; })) { say(file.name + ': only ' + exts.join(', ') + ' files (replays, Monad reference logs) can be uploaded.', false); return; }
      if (file.size > max) { say(file.name + ' is ' + (file.size / 1048576).toFixed(1) + ' MiB; the upload limit is ' + drop.getAttribute('data-max-str') + '.', false); return; }
      say('Uploading ' + file.name + '…', true);
      fetch('/api/upload?name=' + encodeURIComponent(file.name), { method: 'POST', body: file, headers: { 'Content-Type': 'application/octet-stream' } })
        .then(function (res) { return res.json().catch(function () { return { error: res.status + ' ' + res.statusText }; }); })
        .then(function (/** @type {UploadAnswer} */ r) {
          if (r.error) { say(r.error, false); return; }
          say(r.duplicate ? r.note + '.' : 'Uploaded ' + r.id + '.' + (r.note ? ' ' + r.note + '.' : ''), true, r.url);
          refresh();
        })
        .catch(function (err) { say('Upload of ' + file.name + ' failed: ' + (err instanceof Error ? err.message : String(err)), false); });
    }
    picker.addEventListener('change', function () { if (picker.files && picker.files.length) upload(picker.files[0]); picker.value = ''; });
    ['dragenter', 'dragover'].forEach(function (t) {
      drop.addEventListener(t, function (e) { e.preventDefault(); drop.classList.add('over'); });
    });
    ['dragleave', 'drop'].forEach(function (t) {
      drop.addEventListener(t, function (e) { e.preventDefault(); drop.classList.remove('over'); });
    });
    drop.addEventListener('drop', function (e) {
      var files = e.dataTransfer && e.dataTransfer.files;
      if (files && files.length) upload(files[0]);
    });
    // A file dropped anywhere else must not navigate away from the page.
    window.addEventListener('dragover', function (e) { e.preventDefault(); });
    window.addEventListener('drop', function (e) { e.preventDefault(); });
  }
  var drop = document.getElementById('upload');
  if (drop) uploads(drop);
  apply();
})();
