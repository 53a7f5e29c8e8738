// The command-lists view: per context, the API calls recorded into each
// deferred context with the DDI calls under them, and every
// ID3D11CommandList with its handle, state, history and executions (the
// inspector's model, wasm/inspect.go).

import { KIND, LAYER, LAYER_NAMES, C, wddmFlowStep } from "./model.js";
import { el, links, seqLink, seqLinkBySeq, lineLink, layerText, stickToBottom, depthBelow, plural } from "./view-common.js";

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
      h.append(el("span", "ctx-name", ctx), el("span", "muted", ` ${what} · ${plural(calls.length, "API call")}`));
      sec.append(h);
      const from = Math.max(0, calls.length - MAX_CALLS_SHOWN);
      if (from > 0) sec.append(el("div", "muted more", `${plural(from, "earlier call")} not shown`));
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
    if (obj) head.append(el("span", "obj", st.named(obj)));
    if (hr && hr !== "S_OK") head.append(el("span", /^(E_|DXGI_ERROR|D3DDDIERR)/.test(hr) ? "hr bad" : "hr", hr));
    head.append(el("span", "muted count", kids ? plural(kids, "DDI/kernel call") : ""));
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
        const step = wddmFlowStep(st, j);
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
    box.append(el("p", "hint", "The command list's states, d3dsim's names for the diagram in \u201cSupporting command lists\u201d (Windows driver documentation): FinishCommandList makes a list valid; Release retires it while its deferred context lives (RecycleDestroyCommandList); the next FinishCommandList caches it (RecycleCommandList) and can revive its handle (RecycleCreateCommandList) for the new list: the old one is then reused by it; freed is gone for good."));
    if (!snap.lists.length) box.append(el("div", "empty", "No command list yet (FinishCommandList on a deferred context makes one)."));
    const t = el("table", "grid");
    const hr = el("tr");
    for (const h of ["list", "handle", "recorded on", "state", "history", "executed"]) hr.append(el("th", "", h));
    t.append(hr);
    for (const l of snap.lists) {
      const tr = el("tr", "cl-row");
      tr.dataset.obj = l.obj;
      const fin = el("td");
      fin.append(el("b", "", st.named(l.obj) || "?"), " ");
      if (l.finish) fin.append(seqLinkBySeq(st, l.finish, "Finish"), " ");
      fin.append(lineLink(l.line));
      if (l.reuses) {
        const r = el("div", "muted reuses", `revived ${l.reuses}'s handle and memory`);
        r.title = `RecycleCreateCommandList gave ${l.obj} the handle ${l.reuses} left in the cache`;
        fin.append(r);
      }
      const hist = el("td", "chain");
      l.history.forEach((h, k) => {
        if (k) hist.append(el("span", "arrow", "→"));
        const a = seqLinkBySeq(st, h.seq, h.what === "reused" && h.obj ? `reused by ${h.obj}` : h.what);
        a.classList.add("state", "s-" + h.what);
        hist.append(a);
      });
      const ex = el("td");
      if (!l.executed.length) ex.append(el("span", "muted", "not executed"));
      for (const e of l.executed) {
        ex.append(seqLinkBySeq(st, e.seq, `on ${e.ctx}`), " ", lineLink(e.line), " ");
      }
      tr.append(fin, el("td", "mono", l.handle || "–"), el("td", "", l.dc), stateCell(l.state, l.reusedBy), hist, ex);
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

// stateCell shows a list's state; a list whose cached handle and memory
// went to another list says which ("reused by cl2"): a click shows that
// list's row.
function stateCell(state, reusedBy) {
  const td = el("td");
  if (state === "reused" && reusedBy) {
    const a = el("a", "state s-reused", `reused by ${reusedBy}`);
    a.href = "#";
    a.title = `Its handle and memory are ${reusedBy}'s now (RecycleCreateCommandList): show ${reusedBy}`;
    a.addEventListener("click", (e) => {
      e.preventDefault();
      const row = td.closest("table")?.querySelector(`tr.cl-row[data-obj="${CSS.escape(reusedBy)}"]`);
      if (!row) return;
      row.scrollIntoView({ block: "nearest" });
      row.classList.remove("flash");
      void row.offsetWidth;
      row.classList.add("flash");
    });
    td.append(a);
    return td;
  }
  td.append(el("span", "state s-" + (state || "none"), state || "–"));
  return td;
}

function rankCtx(c) {
  if (c === "IC") return 0;
  if (c.startsWith("DC")) return 1;
  return 2;
}

function countCalls(st, i, ret) {
  let n = 0;
  for (let j = i + 1; j < ret; j++) if (st.kind(j) === KIND.call) n++;
  return n;
}
