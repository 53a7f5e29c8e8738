// The shaders view: every shader the run created (its API object, stage and
// where its code came from) and, for the selected one, side by side: the
// HLSL it was compiled from, its DXBC listed as fxc /Fc lists it, and the GPU
// program the UMD translated it to; with the draws that ran it. The model is
// the module's (wasm/shaders.go): the list is fetched again only when its
// version changed (a shader or a draw was added), the shown shader's draws
// when its count changed, each shader's texts once per load.

import { el, links, seqLinkBySeq, lineLink, plural } from "./view-common.js";

const STAGES = { vs: "vertex shader", ps: "pixel shader" };
const SOURCES = { hlsl: "HLSL", bytecode: "bytecode", builtin: "built-in" };

export class ShadersView {
  constructor(listBox, detailBox, sim) {
    this.listBox = listBox;
    this.detailBox = detailBox;
    this.sim = sim;
    this.store = null;
    this.reset();
  }

  reset() {
    this.version = "";
    this.model = null; // {version, shaders, dropped}
    this.texts = new Map(); // shader index -> its texts (shaderCode)
    this.current = -1; // the shader shown
    this.shown = -1; // the shader whose columns are built
    this.draws = null; // {index, count, list}: the shown shader's draws
    this.selectedSeq = 0; // the page's selection, when it is an event
  }

  setStore(store) {
    this.store = store;
    this.reset();
  }

  // render brings the view up to date: cheap when nothing changed (the
  // module answers null to the version it has).
  render(force) {
    const m = this.sim.shaders(force ? "" : this.version);
    if (!m) return;
    this.version = m.version;
    this.model = m;
    if (this.current < 0 || this.current >= m.shaders.length) this.current = m.shaders.length ? 0 : -1;
    this.renderList();
    this.renderDetail(force);
  }

