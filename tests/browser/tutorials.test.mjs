// Every tutorial in the browser (issue 7, "Done means"): each tutorial's link,
// as `d3dsim link` prints it (#s=...&t=NAME), opens the page with the
// tutorial's notes; clicking through the steps highlights each step's lines
// and selects one of its events; the scenario then runs to its end with no
// failure and the same frame hash as the native run (`d3dsim run FILE`).
// Also: a link without t= whose text is a tutorial's opens its notes too,
// and a link naming an unknown tutorial says so.
//
// The notes as the page shows them, on the same walk: the introduction and
// every step rendered by the notes pane (web/tutorial.js, web/markdown.js),
// their visible text compared with the notes' source (assets/tutorials/
// NN-*.md). The words are the source's words in the source's order (a word
// keeps its underscores: D3D11_MAP_FLAG, S_OK), each code span is a <code>
// with its text, and no * or _ of the markup is left on screen (a
// wildcard's *, as in Recycle*, is text).
//
//   cd tests/browser && npm ci && node --test
//
// With TUTORIAL_SHOTS=DIR it saves a screenshot of the page at every step
// (DIR/NN-slug-SS.png), for reading the tutorials as a newcomer would.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync, mkdirSync } from "node:fs";
import path from "node:path";
import { ROOT, SERVER_START_TIMEOUT, launch, nextFrames, runToEnd } from "./harness.mjs";

const TUTORIALS = path.join(ROOT, "assets/tutorials");
const SHOTS = process.env.TUTORIAL_SHOTS || "";

// A test's time limit only stops a hung page: a tutorial link plays its
// scenario as it opens (as the default page does) before the steps restart
// it, and on a 2-core machine under a load of 40 one such test took 60 s.
const LIMIT = 180000;

const names = readdirSync(TUTORIALS)
  .filter((f) => /^\d\d-[\w-]+\.d3ds$/.test(f))
  .map((f) => f.replace(/\.d3ds$/, ""))
  .sort();

