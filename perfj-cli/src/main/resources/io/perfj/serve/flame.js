// perfj's flame graph renderer: one for the served UI (perfj serve) and the standalone HTML
// file (perfj flamegraph -o OUT.html). Frames are DOM boxes whose names are set with
// textContent only: a name from a recording is never parsed as markup.
'use strict';

(function (global) {
  const ROW = 17;

  function hash(s) {
    let h = 2166136261;
    for (let i = 0; i < s.length; i++) {
      h ^= s.charCodeAt(i);
      h = Math.imul(h, 16777619);
    }
    return (h >>> 0) / 4294967296;
  }

  // flamegraph.pl's "hot" palette for user code, orange for the kernel, aqua for inlined code
  function colour(name, kind) {
    const v = hash(name);
    if (kind === 'k') {
      return 'rgb(' + (205 + Math.round(50 * v)) + ',' + (120 + Math.round(60 * v)) + ',' + 40 + ')';
    }
    if (kind === 'i') {
      return 'rgb(' + 80 + ',' + (170 + Math.round(60 * v)) + ',' + (170 + Math.round(60 * v)) + ')';
    }
    return 'rgb(' + (205 + Math.round(50 * v)) + ',' + Math.round(230 * (1 - v) * 0.8) + ',' + Math.round(55 * v) + ')';
  }

  // difffolded.pl's colouring: red where the second recording has more, blue where less
  function diffColour(delta) {
    const d = Math.max(-1, Math.min(1, delta));
    const c = Math.round(210 - 190 * Math.abs(d));
    return d >= 0 ? 'rgb(255,' + c + ',' + c + ')' : 'rgb(' + c + ',' + c + ',255)';
  }

  function percent(x, total) {
    return total > 0 ? (100 * x / total).toFixed(2) + '%' : '0%';
  }

  class FlameGraph {
    // opts: inverted (icicle: root at the top), onClick(index), onHover(index|-1), unit,
    // source(fnId, onKnown): the function's "file:line" if known now (else null; onKnown is
    // called once the answer is in)
    constructor(container, opts) {
      this.el = container;
      this.opts = opts || {};
      this.data = null;
      this.root = 0;
      this.marked = null;
      this.selected = -1;
      this.tip = document.createElement('div');
      this.tip.className = 'flame-tip';
      this.tip.hidden = true;
      document.body.appendChild(this.tip);
      container.classList.add('flame');
      container.addEventListener('click', (e) => {
        const i = this.indexAt(e.target);
        if (i >= 0 && this.opts.onClick) this.opts.onClick(i, e);
      });
      container.addEventListener('mousemove', (e) => this.hover(this.indexAt(e.target), e));
      container.addEventListener('mouseleave', () => this.hover(-1));
    }

    indexAt(target) {
      const box = target.closest ? target.closest('.fr') : null;
      return box && this.el.contains(box) ? Number(box.dataset.i) : -1;
    }

    setData(data, rootIndex) {
      this.data = data;
      this.root = rootIndex || 0;
      const n = data.nodes.id.length;
      const depth = new Int32Array(n);
      const fns = new Map();
      for (const f of data.fns) fns.set(f[0], f);
      this.fns = fns;
      for (let i = 0; i < n; i++) {
        const p = data.nodes.parent[i];
        depth[i] = p < 0 ? 0 : depth[p] + 1;
      }
      this.depth = depth;
      this.render();
    }

    diff() {
      return this.data.nodes.total2 !== undefined;
    }

    weight(i) {
      return this.diff() ? this.data.nodes.total2[i] : this.data.nodes.total[i];
    }

    fn(i) {
      return this.fns.get(this.data.nodes.fn[i]) || [-1, 'all', null, 'u'];
    }

    name(i) {
      return this.data.nodes.fn[i] < 0 ? 'all' : this.fn(i)[1];
    }

    // the nodes under the render root: a contiguous run of the depth-first order
    end(i) {
      const n = this.data.nodes.id.length;
      let j = i + 1;
      while (j < n && this.depth[j] > this.depth[i]) j++;
      return j;
    }

    render() {
      const el = this.el;
      // a hidden graph (another tab) is drawn when it is shown: layout needs its width
      if (el.closest('[hidden]')) {
        this.dirty = true;
        return;
      }
      this.dirty = false;
      el.replaceChildren();
      if (!this.data) return;
      const nodes = this.data.nodes;
      const r = this.root;
      const end = this.end(r);
      const rootW = this.weight(r) || 1;
      const px = el.clientWidth || 1000;
      const base = this.depth[r];
      let maxDepth = 0;
      const x = new Float64Array(end - r);
      const next = new Float64Array(end - r);
      const shown = [];
      for (let i = r; i < end; i++) {
        const p = nodes.parent[i];
        const k = i - r;
        if (i === r) {
          x[k] = 0;
        } else {
          const pk = p - r;
          x[k] = next[pk];
          next[pk] += this.weight(i) / rootW;
        }
        next[k] = x[k];
        const w = this.weight(i) / rootW;
        if (w * px >= 0.5) {
          shown.push(i);
          maxDepth = Math.max(maxDepth, this.depth[i] - base);
        }
      }
      const height = (maxDepth + 1) * ROW;
      el.style.height = height + 'px';
      const frag = document.createDocumentFragment();
      const total = this.diff() ? this.data.total2 : this.data.total;
      const total1 = this.data.total;
      // difffolded.pl's scale: the largest change of a frame's self share is the full colour
      let maxDelta = 0;
      if (this.diff()) {
        for (const i of shown) {
          const d = Math.abs((total > 0 ? nodes.self2[i] / total : 0) - (total1 > 0 ? nodes.self[i] / total1 : 0));
          maxDelta = Math.max(maxDelta, d);
        }
      }
      for (const i of shown) {
        const k = i - r;
        const d = this.depth[i] - base;
        const box = document.createElement('div');
        box.className = 'fr';
        box.dataset.i = String(i);
        const f = this.fn(i);
        const name = this.name(i);
        let bg;
        if (this.diff()) {
          const before = total1 > 0 ? nodes.self[i] / total1 : 0;
          const after = total > 0 ? nodes.self2[i] / total : 0;
          bg = maxDelta === 0 || after === before ? 'rgb(230,230,230)' : diffColour((after - before) / maxDelta);
        } else {
          bg = nodes.fn[i] < 0 ? 'rgb(220,220,220)' : colour(name, f[3]);
        }
        // one CSSOM write per box (allowed by the page's CSP, unlike a style attribute in markup)
        box.style.cssText = 'left:' + (100 * x[k]) + '%;width:' + (100 * this.weight(i) / rootW) + '%;top:'
          + (this.opts.inverted ? d * ROW : height - (d + 1) * ROW) + 'px;background-color:' + bg;
        if (this.marked && this.marked.has(nodes.fn[i])) box.classList.add('match');
        if (this.selected >= 0 && nodes.fn[i] === this.selected) box.classList.add('selected');
        box.textContent = name;
        frag.appendChild(box);
      }
      el.appendChild(frag);
      // a flame graph stands on its root: show the bottom of a scrolled box first
      const box = el.parentElement;
      if (!this.opts.inverted && box && box.classList.contains('flame-scroll')) box.scrollTop = box.scrollHeight;
    }

    // draws the graph if it changed while hidden
    shown() {
      if (this.dirty) this.render();
    }

    // the boxes' classes follow the marks and the selection without laying out again
    restyle() {
      if (this.dirty || !this.data) return;
      const fns = this.data.nodes.fn;
      for (const box of this.el.children) {
        const fn = fns[Number(box.dataset.i)];
        box.classList.toggle('match', !!this.marked && this.marked.has(fn));
        box.classList.toggle('selected', this.selected >= 0 && fn === this.selected);
      }
    }

    // search matches (a Set of function ids, or null)
    mark(set) {
      this.marked = set;
      this.restyle();
    }

    select(fnId) {
      this.selected = fnId;
      this.restyle();
    }

    details(i) {
      const nodes = this.data.nodes;
      const f = this.fn(i);
      const total = this.data.total;
      const unit = this.opts.unit ? ' ' + this.opts.unit : '';
      const lines = [this.name(i)];
      if (f[2]) lines.push('object: ' + f[2] + (f[3] === 'k' ? ' (kernel)' : f[3] === 'i' ? ' (inlined)' : ''));
      // the source position: in the standalone file's table, or from the server (asked once per function)
      const src = f[4] || (this.opts.source ? this.opts.source(f[0], () => { if (this.hovered === i) this.hover(i); }) : null);
      if (src) lines.push('source: ' + src);
      if (this.diff()) {
        const total2 = this.data.total2;
        lines.push('before: total ' + nodes.total[i] + unit + ' (' + percent(nodes.total[i], total) + '), self '
          + nodes.self[i] + ' (' + percent(nodes.self[i], total) + ')');
        lines.push('after: total ' + nodes.total2[i] + unit + ' (' + percent(nodes.total2[i], total2) + '), self '
          + nodes.self2[i] + ' (' + percent(nodes.self2[i], total2) + ')');
      } else {
        lines.push('total: ' + nodes.total[i] + unit + ' (' + percent(nodes.total[i], total) + ')');
        lines.push('self: ' + nodes.self[i] + unit + ' (' + percent(nodes.self[i], total) + ')');
      }
      return lines;
    }

    hover(i, e) {
      this.hovered = i;
      if (this.opts.onHover) this.opts.onHover(i);
      if (i < 0) {
        this.tip.hidden = true;
        return;
      }
      const lines = this.details(i);
      this.tip.replaceChildren();
      for (const l of lines) {
        const d = document.createElement('div');
        d.textContent = l;
        this.tip.appendChild(d);
      }
      this.tip.hidden = false;
      if (e) {
        this.tip.style.left = Math.min(e.pageX + 12, window.innerWidth - 320) + 'px';
        this.tip.style.top = (e.pageY + 14) + 'px';
      }
    }

    // the chain from the data's top to node i: [index, name]
    chain(i) {
      const out = [];
      for (let n = i; n >= 0; n = this.data.nodes.parent[n]) out.unshift([n, this.name(n)]);
      return out;
    }
  }

  // The matches of a search in a graph's own data (the standalone file has no server): the
  // functions whose name contains the query and the share of the root's weight under them.
  function searchLocal(g, query) {
    const q = query.toLowerCase();
    const nodes = g.data.nodes;
    const set = new Set();
    for (const f of g.data.fns) if (f[1].toLowerCase().includes(q)) set.add(f[0]);
    let matched = 0;
    const under = new Uint8Array(nodes.id.length);
    for (let i = 0; i < nodes.id.length; i++) {
      const p = nodes.parent[i];
      const above = p >= 0 && under[p];
      const m = set.has(nodes.fn[i]);
      if (m && !above) matched += g.weight(i);
      under[i] = above || m ? 1 : 0;
    }
    return { set: set, share: matched / (g.weight(0) || 1) };
  }

  function breadcrumbs(el, items, onPick) {
    el.replaceChildren();
    items.forEach((it, k) => {
      if (k > 0) el.appendChild(document.createTextNode(' \u203a '));
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'crumb';
      b.textContent = it.label;
      b.addEventListener('click', () => onPick(it));
      el.appendChild(b);
    });
  }

  // The standalone page: data embedded as JSON, zoom and search in the browser.
  function standalone() {
    const dataEl = document.getElementById('perfj-flame-data');
    if (!dataEl) return;
    const doc = JSON.parse(dataEl.textContent);
    const data = doc.graph;
    const crumbs = document.getElementById('crumbs');
    const info = document.getElementById('search-info');
    let g = null;
    function zoom(i) {
      g.root = i;
      g.render();
      breadcrumbs(crumbs, g.chain(i).map((c) => ({ label: c[1], index: c[0] })), (it) => zoom(it.index));
    }
    g = new FlameGraph(document.getElementById('flame'), {
      inverted: false, unit: doc.unit, onClick: (i) => zoom(i),
    });
    document.getElementById('title').textContent = doc.title;
    document.title = doc.title;
    g.setData(data, 0);
    zoom(0);
    document.getElementById('search').addEventListener('input', (e) => {
      const q = e.target.value;
      if (!q) {
        g.mark(null);
        info.textContent = '';
        return;
      }
      const r = searchLocal(g, q);
      g.mark(r.set);
      info.textContent = 'matched ' + (100 * r.share).toFixed(2) + '%';
    });
    window.addEventListener('resize', () => g.render());
  }

  global.PerfjFlame = { FlameGraph, breadcrumbs, searchLocal, percent, colour, diffColour };
  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', standalone);
  } else {
    standalone();
  }
})(window);
