// The inspector's views: the pipeline State at the selected event (what the
// runtime holds beside what the UMD encoded for it), a Resource at that
// event (a texture as a picture with zoom, pan, channels, range and the
// value under the cursor; a buffer as a table), and a Pixel's history and
// its shader's steps. They are views over the inspector's query API
// (core/inspect, through wasm/inspector.go): the state comes at once from
// the run's journal; a resource, a history and the steps come from a copy
// of the run taken to the event, a slice at a time (a Promise).

import { el, links, seqLinkBySeq, lineLink, plural } from "./view-common.js";
import { save } from "./share.js";

// asFloat reads register bits as a float32.
const f32 = new DataView(new ArrayBuffer(4));
function asFloat(bits) {
  f32.setUint32(0, bits >>> 0, true);
  return f32.getFloat32(0, true);
}
function fmt(v) {
  if (!Number.isFinite(v)) return String(v);
  return String(Number(v.toPrecision(6)));
}

// busy shows a query in flight in box.
function busy(box, text) {
  box.replaceChildren(el("div", "empty inspect-busy", text));
}

// The state view ----------------------------------------------------------

export class StateView {
  constructor(box, sim, hooks) {
    this.box = box;
    this.sim = sim;
    this.hooks = hooks; // {resource(seq, name), store()}
    this.store = null;
    this.current = -1;
    this.lastMs = 0; // the last render's time, from the query to the DOM
    this.state = null;
  }

  setStore(store) {
    this.store = store;
    this.current = -1;
    this.render(-1);
  }

  select(i) {
    if (!this.box.closest(".view")?.hidden) this.render(i);
    else this.current = -2; // render when shown
    this.pending = i;
  }

  show() {
    if (this.pending !== undefined && this.pending !== this.current) this.render(this.pending);
  }

  render(i) {
    this.current = i;
    this.pending = i;
    if (i < 0 || !this.store) {
      this.box.replaceChildren(el("div", "empty", "Select an API call — in the timeline, the trace, the command lists or by a click on an editor line's number — to see the pipeline state at that moment."));
      return;
    }
    this.renderSeq(this.store.seq(i));
  }

  // renderSeq shows the state at event seq (lastMs: the query and the DOM).
  renderSeq(seq) {
    const t0 = performance.now();
    const st = this.sim.inspectState(seq, "");
    this.state = st;
    if (st.error) {
      this.box.replaceChildren(el("div", "empty", st.error.replace(/^inspect: /, "")));
      this.lastMs = performance.now() - t0;
      return;
    }
    const box = el("div", "state-view");
    const head = el("div", "inspect-head");
    head.append(el("b", "", `State of ${st.context}`), " at ", seqLinkBySeq(this.store, seq, `#${seq}`), " — ",
      seqLinkBySeq(this.store, st.call.seq, st.call.name), " ", lineLink(st.call.line));
    // The state as JSON: what `d3dsim inspect FILE --at N --state --json` prints.
    const json = el("button", "ghost small export-json", "JSON");
    json.title = `Download the state at event ${seq} as JSON (d3dsim inspect FILE --at ${seq} --state --json prints the same)`;
    json.addEventListener("click", () => save(`state-${st.context}-event${seq}.json`, JSON.stringify(st, null, 2) + "\n", "application/json"));
    head.append(el("span", "spacer"), json);
    box.append(head);
    const e = st.encoded;
    const enc = el("div", "inspect-sub muted");
    if (e.note) enc.textContent = "UMD: " + e.note;
    else if (e.pending) enc.textContent = "UMD: still in the immediate context's command buffer, not submitted yet (addresses are allocation-list entries)";
    else {
      enc.textContent = `UMD: DMA buffer ${e.dma} (fence ${e.fence}), ${plural(e.allocations, "allocation")}, ${plural(e.patches, "patch location")}`
        + (e.word >= 0 ? ` — the call's packet ${e.packet} at word ${e.word}` : "");
    }
    box.append(enc);
    const stepper = this.stepper(st.call);
    if (stepper) box.append(stepper);
    const wait = this.waitCard(seq);
    if (wait) box.append(wait);
    else {
      const i = this.store.index(seq);
      const dma = i >= 0 && this.store.dma(i) ? this.dmaCard(seq) : null;
      if (dma) box.append(dma);
    }
    for (const sg of st.stages) box.append(this.stage(seq, sg));
    this.box.replaceChildren(box);
    this.lastMs = performance.now() - t0;
  }

