// rewind replay page, charts.js: a chart of each metric's line per
// player (ECharts, loaded after the first frame), a cursor at the turn
// shown, a click seeking its turn, linked legends, log scales and each
// chart as PNG or CSV.
(function (rewind) {
  'use strict';

  var dom = rewind.dom, el = dom.el, clear = dom.clear, dark = dom.dark, words = rewind.paint.words;

  // roundTickOf(frames) is the charts' tick filter (ECharts' interval
  // callback): ticks and labels at round turns (1, 50, 100… rather than
  // 1, 33, 65…) for frames() frames; category i is turn i+1.
  /**
   * @param {function(): number} frames
   * @returns {function(number): boolean}
   */
  function roundTickOf(frames) {
    function tickStep() {
      var n = Math.max(1, frames() - 1), raw = n / 8, p = Math.pow(10, Math.floor(Math.log10(raw || 1)));
      var steps = [1, 2, 5, 10];
      for (var i = 0; i < steps.length; i++) if (steps[i] * p >= raw) return Math.max(1, steps[i] * p);
      return 10 * p;
    }
    return function (i) { var t = i + 1; return t === 1 || t % tickStep() === 0; };
  }

  // loadECharts calls then once window.echarts is there: at once in an
  // exported page (inlined), else after fetching root's data-echarts.
  /**
   * @param {HTMLElement} root
   * @param {function(): void} then
   */
  function loadECharts(root, then) {
    if (window.echarts) { then(); return; }
    var js = document.createElement('script');
    js.src = root.getAttribute('data-echarts') || '';
    js.onload = then;
    document.head.appendChild(js);
  }

  /**
   * charts keeps st's charts in root's #charts; pb pauses and seeks on a
   * click on a plot; bd gives the players' names and colours. other, when
   * given (the compare page), is a second replay whose players' lines are
   * drawn dashed beside st's solid ones, for each metric of the same name;
   * the lines are then named "NAME (A)" and "NAME (B)".
   * @param {PageState} st
   * @param {Playback} pb
   * @param {HTMLElement} root
   * @param {Board} bd
   * @param {{st: PageState, bd: Board}} [other]
   * @returns {Charts}
   */
  function charts(st, pb, root, bd, other) {
    var chartsBox = dom.byId('charts');
    // The replay charted (null before build), its frames and players.
    /** @type {Packed|null} */
    var charted = null;
    var F = 0, NP = 0;
    // use makes the charts the current replay's.
    function use() { var rp = st.replay(); charted = rp.P; F = rp.F; NP = rp.NP; if (other) F = Math.max(F, other.st.replay().F); }
    /** @returns {Packed} */
    function packed() {
      if (!charted) throw new Error('the charts are not built yet');
      return charted;
    }
    var seek = pb.seek, pause = pb.pause;

  // chart makes an ECharts chart of the turns in div (category i is
    // turn i+1): the page's light or dark theme, a cursor at the turn
    // shown (c.move(t); c.rect, the plot area, is set back to null when
    // the chart's size changes) and a click on the plot seeking its turn.
    /**
     * @param {EChartsLibrary} echarts
     * @param {MetricView} v
     * @returns {ChartView}
     */
    function chart(echarts, v) {
      var div = v.div, ch = echarts.init(div, dark ? 'dark' : null);
      ch.setOption(chartOption(v));
      if (dark) ch.setOption({ backgroundColor: 'transparent' });
      /** @type {ChartView} */
      var c = { chart: ch, cursor: el('div', { cls: 'cursor' }), rect: null, div: div, move: move, view: v };
      div.appendChild(c.cursor);
      ch.getZr().on('click', function (ev) {
        var p = [ev.offsetX, ev.offsetY];
        if (!ch.containPixel('grid', p)) return;
        var idx = ch.convertFromPixel({ xAxisIndex: 0 }, p[0]);
        if (typeof idx !== 'number' || isNaN(idx)) return;
        pause();
        seek(Math.round(idx) + 1);
      });
      /** @param {number} t */
      function move(t) {
        if (t < 1) { c.cursor.style.display = 'none'; return; }
        var x = ch.convertToPixel({ xAxisIndex: 0 }, t - 1);
        if (!c.rect) { // the plot area, so the cursor spans just the grid
          var g = ch.getModel().getComponent('grid');
          c.rect = g && g.coordinateSystem ? g.coordinateSystem.getRect() : null;
          if (c.rect) { c.cursor.style.top = c.rect.y + 'px'; c.cursor.style.height = c.rect.height + 'px'; }
        }
        c.cursor.style.display = 'block';
        c.cursor.style.left = x + 'px';
      }
      return c;
    }

    // A game of at most MAX_CHARTS metrics has a chart per metric; one of
    // more (Skyport's, ColorfightII's accounting and exchanges) has
    // MAX_CHARTS, its key metrics — the score first, then the metrics in
    // the order its registration gives them — each with a picker of every
    // metric, so the page stays short. Each chart's bar has a log scale box
    // (a value ≤ 0 is then a gap), PNG (the chart as an image) and CSV (its
    // metric as `rewind analyze --format csv` writes it for this replay,
    // for the players its legend shows: chartCSV). The legends are linked:
    // a player hidden in one is hidden in every chart (hidden[seriesName]).
    var MAX_CHARTS = 8;
    // The legend's top, the gap under its last row, the plot's top under
    // a legend of one row.
    var LEGEND_TOP = 26, LEGEND_GAP = 13, GRID_TOP = 64;
    /** @type {ChartView[]} */
    var charts = [];
    /** @type {MetricView[]} */
    var views = [];
    /** @type {Object<string, boolean>} */
    var hidden = {};
    var linking = false;
    var roundTick = roundTickOf(function () { return F; });
    // chartMetrics are the metrics the charts show at first (indexes).
    function chartMetrics() {
      var P = packed(), all = P.metrics.map(function (m, i) { return i; });
      if (all.length <= MAX_CHARTS) return all;
      var score = P.score >= 0 && P.score < all.length ? P.score : 0;
      return [score].concat(all.filter(function (i) { return i !== score; })).slice(0, MAX_CHARTS);
    }
    // A replay with reply times (P.has_reply_times) has one more chart
    // after the metrics', of each seat's reply time (metric index -1:
    // REPLY, in ms from each frame's replies; a seat not timed is a gap).
    /** @type {PackedMetric} */
    var REPLY = { name: 'reply_time', unit: 'ms', kind: 'side data' };
    /** @param {number} i */
    function metricOf(i) { return i < 0 ? REPLY : packed().metrics[i]; }
    /**
     * @param {number} i
     * @param {number} t
     * @param {number} p
     * @returns {number|null}
     */
    function valueOf(i, t, p) {
      var f = packed().frames[t];
      if (i >= 0) return (f.values[p] || [])[i];
      var us = f.replies ? f.replies[p] : -1;
      return us >= 0 ? us / 1000 : null;
    }
    /** @param {PackedMetric} m */
    function metricTitle(m) { return words(m.name) + (m.unit && m.unit !== m.name ? ' (' + m.unit + ')' : ''); }
    /** @param {number} p */
    function seriesName(p) { return (packed().players[p].label || bd.name(p)) + (other ? ' (A)' : ''); }
    /** @param {number} p */
    function otherName(p) { return other ? (other.st.replay().P.players[p].label || other.bd.name(p)) + ' (B)' : ''; }
    function legendState() {
      /** @type {Object<string, boolean>} */
      var sel = {};
      for (var p = 0; p < NP; p++) sel[seriesName(p)] = !hidden[seriesName(p)];
      if (other) for (var q = 0; q < other.st.replay().NP; q++) sel[otherName(q)] = !hidden[otherName(q)];
      return sel;
    }
    function buildCharts() {
      var P = packed();
      clear(chartsBox);
      charts = []; views = [];
      if (!P.metrics.length) { chartsBox.appendChild(el('p', { cls: 'hint', text: 'The game declares no metrics.' })); return; }
      var picks = chartMetrics(), picker = picks.length < P.metrics.length;
      picks.concat(P.has_reply_times ? [-1] : []).forEach(function (mi, k) {
        var div = el('div', { cls: 'chart metric-chart', 'data-testid': 'chart', 'data-metric': metricOf(mi).name, 'data-index': String(mi) });
        /** @type {MetricView} */
        var v = { metric: mi, log: false, div: div, sel: null }, bar = el('div', { cls: 'chart-bar' });
        views.push(v);
        if (picker && mi >= 0) {
          var sel = v.sel = el('select', { cls: 'metric-pick', 'data-testid': 'metric-pick', title: 'The metric this chart shows', 'aria-label': 'metric of chart ' + (k + 1) });
          P.metrics.forEach(function (m, i) {
            var o = el('option', { value: String(i), text: metricTitle(m) });
            if (i === mi) o.selected = true;
            sel.appendChild(o);
          });
          sel.addEventListener('change', function () { pickMetric(k, +sel.value); sel.blur(); });
          bar.appendChild(el('label', { cls: 'chart-pick' }, 'chart ', sel));
        }
        var log = el('input', { type: 'checkbox', cls: 'chart-log', 'data-testid': 'chart-log' });
        var png = el('button', { type: 'button', cls: 'chart-png', 'data-testid': 'chart-png', title: 'This chart as a PNG image' }, 'PNG');
        var csv = el('button', { type: 'button', cls: 'chart-csv', 'data-testid': 'chart-csv', title: 'This metric as CSV, as rewind analyze --format csv writes it, for the players shown' }, 'CSV');
        log.addEventListener('change', function () { setLog(k, log.checked); log.blur(); });
        png.addEventListener('click', function () { savePNG(k); png.blur(); });
        csv.addEventListener('click', function () { saveCSV(k); csv.blur(); });
        bar.appendChild(el('span', { cls: 'chart-tools' }, el('label', { title: 'A log scale (values of 0 or less are not drawn)' }, log, ' log'), png, csv));
        chartsBox.appendChild(el('div', { cls: 'chart-box', 'data-chart': String(k) }, bar, div));
      });
      var later = function () { requestAnimationFrame(function () { setTimeout(function () { loadECharts(root, initCharts); }, 0); }); };
      if (document.readyState === 'complete') later(); else window.addEventListener('load', later);
    }
    // chartOption is the option of a chart of view v (its metric, its
    // scale).
    /** @param {MetricView} v */
    function chartOption(v) {
      var P = packed(), m = metricOf(v.metric), i = v.metric, cats = [], lines = [];
      for (var t = 1; t < F; t++) cats.push(t);
      for (var p = 0; p < NP; p++) {
        /** @type {(number|null)[]} */
        var data = [];
        // A value the stream cannot know is a gap, and so is one a log
        // scale cannot draw.
        for (var t2 = 1; t2 < F; t2++) {
          var x = valueOf(i, t2, p);
          data.push(m.unknown || x === null || (v.log && !(x > 0)) ? null : x);
        }
        lines.push({ type: 'line', name: seriesName(p), data: data, showSymbol: false, color: bd.color(p), emphasis: { focus: 'series' }, step: P.sequential ? 'end' : false });
      }
      if (other) lines = lines.concat(otherLines(m, v.log));
      return {
        animation: false,
        title: { text: metricTitle(m) + (m.unknown ? ' · not known from this replay' : ''), textStyle: { fontSize: 14 } },
        tooltip: { trigger: 'axis' },
        // Never paged: the legend wraps into rows, the plot below them
        // (fitLegend), so every player's entry (the winner's) shows.
        legend: { top: LEGEND_TOP, left: 8, right: 8, type: 'plain', selected: legendState() },
        grid: { top: v.gridTop || GRID_TOP, bottom: 48, left: 16, right: 44, containLabel: true },
        xAxis: turnAxis(cats),
        yAxis: v.log ? { type: 'log', logBase: 10 } : { type: 'value', minInterval: i < 0 ? 0 : 1 },
        dataZoom: [{ type: 'inside', xAxisIndex: 0 }, { type: 'slider', xAxisIndex: 0, height: 14, bottom: 6 }],
        series: lines
      };
    }
    // otherLines are the dashed lines of other's players for metric m
    // (by its name; none when other's game has no such metric).
    /**
     * @param {PackedMetric} m
     * @param {boolean} log
     */
    function otherLines(m, log) {
      if (!other) return [];
      var o = other, Q = o.st.replay().P, FB = o.st.replay().F, lines = [];
      var j = Q.metrics.findIndex(function (x) { return x.name === m.name; });
      if (j < 0) return [];
      for (var p = 0; p < Q.players.length; p++) {
        /** @type {(number|null)[]} */
        var data = [];
        for (var t = 1; t < FB; t++) {
          var x = (Q.frames[t].values[p] || [])[j];
          data.push(Q.metrics[j].unknown || (log && !(x > 0)) ? null : x);
        }
        lines.push({ type: 'line', name: otherName(p), data: data, showSymbol: false, color: o.bd.color(p), lineStyle: { type: 'dashed' }, emphasis: { focus: 'series' }, step: Q.sequential ? 'end' : false });
      }
      return lines;
      }
    // fitLegend starts chart c's plot below its legend's last row and
    // grows the chart by as much as the rows take beyond one, so the
    // plot keeps its height: ECharts lays a plain legend out in rows
    // across the chart's width.
    /** @param {ChartView} c */
    function fitLegend(c) {
      var ch = c.chart, lm = ch.getModel().getComponent('legend'), lv = lm && ch.getViewOfComponentModel(lm);
      if (!lv) return;
      var top = LEGEND_TOP + Math.ceil(lv.group.getBoundingRect().height) + LEGEND_GAP;
      if (top === (c.view.gridTop || GRID_TOP)) return;
      var base = c.div.clientHeight - (c.view.gridTop || GRID_TOP);
      c.view.gridTop = top;
      c.div.style.height = (base + top) + 'px';
      ch.resize();
      ch.setOption({ grid: { top: top } });
      c.rect = null;
      c.move(st.view.turn);
    }
    // turnAxis is the charts' horizontal axis over turns cats: in turns,
    // or in the game's own time when its painter says how (turnAxis).
    /** @param {number[]} cats */
    function turnAxis(cats) {
      var axis = st.painter.turnAxis ? st.painter.turnAxis(bd.geometry()) : null;
      /** @type {{interval: function(number, *): boolean, formatter?: function(*): string}} */
      var axisLabel = { interval: roundTick };
      if (axis) {
        var label = axis.label;
        axisLabel.formatter = function (t) { return label(+t); };
      }
      return { type: 'category', name: axis ? axis.name : 'turn', data: cats, axisLabel: axisLabel, axisTick: { interval: roundTick, alignWithLabel: true } };
    }
    /** @param {ChartView} c */
    function highlight(c) {
      c.chart.dispatchAction({ type: 'downplay' });
      if (st.view.selected >= 0) c.chart.dispatchAction({ type: 'highlight', seriesName: seriesName(st.view.selected) });
    }
    function initCharts() {
      if (charts.length || !window.echarts) return;
      var echarts = window.echarts;
      views.forEach(function (v) {
        var c = chart(echarts, v);
        c.chart.on('datazoom', function () { c.move(st.view.turn); });
        // A click on a legend (legendselectchanged) or an action
        // (legendselected, legendunselected): the same in every chart.
        /** @type {('legendselectchanged'|'legendselected'|'legendunselected')[]} */
        var legendEvents = ['legendselectchanged', 'legendselected', 'legendunselected'];
        legendEvents.forEach(function (kind) {
          c.chart.on(kind, function (ev) {
            if (linking || !ev.selected) return;
            hidden[ev.name] = !ev.selected[ev.name];
            syncLegends();
          });
        });
        charts.push(c);
        fitLegend(c);
        c.move(st.view.turn);
        highlight(c);
      });
      rewind.chartsReady = true;
    }
    function syncLegends() {
      linking = true;
      var sel = legendState();
      charts.forEach(function (c) { c.chart.setOption({ legend: { selected: sel } }); });
      linking = false;
    }
    // redraw sets chart k's option again after its view changed.
    /** @param {number} k */
    function redraw(k) {
      var c = charts[k];
      if (!c) return; // ECharts not loaded yet: initCharts reads the view
      c.chart.setOption(chartOption(views[k]), { replaceMerge: ['series', 'yAxis'] });
      c.rect = null;
      c.move(st.view.turn);
      highlight(c);
    }
    // pickMetric makes chart k show metric i (its picker's choice).
    /**
     * @param {number} k
     * @param {number} i
     */
    function pickMetric(k, i) {
      var v = views[k], P = packed();
      if (!v || !(i >= 0 && i < P.metrics.length)) return;
      v.metric = i;
      v.div.setAttribute('data-metric', P.metrics[i].name);
      v.div.setAttribute('data-index', String(i));
      if (v.sel && v.sel.value !== String(i)) v.sel.value = String(i);
      redraw(k);
    }
    // setLog puts chart k on a log scale (on) or a linear one.
    /**
     * @param {number} k
     * @param {boolean} on
     */
    function setLog(k, on) {
      var v = views[k];
      if (!v) return;
      v.log = !!on;
      var box = v.div.parentNode && v.div.parentNode.querySelector('.chart-log');
      if (box instanceof HTMLInputElement && box.checked !== v.log) box.checked = v.log;
      redraw(k);
    }
    // chartCSV is chart k's metric as `rewind analyze --format csv` writes
    // it for this replay, the rows of the players shown: its layout is
    // analysis.SeriesCSV's (P.series_csv: the header, then from turn first
    // one row a turn a player, the turn, the player's key and the value),
    // the values the frames' (the analysis's series are the frames').
    /** @param {number} k */
    function chartCSV(k) {
      var l = packed().series_csv, i = views[k].metric, out = [l.head + ',' + (i < 0 ? 'reply_time_ms' : l.columns[i])];
      for (var t = l.first; t < F; t++) {
        for (var p = 0; p < NP; p++) {
          var x = valueOf(i, t, p);
          if (!hidden[seriesName(p)]) out.push(t + ',' + l.keys[p] + ',' + (x === null ? '' : x));
        }
      }
      return out.join('\n') + '\n';
    }
    /**
     * @param {number} k
     * @param {string} ext
     */
    function fileName(k, ext) { return 'rewind-' + metricOf(views[k].metric).name.replace(/[^A-Za-z0-9_.-]+/g, '_') + '.' + ext; }
    /**
     * @param {string} file
     * @param {string} url
     */
    function download(file, url) {
      var a = el('a', { href: url, download: file });
      document.body.appendChild(a);
      a.click();
      a.remove();
    }
    /** @param {number} k */
    function saveCSV(k) {
      var url = URL.createObjectURL(new Blob([chartCSV(k)], { type: 'text/csv' }));
      download(fileName(k, 'csv'), url);
      setTimeout(function () { URL.revokeObjectURL(url); }, 1000);
    }
    /** @param {number} k */
    function savePNG(k) {
      var c = charts[k];
      // On the chart's own background (the page's theme), not a transparent one.
      if (c) download(fileName(k, 'png'), c.chart.getDataURL({ type: 'png', pixelRatio: 2, backgroundColor: getComputedStyle(c.div).backgroundColor || '#fff' }));
    }
    // pickMetric(k, metric) is the picker of chart k choosing metric (its
    // name); false for a metric the game has not.
    /**
     * @param {number} k
     * @param {string} metric
     */
    function pickMetricNamed(k, metric) {
      var P = packed();
      for (var i = 0; i < P.metrics.length; i++) if (P.metrics[i].name === metric) { pickMetric(k, i); return true; }
      return false;
    }
    // logScale(k, on) ticks or unticks chart k's log box; legendSelect(k,
    // label, on) clicks a player's entry of chart k's legend; chartCSV(k)
    // is what its CSV button saves; chartState() what each chart shows.
    /**
     * @param {number} k
     * @param {string} nm
     * @param {boolean} on
     */
    function legendSelect(k, nm, on) {
      if (charts[k]) charts[k].chart.dispatchAction({ type: on ? 'legendSelect' : 'legendUnSelect', name: nm });
    }
    /** @returns {ChartState[]} */
    function chartState() {
      return charts.map(function (c) {
        var o = c.chart.getOption();
        return { metric: metricOf(c.view.metric).name, selected: (o.legend && o.legend[0] && o.legend[0].selected) || {}, yType: o.yAxis && o.yAxis[0] && o.yAxis[0].type, title: o.title && o.title[0] && o.title[0].text, names: (o.series || []).map(function (x) { return x.name; }) };
      });
    }

    // build makes the charts of the current replay.
    function build() { use(); buildCharts(); }
    // refresh takes in a newer version of the same replay.
    function refresh() {
      use();
      charts.forEach(function (c) { c.chart.setOption(chartOption(c.view), true); c.rect = null; });
    }
    return {
      build: build, refresh: refresh,
      move: function (t) { charts.forEach(function (c) { c.move(t); }); },
      highlight: function () { charts.forEach(highlight); },
      resize: function () { charts.forEach(function (c) { c.chart.resize(); fitLegend(c); c.rect = null; c.move(st.view.turn); }); },
      pickMetric: pickMetricNamed, logScale: setLog, legendSelect: legendSelect, chartCSV: chartCSV, chartState: chartState
    };
  }

  rewind.charts = charts;
})(window.rewind);
