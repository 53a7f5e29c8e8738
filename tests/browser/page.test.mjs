// Browser tests of the d3dsim page (docs/scenario.md, "Browser", "Links"): the dev
// server (serve.go) serves the page, Debian's headless Chromium opens it
// through playwright-core and the tests drive window.d3dsim.
//
//   cd tests/browser && npm ci && node --test
//
// Needs Go (to build the server and main.wasm) and /usr/bin/chromium
// (apt-get install -y chromium). The pictures docs/ and the README show are
// screenshots.test.mjs's and newcomer-shots.test.mjs's. It prints the
// figures it measures (time to the first frame, the canvas's frames per
// second; the timeline's frame times with a million events are
// screenshots.test.mjs's) without asserting on wall-clock time.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { execFileSync, spawnSync } from "node:child_process";
import path from "node:path";
import { ROOT, SERVER_START_TIMEOUT, WAIT_TIMEOUT, drawsScene, launch, nextFrames, runToEnd, sharing, within } from "./harness.mjs";

// The stage's colours (wasm/main_js.go).
const STAGE_BG = "#0b0e14";
const FRAME_RIM = "#2a313d";

const scenarioFile = path.join(ROOT, "assets/scenarios/hello-triangle.d3ds");
// view switches the panel to a tab.
async function view(page, name) {
  await page.click(`.tabs [data-view="${name}"]`);
  await page.waitForSelector(`.inspector .view[data-view="${name}"]:not([hidden])`);
}

