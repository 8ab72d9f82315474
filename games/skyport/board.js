// rewind: Skyport's painter on the replay page (rewind.boards.skyport,
// the contract in the viewer's contract.js, drawn with
// rewind.paint's helpers). The game's board (games/skyport/rules): a HexAxial diamond, terrain = tile code index (G 0, V 1, S 2,
// O 3, R 4, E 5, C 6), value = resource units left, badge "spawn"; one
// "player" entity per player (health, score, label "laser 2 / mortar 1",
// " (dead)" on a body); the active player's shots of the turn: "laser"
// Line (to the last tile the beam entered), "mortar" Area (radius 1) or
// "mortar_dud" (radius 0), "droid" Path (step by step) and its
// "droid_blast" Area, a "damage" Mark per hit. The overlay adds what the
// events and the frame before say: the active player's moves, kills,
// respawns, mining, upgrades and penalties.
(function (rewind) {
  'use strict';

  var paint = rewind.paint, haloText = paint.haloText, star = paint.star, arrowHead = paint.arrowHead, font = paint.font, polyline = paint.polyline;

  /**
   * A tile: its code, its name, its fill (light, dark) and, on rock and
   * the resources, its glyph's colour (light, dark).
   * @typedef {{code: string, name: string, light: string, dark: string, glyph?: string, glyphDark?: string}} SkyportTile
   */
  /**
   * Where a player stands (an entity, or where it respawned), its health
   * and its label.
   * @typedef {{x: number, y: number, h: number, l?: string}} SkyportSpot
   */

  // Tiles by terrain index: name, fill (light, dark), glyph colour.
  /** @type {SkyportTile[]} */
  var TILES = [
    { code: 'G', name: 'grass', light: '#d6e6bf', dark: '#34452f' },
    { code: 'V', name: 'void', light: '#262a38', dark: '#0b0c11' },
    { code: 'S', name: 'spawn', light: '#e9e3d2', dark: '#4a4538' },
    { code: 'O', name: 'rock', light: '#8e877d', dark: '#5a544c', glyph: '#5f5850', glyphDark: '#39342f' },
    { code: 'R', name: 'rubidium', light: '#d9c6f2', dark: '#3f3157', glyph: '#6b3fb8', glyphDark: '#c3a6f5' },
    { code: 'E', name: 'explosium', light: '#f6dc8c', dark: '#5a4a1c', glyph: '#b3700a', glyphDark: '#f5c451' },
    { code: 'C', name: 'scrap', light: '#b9c8d6', dark: '#2f3c4a', glyph: '#3e5d7c', glyphDark: '#9fbad6' }
  ];
  var GRASS = 0, VOID = 1, SPAWN = 2, ROCK = 3;
  var DAMAGE = '#d0342c';
  // The six neighbours of (j, k) by direction name (RULES §1).
  /** @type {Object<string, number[]>} */
  var DIRS = { 'up': [-1, -1], 'down': [1, 1], 'left-up': [0, -1], 'left-down': [1, 0], 'right-up': [-1, 0], 'right-down': [0, 1] };

  /** @param {number} t */
  function tile(t) { return TILES[t] || TILES[GRASS]; }
  /**
   * glyphColor is the colour of tile d's glyph (a tile of none: its
   * fill's).
   * @param {SkyportTile} d
   * @param {boolean} dark
   */
  function glyphColor(d, dark) { return (dark ? d.glyphDark : d.glyph) || (dark ? d.dark : d.light); }
  // The legend's swatch of tile t, in the page's scheme.
  /** @param {number} t */
  function swatch(t) { return rewind.dom.dark ? TILES[t].dark : TILES[t].light; }

  // Whose spawn each spawn tile is: a player only ever stands on a
  // spawn tile that is its own (moves cannot enter one; a game starts
  // and a respawn puts it there), so the spawn tiles frame 0's players
  // stand on (every one of them in a game from its start; a recording
  // may begin later).
  /** @type {Object<number, number>} */
  var spawnOf = {};
  /** @type {Packed|null} */
  var spawnsFor = null;
  /** @param {Geometry} g */
  function spawns(g) {
    if (spawnsFor === g.packed) return spawnOf;
    spawnsFor = g.packed;
    /** @type {Object<number, number>} */
    var of = spawnOf = {};
    var f0 = g.packed.frames[0], W = g.packed.board.width;
    (f0 && f0.entities || []).forEach(function (e) {
      var i = e.y * W + e.x;
      if (f0.cells[4 * i] === SPAWN) of[i] = e.p;
    });
    return of;
  }

  /**
   * entityOf is player p's entity in frame f, null when it has none.
   * @param {Frame|null} f
   * @param {number} p
   */
  function entityOf(f, p) {
    var es = f && f.entities || [];
    for (var i = 0; i < es.length; i++) if (es[i].p === p) return es[i];
    return null;
  }
  /** @param {SkyportSpot|null} e */
  function dead(e) { return !e || e.h <= 0 || / \(dead\)$/.test(e.l || ''); }

  /**
   * area shades every cell within e.r of (e.x, e.y), ringed in the
   * shooter's colour; it returns the centre's pixel, for its mark.
   * @param {CanvasRenderingContext2D} ctx
   * @param {Effect} e
   * @param {Geometry} g
   * @param {string} col
   */
  function area(ctx, e, g, col) {
    var W = g.packed.board.width, H = g.packed.board.height, R = g.r, rad = e.r || 0;
    for (var y = Math.max(0, e.y - rad); y <= Math.min(H - 1, e.y + rad); y++) {
      for (var x = Math.max(0, e.x - rad); x <= Math.min(W - 1, e.x + rad); x++) {
        if (g.distance(x, y, e.x, e.y) > rad) continue;
        var c = g.center(x, y), mid = x === e.x && y === e.y;
        g.cellPath(c[0], c[1], R - 1.5);
        ctx.globalAlpha = mid ? 0.45 : 0.25; ctx.fillStyle = col; ctx.fill();
        ctx.globalAlpha = 1; ctx.lineWidth = 2; ctx.setLineDash(mid ? [] : [4, 3]); ctx.strokeStyle = col; ctx.stroke();
        ctx.setLineDash([]);
      }
    }
    return g.center(e.x, e.y);
  }

  /**
   * @param {CanvasRenderingContext2D} ctx
   * @param {number[]} a
   * @param {number} R
   * @param {string} col
   */
  function blastMark(ctx, a, R, col) {
    star(ctx, a[0], a[1], R * 0.9, 10, 0.6);
    ctx.fillStyle = '#ffd23f'; ctx.fill();
    ctx.lineWidth = 1.5; ctx.strokeStyle = col; ctx.stroke();
    star(ctx, a[0], a[1], R * 0.3, 8, 0.5);
    ctx.fillStyle = '#ff7a1a'; ctx.fill();
  }
  /**
   * @param {CanvasRenderingContext2D} ctx
   * @param {number[]} a
   * @param {number} R
   * @param {string} col
   */
  function crosshair(ctx, a, R, col) {
    ctx.lineWidth = Math.max(1.5, R * 0.09); ctx.strokeStyle = col;
    ctx.beginPath(); ctx.arc(a[0], a[1], R * 0.5, 0, 2 * Math.PI); ctx.stroke();
    ctx.beginPath();
    ctx.moveTo(a[0] - R * 0.75, a[1]); ctx.lineTo(a[0] - R * 0.25, a[1]);
    ctx.moveTo(a[0] + R * 0.25, a[1]); ctx.lineTo(a[0] + R * 0.75, a[1]);
    ctx.moveTo(a[0], a[1] - R * 0.75); ctx.lineTo(a[0], a[1] - R * 0.25);
    ctx.moveTo(a[0], a[1] + R * 0.25); ctx.lineTo(a[0], a[1] + R * 0.75);
    ctx.stroke();
  }

  /**
   * flight draws the mortar's flight: a dashed arc from the shooter to
   * the landing.
   * @param {CanvasRenderingContext2D} ctx
   * @param {number[]} from
   * @param {number[]} to
   * @param {number} R
   * @param {string} col
   */
  function flight(ctx, from, to, R, col) {
    var mx = (from[0] + to[0]) / 2, my = (from[1] + to[1]) / 2, d = Math.hypot(to[0] - from[0], to[1] - from[1]);
    if (d < 1) return;
    var cx = mx, cy = my - Math.max(R, d * 0.45);
    ctx.lineWidth = Math.max(2, R * 0.11); ctx.strokeStyle = col; ctx.setLineDash([R * 0.28, R * 0.18]); ctx.lineCap = 'round';
    ctx.beginPath(); ctx.moveTo(from[0], from[1]); ctx.quadraticCurveTo(cx, cy, to[0], to[1]); ctx.stroke();
    ctx.setLineDash([]);
    // The arrow at the landing, along the curve's end tangent.
    var tx = to[0] - cx, ty = to[1] - cy, l = Math.hypot(tx, ty) || 1;
    arrowHead(ctx, to[0] - tx / l * R * 0.55, to[1] - ty / l * R * 0.55, tx / l, ty / l, Math.max(7, R * 0.4), col);
  }

  /** @type {Painter} */
  var painter = {
    terrainColor: function (t, cell, dark) { var d = tile(t); return dark ? d.dark : d.light; },
    terrainName: function (t) { var d = TILES[t]; return d ? d.name + ' (' + d.code + ')' : null; },
    // The units left on a resource tile, with its letter.
    cellLabel: function (cell) { return cell.terrain >= 4 && cell.terrain <= 6 && cell.value > 0 ? TILES[cell.terrain].code + cell.value : ''; },
    badge: function (bit, name) { return name === 'spawn' ? { text: 'S', color: '#6b5f3f' } : null; },

    // Over the fill: rock's peak, a resource's crystal, void's stars, a
    // spawn's pad ringed in the colour of the player who started there.
    // The player on the tile is its avatar: no owner fill.
    cell: function (ctx, cell, at, R, g) {
      var d = tile(cell.terrain), x = at[0], y = at[1];
      ctx.save();
      if (cell.terrain === ROCK) {
        ctx.beginPath();
        ctx.moveTo(x - R * 0.55, y + R * 0.38); ctx.lineTo(x - R * 0.12, y - R * 0.42); ctx.lineTo(x + R * 0.1, y - R * 0.05);
        ctx.lineTo(x + R * 0.28, y - R * 0.3); ctx.lineTo(x + R * 0.6, y + R * 0.38); ctx.closePath();
        ctx.fillStyle = glyphColor(d, g.dark); ctx.fill();
      } else if (cell.terrain >= 4 && cell.terrain <= 6) {
        var cy = y - R * 0.42, s = R * 0.24;
        ctx.beginPath();
        ctx.moveTo(x, cy - s); ctx.lineTo(x + s * 0.75, cy); ctx.lineTo(x, cy + s); ctx.lineTo(x - s * 0.75, cy); ctx.closePath();
        ctx.fillStyle = glyphColor(d, g.dark); ctx.fill();
      } else if (cell.terrain === VOID) {
        ctx.fillStyle = g.dark ? 'rgba(255,255,255,0.35)' : 'rgba(255,255,255,0.55)';
        var h = (cell.x * 73856093) ^ (cell.y * 19349663);
        for (var k = 0; k < 3; k++) {
          h = (h * 1103515245 + 12345) & 0x7fffffff;
          var sx = x + ((h % 100) / 100 - 0.5) * R * 1.1;
          h = (h * 1103515245 + 12345) & 0x7fffffff;
          var sy = y + ((h % 100) / 100 - 0.5) * R * 1.1;
          ctx.fillRect(sx, sy, 1.2, 1.2);
        }
      } else if (cell.terrain === SPAWN) {
        var who = spawns(g)[cell.y * g.packed.board.width + cell.x];
        ctx.beginPath(); ctx.arc(x, y, R * 0.68, 0, 2 * Math.PI);
        ctx.lineWidth = Math.max(2, R * 0.12);
        ctx.strokeStyle = who !== undefined ? g.color(who) : (g.dark ? '#8a8270' : '#b5aa8c');
        ctx.setLineDash([R * 0.22, R * 0.14]); ctx.stroke(); ctx.setLineDash([]);
      }
      ctx.restore();
      return true;
    },

    // A player: a disc in its colour with its number, a health bar
    // above (out of 100), its weapons' levels below ("L2 M1"); a body is
    // grey and crossed out.
    entity: function (ctx, e, at, R, g) {
      var x = at[0], y = at[1], r = R * 0.5, col = g.color(e.p), gone = dead(e);
      ctx.save();
      ctx.globalAlpha = g.selected >= 0 && e.p !== g.selected ? 0.35 : 1;
      if (e.p === g.frame.active && !gone) {
        // The player who acted: a halo in its colour.
        ctx.beginPath(); ctx.arc(x, y, R * 0.74, 0, 2 * Math.PI);
        ctx.fillStyle = col; ctx.globalAlpha *= 0.3; ctx.fill();
        ctx.globalAlpha = g.selected >= 0 && e.p !== g.selected ? 0.35 : 1;
      }
      ctx.beginPath(); ctx.arc(x, y + 1.5, r, 0, 2 * Math.PI); ctx.fillStyle = 'rgba(0,0,0,0.3)'; ctx.fill();
      ctx.beginPath(); ctx.arc(x, y, r, 0, 2 * Math.PI);
      ctx.fillStyle = gone ? (g.dark ? '#55565c' : '#9a9a9a') : col; ctx.fill();
      ctx.lineWidth = Math.max(2, R * 0.1); ctx.strokeStyle = gone ? col : (g.dark ? '#111' : '#fff'); ctx.stroke();
      ctx.textAlign = 'center'; ctx.textBaseline = 'middle';
      if (gone) {
        ctx.lineWidth = Math.max(2, R * 0.1); ctx.strokeStyle = '#fff'; ctx.lineCap = 'round';
        ctx.beginPath();
        ctx.moveTo(x - r * 0.45, y - r * 0.45); ctx.lineTo(x + r * 0.45, y + r * 0.45);
        ctx.moveTo(x + r * 0.45, y - r * 0.45); ctx.lineTo(x - r * 0.45, y + r * 0.45);
        ctx.stroke();
      } else if (R >= 8) {
        ctx.font = font(r * 1.05, true);
        ctx.fillStyle = '#fff';
        ctx.fillText(String(e.p + 1), x, y + 0.5);
      }
      // Health: a bar above the disc, green to red, out of 100 (a body
      // has none).
      var bw = R * 1.25, bh = Math.max(3, R * 0.15), bx = x - bw / 2, by = y - r - bh - 3, fr = Math.max(0, Math.min(1, e.h / 100));
      if (!gone) {
        ctx.fillStyle = g.dark ? '#111' : '#333'; ctx.fillRect(bx - 1, by - 1, bw + 2, bh + 2);
        ctx.fillStyle = fr > 0.5 ? '#2e9d3a' : fr > 0.25 ? '#e0a100' : DAMAGE;
        ctx.fillRect(bx, by, bw * fr, bh);
      }
      // Weapons: "L2 M1" (laser, mortar, droid and their levels).
      if (R >= 13) {
        var wl = [], re = /(laser|mortar|droid)\s+(\d+)/g, m;
        while ((m = re.exec(e.l || ''))) wl.push(m[1].charAt(0).toUpperCase() + m[2]);
        var text = gone ? 'dead' : wl.join(' ');
        if (text) {
          ctx.font = font(R * 0.34, true);
          var tw = ctx.measureText(text).width + 6, th = Math.round(R * 0.34) + 4, ty = y + r + th / 2 + 1;
          ctx.fillStyle = g.dark ? 'rgba(20,20,24,0.85)' : 'rgba(255,255,255,0.92)';
          ctx.beginPath();
          if (ctx.roundRect) ctx.roundRect(x - tw / 2, ty - th / 2, tw, th, th / 2); else ctx.rect(x - tw / 2, ty - th / 2, tw, th);
          ctx.fill();
          ctx.lineWidth = 1; ctx.strokeStyle = col; ctx.stroke();
          ctx.fillStyle = g.dark ? '#e4e4e7' : '#1d1d1f';
          ctx.fillText(text, x, ty + 0.5);
        }
      }
      ctx.restore();
      return true;
    },

    // The active player's shots as they happened.
    effect: function (ctx, e, g) {
      var R = g.r, col = g.color(e.p), a = g.center(e.x, e.y);
      ctx.save();
      ctx.textAlign = 'center'; ctx.textBaseline = 'middle';
      switch (e.n) {
        case 'laser': {
          // The beam, from the shooter to the last tile it entered (from
          // the edge of the shooter's disc, to the edge of a player's
          // standing there: a ring, else a spark, where it stopped).
          var b = g.center(e.x2 || 0, e.y2 || 0), dx = b[0] - a[0], dy = b[1] - a[1], l = Math.hypot(dx, dy);
          var hit = (g.frame.entities || []).some(function (o) { return o.x === (e.x2 || 0) && o.y === (e.y2 || 0); });
          if (l > R) {
            a = [a[0] + dx / l * R * 0.55, a[1] + dy / l * R * 0.55];
            if (hit) b = [b[0] - dx / l * R * 0.6, b[1] - dy / l * R * 0.6];
          }
          ctx.lineCap = 'round';
          ctx.globalAlpha = 0.35; ctx.lineWidth = Math.max(8, R * 0.55); ctx.strokeStyle = col;
          ctx.beginPath(); ctx.moveTo(a[0], a[1]); ctx.lineTo(b[0], b[1]); ctx.stroke();
          ctx.globalAlpha = 1; ctx.lineWidth = Math.max(3, R * 0.2);
          ctx.beginPath(); ctx.moveTo(a[0], a[1]); ctx.lineTo(b[0], b[1]); ctx.stroke();
          ctx.lineWidth = Math.max(1.2, R * 0.07); ctx.strokeStyle = '#fff';
          ctx.beginPath(); ctx.moveTo(a[0], a[1]); ctx.lineTo(b[0], b[1]); ctx.stroke();
          if (hit) {
            var c2 = g.center(e.x2 || 0, e.y2 || 0);
            ctx.beginPath(); ctx.arc(c2[0], c2[1], R * 0.64, 0, 2 * Math.PI);
            ctx.lineWidth = Math.max(2, R * 0.12); ctx.strokeStyle = col; ctx.stroke();
          } else {
            star(ctx, b[0], b[1], R * 0.42, 6, 0.4);
            ctx.fillStyle = '#fff'; ctx.fill(); ctx.lineWidth = 1.5; ctx.strokeStyle = col; ctx.stroke();
          }
          break;
        }
        case 'mortar':
          crosshair(ctx, area(ctx, e, g, col), R, col);
          var sh = entityOf(g.frame, e.p);
          if (sh) flight(ctx, g.center(sh.x, sh.y), a, R, col);
          break;
        case 'mortar_dud': {
          // It landed on rock, void or a spawn: nothing happens.
          var sh2 = entityOf(g.frame, e.p);
          if (sh2) flight(ctx, g.center(sh2.x, sh2.y), a, R, g.dark ? '#999' : '#777');
          ctx.beginPath(); ctx.arc(a[0], a[1], R * 0.42, 0, 2 * Math.PI);
          ctx.fillStyle = 'rgba(160,160,160,0.8)'; ctx.fill();
          haloText(ctx, 'dud', a[0], a[1] + 0.5, '#333', '#fff', R * 0.36);
          break;
        }
        case 'droid': {
          // Its blast first (the next effect), then the walk over it,
          // step by step from the shooter, each step numbered.
          var fx = g.frame.effects || [], bl = fx[fx.indexOf(e) + 1];
          var boom = bl && bl.n === 'droid_blast' ? area(ctx, bl, g, col) : null;
          /** @type {number[][]} */
          var pts = [];
          var steps = e.pts || [];
          for (var k = 0; k + 1 < steps.length; k += 2) pts.push(g.center(steps[k], steps[k + 1]));
          if (!pts.length) pts.push(a);
          ctx.lineWidth = Math.max(3, R * 0.18); ctx.strokeStyle = col; ctx.lineCap = 'round'; ctx.lineJoin = 'round';
          ctx.setLineDash([R * 0.3, R * 0.2]);
          polyline(ctx, pts); ctx.stroke();
          ctx.setLineDash([]);
          pts.forEach(function (p, j) {
            if (j === 0) return;
            var q = pts[j - 1], dx = p[0] - q[0], dy = p[1] - q[1], l = Math.hypot(dx, dy) || 1;
            arrowHead(ctx, (p[0] + q[0]) / 2 + dx / l * R * 0.2, (p[1] + q[1]) / 2 + dy / l * R * 0.2, dx / l, dy / l, Math.max(6, R * 0.32), col);
            ctx.beginPath(); ctx.rect(p[0] - R * 0.24, p[1] - R * 0.24, R * 0.48, R * 0.48);
            ctx.fillStyle = g.dark ? '#111' : '#fff'; ctx.fill(); ctx.lineWidth = 2; ctx.strokeStyle = col; ctx.stroke();
            ctx.fillStyle = col; ctx.font = font(R * 0.34, true);
            ctx.fillText(String(j), p[0], p[1] + 0.5);
          });
          if (boom) blastMark(ctx, boom, R, col);
          break;
        }
        case 'droid_blast': {
          // Drawn with its droid, unless there is none before it.
          var fx2 = g.frame.effects || [], dr = fx2[fx2.indexOf(e) - 1];
          if (!dr || dr.n !== 'droid') blastMark(ctx, area(ctx, e, g, col), R, col);
          break;
        }
        case 'damage':
          ctx.textAlign = 'left';
          haloText(ctx, '−' + Math.abs(e.v || 0), a[0] + R * 0.5, a[1] - R * 0.1, DAMAGE, g.dark ? '#000' : '#fff', R * 0.6);
          break;
        default:
          ctx.restore();
          return false;
      }
      ctx.restore();
      return true;
    },

    // What the events and the frame before say: the active player's
    // moves (a dotted trail from where it stood, step by step when its
    // commands say so), kills, respawns, mining, upgrades, penalties.
    overlay: function (ctx, f, g) {
      var R = g.r, evs = f.events || [];
      /** @type {string[]} */
      var drew = [];
      /** @type {Object<number, PackedEvent>} */
      var respawned = {};
      ctx.textAlign = 'center'; ctx.textBaseline = 'middle';
      evs.forEach(function (ev) { if (ev.n === 'respawn') respawned[ev.p] = ev; });
      var halo = g.dark ? '#000' : '#fff';
      if (f.active >= 0 && g.prev) {
        // From where it stood before, or where it respawned this turn.
        var rs = respawned[f.active], now = entityOf(f, f.active);
        /** @type {SkyportSpot|null} */
        var was = rs ? { x: rs.x, y: rs.y, h: 1 } : entityOf(g.prev, f.active);
        if (was && now && !dead(was) && (was.x !== now.x || was.y !== now.y) && trail(ctx, g, f, was, now)) drew.push('trail');
      }
      /** @type {Object<string, number>} */
      var bumped = {};
      /**
       * @param {number} x
       * @param {number} y
       */
      function nudge(x, y) { var k = x + ',' + y; bumped[k] = (bumped[k] || 0) + 1; return (bumped[k] - 1) * R * 0.5; }
      evs.forEach(function (ev) {
        if (!g.inBoard(ev.x, ev.y)) return;
        var c = g.center(ev.x, ev.y);
        switch (ev.n) {
          case 'kill':
            ctx.lineWidth = Math.max(2.5, R * 0.14); ctx.strokeStyle = DAMAGE; ctx.setLineDash([R * 0.2, R * 0.12]);
            ctx.beginPath(); ctx.arc(c[0], c[1], R * 0.86, 0, 2 * Math.PI); ctx.stroke(); ctx.setLineDash([]);
            drew.push('kill');
            break;
          case 'respawn':
            ctx.strokeStyle = g.color(ev.p); ctx.lineWidth = Math.max(2, R * 0.1); ctx.lineCap = 'round';
            ctx.beginPath();
            for (var k = 0; k < 8; k++) {
              var an = Math.PI / 4 * k;
              ctx.moveTo(c[0] + Math.cos(an) * R * 0.66, c[1] + Math.sin(an) * R * 0.66);
              ctx.lineTo(c[0] + Math.cos(an) * R * 0.95, c[1] + Math.sin(an) * R * 0.95);
            }
            ctx.stroke();
            haloText(ctx, 'respawn', c[0], c[1] + R * 1.05, g.dark ? '#fff' : '#111', halo, R * 0.38);
            drew.push('respawn');
            break;
          case 'mined': {
            var res = TILES[4 + (ev.v || 0)] || TILES[4];
            haloText(ctx, '+1 ' + res.code, c[0] - R * 0.7, c[1] - R * 0.55 - nudge(ev.x, ev.y), glyphColor(res, g.dark), halo, R * 0.42);
            drew.push('mined');
            break;
          }
          case 'upgraded':
            haloText(ctx, '▲' + (ev.v || 0), c[0] - R * 0.7, c[1] - R * 0.55 - nudge(ev.x, ev.y), '#2e7d32', halo, R * 0.44);
            drew.push('upgraded');
            break;
          case 'penalty':
            haloText(ctx, '−' + (ev.v || 0) + ' pts', c[0] - R * 0.75, c[1] + R * 0.6, g.dark ? '#bbb' : '#555', halo, R * 0.36);
            drew.push('penalty');
            break;
        }
      });
      return drew;
    },

    legend: [
      { color: swatch(0), text: 'grass' },
      { color: swatch(1), text: 'void' },
      { color: swatch(3), text: 'rock' },
      { color: swatch(2), text: 'S spawn (ringed in its player\'s colour)' },
      { color: swatch(4), text: 'R rubidium' },
      { color: swatch(5), text: 'E explosium' },
      { color: swatch(6), text: 'C scrap (with the units left)' },
      'disc: a player (its number), bar: health, L/M/D: laser/mortar/droid levels; grey ✕: dead',
      'the turn of the player who acted (E hides it): beam = laser to where it stopped · arc and shaded hexes = mortar and its impact · numbered squares = droid steps, then its blast · red −N = damage · dotted = moves · +1 = mined, ▲ = upgrade'
    ]
  };

  /**
   * trail draws the active player's moves from was to now: step by step
   * when its commands (JSON lines, those without an error, up to the
   * first valid shot; their fields checked here) lead there, else
   * straight; true when drawn.
   * @param {CanvasRenderingContext2D} ctx
   * @param {Geometry} g
   * @param {Frame} f
   * @param {SkyportSpot} was
   * @param {Entity} now
   */
  function trail(ctx, g, f, was, now) {
    var R = g.r, col = g.color(now.p), pts = [[was.x, was.y]], x = was.x, y = was.y, ok = true;
    var cmds = (f.commands || [])[now.p] || [];
    /** @type {Object<number, boolean>} */
    var bad = {};
    (f.errors || []).forEach(function (e) { if (e.p === now.p) bad[e.i] = true; });
    for (var i = 0; i < cmds.length && ok; i++) {
      if (bad[i]) continue;
      /** @type {unknown} */
      var json;
      try { json = JSON.parse(cmds[i]); } catch (err) { ok = false; break; }
      if (!json || typeof json !== 'object') continue;
      var c = /** @type {{type?: unknown, direction?: unknown}} */ (json);
      var step = typeof c.direction === 'string' ? DIRS[c.direction] : undefined;
      if (c.type === 'move' && step) {
        x += step[0]; y += step[1];
        pts.push([x, y]);
      } else if (c.type === 'laser' || c.type === 'mortar' || c.type === 'droid') {
        break;
      }
    }
    if (!ok || x !== now.x || y !== now.y) pts = [[was.x, was.y], [now.x, now.y]];
    var px = pts.map(function (p) { return g.center(p[0], p[1]); });
    // The trail ends at the avatar's edge.
    var e1 = px[px.length - 1], e0 = px[px.length - 2], ex = e1[0] - e0[0], ey = e1[1] - e0[1], el = Math.hypot(ex, ey) || 1;
    px[px.length - 1] = [e1[0] - ex / el * R * 0.55, e1[1] - ey / el * R * 0.55];
    ctx.save();
    // Where it stood: a hollow ghost.
    ctx.beginPath(); ctx.arc(px[0][0], px[0][1], R * 0.42, 0, 2 * Math.PI);
    ctx.setLineDash([3, 3]); ctx.lineWidth = 2; ctx.strokeStyle = col; ctx.stroke();
    ctx.globalAlpha = 0.25; ctx.fillStyle = col; ctx.fill(); ctx.globalAlpha = 1;
    ctx.setLineDash([2, Math.max(4, R * 0.22)]); ctx.lineCap = 'round'; ctx.lineWidth = Math.max(3, R * 0.16);
    polyline(ctx, px);
    ctx.stroke(); ctx.setLineDash([]);
    for (var j = 1; j < px.length; j++) {
      var p = px[j], q = px[j - 1], dx = p[0] - q[0], dy = p[1] - q[1], l = Math.hypot(dx, dy) || 1;
      if (j < px.length - 1) p = [(p[0] + q[0]) / 2, (p[1] + q[1]) / 2];
      arrowHead(ctx, p[0], p[1], dx / l, dy / l, Math.max(6, R * 0.3), col);
    }
    ctx.restore();
    return true;
  }

  rewind.boards.skyport = painter;
})(window.rewind);
