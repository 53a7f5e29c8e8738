// The trace view: the raw events as a virtualised list (only the rows in
// sight exist), with a text filter. Events between a BeginEvent and its
// EndEvent (ID3DUserDefinedAnnotation's, D3DPERF's) are indented under it,
// a tree whose groups fold with a click on the marker's triangle; objects
// show their debug names.

import { LAYER_NAMES, KIND_NAMES, C } from "./model.js";
import { el, links, layerText, plural } from "./view-common.js";

export class TraceView {
  constructor({ scroll, spacer, rows, filter, count }) {
    this.scroll = scroll;
    this.spacer = spacer;
    this.rowsEl = rows;
    this.filterEl = filter;
    this.countEl = count;
    this.rowH = 20;
    this.pool = [];
    this.follow = true;
    this.filter = "";
    this.view = null; // Int32Array of indices, null: all
    this.viewDone = 0;
    this.selected = -1;
    this.store = null;
    this.collapsed = new Set(); // indices of folded BeginEvents
    this.foldKey = "";
    this.scroll.addEventListener("scroll", () => {
      this.follow = this.scroll.scrollTop + this.scroll.clientHeight >= this.scroll.scrollHeight - this.rowH;
      this.render();
    });
    this.rowsEl.addEventListener("click", (e) => {
      const row = e.target.closest(".trace-row");
      if (!row || row._i === undefined) return;
      if (e.target.closest(".fold")) {
        this.toggle(row._i);
        return;
      }
      links.select(row._i, "trace");
    });
    new ResizeObserver(() => this.render()).observe(this.scroll);
  }

  setStore(store) {
    this.store = store;
    this.view = this.filter ? [] : null;
    this.viewDone = 0;
    this.selected = -1;
    this.follow = true;
    this.collapsed = new Set();
    this.foldKey = "";
  }

  // toggle folds or unfolds the marker group BeginEvent i opens.
  toggle(i) {
    if (this.collapsed.has(i)) this.collapsed.delete(i);
    else this.collapsed.add(i);
    this.foldKey = "";
    if (!this.filter) this.view = null;
    this.render();
  }

  // folded is the list of the rows shown with groups folded (null: every
  // event), rebuilt when the trace grows or a group folds.
  folded() {
    const st = this.store;
    if (!this.collapsed.size) return null;
    const key = `${st.version}/${this.collapsed.size}`;
    if (key === this.foldKey) return this.foldView;
    const out = [];
    for (let i = 0; i < st.n; i++) {
      out.push(i);
      if (this.collapsed.has(i)) {
        const end = st.groupEnd.get(i);
        i = end === undefined ? st.n : end - 1; // the EndEvent shows
      }
    }
    this.foldKey = key;
    this.foldView = out;
    return out;
  }

  setFilter(text) {
    this.filter = text.trim().toLowerCase();
    this.view = this.filter ? [] : null;
    this.viewDone = 0;
    this.render();
  }

  matches(i) {
    const st = this.store;
    const f = this.filter;
    if (st.name(i).toLowerCase().includes(f) || st.thread(i).toLowerCase().includes(f)) return true;
    if (LAYER_NAMES[st.layer(i)].includes(f) || KIND_NAMES[st.kind(i)].includes(f)) return true;
    for (const c of [C.ctx, C.obj, C.handle, C.hr, C.rule, C.msg, C.args]) {
      const v = st.s(i, c);
      if (v && v.toLowerCase().includes(f)) return true;
    }
    return String(st.seq(i)) === f;
  }

  count() {
    const v = this.rowsView();
    return v ? v.length : this.store ? this.store.n : 0;
  }

  // rowsView is the rows' indices: the filter's matches, the folded tree,
  // or null for every event.
  rowsView() { return this.view || (this.store ? this.folded() : null); }

  at(k) {
    const v = this.rowsView();
    return v ? v[k] : k;
  }

