// The scenario editor: a plain <textarea> (the browser's own undo, IME and
// accessibility) with a line-number gutter and a backdrop of line marks
// behind the text: the parse error (checked as you type), a run's failures,
// the tutorial step's lines, the line of the selected event and the line
// last run. Behind the textarea's transparent text, a <pre> shows the same
// text coloured (highlight below). The textarea never wraps, so line N is
// always at (N-1) * line height.
//
// Hand-written, not CodeMirror 6 — decided when the page got its editor:
//   - The page is plain files with no build step; CodeMirror 6 is some 15
//     npm packages that need a bundler, so it would add an npm build script
//     and a vendored, pinned bundle (~150-250 KB minified) to keep current
//     and audit, for a page whose main.wasm already costs 3.7 MB gzipped.
//   - The scenario language is line-based with a one-page grammar
//     (core/scenario/parser.go, lexer.go): colouring it is a small tokenizer
//     (tokens below, about 100 lines), and the checking stays the module's
//     own parser (d3dsim.check), so there is one grammar, not two.
//   - The textarea keeps what the tests and users rely on: the browser's
//     undo, IME, spell-check off, Ctrl+Enter, page.fill in the tests, and
//     the line marks' geometry (line N at (N-1) * line height).
// What CodeMirror would add — folding, autocompletion, multiple cursors,
// search — is not what newcomers asked for; if it is wanted later, this file
// is the one place to swap (app.js and tutorial-steps.js use only value,
// setError, setFailures, mark, reveal and jumpTo).

