// rewind indexed library page: the server sorts, filters and pages (every
// control is a link or a GET form); this script sorts by a header click,
// fetches the rows on screen again when the server says the library
// changed (server-sent events, /library/events), and draws a bot's
// rating chart. Rows come from the server already escaped.
(function () {
  'use strict';
  var table = document.getElementById('library');
  // The bot page's rating chart: its ECharts option (JSON) is the
  // server's, handed to ECharts as it is.
  var chart = document.getElementById('rating-chart'), option = chart && chart.getAttribute('data-option');
  if (chart && option && window.echarts) window.echarts.init(chart).setOption(JSON.parse(option));
  if (!table || !table.hasAttribute('data-indexed')) return;
  var params = new URLSearchParams(location.search);
  var sortKey = params.get('sort') || 'date', asc = params.get('asc') === '1';
  table.querySelectorAll('th[data-sort]').forEach(function (th) {
    var k = th.getAttribute('data-sort') || '';
    if (k === 'players') return; // not a sort of the index
    if (k === 'id') return;
    th.classList.add('sortable');
    if (k === sortKey) th.setAttribute('aria-sort', asc ? 'ascending' : 'descending');
    else th.removeAttribute('aria-sort');
    th.addEventListener('click', function () {
      var p = new URLSearchParams(location.search);
      p.delete('after');
      if (k === sortKey) { if (asc) p.delete('asc'); else p.set('asc', '1'); } else { p.set('sort', k); p.delete('asc'); }
      location.search = p.toString();
    });
  });
  var count = document.getElementById('count');
  function counted() {
    var rows = document.getElementById('library-rows'), n = rows instanceof HTMLTableSectionElement ? rows.rows.length : 0;
    if (count) count.textContent = n + (document.getElementById('next-page') ? '+' : '') + ' replays';
  }
  counted();
  var busy = false, again = false;
  function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    fetch('/library/rows' + location.search).then(function (res) { return res.ok ? res.text() : null; }).then(function (html) {
      if (html === null) return;
      var doc = new DOMParser().parseFromString('<table>' + html + '</table>', 'text/html');
      var fresh = doc.getElementById('library-rows');
      var cur = document.getElementById('library-rows');
      if (!(fresh instanceof HTMLTableSectionElement) || !cur || fresh.innerHTML === cur.innerHTML) return;
      cur.replaceWith(document.adoptNode(fresh));
      var empty = document.querySelector('.empty');
      if (empty instanceof HTMLElement && fresh.rows.length) empty.hidden = true;
      counted();
    }).catch(function () {}).then(function () {
      busy = false;
      if (again) { again = false; refresh(); }
    });
  }
  window.rewindLibraryRefresh = refresh;
  if (window.EventSource) {
    var es = new EventSource('/library/events');
    es.addEventListener('library', function () { if (!document.hidden) refresh(); else again = true; });
    // Closed when the page goes, so streams never pile up on the
    // browser's few connections to the server.
    window.addEventListener('pagehide', function () { es.close(); });
    document.addEventListener('visibilitychange', function () { if (!document.hidden && again) { again = false; refresh(); } });
  }
})();
