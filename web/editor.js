// The scenario editor: a plain <textarea> (the browser's own undo, IME and
// accessibility) with a line-number gutter and a backdrop of line marks
// behind the text: the parse error (checked as you type), the tutorial
// step's lines, the line of the selected event and the line last run.
// The textarea never wraps, so line N is always at (N-1) * line height.

export class Editor {
  constructor({ source, gutter, gutterInner, backdropInner, error, cursor, check }) {
    this.ta = source;
    this.gutter = gutter;
    this.gutterInner = gutterInner;
    this.backdrop = backdropInner;
    this.errorEl = error;
    this.cursorEl = cursor;
    this.check = check; // text -> {ok, error, line, col}
    this.lines = 0;
    this.marks = { error: 0, focus: [0, 0], selected: 0, ran: 0 };
    this.errorText = "";
    this.timer = 0;
    this.onChange = () => {};
    this.ta.addEventListener("input", () => {
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

  runCheck() {
    const res = this.check(this.ta.value);
    this.setError(res.ok ? "" : res.error, res.ok ? 0 : res.line);
  }

  // setError shows a "LINE:COL: message" under the editor and marks its line.
  setError(text, line) {
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
  }

  mark(kind, value) {
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
    bar(this.marks.error, "error", this.errorText);
    this.backdrop.replaceChildren(...bars);
    for (const ln of this.gutterInner.querySelectorAll(".ln.error, .ln.focus, .ln.ran, .ln.selected")) {
      ln.classList.remove("error", "focus", "ran", "selected");
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
    if (this.marks.error) mark(this.marks.error, "error", this.errorText);
    this.gutterInner.style.paddingTop = top + "px";
    this.syncScroll();
  }

  syncScroll() {
    const y = this.ta.scrollTop;
    this.gutterInner.style.transform = `translateY(${-y}px)`;
    this.backdrop.style.transform = `translate(${-this.ta.scrollLeft}px, ${-y}px)`;
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