  // stepper is the form that steps a vertex of a Draw or a thread of a
  // Dispatch through its shader (in the Pixel view's steps), null for
  // other calls.
  stepper(call) {
    const draw = /^Draw/.test(call.name);
    if (!this.hooks.step || (!draw && !/^Dispatch/.test(call.name))) return null;
    const form = el("form", "inspect-controls stepper");
    const num = (label, title, w = 4) => {
      const i = el("input", "mono");
      i.type = "number";
      i.min = "0";
      i.value = "0";
      i.style.width = w + "em";
      i.title = title;
      i.setAttribute("aria-label", label);
      return i;
    };
    let inputs;
    if (draw) {
      inputs = [num("vertex", "the draw's vertex: 0 the first it fetched"), num("instance", "the instance: 0 the first")];
      form.append(el("span", "muted", "step vertex"), inputs[0], el("span", "muted", "of instance"), inputs[1]);
    } else {
      inputs = ["group x", "group y", "group z", "thread x", "thread y", "thread z"].map((l) => num(l, `SV_GroupID / SV_GroupThreadID: ${l}`, 3.5));
      form.append(el("span", "muted", "step thread: group"), ...inputs.slice(0, 3), el("span", "muted", "thread"), ...inputs.slice(3));
    }
    const go = el("button", "small", draw ? "step vertex shader" : "step compute shader");
    go.type = "submit";
    form.append(go);
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const v = inputs.map((i) => Math.max(0, Math.floor(Number(i.value) || 0)));
      if (draw) this.hooks.step("stepVertex", { seq: call.seq, vertex: v[0], instance: v[1] });
      else this.hooks.step("stepThread", { seq: call.seq, group: v.slice(0, 3), thread: v.slice(3) });
    });
    return form;
  }

  // waitCard explains the wait at seq (a wait event, or the API call it
  // happened in): the sentence, then the wait, the call, the DMA buffer
  // that signals its fence and the calls that buffer carries, as links.
  // null when seq is no wait.
  waitCard(seq) {
    const w = this.sim.inspectWait ? this.sim.inspectWait(seq) : null;
    if (!w || w.error) return null;
    const st = this.store;
    const card = el("section", "wait-card");
    card.append(el("h3", "pane-head", "Why it waited"), el("p", "wait-sentence", w.sentence));
    const facts = el("div", "wait-facts");
    const row = (label, ...parts) => {
      const d = el("div", "wait-fact");
      d.append(el("span", "muted", label + " "), ...parts);
      facts.append(d);
    };
    const span = [seqLinkBySeq(st, w.seq, `#${w.seq}`)];
    if (w.endSeq) span.push(" to ", seqLinkBySeq(st, w.endSeq, `#${w.endSeq}`));
    row("wait", `${w.name} on ${w.thread}, `, ...span);
    if (w.call) row("call", seqLinkBySeq(st, w.call.seq, w.call.name + (w.call.obj ? `(${st.named(w.call.obj)})` : "")), " ", lineLink(w.call.line));
    if (w.fence) row("fence", `${w.fence} of ${w.context}`);
    if (w.hazard) row("hazard", `${w.hazard} on ${st.named(w.obj) || w.res}`);
    const b = w.buffer;
    if (b) {
      const parts = [`DMA ${b.id}`];
      if (b.built) parts.push(", built by ", seqLinkBySeq(st, b.built.seq, b.built.name), " ", lineLink(b.built.line));
      row("buffer", ...parts);
      if (b.calls?.length) {
        const list = [];
        b.calls.forEach((c, k) => {
          if (k) list.push(", ");
          list.push(seqLinkBySeq(st, c.seq, c.name + (c.obj ? `(${st.named(c.obj)})` : "")));
        });
        row("carries", ...list);
      }
    }
    card.append(facts);
    return card;
  }

  // dmaCard is the card of the DMA buffer event seq names: the call that
  // built it, its times (submitted, started, interrupt, DPC, done), its
  // packets and allocations, and the calls whose commands it carries.
  dmaCard(seq) {
    const c = this.sim.inspectDMA ? this.sim.inspectDMA(seq) : null;
    if (!c || c.error) return null;
    const st = this.store;
    const card = el("section", "wait-card dma-card");
    card.append(el("h3", "pane-head", `${c.paging ? "Paging" : "DMA"} buffer ${c.id}${c.context ? " of " + c.context : ""} on engine ${c.engine}` + (c.fence ? `, fence ${c.fence}` : "") + (c.for ? `, for DMA buffer ${c.for}` : "")));
    const facts = el("div", "wait-facts");
    const row = (label, ...parts) => {
      const d = el("div", "wait-fact");
      d.append(el("span", "muted", label + " "), ...parts);
      facts.append(d);
    };
    const us = (t) => (t < 0 ? "not yet" : `${(t / 1000).toFixed(3)} µs`);
    if (c.built) row("built by", seqLinkBySeq(st, c.built.seq, c.built.name + (c.built.obj ? `(${st.named(c.built.obj)})` : "")), " ", lineLink(c.built.line));
    row("submitted", c.submitSeq ? seqLinkBySeq(st, c.submitSeq, us(c.submitted)) : us(c.submitted));
    row("started", c.startSeq ? seqLinkBySeq(st, c.startSeq, us(c.started)) : us(c.started),
      c.started >= 0 && c.submitted >= 0 ? ` (${((c.started - c.submitted) / 1000).toFixed(3)} µs in the queue)` : "");
    row("finished", us(c.finished));
    row("interrupt", us(c.isr));
    row("DPC", us(c.dpc));
    row("done", c.signalSeq ? seqLinkBySeq(st, c.signalSeq, us(c.done)) : us(c.done));
    if (c.packets || c.patches) row("packets", `${c.packets}, ${plural(c.patches, "patch location")}`);
    if (c.allocs) row("allocations", el("span", "mono", c.allocs));
    if (c.calls?.length) {
      const list = [];
      c.calls.forEach((k, n) => {
        if (n) list.push(", ");
        list.push(seqLinkBySeq(st, k.seq, k.name + (k.obj ? `(${st.named(k.obj)})` : "")));
      });
      row("carries", ...list);
    }
    card.append(facts);
    card.append(...this.dmaContents(c));
    return card;
  }

  // dmaContents are the buffer itself (core/inspect Journal.Contents): a
  // paging buffer's operations, the allocation list, the patch locations
  // and the packets decoded, each with the call that encoded it.
  dmaContents(c) {
    const st = this.store;
    const out = [];
    const table = (cls, head, rows) => {
      const t = el("table", "grid " + cls);
      const hr = el("tr");
      for (const h of head) hr.append(el("th", "", h));
      t.append(hr);
      for (const cells of rows) {
        const tr = el("tr");
        for (const x of cells) {
          const td = el("td");
          td.append(x);
          tr.append(td);
        }
        t.append(tr);
      }
      return t;
    };
    const section = (title, body, open) => {
      const d = el("details", "dma-list");
      d.open = open;
      d.append(el("summary", "muted", title), body);
      out.push(d);
    };
    const call = (k) => (k ? seqLinkBySeq(st, k.seq, k.name + (k.obj ? `(${st.named(k.obj)})` : "") + (k.line ? ` · line ${k.line}` : "")) : "");
    if (c.ops?.length) {
      section(`paging operations (${c.ops.length})`, table("dma-ops", ["op", "allocation", "as the driver was given it", "why"],
        c.ops.map((o) => [seqLinkBySeq(st, o.seq, o.op), `${o.allocation}${o.obj ? " " + st.named(o.obj) : ""}`, el("span", "mono", o.text), o.why || ""])), true);
    }
    if (c.allocList?.length) {
      section(`allocation list (${c.allocList.length})`, table("dma-allocs", ["entry", "allocation", "object", "access"],
        c.allocList.map((a) => [String(a.index), el("span", "mono", a.allocation), a.obj ? st.named(a.obj) : "", a.write ? "write" : "read"])), false);
    }
    if (c.patchList?.length) {
      section(`patch locations (${c.patchList.length})`, table("dma-patches", ["word", "entry", "allocation", "offset"],
        c.patchList.map((p) => [String(p.word), String(p.index), el("span", "mono", p.allocation || ""), String(p.offset)])), false);
    }
    if (c.packetList?.length) {
      const rows = c.packetList.map((p) => {
        const addrs = (p.addresses || []).filter((a) => a.patch >= 0).map((a) => `${a.allocation}+${a.offset} (entry ${a.listIndex}, patched at word ${a.patch})`).join(", ");
        return [String(p.word), el("span", "mono", p.text), el("span", "mono muted", addrs), call(p.call)];
      });
      const more = c.packetsLeft ? `, ${c.packetsLeft.toLocaleString("en-US")} more not listed` : "";
      section(`packets as DxgkDdiRender wrote them (${c.packetList.length}${more}; ${c.words} words, then the FENCE DxgkDdiSubmitCommand appends)`,
        table("dma-packets", ["word", "packet", "addresses", "encoded by"], rows), true);
    } else if (c.packetNote) {
      out.push(el("div", "muted", `packets: ${c.packetNote}`));
    }
    return out;
  }

  stage(seq, sg) {
    const wrap = el("section", "state-stage");
    wrap.dataset.stage = sg.name;
    wrap.append(el("h3", "pane-head", sg.name));
    const t = el("table", "grid state-table");
    const hr = el("tr");
    for (const h of ["binding", "runtime holds", "UMD encoded"]) hr.append(el("th", "", h));
    t.append(hr);
    for (const r of sg.rows) {
      const tr = el("tr", "state-row");
      tr.dataset.binding = r.binding;
      tr.append(el("td", "mono", r.binding));
      const rt = el("td", "state-runtime");
      if (r.object) {
        rt.append(el("b", "", this.store.named(r.object)));
        if (r.handle) rt.append(" ", el("span", "muted mono", r.handle));
        rt.append(": ");
      }
      rt.append(r.value);
      if (r.allocations?.length) rt.append(" ", el("span", "muted mono", r.allocations.join(" ")));
      if (r.resource) {
        const b = el("button", "ghost small", "view");
        b.title = `Show ${r.resource} at this event in the Resource view`;
        b.addEventListener("click", () => this.hooks.resource(seq, r.resource));
        rt.append(" ", b);
      }
      if (r.cbuffer && r.object) {
        const b = el("button", "ghost small", "values");
        b.title = `Read ${r.object} at this event by cbuffer ${r.cbuffer.name}'s layout`;
        const out = el("div", "cb-values");
        b.addEventListener("click", async () => {
          busy(out, "running the scenario to this event…");
          const res = await this.sim.inspectQuery("resource", JSON.stringify({ seq, name: r.object, options: { layout: "cbuffer" } }));
          if (res.error) { out.replaceChildren(el("div", "empty", res.error)); return; }
          out.replaceChildren(bufferTable(res.buffer));
        });
        rt.append(" ", b, out);
      }
      if (r.fields?.length || r.cbuffer) {
        const d = el("details", "state-fields");
        d.append(el("summary", "muted", r.cbuffer ? `cbuffer ${r.cbuffer.name}: ${plural(r.cbuffer.variables.length, "variable")}` : plural(r.fields.length, "field")));
        const ft = el("table", "kvs");
        for (const f of r.fields || []) {
          const fr = el("tr");
          fr.append(el("td", "muted", f.name), el("td", "mono", f.value));
          ft.append(fr);
        }
        for (const v of r.cbuffer?.variables || []) {
          const fr = el("tr");
          fr.append(el("td", "mono", `${v.type} ${v.name}`), el("td", "muted", `offset ${v.offset}`));
          ft.append(fr);
        }
        d.append(ft);
        rt.append(d);
      }
      const umd = el("td", "state-umd");
      if (!r.packets?.length) umd.append(el("span", "muted", "—"));
      for (const p of r.packets || []) {
        const line = el("div", "packet");
        line.append(el("span", "mono", p.text), " ", el("span", "muted", `word ${p.word}`));
        for (const a of p.addresses || []) {
          const at = a.listIndex < 0 ? "no allocation" : `${a.allocation}+${a.offset} · list entry ${a.listIndex}` + (a.patch >= 0 ? ` · patched at word ${a.patch}` : "");
          line.append(el("div", "muted mono addr", at + (a.write ? " · write" : "")));
        }
        umd.append(line);
      }
      tr.append(rt, umd);
      t.append(tr);
    }
    wrap.append(t);
    return wrap;
  }
}

