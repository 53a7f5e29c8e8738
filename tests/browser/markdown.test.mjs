// The notes' Markdown (web/markdown.js) against CommonMark: the spec's own
// examples for backslash escapes, code spans, emphasis, links and line
// breaks, run from a copy of the spec fetched beside the tests (it is not
// in the repo: its licence, CC-BY-SA 4.0, is not the project's), and a
// table of cases of our own that runs always. No browser: the parser is a
// plain module.
//
//   ./fetch-commonmark-spec.sh          # once: .cache/commonmark-spec-0.31.2.txt
//   node --test markdown.test.mjs       # COMMONMARK_SPEC=FILE for another copy
//
// Without a copy the spec's part is skipped and says so.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseInline, paragraphs, takeDefinitions, toHTML, safeHref } from "../../web/markdown.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const SPEC_VERSION = "0.31.2";
const SPEC = process.env.COMMONMARK_SPEC || path.join(HERE, ".cache", `commonmark-spec-${SPEC_VERSION}.txt`);

// render is what a note's text becomes, as the spec's examples write it:
// each paragraph a <p>.
// each paragraph a <p>, the link reference definitions gone.
export function render(md) {
  const refs = new Map();
  const rest = paragraphs(md).map((p) => takeDefinitions(p, refs)).filter((p) => p.trim());
  return rest.map((p) => `<p>${toHTML(parseInline(p, refs))}</p>\n`).join("");
}

// The spec's sections the notes' subset covers.
const SECTIONS = ["Backslash escapes", "Code spans", "Emphasis and strong emphasis", "Links", "Hard line breaks", "Soft line breaks", "Textual content"];

