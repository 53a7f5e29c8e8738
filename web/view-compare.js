// The compare view: the loaded run against another one — the text loaded
// before the last edit, or the same scenario in another mode (in order,
// out of order, synchronous) — as core/inspect Compare answers it (and
// `d3dsim diff`): the first API call where the runs part, the first event
// of each layer where they part, the pixels of the last frames that differ
// with their mask as a picture, and the bindings that differ at an event
// both runs name. The other run is made a slice at a time (inspectQuery
// "compare"), so the page keeps answering.

import { el, seqLinkBySeq, lineLink } from "./view-common.js";

const AGAINST = [
  ["edit", "the text before the last edit"],
  ["in-order", "in order (Windows' scheduling)"],
  ["out-of-order", "out of order (scheduler=salvia)"],
  ["sync", "synchronous (sync=true)"],
];

// ordinal is n as "1st", "2nd", "15th".
function ordinal(n) {
  const t = n % 100;
  const suf = t >= 11 && t <= 13 ? "th" : ["th", "st", "nd", "rd"][n % 10] || "th";
  return n.toLocaleString("en-US") + suf;
}

export class CompareView {
  constructor(box, sim) {
    this.box = box;
    this.sim = sim;
    this.store = null;
    this.against = "edit";
    this.at = "";
    this.answer = null;
    this.busy = false;
  }

  setStore(store) {
    this.store = store;
    this.answer = null;
    this.render();
  }

  // select offers the selected API call as the event to compare states at:
  // NAME#K (the K-th call of its name), which names it in both runs.
  select(i) {
    const st = this.store;
    if (!st || i < 0) return;
    let c = i;
    for (let n = 0; n < 64 && c >= 0 && !(st.kind(c) === 1 && st.from(c) === 1); n++) c = st.parent(c) ? st.index(st.parent(c)) : -1;
    if (c < 0) return;
    const name = st.name(c);
    let k = 0;
    for (let j = 0; j <= c; j++) if (st.name(j) === name && st.kind(j) === 1 && st.from(j) === 1) k++;
    this.at = `${name}#${k}`;
    const input = this.box.querySelector(".cmp-at");
    if (input) input.value = this.at;
  }

  // compare asks for the comparison (against: "edit" or a mode).
  async compare(against = this.against, at = this.at) {
    this.against = against;
    this.at = at;
    this.busy = true;
    this.answer = null;
    this.render();
    const t0 = performance.now();
    this.answer = await this.sim.inspectQuery("compare", JSON.stringify({ against, at }));
    this.lastMs = performance.now() - t0;
    this.busy = false;
    this.render();
    return this.answer;
  }

  controls() {
    const bar = el("div", "inspect-controls");
    const pick = el("select", "cmp-against");
    pick.setAttribute("aria-label", "Compare with");
    for (const [v, t] of AGAINST) pick.append(Object.assign(el("option", "", t), { value: v, selected: v === this.against }));
    pick.addEventListener("change", () => { this.against = pick.value; });
    const at = el("input", "cmp-at");
    at.placeholder = "Draw#2, line:24 (selected call)";
    at.value = this.at;
    at.title = "the event whose states are compared: a name both runs have (NAME#K, line:N); empty: none";
    at.addEventListener("change", () => { this.at = at.value.trim(); });
    const go = el("button", "small primary cmp-go", this.busy ? "Comparing…" : "Compare");
    go.disabled = this.busy;
    go.addEventListener("click", () => this.compare(pick.value, at.value.trim()));
    bar.append(el("span", "muted", "this run against"), pick, el("span", "muted", "state at"), at, go);
    return bar;
  }

  render() {
    const box = el("div", "compare-view");
    box.append(this.controls());
    const c = this.answer;
    if (this.busy) box.append(el("div", "empty inspect-busy", "Running the other run, a slice at a time…"));
    else if (!c) {
      box.append(el("div", "empty", "Compare this run with the text you ran before your last edit (edit, Ctrl+Enter, then Compare), " +
        "or with the same scenario in another mode: where the traces first part, by API call and by layer, the pixels that differ, " +
        "and the state that differs at an event."));
    } else if (c.error) box.append(el("div", "empty", c.error.replace(/^inspect: /, "")));
    else this.answerTo(box, c);
    this.box.replaceChildren(box);
    if (c && !c.error) this.drawMask();
  }