// bufferTable shows a buffer's rows.
function bufferTable(b) {
  const wrap = el("div", "buffer-table");
  if (b.note) wrap.append(el("div", "muted", b.note));
  const t = el("table", "grid");
  const hr = el("tr");
  for (const c of b.columns) hr.append(el("th", "", c));
  t.append(hr);
  for (const row of b.rows) {
    const tr = el("tr");
    for (const c of row) tr.append(el("td", "mono", c));
    t.append(tr);
  }
  wrap.append(t);
  if (b.total > b.rows.length) wrap.append(el("div", "muted", `rows ${b.first}..${b.first + b.rows.length} of ${b.total}`));
  return wrap;
}

// The resource view -------------------------------------------------------

export class ResourceView {
  constructor(box, sim, hooks) {
    this.box = box;
    this.sim = sim;
    this.hooks = hooks; // {pixel(seq, name, x, y), state(seq)}
    this.store = null;
    this.seq = 0;
    this.name = "";
    this.res = null;
    this.opts = { gpuNow: false, as: "", layout: "", rows: 0, mip: 0, slice: 0 };
    this.image = { channels: 0xF, lo: 0, hi: 0 };
    this.zoom = 0; // 0: fit
    this.pan = [0, 0];
  }

  setStore(store) {
    this.store = store;
    this.res = null;
    this.render();
  }

