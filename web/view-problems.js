// The problems view: the rule violations, failed expectations and debug
// messages of the run, each linked to its event and scenario line.

import { KIND, LAYER, C } from "./model.js";
import { el, links, seqLink, lineLink } from "./view-common.js";

export class ProblemsView {
  constructor(box, badge) {
    this.box = box;
    this.badge = badge;
    this.store = null;
    this.capture = null;
    this.reset();
  }

  reset() {
    this.done = 0;
    this.items = []; // event indices
    this.failures = [];
    this.key = "";
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
    const st = this.store;
    for (let i = this.done; i < st.n; i++) {
      const k = st.kind(i);
      if (k === KIND.violation || (k === KIND.message && st.layer(i) === LAYER.runtime && /^D3D11/.test(st.s(i, C.msg)))) this.items.push(i);
    }
    this.done = st.n;
    if (summary) this.failures = summary.failures || [];
    const n = this.items.length + this.failures.length + this.captureRows().length;
    this.badge.textContent = String(n);
    this.badge.hidden = n === 0;
    this.badge.classList.toggle("bad", this.failures.length > 0 || this.items.some((i) => st.kind(i) === KIND.violation));
  }

  render() {
    const st = this.store;
    const capture = this.captureRows();
    const key = `${this.items.length}/${this.failures.join("\n")}/${capture.length}`;
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
    if (!this.items.length && !this.failures.length && !capture.length) {
      box.append(el("div", "empty ok", "No problems: no failed expectation, no rule violation, no debug-layer message."));
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
