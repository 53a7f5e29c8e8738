// The flow view: the call tree of one API call across every layer, its
// calls numbered by the steps of the WDDM operation flow.

import { KIND, LAYER, LAYER_NAMES, KIND_NAMES, C, KEY, formatT, wddmFlowStep } from "./model.js";
import { el, links, seqLink, lineLink, layerText, depthBelow, plural } from "./view-common.js";

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
      } else if (name === "DxgkDdiBuildPagingBuffer" || (name === "DxgkDdiSubmitCommand" && st.argHas(i, KEY.paging))) {
        // for: the DMA buffer the paging buffer makes resident for.
        const f = st.argInt(i, KEY.for);
        if (f) this.pagingFor.set(dma, f);
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
      this.box.replaceChildren(el("div", "empty", "Select an API call (in the timeline, the command lists or the trace) to see its call tree across all layers, numbered by the steps of “WDDM operation flow” (Windows driver documentation)."));
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
    head.append(el("b", "", `${st.name(root)}${st.s(root, C.obj) ? " " + st.named(st.s(root, C.obj)) : ""}`), " ", seqLink(st, root), " ", lineLink(st.line(root)));
    head.append(el("span", "muted", ` · ${plural(rows.length, "synchronous event")}${asyncRows.length ? `, ${asyncRows.length} asynchronous (DMA ${[...dmas].join(", ")})` : ""}`));
    box.append(head);
    const t = el("table", "grid flow-table");
    const hr = el("tr");
    for (const h of ["step", "call", "layer", "thread", "at", "lasts", "details"]) hr.append(el("th", "", h));
    t.append(hr);
    const addRow = (j, depth) => {
      const tr = el("tr", "k-" + KIND_NAMES[st.kind(j)]);
      tr.dataset.ev = j;
      if (j === i) tr.classList.add("selected");
      const step = wddmFlowStep(st, j);
      const stepTd = el("td");
      if (step) stepTd.append(el("span", "step", step));
      const name = el("td", "flow-name");
      name.style.paddingLeft = 6 + depth * 16 + "px";
      name.append(el("span", "l-" + LAYER_NAMES[st.layer(j)], st.kind(j) === KIND.call ? st.name(j) : `${KIND_NAMES[st.kind(j)]} ${st.name(j)}`));
      const r = st.kind(j) === KIND.call ? st.returnOf(j, 20000) : -1;
      const det = el("td", "small");
      for (const k of ["ctx", "obj", "handle", "hr"]) {
        const v = st.s(j, C[k]) || (k === "hr" && r >= 0 ? st.s(r, C.hr) : "");
        if (v) det.append(el("span", "kv", `${k}=${k === "obj" ? st.named(v) : v}`));
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