  select(i) {
    if (i >= 0 && this.store) this.seq = this.store.seq(i);
  }

  // show asks for resource name at event seq.
  async show(seq, name) {
    if (name !== this.name) this.opts.mip = this.opts.slice = 0;
    this.seq = seq;
    this.name = name;
    await this.load();
  }

  async load() {
    if (!this.name || !this.seq) { this.render(); return; }
    busy(this.box, `Running the scenario to event ${this.seq} to read ${this.name}…`);
    const t0 = performance.now();
    const o = { gpuNow: this.opts.gpuNow, as: this.opts.as, layout: this.opts.layout, y: this.opts.rows, h: 64, w: 1, mip: this.opts.mip, slice: this.opts.slice };
    const res = await this.sim.inspectQuery("resource", JSON.stringify({ seq: this.seq, name: this.name, options: o }));
    this.lastMs = performance.now() - t0;
    this.res = res;
    this.zoom = 0;
    this.pan = [0, 0];
    this.render();
  }

  controls() {
    const bar = el("div", "inspect-controls");
    const name = el("input", "res-name");
    name.value = this.name;
    name.placeholder = "resource, view or swap chain";
    name.setAttribute("aria-label", "Resource name");
    const list = el("datalist");
    list.id = "res-names";
    name.setAttribute("list", "res-names");
    for (const n of this.boundNames()) list.append(Object.assign(el("option"), { value: n }));
    const go = el("button", "small", "Show");
    go.addEventListener("click", () => {
      if (name.value.trim() !== this.name) this.opts.mip = this.opts.slice = 0;
      this.name = name.value.trim();
      this.load();
    });
    name.addEventListener("keydown", (e) => { if (e.key === "Enter") go.click(); });
    const now = el("label", "muted");
    const cb = el("input");
    cb.type = "checkbox";
    cb.checked = this.opts.gpuNow;
    cb.addEventListener("change", () => { this.opts.gpuNow = cb.checked; this.load(); });
    now.append(cb, " as the GPU had it then");
    now.title = "Unchecked: the GPU's work before the event is done (the contents the API calls made). Checked: the memory as it was at that moment, work still queued (Draw is asynchronous).";
    bar.append(el("span", "muted", `at event ${this.seq || "–"}`), name, list, go, now);
    return bar;
  }

  // boundNames are the resources bound at the selected event (the state's
  // rows), for the name box's list.
  boundNames() {
    if (!this.seq) return [];
    const st = this.sim.inspectState(this.seq, "");
    const names = new Set();
    for (const sg of st.stages || []) for (const r of sg.rows) if (r.resource) names.add(r.resource);
    return [...names];
  }

  render() {
    const box = el("div", "resource-view");
    box.append(this.controls());
    const r = this.res;
    if (!r) {
      box.append(el("div", "empty", "Choose a resource: a texture, a buffer, a view or a swap chain by its name in the scenario, or view one from the State view. It is read as it was at the selected event."));
      this.box.replaceChildren(box);
      return;
    }
    if (r.error) {
      box.append(el("div", "empty", r.error.replace(/^inspect: /, "")));
      this.box.replaceChildren(box);
      return;
    }
    const head = el("div", "inspect-head");
    const size = r.kind === "Buffer" ? `${r.width} bytes` : `${r.width}×${r.height}` + (r.mips > 1 || r.slices > 1 ? ` (mip ${r.mip}, slice ${r.slice})` : "");
    head.append(el("b", "", r.name), ` ${r.kind} ${size} ${r.format} · ${r.usage} · ${r.bindFlags} · `, seqLinkBySeq(this.store, r.call.seq, r.call.name),
      " ", lineLink(r.call.line), el("span", "muted", r.settled ? " · the GPU's work before it done" : " · as the GPU had it then"));
    box.append(head);
    box.append(instancesTable(r));
    if (r.texture) box.append(this.texture(r));
    if (r.buffer) box.append(this.buffer(r));
    this.box.replaceChildren(box);
    if (r.texture) this.draw();
  }

