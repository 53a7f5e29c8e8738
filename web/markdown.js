// The tutorial notes' Markdown (assets/tutorials/README.md), parsed as the
// CommonMark spec (version 0.31.2, https://spec.commonmark.org/0.31.2/)
// parses it, for what the notes use: paragraphs, soft and hard line breaks,
// backslash escapes, code spans, emphasis and strong emphasis with * and _,
// and inline links. It is the spec's own algorithm ("Appendix: A parsing
// strategy": the delimiter stack, "process emphasis", "look for link or
// image"), written for this page: `D3D11_MAP_FLAG` and S_OK keep their
// underscores (an underscore inside a word is never emphasis), a code span
// is never split by an emphasis around it.
//
// Left out, on purpose: raw HTML and autolinks (a note's `<b>` is text:
// notes are data, never markup), images, entity references (notes are
// UTF-8: `&amp;` stays as typed), reference links (no definitions).
// tests/browser/markdown.test.mjs runs the spec's examples for code spans,
// emphasis and links from a fetched copy of the spec (the examples that use
// none of the left-out features) and a table of its own.
//
// parseInline returns a tree of plain objects, never HTML: the page builds
// DOM nodes from it (toDOM), the tests serialise it (toHTML).

// Node is one inline: text (text), code (text), softbreak, hardbreak, em,
// strong, link (href, title, children).
class Node {
  constructor(type, text = "") {
    this.type = type;
    this.text = text;
    this.parent = null;
    this.prev = null;
    this.next = null;
    this.first = null;
    this.last = null;
  }

  append(n) {
    n.unlink();
    n.parent = this;
    n.prev = this.last;
    if (this.last) this.last.next = n;
    else this.first = n;
    this.last = n;
  }

  insertAfter(n) {
    n.unlink();
    n.parent = this.parent;
    n.prev = this;
    n.next = this.next;
    if (this.next) this.next.prev = n;
    else if (this.parent) this.parent.last = n;
    this.next = n;
  }

  unlink() {
    if (this.prev) this.prev.next = this.next;
    else if (this.parent) this.parent.first = this.next;
    if (this.next) this.next.prev = this.prev;
    else if (this.parent) this.parent.last = this.prev;
    this.parent = this.prev = this.next = null;
  }

  // plain is the node as a plain object: {type, text} or {type, children}
  // (and href, title for a link).
  plain() {
    if (this.type === "text" || this.type === "code") return { type: this.type, text: this.text };
    if (this.type === "softbreak" || this.type === "hardbreak") return { type: this.type };
    const children = [];
    for (let c = this.first; c; c = c.next) {
      const p = c.plain();
      // Adjacent text merges (a delimiter run that matched nothing is a
      // text node of its own).
      const last = children[children.length - 1];
      if (p.type === "text" && last?.type === "text") last.text += p.text;
      else if (!(p.type === "text" && p.text === "")) children.push(p);
    }
    const out = { type: this.type, children };
    if (this.type === "link") Object.assign(out, { href: this.href, title: this.title });
    return out;
  }
}

