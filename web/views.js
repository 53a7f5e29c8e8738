// The panel's DOM views: command lists, handles, flow, problems and the raw
// trace. Each reads the columnar store (model.js) and, for command lists and
// handles, the inspector's model (wasm/inspect.go). Every event a view shows
// links to it: a click selects it everywhere (app.js select()).

import { KIND, LAYER, LAYER_NAMES, KIND_NAMES, C, formatT, argValue, seed003Step } from "./model.js";

export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}

// Links: an event (selects it) and a scenario line (jumps the editor).
export const links = { select: () => {}, line: () => {} };

export function seqLink(store, i, text) {
  const a = el("a", "seq-link", text || `#${store.seq(i)}`);
  a.href = "#";
  a.dataset.ev = i;
  a.title = `event ${store.seq(i)}: ${store.name(i)} — select it in every view`;
  a.addEventListener("click", (e) => {
    e.preventDefault();
    e.stopPropagation();
    links.select(i, "link");
  });
  return a;
}

export function seqLinkBySeq(store, seq, text) {
  const i = store.index(seq);
  if (i < 0) return el("span", "muted", text || `#${seq}`);
  return seqLink(store, i, text);
}

export function lineLink(line, text) {
  if (!line) return el("span", "muted", "");
  const a = el("a", "line-link", text || `line ${line}`);
  a.href = "#";
  a.title = `scenario line ${line}`;
  a.addEventListener("click", (e) => {
    e.preventDefault();
    e.stopPropagation();
    links.line(line);
  });
  return a;
}

function layerText(store, i) {
  const f = store.from(i);
  const l = store.layer(i);
  return f && f !== l ? `${LAYER_NAMES[f]}→${LAYER_NAMES[l]}` : LAYER_NAMES[l];
}

function stickToBottom(box, build) {
  const atEnd = box.scrollTop + box.clientHeight >= box.scrollHeight - 24;
  const top = box.scrollTop;
  build();
  box.scrollTop = atEnd ? box.scrollHeight : top;
}

// ---- Command lists ----

const MAX_CALLS_SHOWN = 400;

export class CommandListsView {
  constructor(ctxBox, listBox) {
    this.ctxBox = ctxBox;
    this.listBox = listBox;
    this.store = null;
    this.reset();
  }

  reset() {
    this.done = 0;
    this.byCtx = new Map(); // ctx -> [event index of API calls]
    this.expanded = new Set(); // seqs
    this.selected = -1;
    this.closed = new Map(); // call index -> [return index, calls inside], once known
  }

  setStore(store) {
    this.store = store;
    this.reset();
  }

  // span is a call's return and how many calls it made, cached once the
  // return has arrived (a view of hundreds of rows is rebuilt while the
  // trace streams in).
  span(i) {
    let v = this.closed.get(i);
    if (v) return v;
    const st = this.store;
    const ret = st.returnOf(i, 20000);
    v = [ret, ret >= 0 ? countCalls(st, i, ret) : 0];
    if (ret >= 0) this.closed.set(i, v);
    return v;
  }

  ingest() {
    const st = this.store;
    for (let i = this.done; i < st.n; i++) {
      if (st.kind(i) === KIND.call && st.from(i) === LAYER.app) {
        const ctx = st.s(i, C.ctx) || "device";
        let a = this.byCtx.get(ctx);
        if (!a) this.byCtx.set(ctx, (a = []));
        a.push(i);
      }
    }
    this.done = st.n;
  }

  render(snap) {
    this.ingest();
    stickToBottom(this.ctxBox, () => this.renderContexts());
    if (snap) this.renderLists(snap);
  }

  renderContexts() {
    const st = this.store;
    const order = [...this.byCtx.keys()].sort((a, b) => rankCtx(a) - rankCtx(b) || a.localeCompare(b, "en", { numeric: true }));
    const sections = [];
    for (const ctx of order) {
      const calls = this.byCtx.get(ctx);
      const sec = el("section", "ctx");
      sec.dataset.ctx = ctx;
      const h = el("h3", "ctx-head");
      const what = ctx === "IC" ? "immediate context: runs now" : ctx.startsWith("DC") ? "deferred context: recorded into command lists" : "device: object creation";
      h.append(el("span", "ctx-name", ctx), el("span", "muted", ` ${what} · ${calls.length} API calls`));
      sec.append(h);
      const from = Math.max(0, calls.length - MAX_CALLS_SHOWN);
      if (from > 0) sec.append(el("div", "muted more", `${from} earlier calls not shown`));
      for (let k = from; k < calls.length; k++) sec.append(this.callRow(st, calls[k]));
      sections.push(sec);
    }
    if (!sections.length) sections.push(el("div", "empty", "No API calls yet. Press Step call or Play."));
    this.ctxBox.replaceChildren(...sections);
  }