  buffer(r) {
    const wrap = el("div");
    const bar = el("div", "inspect-controls");
    const lay = el("select");
    for (const [v, t] of [["", "by its bindings"], ["vertex", "by the input layout"], ["cbuffer", "by the cbuffer"], ["format", "as a format"], ["words", "as words"]]) {
      const o = el("option", "", t);
      o.value = v;
      if (v === this.opts.layout) o.selected = true;
      lay.append(o);
    }
    lay.addEventListener("change", () => { this.opts.layout = lay.value; this.load(); });
    const as = el("input", "res-as");
    as.placeholder = "format (R32G32B32A32_FLOAT)";
    as.value = this.opts.as;
    as.addEventListener("change", () => { this.opts.as = as.value.trim(); this.load(); });
    bar.append(el("span", "muted", "rows"), lay, as);
    wrap.append(bar, bufferTable(r.buffer));
    return wrap;
  }

  texture(r) {
    const t = r.texture;
    const wrap = el("div", "texture-wrap");
    const bar = el("div", "inspect-controls");
    // The subresource: a level, an array slice (a 3D texture's depth slice).
    const mip = el("select", "res-mip");
    for (let m = 0; m < r.mips; m++) mip.append(Object.assign(el("option", "", `mip ${m}`), { value: m, selected: m === r.mip }));
    const slice = el("select", "res-slice");
    for (let s = 0; s < r.slices; s++) slice.append(Object.assign(el("option", "", `slice ${s}`), { value: s, selected: s === r.slice }));
    mip.title = slice.title = `${plural(r.mips, "mip level")}, ${plural(r.slices, r.kind === "Texture3D" ? "depth slice" : "array slice")}: level ${r.mip} is ${r.width}×${r.height}`;
    mip.addEventListener("change", () => { this.opts.mip = +mip.value; this.opts.slice = 0; this.load(); });
    slice.addEventListener("change", () => { this.opts.slice = +slice.value; this.load(); });
    bar.append(mip, slice);
    const names = t.depth || t.stencil ? t.channels.map((c) => c === "depth" ? "R" : "G") : t.channels;
    ["R", "G", "B", "A"].forEach((c, k) => {
      const has = t.depth ? (k === 0 || (t.stencil && k === 1)) : names.includes(c);
      const b = el("button", "small chan" + (this.image.channels >> k & 1 ? " on" : ""), t.depth ? (k === 0 ? "depth" : k === 1 ? "stencil" : c) : c);
      b.disabled = !has;
      b.dataset.channel = c;
      b.addEventListener("click", () => {
        this.image.channels ^= 1 << k;
        if (!(this.image.channels & 0xF)) this.image.channels = 1 << k;
        b.classList.toggle("on", !!(this.image.channels >> k & 1));
        this.draw();
      });
      if (has) bar.append(b);
    });
    if (t.number === "float" || t.depth || t.number === "uint" || t.number === "sint") {
      const lo = el("input", "range-in");
      const hi = el("input", "range-in");
      lo.type = hi.type = "number";
      lo.step = hi.step = "any";
      lo.value = this.image.lo || fmt(t.min[0]);
      hi.value = this.image.hi || fmt(t.max[0]);
      const apply = () => { this.image.lo = Number(lo.value); this.image.hi = Number(hi.value); this.draw(); };
      lo.addEventListener("change", apply);
      hi.addEventListener("change", apply);
      bar.append(el("span", "muted", "range"), lo, hi);
    }
    const zoomOut = el("button", "ghost small", "−");
    const zoomIn = el("button", "ghost small", "+");
    const fit = el("button", "ghost small", "fit");
    zoomOut.addEventListener("click", () => this.setZoom(this.scale() / 2));
    zoomIn.addEventListener("click", () => this.setZoom(this.scale() * 2));
    fit.addEventListener("click", () => { this.zoom = 0; this.pan = [0, 0]; this.draw(); });
    const png = el("button", "ghost small export-png", "PNG");
    png.title = "Download the picture as PNG, at the resource's own size, with the channels and range shown";
    png.addEventListener("click", () => this.savePNG());
    bar.append(zoomOut, zoomIn, fit, png);
    this.under = el("div", "texel-under mono", "move over the picture: the texel under the cursor; click: its history");
    this.canvas = el("canvas", "texture-canvas");
    this.canvas.tabIndex = 0;
    this.canvas.setAttribute("aria-label", `${r.name}: ${r.width}×${r.height} ${t.format}`);
    this.installCanvas(r);
    wrap.append(bar, this.under, this.canvas);
    return wrap;
  }

  scale() {
    const r = this.res;
    if (this.zoom > 0) return this.zoom;
    const w = Math.max(200, (this.box.clientWidth || 600) - 40);
    const hgt = Math.max(160, (this.box.clientHeight || 600) - 150);
    return Math.max(1 / 8, Math.min(16, Math.floor(Math.min(w / r.width, hgt / r.height) * 8) / 8 || 1));
  }

  setZoom(z) {
    this.zoom = Math.max(1 / 8, Math.min(64, z));
    this.draw();
  }

  draw() {
    const r = this.res;
    if (!r?.texture || !this.canvas) return;
    const src = this.picture();
    if (!src) return;
    const s = this.scale();
    const cw = Math.min(Math.ceil(r.width * s), Math.max(200, (this.box.clientWidth || 600) - 40));
    const ch = Math.min(Math.ceil(r.height * s), Math.max(160, (this.box.clientHeight || 600) - 150));
    this.canvas.width = cw;
    this.canvas.height = ch;
    const g = this.canvas.getContext("2d");
    g.imageSmoothingEnabled = false;
    g.fillStyle = "#111";
    g.fillRect(0, 0, cw, ch);
    g.drawImage(src, this.pan[0], this.pan[1], r.width * s, r.height * s);
  }