// ASCII punctuation: what a backslash escapes.
const ESCAPABLE = /^[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]$/;
// Unicode whitespace and punctuation (the spec's: P and S categories).
const isWhite = (c) => c === "" || /^[\s\p{Zs}]$/u.test(c);
const isPunct = (c) => c !== "" && /^[\p{P}\p{S}]$/u.test(c);
// The characters that start something other than text.
const SPECIAL = /[\n`[\]\\*_]/g;

// LABEL is a link label: up to 999 characters, brackets only escaped.
const LABEL = /^\[((?:[^\\[\]]|\\[\s\S]){0,999})\]/;

// normalizeLabel is how labels match: case-folded, inner whitespace one
// space.
export function normalizeLabel(label) {
  return label.trim().replace(/[ \t\r\n]+/g, " ").toLowerCase().toUpperCase();
}

// unescape resolves backslash escapes (in a link's destination and title).
function unescape(s) {
  return s.replace(/\\([!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~])/g, "$1");
}

// normalizeURI percent-encodes what a URL may not hold as it is, keeping
// %XX sequences (the spec's examples show hrefs so).
export function normalizeURI(uri) {
  let out = "";
  for (let i = 0; i < uri.length; i++) {
    const c = uri[i];
    if (/[A-Za-z0-9;/?:@&=+$,\-_.!~*'()#]/.test(c)) out += c;
    else if (c === "%" && /^[0-9A-Fa-f]{2}$/.test(uri.slice(i + 1, i + 3))) out += c;
    else {
      const cp = uri.codePointAt(i);
      const ch = String.fromCodePoint(cp);
      if (cp > 0xffff) i++;
      try {
        out += encodeURIComponent(ch);
      } catch {
        out += "%EF%BF%BD"; // a lone surrogate: U+FFFD
      }
    }
  }
  return out;
}

// InlineParser parses one paragraph's text (lines joined by "\n").
class InlineParser {
  parse(text, refs) {
    this.refs = refs || new Map();
    this.s = text;
    this.pos = 0;
    this.delims = null; // top of the delimiter stack
    this.brackets = null; // top of the bracket stack
    const root = new Node("root");
    while (this.pos < this.s.length) this.step(root);
    this.processEmphasis(null);
    return root;
  }

  step(block) {
    const c = this.s[this.pos];
    switch (c) {
      case "\n": return this.newline(block);
      case "\\": return this.backslash(block);
      case "`": return this.backticks(block);
      case "*": case "_": return this.delimRun(block, c);
      case "[": {
        this.pos++;
        const n = new Node("text", "[");
        block.append(n);
        if (this.brackets) this.brackets.bracketAfter = true;
        this.brackets = { node: n, index: this.pos, prev: this.brackets, prevDelim: this.delims, active: true, bracketAfter: false };
        return;
      }
      case "]": return this.closeBracket(block);
      default: {
        SPECIAL.lastIndex = this.pos;
        const m = SPECIAL.exec(this.s);
        const end = m ? m.index : this.s.length;
        block.append(new Node("text", this.s.slice(this.pos, end)));
        this.pos = end;
      }
    }
  }

  // newline: a hard break after two spaces (or a backslash), else a soft
  // one; the next line's leading spaces go.
  newline(block) {
    this.pos++;
    const last = block.last;
    let hard = false;
    if (last && last.type === "text" && last.text.endsWith(" ")) {
      hard = / {2,}$/.test(last.text);
      last.text = last.text.replace(/ +$/, "");
    }
    block.append(new Node(hard ? "hardbreak" : "softbreak"));
    while (this.s[this.pos] === " " || this.s[this.pos] === "\t") this.pos++;
  }

  backslash(block) {
    const next = this.s[this.pos + 1] ?? "";
    if (next === "\n") {
      this.pos += 2;
      block.append(new Node("hardbreak"));
      while (this.s[this.pos] === " " || this.s[this.pos] === "\t") this.pos++;
    } else if (ESCAPABLE.test(next)) {
      this.pos += 2;
      block.append(new Node("text", next));
    } else {
      this.pos++;
      block.append(new Node("text", "\\"));
    }
  }

  // backticks: a code span up to a backtick string of the same length,
  // else the backticks are text.
  backticks(block) {
    const open = /^`+/.exec(this.s.slice(this.pos))[0];
    const after = this.pos + open.length;
    const re = /`+/g;
    re.lastIndex = after;
    let m;
    while ((m = re.exec(this.s))) {
      if (m[0].length === open.length) {
        let code = this.s.slice(after, m.index).replace(/\n/g, " ");
        // One space each side goes, when both are there and the span is
        // not all spaces ("`` `a` ``" shows `a`).
        if (code.length >= 2 && code[0] === " " && code[code.length - 1] === " " && /[^ ]/.test(code)) code = code.slice(1, -1);
        block.append(new Node("code", code));
        this.pos = m.index + m[0].length;
        return;
      }
    }
    block.append(new Node("text", open));
    this.pos = after;
  }

  // delimRun pushes a run of * or _ onto the delimiter stack with what it
  // can do (left- and right-flanking, and the underscore's extra rules).
  delimRun(block, c) {
    const start = this.pos;
    while (this.s[this.pos] === c) this.pos++;
    const count = this.pos - start;
    const before = start === 0 ? "" : String.fromCodePoint(this.s.codePointAt(start - 1 - (isLowSurrogate(this.s, start - 1) ? 1 : 0)));
    const after = this.pos >= this.s.length ? "" : String.fromCodePoint(this.s.codePointAt(this.pos));
    const left = !isWhite(after) && (!isPunct(after) || isWhite(before) || isPunct(before));
    const right = !isWhite(before) && (!isPunct(before) || isWhite(after) || isPunct(after));
    let canOpen = left;
    let canClose = right;
    if (c === "_") {
      canOpen = left && (!right || isPunct(before));
      canClose = right && (!left || isPunct(after));
    }
    const node = new Node("text", c.repeat(count));
    block.append(node);
    if (canOpen || canClose) {
      const d = { c, count, orig: count, node, canOpen, canClose, prev: this.delims, next: null };
      if (this.delims) this.delims.next = d;
      this.delims = d;
    }
  }

  removeDelim(d) {
    if (d.prev) d.prev.next = d.next;
    if (d.next) d.next.prev = d.prev;
    else this.delims = d.prev;
  }

  // processEmphasis is the spec's "process emphasis" over the delimiters
  // above bottom.
  processEmphasis(bottom) {
    const openersBottom = new Map();
    let closer = this.delims;
    while (closer && closer.prev !== bottom) closer = closer.prev;
    while (closer) {
      if (!closer.canClose) {
        closer = closer.next;
        continue;
      }
      const key = `${closer.c}${closer.canOpen ? 1 : 0}${closer.orig % 3}`;
      const floor = openersBottom.has(key) ? openersBottom.get(key) : bottom;
      let opener = closer.prev;
      let found = false;
      while (opener && opener !== bottom && opener !== floor) {
        const odd = (closer.canOpen || opener.canClose) && closer.orig % 3 !== 0 && (opener.orig + closer.orig) % 3 === 0;
        if (opener.c === closer.c && opener.canOpen && !odd) {
          found = true;
          break;
        }
        opener = opener.prev;
      }
      const old = closer;
      if (found) {
        const use = closer.count >= 2 && opener.count >= 2 ? 2 : 1;
        opener.count -= use;
        closer.count -= use;
        opener.node.text = opener.node.text.slice(0, opener.node.text.length - use);
        closer.node.text = closer.node.text.slice(0, closer.node.text.length - use);
        const emph = new Node(use === 1 ? "em" : "strong");
        for (let n = opener.node.next; n && n !== closer.node;) {
          const next = n.next;
          emph.append(n);
          n = next;
        }
        opener.node.insertAfter(emph);
        // The delimiters between them are text now.
        for (let d = closer.prev; d && d !== opener;) {
          const p = d.prev;
          this.removeDelim(d);
          d = p;
        }
        if (opener.count === 0) {
          opener.node.unlink();
          this.removeDelim(opener);
        }
        if (closer.count === 0) {
          const next = closer.next;
          closer.node.unlink();
          this.removeDelim(closer);
          closer = next;
        }
      } else {
        closer = closer.next;
        openersBottom.set(key, old.prev);
        if (!old.canOpen) this.removeDelim(old);
      }
    }
    while (this.delims && this.delims !== bottom) this.removeDelim(this.delims);
  }

  // closeBracket is the spec's "look for link or image" (links only): an
  // inline link [text](destination "title") after the nearest active '['.
  closeBracket(block) {
    const close = this.pos;
    this.pos++;
    const opener = this.brackets;
    if (!opener) {
      block.append(new Node("text", "]"));
      return;
    }
    if (!opener.active) {
      this.brackets = opener.prev;
      block.append(new Node("text", "]"));
      return;
    }
    const start = this.pos;
    let link = this.s[this.pos] === "(" ? this.inlineLink() : null;
    if (!link) {
      // A reference link: [text][label], [text][] or [text], when a
      // definition names the label.
      this.pos = start;
      const m = LABEL.exec(this.s.slice(this.pos));
      let label = null;
      if (m && /\S/.test(m[1])) {
        label = m[1];
        this.pos += m[0].length;
      } else if (!opener.bracketAfter) {
        label = this.s.slice(opener.index, close);
        if (m) this.pos += m[0].length; // [text][]
      }
      const def = label !== null ? this.refs.get(normalizeLabel(label)) : undefined;
      if (def) link = def;
    }
    if (!link) {
      this.pos = start;
      this.brackets = opener.prev;
      block.append(new Node("text", "]"));
      return;
    }
    const node = new Node("link");
    node.href = link.href;
    node.title = link.title;
    for (let n = opener.node.next; n;) {
      const next = n.next;
      node.append(n);
      n = next;
    }
    block.append(node);
    this.processEmphasis(opener.prevDelim);
    this.brackets = opener.prev;
    opener.node.unlink();
    // No link inside a link: the '[' before this one cannot open one now.
    for (let b = this.brackets; b; b = b.prev) b.active = false;
  }

  // inlineLink reads "(destination title)" at pos; null if it is not one.
  inlineLink() {
    this.pos++; // (
    this.spnl();
    const href = this.destination();
    if (href === null) return null;
    const sep = this.pos;
    this.spnl();
    let title = "";
    if (this.pos > sep) {
      const t = this.linkTitle();
      if (t !== null) title = t;
      this.spnl();
    }
    if (this.s[this.pos] !== ")") return null;
    this.pos++;
    return { href, title };
  }

  // spnl skips spaces and tabs and at most one line ending.
  spnl() {
    const m = /^[ \t]*(?:\n[ \t]*)?/.exec(this.s.slice(this.pos));
    this.pos += m[0].length;
  }

  destination() {
    const rest = this.s.slice(this.pos);
    const br = /^<((?:[^<>\n\\]|\\.)*)>/.exec(rest);
    if (br) {
      this.pos += br[0].length;
      return normalizeURI(unescape(br[1]));
    }
    if (rest[0] === "<") return null;
    let i = 0;
    let depth = 0;
    for (; i < rest.length; i++) {
      const c = rest[i];
      if (c === "\\" && ESCAPABLE.test(rest[i + 1] ?? "")) i++;
      else if (c === "(") depth++;
      else if (c === ")") {
        if (depth === 0) break;
        depth--;
      } else if (c.charCodeAt(0) <= 0x20 || c === "\x7f") break;
    }
    if (i === 0 && rest[0] !== ")") return null;
    if (depth !== 0) return null;
    this.pos += i;
    return normalizeURI(unescape(rest.slice(0, i)));
  }

  linkTitle() {
    const m = /^(?:"((?:\\[\s\S]|[^\\"])*)"|'((?:\\[\s\S]|[^\\'])*)'|\(((?:\\[\s\S]|[^\\()])*)\))/.exec(this.s.slice(this.pos));
    if (!m) return null;
    const body = m[1] ?? m[2] ?? m[3];
    if (/\n[ \t]*\n/.test(body)) return null; // no blank line in a title
    this.pos += m[0].length;
    return unescape(body);
  }
}