  callRow(st, i) {
    const seq = st.seq(i);
    const row = el("div", "call");
    row.dataset.ev = i;
    if (i === this.selected) row.classList.add("selected");
    const open = this.expanded.has(seq);
    const head = el("div", "call-head");
    const tw = el("button", "twisty", open ? "▾" : "▸");
    tw.title = "the DDI calls it became";
    tw.addEventListener("click", (e) => {
      e.stopPropagation();
      if (this.expanded.has(seq)) this.expanded.delete(seq);
      else this.expanded.add(seq);
      row.replaceWith(this.callRow(st, i));
    });
    const [ret, kids] = this.span(i);
    const hr = ret >= 0 ? st.s(ret, C.hr) : "";
    head.append(tw, seqLink(st, i), lineLink(st.line(i), `:${st.line(i)}`), el("span", "api-name", st.name(i)));
    const obj = st.s(i, C.obj);
    if (obj) head.append(el("span", "obj", obj));
    if (hr && hr !== "S_OK") head.append(el("span", /^(E_|DXGI_ERROR|D3DDDIERR)/.test(hr) ? "hr bad" : "hr", hr));
    head.append(el("span", "muted count", kids ? `${kids} DDI/kernel calls` : ""));
    head.addEventListener("click", () => links.select(i, "cmdlists"));
    row.append(head);
    if (open) {
      const box = el("div", "ddis");
      const end = ret >= 0 ? ret : Math.min(st.n, i + 2000);
      for (let j = i + 1; j < end; j++) {
        if (st.kind(j) === KIND.ret) continue;
        const depth = depthBelow(st, j, i);
        if (depth < 0) continue;
        const d = el("div", "ddi");
        d.style.paddingLeft = 18 + depth * 14 + "px";
        d.append(seqLink(st, j), el("span", "layer l-" + LAYER_NAMES[st.layer(j)], layerText(st, j)), el("span", "ddi-name", st.name(j)));
        const step = seed003Step(st, j);
        if (step) d.append(el("span", "step", step));
        for (const k of ["handle", "ctx", "args"]) {
          const v = st.s(j, C[k]);
          if (v) d.append(el("span", "kv", `${k}=${v}`));
        }
        d.addEventListener("click", () => links.select(j, "cmdlists"));
        box.append(d);
      }
      if (!box.childElementCount) box.append(el("div", "muted ddi", "no DDI calls"));
      row.append(box);
    }
    return row;
  }

  renderLists(snap) {
    const st = this.store;
    const box = el("div");
    box.append(el("h3", "pane-head", "Command lists"));
    box.append(el("p", "hint", "Seed 002's state machine: FinishCommandList makes a list valid; Release retires it while its deferred context lives (RecycleDestroyCommandList); the next FinishCommandList caches it (RecycleCommandList) and can revive its handle (RecycleCreateCommandList); freed is gone for good."));
    if (!snap.lists.length) box.append(el("div", "empty", "No command list yet (FinishCommandList on a deferred context makes one)."));
    const t = el("table", "grid");
    const hr = el("tr");
    for (const h of ["list", "handle", "recorded on", "state", "history", "executed"]) hr.append(el("th", "", h));
    t.append(hr);
    for (const l of snap.lists) {
      const tr = el("tr", "cl-row");
      tr.dataset.obj = l.obj;
      const fin = el("td");
      fin.append(el("b", "", l.obj || "?"), " ");
      if (l.finish) fin.append(seqLinkBySeq(st, l.finish, "Finish"), " ");
      fin.append(lineLink(l.line));
      const hist = el("td", "chain");
      l.history.forEach((h, k) => {
        if (k) hist.append(el("span", "arrow", "→"));
        const a = seqLinkBySeq(st, h.seq, h.what);
        a.classList.add("state", "s-" + h.what);
        hist.append(a);
      });
      const ex = el("td");
      if (!l.executed.length) ex.append(el("span", "muted", "not executed"));
      for (const e of l.executed) {
        ex.append(seqLinkBySeq(st, e.seq, `on ${e.ctx}`), " ", lineLink(e.line), " ");
      }
      tr.append(fin, el("td", "mono", l.handle || "–"), el("td", "", l.dc), stateCell(l.state), hist, ex);
      t.append(tr);
    }
    if (snap.lists.length) box.append(t);
    this.listBox.replaceChildren(box);
  }