  // picture is the resource as shown (channels, range) at its own size,
  // one pixel a texel, on a canvas (null: no texture answered).
  picture() {
    const r = this.res;
    if (!r?.texture) return null;
    const img = this.sim.inspectImage(JSON.stringify({ channels: this.image.channels, lo: this.image.lo, hi: this.image.hi }));
    if (!img) return null;
    const c = document.createElement("canvas");
    c.width = img.width;
    c.height = img.height;
    c.getContext("2d").putImageData(new ImageData(img.pixels, img.width, img.height), 0, 0);
    return c;
  }

  // savePNG downloads picture() as NAME-eventSEQ[-mipM-sliceS].png.
  savePNG() {
    const r = this.res;
    const c = this.picture();
    if (!c) return;
    const sub = r.mips > 1 || r.slices > 1 ? `-mip${r.mip}-slice${r.slice}` : "";
    const name = `${r.name.replace(/[^A-Za-z0-9_.-]+/g, "_")}-event${this.seq}${sub}.png`;
    c.toBlob((blob) => { if (blob) save(name, blob, "image/png"); }, "image/png");
  }

  // texelAt is the texel under a mouse event.
  texelAt(e) {
    const rc = this.canvas.getBoundingClientRect();
    const s = this.scale();
    const x = Math.floor((e.clientX - rc.left - this.pan[0]) / s);
    const y = Math.floor((e.clientY - rc.top - this.pan[1]) / s);
    return [x, y];
  }

  installCanvas(r) {
    const c = this.canvas;
    let drag = null;
    c.addEventListener("wheel", (e) => {
      e.preventDefault();
      const [x, y] = this.texelAt(e);
      const old = this.scale();
      const z = e.deltaY < 0 ? old * 1.25 : old / 1.25;
      this.zoom = Math.max(1 / 8, Math.min(64, z));
      // keep the texel under the cursor where it is
      const rc = c.getBoundingClientRect();
      this.pan = [e.clientX - rc.left - (x + 0.5) * this.zoom, e.clientY - rc.top - (y + 0.5) * this.zoom];
      this.draw();
    }, { passive: false });
    c.addEventListener("mousedown", (e) => { drag = { x: e.clientX, y: e.clientY, pan: [...this.pan], moved: false }; });
    window.addEventListener("mouseup", () => { setTimeout(() => { drag = null; }, 0); });
    c.addEventListener("mousemove", (e) => {
      if (drag && (e.buttons & 1)) {
        const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
        if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
        if (drag.moved) {
          this.pan = [drag.pan[0] + dx, drag.pan[1] + dy];
          this.draw();
          return;
        }
      }
      const [x, y] = this.texelAt(e);
      const tx = this.sim.inspectTexel(x, y);
      this.under.textContent = tx ? `${x},${y}: ${tx.text}  (${tx.hex})  ${this.res.texture.format}` : "outside the texture";
    });
    c.addEventListener("click", (e) => {
      if (drag?.moved) return;
      const [x, y] = this.texelAt(e);
      if (x < 0 || y < 0 || x >= r.width || y >= r.height) return;
      // The history of the texel of the level and slice shown.
      this.hooks.pixel(this.seq, this.name, x, y, this.res.mip || this.res.slice ? { mip: this.res.mip, slice: this.res.slice } : null);
    });
  }
}

function instancesTable(r) {
  const wrap = el("div", "instances");
  const t = el("table", "grid");
  const hr = el("tr");
  for (const h of ["allocation", "instance", "where", "address", "waits for"]) hr.append(el("th", "", h));
  t.append(hr);
  for (const i of r.instances) {
    const tr = el("tr", i.current ? "" : "old-instance");
    tr.append(el("td", "mono", i.allocation), el("td", "", i.current ? "current" : "earlier (renaming list)"), el("td", "", i.where),
      el("td", "mono", `${i.segment} ${i.address}`), el("td", "", i.fence ? `fence ${i.fence} of ${i.context || "?"}` + (i.idle ? " (signalled)" : "") : "—"));
    t.append(tr);
  }
  wrap.append(t);
  for (const rn of r.renames || []) wrap.append(el("div", "muted rename", `renamed at #${rn.seq}: ${rn.msg}`));
  return wrap;
}

// The pixel view ----------------------------------------------------------

export class PixelView {
  constructor(box, stepBox, sim, hooks) {
    this.box = box;
    this.stepBox = stepBox;
    this.sim = sim;
    this.hooks = hooks;
    this.store = null;
    this.hist = null;
    this.steps = null;
    this.k = 0; // the step shown
    stepBox.addEventListener("keydown", (e) => {
      if (!this.steps?.steps) return;
      if (e.key === "ArrowDown" || e.key === "n") { e.preventDefault(); this.go(this.k + 1); }
      if (e.key === "ArrowUp" || e.key === "p") { e.preventDefault(); this.go(this.k - 1); }
    });
  }

  setStore(store) {
    this.store = store;
    this.hist = null;
    this.steps = null;
    this.render();
    this.renderSteps();
  }

  // show asks for the history of pixel (x, y) of name up to event seq: of
  // subresource sub ({mip, slice}) of name's resource, or (sub null) of
  // what name shows.
  async show(seq, name, x, y, sub = null) {
    this.args = { seq, name, x, y, ...(sub ? { mip: sub.mip, slice: sub.slice } : {}) };
    const where = sub ? ` (mip ${sub.mip}, slice ${sub.slice})` : "";
    busy(this.box, `Running the scenario to event ${seq} with pixel ${x},${y} of ${name}${where} watched…`);
    const t0 = performance.now();
    this.hist = await this.sim.inspectQuery("history", JSON.stringify(this.args));
    this.lastMs = performance.now() - t0;
    this.render();
  }

