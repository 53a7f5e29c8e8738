// Tutorial notes (assets/tutorials/README.md): "# Title", an introduction,
// "## Step" sections; inside a step, "@line N" / "@lines N-M" name the
// scenario lines it is about and "@events NAME ..." the events to look at.
// The rest is a small Markdown subset, rendered into DOM nodes (never
// innerHTML: notes are data).

import { el } from "./view-common.js";

// linkedTutorial returns the tutorial a link's fragment names
// ("#s=1.xxx&t=05-four-threads", docs/scenario.md "Links"), or "" when it
// names none or a name no tutorial could have (core/link ValidTutorialName).
export function linkedTutorial(hash) {
  for (const part of String(hash || "").replace(/^#/, "").split("&")) {
    if (part.startsWith("t=") && /^[A-Za-z0-9_-]{1,64}$/.test(part.slice(2))) return part.slice(2);
  }
  return "";
}

export function parseNotes(text) {
  const lines = String(text || "").replace(/\r\n?/g, "\n").split("\n");
  const out = { title: "", intro: [], steps: [] };
  let cur = null;
  let inCode = false;
  for (const raw of lines) {
    const line = raw;
    if (/^```/.test(line)) inCode = !inCode;
    if (!inCode) {
      let m;
      if (!out.title && !cur && (m = /^#\s+(.*)$/.exec(line))) {
        out.title = m[1].trim();
        continue;
      }
      if ((m = /^##\s+(.*)$/.exec(line))) {
        cur = { title: m[1].trim(), body: [], lines: null, events: [] };
        out.steps.push(cur);
        continue;
      }
      if (cur && (m = /^@lines?\s+(\d+)(?:\s*-\s*(\d+))?\s*$/.exec(line.trim()))) {
        const a = Number(m[1]);
        const b = m[2] ? Number(m[2]) : a;
        cur.lines = [Math.min(a, b), Math.max(a, b)];
        continue;
      }
      if (cur && (m = /^@events\s+(.*)$/.exec(line.trim()))) {
        cur.events.push(...m[1].trim().split(/\s+/).filter(Boolean));
        continue;
      }
    }
    (cur ? cur.body : out.intro).push(line);
  }
  return out;
}

// renderMarkdown renders the subset: paragraphs, lists, code blocks, inline
// code, bold, emphasis, links.
export function renderMarkdown(lines) {
  const frag = document.createDocumentFragment();
  let para = [];
  let list = null;
  let code = null;
  const flushPara = () => {
    if (para.length) {
      const p = el("p");
      inline(p, para.join(" "));
      frag.append(p);
      para = [];
    }
  };
  const flushList = () => {
    if (list) frag.append(list);
    list = null;
  };
  for (const line of lines) {
    if (code) {
      if (/^```/.test(line)) {
        frag.append(code);
        code = null;
      } else {
        code.firstChild.textContent += line + "\n";
      }
      continue;
    }
    if (/^```/.test(line)) {
      flushPara();
      flushList();
      code = el("pre");
      code.append(el("code", "", ""));
      continue;
    }
    const item = /^\s*(?:[-*]|\d+[.)])\s+(.*)$/.exec(line);
    if (item) {
      flushPara();
      if (!list) list = el(/^\s*\d/.test(line) ? "ol" : "ul");
      const li = el("li");
      inline(li, item[1]);
      list.append(li);
      continue;
    }
    if (!line.trim()) {
      flushPara();
      flushList();
      continue;
    }
    if (list && /^\s+/.test(line)) {
      inline(list.lastChild, " " + line.trim());
      continue;
    }
    flushList();
    para.push(line.trim());
  }
  if (code) frag.append(code);
  flushPara();
  flushList();
  return frag;
}

function inline(parent, text) {
  const re = /(`[^`]+`)|(\*\*[^*]+\*\*)|(\*[^*]+\*|_[^_]+_)|(\[[^\]]+\]\([^)\s]+\))/g;
  let last = 0;
  let m;
  while ((m = re.exec(text))) {
    if (m.index > last) parent.append(text.slice(last, m.index));
    const s = m[0];
    if (m[1]) parent.append(el("code", "", s.slice(1, -1)));
    else if (m[2]) parent.append(el("strong", "", s.slice(2, -2)));
    else if (m[3]) parent.append(el("em", "", s.slice(1, -1)));
    else {
      const lm = /^\[([^\]]+)\]\(([^)\s]+)\)$/.exec(s);
      const href = lm[2];
      if (/^(https?:|#|\.{0,2}\/|[\w-]+\.(md|d3ds)$)/.test(href) && !/^javascript:/i.test(href)) {
        const a = el("a", "", lm[1]);
        a.href = href;
        a.target = "_blank";
        a.rel = "noopener";
        parent.append(a);
      } else {
        parent.append(lm[1]);
      }
    }
    last = m.index + s.length;
  }
  if (last < text.length) parent.append(text.slice(last));
}