// takeDefinitions reads the link reference definitions a paragraph starts
// with ("[label]: destination 'title'", each ending its line) into refs
// (the first definition of a label wins) and returns the rest of the
// paragraph.
export function takeDefinitions(text, refs) {
  const p = new InlineParser();
  p.s = text;
  p.pos = 0;
  for (;;) {
    const start = p.pos;
    const m = LABEL.exec(p.s.slice(p.pos));
    if (!m || !/\S/.test(m[1]) || p.s[p.pos + m[0].length] !== ":") break;
    p.pos += m[0].length + 1;
    p.spnl();
    const href = p.destination();
    if (href === null) {
      p.pos = start;
      break;
    }
    const beforeTitle = p.pos;
    p.spnl();
    let title = p.pos > beforeTitle ? p.linkTitle() : null;
    const atEnd = () => {
      const e = /^[ \t]*(?:\n|$)/.exec(p.s.slice(p.pos));
      if (e) p.pos += e[0].length;
      return !!e;
    };
    if (title === null || !atEnd()) {
      title = "";
      p.pos = beforeTitle;
      if (!atEnd()) {
        p.pos = start;
        break;
      }
    }
    const key = normalizeLabel(m[1]);
    if (!refs.has(key)) refs.set(key, { href, title });
  }
  return p.s.slice(p.pos);
}