// notesOf reads a tutorial's title and steps from its notes (the format of
// assets/tutorials/README.md): the step titles, their @line/@lines ranges
// and their @events names.
function notesOf(name) {
  const text = readFileSync(path.join(TUTORIALS, name + ".md"), "utf8");
  const title = /^#\s+(.*)$/m.exec(text)[1].trim();
  const steps = [];
  let inCode = false;
  for (const line of text.split("\n")) {
    if (/^```/.test(line)) inCode = !inCode;
    if (inCode) continue;
    let m;
    if ((m = /^##\s+(.*)$/.exec(line))) steps.push({ title: m[1].trim(), lines: null, events: [] });
    else if (steps.length && (m = /^@lines?\s+(\d+)(?:\s*-\s*(\d+))?\s*$/.exec(line.trim()))) {
      steps.at(-1).lines = [Number(m[1]), Number(m[2] || m[1])];
    } else if (steps.length && (m = /^@events\s+(.*)$/.exec(line.trim()))) {
      steps.at(-1).events.push(...m[1].trim().split(/\s+/));
    }
  }
  return { title, steps };
}

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

// isCallLine: an API call statement, as web/app.js tells them apart.
const isCallLine = (text) => /^\s*(?:\w+\s*(?:,\s*\w+\s*)*=\s*)?(?:\w+\.\w+|D3D11CreateDevice)(?:\s|$)/.test(text || "");

let h = null;
let cli = "";
const native = new Map(); // tutorial -> {hash, frames, events, link}

before(async () => {
  h = await launch();
  // The CLI, built once: each tutorial's native summary and its link.
  cli = path.join(h.tmp, "d3dsim");
  execFileSync("go", ["build", "-o", cli, "./cmd/d3dsim"], { cwd: ROOT, stdio: "inherit" });
  for (const n of names) {
    const file = path.join(TUTORIALS, n + ".d3ds");
    const out = execFileSync(cli, ["run", file], { cwd: ROOT, encoding: "utf8" });
    const field = (k) => new RegExp(`^${k}: (\\S+)$`, "m").exec(out)?.[1];
    assert.match(out, /^ok$/m, `${n}: the native run fails:\n${out}`);
    const link = execFileSync(cli, ["link", file, "--base", h.baseURL], { cwd: ROOT, encoding: "utf8" }).trim();
    native.set(n, { hash: field("hash"), frames: Number(field("frames")), events: Number(field("events")), link });
    // The link carries the tutorial: run from the link, it is the file's run.
    const viaLink = execFileSync(cli, ["run", "--link", link], { cwd: ROOT, encoding: "utf8" });
    for (const k of ["hash", "frames", "events"]) {
      assert.equal(new RegExp(`^${k}: (\\S+)$`, "m").exec(viaLink)?.[1], field(k), `${n}: d3dsim run --link gives another ${k} than d3dsim run FILE:\n${viaLink}`);
    }
  }
}, { timeout: SERVER_START_TIMEOUT + 120000 });

after(async () => {
  await h?.close();
});

test("there are tutorials to test", () => {
  assert.ok(names.length >= 10, `only ${names.length} tutorials in ${TUTORIALS}`);
});

// The tutorials are walked in one page, one after the other, as a reader
// who picks the next one in the picker does: a page open costs 3-8 s of a
// core (the module's download, compilation and start), 35 of them were
// most of this file's time. The first tutorial opens from its link; each
// later one from the picker (the path a reader in the page takes, which
// also shows that one tutorial leaves nothing behind that trips the next).
// A test that fails leaves the page dirty: the next opens a fresh page from
// its own link. Every tutorial's link is checked natively in before(): it
// runs to the same hash, frames and events as the file (`d3dsim run
// --link`, the decoder the page uses), and the link's way into the notes
// is the first tutorial's and the last test's.
//
// A step is one round trip to the page (stepProbe): Next clicked, then what
// the step shows read at once, each event chip clicked and its selection
// read, the notes' text taken. The clicks are the elements' own (the
// listeners a mouse click reaches), each after a check that the element is
// the one a click at its centre would hit, scrolled into view, as
// Playwright's click checks; the tutorial's first step and first chip are
// clicked by Playwright's mouse. (Playwright's click waits for two
// animation frames of a still element and a round trip each: 512 chip and
// 218 step clicks were 740 of the file's 950 s at a load of 20-36.)
let page = null;
let pageClean = false;

// installProbes gives a page the functions the walk reads it with.
const installProbes = (p) => p.evaluate(() => {
  // noteText is the notes pane's text as a reader sees it: the step's
  // title, its chips and the introduction's table of contents are the
  // pane's, not the notes' text.
  window.__noteText = () => {
    const note = document.querySelector("#notes-body .note").cloneNode(true);
    const title = note.querySelector(".step-title")?.textContent ?? "";
    for (const e of note.querySelectorAll(".step-title, .step-meta, ol.toc")) e.remove();
    const codes = [...note.querySelectorAll("code")].map((c) => c.textContent);
    const plain = note.cloneNode(true);
    for (const c of plain.querySelectorAll("code, pre")) c.replaceWith(" ");
    document.body.append(note, plain);
    const out = { title, text: note.innerText, plain: plain.innerText, codes };
    note.remove();
    plain.remove();
    return out;
  };
  // hits: a click at el's centre, once scrolled into view, lands on it.
  window.__hits = (el) => {
    el.scrollIntoView({ block: "nearest", inline: "nearest" });
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1 || el.disabled) return false;
    const t = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !!t && (t === el || el.contains(t));
  };
});

// stepProbe clicks Next (unless clicked already) and reads step k+1 of n:
// its position, title, highlighted lines, the run's state against the
// step's lines, the notes' text, the selected event, then clicks each event
// chip and reads what it selected. { blocked: true }: Next was not the
// element under its centre (a toast over it): nothing was clicked.
const stepProbe = ([click, lines]) => {
  const ui = window.d3dsimUI;
  const $ = (id) => document.getElementById(id);
  if (click) {
    if (!window.__hits($("notes-next"))) return { blocked: true };
    $("notes-next").click();
  }
  const out = {
    pos: $("notes-pos").textContent,
    title: document.querySelector("#notes-body .step-title")?.textContent,
    marked: [...document.querySelectorAll(".gutter .ln.focus")].map((l) => Number(l.dataset.line)),
    ranOnChips: document.querySelectorAll("#notes-body .chip.ran-on").length,
    notes: window.__noteText(),
  };
  if (lines) {
    const [a, b] = lines;
    let own = false;
    for (let i = 0; i < ui.store.n && !own; i++) {
      own = ui.store.line(i) >= a && ui.store.line(i) <= b; // an event of the step's lines
    }
    out.st = { ran: ui.store.lastApiLine, own, ranOn: ui.tutorial.ranOn };
  }
  out.sel = ui.selected >= 0 ? ui.store.event(ui.selected) : null;
  const d = $("detail").getBoundingClientRect();
  out.detail = d.width > 0 && d.height > 0 && getComputedStyle($("detail")).visibility !== "hidden";
  const chips = [...document.querySelectorAll("#notes-body .step-meta .chip.ev")];
  out.chipTexts = chips.map((c) => c.textContent);
  out.chips = chips.map((c) => {
    const ev = c.textContent;
    const hit = window.__hits(c);
    if (hit) c.click();
    let seen = false;
    for (let i = 0; i < ui.store.n && !seen; i++) seen = ui.store.name(i) === ev;
    return { ev, hit, seen, sel: ui.selected >= 0 ? ui.store.event(ui.selected).name : "" };
  });
  return out;
};

// noteProblems compares the notes' text as the page shows it (got, from
// noteText) with the source lines of that section.
function noteProblems(where, sec, got, isStep) {
  const problems = [];
  if (isStep && got.title !== sec.title) problems.push(`${where}: title ${JSON.stringify(got.title)}`);
  const want = sourceWords(sec.lines);
  const have = words(got.text);
  if (want.join(" ") !== have.join(" ")) {
    let i = 0;
    while (i < want.length && want[i] === have[i]) i++;
    problems.push(`${where}: the words differ from word ${i}: the notes say ${JSON.stringify(want.slice(Math.max(0, i - 3), i + 5).join(" "))}, the page shows ${JSON.stringify(have.slice(Math.max(0, i - 3), i + 5).join(" "))}`);
  }
  for (const w of want.filter((w) => /[\p{L}\p{N}]_[\p{L}\p{N}]/u.test(w))) {
    if (!new RegExp(`(^|[^\\p{L}\\p{N}_])${w}($|[^\\p{L}\\p{N}_])`, "u").test(got.text)) problems.push(`${where}: ${w} is not on the page`);
  }
  for (const c of codeSpans(sec.lines)) if (!got.codes.includes(c)) problems.push(`${where}: the code span ${JSON.stringify(c)} is not a <code> on the page`);
  // Markup left on screen: an _ that is not inside a word, a * that is
  // not a wildcard's (glued to the word before it, as in Recycle*: such
  // a * cannot open emphasis) nor escaped in the source (\*).
  let escaped = (sec.lines.join("\n").match(/\\[*_]/g) || []).length;
  for (const m of got.plain.matchAll(/\*+|(?<![\p{L}\p{N}])_+|_+(?![\p{L}\p{N}])/gu)) {
    const before = got.plain[m.index - 1] || " ";
    const after = got.plain[m.index + m[0].length] || " ";
    if (m[0] === "*" && /[\p{L}\p{N}]/u.test(before) && !/[\p{L}\p{N}]/u.test(after)) continue;
    if (escaped-- > 0) continue;
    problems.push(`${where}: a stray ${JSON.stringify(m[0])} in ${JSON.stringify(got.plain.slice(Math.max(0, m.index - 30), m.index + 30))}`);
  }
  return problems;
}

let notesShown = 0;

for (const name of names) {
  test(`tutorial ${name}: it opens the notes, the steps select their lines and events, its notes show their source's text, the run matches the native one`, { timeout: LIMIT }, async () => {
    const want = native.get(name);
    const notes = notesOf(name);
    const md = readFileSync(path.join(TUTORIALS, name + ".md"), "utf8");
    const secs = sections(md);
    assert.equal(secs.length, notes.steps.length + 1, `${name}: the notes' sections`);
    assert.ok(want.link.endsWith("&t=" + name), `d3dsim link gives ${want.link}`);
    if (page && pageClean) {
      pageClean = false;
      await page.selectOption("#picker", "t:" + name);
      await page.waitForFunction((title) => document.getElementById("notes-title").textContent === title, notes.title);
    } else {
      await page?.close();
      page = await h.openPage(want.link);
      await installProbes(page);
    }
    await page.waitForSelector("#notes:not([hidden])");
    const src = readFileSync(path.join(TUTORIALS, name + ".d3ds"), "utf8");
    const threaded = /^\s*thread\s/m.test(src);
    // The introduction, read at once. Text below the pane's fold is
    // announced ("more below"), and the announcement goes once scrolled to
    // the end.
    const intro = await page.evaluate((name) => {
      const b = document.getElementById("notes-body");
      return {
        notice: window.d3dsim.notice,
        title: document.getElementById("notes-title").textContent,
        toc: [...document.querySelectorAll("#notes-body .toc li")].map((li) => li.textContent),
        picker: document.getElementById("picker").value,
        source: window.d3dsim.source(),
        notesFile: window.d3dsim.tutorial(name)?.notes,
        overflows: b.scrollHeight > b.clientHeight + 4,
        more: document.getElementById("notes").classList.contains("below-fold"),
        notes: window.__noteText(),
      };
    }, name);
    assert.equal(intro.notice, "");
    assert.equal(intro.title, notes.title);
    assert.deepEqual(intro.toc, notes.steps.map((s) => s.title));
    assert.equal(intro.picker, "t:" + name);
    assert.equal(intro.source, src);
    assert.equal(intro.notesFile, md, `${name}: the page's notes are the file's`);
    assert.equal(intro.more, intro.overflows, `${name}: the "more below" mark at the introduction`);
    const problems = noteProblems(`${name} introduction`, secs[0], intro.notes, false);
    if (intro.overflows) {
      await page.evaluate(() => { const b = document.getElementById("notes-body"); b.scrollTop = b.scrollHeight; });
      await page.waitForFunction(() => !document.getElementById("notes").classList.contains("below-fold"));
    }
    if (SHOTS) {
      mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: path.join(SHOTS, `${name}-00.png`) });
    }

    let mouseChip = false; // the first chip is clicked by the mouse
    for (const [k, step] of notes.steps.entries()) {
      const where = `${name} step ${k + 1} "${step.title}"`;
      let got = k === 0 ? { blocked: true } : await page.evaluate(stepProbe, [true, step.lines]);
      if (got.blocked) {
        await page.click("#notes-next");
        await page.waitForFunction(([k, n]) => document.getElementById("notes-pos").textContent === `step ${k} of ${n}`, [k + 1, notes.steps.length]);
        got = await page.evaluate(stepProbe, [false, step.lines]);
      }
      assert.equal(got.pos, `step ${k + 1} of ${notes.steps.length}`, where);
      assert.equal(got.title, step.title);
      problems.push(...noteProblems(where, secs[k + 1], got.notes, true));
      if (step.lines) {
        const [a, b] = step.lines;
        assert.deepEqual(got.marked, Array.from({ length: b - a + 1 }, (_, i) => a + i), `${where}: highlighted lines`);
        const st = got.st;
        if (src.split("\n").slice(a - 1, b).some(isCallLine)) assert.ok(st.own, `${where}: no event of lines ${a}-${b} yet`);
        // The page stops right after the step's lines, unless another
        // thread's later line ran first or it ran on to the step's events.
        if (!threaded && !st.ranOn) assert.ok(st.ran <= b, `${where}: the simulation ran past line ${b} (to ${st.ran})`);
        // When it ran on, the step says so.
        assert.equal(got.ranOnChips, st.ranOn ? 1 : 0, `${where}: the "ran on" chip`);
      }
      if (step.events.length) {
        const e = got.sel;
        assert.ok(e && step.events.includes(e.name), `${where}: selected ${e && e.name}, want one of ${step.events.join(" ")}`);
        assert.equal(got.detail, true, `${where}: the selected event's details are shown`);
        // Each event chip selects its event, once it has happened.
        assert.deepEqual(got.chipTexts, step.events);
        for (const [c, chip] of got.chips.entries()) {
          if (!chip.hit || !mouseChip) {
            // Under something (a toast), or the walk's first: Playwright's
            // click, which waits until the chip can be clicked.
            mouseChip = true;
            await page.locator("#notes-body .step-meta .chip.ev").nth(c).click();
            chip.sel = await page.evaluate(() => (window.d3dsimUI.selected >= 0 ? window.d3dsimUI.store.event(window.d3dsimUI.selected).name : ""));
          }
          if (chip.seen) assert.equal(chip.sel, chip.ev, `${where}: the ${chip.ev} chip selects its event`);
        }
      }
      if (SHOTS) {
        const e = await page.evaluate(() => {
          const ui = window.d3dsimUI;
          return { sel: ui.selected >= 0 ? ui.store.event(ui.selected) : null, ran: ui.store.lastApiLine, ranOn: ui.tutorial.ranOn };
        });
        console.log(`# ${where}: lines ${step.lines}, ran to line ${e.ran}${e.ranOn ? ` (ran on to line ${e.ranOn})` : ""}, selected ${e.sel ? `#${e.sel.seq} ${e.sel.name} line ${e.sel.line} ${e.sel.msg || ""} ${e.sel.args || ""}` : "nothing"}`);
        await nextFrames(page); // the canvas views draw in the next animation frame
        await page.screenshot({ path: path.join(SHOTS, `${name}-${String(k + 1).padStart(2, "0")}.png`) });
      }
    }
    assert.equal(await page.isDisabled("#notes-next"), true, "Next is disabled at the last step");
    notesShown += secs.length;
    assert.deepEqual(problems, [], `${name}: the notes as the page shows them`);

    // From wherever the steps left it, the run goes on to the end.
    const s = await runToEnd(page);
    assert.equal(s.done, true, `${name}: the run did not finish: ${JSON.stringify(s)}`);
    assert.deepEqual(s.failures, [], `${name}: failures:\n${s.failures.join("\n")}`);
    assert.equal(s.hash, want.hash, `${name}: frame hash in the browser vs d3dsim run`);
    assert.equal(s.frames, want.frames, `${name}: frames`);
    assert.equal(s.events, want.events, `${name}: events`);
    pageClean = true;
  });
}

test("a link carrying a tutorial's text opens its notes without t=; an unknown t= is reported", { timeout: LIMIT }, async () => {
  const name = names[0];
  // The link of an edited tutorial, from the page the walk leaves (a page
  // of its own when the walk left none).
  const edited = readFileSync(path.join(TUTORIALS, name + ".d3ds"), "utf8").replace("\n", "\n# edited\n");
  if (!page || page.isClosed()) page = await h.openPage(h.baseURL);
  assert.equal((await page.evaluate((t) => window.d3dsim.load(t), edited)).ok, true);
  const url = (await page.evaluate(() => window.d3dsim.link())) + "&t=" + name;
  await page.close();

  const plain = native.get(name).link.replace(/&t=.*$/, "");
  page = await h.openPage(plain);
  await page.waitForSelector("#notes:not([hidden])");
  assert.equal(await page.textContent("#notes-title"), notesOf(name).title);
  await page.close();

  // A t= naming no tutorial: the scenario plays, without notes, and a
  // notice says why.
  page = await h.openPage(plain + "&t=99-no-such-tutorial");
  await page.waitForSelector("#notice:not([hidden])");
  assert.match(await page.textContent("#notice"), /99-no-such-tutorial/);
  assert.equal(await page.isHidden("#notes"), true);
  await page.close();

  // A t= naming a tutorial whose text the link does not carry (an edited
  // tutorial): the notes open over the link's text, with a warning.
  page = await h.openPage(url);
  await page.waitForSelector("#notes:not([hidden])");
  assert.equal(await page.evaluate(() => window.d3dsim.source()), edited);
  assert.match(await page.textContent("#notice"), /differs/);
  await page.close();

  assert.deepEqual(h.pageErrors, [], "uncaught exceptions in the page");
  console.log(`# ${names.length} tutorials, ${notesShown} notes pages (introductions and steps) compared with their source`);
});