  render() {
    const st = this.store;
    if (!st) return;
    if (this.view) {
      // A filter over a million events is scanned 200,000 a frame, so
      // typing never freezes the page.
      const end = Math.min(st.n, this.viewDone + 200000);
      for (let i = this.viewDone; i < end; i++) if (this.matches(i)) this.view.push(i);
      this.viewDone = end;
      if (end < st.n && !this.more) {
        this.more = true;
        requestAnimationFrame(() => {
          this.more = false;
          this.render();
        });
      }
    }
    const n = this.count();
    this.countEl.textContent = this.view ? `${n.toLocaleString("en-US")} of ${st.n.toLocaleString("en-US")}` : plural(n, "event");
    this.spacer.style.height = `${Math.min(n * this.rowH, 3e7)}px`;
    if (this.follow) this.scroll.scrollTop = this.scroll.scrollHeight;
    const first = Math.max(0, Math.floor(this.scroll.scrollTop / this.rowH) - 5);
    const count = Math.max(0, Math.min(n - first, Math.ceil(this.scroll.clientHeight / this.rowH) + 10));
    this.rowsEl.style.transform = `translateY(${first * this.rowH}px)`;
    while (this.pool.length < count) this.pool.push(makeRow());
    const rows = this.pool.slice(0, count);
    const v = this.rowsView();
    const tree = !this.view; // a filter lists its matches flat
    for (let k = 0; k < rows.length; k++) fillRow(st, rows[k], v ? v[first + k] : first + k, this.selected, tree ? this.collapsed : null);
    if (this.rowsEl.childElementCount !== rows.length) this.rowsEl.replaceChildren(...rows);
  }

  select(i) {
    this.selected = i;
    if (i >= 0) {
      const v = this.rowsView();
      const k = v ? v.indexOf(i) : i;
      if (k >= 0) {
        const y = k * this.rowH;
        if (y < this.scroll.scrollTop || y > this.scroll.scrollTop + this.scroll.clientHeight - this.rowH) {
          this.follow = false;
          this.scroll.scrollTop = Math.max(0, y - this.scroll.clientHeight / 2);
        }
      }
    }
    this.render();
  }
}

const CELLS = ["c-seq", "c-t", "c-thread", "c-layer", "c-kind", "c-name", "c-more"];

function makeRow() {
  const row = el("div", "trace-row");
  for (const c of CELLS) row.append(el("span", c));
  row.children[5].append(el("span", "fold"), el("span", "nm"));
  return row;
}

const FAIL_HR = /^(E_|DXGI_ERROR|D3DDDIERR|STATUS_(?!SUCCESS))/;

function fillRow(st, row, i, selected, collapsed) {
  row._i = i;
  const kind = KIND_NAMES[st.kind(i)];
  row.className = `trace-row k-${kind}` + (i === selected ? " selected" : "");
  const [seq, t, thread, layer, kindEl, name, more] = row.children;
  seq.textContent = st.seq(i);
  t.textContent = (st.t[i] / 1000).toFixed(3);
  thread.textContent = st.thread(i);
  layer.textContent = layerText(st, i);
  layer.className = `c-layer l-${LAYER_NAMES[st.layer(i)]}`;
  kindEl.textContent = kind;
  const [fold, nm] = name.children;
  nm.textContent = st.name(i);
  name.title = st.name(i);
  name.className = `c-name l-${LAYER_NAMES[st.layer(i)]}`;
  const depth = collapsed ? st.depth[i] : 0;
  name.style.paddingLeft = depth ? `${Math.min(depth, 16) * 10}px` : "";
  const opens = collapsed && st.marker(i) > 0;
  fold.textContent = opens ? (collapsed.has(i) ? "▸" : "▾") : "";
  fold.title = opens ? (collapsed.has(i) ? "unfold the group" : "fold the group") : "";
  row.classList.toggle("marker", st.marker(i) !== 0);
  const parts = [];
  const add = (k, v, cls) => {
    if (!v) return;
    const key = el("span", "k", (parts.length ? " " : "") + k + "=");
    const val = el("span", cls || "", String(v));
    parts.push(key, val);
  };
  add("ctx", st.s(i, C.ctx));
  add("obj", st.named(st.s(i, C.obj)));
  add("handle", st.s(i, C.handle));
  const hr = st.s(i, C.hr);
  add("hr", hr, hr && FAIL_HR.test(hr) ? "hr-bad" : "");
  add("fence", st.fence(i));
  add("dma", st.dma(i));
  add("rule", st.s(i, C.rule), "hr-bad");
  add("msg", st.s(i, C.msg));
  add("args", st.s(i, C.args));
  add("line", st.line(i));
  more.replaceChildren(...parts);
}