function isLowSurrogate(s, i) {
  const c = s.charCodeAt(i);
  return i > 0 && c >= 0xdc00 && c <= 0xdfff;
}

// parseInline parses a paragraph's text (its lines joined by "\n", the
// first line's leading and the last line's trailing spaces already gone)
// into inline nodes: [{type, text} | {type, children, href?, title?}].
// refs holds the link reference definitions (takeDefinitions).
export function parseInline(text, refs) {
  return new InlineParser().parse(String(text), refs).plain().children;
}

const escapeHTML = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

// toHTML serialises inline nodes as the spec's examples write HTML (the
// tests compare; the page never uses it).
export function toHTML(nodes) {
  let out = "";
  for (const n of nodes) {
    switch (n.type) {
      case "text": out += escapeHTML(n.text); break;
      case "code": out += `<code>${escapeHTML(n.text)}</code>`; break;
      case "softbreak": out += "\n"; break;
      case "hardbreak": out += "<br />\n"; break;
      case "em": out += `<em>${toHTML(n.children)}</em>`; break;
      case "strong": out += `<strong>${toHTML(n.children)}</strong>`; break;
      case "link":
        out += `<a href="${escapeHTML(n.href)}"${n.title ? ` title="${escapeHTML(n.title)}"` : ""}>${toHTML(n.children)}</a>`;
        break;
    }
  }
  return out;
}

