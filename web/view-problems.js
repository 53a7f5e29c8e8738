// The problems view: what went wrong in the run, each with its cause as a
// sentence and linked to its event and scenario line — rule violations,
// failed expectations, debug-layer messages, refused shaders, KMD
// rejections, TDRs, GPU faults and removed devices (core/inspect
// Problems, asked through inspectProblems as the run plays). The tab's
// badge, the status pill and the line under the editor all show count.

import { el, links, seqLinkBySeq, lineLink } from "./view-common.js";

// PROBLEMS_ASK is how many problems one ask fetches; MAX_SHOWN how many
// rows the view draws (the count is always the whole).
const PROBLEMS_ASK = 500;
const MAX_SHOWN = 2000;

export class ProblemsView {
  constructor(box, badge) {
    this.box = box;
    this.badge = badge;
    this.store = null;
    this.capture = null;
    this.reset();
  }

  reset() {
    this.items = []; // core/inspect Problem objects, in event order
    this.total = 0; // problems of the trace found so far (items may hold fewer)
    this.loads = -1; // the load they belong to
    this.failures = [];
    this.key = "";
  }

  // count is every problem: the trace's, the failed expectations and an
  // imported capture's notes.
  get count() {
    return this.total + this.failures.length + this.captureRows().length;
  }

  // lineMarks are the trace's problems for the editor's gutter.
  lineMarks() {
    return this.items.filter((p) => p.line).map((p) => ({ line: p.line, text: `${p.title}: ${p.cause}` }));
  }

  // fetch asks the simulator for the problems found since the last ask.
  fetch() {
    const sim = window.d3dsim;
    if (!sim?.inspectProblems) return;
    for (let k = 0; k < 8; k++) {
      const a = sim.inspectProblems(this.items.length, PROBLEMS_ASK);
      if (!a || a.error || !Array.isArray(a.list)) return; // busy: a long draw holds the run (ask again at the next poll)
      if (a.loads !== this.loads) {
        const fresh = this.loads === -1;
        this.loads = a.loads;
        this.items = [];
        this.key = "";
        if (!fresh || a.from !== 0) continue;
      }
      this.items.push(...a.list);
      this.total = a.total;
      if (a.list.length < PROBLEMS_ASK || this.items.length >= MAX_SHOWN) return;
    }
  }

  // setCapture shows an apitrace import's report (capture.js): the calls
  // not simulated, what the capture left out. null clears it.
  setCapture(report) {
    this.capture = report || null;
    this.key = "";
    if (this.store) this.ingest(null);
  }

  captureRows() {
    const r = this.capture;
    if (!r) return [];
    const rows = [];
    for (const u of r.unsupported || []) {
      rows.push({ sev: "not simulated", text: `${u.name} ×${u.count}, first call ${u.first}: ${u.reason}` });
    }
    for (const n of r.notices || []) rows.push({ sev: "capture", text: `call ${n.call}: ${n.msg}` });
    if (r.noticeCount > (r.notices || []).length) rows.push({ sev: "capture", text: `… and ${r.noticeCount - r.notices.length} more notices` });
    if (r.cut) rows.push({ sev: "capture", text: r.cut });
    return rows;
  }

  setStore(store) {
    this.store = store;
    this.reset();
  }

  ingest(summary) {
    this.fetch();
    if (summary) this.failures = summary.failures || [];
    const n = this.count;
    this.badge.textContent = String(n);
    this.badge.hidden = n === 0;
    this.badge.classList.toggle("bad", this.failures.length > 0 || this.items.some((p) => p.kind !== "debug"));
  }

  render() {
    const st = this.store;
    const capture = this.captureRows();
    const key = `${this.loads}/${this.items.length}/${this.total}/${this.failures.join("\n")}/${capture.length}`;
    if (key === this.key) return;
    this.key = key;
    const box = el("div", "problems");
    if (this.capture) {
      const r = this.capture;
      box.append(el("div", "problem capture-head", `Imported from ${r.name}: ${r.calls} calls, ${r.statements} statements; ` +
        ((r.unsupported || []).length ? "calls not simulated, skipped (each is a comment in the scenario):" : "every call simulated.")));
    }
    for (const c of capture) {
      const row = el("div", "problem capture");
      row.append(el("span", "sev", c.sev), el("span", "text", c.text));
      box.append(row);
    }
    if (!this.total && !this.failures.length && !capture.length) {
      box.append(el("div", "empty ok", "No problems: no failed expectation, no rule violation, no debug-layer message, " +
        "no refused shader, no KMD rejection, TDR, GPU fault or removed device."));
    }
    for (const f of this.failures) {
      const m = /^(\d+):(\d+): (.*)$/s.exec(f);
      const row = el("div", "problem failure");
      row.append(el("span", "sev", "failure"), lineLink(m ? Number(m[1]) : 0), el("span", "text", m ? m[3] : f));
      if (m) row.addEventListener("click", () => links.line(Number(m[1])));
      box.append(row);
    }
    // A rule the scenario expects (`expect violation RULE`, scenario.md)
    // is still a problem, said to be expected, with the line that says so.
    const expected = new Map();
    const src = window.d3dsim?.source?.() || "";
    src.split("\n").forEach((l, k) => {
      const m = /^\s*expect\s+violation\s+(\S+)/.exec(l);
      if (m && !expected.has(m[1])) expected.set(m[1], k + 1);
    });
    for (const p of this.items.slice(0, MAX_SHOWN)) {
      const row = el("div", `problem ${p.kind}${p.kind === "debug" ? " message" : ""}`);
      row.dataset.kind = p.kind;
      row.dataset.seq = p.seq;
      const i = st ? st.index(p.seq) : -1;
      if (i >= 0) row.dataset.ev = i;
      const text = el("span", "text", p.cause);
      row.append(el("span", "sev", p.title), seqLinkBySeq(st, p.seq), lineLink(p.line), text);
      if (p.kind === "violation" && expected.has(p.title)) {
        row.classList.add("expected");
        row.append(el("span", "muted expected-by", "expected by "), lineLink(expected.get(p.title)));
      }
      row.title = `event ${p.seq}${p.call ? ` in ${p.call.name} (event ${p.call.seq})` : ""}: select it in every view`;
      row.addEventListener("click", () => {
        const j = st.index(p.seq);
        if (j >= 0) links.select(j, "problems");
        else if (p.line) links.line(p.line);
      });
      box.append(row);
    }
    if (this.total > Math.min(this.items.length, MAX_SHOWN)) {
      box.append(el("div", "problem capture-head", `… and ${(this.total - Math.min(this.items.length, MAX_SHOWN)).toLocaleString("en-US")} more problems (d3dsim inspect FILE --problems lists them all)`));
    }
    this.box.replaceChildren(box);
  }
}