  select(i) {
    this.selected = i;
    for (const r of this.ctxBox.querySelectorAll(".call.selected")) r.classList.remove("selected");
    if (i < 0) return;
    const root = this.store.rootCall(i);
    const row = this.ctxBox.querySelector(`.call[data-ev="${root}"]`);
    if (row) {
      row.classList.add("selected");
      row.scrollIntoView({ block: "nearest" });
    }
  }
}

function stateCell(state) {
  const td = el("td");
  td.append(el("span", "state s-" + (state || "none"), state || "–"));
  return td;
}

function rankCtx(c) {
  if (c === "IC") return 0;
  if (c.startsWith("DC")) return 1;
  return 2;
}

// depthBelow is how deep j sits under ancestor a (0: a's child), -1 when j
// is not a descendant.
function depthBelow(st, j, a) {
  const aseq = st.seq(a);
  let p = st.parent(j);
  for (let d = 0; d < 64 && p; d++) {
    if (p === aseq) return d;
    const pi = st.index(p);
    if (pi < 0) return -1;
    p = st.parent(pi);
  }
  return -1;
}

function countCalls(st, i, ret) {
  let n = 0;
  for (let j = i + 1; j < ret; j++) if (st.kind(j) === KIND.call) n++;
  return n;
}

// ---- Handles ----

export class HandlesView {
  constructor(objBox, cacheBox) {
    this.objBox = objBox;
    this.cacheBox = cacheBox;
    this.store = null;
  }

  setStore(store) { this.store = store; }