// paragraphs splits text into paragraphs as CommonMark does for plain
// lines (blank lines between them; leading spaces of each line and trailing
// ones of the last line dropped) and returns each one's inline text.
export function paragraphs(text) {
  const out = [];
  let cur = [];
  for (const line of String(text).replace(/\r\n?/g, "\n").split("\n")) {
    if (!line.trim()) {
      if (cur.length) out.push(cur.join("\n"));
      cur = [];
      continue;
    }
    cur.push(line.replace(/^[ \t]+/, ""));
  }
  if (cur.length) out.push(cur.join("\n"));
  return out.map((p) => p.replace(/[ \t]+$/, ""));
}

// safeHref says whether a link's destination may become a link in the page
// (web addresses, a fragment, a relative path); anything else (javascript:,
// data:, another scheme) shows as its text only.
export function safeHref(href) {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href)) return /^https?:/i.test(href);
  return true;
}

// toDOM appends inline nodes to parent as DOM nodes: text as text nodes
// (never parsed as HTML); links open in a new tab.
export function toDOM(parent, nodes) {
  const doc = parent.ownerDocument;
  for (const n of nodes) {
    switch (n.type) {
      case "text": parent.append(n.text); break;
      case "softbreak": parent.append("\n"); break;
      case "hardbreak": parent.append(doc.createElement("br")); break;
      case "code": {
        const c = doc.createElement("code");
        c.textContent = n.text;
        parent.append(c);
        break;
      }
      case "em": case "strong": {
        const e = doc.createElement(n.type);
        toDOM(e, n.children);
        parent.append(e);
        break;
      }
      case "link": {
        if (!safeHref(n.href)) {
          toDOM(parent, n.children);
          break;
        }
        const a = doc.createElement("a");
        a.href = n.href;
        if (n.title) a.title = n.title;
        a.target = "_blank";
        a.rel = "noopener";
        toDOM(a, n.children);
        parent.append(a);
        break;
      }
    }
  }
}