// The pixels hello-triangle expects of its back buffer (every
// "expect pixel bb X Y == #RRGGBBAA" line), read from the scenario so the
// test follows it.
function expectedPixels() {
  const text = readFileSync(scenarioFile, "utf8");
  const out = [...text.matchAll(/^\s*expect\s+pixel\s+bb\s+(\d+)\s+(\d+)\s*==\s*(#[0-9a-fA-F]{8})\b/gm)]
    .map((m) => ({ x: Number(m[1]), y: Number(m[2]), want: m[3].toLowerCase() }));
  assert.ok(out.length > 0, `${scenarioFile} has no "expect pixel bb X Y == #RRGGBBAA" line`);
  return out;
}

// checkPixels asserts d3dsim.pixel gives what the scenario expects.
async function checkPixels(page) {
  for (const { x, y, want } of expectedPixels()) {
    const got = await page.evaluate(([x, y]) => window.d3dsim.pixel(x, y), [x, y]);
    assert.equal(got.toLowerCase(), want, `d3dsim.pixel(${x}, ${y})`);
  }
}

let h = null; // the server and browser (harness.mjs)
let baseURL = "";
let pageErrors = [];
const openPage = (url) => h.openPage(url);

// The tests of the page as it opens share one (harness.mjs sharing); the
// first test is the page's first minutes, and a link's, a damaged link's
// and a tutorial's tests open their own.
const { shared, onShared } = sharing(() => openPage(baseURL));

// countPixels decodes a PNG screenshot in the page and counts the pixels
// unlike the stage's background, and those unlike every colour in plain
// (the background, the frame's rim, the frame's clear colour): the drawing.
async function countPixels(page, png, plain) {
  return page.evaluate(async ({ b64, plain }) => {
    const img = new Image();
    img.src = "data:image/png;base64," + b64;
    await img.decode();
    const c = document.createElement("canvas");
    c.width = img.width;
    c.height = img.height;
    const g = c.getContext("2d");
    g.drawImage(img, 0, 0);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    const rgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
    const cols = plain.map(rgb);
    const near = (i, q) => Math.abs(d[i] - q[0]) <= 6 && Math.abs(d[i + 1] - q[1]) <= 6 && Math.abs(d[i + 2] - q[2]) <= 6;
    let notBackground = 0;
    let drawing = 0;
    for (let i = 0; i < d.length; i += 4) {
      if (!near(i, cols[0])) notBackground++;
      if (!cols.some((q) => near(i, q))) drawing++;
    }
    return { notBackground, drawing, total: d.length / 4 };
  }, { b64: png.toString("base64"), plain });
}

before(async () => {
  h = await launch();
  baseURL = h.baseURL;
  pageErrors = h.pageErrors;
}, { timeout: SERVER_START_TIMEOUT + 60000 });

after(async () => {
  await h?.close();
});

test("the default scenario runs and draws its triangle", { timeout: 120000 }, onShared(async () => {
  const page = await shared();
  const summary = await runToEnd(page);
  assert.equal(summary.done, true, `run did not finish: ${JSON.stringify(summary)}`);
  assert.deepEqual(summary.failures, [], `failures: ${summary.failures.join("\n")}`);
  assert.ok(summary.frames >= 1, `no frame presented: ${JSON.stringify(summary)}`);
  assert.match(summary.hash, /^[0-9a-f]{16}$/);
  // progress() is the summary without the hash (what the panel polls).
  const [progress, again] = await page.evaluate(() => [window.d3dsim.progress(), window.d3dsim.summary()]);
  assert.equal("hash" in progress, false, "progress() carries no hash");
  assert.deepEqual({ ...progress, hash: again.hash }, again);
  assert.equal(again.hash, summary.hash);
  await checkPixels(page);
  assert.equal(await page.evaluate(() => window.d3dsim.pixel(-1, 0)), "");

  // The test hook's other calls.
  const names = await page.evaluate(() => window.d3dsim.scenarios());
  assert.ok(names.includes("hello-triangle"), `scenarios(): ${names}`);
  assert.equal(await page.evaluate(() => window.d3dsim.scenario("hello-triangle")), readFileSync(scenarioFile, "utf8"));
  assert.equal(await page.evaluate(() => window.d3dsim.scenario("no-such-scenario")), null);
  const events = await page.evaluate(() => window.d3dsim.events(0, 5));
  assert.equal(events.length, Math.min(5, summary.events));
  assert.deepEqual(events.map((e) => e.seq), events.map((_, i) => i + 1));
  for (const e of events) assert.ok(e.name && e.kind && e.layer && e.thread, JSON.stringify(e));

  // The panel shows the run: the summary line and the trace list.
  await page.waitForFunction((n) => document.querySelector('#summary [data-k="events"]').textContent === String(n), summary.events);
  assert.equal(await page.inputValue("#source"), readFileSync(scenarioFile, "utf8"));
  // The timeline has its lanes: the app thread, the kernel, the GPU engine.
  await page.waitForFunction(() => window.d3dsimUI && window.d3dsimUI.timeline.laneList.length >= 4);
  const lanes = await page.evaluate(() => window.d3dsimUI.timeline.laneList.map((l) => l.title));
  for (const want of ["main · API", "main · runtime/UMD", "Dxgkrnl / KMD", "GPU 0 engine", "ISR", "DPC"]) {
    assert.ok(lanes.includes(want), `timeline lanes ${JSON.stringify(lanes)} lack ${want}`);
  }

  // The canvas shows the frame: more than the dark stage, and more than the
  // frame's clear colour (the corner pixel): the triangle. Ebitengine draws
  // in an animation frame: look again after each frame, 300 at most.
  const canvas = page.locator("body > canvas");
  await canvas.waitFor();
  const clear = (await page.evaluate(() => window.d3dsim.pixel(0, 0))).slice(0, 7);
  let counts = null;
  for (let i = 0; i < 300; i++) {
    counts = await countPixels(page, await canvas.screenshot(), [STAGE_BG, FRAME_RIM, clear]);
    if (counts.drawing > 500) break;
    await nextFrames(page);
  }
  assert.ok(counts.notBackground > 1000, `the canvas is blank: ${JSON.stringify(counts)}`);
  assert.ok(counts.drawing > 500, `no triangle on the canvas, only background: ${JSON.stringify(counts)}`);

  // The pixel probe: the pointer over the middle of the stage is on the
  // frame's middle pixel, shown with its colour.
  const box = await canvas.boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const size = await page.evaluate(() => window.d3dsim.frameSize());
  const mid = [size.width / 2, size.height / 2];
  await page.waitForFunction((t) => document.getElementById("pixel-text").textContent.startsWith(t), `(${mid[0]}, ${mid[1]}) `);
  assert.equal(await page.textContent("#pixel-text"), `(${mid[0]}, ${mid[1]}) ${await page.evaluate(([x, y]) => window.d3dsim.pixel(x, y), mid)}`);
  await page.mouse.move(0, 0);

  // An idle page draws nothing: with the run done and nothing changing, the
  // stage is not drawn in 30 animation frames (it was drawn every frame
  // before, about a core of headless Chromium's time); a new size draws it.
  await nextFrames(page, 5);
  const before = await page.evaluate(() => window.d3dsim.stageDraws());
  assert.ok(before >= 1, `the stage was never drawn: ${before}`);
  await nextFrames(page, 30);
  assert.equal(await page.evaluate(() => window.d3dsim.stageDraws()), before, "the idle page drew its stage again");
  const viewport = page.viewportSize();
  await page.setViewportSize({ width: viewport.width - 40, height: viewport.height });
  await page.waitForFunction((n) => window.d3dsim.stageDraws() > n, before, { polling: "raf" });
  await page.setViewportSize(viewport);

  const firstFrame = await page.evaluate(() => window.d3dsimUI.firstFrameAt);
  console.log(`# navigation to first presented frame (headless Chromium): ${firstFrame.toFixed(0)} ms`);
}));

test("an idle page does no poll work; a run from the editor or a shortcut still updates the panel", { timeout: 180000 }, onShared(async () => {
  const page = await shared();
  await runToEnd(page);
  // shown: the panel holds the whole run and its summary line says so.
  const shown = () => page.waitForFunction(() => {
    const s = window.d3dsim.summary();
    return s.done && window.d3dsimUI.store.n === s.events &&
      document.querySelector('#summary [data-k="events"]').textContent === s.events.toLocaleString("en-US");
  }, null, { polling: "raf" });
  await shown();
  // The page comes to rest: no poll asked for, Ebiten's loop held by
  // boot.js's gate (web/boot.js stageFrames).
  await page.waitForFunction(() => !window.d3dsimUI.pollPending() && window.__d3dsimStage.idle && window.__d3dsimStage.held !== null,
    null, { polling: "raf" });
  const counts = () => page.evaluate(() => ({
    polls: window.d3dsimUI.polls.n, wakes: window.d3dsimUI.polls.wakes, draws: window.d3dsim.stageDraws(),
    held: window.__d3dsimStage.held !== null, holds: window.__d3dsimStage.holds,
  }));
  const rest = await counts();
  await nextFrames(page, 60);
  // In 60 animation frames: no poll (there was one every 100 ms), no wake,
  // no stage drawn, Ebiten's loop still held (it ran an Update a frame).
  assert.deepEqual(await counts(), rest, "the idle page polled, drew its stage or ran Ebiten's loop");

  // Ctrl+Enter in the editor loads the edited text and plays it: the panel
  // follows to its end, with no call from the test.
  const src = readFileSync(scenarioFile, "utf8").replace("0.1 0.1 0.2 1", "0.3 0.1 0.1 1");
  assert.notEqual(src, readFileSync(scenarioFile, "utf8"));
  const loads = await page.evaluate(() => window.d3dsim.summary().loads);
  const clear = await page.evaluate(() => window.d3dsim.pixel(0, 0));
  await page.fill("#source", src);
  await page.press("#source", "Control+Enter");
  await page.waitForFunction((n) => window.d3dsim.summary().loads === n + 1, loads, { polling: "raf" });
  await shown();
  assert.ok((await counts()).polls > rest.polls, "the editor's run was never polled");
  assert.notEqual(await page.evaluate(() => window.d3dsim.pixel(0, 0)), clear, "the edited clear colour");
  await page.waitForFunction((n) => window.d3dsim.stageDraws() > n, rest.draws, { polling: "raf" });

  // At rest again, Space (the shortcut, outside the editor) replays the
  // finished run: a new load, followed by the panel to its end.
  await page.waitForFunction(() => !window.d3dsimUI.pollPending() && window.__d3dsimStage.idle, null, { polling: "raf" });
  const again = await counts();
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press("Space");
  await page.waitForFunction((n) => window.d3dsim.summary().loads === n + 2, loads, { polling: "raf" });
  await shown();
  assert.ok((await counts()).polls > again.polls, "the shortcut's run was never polled");
}));

test("a bad scenario is refused with LINE:COL", { timeout: 60000 }, onShared(async () => {
  const page = await shared();
  await runToEnd(page);
  const before = await page.evaluate(() => window.d3dsim.summary().hash);
  const bad = "option seed=1\ndev, imm = D3D11CreateDevice\n@@@ not a statement\n";
  const res = await page.evaluate((text) => window.d3dsim.load(text), bad);
  assert.equal(res.ok, false);
  assert.match(res.error, /^3:\d+: \S/, `error: ${res.error}`);
  // Nothing was replaced.
  assert.equal(await page.evaluate(() => window.d3dsim.summary().hash), before);
  assert.equal(
    (await page.evaluate(() => window.d3dsim.load(42))).ok, false, "load(non-string) must fail cleanly",
  );

  // The same through the editor, as you type: the error under the editor
  // and a marker on line 3, nothing loaded.
  await page.fill("#source", bad);
  await page.waitForFunction(() => /^3:\d+: /.test(document.getElementById("error").textContent));
  await page.waitForSelector('.gutter .ln.error[data-line="3"]');
  assert.equal(await page.locator(".gutter .ln.error").count(), 1, "exactly one line marked");
  assert.equal(await page.locator(".backdrop .mark.error").count(), 1);
  assert.equal(await page.evaluate(() => window.d3dsim.summary().hash), before, "typing does not load");
  // Fixing it clears the marker.
  await page.fill("#source", bad.replace("@@@ not a statement", "sc = dev.CreateSwapChain Width=8 Height=8"));
  await page.waitForFunction(() => document.querySelectorAll(".gutter .ln.error").length === 0);
  assert.equal(await page.textContent("#error"), "");
  // An error on another line moves the marker there.
  await page.fill("#source", "option seed=1\n\n\n\n\ndev = D3D11CreateDevice Bogus=1 =\n");
  await page.waitForSelector('.gutter .ln.error[data-line="6"]');
}));

test("a link replays to the same hash", { timeout: 120000 }, onShared(async () => {
  const page = await shared();
  // A scenario of our own, so the link carries something other than the default.
  const src = readFileSync(scenarioFile, "utf8").replace("0.1 0.1 0.2 1", "0.2 0.3 0.1 1");
  const res = await page.evaluate((text) => window.d3dsim.load(text), src);
  assert.equal(res.ok, true, res.error);
  const first = await runToEnd(page);
  const url = await page.evaluate(() => window.d3dsim.link());
  assert.ok(url.startsWith(baseURL + "#s="), `link() = ${url}`);

  const again = await openPage(url);
  assert.equal(await again.evaluate(() => window.d3dsim.notice), "");
  assert.equal(await again.evaluate(() => window.d3dsim.source()), src);
  // The link's page plays on its own, and its panel follows the run to its
  // end with no call from the test (the polls are woken by the run, not by
  // a timer).
  await again.waitForFunction(() => {
    const s = window.d3dsim.summary();
    return s.done && window.d3dsimUI.store.n === s.events &&
      document.querySelector('#summary [data-k="events"]').textContent === s.events.toLocaleString("en-US");
  }, null, { polling: "raf" });
  const second = await runToEnd(again);
  assert.equal(second.hash, first.hash);
  assert.equal(second.events, first.events);
  assert.equal(
    await again.evaluate(() => window.d3dsim.pixel(2, 2)),
    await page.evaluate(() => window.d3dsim.pixel(2, 2)),
  );
  await again.close();
}));

test("stepping grows the command-list view; handles, flow and problems follow the trace", { timeout: 120000 }, onShared(async () => {
  const page = await shared();
  await runToEnd(page);
  const src = readFileSync(path.join(ROOT, "assets/scenarios/command-lists.d3ds"), "utf8");
  assert.equal((await page.evaluate((t) => window.d3dsim.load(t), src)).ok, true);
  await page.evaluate(() => window.d3dsimUI.poll());
  await view(page, "cmdlists");
  const calls = () => page.locator("#cl-contexts .call").count();
  // The view drops the last run's calls when it renders the fresh store.
  await page.waitForFunction(() => document.querySelectorAll("#cl-contexts .call").length === 0);
  let last = 0;
  for (let k = 1; k <= 5; k++) {
    await page.click("#step");
    await page.waitForFunction((n) => document.querySelectorAll("#cl-contexts .call").length > n, last);
    const now = await calls();
    assert.ok(now > last, `step ${k}: ${now} rows, had ${last}`);
    last = now;
  }
  // On to the second ExecuteCommandList: cl was retired and cached, cl2
  // revived its handle (the warm path of "Supporting command lists") and is valid.
  const execLine = src.split("\n").findIndex((l) => /^imm\.ExecuteCommandList cl2/.test(l)) + 1;
  assert.ok(execLine > 0);
  await page.evaluate((n) => window.d3dsim.stepToLine(n), execLine);
  await page.evaluate(() => window.d3dsimUI.poll());
  await page.waitForSelector('#cl-lists tr.cl-row[data-obj="cl2"] .s-valid');
  assert.match(await page.locator('#cl-lists tr.cl-row[data-obj="cl"] .chain').textContent(), /valid.*retired.*cached/);
  await page.locator("#cl-contexts .call", { hasText: "FinishCommandList" }).last().locator(".twisty").click();
  await view(page, "handles");
  await page.waitForSelector("#h-objects table.handles tr[data-handle]");
  await view(page, "cmdlists");

  // Run on to the end: the deferred context's section, the two command
  // lists through the states of "Supporting command lists", cl2 reusing cl's handle.
  await runToEnd(page);
  await page.evaluate(() => window.d3dsimUI.poll());
  await page.waitForSelector('#cl-contexts .ctx[data-ctx="DC1"]');
  await page.waitForSelector('#cl-lists tr.cl-row[data-obj="cl2"]');
  const chain = await page.locator('#cl-lists tr.cl-row[data-obj="cl"] .chain').textContent();
  assert.match(chain, /valid.*retired.*cached/);
  // The panel may render the end of the run a poll later: wait for cl2's last state.
  await page.waitForFunction(() => /valid.*freed/.test(document.querySelector('#cl-lists tr.cl-row[data-obj="cl2"] .chain')?.textContent || ""), null, { timeout: 10000 });
  assert.match(await page.locator('#cl-lists tr.cl-row[data-obj="cl2"] .chain').textContent(), /valid.*freed/);
  // Expand the FinishCommandList call: the DDIs it became.
  const finish = page.locator("#cl-contexts .call", { hasText: "FinishCommandList" }).first();
  await finish.locator(".twisty").click();
  const ddis = await page.locator("#cl-contexts .ddis").first().textContent();
  for (const name of ["CalcPrivateCommandListSize", "CreateCommandList", "RecycleCreateDeferredContext"]) assert.ok(ddis.includes(name), `${name} not in ${ddis}`);

  // Selecting in one view selects everywhere: click the FinishCommandList
  // row; the timeline and the trace show the same event.
  await finish.locator(".call-head").click();
  const sel = await page.evaluate(() => window.d3dsimUI.selected);
  assert.ok(sel >= 0);
  assert.equal(await page.evaluate(() => window.d3dsimUI.timeline.selected), sel);
  assert.equal(await page.evaluate(() => window.d3dsimUI.views.trace.selected), sel);

  await view(page, "handles");
  await page.waitForSelector("#h-objects table.handles tr[data-handle]");
  const live = await page.locator("#h-objects .live").textContent();
  assert.match(live, /0 command lists/);
  assert.ok(await page.locator("#h-objects .chip").count() > 0, "no context-local handle chips");
  // Each IC handle shows its driver part: the size CalcPrivate*Size answered
  // (the UMD's 256 bytes for a resource, 64 for a view).
  const table = await page.locator("#h-objects table.handles").textContent();
  assert.match(table, /driver part/);
  assert.match(table, /CreateResource.*256 B/);
  assert.match(table, /CreateRenderTargetView.*64 B/);
  assert.match(await page.locator("#h-caches").textContent(), /RecycleCreateCommandList/);

  await view(page, "flow");
  await page.waitForSelector("#flow .flow-table");
  assert.match(await page.locator("#flow .flow-head").textContent(), /FinishCommandList/);

  // The flow of a Present: "WDDM operation flow" steps 8..16, across the layers.
  const present = await page.evaluate(() => {
    const st = window.d3dsimUI.store;
    for (let i = 0; i < st.n; i++) if (st.name(i) === "Present" && st.kind(i) === 1 && st.from(i) === 1) return i;
    return -1;
  });
  assert.ok(present >= 0);
  await page.evaluate((i) => window.d3dsimUI.select(i, "test"), present);
  await page.waitForFunction(() => /Present/.test(document.querySelector("#flow .flow-head")?.textContent || ""));
  const steps = await page.locator("#flow .step").allTextContents();
  for (const want of ["8", "9", "10", "13", "14", "15", "16"]) assert.ok(steps.includes(want), `flow steps ${steps} lack ${want}`);

  // Problems: a scenario with a bug switch and a wrong expectation.
  const bug = "option bug=CL-RECYCLE-ERR\n" + src.replace("expect violations == 0", "");
  assert.equal((await page.evaluate((t) => window.d3dsim.load(t), bug)).ok, true);
  await runToEnd(page);
  await page.evaluate(() => window.d3dsimUI.poll());
  await view(page, "problems");
  await page.waitForSelector("#problems .problem.violation");
  assert.match(await page.locator("#problems").textContent(), /CL-RECYCLE-ERR/);
  assert.equal(await page.locator("#problem-count").isHidden(), false);
  // A problem links to its event and its line.
  await page.locator("#problems .problem.violation").first().click();
  const pe = await page.evaluate(() => window.d3dsimUI.store.event(window.d3dsimUI.selected));
  assert.equal(pe.kind, "violation");
  assert.ok(await page.locator(`.gutter .ln.selected[data-line="${pe.line}"]`).count() === 1, "the violation's line is marked");

  await view(page, "trace");
  await page.waitForSelector("#trace-rows .trace-row");
  await view(page, "timeline");
}));

test("step frame stops after a Present; restart, speed and the PNG download", { timeout: 120000 }, onShared(async () => {
  const page = await shared();
  await runToEnd(page);
  const src = readFileSync(path.join(ROOT, "assets/scenarios/spinning-cube.d3ds"), "utf8");
  await page.evaluate((t) => window.d3dsim.load(t), src);
  // Step frame runs in slices (sim.runFrame): wait until the page is idle
  // again (the Play button no longer reads Pause), then count the Presents.
  const stepped = async () => {
    await page.waitForFunction(() => !/Pause/.test(document.getElementById("play").textContent) && window.d3dsim.summary().steps > 0);
    return page.evaluate(() => {
      window.d3dsimUI.poll();
      const st = window.d3dsimUI.store;
      let n = 0;
      for (let i = 0; i < st.n; i++) if (st.name(i) === "Present" && st.kind(i) === 1 && st.from(i) === 1) n++;
      return n;
    });
  };
  // Each Step frame shows the frame it stopped at: the GPU has finished it
  // (the canvas no longer says "no frame yet"; the pixel probe reads it).
  const shown = () => page.evaluate(() => ({ frames: window.d3dsim.summary().frames, px: window.d3dsim.pixel(32, 32) }));
  await page.click("#step-frame");
  assert.equal(await stepped(), 1);
  let s = await shown();
  assert.equal(s.frames, 1, "the first Step frame shows its frame");
  assert.match(s.px, /^#[0-9a-f]{8}$/);
  await page.click("#step-frame");
  assert.equal(await stepped(), 2);
  s = await shown();
  assert.equal(s.frames, 2, "the second Step frame shows its frame");
  await page.click("#restart");
  assert.equal(await page.evaluate(() => window.d3dsim.summary().steps), 0);
  const [dl] = await Promise.all([
    page.waitForEvent("download"),
    (async () => {
      await runToEnd(page);
      await page.click("#download");
      await page.click('#download-menu [data-kind="png"]');
    })(),
  ]);
  assert.equal(dl.suggestedFilename(), "frame.png");
  const file = await dl.path();
  const png = readFileSync(file);
  assert.equal(png.subarray(1, 4).toString(), "PNG");
  // The trace downloads are the CLI's files.
  const events = await page.evaluate(() => window.d3dsim.summary().events);
  for (const [kind, name] of [["jsonl", "trace.jsonl"], ["perfetto", "trace.perfetto.json"]]) {
    const [d] = await Promise.all([
      page.waitForEvent("download"),
      (async () => {
        await page.click("#download");
        await page.click(`#download-menu [data-kind="${kind}"]`);
      })(),
    ]);
    assert.equal(d.suggestedFilename(), name);
    const text = readFileSync(await d.path(), "utf8");
    if (kind === "jsonl") {
      const lines = text.trim().split("\n");
      assert.equal(lines.length, events);
      assert.equal(JSON.parse(lines[0]).seq, 1);
    } else {
      assert.ok(Array.isArray(JSON.parse(text).traceEvents));
    }
  }

  // Canvas frames per second while the cube plays, one API call a frame,
  // with the panel (the timeline) open: 180 animation frames, timed (the
  // work is bounded by frames; the figure is printed, not asserted).
  await page.selectOption("#speed", "1");
  const fps = await page.evaluate(async () => {
    const sim = window.d3dsim;
    const frames = 180;
    let k = 0;
    const t0 = performance.now();
    await new Promise((resolve) => {
      const tick = () => {
        const s = sim.summary();
        if (s.done || !s.playing) {
          sim.restart();
          sim.play();
        }
        if (++k < frames) requestAnimationFrame(tick);
        else resolve();
      };
      sim.restart();
      sim.play();
      requestAnimationFrame(tick);
    });
    return { raf: (frames * 1000) / (performance.now() - t0), ebiten: sim.fps() };
  });
  console.log(`# spinning-cube playing with the panel open: ${fps.ebiten.toFixed(1)} canvas fps (ebiten.ActualFPS), ${fps.raf.toFixed(1)} animation frames/s`);
  // Left as the next test finds the shared page: paused, at full speed.
  await page.selectOption("#speed", "0");
  await page.evaluate(() => window.d3dsim.pause());
}));

// A Step frame whose frame has the pixels the stage shows already uploads
// and draws nothing (wasm/shown.go sameShown: each was an upload, a draw
// and a swap of the canvas, more than a third of Chromium's CPU in the
// draws figure); a new picture is drawn, and the canvas shows each.
test("a Step frame of the picture the stage shows draws nothing; a new picture is drawn", { timeout: 120000 }, onShared(async () => {
  const page = await shared();
  const clear = (c) => `imm.ClearRenderTargetView rtv ${c}\nsc.Present\n`;
  const src = "dev, imm = D3D11CreateDevice\nsc = dev.CreateSwapChain Width=64 Height=64\nbb = sc.GetBuffer 0\n" +
    "rtv = dev.CreateRenderTargetView bb\n" + clear("1 0 0 1") + clear("1 0 0 1") + clear("0 1 0 1");
  assert.equal((await page.evaluate((t) => window.d3dsim.load(t), src)).ok, true);
  const canvas = page.locator("body > canvas");
  // step runs one Step frame (runFrame) and waits until Ebitengine's Update
  // has taken the run's change (the stage's gate is idle again only after
  // an Update that found nothing left to do), then two animation frames.
  const step = async (frames) => {
    const s = await page.evaluate(() => window.d3dsim.runFrame());
    assert.equal(s.frames, frames);
    await page.waitForFunction(() => window.__d3dsimStage.idle, null, { polling: "raf" });
    await nextFrames(page, 2);
    return page.evaluate(() => window.d3dsim.stageDraws());
  };
  // shows counts the canvas's pixels of colour.
  const shows = async (colour) => {
    const c = await countPixels(page, await canvas.screenshot(), [colour]);
    return { n: c.total - c.drawing };
  };
  const red = await step(1);
  const r1 = await shows("#ff0000");
  assert.ok(r1.n > 1000, `the canvas does not show the red frame: ${r1.n} red pixels`);
  assert.equal(await step(2), red, "the same red frame was drawn again");
  const r2 = await shows("#ff0000");
  assert.equal(r2.n, r1.n, "the canvas lost red pixels"); // (not the whole picture: the page's labels overlap the canvas)
  assert.ok(await step(3) > red, "the green frame was not drawn");
  const g = await shows("#00ff00");
  assert.ok(g.n > 1000 && g.n === r1.n, `the canvas shows ${g.n} green pixels, ${r1.n} red before`);
}));

// A played scene whose picture does not change gets a tick (a slice) every
// animation frame, and its stage is not drawn again. The ticks rode
// Ebitengine's Update, which sleeps through a frame that draws nothing
// before it asks for the next: such a scene got a tick every other frame
// (wasm/main_js.go ticker). Counted in the page's own animation frames: at
// 10 calls a tick, 60 frames make 600 calls.
test("a played still scene gets a tick every animation frame and no new stage draw", { timeout: 120000 }, onShared(async () => {
  const page = await shared();
  assert.equal((await page.evaluate((t) => window.d3dsim.load(t), drawsScene({ frames: 1000, draws: 20, size: 64 }))).ok, true);
  const got = await page.evaluate(async () => {
    const sim = window.d3dsim;
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    sim.setSpeed(10);
    sim.play();
    for (let i = 0; i < 10; i++) await frame(); // the ticks start, the first frame is shown
    const s0 = sim.progress().steps;
    const d0 = sim.stageDraws();
    const p0 = sim.pumpSlices();
    for (let i = 0; i < 60; i++) await frame();
    const s1 = sim.progress().steps;
    const d1 = sim.stageDraws();
    const p1 = sim.pumpSlices();
    sim.pause();
    sim.setSpeed(0);
    return { calls: s1 - s0, draws: d1 - d0, pumped: p1 - p0, presented: sim.progress().frames };
  });
  assert.ok(got.presented >= 1, `nothing presented: ${JSON.stringify(got)}`);
  // On a loaded machine two animation frames may be more than 100 ms
  // apart, and the pump then runs a tick's calls of its own (a CI run
  // counted 1,044 calls here, when the pump still ran 2,000 at once).
  const ticked = got.calls - 10 * got.pumped;
  assert.ok(ticked >= 10 * 58 && ticked <= 10 * 62, `${got.calls} calls in 60 animation frames at 10 a tick, ${got.pumped} slices of them the pump's: not a tick a frame`);
  assert.equal(got.draws, 0, "the stage was drawn again for the same picture");
}));

test("share: the button puts the link in the address bar; the link replays the frame", { timeout: 120000 }, onShared(async () => {
  const page = await shared();
  const src = readFileSync(scenarioFile, "utf8").replace("0.1 0.1 0.2 1", "0.3 0.1 0.1 1");
  await page.fill("#source", src);
  await page.click("#share");
  await page.waitForFunction(() => location.hash.startsWith("#s=1."));
  const url = await page.evaluate(() => location.href);
  const first = await runToEnd(page);
  const again = await openPage(url);
  const second = await runToEnd(again);
  assert.equal(await again.evaluate(() => window.d3dsim.source()), src);
  assert.equal(second.hash, first.hash);
  await again.close();
}));

test("a tutorial: notes step by step, lines highlighted, events selected", { timeout: 60000 }, async () => {
  const page = await openPage(baseURL);
  const scen = readFileSync(path.join(ROOT, "tests/browser/testdata/fixture.d3ds"), "utf8");
  const notes = readFileSync(path.join(ROOT, "tests/browser/testdata/fixture.md"), "utf8");
  await page.evaluate(([s, n]) => window.d3dsimUI.openTutorial("fixture", s, n), [scen, notes]);
  await page.waitForSelector("#notes:not([hidden])");
  assert.match(await page.textContent("#notes-title"), /Fixture: a triangle/);
  assert.equal(await page.locator("#notes-body .toc li").count(), 3);
  const expectStep = async (k, lines, event) => {
    await page.waitForFunction((k) => document.getElementById("notes-pos").textContent === `step ${k} of 3`, k);
    const marked = await page.locator(".gutter .ln.focus").evaluateAll((ls) => ls.map((l) => Number(l.dataset.line)));
    assert.deepEqual(marked, lines);
    const e = await page.evaluate(() => window.d3dsimUI.store.event(window.d3dsimUI.selected));
    assert.equal(e.name, event);
    const ran = await page.evaluate(() => window.d3dsimUI.store.lastApiLine);
    assert.equal(ran, lines[lines.length - 1], "the simulation stepped to the end of the step's lines");
  };
  await page.click("#notes-next");
  await expectStep(1, [4], "DxgkDdiCreateDevice");
  await page.click("#notes-next");
  await expectStep(2, [11], "pfnAllocateCb");
  assert.equal(await page.locator("#notes-body li").count(), 2, "the step's list");
  await page.click("#notes-next");
  await expectStep(3, [24, 25], "DxgkDdiPresent");
  assert.equal(await page.locator('#notes-body a[href^="https://"]').count(), 1);
  // Back to step 1: the run restarts and stops after line 4 again.
  await page.click("#notes-prev");
  await page.click("#notes-prev");
  await expectStep(1, [4], "DxgkDdiCreateDevice");
  await page.close();
});

// The timeline with 1,000,000 events (its panning, frame times and a hit
// under the GPU lane) is screenshots.test.mjs's, on the page that draws
// docs/timeline-1m.png: one such trace built in the suite, not two.

// The three long scenarios of the slicing test: a runaway loop of calls
// (stopped by its step budget; 800,013 events, past the cap the test gives
// the panel's store, 100,000: the same code as the default cap of
// 2,000,000 on a run of 2,000,000 calls), a loop of statements that make no
// call, and heavy draws (each Present shades 8 frames of 512x512 pixels, and
// a draw suspends inside itself: yield.go). Each is some 25-100 slices
// (sliceCalls 2,000, sliceStatements 40,000, sliceMillis 25): the property
// holds at that size; the sizes this test ran before (1,000,000 calls,
// 2,000,000 statements, each on a page of its own: 76 s of the suite)
// added time, not cases. The draws keep their 128: with 32 the run ended
// before the page could answer on a quiet machine. The default step budget's runaway loop is core/scenario's
// TestStepBudgetDefault (make soak: to 10,000,000 calls).
const HELD = 100000;
const LONG = {
  // 200,000 Flush calls to the step budget (50,000 ran in 431 ms in a CI
  // run of 2026-11-29's faster Draw path, done before the page's answer).
  flush: "option maxsteps=200000\ndev, imm = D3D11CreateDevice\nrepeat 1000000000 {\n    imm.Flush\n}\n",
  // 4,000,000 statements and no call (1,000,000 took 433 ms in a CI run,
  // done before the page's answer came back from a loaded machine).
  statements: "repeat 4000 {\n    repeat 1000 {\n        expect violations == 0\n    }\n}\n",
  // 256 full-target quads of 512x512: 67 Mpixels (32 ran in 490 ms on a
  // quiet machine, done before the page could ask: the property needs the
  // run to outlast a few turns of the event loop and an evaluate; 128 took
  // 697 ms by 2026-11-29).
  draws: `dev, imm = D3D11CreateDevice
sc = dev.CreateSwapChain Width=512 Height=512
bb = sc.GetBuffer 0
rtv = dev.CreateRenderTargetView bb
vb = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:quad
vs = dev.CreateVertexShader builtin:vs_passthrough
ps = dev.CreatePixelShader builtin:ps_vertexcolor
imm.OMSetRenderTargets rtv
imm.RSSetViewports 0 0 512 512
imm.IASetPrimitiveTopology TRIANGLELIST
imm.IASetVertexBuffers 0 vb
imm.VSSetShader vs
imm.PSSetShader ps
repeat 32 {
    imm.ClearRenderTargetView rtv #202830ff
    repeat 8 {
        imm.Draw 6 0
    }
    sc.Present
}
expect violations == 0
`,
};

// nativeRun runs a scenario with the CLI (`d3dsim run`) and returns its
// summary: frames, events, steps, hash, violations and the failures'
// "LINE:COL: message" (the CLI prints them after FAIL FILE:). The CLI's run
// is bounded (spawnSync's timeout): a hang names it.
function nativeRun(cli, file) {
  const r = spawnSync(cli, ["run", file], { cwd: ROOT, encoding: "utf8", timeout: WAIT_TIMEOUT });
  assert.ok(r.status === 0 || r.status === 1, `d3dsim run ${file}: exit ${r.status} ${r.error ?? ""}\n${r.stdout}${r.stderr}`);
  const field = (k) => (new RegExp(`^${k}: ?(.*)$`, "m").exec(r.stdout) || [])[1] ?? "";
  const failures = [...r.stdout.matchAll(/^FAIL (.*)$/gm)].map((m) => m[1].slice(file.length + 1));
  return {
    frames: Number(field("frames")), events: Number(field("events")), steps: Number(field("steps")),
    violations: Number(field("violations")), hash: field("hash"), failures,
  };
}

// Every wait is bounded and named (within, the harness's bounds): a run
// whose Promise the page never settles fails naming the scenario and the
// step. The bounds are hang detectors, not speed checks: each scenario
// takes a few seconds of a core.
test("long scenarios run in slices, the page keeps responding, and a runaway one is stopped with a message", { timeout: 15 * 60000 }, onShared(async () => {
  const cli = path.join(h.tmp, "d3dsim-cli");
  execFileSync("go", ["build", "-o", cli, "./cmd/d3dsim"], { cwd: ROOT, stdio: "inherit" });
  const page = await shared();
  // The default scenario's run first: nothing else runs beside the watch.
  await runToEnd(page, "the page's scenario before the long ones");
  await page.evaluate((n) => { window.d3dsimUI.store.maxHeld = n; }, HELD);
  for (const [name, text] of Object.entries(LONG)) {
    const file = path.join(h.tmp, `${name}.d3ds`);
    writeFileSync(file, text);
    const want = nativeRun(cli, file);
    const step = (what, p, ms = WAIT_TIMEOUT) => within(`${name}: ${what}`, ms, p);

    assert.equal((await step("load", page.evaluate((t) => window.d3dsim.load(t), text))).ok, true);
    // Start the run and watch the event loop while it goes: long tasks
    // (over 50 ms, PerformanceObserver), the longest gap between two turns
    // of a setTimeout(0) chain, and the turns themselves.
    await step("start the run", page.evaluate(() => {
      Object.assign(window.d3dsimUI.polls, { n: 0, maxMs: 0, totalMs: 0 }); // this run's polls only
      const w = { tasks: [], turns: 0, worst: 0, done: false };
      window.__watch = w;
      w.obs = new PerformanceObserver((l) => { for (const e of l.getEntries()) w.tasks.push(e.duration); });
      w.obs.observe({ type: "longtask" });
      let last = performance.now();
      const probe = () => {
        const now = performance.now();
        w.worst = Math.max(w.worst, now - last);
        last = now;
        w.turns++;
        // What the page sees at its second turn: the run still going (a
        // task of the page's between two slices, as an input's would be;
        // the evaluate below is one too, but its round trip from the test
        // may come after the run's end on a fast machine).
        if (!w.done && w.turns === 2) w.mid = { done: w.done, s: window.d3dsim.summary() };
        if (!w.done) setTimeout(probe, 0);
      };
      setTimeout(() => {
        w.t0 = performance.now();
        w.run = window.d3dsim.run().then((s) => {
          w.ms = performance.now() - w.t0;
          w.done = true;
          w.obs.disconnect();
          return s;
        });
        probe();
      }, 0);
    }));
    // Between slices the page answers: an evaluate, a click on a tab. How
    // soon is the machine's business (a slice of the draws scenario took 2 s
    // at a load average of 37): the harness's bound, not Playwright's 30 s;
    // that the run gave the event loop its turns is asserted below.
    await page.waitForFunction(() => window.__watch.turns >= 3 || window.__watch.done);
    await page.evaluate(() => window.d3dsim.summary()); // the page answers (mid-run or not: the probe's turns say)
    await page.click('.tabs [data-view="trace"]');
    await page.waitForSelector('.inspector .view[data-view="trace"]:not([hidden])');
    await page.click('.tabs [data-view="timeline"]');
    const res = await step("the run's end (d3dsim.run())", page.evaluateUnbounded(async () => {
      const w = window.__watch;
      const s = await w.run;
      return { s, mid: w.mid, ms: w.ms, turns: w.turns, worst: w.worst, n: w.tasks.length, longest: Math.max(0, ...w.tasks), polls: { ...window.d3dsimUI.polls } };
    }));
    console.log(`# ${name}: ${res.s.steps} calls, ${res.s.events} events in ${res.ms.toFixed(0)} ms; ` +
      `${res.n} long tasks, the longest ${res.longest.toFixed(0)} ms; longest gap between event-loop turns ${res.worst.toFixed(0)} ms ` +
      `(${res.turns} turns); panel polls: ${res.polls.n}, the longest ${res.polls.maxMs.toFixed(0)} ms`);

    // The run was still going when the page answered, and it gave the
    // event loop turns (before, a loop of statements ran in one task).
    assert.ok(res.mid, `${name}: run() had finished before the page's second turn`);
    assert.equal(res.mid.done, false, `${name}: run() had finished before the page could answer`);
    assert.equal(res.mid.s.done, false, `${name}: the run was done mid-run`);
    assert.ok(res.turns >= 3, `${name}: ${res.turns} event-loop turns during the run`);
    // The run in slices is the native run.
    assert.equal(res.s.done, true);
    for (const k of ["frames", "events", "steps", "violations", "hash"]) assert.equal(res.s[k], want[k], `${name}: ${k} in the browser vs d3dsim run`);
    assert.deepEqual(res.s.failures, want.failures, `${name}: failures in the browser vs d3dsim run`);

    if (name === "flush") {
      assert.equal(res.s.failures.length, 1, JSON.stringify(res.s.failures));
      assert.match(res.s.failures[0], /^4:\d+: .*step budget of 200000/);
      await page.evaluate(() => window.d3dsimUI.poll());
      await view(page, "problems");
      await page.waitForSelector("#problems .problem.failure");
      assert.match(await page.locator("#problems .problem.failure").textContent(), /budget/);
      assert.match(await page.textContent("#state"), /failed/);
      // 800,013 events (the UMD makes no amortized call between
      // submissions): the panel keeps its cap and says so.
      await page.waitForSelector("#held-note:not([hidden])");
      assert.match(await page.textContent("#held-note"), /100,000 events of 800,013/);
      assert.equal(await page.evaluate(() => window.d3dsimUI.store.n), HELD);
    } else {
      assert.deepEqual(res.s.failures, []);
      await page.waitForFunction((n) => window.d3dsimUI.store.lastSeq === n, res.s.events);
      assert.equal(await page.isHidden("#held-note"), true);
    }
  }
  await page.evaluate(() => { window.d3dsimUI.store.maxHeld = 2000000; });
  assert.deepEqual(pageErrors, [], "uncaught exceptions in the page");
}));

// The timeline's buckets take new items in without sorting all again
// (web/timeline.js Bucket.prepare): filed in any order over many rounds,
// they end in the order a full sort gives.
test("the timeline's buckets merge new items into start order", { timeout: 60000 }, onShared(async () => {
  const page = await shared();
  const bad = await page.evaluate(async () => {
    const { Bucket } = await import("./timeline.js");
    let seed = 7;
    const rnd = (n) => ((seed = (seed * 1103515245 + 12345) % 2147483648) % n);
    const N = 5000;
    const lane = { s: new Float64Array(N), e: new Float64Array(N) };
    for (let i = 0; i < N; i++) {
      lane.s[i] = i * 10 + rnd(3) * (rnd(4) === 0 ? 400 : 5); // mostly in order, some late, equal starts
      lane.e[i] = lane.s[i] + rnd(1000);
    }
    const files = [...Array(N).keys()];
    for (let i = 0; i < N; i++) { // nearby swaps: items filed as they close
      const j = Math.min(N - 1, i + rnd(20));
      [files[i], files[j]] = [files[j], files[i]];
    }
    const b = new Bucket(1);
    const out = [];
    for (let k = 0; k < N;) {
      const round = 1 + rnd(300);
      for (const end = Math.min(N, k + round); k < end; k++) b.add(files[k]);
      b.prepare(lane);
      const want = files.slice(0, k).sort((x, y) => lane.s[x] - lane.s[y] || x - y);
      let m = -Infinity;
      for (let q = 0; q < k; q++) {
        m = Math.max(m, lane.e[want[q]]);
        if (b.ord[q] !== want[q] || b.ss[q] !== lane.s[want[q]] || b.pm[q] !== m) {
          out.push(`after ${k} items, position ${q}: item ${b.ord[q]}, want ${want[q]}`);
          break;
        }
      }
      if (out.length) break;
    }
    return out;
  });
  assert.deepEqual(bad, []);
}));

// The timeline paints when what it shows changed (web/timeline.js plan):
// only the label column's counts when a streaming run's new events are
// right of the view, nothing when nothing changed, all of it when events
// land in view or the view moves (following the trace as it grows, it moves
// every poll). The picture is the one a whole paint gives, pixel for pixel.
test("the timeline paints only what changed, the same picture as a whole paint", { timeout: 240000 }, onShared(async () => {
  const page = await shared();
  const scene = drawsScene({ frames: 40, draws: 20, size: 64 });
  const res = await page.evaluate((t) => window.d3dsim.load(t), scene);
  assert.ok(res.ok, res.error);
  await view(page, "timeline");
  // caught: the panel holds every event and the timeline painted them.
  const caught = (step) => within(step, WAIT_TIMEOUT, page.waitForFunction(() => {
    const ui = window.d3dsimUI;
    const tl = ui.timeline;
    return ui.store.n === window.d3dsim.progress().events && tl.done === ui.store.n && !tl.scheduled && !ui.pollPending();
  }, null, { polling: "raf" }));
  const frames = (n, step) => within(step, WAIT_TIMEOUT, page.evaluate(async (n) => {
    for (let i = 0; i < n; i++) await window.d3dsim.runFrame();
  }, n));
  // counts: the timeline's whole paints, label-column paints and frames
  // that asked and painted nothing;
  // picture: a digest of the canvas's pixels, and then of a whole paint.
  const counts = () => page.evaluate(() => {
    const tl = window.d3dsimUI.timeline;
    return { draws: tl.draws, labelled: tl.labelled, skipped: tl.skipped, memAsks: tl.memAsks, memDone: tl.memDone, resizes: tl.resizes };
  });
  const pictures = () => page.evaluate(() => {
    const tl = window.d3dsimUI.timeline;
    const digest = () => {
      const d = tl.g.getImageData(0, 0, tl.canvas.width, tl.canvas.height).data;
      let h = 2166136261;
      for (let i = 0; i < d.length; i++) h = Math.imul(h ^ d[i], 16777619);
      return (h >>> 0).toString(16);
    };
    const shown = digest();
    tl.painted = null; // forget it: the next paint is whole
    tl.draw();
    return { shown, whole: digest() };
  });
  await frames(4, "the first 4 frames");
  await caught("the panel after 4 frames");

  // Following the trace (the default), every poll that took events moves
  // the view: whole paints.
  let c0 = await counts();
  await frames(3, "3 frames followed");
  await caught("the panel after 3 frames followed");
  let c1 = await counts();
  assert.ok(c1.draws > c0.draws, "the followed timeline never painted the new frames");
  assert.equal(c1.labelled, c0.labelled, "a followed timeline's view moves with every poll: it paints all of it");
  // The frames allocate nothing: the memory lanes are not asked again
  // (web/timeline-model.js memAsk), and they hold the scene's allocations.
  assert.equal(c1.memAsks, c0.memAsks, "the memory lanes were asked for after frames that allocate nothing");
  assert.ok(c1.memDone >= 2, `the memory lanes hold ${c1.memDone} records: the swap chain's and the vertex buffer's allocations at least`);

  // Zoomed onto the run's first frames: the later frames land right of
  // the view, so nothing is painted but the lanes' item counts.
  await page.evaluate(() => {
    const tl = window.d3dsimUI.timeline;
    tl.zoom(1 / 8, 156); // about the left edge of the plot
  });
  await caught("the panel after zooming in");
  let pic = await pictures();
  assert.equal(pic.shown, pic.whole, "the picture after zooming in");
  c0 = await counts();
  await frames(4, "4 frames right of the view");
  await caught("the panel after 4 frames right of the view");
  c1 = await counts();
  // (A resize clears the canvas: a page whose layout moved paints all.)
  assert.ok(c1.draws - c0.draws <= c1.resizes - c0.resizes, "a run streaming right of the view repainted all of it");
  assert.ok(c1.labelled > c0.labelled, "the lanes' counts were never painted");
  pic = await pictures();
  assert.equal(pic.shown, pic.whole, "the picture after frames right of the view differs from a whole paint");

  // The view from the run's start to twice its end: the next frames land
  // in it, and it is painted whole.
  await page.evaluate(() => {
    const tl = window.d3dsimUI.timeline;
    tl.fit();
    tl.zoom(2, 156);
  });
  await caught("the panel after zooming out");
  c0 = await counts();
  await frames(4, "4 frames in view");
  await caught("the panel after 4 frames in view");
  c1 = await counts();
  assert.ok(c1.draws > c0.draws, "frames in view were never painted");
  pic = await pictures();
  assert.equal(pic.shown, pic.whole, "the picture after frames in view differs from a whole paint");

  // Nothing new: frames that ask for a paint paint nothing.
  c0 = await counts();
  await page.evaluate(() => window.d3dsimUI.timeline.request());
  await within("a request with nothing new", WAIT_TIMEOUT, page.waitForFunction((n) => window.d3dsimUI.timeline.skipped > n, c0.skipped, { polling: "raf" }));
  c1 = await counts();
  assert.equal(c1.draws, c0.draws, "a request with nothing new painted");
}));

// A run() in progress when the module exits (out of memory, a failure of
// the Go runtime) holds its resolve inside the module, which never calls it
// again: boot.js settleOnExit settles it with the quiet summary. Without it
// this test waits until its bound ("a run() pending at the exit: not done").
test("a run() pending when the module exits settles, failed, instead of waiting for ever", { timeout: 120000 }, onShared(async () => {
  const page = await shared();
  const got = await within("a run() pending at the exit", 60000, page.evaluate(async () => {
    const { settleOnExit } = await import("./boot.js");
    let exit;
    const exited = new Promise((r) => { exit = r; });
    const d = {
      exited: "the simulator stopped",
      summary: () => ({ done: true, failures: ["the simulator stopped"] }),
      run: () => new Promise(() => {}), // the module's Promise, which it will never settle
      runFrame: () => new Promise(() => {}),
      inspectQuery: () => new Promise(() => {}),
      load: () => ({ ok: true }),
    };
    settleOnExit(d, exited);
    const pending = [d.run(), d.runFrame(), d.inspectQuery("resource", "{}")];
    const plain = d.load("x");
    exit(new Error("exited"));
    return { answers: await Promise.all(pending), plain };
  }));
  assert.deepEqual(got.answers, [
    { done: true, failures: ["the simulator stopped"] },
    { done: true, failures: ["the simulator stopped"] },
    { error: "the simulator stopped" },
  ]);
  assert.deepEqual(got.plain, { ok: true }, "a call that answers at once is left as it is");
}));

test("a damaged link shows a message and the default scenario, without exceptions", { timeout: 60000 }, async () => {
  const page = await openPage(baseURL + "#s=1.this-is-not~a*valid_payload!!");
  const notice = await page.evaluate(() => window.d3dsim.notice);
  assert.match(notice, /link/i);
  await page.waitForSelector("#notice:not([hidden])");
  assert.match(await page.textContent("#notice"), /link/i);
  const summary = await runToEnd(page);
  assert.deepEqual(summary.failures, []);
  await checkPixels(page);
  await page.close();

  assert.deepEqual(pageErrors, [], "uncaught exceptions in the page");
});
