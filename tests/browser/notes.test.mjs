// Every tutorial's notes as the page shows them: the introduction and every
// step rendered by the notes pane (web/tutorial.js, web/markdown.js), their
// visible text compared with the notes' source (assets/tutorials/NN-*.md).
// The words are the source's words in the source's order (a word keeps its
// underscores: D3D11_MAP_FLAG, S_OK), each code span is a <code> with its
// text, and no * or _ of the markup is left on screen (a wildcard's *, as in
// Recycle*, is text).
//
//   cd tests/browser && npm ci && node --test notes.test.mjs
//
// The pane renders each step without running the simulation (show(), not
// go()): tutorials.test.mjs runs the steps.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { ROOT, SERVER_START_TIMEOUT, launch } from "./harness.mjs";

const TUTORIALS = path.join(ROOT, "assets/tutorials");
const names = readdirSync(TUTORIALS).filter((f) => /^\d\d-[\w-]+\.md$/.test(f)).map((f) => f.slice(0, -3)).sort();

// sections reads a tutorial's notes as the format says (assets/tutorials/
// README.md): the introduction, then each "## " step; directive lines
// (@line, @lines, @events) are not text.
function sections(text) {
  const out = [{ title: "", lines: [] }];
  let inCode = false;
  for (const line of text.split("\n")) {
    if (/^```/.test(line)) inCode = !inCode;
    if (!inCode) {
      if (/^#\s/.test(line) && out.length === 1 && !out[0].lines.length) continue;
      const m = /^##\s+(.*)$/.exec(line);
      if (m) {
        out.push({ title: m[1].trim(), lines: [] });
        continue;
      }
      if (out.length > 1 && /^@(lines?|events)\s/.test(line.trim())) continue;
    }
    out.at(-1).lines.push(line);
  }
  return out;
}

// words are the runs of letters, digits and underscores, an underscore at
// either end dropped (it may be _emphasis_ markup); a link's destination
// and a list item's marker are not shown, so they are not words.
function words(text) {
  return (text.match(/[\p{L}\p{N}_]+/gu) || []).map((w) => w.replace(/^_+|_+$/g, "")).filter(Boolean);
}

function sourceWords(lines) {
  const text = lines
    .filter((l) => !/^```/.test(l))
    .map((l) => l.replace(/^\s*(?:[-*]|\d+[.)])\s+/, ""))
    .join("\n")
    .replace(/\]\((?:[^()\s]|\([^()]*\))*(?:\s+"[^"]*")?\)/g, "]");
  return words(text);
}

// codeSpans are the source's code spans, as CommonMark reads them (one
// backtick string to the next of the same length), outside fenced blocks.
function codeSpans(lines) {
  const out = [];
  // Outside the fences: the even parts.
  lines.join("\n").split(/^```.*$/m).forEach((part, i) => {
    if (i % 2) return;
    for (const m of part.matchAll(/(?<!`)(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g)) {
      let c = m[2].replace(/\n/g, " ");
      if (c.length >= 2 && c[0] === " " && c.at(-1) === " " && /[^ ]/.test(c)) c = c.slice(1, -1);
      out.push(c);
    }
  });
  return out;
}

let h = null;
before(async () => {
  h = await launch();
}, { timeout: SERVER_START_TIMEOUT + 60000 });
after(async () => {
  await h?.close();
});

test("there are tutorials' notes to read", () => {
  assert.ok(names.length >= 20, `only ${names.length} notes in ${TUTORIALS}`);
});

test("every tutorial's every step shows the notes' words, code spans and no stray markup", { timeout: 300000 }, async () => {
  const page = await h.openPage(h.baseURL);
  const problems = [];
  let shown = 0;
  for (const name of names) {
    const src = readFileSync(path.join(TUTORIALS, name + ".md"), "utf8");
    const secs = sections(src);
    const t = await page.evaluate((n) => window.d3dsim.tutorial(n), name);
    assert.ok(t, `the page has no tutorial ${name}`);
    assert.equal(t.notes, src, `${name}: the page's notes are the file's`);
    await page.evaluate((n) => {
      const t = window.d3dsim.tutorial(n);
      window.d3dsimUI.tutorial.open(n, t.notes);
    }, name);
    for (let k = 0; k < secs.length; k++) {
      const where = k === 0 ? `${name} introduction` : `${name} step ${k} "${secs[k].title}"`;
      // Show the step as the pane does, without running the simulation.
      const got = await page.evaluate((k) => {
        const pane = window.d3dsimUI.tutorial;
        pane.k = k - 1;
        pane.show();
        const note = document.querySelector("#notes-body .note").cloneNode(true);
        // The step's title, its chips and the introduction's table of
        // contents are the pane's, not the notes' text.
        const title = note.querySelector(".step-title")?.textContent ?? "";
        for (const e of note.querySelectorAll(".step-title, .step-meta, ol.toc")) e.remove();
        const codes = [...note.querySelectorAll("code")].map((c) => c.textContent);
        const plain = note.cloneNode(true);
        for (const c of plain.querySelectorAll("code, pre")) c.replaceWith(" ");
        document.body.append(note, plain);
        const out = { title, text: note.innerText, plain: plain.innerText, codes, visible: note.offsetHeight > 0 };
        note.remove();
        plain.remove();
        return out;
      }, k);
      shown++;
      if (k > 0 && got.title !== secs[k].title) problems.push(`${where}: title ${JSON.stringify(got.title)}`);
      const want = sourceWords(secs[k].lines);
      const have = words(got.text);
      if (want.join(" ") !== have.join(" ")) {
        let i = 0;
        while (i < want.length && want[i] === have[i]) i++;
        problems.push(`${where}: the words differ from word ${i}: the notes say ${JSON.stringify(want.slice(Math.max(0, i - 3), i + 5).join(" "))}, the page shows ${JSON.stringify(have.slice(Math.max(0, i - 3), i + 5).join(" "))}`);
      }
      for (const w of want.filter((w) => /[\p{L}\p{N}]_[\p{L}\p{N}]/u.test(w))) {
        if (!new RegExp(`(^|[^\\p{L}\\p{N}_])${w}($|[^\\p{L}\\p{N}_])`, "u").test(got.text)) problems.push(`${where}: ${w} is not on the page`);
      }
      const spans = codeSpans(secs[k].lines);
      for (const c of spans) if (!got.codes.includes(c)) problems.push(`${where}: the code span ${JSON.stringify(c)} is not a <code> on the page`);
      // Markup left on screen: an _ that is not inside a word, a * that is
      // not a wildcard's (glued to the word before it, as in Recycle*: such
      // a * cannot open emphasis) nor escaped in the source (\*).
      let escaped = (secs[k].lines.join("\n").match(/\\[*_]/g) || []).length;
      for (const m of got.plain.matchAll(/\*+|(?<![\p{L}\p{N}])_+|_+(?![\p{L}\p{N}])/gu)) {
        const before = got.plain[m.index - 1] || " ";
        const after = got.plain[m.index + m[0].length] || " ";
        if (m[0] === "*" && /[\p{L}\p{N}]/u.test(before) && !/[\p{L}\p{N}]/u.test(after)) continue;
        if (escaped-- > 0) continue;
        problems.push(`${where}: a stray ${JSON.stringify(m[0])} in ${JSON.stringify(got.plain.slice(Math.max(0, m.index - 30), m.index + 30))}`);
      }
    }
  }
  console.log(`# ${names.length} tutorials, ${shown} notes pages (introductions and steps) compared with their source`);
  assert.deepEqual(problems, []);
  assert.deepEqual(h.pageErrors, []);
  await page.close();
});