  render() {
    const h = this.hist;
    if (!h) {
      this.box.replaceChildren(el("div", "empty", "Click a pixel of a texture in the Resource view to see its history: every clear, draw, copy and present that touched it, up to the selected event."));
      return;
    }
    if (h.error) {
      this.box.replaceChildren(el("div", "empty", h.error.replace(/^inspect: /, "")));
      return;
    }
    const box = el("div", "history-view");
    const head = el("div", "inspect-head");
    const sub = h.mip || h.slice ? ` mip ${h.mip || 0} slice ${h.slice || 0}` : "";
    head.append(el("b", "", `Pixel ${h.x},${h.y}`), ` of ${h.resource}${sub} (${h.format}) up to `, seqLinkBySeq(this.store, h.call.seq, h.call.name), " ", lineLink(h.call.line));
    box.append(head);
    const list = el("ol", "history");
    for (const e of h.entries) list.append(this.entry(e));
    box.append(list, el("div", "history-final", `final: ${h.final}`));
    this.box.replaceChildren(box);
  }

  entry(e) {
    const li = el("li", "hist-entry hist-" + e.what);
    const top = el("div", "hist-top");
    top.append(el("span", "hist-what", e.what));
    if (e.call) top.append(seqLinkBySeq(this.store, e.call.seq, e.call.name), " ", lineLink(e.call.line));
    else top.append(el("span", "muted", "Dxgkrnl's paging"));
    top.append(el("span", "muted", ` · DMA buffer ${e.dma}` + (e.fence ? ` (fence ${e.fence})` : "")));
    li.append(top, el("div", "hist-why", e.why));
    const f = e.fragment;
    if (f) {
      const d = el("div", "hist-frag muted");
      d.append(`primitive ${f.primitive} (${f.front ? "front" : "back"})` + (f.slice ? ` to slice ${f.slice}` : ""));
      if (f.outputs?.length) d.append(` · shader output o0 ${f.outputs[0]}`);
      if (f.depth) d.append(` · depth ${f.depth}`);
      li.append(d);
      for (const t of f.tests || []) li.append(el("div", "hist-test mono", t));
      if (f.blend) li.append(blendTable(f.blend));
      if (e.call?.name.startsWith("Draw")) {
        const b = el("button", "small", "step shader");
        b.title = "Step through this draw's pixel shader at this pixel";
        b.addEventListener("click", () => this.stepShader(e.call.seq));
        li.append(b);
      }
    }
    return li;
  }

  async stepShader(seq) {
    const { name, x, y, mip, slice } = this.args;
    busy(this.stepBox, `Running the scenario to event ${seq} with the pixel shader traced at ${x},${y}…`);
    const t0 = performance.now();
    this.steps = await this.sim.inspectQuery("step", JSON.stringify({ seq, name, x, y, mip, slice }));
    this.stepMs = performance.now() - t0;
    this.k = 0;
    this.renderSteps();
  }

  // stepOther steps a vertex (kind stepVertex: args {seq, vertex,
  // instance}) or a compute thread (stepThread: {seq, group, thread})
  // through its shader.
  async stepOther(kind, args) {
    const what = kind === "stepVertex" ? `vertex ${args.vertex} of instance ${args.instance}` : `thread ${args.thread.join(",")} of group ${args.group.join(",")}`;
    busy(this.stepBox, `Running the scenario to event ${args.seq} with ${what} traced…`);
    const t0 = performance.now();
    this.steps = await this.sim.inspectQuery(kind, JSON.stringify(args));
    this.stepMs = performance.now() - t0;
    this.k = 0;
    this.renderSteps();
  }

  // regs are the quad's registers before step k (k = steps: after the last).
  regs(k) {
    const s = this.steps;
    const r = Uint32Array.from(s.start);
    for (const st of s.steps.slice(0, k)) for (const w of st.writes || []) r[(w.reg * 4 + w.comp) * 4 + w.lane] = w.bits;
    return r;
  }

  go(k) {
    if (!this.steps?.steps) return;
    this.k = Math.max(0, Math.min(this.steps.steps.length, k));
    this.renderSteps();
  }

