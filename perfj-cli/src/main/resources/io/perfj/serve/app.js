// perfj serve's page. Every answer comes from the server's API (aggregated there); every name
// from the recording is put into the page with textContent or text nodes, never as markup.
'use strict';

(function () {
  const F = window.PerfjFlame;
  const base = location.pathname.endsWith('/') ? location.pathname : location.pathname + '/';
  const $ = (id) => document.getElementById(id);
  const state = {
    meta: null, filter: {}, root: 0, diffRoot: 0, selected: -1, view: 'flame', query: '',
    byCpu: false, sort: 'self', names: new Map(), matches: null,
  };
  let pending = 0;
  // a blocked load or style would be a bug of the page: say so where the tests look
  document.addEventListener('securitypolicyviolation', (e) => {
    document.body.dataset.error = 'Content-Security-Policy blocked ' + e.violatedDirective + ' ' + e.blockedURI;
  });

  function busy(d) {
    pending += d;
    document.body.dataset.busy = String(pending);
  }

  async function api(name, extra) {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(state.filter)) if (v !== '' && v !== undefined && v !== null) q.set(k, v);
    for (const [k, v] of Object.entries(extra || {})) q.set(k, v);
    busy(1);
    try {
      const r = await fetch(base + 'api/' + name + '?' + q.toString());
      if (!r.ok) throw new Error(name + ': ' + r.status + ' ' + (await r.text()));
      const j = await r.json();
      if (j.fns) for (const f of j.fns) state.names.set(f[0], f);
      return j;
    } finally {
      busy(-1);
    }
  }

  function el(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }

  function fnName(id) {
    const f = state.names.get(id);
    return id < 0 ? '(outermost)' : f ? f[1] : '?';
  }

  function fnObject(id) {
    const f = state.names.get(id);
    return f && f[2] ? f[2] : '';
  }

  function unit() {
    if (!state.meta) return '';
    const ev = state.meta.recordings[0].events[Number(state.filter.event)];
    return ev ? ev.unit : '';
  }

  const pct = F.percent;

  // ---- filters ----
  function fill(select, items, value, text) {
    select.replaceChildren(new Option('all', ''));
    for (const it of items) select.appendChild(new Option(text(it), value(it)));
  }

  function setupFilters() {
    const r = state.meta.recordings[0];
    fill($('f-event'), r.events, (e) => e.id, (e) => e.name + ' (' + e.samples + ')');
    $('f-event').firstChild.remove();
    $('f-event').value = String(r.defaultEvent);
    state.filter.event = String(r.defaultEvent);
    const comms = new Map();
    for (const t of r.threads) comms.set(t.comm, (comms.get(t.comm) || 0) + t.samples);
    fill($('f-comm'), [...comms.entries()], (c) => c[0], (c) => c[0] + ' (' + c[1] + ')');
    // a fleet's threads are on many hosts: a pid or tid is one host's, so the host is a filter too
    const hosts = new Map();
    for (const t of r.threads) if (t.host) hosts.set(t.host, (hosts.get(t.host) || 0) + t.samples);
    fill($('f-host'), [...hosts.entries()].sort(), (h) => h[0], (h) => h[0] + ' (' + h[1] + ')');
    $('f-host-label').hidden = hosts.size === 0;
    fill($('f-pid'), r.processes, (p) => p.pid, (p) => p.pid + ' ' + p.comm + ' (' + p.samples + ')');
    fill($('f-tid'), r.threads, (t) => t.tid, (t) => t.tid + ' ' + t.comm + ' (' + t.samples + ')');
    fill($('f-dso'), r.dsos, (d) => d.name, (d) => d.name + ' (' + d.samples + ')');
    fill($('f-cpu'), r.cpus, (c) => c.cpu, (c) => c.cpu + ' (' + c.samples + ')');
    for (const k of ['event', 'comm', 'host', 'pid', 'tid', 'dso', 'cpu']) {
      $('f-' + k).addEventListener('change', (e) => setFilter(k, e.target.value));
    }
    $('f-reset').addEventListener('click', () => {
      for (const k of ['comm', 'host', 'pid', 'tid', 'dso', 'cpu', 'from', 'to']) state.filter[k] = '';
      for (const k of ['comm', 'host', 'pid', 'tid', 'dso', 'cpu']) $('f-' + k).value = '';
      refresh();
    });
  }

  function setFilter(k, v) {
    state.filter[k] = v;
    if ($('f-' + k)) $('f-' + k).value = v;
    refresh();
  }

  // ---- source positions: asked for once per function, when first hovered or selected ----
  const sources = new Map();

  function sourceText(r) {
    return r.file === null ? null : r.file + ':' + r.line;
  }

  function sourceOf(fn, onKnown) {
    // a fleet's functions come from many recordings: no one file to find their source in
    if (fn < 0 || (state.meta && state.meta.recordings[0].fleet)) return null;
    const known = sources.get(fn);
    if (typeof known === 'string' || known === null) return known;
    if (known === undefined) {
      const waiting = [];
      sources.set(fn, waiting);
      api('source', { fn: fn }).then((r) => {
        sources.set(fn, sourceText(r));
        for (const w of waiting) w();
      }, () => sources.set(fn, null));
    }
    if (onKnown) sources.get(fn).push(onKnown);
    return null;
  }

  function showSource(fn) {
    const t = sourceOf(fn, () => { if (state.selected === fn) showSource(fn); });
    $('sel-source').textContent = t ? 'source: ' + t : '';
  }

  // ---- flame graph and icicle ----
  const flame = new F.FlameGraph($('flame'), { inverted: false, onClick: (i) => zoomTo(flame, i), source: sourceOf });
  const icicle = new F.FlameGraph($('icicle'), { inverted: true, onClick: (i) => zoomTo(icicle, i), source: sourceOf });
  const diffFlame = new F.FlameGraph($('diffflame'), { inverted: false, onClick: (i) => zoomDiff(i) });

  // the last zoom's and search's time from the click or key to the graph drawn (ms)
  state.timing = {};

  async function zoomTo(g, i) {
    const t0 = performance.now();
    const id = g.data.nodes.id[i];
    const fn = g.data.nodes.fn[i];
    // the new graph is drawn with the clicked function selected; the selection's details
    // (callers and callees, source) are asked for after it, so that their answers, which go over
    // every stack, do not compete with the zoom's on the server
    if (fn >= 0) state.selected = fn;
    state.root = id;
    await loadFlame();
    state.timing.zoom = performance.now() - t0;
    if (fn >= 0) select(fn);
  }

  function crumbs(elId, data, onPick) {
    const items = [{ label: 'all', node: 0 }];
    for (const p of data.path) items.push({ label: fnName(p.fn), node: p.node });
    F.breadcrumbs($(elId), items, (it) => onPick(it.node));
  }

  async function loadFlame() {
    const data = await api('flame', { root: state.root });
    for (const g of [flame, icicle]) {
      g.opts.unit = unit();
      g.selected = state.selected;
      g.marked = state.matches;
      g.setData(data, 0);
    }
    const pick = (n) => { state.root = n; loadFlame(); };
    crumbs('crumbs', data, pick);
    crumbs('crumbs-icicle', data, pick);
    $('flame-info').textContent = data.nodes.id.length + ' frames drawn; '
      + (100 * data.pruned).toFixed(2) + '% of this graph is in frames under '
      + (100 * data.minShare).toFixed(2) + '% (not drawn)';
  }

  // ---- search ----
  let searchTimer = 0;
  $('search').addEventListener('input', (e) => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(() => search(e.target.value), 120);
  });

  async function search(q) {
    const t0 = performance.now();
    state.query = q;
    if (!q) {
      state.matches = null;
      $('search-info').textContent = '';
    } else {
      const r = await api('search', { q: q });
      if (state.query !== q) return;
      state.matches = new Set(r.fns.map((f) => f[0]));
      $('search-info').textContent = r.functions + ' functions; ' + (100 * r.share).toFixed(2) + '% of samples match';
    }
    flame.mark(state.matches);
    icicle.mark(state.matches);
    markRows();
    state.timing.search = performance.now() - t0;
  }

  function markRows() {
    for (const tr of document.querySelectorAll('tr[data-fn]')) {
      const fn = Number(tr.dataset.fn);
      tr.classList.toggle('selected', fn === state.selected);
      tr.classList.toggle('match', !!state.matches && state.matches.has(fn));
    }
  }

  // ---- selection (linked across views) ----
  async function select(fn) {
    state.selected = fn;
    flame.select(fn);
    icicle.select(fn);
    markRows();
    $('sel-none').hidden = true;
    $('sel').hidden = false;
    $('sel-name').textContent = fnName(fn);
    $('sel-object').textContent = fnObject(fn);
    showSource(fn);
    const b = await api('butterfly', { fn: fn });
    if (state.selected !== fn) return;
    const u = unit();
    $('sel-weights').textContent = 'self ' + b.self + ' ' + u + ' (' + pct(b.self, b.all) + '), total ' + b.total
      + ' ' + u + ' (' + pct(b.total, b.all) + ')';
    rows($('callers'), b.callers, b.all);
    rows($('callees'), b.callees, b.all);
  }

  function rows(table, list, all) {
    const body = table.tBodies[0];
    body.replaceChildren();
    for (const r of list) {
      const tr = el('tr');
      tr.appendChild(el('td', pct(r.weight, all), 'num'));
      tr.appendChild(el('td', fnName(r.fn)));
      if (r.fn >= 0) {
        tr.dataset.fn = String(r.fn);
        tr.addEventListener('click', () => select(r.fn));
      }
      body.appendChild(tr);
    }
    markRows();
  }

  // ---- call tree ----
  async function loadCallTree() {
    const body = $('calltree').tBodies[0];
    body.replaceChildren();
    const r = await api('calltree', { node: 0 });
    addTreeRows(body, null, r, 0);
  }

  function addTreeRows(body, after, r, depth) {
    let anchor = after;
    for (const c of r.children) {
      const tr = el('tr');
      tr.dataset.fn = String(c.fn);
      tr.dataset.depth = String(depth);
      tr.appendChild(el('td', pct(c.total, r.total), 'num'));
      tr.appendChild(el('td', pct(c.self, r.total), 'num'));
      const name = el('td');
      name.style.paddingLeft = (6 + depth * 14) + 'px';
      const toggle = el('span', c.children > 0 ? '\u25b8' : '', 'tree-toggle');
      name.appendChild(toggle);
      name.appendChild(document.createTextNode(fnName(c.fn)));
      tr.appendChild(name);
      let open = false;
      tr.addEventListener('click', async () => {
        select(c.fn);
        if (c.children === 0) return;
        if (open) {
          let n = tr.nextSibling;
          while (n && Number(n.dataset.depth) > depth) {
            const next = n.nextSibling;
            n.remove();
            n = next;
          }
          toggle.textContent = '\u25b8';
        } else {
          toggle.textContent = '\u25be';
          addTreeRows(body, tr, await api('calltree', { node: c.node }), depth + 1);
        }
        open = !open;
      });
      if (anchor) anchor.after(tr); else body.appendChild(tr);
      anchor = tr;
    }
    markRows();
  }

  // ---- top functions ----
  async function loadTop() {
    const r = await api('top', { sort: state.sort, limit: 300 });
    const body = $('top').tBodies[0];
    body.replaceChildren();
    for (const row of r.rows) {
      const tr = el('tr');
      tr.dataset.fn = String(row.fn);
      tr.appendChild(el('td', pct(row.self, r.total), 'num'));
      tr.appendChild(el('td', pct(row.total, r.total), 'num'));
      tr.appendChild(el('td', fnName(row.fn)));
      tr.appendChild(el('td', fnObject(row.fn)));
      tr.addEventListener('click', () => select(row.fn));
      body.appendChild(tr);
    }
    markRows();
  }
  for (const th of document.querySelectorAll('#top th.sort')) {
    th.addEventListener('click', () => { state.sort = th.dataset.sort; loadTop(); });
  }

  // ---- threads ----
  function loadThreads() {
    const body = $('threads').tBodies[0];
    body.replaceChildren();
    const list = [...state.meta.recordings[0].threads].sort((a, b) => b.samples - a.samples);
    for (const t of list) {
      const tr = el('tr');
      tr.appendChild(el('td', t.samples, 'num'));
      tr.appendChild(el('td', t.host ? t.host + ': ' + t.comm : t.comm));
      tr.appendChild(el('td', t.pid, 'num'));
      tr.appendChild(el('td', t.tid, 'num'));
      tr.addEventListener('click', () => {
        // a fleet's thread is its host's: select both
        if (t.host) {
          state.filter.host = t.host;
          $('f-host').value = t.host;
        }
        setFilter('tid', String(t.tid));
      });
      body.appendChild(tr);
    }
  }

  // ---- timeline ----
  let drag = null;
  async function loadTimeline() {
    const r = await api('timeline', { by: state.byCpu ? 'cpu' : 'thread', buckets: 300 });
    const box = $('timeline');
    box.replaceChildren();
    let max = 1;
    for (const l of r.lanes) for (const c of l.counts) max = Math.max(max, c);
    for (const l of r.lanes) {
      const lane = el('div', null, 'lane');
      const label = el('div', l.label, 'label');
      label.title = l.label;
      if (!l.other) {
        label.addEventListener('click', () => (state.byCpu ? setFilter('cpu', String(l.cpu)) : setFilter('tid', String(l.tid))));
      }
      lane.appendChild(label);
      const cv = el('canvas');
      cv.width = r.buckets;
      cv.height = 1;
      const ctx = cv.getContext('2d');
      l.counts.forEach((c, b) => {
        if (c > 0) {
          ctx.fillStyle = 'rgba(200,60,20,' + (0.15 + 0.85 * c / max) + ')';
          ctx.fillRect(b, 0, 1, 1);
        }
      });
      lane.appendChild(cv);
      box.appendChild(lane);
    }
    const range = el('div');
    range.id = 'range';
    range.hidden = true;
    box.appendChild(range);
    state.duration = r.duration;
    showRange();
  }

  function laneArea() {
    const cv = $('timeline').querySelector('canvas');
    return cv ? cv.getBoundingClientRect() : null;
  }

  function showRange() {
    const range = $('range');
    const a = laneArea();
    const has = state.filter.from !== undefined && state.filter.from !== '';
    $('range-clear').hidden = !has;
    if (!range || !a || !has) {
      if (range) range.hidden = true;
      $('range-info').textContent = '';
      return;
    }
    const box = $('timeline').getBoundingClientRect();
    const d = state.duration || 1;
    const x0 = a.left - box.left + a.width * Number(state.filter.from) / d;
    const x1 = a.left - box.left + a.width * Number(state.filter.to) / d;
    range.style.left = x0 + 'px';
    range.style.width = Math.max(1, x1 - x0) + 'px';
    range.hidden = false;
    $('range-info').textContent = 'range ' + (Number(state.filter.from) / 1e9).toFixed(3) + ' s \u2013 '
      + (Number(state.filter.to) / 1e9).toFixed(3) + ' s';
  }

  function timeAt(clientX) {
    const a = laneArea();
    const f = Math.max(0, Math.min(1, (clientX - a.left) / a.width));
    return Math.round(f * (state.duration || 0));
  }

  $('timeline').addEventListener('mousedown', (e) => {
    if (!laneArea() || e.target.tagName !== 'CANVAS') return;
    drag = { start: timeAt(e.clientX) };
    e.preventDefault();
  });
  window.addEventListener('mousemove', (e) => {
    if (!drag) return;
    const t = timeAt(e.clientX);
    state.filter.from = String(Math.min(drag.start, t));
    state.filter.to = String(Math.max(drag.start, t));
    showRange();
  });
  window.addEventListener('mouseup', (e) => {
    if (!drag) return;
    const t = timeAt(e.clientX);
    const from = Math.min(drag.start, t);
    const to = Math.max(drag.start, t);
    drag = null;
    if (to - from < (state.duration || 0) / 1000) {
      state.filter.from = '';
      state.filter.to = '';
    } else {
      state.filter.from = String(from);
      state.filter.to = String(to);
    }
    refresh();
  });
  $('range-clear').addEventListener('click', () => { state.filter.from = ''; state.filter.to = ''; refresh(); });
  $('tl-by').addEventListener('click', () => {
    state.byCpu = !state.byCpu;
    $('tl-by').textContent = state.byCpu ? 'per thread' : 'per CPU';
    loadTimeline();
  });

  // ---- annotate ----
  $('annotate-open').addEventListener('click', () => openAnnotate(state.selected));
  $('annotate-close').addEventListener('click', () => { $('annotate-panel').hidden = true; });
  for (const b of $('annotate-views').querySelectorAll('button')) {
    b.addEventListener('click', () => openAnnotate(Number($('annotate-views').dataset.fn), b.dataset.view));
  }

  // view: 'jited' (a BPF program's JIT image, or any other function's code) or 'xlated' (eBPF bytecode)
  async function openAnnotate(fn, view) {
    if (fn < 0) return;
    $('annotate-panel').hidden = false;
    $('annotate-title').textContent = fnName(fn);
    const body = $('annotate-body');
    body.replaceChildren(el('div', 'annotating\u2026', 'note'));
    let r;
    try {
      r = await api('annotate', view === 'xlated' ? { fn: fn, view: 'xlated' } : { fn: fn });
    } catch (e) {
      body.replaceChildren(el('div', String(e.message), 'note'));
      return;
    }
    body.replaceChildren();
    const views = $('annotate-views');
    views.hidden = !r.bpf;
    for (const b of views.querySelectorAll('button')) {
      b.classList.toggle('active', b.dataset.view === r.view);
      b.disabled = b.dataset.view === 'xlated' && !r.xlated;
      b.title = b.disabled ? 'the recording has no bytecode for it (serve --xlated-file FILE gives it)' : '';
    }
    views.dataset.fn = String(fn);
    if (r.annotations.length === 0) {
      // the annotator's reason when it gave one (a live profile: no samples in it since a reset, no code on disk)
      const why = r.warnings && r.warnings.length ? ': ' + r.warnings.join('; ') : ' (no symbol, or no code found for it).';
      body.appendChild(el('div', 'Nothing to annotate for ' + r.symbol + why, 'note'));
    }
    for (const a of r.annotations) {
      body.appendChild(el('h4', a.symbol + '  ' + a.dso + '  ' + a.event + ': ' + a.samples + ' samples'));
      const src = sourceTotals(a.lines);
      if (src.order.length) {
        // the source lines' totals, hottest first, beside the per-instruction listing below
        const sum = el('table', null, 'grid source-lines');
        for (const key of src.order.slice(0, 10)) {
          const tr = el('tr');
          tr.appendChild(el('td', src.total.get(key).toFixed(2) + '%', 'num'));
          tr.appendChild(el('td', key.trim()));
          sum.appendChild(tr);
        }
        body.appendChild(el('h5', 'By source line'));
        body.appendChild(sum);
      }
      const table = el('table', null, 'grid annotation');
      a.lines.forEach((line, i) => {
        const tr = el('tr');
        if (line.offset === null) {
          tr.className = 'src';
          const key = src.rowKey.get(i);
          tr.appendChild(el('td', key !== undefined && src.total.get(key) > 0 ? src.total.get(key).toFixed(2) + '%' : '', 'num line-total'));
          tr.appendChild(el('td', ''));
        } else {
          if (line.percent >= 5) tr.className = 'hot';
          tr.appendChild(el('td', line.percent > 0 ? line.percent.toFixed(2) + '%' : '', 'num'));
          tr.appendChild(el('td', line.offset.toString(16) + ':', 'num'));
        }
        tr.appendChild(el('td', line.text));
        table.appendChild(tr);
      });
      body.appendChild(table);
    }
    for (const w of r.warnings) body.appendChild(el('div', w, 'note'));
  }

  // Each instruction's share counted for the source line it was compiled from: the nearest row
  // above it that names one (objdump's "file:line" markers, discriminators merged; a BPF
  // program's BTF "[file:F line_num:N ...]"), or, where the listing has no such markers (a BPF
  // program's JIT image), the source text row above it. rowKey: listing row -> its line's key.
  function sourceTotals(lines) {
    const marker = /^(\S+:\d+)(?: \(discriminator \d+\))?$/;
    const btf = /\[file:(\S+) line_num:(\d+)/;
    const keyOf = (text) => {
      const m = marker.exec(text.trim());
      if (m) return m[1];
      const b = btf.exec(text);
      return b ? b[1] + ':' + b[2] : null;
    };
    const markers = lines.some((l) => l.offset === null && keyOf(l.text) !== null);
    const total = new Map();
    const rowKey = new Map();
    let cur = null;
    lines.forEach((l, i) => {
      if (l.offset === null) {
        const k = markers ? keyOf(l.text) : (l.text.trim() ? l.text.trim() : null);
        if (k !== null) {
          cur = k;
          rowKey.set(i, k);
          if (!total.has(k)) total.set(k, 0);
        }
      } else if (cur !== null) {
        total.set(cur, total.get(cur) + (l.percent || 0));
      }
    });
    const order = [...total.keys()].filter((k) => total.get(k) > 0).sort((x, y) => total.get(y) - total.get(x));
    return { total, rowKey, order };
  }

  // ---- diff ----
  async function loadDiff() {
    const r = state.meta.recordings;
    $('diff-info').textContent = 'Widths: ' + r[1].name + '; colour: change from ' + r[0].name
      + ' (red: more, blue: less).';
    const data = await api('diff', { root: state.diffRoot });
    diffFlame.opts.unit = unit();
    diffFlame.setData(data, 0);
    crumbs('crumbs-diff', data, (n) => { state.diffRoot = n; loadDiff(); });
    const c = await api('diffchanged', { limit: 50 });
    const body = $('changed').tBodies[0];
    body.replaceChildren();
    for (const row of c.rows) {
      const tr = el('tr');
      tr.appendChild(el('td', (100 * row.share).toFixed(2) + '%', 'num'));
      tr.appendChild(el('td', (100 * row.share2).toFixed(2) + '%', 'num'));
      const d = row.share2 - row.share;
      const td = el('td', (d >= 0 ? '+' : '') + (100 * d).toFixed(2) + '%', 'num');
      td.style.color = d >= 0 ? 'rgb(200,0,0)' : 'rgb(0,0,200)';
      tr.appendChild(td);
      tr.appendChild(el('td', row.name));
      tr.appendChild(el('td', row.dso || ''));
      body.appendChild(tr);
    }
  }

  function zoomDiff(i) {
    state.diffRoot = diffFlame.data.nodes.id[i];
    loadDiff();
  }

  // ---- views ----
  for (const b of document.querySelectorAll('#tabs button')) {
    b.addEventListener('click', () => show(b.dataset.view));
  }

  function show(view) {
    state.view = view;
    for (const b of document.querySelectorAll('#tabs button')) b.classList.toggle('active', b.dataset.view === view);
    for (const s of document.querySelectorAll('.view')) s.hidden = s.id !== 'view-' + view;
    for (const g of [flame, icicle, diffFlame]) g.shown();
    return loadView();
  }

  function loadView() {
    switch (state.view) {
      case 'flame': case 'icicle': return loadFlame();
      case 'calltree': return loadCallTree();
      case 'top': return loadTop();
      case 'threads': return loadThreads();
      case 'diff': return loadDiff();
      default: return null;
    }
  }

  // a filter changed: the trees' node ids are the new selection's, so zoom starts again
  async function refresh() {
    state.root = 0;
    state.diffRoot = 0;
    const jobs = [loadView(), loadTimeline()];
    if (state.query) jobs.push(search(state.query));
    if (state.selected >= 0) jobs.push(select(state.selected));
    await Promise.all(jobs);
  }

  async function start() {
    busy(1);
    try {
      // the first graph and timeline are the default event's: asked for with the meta, not after it
      const first = Promise.all([loadFlame(), loadTimeline()]);
      state.meta = await api('meta');
      const r = state.meta.recordings;
      showRecordings();
      $('tab-diff').hidden = r.length < 2;
      if (r[0].fleet) {
        $('annotate-open').disabled = true;
        $('annotate-open').title = 'not available for a fleet (its samples come from many recordings)';
        // a fleet's samples are sums over many recordings' moments: no timeline to draw
        $('timeline-box').hidden = true;
      }
      setupFilters();
      await first;
      for (const g of [flame, icicle, diffFlame]) g.opts.unit = unit();
    } finally {
      busy(-1);
    }
    // perfj top --web: the server answers from its latest snapshot; ask again every second
    if (state.meta && state.meta.recordings.some((x) => x.live)) setTimeout(live, 1000);
  }

  function showRecordings() {
    $('recording').textContent = state.meta.recordings.map((x) => x.name + ' (' + x.samples + ' samples)').join(' \u2192 ');
  }

  async function live() {
    try {
      state.meta = await api('meta');
      showRecordings();
      // a new snapshot's tree has node ids of its own: zoom starts again
      state.root = 0;
      await loadView();
    } catch (e) {
      document.body.dataset.error = String(e);
    }
    setTimeout(live, 1000);
  }

  window.addEventListener('resize', () => { flame.render(); icicle.render(); diffFlame.render(); showRange(); });
  window.perfjUi = { state, flame, icicle, diffFlame, select, show, search, setFilter, openAnnotate };
  start().catch((e) => {
    document.body.dataset.error = String(e);
    $('flame-info').textContent = String(e);
  });
})();
