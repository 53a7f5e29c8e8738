// Every tutorial in the browser (issue 7, "Done means"): each tutorial's link,
// as `d3dsim link` prints it (#s=...&t=NAME), opens the page with the
// tutorial's notes; clicking through the steps highlights each step's lines
// and selects one of its events; the scenario then runs to its end with no
// failure and the same frame hash as the native run (`d3dsim run FILE`).
// Also: a link without t= whose text is a tutorial's opens its notes too,
// and a link naming an unknown tutorial says so.
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
let page = null;
let pageClean = false;

for (const name of names) {
  test(`tutorial ${name}: it opens the notes, the steps select their lines and events, the run matches the native one`, { timeout: LIMIT }, async () => {
    const want = native.get(name);
    const notes = notesOf(name);
    assert.ok(want.link.endsWith("&t=" + name), `d3dsim link gives ${want.link}`);
    if (page && pageClean) {
      pageClean = false;
      await page.selectOption("#picker", "t:" + name);
      await page.waitForFunction((title) => document.getElementById("notes-title").textContent === title, notes.title);
    } else {
      await page?.close();
      page = await h.openPage(want.link);
    }
    await page.waitForSelector("#notes:not([hidden])");
    assert.equal(await page.evaluate(() => window.d3dsim.notice), "");
    assert.equal(await page.textContent("#notes-title"), notes.title);
    assert.equal(await page.locator("#notes-body .toc li").count(), notes.steps.length);
    assert.deepEqual(await page.locator("#notes-body .toc li").allTextContents(), notes.steps.map((s) => s.title));
    assert.equal(await page.inputValue("#picker"), "t:" + name);
    const src = readFileSync(path.join(TUTORIALS, name + ".d3ds"), "utf8");
    const threaded = /^\s*thread\s/m.test(src);
    assert.equal(await page.evaluate(() => window.d3dsim.source()), src);
    // Text below the pane's fold is announced ("more below"), and the
    // announcement goes once scrolled to the end.
    const more = () => page.evaluate(() => {
      const b = document.getElementById("notes-body");
      return { overflows: b.scrollHeight > b.clientHeight + 4, more: document.getElementById("notes").classList.contains("below-fold") };
    });
    const m = await more();
    assert.equal(m.more, m.overflows, `${name}: the "more below" mark at the introduction`);
    if (m.overflows) {
      await page.evaluate(() => { const b = document.getElementById("notes-body"); b.scrollTop = b.scrollHeight; });
      await page.waitForFunction(() => !document.getElementById("notes").classList.contains("below-fold"));
    }
    if (SHOTS) {
      mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: path.join(SHOTS, `${name}-00.png`) });
    }

    for (const [k, step] of notes.steps.entries()) {
      await page.click("#notes-next");
      await page.waitForFunction(([k, n]) => document.getElementById("notes-pos").textContent === `step ${k} of ${n}`, [k + 1, notes.steps.length]);
      assert.equal(await page.textContent("#notes-body .step-title"), step.title);
      const where = `${name} step ${k + 1} "${step.title}"`;
      if (step.lines) {
        const [a, b] = step.lines;
        const marked = await page.locator(".gutter .ln.focus").evaluateAll((ls) => ls.map((l) => Number(l.dataset.line)));
        assert.deepEqual(marked, Array.from({ length: b - a + 1 }, (_, i) => a + i), `${where}: highlighted lines`);
        const st = await page.evaluate(([a, b]) => {
          const ui = window.d3dsimUI;
          let own = false;
          for (let i = 0; i < ui.store.n && !own; i++) {
            own = ui.store.line(i) >= a && ui.store.line(i) <= b; // an event of the step's lines
          }
          return { ran: ui.store.lastApiLine, own, ranOn: ui.tutorial.ranOn };
        }, [a, b]);
        if (src.split("\n").slice(a - 1, b).some(isCallLine)) assert.ok(st.own, `${where}: no event of lines ${a}-${b} yet`);
        // The page stops right after the step's lines, unless another
        // thread's later line ran first or it ran on to the step's events.
        if (!threaded && !st.ranOn) assert.ok(st.ran <= b, `${where}: the simulation ran past line ${b} (to ${st.ran})`);
        // When it ran on, the step says so.
        assert.equal(await page.locator("#notes-body .chip.ran-on").count(), st.ranOn ? 1 : 0, `${where}: the "ran on" chip`);
      }
      if (step.events.length) {
        const e = await page.evaluate(() => {
          const ui = window.d3dsimUI;
          return ui.selected >= 0 ? ui.store.event(ui.selected) : null;
        });
        assert.ok(e && step.events.includes(e.name), `${where}: selected ${e && e.name}, want one of ${step.events.join(" ")}`);
        assert.equal(await page.isVisible("#detail"), true, `${where}: the selected event's details are shown`);
        // Each event chip selects its event, once it has happened.
        const chips = page.locator("#notes-body .step-meta .chip.ev");
        assert.deepEqual(await chips.allTextContents(), step.events);
        for (let c = 0; c < step.events.length; c++) {
          const ev = step.events[c];
          await chips.nth(c).click();
          const got = await page.evaluate((ev) => {
            const ui = window.d3dsimUI;
            let seen = false;
            for (let i = 0; i < ui.store.n && !seen; i++) seen = ui.store.name(i) === ev;
            return { seen, sel: ui.selected >= 0 ? ui.store.event(ui.selected).name : "" };
          }, ev);
          if (got.seen) assert.equal(got.sel, ev, `${where}: the ${ev} chip selects its event`);
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
  await page?.close();
  const name = names[0];
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
  const edited = readFileSync(path.join(TUTORIALS, name + ".d3ds"), "utf8").replace("\n", "\n# edited\n");
  page = await h.openPage(h.baseURL);
  assert.equal((await page.evaluate((t) => window.d3dsim.load(t), edited)).ok, true);
  const url = (await page.evaluate(() => window.d3dsim.link())) + "&t=" + name;
  await page.close();
  page = await h.openPage(url);
  await page.waitForSelector("#notes:not([hidden])");
  assert.equal(await page.evaluate(() => window.d3dsim.source()), edited);
  assert.match(await page.textContent("#notice"), /differs/);
  await page.close();

  assert.deepEqual(h.pageErrors, [], "uncaught exceptions in the page");
});