  render(snap) {
    if (!snap) return;
    const st = this.store;
    const top = this.objBox.scrollTop;
    const box = el("div");
    const live = el("div", "live");
    const L = snap.live;
    for (const [k, v, title] of [
      ["IC handles", L.ic, "live DDI handles in the immediate context's table"],
      ["DC handles", L.dc, "live context-local handles (seed 001) in deferred contexts"],
      ["command lists", L.commandLists, "valid command lists (usable by ExecuteCommandList)"],
      ["in recycle cache", L.inCache, "command-list handles retired or cached, waiting for RecycleCreateCommandList"],
      ["deferred contexts", L.deferred, "deferred contexts alive"],
      ["kernel handles", L.kernel, "Dxgkrnl/KMD devices, contexts and allocations"],
      ["allocations", L.allocations, "video memory allocations (DxgkDdiCreateAllocation)"],
    ]) {
      const c = el("span", "live-count");
      c.title = title;
      c.append(el("b", "", String(v)), " " + k);
      live.append(c);
    }
    box.append(live);
    if (snap.dropped) box.append(el("div", "muted more", `${snap.dropped} oldest rows not shown`));

    // IC handles, each with its context-local handles.
    const dcOf = new Map();
    for (const h of snap.handles) {
      if (h.ctx !== "IC" && h.of) {
        let a = dcOf.get(h.of);
        if (!a) dcOf.set(h.of, (a = []));
        a.push(h);
      }
    }
    box.append(el("h3", "pane-head", "Objects: IC handle and context-local handles"));
    box.append(el("p", "hint", "Seed 001: a deferred context gets its own context-local handle for each object it binds, of the size CalcDeferredContextHandleSize gave when the object was created; FinishCommandList destroys them."));
    const t = el("table", "grid handles");
    const hr = el("tr");
    for (const h of ["object", "created by", "IC handle", "DC handle size", "life", "context-local handles"]) hr.append(el("th", "", h));
    t.append(hr);
    for (const h of snap.handles) {
      if (h.ctx !== "IC") continue;
      const tr = el("tr", h.destroyed ? "dead" : "");
      tr.dataset.handle = h.handle;
      const obj = el("td");
      obj.append(el("b", "", h.obj || "–"), " ", lineLink(h.line));
      const life = el("td", "life");
      life.append(seqLinkBySeq(st, h.created, "created"));
      if (h.destroyed) life.append(" → ", seqLinkBySeq(st, h.destroyed, "destroyed"));
      else life.append(el("span", "alive", " live"));
      const dcs = el("td", "chips");
      for (const d of dcOf.get(h.handle) || []) {
        const chip = el("span", "chip" + (d.destroyed ? " dead" : ""));
        chip.title = `${d.ctx} ${d.handle} (${d.ddi}) of ${h.handle}: created #${d.created}${d.destroyed ? ", destroyed #" + d.destroyed : ", live"}`;
        chip.append(el("b", "", d.ctx), " " + d.handle);
        chip.addEventListener("click", () => {
          const i = st.index(d.created);
          if (i >= 0) links.select(i, "handles");
        });
        dcs.append(chip);
      }
      tr.append(obj, el("td", "mono small", h.ddi), el("td", "mono", h.handle), el("td", "num", h.size ? `${h.size} B` : "–"), life, dcs);
      t.append(tr);
    }
    box.append(t);

    box.append(el("h3", "pane-head", "Kernel handles (Dxgkrnl / KMD)"));
    const k = el("table", "grid");
    const khr = el("tr");
    for (const h of ["handle", "object", "created by", "size", "life"]) khr.append(el("th", "", h));
    k.append(khr);
    for (const h of snap.kernel) {
      const tr = el("tr", h.destroyed ? "dead" : "");
      const life = el("td", "life");
      life.append(seqLinkBySeq(st, h.created, "created"));
      if (h.destroyed) life.append(" → ", seqLinkBySeq(st, h.destroyed, "destroyed"));
      else life.append(el("span", "alive", " live"));
      tr.append(el("td", "mono", h.handle), el("td", "", h.obj || "–"), el("td", "mono small", h.ddi), el("td", "num", h.size ? `${h.size} B` : "–"), life);
      k.append(tr);
    }
    box.append(k);
    this.objBox.replaceChildren(box);
    this.objBox.scrollTop = top;

    const cb = el("div");
    cb.append(el("h3", "pane-head", "Command-list recycle cache"));
    cb.append(cacheList(st, snap.clCache, "No command-list handle yet."));
    cb.append(el("h3", "pane-head", "Deferred-context recycle cache"));
    cb.append(cacheList(st, snap.dcCache, "No deferred context yet."));
    this.cacheBox.replaceChildren(cb);
  }
}

function cacheList(st, entries, empty) {
  const box = el("div", "caches");
  if (!entries.length) box.append(el("div", "empty", empty));
  for (const c of entries) {
    const card = el("div", "cache" + (c.inCache ? " in" : ""));
    const h = el("div", "cache-head");
    h.append(el("span", "mono", c.handle), " ", el("b", "", c.name || ""), " ");
    const last = c.history.length ? c.history[c.history.length - 1].what : "";
    h.append(el("span", "state " + (c.inCache ? "s-cached" : /^destroyed/.test(last) ? "s-freed" : "s-valid"), c.inCache ? "in cache" : /^destroyed/.test(last) ? "destroyed" : "in use"));
    card.append(h);
    const ol = el("ol", "history");
    for (const e of c.history) {
      const li = el("li");
      li.append(seqLinkBySeq(st, e.seq), " " + e.what);
      ol.append(li);
    }
    card.append(ol);
    box.append(card);
  }
  return box;
}

// ---- Flow ----

export class FlowView {
  constructor(box) {
    this.box = box;
    this.store = null;
    this.reset();
  }

  reset() {
    this.done = 0;
    this.dmaOrigin = new Map(); // dma -> event index of the DDI that built it
    this.pagingFor = new Map(); // paging dma -> the dma it makes resident for
    this.current = -1;
  }

  setStore(store) {
    this.store = store;
    this.reset();
    this.render(-1);
  }

