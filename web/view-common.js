// What the panel's views share: making elements (el), the links an event
// or a scenario line shows as (a click selects the event everywhere, or
// jumps the editor to the line: the page sets links.select and links.line),
// and a few readings of the store every view makes.

import { LAYER_NAMES } from "./model.js";

// el makes an element of class cls (when given) holding text (when given).
export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}

// Links: an event (selects it) and a scenario line (jumps the editor).
export const links = { select: () => {}, line: () => {} };

// seqLink is a link to event i (its #seq, or text): a click selects it.
export function seqLink(store, i, text) {
  const a = el("a", "seq-link", text || `#${store.seq(i)}`);
  a.href = "#";
  a.dataset.ev = i;
  a.title = `event ${store.seq(i)}: ${store.name(i)} — select it in every view`;
  a.addEventListener("click", (e) => {
    e.preventDefault();
    e.stopPropagation();
    links.select(i, "link");
  });
  return a;
}

// seqLinkBySeq is seqLink for an event named by its seq; plain text when
// the store does not hold it.
export function seqLinkBySeq(store, seq, text) {
  const i = store.index(seq);
  if (i < 0) return el("span", "muted", text || `#${seq}`);
  return seqLink(store, i, text);
}

// lineLink is a link to a scenario line: a click shows it in the editor.
export function lineLink(line, text) {
  if (!line) return el("span", "muted", "");
  const a = el("a", "line-link", text || `line ${line}`);
  a.href = "#";
  a.title = `scenario line ${line}`;
  a.addEventListener("click", (e) => {
    e.preventDefault();
    e.stopPropagation();
    links.line(line);
  });
  return a;
}

// layerText is event i's layer, "from→to" for a call across layers.
export function layerText(store, i) {
  const f = store.from(i);
  const l = store.layer(i);
  return f && f !== l ? `${LAYER_NAMES[f]}→${LAYER_NAMES[l]}` : LAYER_NAMES[l];
}

// stickToBottom rebuilds box (build) keeping its scroll position, or at the
// end when it was there.
export function stickToBottom(box, build) {
  const atEnd = box.scrollTop + box.clientHeight >= box.scrollHeight - 24;
  const top = box.scrollTop;
  build();
  box.scrollTop = atEnd ? box.scrollHeight : top;
}

// depthBelow is how deep j sits under ancestor a (0: a's child), -1 when j
// is not a descendant.
export function depthBelow(st, j, a) {
  const aseq = st.seq(a);
  let p = st.parent(j);
  for (let d = 0; d < 64 && p; d++) {
    if (p === aseq) return d;
    const pi = st.index(p);
    if (pi < 0) return -1;
    p = st.parent(pi);
  }
  return -1;
}

// plural is a count and its noun, singular for exactly one: "1 call",
// "2 calls", "1,024 events".
export function plural(n, one, many = one + "s") {
  return `${Number(n).toLocaleString("en-US")} ${n === 1 ? one : many}`;
}