  renderList() {
    const m = this.model;
    const box = el("div");
    box.append(el("h3", "pane-head", "Shaders"));
    if (!m.shaders.length) {
      box.append(el("div", "empty", "No shader yet. CreateVertexShader and CreatePixelShader make them: from an hlsl block, from bytecode or builtin:NAME."));
      this.listBox.replaceChildren(box);
      return;
    }
    const t = el("table", "grid shader-list");
    const hr = el("tr");
    for (const h of ["object", "stage", "source", "draws"]) hr.append(el("th", "", h));
    t.append(hr);
    for (const s of m.shaders) {
      const tr = el("tr", "shader-row" + (s.index === this.current ? " selected" : ""));
      tr.dataset.index = s.index;
      tr.dataset.obj = s.obj;
      tr.tabIndex = 0;
      const obj = el("td");
      obj.append(el("b", "", this.store?.named(s.obj) || s.obj), " ", lineLink(s.line));
      tr.append(obj, el("td", "mono", s.stage), el("td", "", sourceText(s)), el("td", "num", String(s.drawCount)));
      const pick = () => this.show(s.index);
      tr.addEventListener("click", pick);
      tr.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          pick();
        }
      });
      t.append(tr);
    }
    box.append(t);
    if (m.dropped) box.append(el("div", "muted more", `${plural(m.dropped, "later shader")} not listed`));
    const top = this.listBox.scrollTop;
    this.listBox.replaceChildren(box);
    this.listBox.scrollTop = top;
  }

  // show makes shader i the one shown.
  show(i) {
    if (i === this.current) return;
    this.current = i;
    for (const r of this.listBox.querySelectorAll(".shader-row")) r.classList.toggle("selected", Number(r.dataset.index) === i);
    this.renderDetail(true);
  }

  renderDetail(force) {
    const m = this.model;
    const s = m && this.current >= 0 ? m.shaders[this.current] : null;
    if (!s) {
      this.detailBox.replaceChildren(el("div", "empty", "Select a shader to see its HLSL, its DXBC and the GPU program the driver made of it."));
      this.shown = -1;
      return;
    }
    if (!force && this.shown === s.index && this.detailBox.querySelector(".shader-cols")) {
      // Only its draws can have changed.
      this.detailBox.querySelector(".shader-draws").replaceWith(this.drawsBox(s));
      return;
    }
    this.shown = s.index;
    let x = this.texts.get(s.index);
    if (!x) {
      x = this.sim.shaderCode(s.index);
      if (x) this.texts.set(s.index, x);
    }
    const box = el("div", "shader-detail");
    const head = el("div", "shader-head");
    head.append(el("b", "", this.store?.named(s.obj) || s.obj), " ", el("span", "", `${STAGES[s.stage] || s.stage} · ${origin(s)}`), " ");
    if (s.seq) head.append(seqLinkBySeq(this.store, s.seq, "created"), " ");
    head.append(lineLink(s.line));
    box.append(head, this.drawsBox(s));
    const cols = el("div", "shader-cols");
    const isa = column("isa", "GPU ISA (the UMD's translation)", "the program the user-mode driver made of the bytecode for this GPU and placed in an allocation of its own, bound at a draw with SET_PROGRAM", x?.isa, x?.isaNote);
    if (x?.translation) this.translationToggle(isa, x);
    cols.append(
      column("hlsl", "HLSL", "the source the scenario's hlsl block holds, compiled when the scenario loads, as fxc compiles at build time", x?.hlsl, x?.hlslNote, x?.hlslLine),
      column("dxbc", "DXBC (fxc /Fc listing)", "the bytecode CreateVertexShader or CreatePixelShader hands the runtime, which validates it and passes it to the driver", x?.listing, x?.listingNote),
      isa,
    );
    box.append(cols);
    this.detailBox.replaceChildren(box);
  }

  // translationToggle adds to the ISA column a button that shows each DXBC
  // instruction above the ISA instructions it became (and back); the
  // choice holds for the next shader shown.
  translationToggle(col, x) {
    const pre = col.querySelector(".shader-text");
    const b = el("button", "ghost small shader-toggle");
    const set = () => {
      pre.textContent = this.byDXBC ? x.translation : x.isa;
      b.textContent = this.byDXBC ? "plain ISA" : "by DXBC instruction";
      b.title = this.byDXBC ? "show the program alone, as its words disassemble" : "show each DXBC instruction (as a comment) above the ISA instructions the driver made of it";
      b.setAttribute("aria-pressed", String(!!this.byDXBC));
    };
    b.addEventListener("click", () => {
      this.byDXBC = !this.byDXBC;
      set();
    });
    set();
    col.querySelector(".pane-head").append(b);
  }

  // drawsBox lists the draws that ran shader s: a click selects the draw
  // in every view.
  drawsBox(s) {
    let w = this.draws;
    if (!w || w.index !== s.index || w.count !== s.drawCount) {
      w = this.draws = { index: s.index, count: s.drawCount, list: (s.drawCount && this.sim.shaderDraws(s.index)) || [] };
    }
    const box = el("div", "shader-draws");
    const head = el("span", "muted", s.drawCount ? `${plural(s.drawCount, "draw")} ran it:` : "No draw ran it yet.");
    box.append(head);
    for (const d of w.list) {
      const a = seqLinkBySeq(this.store, d.seq, `${d.name} on ${d.ctx || "?"}`);
      a.classList.add("chip", "ev", "shader-draw");
      a.dataset.seq = d.seq;
      if (d.seq === this.selectedSeq) a.classList.add("selected");
      if (d.ctx && d.ctx.startsWith("DC")) a.title += " (recorded into a command list: it runs when the list is executed)";
      box.append(a, lineLink(d.line, `:${d.line}`));
    }
    if (s.drawCount > w.list.length) box.append(el("span", "muted", `and ${plural(s.drawCount - w.list.length, "later draw")}`));
    return box;
  }

  // select marks event i among the draws when it is one.
  select(i) {
    this.selectedSeq = i >= 0 && this.store ? this.store.seq(i) : 0;
    for (const a of this.detailBox.querySelectorAll(".shader-draw")) a.classList.toggle("selected", Number(a.dataset.seq) === this.selectedSeq);
  }
}

// column is one of the three texts, with a note instead when it is empty.
function column(kind, title, hint, text, note, firstLine) {
  const c = el("section", "shader-col");
  c.dataset.col = kind;
  const h = el("h3", "pane-head", title);
  h.title = hint;
  c.append(h);
  if (text) {
    // The hlsl block's text starts at this scenario line: a link shows it
    // in the editor.
    if (firstLine) h.append(lineLink(firstLine));
    c.append(el("pre", "shader-text", text));
    if (note) c.append(el("p", "hint", note));
  } else {
    c.append(el("div", "empty", note || "–"));
  }
  return c;
}

function sourceText(s) {
  return s.source === "builtin" ? `built-in ${s.builtin}` : SOURCES[s.source] || s.source;
}

// origin says where the shader's code came from, in a few words.
function origin(s) {
  switch (s.source) {
    case "hlsl": return `from hlsl block ${s.block}, entry ${s.entry}, target ${s.target}`;
    case "builtin": return `built-in ${s.builtin}: HLSL compiled when the scenario loads, entry ${s.entry}, target ${s.target}`;
    default: return s.block ? `bytecode from fxc block ${s.block}` : "from bytecode";
  }
}
