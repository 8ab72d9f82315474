// rewind library page: sorting, filtering, uploads, and picking up new
// replays as they appear. Rows come from the server already escaped; this
// script only reorders, hides and replaces them.
(function () {
  'use strict';
  var table = /** @type {HTMLTableElement} */ (document.getElementById('library'));
  if (!table) return;
  var filter = /** @type {HTMLInputElement} */ (document.getElementById('filter'));
  var count = document.getElementById('count');
  var sortKey = 'date', sortDir = -1;
  // An indexed library sorts, filters and pages on the server, and pushes
  // changes (library-index.js): this script then only uploads and
  // follows live games.
  var indexed = table.hasAttribute('data-indexed');

  function tbody() { return /** @type {HTMLTableSectionElement} */ (document.getElementById('library-rows')); }
  function rows() { return Array.prototype.slice.call(tbody().rows); }

  function apply() {
    if (indexed) return;
    var q = filter.value.trim().toLowerCase(), shown = 0, all = rows();
    var type = table.querySelector('th[data-sort="' + sortKey + '"]').getAttribute('data-type');
    all.sort(function (a, b) {
      var x = a.getAttribute('data-' + sortKey) || '', y = b.getAttribute('data-' + sortKey) || '';
      var c = type === 'num' ? (parseFloat(x) || 0) - (parseFloat(y) || 0) : x.localeCompare(y);
      return c * sortDir || a.getAttribute('data-id').localeCompare(b.getAttribute('data-id'));
    });
    var body = tbody();
    all.forEach(function (r) {
      var hay = (r.getAttribute('data-id') + ' ' + r.getAttribute('data-game') + ' ' + r.getAttribute('data-players') + ' ' + r.getAttribute('data-winner')).toLowerCase();
      var ok = !q || hay.indexOf(q) >= 0;
      r.hidden = !ok;
      if (ok) shown++;
      body.appendChild(r);
    });
    count.textContent = shown === all.length ? all.length + ' replays' : shown + ' of ' + all.length + ' replays';
    table.querySelectorAll('th[data-sort]').forEach(function (th) {
      if (th.getAttribute('data-sort') === sortKey) th.setAttribute('aria-sort', sortDir > 0 ? 'ascending' : 'descending');
      else th.removeAttribute('aria-sort');
    });
  }

  if (!indexed) table.querySelectorAll('th[data-sort]').forEach(function (th) {
    th.addEventListener('click', function () {
      var k = th.getAttribute('data-sort');
      if (k === sortKey) sortDir = -sortDir; else { sortKey = k; sortDir = th.getAttribute('data-type') === 'num' ? -1 : 1; }
      apply();
    });
  });
  if (!indexed) filter.addEventListener('input', apply);

  // Refresh the rows when replays appear, change or go.
  function signature(body) {
    return Array.prototype.map.call(body.rows, function (r) { return r.getAttribute('data-id') + ':' + r.getAttribute('data-size'); }).sort().join('|');
  }
  function refresh() {
    if (indexed) { if (window.rewindLibraryRefresh) window.rewindLibraryRefresh(); return Promise.resolve(); }
    return fetch('/library/rows').then(function (res) { return res.ok ? res.text() : null; }).then(function (html) {
      if (html === null) return;
      var doc = new DOMParser().parseFromString('<table>' + html + '</table>', 'text/html');
      var fresh = /** @type {HTMLTableSectionElement} */ (doc.getElementById('library-rows'));
      if (!fresh || signature(fresh) === signature(tbody())) return;
      tbody().replaceWith(document.adoptNode(fresh));
      var empty = /** @type {HTMLElement} */ (document.querySelector('.empty'));
      if (empty && fresh.rows.length) empty.hidden = true;
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

  // Uploads.
  var drop = document.getElementById('upload');
  if (drop) {
    var input = /** @type {HTMLInputElement} */ (document.getElementById('upload-input'));
    var status = document.getElementById('upload-status');
    var max = parseInt(drop.getAttribute('data-max'), 10);
    var say = function (text, ok, link) {
      status.textContent = text;
      status.className = ok ? 'ok' : 'bad';
      if (link) {
        var a = document.createElement('a');
        a.href = link;
        a.textContent = 'open it';
        status.appendChild(document.createTextNode(' '));
        status.appendChild(a);
      }
    };
    var upload = function (file) {
      // The names the server takes are the file input's accept list.
      var exts = input.accept.split(','), low = file.name.toLowerCase();
      if (!exts.some(function (x) { return low.length > x.length && low.slice(-x.length) === x; })) { say(file.name + ': only ' + exts.join(', ') + ' files (replays, Monad reference logs) can be uploaded.', false); return; }
      if (file.size > max) { say(file.name + ' is ' + (file.size / 1048576).toFixed(1) + ' MiB; the upload limit is ' + drop.getAttribute('data-max-str') + '.', false); return; }
      say('Uploading ' + file.name + '…', true);
      fetch('/api/upload?name=' + encodeURIComponent(file.name), { method: 'POST', body: file, headers: { 'Content-Type': 'application/octet-stream' } })
        .then(function (res) { return res.json().catch(function () { return { error: res.status + ' ' + res.statusText }; }); })
        .then(function (r) {
          if (r.error) { say(r.error, false); return; }
          say('Uploaded ' + r.id + '.' + (r.note ? ' ' + r.note + '.' : ''), true, r.url);
          refresh();
        })
        .catch(function (err) { say('Upload of ' + file.name + ' failed: ' + err.message, false); });
    };
    input.addEventListener('change', function () { if (input.files.length) upload(input.files[0]); input.value = ''; });
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
  apply();
})();