// KEYWORDS start a statement (parser.go) unless followed by '=' or ','.
const KEYWORDS = new Set(["option", "thread", "repeat", "until", "inject", "expect", "signal", "wait", "hlsl", "fxc"]);
const DATA = new Set(["f32", "u16", "u32", "elem", "mesh", "builtin", "hlsl", "fxc", "bytes"]);
// SOURCE_OPEN is a source block's first line (`hlsl NAME {`, `fxc NAME {`):
// the lines after it are HLSL or C text, coloured as HLSL (hlslLine) up to
// the '}' that balances the '{' (lexer.go's rawBlock: braces in // and /* */
// comments and in strings do not count).
const SOURCE_OPEN = /^[ \t]*(hlsl|fxc)[ \t]+[A-Za-z_][A-Za-z0-9_.-]*[ \t]*\{[ \t\r]*(#.*)?$/;
// The HLSL the editor colours in source blocks (hlslLine): the language's
// keywords, its types (scalars, vectors and matrices by pattern, objects by
// name) and its intrinsic functions ("Intrinsic Functions", HLSL
// reference). Colour only: what the compiler accepts is core/hlsl's.
const HLSL_KEYWORDS = new Set(("break case cbuffer centroid column_major const continue default discard do else " +
  "extern false for groupshared if in inline inout linear namespace nointerpolation noperspective out " +
  "packoffset precise register return row_major sample shared static struct switch tbuffer true typedef " +
  "uniform volatile while").split(" "));
const HLSL_TYPES = new Set(("void bool int uint dword half float double min16float min10float min16int min12int " +
  "min16uint vector matrix string sampler sampler1D sampler2D sampler3D samplerCUBE SamplerState " +
  "SamplerComparisonState Texture1D Texture1DArray Texture2D Texture2DArray Texture2DMS Texture2DMSArray " +
  "Texture3D TextureCube TextureCubeArray Buffer StructuredBuffer ByteAddressBuffer RWBuffer " +
  "RWStructuredBuffer RWByteAddressBuffer RWTexture1D RWTexture2D RWTexture3D AppendStructuredBuffer " +
  "ConsumeStructuredBuffer BYTE").split(" "));
const HLSL_INTRINSICS = new Set(("abs acos all any asdouble asfloat asin asint asuint atan atan2 ceil clamp clip " +
  "cos cosh countbits cross ddx ddx_coarse ddx_fine ddy ddy_coarse ddy_fine degrees determinant distance dot " +
  "dst exp exp2 f16tof32 f32tof16 faceforward firstbithigh firstbitlow floor fma fmod frac frexp fwidth " +
  "isfinite isinf isnan ldexp length lerp lit log log10 log2 mad max min modf msad4 mul noise normalize pow " +
  "radians rcp reflect refract reversebits round rsqrt saturate sign sin sincos sinh smoothstep sqrt step tan " +
  "tanh tex1D tex2D tex3D texCUBE transpose trunc Sample SampleLevel SampleGrad SampleBias SampleCmp " +
  "SampleCmpLevelZero Load GetDimensions Gather").split(" "));
const HLSL_SCALAR = /^(?:bool|int|uint|dword|half|float|double|min16float|min10float|min16int|min12int|min16uint)(?:[1-4](?:x[1-4])?)?$/;

// hlslLine colours one line of a source block whose braces are depth deep
// (inComment: the line starts inside a /* */ comment). It returns the
// line's HTML up to end (the index after the '}' that closes the block, or
// the line's length), the depth after it and whether a comment is open.
// Braces in comments and strings do not count (lexer.go's rawBlock).
// Classes: t-comment, t-string, t-preproc, t-keyword, t-type, t-builtin (an
// intrinsic called), t-semantic (after ':'), t-number, t-op.
export function hlslLine(line, depth, inComment) {
  let html = "";
  let i = 0;
  let prev = ""; // the last significant token
  const directive = /^[ \t]*#[ \t]*[A-Za-z]*/.exec(line); // #define, #if ...
  while (i < line.length && depth > 0) {
    const rest = line.slice(i);
    let m;
    if (inComment) {
      const end = rest.indexOf("*/");
      const n = end < 0 ? rest.length : end + 2;
      html += span("t-comment", rest.slice(0, n));
      i += n;
      if (end >= 0) inComment = false;
      continue;
    }
    if (i === 0 && directive) {
      html += span("t-preproc", directive[0]);
      i += directive[0].length;
      prev = "#";
      continue;
    }
    if (rest.startsWith("//")) {
      html += span("t-comment", rest);
      i = line.length;
      break;
    }
    if (rest.startsWith("/*")) {
      inComment = true;
      html += span("t-comment", "/*");
      i += 2;
      continue;
    }
    if ((m = /^"(?:\\.|[^"\\])*"?/.exec(rest))) {
      html += span("t-string", m[0]);
      i += m[0].length;
      prev = "str";
      continue;
    }
    if ((m = /^[ \t\r]+/.exec(rest))) {
      html += esc(m[0]);
      i += m[0].length;
      continue;
    }
    if ((m = /^(?:0[xX][0-9a-fA-F]+[uUlL]?|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?[fFhHlLuU]?)/.exec(rest))) {
      html += span("t-number", m[0]);
      i += m[0].length;
      prev = "num";
      continue;
    }
    if ((m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(rest))) {
      const w = m[0];
      const call = /^[ \t]*\(/.test(line.slice(i + w.length));
      let cls = "";
      if (prev === ":" && /^[A-Z]/.test(w) && !HLSL_TYPES.has(w)) cls = "t-semantic"; // : POSITION, : SV_Target
      else if (HLSL_KEYWORDS.has(w)) cls = "t-keyword";
      else if (HLSL_TYPES.has(w) || HLSL_SCALAR.test(w)) cls = "t-type";
      else if (call && HLSL_INTRINSICS.has(w)) cls = "t-builtin";
      html += cls ? span(cls, w) : esc(w);
      i += w.length;
      prev = w;
      continue;
    }
    const c = line[i];
    if (c === "{") depth++;
    else if (c === "}") depth--;
    html += /[-+*/%=<>!&|^~?]/.test(c) ? span("t-op", c) : esc(c);
    i++;
    prev = c;
  }
  return { html, end: i, depth, inComment };
}

// MAX_COLOUR is the longest text coloured; past it the editor is plain text
// (a scenario may be 1 MiB; rebuilding its colours on every key would lag).
const MAX_COLOUR = 256 * 1024;

const esc = (t) => t.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const span = (cls, t) => `<span class="${cls}">${esc(t)}</span>`;

// highlight returns the text as HTML with each token in a span of its
// class: t-comment, t-keyword, t-name (an object's name), t-method (after
// '.'), t-key (Key= of Key=Value), t-enum (CAPS), t-number, t-string
// ("text"), t-color (#RRGGBB[AA]), t-data (f32[...], mesh:, builtin:), t-op (= == != < <= > >=
// , |).
// It follows lexer.go's tokens, '#' rule included; what it cannot read it
// leaves plain (the parser reports it).
export function highlight(text) {
  const out = [];
  let inList = false; // inside f32[ ... ] across lines
  let raw = 0; // brace depth inside a source block (0: scenario text)
  let inComment = false; // inside a /* */ comment of a source block
  for (const line of text.split("\n")) {
    if (raw > 0) {
      // HLSL (or the C header of an fxc block) up to the '}' that closes
      // the block; what follows that '}' is scenario text.
      const r = hlslLine(line, raw, inComment);
      raw = r.depth;
      inComment = r.inComment;
      out.push(raw > 0 ? r.html : r.html + esc(line.slice(r.end)));
      continue;
    }
    if (SOURCE_OPEN.test(line)) { raw = 1; inComment = false; }
    const toks = [];
    const re = /([ \t\r]+)|(#)|([A-Za-z_][A-Za-z0-9_.-]*)|([-+]?\.?[0-9][A-Za-z0-9_.+-]*)|(==|!=|<=|>=|[=,|{}\[\]:<>])|("(?:[^"\\]|\\.)*"?)|(.)/g;
    let m;
    while ((m = re.exec(line))) {
      if (m[2]) {
        // A colour: not the line's first token, after a space, tab or '=',
        // 6 or 8 hex digits then the end of the word; else a comment.
        const c = /^#([0-9a-fA-F]{8}|[0-9a-fA-F]{6})(?=[ \t\r]|$)/.exec(line.slice(m.index));
        const prev = line[m.index - 1];
        if (c && toks.some((t) => t.k !== "ws") && (prev === " " || prev === "\t" || prev === "=")) {
          toks.push({ k: "color", t: c[0] });
          re.lastIndex = m.index + c[0].length;
        } else {
          toks.push({ k: "comment", t: line.slice(m.index) });
          break;
        }
      } else if (m[1]) toks.push({ k: "ws", t: m[1] });
      else if (m[3]) toks.push({ k: "word", t: m[3] });
      else if (m[4]) toks.push({ k: "number", t: m[4] });
      else if (m[5]) toks.push({ k: "punct", t: m[5] });
      else if (m[6]) toks.push({ k: "string", t: m[6] });
      else toks.push({ k: "other", t: m[7] });
    }
    out.push(colourLine(toks, inList));
    for (const t of toks) {
      if (t.k === "punct" && t.t === "[") inList = true;
      if (t.k === "punct" && t.t === "]") inList = false;
    }
  }
  return out.join("\n");
}

// colourLine gives one line's tokens their classes.
function colourLine(toks, inList) {
  const sig = toks.map((t, i) => i).filter((i) => toks[i].k !== "ws" && toks[i].k !== "comment");
  const next = (i) => toks[sig[sig.indexOf(i) + 1]];
  const first = sig.length ? sig[0] : -1;
  const keyword = first >= 0 && toks[first].k === "word" && KEYWORDS.has(toks[first].t) &&
    !(next(first) && next(first).k === "punct" && (next(first).t === "=" || next(first).t === ","));
  // A call's left side (names = ...) runs to its first '='.
  const assign = keyword || inList ? -1 : sig.find((i) => toks[i].k === "punct" && toks[i].t === "=");
  let callWord = -1; // the word right after the names' '=', or the first word
  if (!keyword && !inList) {
    const after = assign != null && assign >= 0 ? sig.find((i) => i > assign) : first;
    if (after != null && after >= 0 && toks[after].k === "word") callWord = after;
  }
  let html = "";
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    const n = t.k === "ws" || t.k === "comment" ? null : next(i);
    switch (t.k) {
      case "ws": case "other": html += esc(t.t); break;
      case "comment": html += span("t-comment", t.t); break;
      case "color": html += span("t-color", t.t); break;
      case "number": html += span("t-number", t.t); break;
      case "string": html += span("t-string", t.t); break;
      case "punct":
        html += /^(=|==|!=|<|<=|>|>=|,|\|)$/.test(t.t) ? span("t-op", t.t) : t.t === "[" || t.t === "]" || t.t === ":" ? span("t-data", t.t) : esc(t.t);
        break;
      case "word": {
        const w = t.t;
        if (i === first && keyword) html += span("t-keyword", w);
        else if (assign != null && assign >= 0 && i < assign) html += span("t-name", w);
        else if (i === callWord) {
          const dot = w.indexOf(".");
          html += dot > 0 ? span("t-name", w.slice(0, dot)) + span("t-op", ".") + span("t-method", w.slice(dot + 1)) : span("t-method", w);
        } else if (n && n.k === "punct" && n.t === "=") html += span("t-key", w);
        else if (DATA.has(w) && n && n.k === "punct" && (n.t === "[" || n.t === ":")) html += span("t-data", w);
        else if (toks[i - 1]?.k === "punct" && toks[i - 1].t === ":") html += span("t-data", w);
        else if (/^[A-Z][A-Z0-9_]+$/.test(w)) html += span("t-enum", w);
        else if (/^[a-z]/.test(w) && !keyword) html += span("t-name", w);
        else html += esc(w);
        break;
      }
    }
  }
  return html;
}

export class Editor {
  constructor({ source, gutter, gutterInner, backdropInner, error, cursor, check, highlight }) {
    this.ta = source;
    this.gutter = gutter;
    this.gutterInner = gutterInner;
    this.backdrop = backdropInner;
    this.errorEl = error;
    this.cursorEl = cursor;
    this.check = check; // text -> {ok, error, line, col}
    this.lines = 0;
    this.marks = { error: 0, focus: [0, 0], selected: 0, ran: 0 };
    this.failures = new Map(); // line -> the run's failure messages on it
    this.problems = new Map(); // line -> the run's problems on it (a TDR, a removed device, ...)
    this.problemsKey = "";
    this.failuresKey = "";
    this.hl = highlight || null; // the coloured copy of the text (a <pre>)
    this.errorText = "";
    this.timer = 0;
    this.onChange = () => {};
    this.onCheck = () => {}; // after the text's check (as you type, on a new text)
    this.ta.addEventListener("input", () => {
      this.setFailures([]); // they belong to the text that ran
      this.setProblems([]);
      this.renderColours();
      this.renderGutter();
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.runCheck(), 150);
      this.onChange();
    });
    this.ta.addEventListener("scroll", () => this.syncScroll());
    for (const ev of ["keyup", "click", "select"]) this.ta.addEventListener(ev, () => this.showCursor());
    this.ta.addEventListener("keydown", (e) => {
      if (e.key === "Tab" && !e.shiftKey && !e.ctrlKey && !e.altKey && !e.metaKey) {
        e.preventDefault();
        document.execCommand("insertText", false, "    ");
      }
    });
    this.gutterInner.addEventListener("click", (e) => {
      const ln = e.target.closest(".ln");
      if (ln) this.jumpTo(Number(ln.dataset.line));
    });
    new ResizeObserver(() => this.renderMarks()).observe(this.ta);
  }

  get value() { return this.ta.value; }

  set value(text) {
    if (this.ta.value === text) return;
    this.ta.value = text;
    this.renderColours();
    this.renderGutter();
    this.runCheck();
    this.showCursor();
  }

  lineHeight() {
    return parseFloat(getComputedStyle(this.ta).lineHeight) || 18;
  }

  padTop() {
    return parseFloat(getComputedStyle(this.ta).paddingTop) || 0;
  }

  renderGutter() {
    const n = this.ta.value.split("\n").length;
    if (n !== this.lines) {
      const frag = document.createDocumentFragment();
      for (let i = this.lines + 1; i <= n; i++) {
        const d = document.createElement("div");
        d.className = "ln";
        d.dataset.line = i;
        d.textContent = i;
        frag.append(d);
      }
      if (n > this.lines) this.gutterInner.append(frag);
      else while (this.gutterInner.childElementCount > n) this.gutterInner.lastElementChild.remove();
      this.lines = n;
    }
    this.renderMarks();
  }

  // renderColours redraws the coloured copy of the text.
  renderColours() {
    if (!this.hl) return;
    const text = this.ta.value;
    const on = text.length <= MAX_COLOUR;
    this.ta.classList.toggle("coloured", on);
    this.hl.hidden = !on;
    if (on) this.hl.innerHTML = highlight(text) + "\n";
    this.syncScroll();
  }

  // setProblems marks the run's problems ([{line, text}]: a TDR, a GPU
  // fault, a removed device, a refused shader, a rule violation) on their
  // lines; [] clears them.
  setProblems(list) {
    const key = (list || []).map((p) => `${p.line}:${p.text}`).join("\n");
    if (key === this.problemsKey) return;
    this.problemsKey = key;
    this.problems = new Map();
    for (const p of list || []) {
      if (!p.line) continue;
      this.problems.set(p.line, this.problems.has(p.line) ? this.problems.get(p.line) + "\n" + p.text : p.text);
    }
    this.renderMarks();
  }

  // setFailures marks a run's failures ("LINE:COL: message", the summary's
  // failures) on their lines, like a parse error; [] clears them.
  setFailures(list) {
    const key = (list || []).join("\n");
    if (key === this.failuresKey) return;
    this.failuresKey = key;
    this.failures = new Map();
    for (const f of list || []) {
      const m = /^(\d+):(\d+:)?\s*/.exec(f);
      if (!m) continue;
      const line = Number(m[1]);
      const msg = f.slice(m[0].length);
      this.failures.set(line, this.failures.has(line) ? this.failures.get(line) + "\n" + msg : msg);
    }
    this.renderMarks();
  }

  runCheck() {
    const res = this.check(this.ta.value);
    this.setError(res.ok ? "" : res.error, res.ok ? 0 : res.line);
    this.onCheck();
  }

  // setError shows a "LINE:COL: message" under the editor and marks its
  // line. reveal (a load the user asked for: Play, Step, Share, a pick)
  // scrolls the line into view: an HLSL error is on the block's line, often
  // far above the call being edited. As you type it does not scroll (the
  // browser keeps the caret in view): the message says where the line is.
  setError(text, line, reveal = false) {
    this.errorText = text || "";
    if (!line && text) {
      const m = /^(\d+):/.exec(text);
      line = m ? Number(m[1]) : 0;
    }
    this.marks.error = text ? line : 0;
    this.errorEl.textContent = this.errorText;
    this.errorEl.hidden = !this.errorText;
    this.errorEl.onclick = () => this.jumpTo(this.marks.error);
    this.ta.classList.toggle("has-error", !!text);
    this.renderMarks();
    if (reveal && this.marks.error) this.reveal(this.marks.error);
    this.placeError();
  }

  // placeError tells whether the error's line is above or below the visible
  // lines (the message gets an arrow and says so: a click shows the line).
  placeError() {
    const line = this.marks.error;
    let where = "";
    if (line) {
      const lh = this.lineHeight();
      const top = this.padTop() + (line - 1) * lh;
      if (top + lh <= this.ta.scrollTop) where = "above";
      else if (top >= this.ta.scrollTop + this.ta.clientHeight) where = "below";
    }
    if ((this.errorEl.dataset.where || "") === where) return;
    if (where) this.errorEl.dataset.where = where;
    else delete this.errorEl.dataset.where;
    this.errorEl.title = where ? `Line ${line} is ${where} the visible lines: click to show it` : "Click to show the line";
  }

  // mark sets one kind of mark (a line, or [first, last] for focus).
  // Unchanged, it redraws nothing: the panel's polls set the ran-to line
  // once an animation frame while a run streams, and each redraw rebuilt
  // every mark and made the browser lay the editor out again.
  mark(kind, value) {
    const old = this.marks[kind];
    if (old === value || (Array.isArray(old) && Array.isArray(value) && old.length === value.length && old.every((v, k) => v === value[k]))) return;
    this.marks[kind] = value;
    this.renderMarks();
  }

  renderMarks() {
    const lh = this.lineHeight();
    const top = this.padTop();
    const bars = [];
    const bar = (line, cls, title) => {
      if (!line || line > Math.max(this.lines, 1)) return;
      const d = document.createElement("div");
      d.className = "mark " + cls;
      d.style.top = top + (line - 1) * lh + "px";
      d.style.height = lh + "px";
      if (title) d.title = title;
      bars.push(d);
    };
    const [f0, f1] = this.marks.focus;
    for (let l = f0; l && l <= f1; l++) bar(l, "focus");
    bar(this.marks.ran, "ran");
    bar(this.marks.selected, "selected");
    for (const [line, msg] of this.problems) if (!this.failures.has(line)) bar(line, "problem", msg);
    for (const [line, msg] of this.failures) bar(line, "failure", msg);
    bar(this.marks.error, "error", this.errorText);
    this.backdrop.replaceChildren(...bars);
    for (const ln of this.gutterInner.querySelectorAll(".ln.error, .ln.failure, .ln.problem, .ln.focus, .ln.ran, .ln.selected")) {
      ln.classList.remove("error", "failure", "problem", "focus", "ran", "selected");
      ln.removeAttribute("title");
    }
    const mark = (line, cls, title) => {
      const ln = this.gutterInner.children[line - 1];
      if (!ln) return;
      ln.classList.add(cls);
      if (title) ln.title = title;
    };
    for (let l = f0; l && l <= f1; l++) mark(l, "focus");
    if (this.marks.ran) mark(this.marks.ran, "ran");
    if (this.marks.selected) mark(this.marks.selected, "selected");
    for (const [line, msg] of this.problems) if (!this.failures.has(line)) mark(line, "problem", msg);
    for (const [line, msg] of this.failures) mark(line, "failure", msg);
    if (this.marks.error) mark(this.marks.error, "error", this.errorText);
    this.gutterInner.style.paddingTop = top + "px";
    this.syncScroll();
  }

  syncScroll() {
    if (this.errorText) this.placeError();
    const y = this.ta.scrollTop;
    this.gutterInner.style.transform = `translateY(${-y}px)`;
    this.backdrop.style.transform = `translate(${-this.ta.scrollLeft}px, ${-y}px)`;
    if (this.hl) this.hl.style.transform = `translate(${-this.ta.scrollLeft}px, ${-y}px)`;
  }

  showCursor() {
    const before = this.ta.value.slice(0, this.ta.selectionStart);
    const line = before.split("\n").length;
    const col = before.length - before.lastIndexOf("\n");
    this.cursorEl.textContent = `${line}:${col}`;
  }

  // reveal scrolls line into view without moving the caret.
  reveal(line, lines = 1) {
    const lh = this.lineHeight();
    const top = (line - 1) * lh;
    const h = this.ta.clientHeight;
    if (top < this.ta.scrollTop + lh || top + lines * lh > this.ta.scrollTop + h - lh) {
      this.ta.scrollTop = Math.max(0, top - h / 3);
    }
    this.syncScroll();
  }

  // jumpTo selects line (and column) and scrolls to it.
  jumpTo(line, col) {
    const lines = this.ta.value.split("\n");
    if (!line || line < 1 || line > lines.length) return;
    let start = 0;
    for (let i = 0; i < line - 1; i++) start += lines[i].length + 1;
    const c = col ? Math.min(col - 1, lines[line - 1].length) : 0;
    this.ta.focus({ preventScroll: true });
    this.ta.setSelectionRange(start + c, start + lines[line - 1].length);
    this.reveal(line);
    this.showCursor();
  }
}
