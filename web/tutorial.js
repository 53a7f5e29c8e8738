// Tutorial notes (assets/tutorials/README.md): "# Title", an introduction,
// "## Step" sections; inside a step, "@line N" / "@lines N-M" name the
// scenario lines it is about and "@events NAME ..." the events to look at.
// The rest is Markdown: paragraphs, lists and fenced code here, and inside
// them CommonMark's code spans, emphasis, links and line breaks
// (markdown.js), rendered into DOM nodes (never innerHTML: notes are data).

import { el } from "./view-common.js";
import { parseInline, takeDefinitions, toDOM } from "./markdown.js";

// linkedTutorial returns the tutorial a link's fragment names
// ("#s=1.xxx&t=05-four-threads", docs/scenario.md "Links"), or "" when it
// names none or a name no tutorial could have (core/link ValidTutorialName).
export function linkedTutorial(hash) {
  for (const part of String(hash || "").replace(/^#/, "").split("&")) {
    if (part.startsWith("t=") && /^[A-Za-z0-9_-]{1,64}$/.test(part.slice(2))) return part.slice(2);
  }
  return "";
}

// linkedStep returns the tutorial step a link's fragment names ("&step=3",
// 1-based: what Share adds while a step is shown), or 0 when it names none.
export function linkedStep(hash) {
  for (const part of String(hash || "").replace(/^#/, "").split("&")) {
    const m = /^step=([1-9][0-9]{0,3})$/.exec(part);
    if (m) return Number(m[1]);
  }
  return 0;
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

// noteBlocks splits a note's lines into blocks: paragraphs, lists (each
// item's text, its indented continuation lines included) and fenced code.
// Paragraph and item texts keep their line breaks: the inline parser
// (markdown.js) needs them for soft and hard breaks.
export function noteBlocks(lines) {
  const out = [];
  let para = null;
  let list = null;
  let code = null;
  for (const line of lines) {
    if (code) {
      if (/^```/.test(line)) {
        out.push(code);
        code = null;
      } else code.text += line + "\n";
      continue;
    }
    if (/^```/.test(line)) {
      para = list = null;
      code = { type: "code", text: "" };
      continue;
    }
    const item = /^\s*(?:[-*]|\d+[.)])\s+(.*)$/.exec(line);
    if (item) {
      para = null;
      if (!list) out.push((list = { type: "list", ordered: /^\s*\d/.test(line), items: [] }));
      list.items.push([item[1]]);
      continue;
    }
    if (!line.trim()) {
      para = list = null;
      continue;
    }
    if (list && /^\s+/.test(line)) {
      list.items[list.items.length - 1].push(line.replace(/^\s+/, ""));
      continue;
    }
    list = null;
    if (!para) out.push((para = { type: "para", lines: [] }));
    para.lines.push(line.replace(/^\s+/, ""));
  }
  if (code) out.push(code);
  // A block's last line keeps no trailing spaces (they would be a hard break).
  const text = (ls) => ls.join("\n").replace(/[ \t]+$/, "");
  return out.map((b) => b.type === "para" ? { type: "para", text: text(b.lines) }
    : b.type === "list" ? { ...b, items: b.items.map(text) } : b);
}

// noteDefinitions collects the link reference definitions ("[label]: URL")
// that start the notes' paragraphs, for every step's links.
export function noteDefinitions(notes) {
  const refs = new Map();
  for (const lines of [notes.intro, ...notes.steps.map((s) => s.body)]) {
    for (const b of noteBlocks(lines)) if (b.type === "para") takeDefinitions(b.text, refs);
  }
  return refs;
}

// renderMarkdown renders a note's lines into DOM nodes: paragraphs, lists,
// code blocks, and inside them CommonMark's code spans, emphasis, links and
// line breaks (markdown.js). refs: noteDefinitions.
export function renderMarkdown(lines, refs = new Map()) {
  const frag = document.createDocumentFragment();
  for (const b of noteBlocks(lines)) {
    if (b.type === "code") {
      const pre = el("pre");
      pre.append(el("code", "", b.text));
      frag.append(pre);
    } else if (b.type === "list") {
      const list = el(b.ordered ? "ol" : "ul");
      for (const text of b.items) {
        const li = el("li");
        toDOM(li, parseInline(text, refs));
        list.append(li);
      }
      frag.append(list);
    } else {
      const text = takeDefinitions(b.text, new Map());
      if (!text.trim()) continue;
      const p = el("p");
      toDOM(p, parseInline(text, refs));
      frag.append(p);
    }
  }
  return frag;
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
    this.refs = noteDefinitions(this.notes);
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
      box.append(renderMarkdown(n.intro, this.refs));
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
      box.append(renderMarkdown(s.body, this.refs));
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