// TutorialPane shows one tutorial's notes step by step. onStep(step) is
// called when a step is shown (app.js highlights its lines, steps the
// simulation and selects its events); onEvent(step, name) when one of the
// step's event chips is clicked (app.js selects that event).
export class TutorialPane {
  constructor({ pane, title, body, prev, next, pos, close, onStep, onEvent, onClose }) {
    Object.assign(this, { pane, titleEl: title, body, prevEl: prev, nextEl: next, pos, onStep, onEvent, onClose });
    this.notes = null;
    this.k = -1; // -1: the introduction
    // ranOn is set by onStep: the line the simulation ran on to, past the
    // step's lines (to a wait's next call, another thread's line, or the
    // step's events), else 0. The step shows it, so the editor's "ran"
    // mark below the highlighted lines is not a surprise.
    this.ranOn = 0;
    prev.addEventListener("click", () => this.go(this.k - 1));
    next.addEventListener("click", () => this.go(this.k + 1));
    close.addEventListener("click", () => this.close());
    body.addEventListener("scroll", () => this.showMore());
    window.addEventListener("resize", () => this.showMore());
  }

  // showMore tells whether the step's text goes on below the pane's fold
  // (a newcomer did not see that a step continued): the body fades out at
  // the bottom and the foot says "more below" (the position's text itself
  // stays "step K of N").
  showMore() {
    if (!this.notes) return;
    const b = this.body;
    const more = b.scrollHeight - b.scrollTop - b.clientHeight > 4;
    this.pane.classList.toggle("below-fold", more); // style.css adds "more" after the position
  }

  open(name, notesText) {
    this.name = name;
    this.notes = parseNotes(notesText);
    this.pane.hidden = false;
    document.body.classList.add("with-notes");
    this.k = -1;
    this.show();
  }

  close() {
    this.notes = null;
    this.pane.hidden = true;
    document.body.classList.remove("with-notes");
    this.onClose();
  }

  get active() { return !!this.notes; }

  go(k) {
    if (!this.notes) return;
    this.k = Math.max(-1, Math.min(this.notes.steps.length - 1, k));
    this.show();
    this.ranOn = 0;
    if (this.k >= 0) this.onStep(this.notes.steps[this.k], this.k);
    else this.onStep(null, -1);
    if (this.ranOn && this.k >= 0) {
      let meta = this.body.querySelector(".step-meta");
      if (!meta) {
        meta = el("div", "step-meta");
        this.body.firstChild.append(meta);
      }
      const chip = el("span", "chip ran-on", `ran on to line ${this.ranOn}`);
      chip.title = "What this step shows happens after its lines: the simulation ran on to this line";
      meta.append(chip);
    }
    this.showMore();
  }

  show() {
    const n = this.notes;
    this.titleEl.textContent = n.title || this.name;
    const box = el("div", "note");
    if (this.k < 0) {
      box.append(renderMarkdown(n.intro));
      if (n.steps.length) {
        const ol = el("ol", "toc");
        n.steps.forEach((s, i) => {
          const li = el("li");
          const a = el("a", "", s.title);
          a.href = "#";
          a.addEventListener("click", (e) => {
            e.preventDefault();
            this.go(i);
          });
          li.append(a);
          ol.append(li);
        });
        box.append(ol);
      }
    } else {
      const s = n.steps[this.k];
      box.append(el("h4", "step-title", s.title));
      box.append(renderMarkdown(s.body));
      const meta = el("div", "step-meta");
      if (s.lines) meta.append(el("span", "chip", s.lines[0] === s.lines[1] ? `line ${s.lines[0]}` : `lines ${s.lines[0]}–${s.lines[1]}`));
      for (const e of s.events) {
        const chip = el("button", "chip ev", e);
        chip.type = "button";
        chip.title = `Select the ${e} event of this step`;
        chip.addEventListener("click", () => this.onEvent?.(s, e));
        meta.append(chip);
      }
      if (meta.childElementCount) box.append(meta);
    }
    this.body.replaceChildren(box);
    this.body.scrollTop = 0;
    this.pos.textContent = this.k < 0 ? `${n.steps.length} ${n.steps.length === 1 ? "step" : "steps"}` : `step ${this.k + 1} of ${n.steps.length}`;
    this.titleEl.title = this.titleEl.textContent;
    this.showMore();
    this.prevEl.disabled = this.k < 0;
    this.nextEl.disabled = this.k >= n.steps.length - 1;
    this.nextEl.textContent = this.k < 0 ? "Start →" : "Next →";
  }
}