  ingest() {
    const st = this.store;
    for (let i = this.done; i < st.n; i++) {
      if (st.kind(i) !== KIND.call) continue;
      const dma = st.dma(i);
      if (!dma) continue;
      const name = st.name(i);
      if ((name === "DxgkDdiPresent" || name === "DxgkDdiRender" || name === "DxgkDdiRenderKm") && !this.dmaOrigin.has(dma)) {
        this.dmaOrigin.set(dma, i);
      } else if (name === "DxgkDdiBuildPagingBuffer" || (name === "DxgkDdiSubmitCommand" && /paging/.test(st.s(i, C.args)))) {
        const m = /for(?:=| DMA )(\d+)/.exec(st.s(i, C.args) + " " + st.s(i, C.msg));
        if (m) this.pagingFor.set(dma, Number(m[1]));
      }
    }
    this.done = st.n;
  }

  // origin is the API call an event belongs to: its root call, or for the
  // asynchronous work (kernel thread, GPU, ISR, DPC) the API call whose
  // DMA buffer it processes.
  origin(i) {
    const st = this.store;
    let r = st.rootCall(i);
    if (st.from(r) === LAYER.app) return r;
    const dmaOf = (j) => {
      let d = st.dma(j);
      for (let k = 0; d && k < 4 && this.pagingFor.has(d); k++) d = this.pagingFor.get(d);
      return d;
    };
    let dma = dmaOf(i) || dmaOf(r);
    if (!dma) {
      // An ISR or DPC routine: the DMA buffer its children name.
      const ret = st.returnOf(r, 5000);
      for (let j = r + 1; j < (ret < 0 ? Math.min(st.n, r + 200) : ret) && !dma; j++) dma = dmaOf(j);
      if (!dma && st.thread(r) === "dpc") {
        // FenceSignaled follows the DPC routine that completed it.
        for (let j = (ret < 0 ? r : ret) + 1; j < Math.min(st.n, r + 50) && !dma; j++) {
          if (st.thread(j) === "dpc" && st.kind(j) === KIND.fence) dma = dmaOf(j);
        }
      }
    }
    const o = dma ? this.dmaOrigin.get(dma) : undefined;
    return o === undefined ? r : st.rootCall(o);
  }

