// rewind replay page, dom.js: the page's one namespace (window.rewind,
// whose parts the other scripts add: contract.js types them) and the
// small DOM helpers every part uses. Everything put in the page is text,
// never HTML.
(function (rewind) {
  'use strict';

  // Dark mode follows the system's (prefers-color-scheme): the page's
  // colours in the style sheet, the board's and the charts' here.
  var dark = !!(window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches);

  /**
   * el makes an element: attrs' text is its text, cls its class, the rest
   * attributes; kids are its children (strings as text, null skipped).
   * @template {keyof HTMLElementTagNameMap} K
   * @param {K} tag
   * @param {Object<string, string>|null} [attrs]
   * @param {...(Node|string|null)} kids
   * @returns {HTMLElementTagNameMap[K]}
   */
  function el(tag, attrs, ...kids) {
    var e = document.createElement(tag);
    if (attrs) for (var k in attrs) {
      if (k === 'text') e.textContent = attrs[k];
      else if (k === 'cls') e.className = attrs[k];
      else e.setAttribute(k, attrs[k]);
    }
    kids.forEach(function (c) {
      if (c == null) return;
      e.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
    });
    return e;
  }
  /**
   * byId is the element of id id, of type (HTMLElement when not given):
   * one the page's template always has. It throws when the page has
   * none, or one of another type.
   * @template {HTMLElement} [T=HTMLElement]
   * @param {string} id
   * @param {new () => T} [type]
   * @returns {T}
   */
  function byId(id, type) {
    var e = document.getElementById(id), want = type || HTMLElement;
    if (!(e instanceof want)) throw new Error('the page has no ' + want.name + ' #' + id);
    return /** @type {T} */ (e);
  }
  /** @param {Node} e */
  function clear(e) { while (e.firstChild) e.removeChild(e.firstChild); }
  // fmt writes a number rounded, its thousands separated ("1,234"); one
  // formatter for every call (toLocaleString makes one each time).
  var numbers = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
  /** @param {number} n */
  function fmt(n) { return numbers.format(Math.round(n)); }
  /**
   * swatch is a small square of colour c (a player's, a key's).
   * @param {string} c
   */
  function swatch(c) { var s = el('span', { cls: 'swatch' }); s.style.background = c; return s; }
  /**
   * errorText is what a failure (a rejection's or a throw's reason) says:
   * its message, or the reason itself as text.
   * @param {unknown} err
   */
  function errorText(err) {
    var msg = err && typeof err === 'object' && 'message' in err ? err.message : '';
    return String(msg || err);
  }

  // replyText writes a reply time of us microseconds in milliseconds
  // ("0.42 ms", "12.3 ms", "1,234 ms"), "not timed" for a negative one
  // (a built-in, a seat not asked).
  /** @param {number} us */
  function replyText(us) {
    if (!(us >= 0)) return 'not timed';
    var ms = us / 1000;
    return (ms < 10 ? ms.toFixed(2) : ms < 1000 ? ms.toFixed(1) : fmt(ms)) + ' ms';
  }

  rewind.dom = { el: el, byId: byId, clear: clear, fmt: fmt, replyText: replyText, swatch: swatch, errorText: errorText, dark: dark };
  rewind.boards = rewind.boards || {};
})(window.rewind = window.rewind || /** @type {Rewind} */ ({}));