  // event is one side's event: a link when it is this run's.
  event(side, e) {
    if (!e) return el("span", "muted", "(its sequence ended)");
    const mine = side === "this run";
    const span = el("span", "cmp-ev");
    span.append(mine ? seqLinkBySeq(this.store, e.seq, `#${e.seq}`) : el("span", "muted", `#${e.seq}`), " ",
      mine ? lineLink(e.line) : el("span", "muted", e.line ? `line ${e.line}` : ""), " ", el("span", "mono", e.text));
    return span;
  }

  answerTo(outer, c) {
    outer.append(el("div", "inspect-head", `${c.a} against ${c.b}`));
    // The traces and the state on the left, the pixels and their mask on the right.
    const body = el("div", "cmp-body");
    const box = el("div", "cmp-main");
    const side = el("div", "cmp-side");
    body.append(box, side);
    outer.append(body);
    const t = el("table", "cmp-table");
    const head = el("tr");
    for (const h of ["", "first difference", c.a, c.b]) head.append(el("th", "", h));
    t.append(head);
    for (const d of [c.calls, ...c.layers]) {
      const tr = el("tr", d.same ? "same" : "differs");
      tr.dataset.layer = d.layer;
      tr.append(el("td", "", d.layer));
      if (d.same) {
        tr.append(el("td", "muted", `the same (${d.count[0].toLocaleString("en-US")})`), el("td"), el("td"));
      } else {
        const a = el("td");
        a.append(this.event(c.a, d.a));
        const b = el("td");
        b.append(this.event(c.b, d.b));
        tr.append(el("td", "", `the ${ordinal(d.index + 1)} of ${d.count[0].toLocaleString("en-US")} and ${d.count[1].toLocaleString("en-US")}`), a, b);
      }
      t.append(tr);
    }
    box.append(t);
    const p = c.pixels;
    const px = el("div", "cmp-pixels");
    if (!p) px.append("Pixels: neither run presented a frame.");
    else if (p.sizes) px.append(`Pixels: the last frames differ in size (${p.sizes}).`);
    else if (!p.count) px.append(`Pixels: the last frames are the same (${p.width}×${p.height}).`);
    else {
      px.append(`Pixels: ${p.count.toLocaleString("en-US")} of ${(p.width * p.height).toLocaleString("en-US")} differ in the last frames, ` +
        `within ${p.box[0]},${p.box[1]} ${p.box[2]}×${p.box[3]}; the first at ${p.first[0]},${p.first[1]}: ${p.colorA} against ${p.colorB}. ` +
        "The mask: each differing pixel red, the others dimmed.");
      this.mask = el("canvas", "cmp-mask");
      this.mask.setAttribute("aria-label", `${p.count} differing pixels`);
      px.append(this.mask);
    }
    side.append(px);
    const s = c.state;
    if (s) {
      const sd = el("div", "cmp-state");
      if (s.error) sd.append(`State at ${s.at}: ${s.error.replace(/^inspect: /, "")}`);
      else if (!s.rows?.length) sd.append(`State at ${s.at} (events ${s.seq[0]} and ${s.seq[1]}): the same.`);
      else {
        sd.append(el("div", "", `State at ${s.at} (events ${s.seq[0]} and ${s.seq[1]}): ${s.rows.length} ${s.rows.length === 1 ? "binding differs" : "bindings differ"}`));
        const st = el("table", "cmp-table");
        for (const r of s.rows) {
          const tr = el("tr", "differs");
          tr.dataset.binding = r.binding;
          tr.append(el("td", "", `${r.stage} ${r.binding}`), el("td", "mono", r.a || "none"), el("td", "mono", r.b || "none"));
          st.append(tr);
        }
        sd.append(st);
      }
      box.append(sd);
    }
  }

  drawMask() {
    if (!this.mask) return;
    const m = this.sim.compareMask();
    if (!m) return;
    const s = Math.max(1, Math.min(8, Math.floor(192 / Math.max(m.width, m.height))));
    this.mask.width = m.width * s;
    this.mask.height = m.height * s;
    const src = document.createElement("canvas");
    src.width = m.width;
    src.height = m.height;
    src.getContext("2d").putImageData(new ImageData(m.pixels, m.width, m.height), 0, 0);
    const g = this.mask.getContext("2d");
    g.imageSmoothingEnabled = false;
    g.drawImage(src, 0, 0, m.width * s, m.height * s);
  }
}