  render(i) {
    this.current = i;
    const st = this.store;
    if (!st || i < 0 || i >= st.n) {
      this.box.replaceChildren(el("div", "empty", "Select an API call (in the timeline, the command lists or the trace) to see its call tree across all layers, numbered by seed 003's steps."));
      return;
    }
    this.ingest();
    const root = this.origin(i);
    const ret = st.returnOf(root);
    const end = ret >= 0 ? ret : st.n - 1;
    const rows = [];
    const dmas = new Set();
    for (let j = root; j <= end; j++) {
      if (j !== root && depthBelow(st, j, root) < 0) continue;
      if (st.kind(j) === KIND.ret) continue;
      rows.push([j, j === root ? 0 : depthBelow(st, j, root) + 1]);
      if (st.dma(j) && this.dmaOrigin.get(st.dma(j)) === j) dmas.add(st.dma(j));
    }
    // The paging buffers made for those DMA buffers.
    for (const [p, f] of this.pagingFor) if (dmas.has(f)) dmas.add(p);
    const asyncRows = [];
    if (dmas.size) {
      const seenRoots = new Set();
      const limit = Math.min(st.n, end + 400000);
      for (let j = end + 1; j < limit; j++) {
        const d = st.dma(j);
        if (!d || !dmas.has(d) || st.kind(j) === KIND.ret) continue;
        const r = st.rootCall(j);
        if (r !== j && st.kind(r) === KIND.call && st.from(r) !== LAYER.app) {
          if (seenRoots.has(r)) continue;
          seenRoots.add(r);
          const rr = st.returnOf(r, 5000);
          for (let k = r; k <= (rr < 0 ? r : rr); k++) {
            if (st.kind(k) === KIND.ret) continue;
            const dep = k === r ? 0 : depthBelow(st, k, r) + 1;
            if (k !== r && dep <= 0) continue;
            asyncRows.push([k, dep]);
          }
        } else {
          asyncRows.push([j, 0]);
          // The DPC routine before a FenceSignaled.
          if (st.thread(j) === "dpc" && st.kind(j) === KIND.fence) {
            for (let k = j - 1; k > Math.max(end, j - 50); k--) {
              if (st.thread(k) === "dpc" && st.kind(k) === KIND.call && !seenRoots.has(k)) {
                seenRoots.add(k);
                asyncRows.splice(asyncRows.length - 1, 0, [k, 0]);
                break;
              }
            }
          }
        }
      }
      asyncRows.sort((a, b) => st.t[a[0]] - st.t[b[0]] || a[0] - b[0]);
    }

    const box = el("div", "flow");
    const head = el("div", "flow-head");
    head.append(el("b", "", `${st.name(root)}${st.s(root, C.obj) ? " " + st.s(root, C.obj) : ""}`), " ", seqLink(st, root), " ", lineLink(st.line(root)));
    head.append(el("span", "muted", ` · ${rows.length} synchronous events${asyncRows.length ? `, ${asyncRows.length} asynchronous (DMA ${[...dmas].join(", ")})` : ""}`));
    box.append(head);
    const t = el("table", "grid flow-table");
    const hr = el("tr");
    for (const h of ["step", "call", "layer", "thread", "at", "lasts", "details"]) hr.append(el("th", "", h));
    t.append(hr);
    const addRow = (j, depth) => {
      const tr = el("tr", "k-" + KIND_NAMES[st.kind(j)]);
      tr.dataset.ev = j;
      if (j === i) tr.classList.add("selected");
      const step = seed003Step(st, j);
      const stepTd = el("td");
      if (step) stepTd.append(el("span", "step", step));
      const name = el("td", "flow-name");
      name.style.paddingLeft = 6 + depth * 16 + "px";
      name.append(el("span", "l-" + LAYER_NAMES[st.layer(j)], st.kind(j) === KIND.call ? st.name(j) : `${KIND_NAMES[st.kind(j)]} ${st.name(j)}`));
      const r = st.kind(j) === KIND.call ? st.returnOf(j, 20000) : -1;
      const det = el("td", "small");
      for (const k of ["ctx", "obj", "handle", "hr"]) {
        const v = st.s(j, C[k]) || (k === "hr" && r >= 0 ? st.s(r, C.hr) : "");
        if (v) det.append(el("span", "kv", `${k}=${v}`));
      }
      if (st.dma(j)) det.append(el("span", "kv", `dma=${st.dma(j)}`));
      if (st.fence(j)) det.append(el("span", "kv", `fence=${st.fence(j)}`));
      const msg = st.s(j, C.msg) || st.s(j, C.args);
      if (msg) det.append(el("span", "kv muted", msg));
      tr.append(stepTd, name, el("td", "layer", layerText(st, j)), el("td", "", st.thread(j)), el("td", "num", formatT(st.t[j])),
        el("td", "num", r >= 0 ? formatT(st.t[r] - st.t[j]) : ""), det);
      tr.addEventListener("click", () => links.select(j, "flow"));
      t.append(tr);
    };
    for (const [j, d] of rows) addRow(j, d);
    if (asyncRows.length) {
      const sep = el("tr", "sep");
      const td = el("td", "", "later, asynchronously: the kernel submits the DMA buffer, the GPU runs it, the interrupt and the DPC complete its fence");
      td.colSpan = 7;
      sep.append(td);
      t.append(sep);
      for (const [j, d] of asyncRows) addRow(j, d);
    }
    box.append(t);
    this.box.replaceChildren(box);
    const sel = this.box.querySelector("tr.selected");
    if (sel) sel.scrollIntoView({ block: "nearest" });
  }
}

// ---- Problems ----

export class ProblemsView {
  constructor(box, badge) {
    this.box = box;
    this.badge = badge;
    this.store = null;
    this.reset();
  }

  reset() {
    this.done = 0;
    this.items = []; // event indices
    this.failures = [];
    this.key = "";
  }

  setStore(store) {
    this.store = store;
    this.reset();
  }

  ingest(summary) {
    const st = this.store;
    for (let i = this.done; i < st.n; i++) {
      const k = st.kind(i);
      if (k === KIND.violation || (k === KIND.message && st.layer(i) === LAYER.runtime && /^D3D11/.test(st.s(i, C.msg)))) this.items.push(i);
    }
    this.done = st.n;
    if (summary) this.failures = summary.failures || [];
    const n = this.items.length + this.failures.length;
    this.badge.textContent = String(n);
    this.badge.hidden = n === 0;
    this.badge.classList.toggle("bad", this.failures.length > 0 || this.items.some((i) => st.kind(i) === KIND.violation));
  }

