// rewind replay page, paint.js: the drawing helpers the board and every
// game's painter share (rewind.paint), each written once. A painter
// draws with these on the board's canvas context (contract.js's
// Painter).
(function (rewind) {
  'use strict';

  /**
   * words writes an identifier as words ("gold_mine" → "gold mine"),
   * nothing for none.
   * @param {unknown} s
   */
  function words(s) { return String(s == null ? '' : s).replace(/_/g, ' '); }
  /**
   * at writes a cell's coordinates, "(x, y)".
   * @param {number} x
   * @param {number} y
   */
  function at(x, y) { return '(' + x + ', ' + y + ')'; }
  /**
   * font is a canvas font of px pixels (at least min, 7 when not given),
   * bold or not.
   * @param {number} px
   * @param {boolean} [bold]
   * @param {number} [min]
   */
  function font(px, bold, min) { return (bold ? 'bold ' : '') + Math.max(min == null ? 7 : min, Math.round(px)) + 'px system-ui, sans-serif'; }
  /**
   * textColor is the ink readable on a fill of colour hex (#rrggbb).
   * @param {string} hex
   */
  function textColor(hex) {
    var r = parseInt(hex.substr(1, 2), 16), g = parseInt(hex.substr(3, 2), 16), b = parseInt(hex.substr(5, 2), 16);
    return (0.299 * r + 0.587 * g + 0.114 * b) > 150 ? '#111' : '#fff';
  }
  /**
   * shade is the colour f of the way from lo to hi (f clamped to 0…1),
   * as rgb(r,g,b).
   * @param {number[]} lo
   * @param {number[]} hi
   * @param {number} f
   */
  function shade(lo, hi, f) {
    f = Math.max(0, Math.min(1, f || 0));
    return 'rgb(' + [0, 1, 2].map(function (k) { return Math.round(lo[k] + (hi[k] - lo[k]) * f); }).join(',') + ')';
  }
  /**
   * arrowHead fills an arrow's head at (x, y) pointing along the unit
   * vector (ux, uy), h long.
   * @param {CanvasRenderingContext2D} ctx
   * @param {number} x
   * @param {number} y
   * @param {number} ux
   * @param {number} uy
   * @param {number} h
   * @param {string} fill
   */
  function arrowHead(ctx, x, y, ux, uy, h, fill) {
    ctx.beginPath();
    ctx.moveTo(x + ux * h * 0.5, y + uy * h * 0.5);
    ctx.lineTo(x - ux * h + uy * h * 0.6, y - uy * h - ux * h * 0.6);
    ctx.lineTo(x - ux * h - uy * h * 0.6, y - uy * h + ux * h * 0.6);
    ctx.closePath(); ctx.fillStyle = fill; ctx.fill();
  }
  /**
   * star begins a path of a star of points points at (x, y), its outer
   * radius r, its inner radius r·inner, a point upwards.
   * @param {CanvasRenderingContext2D} ctx
   * @param {number} x
   * @param {number} y
   * @param {number} r
   * @param {number} points
   * @param {number} inner
   */
  function star(ctx, x, y, r, points, inner) {
    ctx.beginPath();
    for (var k = 0; k < 2 * points; k++) {
      var a = Math.PI / points * k - Math.PI / 2, rr = k % 2 ? r * inner : r;
      if (k === 0) ctx.moveTo(x + Math.cos(a) * rr, y + Math.sin(a) * rr); else ctx.lineTo(x + Math.cos(a) * rr, y + Math.sin(a) * rr);
    }
    ctx.closePath();
  }
  /**
   * burst draws a yellow eight-pointed blast at (x, y) of radius r,
   * outlined in col.
   * @param {CanvasRenderingContext2D} ctx
   * @param {number} x
   * @param {number} y
   * @param {number} r
   * @param {string} col
   */
  function burst(ctx, x, y, r, col) {
    ctx.beginPath();
    for (var k = 0; k < 16; k++) {
      var a = Math.PI / 8 * k, rr = k % 2 ? r * 0.45 : r;
      if (k === 0) ctx.moveTo(x + rr, y); else ctx.lineTo(x + Math.cos(a) * rr, y + Math.sin(a) * rr);
    }
    ctx.closePath();
    ctx.fillStyle = '#ffd23f'; ctx.globalAlpha = 0.9; ctx.fill(); ctx.globalAlpha = 1;
    ctx.lineWidth = 1.5; ctx.strokeStyle = col; ctx.stroke();
  }
  /**
   * haloText writes text at (x, y) in bold px pixels, filled with fill
   * over a halo of colour halo: readable on any ground.
   * @param {CanvasRenderingContext2D} ctx
   * @param {string} text
   * @param {number} x
   * @param {number} y
   * @param {string} fill
   * @param {string} halo
   * @param {number} px
   */
  function haloText(ctx, text, x, y, fill, halo, px) {
    ctx.font = font(px, true);
    ctx.lineJoin = 'round';
    ctx.lineWidth = Math.max(2.5, px * 0.28);
    ctx.strokeStyle = halo;
    ctx.strokeText(text, x, y);
    ctx.fillStyle = fill;
    ctx.fillText(text, x, y);
  }
  /**
   * polyline begins a path through the points pts ([x, y] each).
   * @param {CanvasRenderingContext2D} ctx
   * @param {number[][]} pts
   */
  function polyline(ctx, pts) {
    ctx.beginPath();
    pts.forEach(function (p, j) { if (j === 0) ctx.moveTo(p[0], p[1]); else ctx.lineTo(p[0], p[1]); });
  }

  rewind.paint = { words: words, at: at, font: font, textColor: textColor, shade: shade, arrowHead: arrowHead, star: star, burst: burst, haloText: haloText, polyline: polyline };
})(window.rewind);