// outOfSubset says why an example uses what the notes' Markdown leaves out
// (web/markdown.js), or "".
function outOfSubset(md, html) {
  if (/<(ul|ol|li|h[1-6]|pre|blockquote|hr|table)\b/.test(html)) return "blocks other than paragraphs";
  if (/^ {4}|^\t/m.test(md)) return "blocks other than paragraphs";
  if (/!\[/.test(md)) return "images";
  if (/&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});/.test(md)) return "entity references";
  if (/<[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*>|<[^\s<>@]+@[^\s<>]+>/.test(md)) return "autolinks";
  if (/<\/?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?\/?>|<!--|<\?|<![A-Za-z]|<!\[CDATA\[/.test(md)) return "raw HTML";
  return "";
}

// specExamples reads the spec's examples: {n, section, md, html}.
function specExamples(text) {
  const out = [];
  let section = "";
  let n = 0;
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const h = /^#{1,6} (.*)$/.exec(lines[i]);
    if (h) section = h[1];
    if (!/^`{32} example$/.test(lines[i])) continue;
    n++;
    let j = i + 1;
    const md = [];
    while (lines[j] !== ".") md.push(lines[j++]);
    j++;
    const html = [];
    while (!/^`{32}$/.test(lines[j])) html.push(lines[j++]);
    out.push({ n, section, md: md.join("\n").replace(/→/g, "\t") + "\n", html: html.join("\n").replace(/→/g, "\t") + (html.length ? "\n" : "") });
    i = j;
  }
  return out;
}

test("CommonMark's spec examples for code spans, emphasis, links and line breaks", (t) => {
  if (!existsSync(SPEC)) {
    t.skip(`no copy of the CommonMark spec at ${SPEC} (./fetch-commonmark-spec.sh fetches it)`);
    return;
  }
  const text = readFileSync(SPEC, "utf8");
  assert.match(text, new RegExp(`^version: '${SPEC_VERSION.replace(/\./g, "\\.")}'$`, "m"), `${SPEC} is not version ${SPEC_VERSION} of the spec`);
  const all = specExamples(text).filter((e) => SECTIONS.includes(e.section));
  const bySection = new Map(SECTIONS.map((s) => [s, { run: 0, left: {} }]));
  const failed = [];
  for (const e of all) {
    const s = bySection.get(e.section);
    const why = outOfSubset(e.md, e.html);
    if (why) {
      (s.left[why] ||= []).push(e.n);
      continue;
    }
    s.run++;
    const got = render(e.md);
    if (got !== e.html) failed.push(`example ${e.n} (${e.section}):\n  markdown ${JSON.stringify(e.md)}\n  want     ${JSON.stringify(e.html)}\n  got      ${JSON.stringify(got)}`);
  }
  for (const [name, s] of bySection) {
    const left = Object.entries(s.left).map(([why, ns]) => `${ns.length} use ${why} (${ns.join(" ")})`).join("; ");
    console.log(`# ${name}: ${s.run} examples run${left ? `; left out: ${left}` : ""}`);
  }
  assert.ok(all.length > 250, `only ${all.length} examples found in the spec's sections`);
  assert.deepEqual(failed, [], `${failed.length} of the spec's examples render otherwise`);
});

// The cases the notes need, and what went wrong before (an underscore
// inside an identifier made emphasis; a code span was cut by an emphasis
// around it).
const CASES = [
  ["`D3D11_MAP_FLAG` and D3D11_MAP_FLAG_DO_NOT_WAIT", "<p><code>D3D11_MAP_FLAG</code> and D3D11_MAP_FLAG_DO_NOT_WAIT</p>\n"],
  ["S_OK, E_OUTOFMEMORY and DXGI_ERROR_WAS_STILL_DRAWING", "<p>S_OK, E_OUTOFMEMORY and DXGI_ERROR_WAS_STILL_DRAWING</p>\n"],
  ["D3D11_INPUT_ELEMENT_DESC names\nSemanticName and\nAlignedByteOffset: D3D11_APPEND_ALIGNED_ELEMENT", "<p>D3D11_INPUT_ELEMENT_DESC names\nSemanticName and\nAlignedByteOffset: D3D11_APPEND_ALIGNED_ELEMENT</p>\n"],
  ["_below_ the API, *UMD* and **DDI**", "<p><em>below</em> the API, <em>UMD</em> and <strong>DDI</strong></p>\n"],
  ["_a `b_c` d_", "<p><em>a <code>b_c</code> d</em></p>\n"],
  ["`*not emphasis*` and `_x_`", "<p><code>*not emphasis*</code> and <code>_x_</code></p>\n"],
  ["*a `*` b*", "<p><em>a <code>*</code> b</em></p>\n"],
  ["pfnRenderCb_ and _pfnLockCb", "<p>pfnRenderCb_ and _pfnLockCb</p>\n"],
  ["a * b * c", "<p>a * b * c</p>\n"],
  ["2*3*4", "<p>2<em>3</em>4</p>\n"],
  ["**bold _and em_**", "<p><strong>bold <em>and em</em></strong></p>\n"],
  ["see [the scenario language](../../docs/scenario.md) and [*Links*](https://example.com/a_b \"t\")", '<p>see <a href="../../docs/scenario.md">the scenario language</a> and <a href="https://example.com/a_b" title="t"><em>Links</em></a></p>\n'],
  ["[no link] (here) and [x]", "<p>[no link] (here) and [x]</p>\n"],
  ["a \\*literal\\* star and \\_under\\_", "<p>a *literal* star and _under_</p>\n"],
  ["`` a`b ``", "<p><code>a`b</code></p>\n"],
  ["unclosed `code and *em", "<p>unclosed `code and *em</p>\n"],
  ["<b>not html</b> & more", "<p>&lt;b&gt;not html&lt;/b&gt; &amp; more</p>\n"],
  ["line one  \nline two\\\nline three", "<p>line one<br />\nline two<br />\nline three</p>\n"],
  ["para one\n\n  para two  ", "<p>para one</p>\n<p>para two</p>\n"],
];

test("the notes' own cases", () => {
  for (const [md, html] of CASES) assert.equal(render(md), html, JSON.stringify(md));
});

test("only web addresses and relative paths become links", () => {
  for (const href of ["https://example.com", "http://x", "#step", "../../docs/scenario.md", "05-four-threads.d3ds", "a/b"]) assert.ok(safeHref(href), href);
  for (const href of ["javascript:alert(1)", "JAVASCRIPT:x", "data:text/html,x", "vbscript:x", "file:///etc/passwd"]) assert.ok(!safeHref(href), href);
});

test("no input makes the parser throw or loop", () => {
  let seed = 1;
  const rnd = (n) => ((seed = (seed * 1103515245 + 12345) % 2147483648) % n);
  const alphabet = "ab _*`[]()\\\n<>\"'!&#x";
  for (let k = 0; k < 3000; k++) {
    let s = "";
    for (let i = rnd(60); i > 0; i--) s += alphabet[rnd(alphabet.length)];
    const nodes = parseInline(s);
    // Nothing is lost but the markup: every letter of the input is in the
    // output (a link's in its text, destination or title).
    const count = (t) => [(t.match(/a/g) || []).length, (t.match(/b/g) || []).length];
    const flat = (ns) => ns.map((n) => (n.text ?? "") + (n.children ? flat(n.children) : "") + (n.href ?? "") + (n.title ?? "")).join("");
    assert.deepEqual(count(flat(nodes)), count(s), JSON.stringify(s));
  }
});