  render() {
    const st = this.store;
    const key = `${this.items.length}/${this.failures.join("\n")}`;
    if (key === this.key) return;
    this.key = key;
    const box = el("div", "problems");
    if (!this.items.length && !this.failures.length) {
      box.append(el("div", "empty ok", "No problems: no failed expectation, no rule violation (RULES.md), no debug-layer message."));
    }
    for (const f of this.failures) {
      const m = /^(\d+):(\d+): (.*)$/s.exec(f);
      const row = el("div", "problem failure");
      row.append(el("span", "sev", "failure"), lineLink(m ? Number(m[1]) : 0), el("span", "text", m ? m[3] : f));
      if (m) row.addEventListener("click", () => links.line(Number(m[1])));
      box.append(row);
    }
    for (const i of this.items) {
      const v = st.kind(i) === KIND.violation;
      const row = el("div", "problem " + (v ? "violation" : "message"));
      row.dataset.ev = i;
      row.append(el("span", "sev", v ? st.s(i, C.rule) || "violation" : "debug"), seqLink(st, i), lineLink(st.line(i)),
        el("span", "text", st.s(i, C.msg) || st.name(i)));
      row.addEventListener("click", () => links.select(i, "problems"));
      box.append(row);
    }
    this.box.replaceChildren(box);
  }
}

// ---- Trace (the raw events, virtualised) ----

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
    this.scroll.addEventListener("scroll", () => {
      this.follow = this.scroll.scrollTop + this.scroll.clientHeight >= this.scroll.scrollHeight - this.rowH;
      this.render();
    });
    this.rowsEl.addEventListener("click", (e) => {
      const row = e.target.closest(".trace-row");
      if (row && row._i !== undefined) links.select(row._i, "trace");
    });
    new ResizeObserver(() => this.render()).observe(this.scroll);
  }

  setStore(store) {
    this.store = store;
    this.view = this.filter ? [] : null;
    this.viewDone = 0;
    this.selected = -1;
    this.follow = true;
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

  count() { return this.view ? this.view.length : this.store ? this.store.n : 0; }

  at(k) { return this.view ? this.view[k] : k; }

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
    this.countEl.textContent = this.view ? `${n.toLocaleString("en-US")} of ${st.n.toLocaleString("en-US")}` : `${n.toLocaleString("en-US")} events`;
    this.spacer.style.height = `${Math.min(n * this.rowH, 3e7)}px`;
    if (this.follow) this.scroll.scrollTop = this.scroll.scrollHeight;
    const first = Math.max(0, Math.floor(this.scroll.scrollTop / this.rowH) - 5);
    const count = Math.max(0, Math.min(n - first, Math.ceil(this.scroll.clientHeight / this.rowH) + 10));
    this.rowsEl.style.transform = `translateY(${first * this.rowH}px)`;
    while (this.pool.length < count) this.pool.push(makeRow());
    const rows = this.pool.slice(0, count);
    for (let k = 0; k < rows.length; k++) fillRow(st, rows[k], this.at(first + k), this.selected);
    if (this.rowsEl.childElementCount !== rows.length) this.rowsEl.replaceChildren(...rows);
  }

  select(i) {
    this.selected = i;
    if (i >= 0) {
      const k = this.view ? this.view.indexOf(i) : i;
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
  return row;
}

const FAIL_HR = /^(E_|DXGI_ERROR|D3DDDIERR|STATUS_(?!SUCCESS))/;

function fillRow(st, row, i, selected) {
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
  name.textContent = st.name(i);
  name.title = st.name(i);
  name.className = `c-name l-${LAYER_NAMES[st.layer(i)]}`;
  const parts = [];
  const add = (k, v, cls) => {
    if (!v) return;
    const key = el("span", "k", (parts.length ? " " : "") + k + "=");
    const val = el("span", cls || "", String(v));
    parts.push(key, val);
  };
  add("ctx", st.s(i, C.ctx));
  add("obj", st.s(i, C.obj));
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