  renderSteps() {
    const s = this.steps;
    if (!s) {
      this.stepBox.replaceChildren(el("div", "empty", "A draw's fragment in the history: “step shader” steps through its pixel shader here — HLSL line, DXBC and GPU instruction, every register of the 2x2 quad."));
      return;
    }
    if (s.error) {
      this.stepBox.replaceChildren(el("div", "empty", s.error.replace(/^inspect: /, "")));
      return;
    }
    const box = el("div", "steps-view");
    const head = el("div", "inspect-head");
    const pixel = s.stage === "ps";
    if (s.vertex != null) {
      head.append(el("b", "", `${s.shader}`), ` (vertex shader) at vertex ${s.vertex} (SV_VertexID ${s.vertexID || 0}) of instance ${s.instance || 0}, lane ${s.lane} of its quad of vertices · `,
        seqLinkBySeq(this.store, s.draw.seq, s.draw.name), " ", lineLink(s.draw.line));
    } else if (s.group) {
      head.append(el("b", "", `${s.shader}`), ` (compute shader) at thread ${s.thread.join(",")} of group ${s.group.join(",")}, lane ${s.lane} of its quad of threads · `,
        seqLinkBySeq(this.store, s.draw.seq, s.draw.name), " ", lineLink(s.draw.line));
    } else {
      head.append(el("b", "", `${s.shader}`), ` at ${s.x},${s.y}: fragment ${s.fragment + 1} of ${s.fragments}, primitive ${s.primitive}, lane ${s.lane} of its quad · `,
        seqLinkBySeq(this.store, s.draw.seq, s.draw.name), " ", lineLink(s.draw.line), el("span", "muted", s.discarded ? " · discarded" : s.passed ? " · written" : " · not written"));
    }
    box.append(head);
    const nav = el("div", "inspect-controls");
    const mk = (t, title, k) => {
      const b = el("button", "small", t);
      b.title = title;
      b.addEventListener("click", () => this.go(k()));
      return b;
    };
    nav.append(mk("start", "before the first instruction", () => 0), mk("◀", "back a step (↑ or p)", () => this.k - 1), mk("▶", "forward a step (↓ or n)", () => this.k + 1),
      mk("end", "after the last instruction", () => s.steps.length),
      el("span", "step-pos mono", this.k < s.steps.length ? `step ${this.k + 1} of ${s.steps.length}` : `after step ${s.steps.length} (the end)`));
    box.append(nav);
    const cols = el("div", "steps-cols");
    // The instructions.
    const list = el("ol", "step-list mono");
    s.steps.forEach((st, k) => {
      const li = el("li", "sstep" + (k === this.k ? " current" : "") + (st.active ? "" : " inactive"));
      li.append(el("span", "sstep-line", st.line ? `HLSL ${st.line}` : ""), el("span", "sstep-dxbc", st.dxbc || ""), el("span", "sstep-isa", st.isa));
      li.title = `pc ${st.pc}; quad lanes that ran it: ${st.quad}`;
      li.addEventListener("click", () => this.go(k));
      list.append(li);
    });
    const left = el("div", "steps-left");
    left.append(el("h3", "pane-head", "instructions: HLSL line · DXBC · GPU ISA"), list);
    if (s.hlsl) {
      const cur = s.steps[Math.min(this.k, s.steps.length - 1)]?.line || 0;
      const src = el("pre", "step-hlsl mono");
      s.hlsl.split("\n").forEach((ln, i) => {
        const l = el("div", i + 1 === cur ? "hl-current" : "", `${String(i + 1).padStart(3)}  ${ln}`);
        src.append(l);
      });
      left.append(el("h3", "pane-head", "HLSL"), src);
    }
    // The registers.
    const before = this.regs(this.k);
    // Components no instruction has written yet hold what the register
    // file held before (an input's interpolated value, or a former
    // block's leftovers): shown as · but for the inputs.
    // The quad lanes that ran each component's last write ("1" a lane,
    // lane 0 first): a derivative needs both of its lanes to have run it
    // (a program with no derivative instruction runs only covered lanes).
    const written = new Map();
    for (const st of s.steps.slice(0, this.k)) for (const w of st.writes || []) written.set(w.reg * 4 + w.comp, st.quad || "1111");
    const t = el("table", "grid regs");
    const hr = el("tr");
    for (const h of pixel ? ["register", "x", "y", "z", "w", "ddx", "ddy"] : ["register", "x", "y", "z", "w"]) hr.append(el("th", "", h));
    t.append(hr);
    const changed = new Set((s.steps[this.k - 1]?.writes || []).map((w) => w.reg));
    s.registers.forEach((name, r) => {
      const tr = el("tr", changed.has(r) ? "changed" : "");
      tr.append(el("td", "mono", name));
      const ddx = [], ddy = [];
      const input = name.startsWith("v");
      for (let c = 0; c < 4; c++) {
        const v = (l) => asFloat(before[(r * 4 + c) * 4 + l]);
        const known = input || written.has(r * 4 + c);
        const quad = input ? "1111" : written.get(r * 4 + c) || "";
        const ran = (l) => known && quad[0] === "1" && quad[l] === "1";
        // A vertex's or a thread's registers hold ids and indices as often
        // as floats: a denormal's bits read as the integer.
        const shown = pixel ? fmt(v(s.lane)) : word(before[(r * 4 + c) * 4 + s.lane]);
        tr.append(el("td", "mono num" + (known ? "" : " muted"), known ? shown : "·"));
        ddx.push(ran(1) ? fmt(v(1) - v(0)) : "·");
        ddy.push(ran(2) ? fmt(v(2) - v(0)) : "·");
      }
      if (pixel) tr.append(el("td", "mono muted", ddx.join(" ")), el("td", "mono muted", ddy.join(" ")));
      t.append(tr);
    });
    const right = el("div", "steps-right");
    right.append(el("h3", "pane-head", this.k === 0 ? "registers before the first instruction" : `registers after step ${this.k}`), t);
    cols.append(left, right);
    box.append(cols);
    this.stepBox.replaceChildren(box);
    this.stepBox.querySelector(".sstep.current")?.scrollIntoView({ block: "nearest" });
  }
}

// word is a register word as a float, or as an integer when its bits are
// a denormal (an id, an index, a count).
function word(x) {
  if (x !== 0 && ((x >>> 23) & 0xff) === 0) return String(x | 0);
  return fmt(asFloat(x));
}

function blendTable(b) {
  const t = el("table", "kvs blend");
  const row = (k, v) => {
    const tr = el("tr");
    tr.append(el("td", "muted", k), el("td", "mono", v));
    t.append(tr);
  };
  if (b.enabled) {
    row("colour", b.color);
    row("alpha", b.alpha);
  } else row("blend", "off");
  row("src (shader)", b.source);
  if (b.source1) row("src1", b.source1);
  row("dst (target)", b.dest);
  row("factor", b.factor);
  row("result", b.result);
  row("mask", b.mask);
  row("stored", b.written);
  return t;
}
