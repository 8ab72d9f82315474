// rewind library page and bot page, library-compare.js: each row's
// "compare with…" button (templates.LibraryRows) picks game A; another
// row's then opens the compare page of the two (/compare?a=A&b=B); the
// same button again, or Esc, gives up. The rows may be replaced
// meanwhile (library.js, library-index.js): the clicks are taken on the
// table, the pick kept here.
(function () {
  'use strict';
  var found = document.getElementById('library');
  if (!(found instanceof HTMLTableElement)) return;
  var table = found;
  /** @type {string|null} */
  var compareA = null;
  var picking = document.createElement('p');
  picking.className = 'notice picking';
  picking.setAttribute('data-testid', 'compare-picking');
  picking.setAttribute('role', 'status');
  picking.hidden = true;
  table.before(picking);
  /** @param {string|null} id */
  function pickCompare(id) {
    compareA = id;
    picking.hidden = id === null;
    picking.textContent = id === null ? '' : 'Comparing ' + id + ': click "compare with…" on the other game (Esc gives up).';
    table.classList.toggle('picking', id !== null);
  }
  table.addEventListener('click', function (ev) {
    var b = ev.target instanceof Element ? ev.target.closest('button.compare-with') : null;
    if (!b) return;
    var id = b.getAttribute('data-id') || '';
    if (compareA === null) pickCompare(id);
    else if (compareA === id) pickCompare(null);
    else location.href = '/compare?a=' + encodeURIComponent(compareA) + '&b=' + encodeURIComponent(id);
  });
  document.addEventListener('keydown', function (ev) { if (ev.key === 'Escape' && compareA !== null) pickCompare(null); });
})();
