// The pictures README.md and docs/browser.md show (docs/screenshot.png,
// docs/panel-*.png, docs/timeline-1m.png, docs/timeline-memory.png,
// docs/tutorial.png), each from a
// fixed scenario in a fixed state of the page, at 1280x800. With
// UPDATE_SCREENSHOTS=1 (make screenshots) it writes them; without, it
// compares them with the committed ones and fails when the page draws
// something else (shots.mjs says how). docs/newcomer-*.png are
// newcomer-shots.test.mjs's.
//
//   cd tests/browser && npm ci && node --test screenshots.test.mjs

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { ROOT, SERVER_START_TIMEOUT, launch, runToEnd, nextFrames } from "./harness.mjs";
import { SHOTS, DOCS, shot } from "./shots.mjs";

let h = null;
before(async () => {
  h = await launch();
}, { timeout: SERVER_START_TIMEOUT + 60000 });
after(async () => {
  await h?.close();
});

const text = (rel) => readFileSync(path.join(ROOT, rel), "utf8");

// loadAndRun loads a scenario's text into the page (the editor shows it)
// and runs it to its end.
async function loadAndRun(page, src) {
  const r = await page.evaluate((t) => window.d3dsim.load(t), src);
  assert.equal(r.ok, true, r.error);
  const s = await runToEnd(page);
  await page.evaluate(() => window.d3dsimUI.poll());
  return s;
}

async function view(page, name) {
  await page.click(`.tabs [data-view="${name}"]`);
  await page.waitForSelector(`.inspector .view[data-view="${name}"]:not([hidden])`);
}

// selectCall selects the nth event of an API call named name, once the
// panel's store has it: the summary says done before the panel has polled
// the last events (CI once looked between the two and found no Present).
async function selectCall(page, name, nth = 0) {
  const find = ([name, nth]) => {
    const ui = window.d3dsimUI;
    ui.poll();
    const st = ui.store;
    for (let i = 0; i < st.n; i++) if (st.name(i) === name && st.kind(i) === 1 && st.from(i) === 1 && nth-- === 0) return i;
    return -1;
  };
  await page.waitForFunction(`(${find})(${JSON.stringify([name, nth])}) >= 0`).catch(() => {});
  const i = await page.evaluate(find, [name, nth]);
  assert.ok(i >= 0, `no ${name} call`);
  await page.evaluate((i) => window.d3dsimUI.select(i, "test"), i);
  return i;
}

test("the docs show exactly the pictures the tests make", () => {
  const shown = new Set();
  for (const file of ["README.md", ...readdirSync(DOCS).filter((f) => f.endsWith(".md")).map((f) => "docs/" + f)]) {
    for (const m of text(file).matchAll(/!\[[^\]]*\]\(([^)\s]+\.png)\)/g)) shown.add(path.basename(m[1]));
  }
  assert.deepEqual([...shown].sort(), Object.keys(SHOTS).sort(), "pictures the docs show vs shots.mjs SHOTS");
  const files = readdirSync(DOCS).filter((f) => f.endsWith(".png")).sort();
  assert.deepEqual(files, Object.keys(SHOTS).sort(), "docs/*.png vs shots.mjs SHOTS (a picture no doc shows, or one missing)");
});

test("screenshot.png and the flow and trace views: hello-triangle played, its Present selected", { timeout: 120000 }, async () => {
  const page = await h.openPage(h.baseURL);
  await page.waitForFunction(() => window.d3dsim.summary().done, null, { timeout: 60000 });
  await selectCall(page, "Present");
  await page.waitForFunction(() => /Present/.test(document.getElementById("detail").textContent));
  await shot(page, "screenshot.png");
  await view(page, "flow");
  await page.waitForFunction(() => /Present/.test(document.querySelector("#flow .flow-head")?.textContent || ""));
  await shot(page, "panel-flow.png");
  await view(page, "trace");
  await page.waitForSelector("#trace-rows .trace-row.selected");
  await shot(page, "panel-trace.png");
  await page.close();
});

test("the timeline: spinning-cube's three frames; memory-pressure's memory lanes", { timeout: 120000 }, async () => {
  const page = await h.openPage(h.baseURL);
  const s = await loadAndRun(page, text("assets/scenarios/spinning-cube.d3ds"));
  assert.equal(s.frames, 3);
  await selectCall(page, "Present", 1);
  await page.evaluate(() => { const t = window.d3dsimUI.timeline; t.follow = true; t.fit(); });
  await shot(page, "panel-timeline.png");
  // The same page: memory-pressure, the lanes scrolled to its memory
  // lanes, the paging buffer that evicted a selected (its card below).
  await loadAndRun(page, text("assets/scenarios/memory-pressure.d3ds"));
  await page.waitForFunction(() => {
    const ui = window.d3dsimUI;
    ui.poll();
    ui.timeline.ingestEvents();
    return ui.store.n === window.d3dsim.summary().events && [...ui.timeline.memByEvent.values()].some((m) => m.what === "evicted");
  });
  await page.evaluate(() => {
    const ui = window.d3dsimUI;
    const t = ui.timeline;
    t.follow = false;
    t.fit();
    const [i] = [...t.memByEvent.entries()].find(([, m]) => m.what === "evicted");
    ui.select(i, "test");
  });
  // (once the selection's card has taken its room: the lanes' height)
  await nextFrames(page);
  await page.evaluate(() => {
    const t = window.d3dsimUI.timeline;
    t.scrollY = t.maxScroll();
    t.request();
  });
  assert.ok(await page.evaluate(() => window.d3dsimUI.timeline.lanes.has("mem/kd1/vram")));
  await shot(page, "timeline-memory.png");
  await page.close();
});

test("command lists and handles: command-lists, cl's handle revived for cl2", { timeout: 120000 }, async () => {
  const page = await h.openPage(h.baseURL);
  const src = text("assets/scenarios/command-lists.d3ds");
  await loadAndRun(page, src);
  await view(page, "cmdlists");
  await page.waitForFunction(() => /reused by cl2/.test(document.getElementById("cl-lists").textContent));
  const finish = page.locator("#cl-contexts .call", { hasText: "FinishCommandList" }).last();
  await finish.locator(".twisty").click();
  await finish.locator(".call-head").click();
  await shot(page, "panel-cmdlists.png");
  // The handles at the second ExecuteCommandList: cl2 holds cl's handle.
  const exec = src.split("\n").findIndex((l) => /^imm\.ExecuteCommandList cl2/.test(l)) + 1;
  assert.ok(exec > 0);
  await page.evaluate((n) => { window.d3dsim.restart(); window.d3dsim.stepToLine(n); window.d3dsimUI.poll(); }, exec);
  await view(page, "handles");
  await page.waitForSelector("#h-objects table.handles tr[data-handle]");
  await shot(page, "panel-handles.png");
  await page.close();
});

test("shaders: hlsl-textured's pixel shader, its HLSL, DXBC and GPU ISA", { timeout: 120000 }, async () => {
  const page = await h.openPage(h.baseURL);
  await loadAndRun(page, text("assets/scenarios/hlsl-textured.d3ds"));
  await view(page, "shaders");
  await page.waitForFunction(() => document.querySelectorAll("#sh-list .shader-row").length === 2);
  await page.locator('#sh-list .shader-row[data-obj="ps"]').click();
  await page.waitForFunction(() => /psmain/.test(document.querySelector("#sh-detail .shader-head")?.textContent || ""));
  await shot(page, "panel-shaders.png");
  await page.close();
});

test("problems: tutorial 3 with bug=MAP-HAZARD", { timeout: 120000 }, async () => {
  const page = await h.openPage(h.baseURL);
  const src = text("assets/tutorials/03-map-hazards.d3ds").replace(/^.*\n/, "option bug=MAP-HAZARD\n");
  const s = await loadAndRun(page, src);
  assert.ok(s.violations > 0);
  await view(page, "problems");
  await page.waitForSelector("#problems .problem.violation");
  await page.locator("#problems .problem.violation").first().click();
  await shot(page, "panel-problems.png");
  await page.close();
});

test("a tutorial: 02-draw-is-asynchronous at step 3", { timeout: 120000 }, async () => {
  const page = await h.openPage(h.baseURL);
  await page.selectOption("#picker", "t:02-draw-is-asynchronous");
  await page.waitForSelector("#notes:not([hidden])");
  for (let k = 0; k < 3; k++) await page.click("#notes-next");
  await page.waitForFunction(() => /^step 3 of \d+$/.test(document.getElementById("notes-pos").textContent));
  await shot(page, "tutorial.png");
  await page.close();
});

const stats = (xs) => {
  const a = [...xs].sort((p, q) => p - q);
  const q = (f) => a[Math.min(a.length - 1, Math.floor(f * a.length))];
  return { n: a.length, median: +q(0.5).toFixed(2), p95: +q(0.95).toFixed(2), max: +a[a.length - 1].toFixed(2) };
};

// The suite's one 1,000,000-event trace: the picture, then the timeline
// pans over it (frame times printed, not asserted) and still answers a hit.
test("the timeline with 1,000,000 synthetic events: its picture; it pans (frame times printed, not asserted)", { timeout: 300000 }, async () => {
  const page = await h.openPage(h.baseURL);
  await page.waitForFunction(() => window.d3dsim.summary().done, null, { timeout: 60000 });
  const load = await page.evaluate(() => {
    const t0 = performance.now();
    window.d3dsim.synthetic(1000000);
    const ui = window.d3dsimUI;
    // A poll fetches for a bounded time (web/model.js pull): as many as it takes.
    for (let k = 0; k < 1000 && ui.store.n < 1000000; k++) ui.poll();
    const fetched = performance.now();
    ui.showView("timeline");
    ui.timeline.ingest();
    const ingested = performance.now();
    ui.timeline.follow = true;
    ui.timeline.fit();
    return { n: ui.store.n, fetchMs: fetched - t0, ingestMs: ingested - fetched, items: ui.timeline.laneList.reduce((a, l) => a + l.n, 0) };
  });
  assert.equal(load.n, 1000000);
  console.log(`# 1,000,000 events: fetched as columns in ${load.fetchMs.toFixed(0)} ms, ${load.items} timeline items built in ${load.ingestMs.toFixed(0)} ms`);
  await shot(page, "timeline-1m.png");
  // Whole trace in view (the worst case: every pixel column is dense).
  const wide = await page.evaluate(() => window.d3dsimUI.measurePan(90, 9));
  // Zoomed in to a few frames (labels drawn).
  await page.evaluate(() => { const t = window.d3dsimUI.timeline; t.follow = false; t.t0 = 2e8; t.scale = 60; });
  const near = await page.evaluate(() => window.d3dsimUI.measurePan(90, 9));
  assert.equal(wide.draws.length, 90);
  assert.equal(near.draws.length, 90);
  console.log(`# panning, whole trace in view: draw ms ${JSON.stringify(stats(wide.draws))}, frame interval ms ${JSON.stringify(stats(wide.gaps))}`);
  console.log(`# panning, zoomed in: draw ms ${JSON.stringify(stats(near.draws))}, frame interval ms ${JSON.stringify(stats(near.gaps))}`);
  // Hover and click still answer: what is under the middle of the GPU lane.
  const picked = await page.evaluate(() => {
    const t = window.d3dsimUI.timeline;
    for (const [lane, y] of t.laneY) {
      if (lane.rank !== 2) continue;
      for (let x = 200; x < t.width(); x += 3) {
        const i = t.hit(x, y + 8);
        if (i >= 0) return window.d3dsimUI.store.event(i).name;
      }
    }
    return "";
  });
  assert.ok(picked, "nothing under the GPU lane");
  await page.close();
});

test("the inspector's views: State at a draw, Resource and Pixel at the Present (core/inspect/testdata/layers.d3ds)", { timeout: 180000 }, async () => {
  const page = await h.openPage(h.baseURL);
  await loadAndRun(page, text("core/inspect/testdata/layers.d3ds"));
  await selectCall(page, "Draw", 3);
  await view(page, "state");
  await page.waitForFunction(() => /State of IC/.test(document.querySelector("#st-state .inspect-head")?.textContent || ""));
  await shot(page, "panel-state.png");
  await selectCall(page, "Present");
  await view(page, "state");
  await page.waitForFunction(() => /Present/.test(document.querySelector("#st-state .inspect-head")?.textContent || ""));
  // (the layers' pixel is a flat colour: the picture shot is spinning-cube's back buffer, below)
  await page.locator('#st-state [data-stage="OM"] tr[data-binding="render target 0"] button', { hasText: "view" }).click();
  await page.waitForSelector("#res canvas.texture-canvas");
  const box = await page.locator("#res canvas").boundingBox();
  const scale = await page.evaluate(() => window.d3dsimUI.views.resource.scale());
  await page.mouse.click(box.x + 5.5 * scale, box.y + 7.5 * scale);
  await page.waitForFunction(() => document.querySelectorAll("#px-history .hist-entry").length > 0);
  await page.locator("#px-history .hist-draw").nth(3).locator("button", { hasText: "step shader" }).click();
  await page.waitForFunction(() => document.querySelectorAll("#px-steps .sstep").length > 0);
  await page.locator("#px-steps button", { hasText: "▶" }).click();
  await page.locator("#px-steps button", { hasText: "▶" }).click();
  await shot(page, "panel-pixel.png");
  await page.close();
});

test("the Compare view: hello-triangle against the same with a narrower viewport, at its Draw", { timeout: 180000 }, async () => {
  const page = await h.openPage(h.baseURL);
  await loadAndRun(page, text("assets/scenarios/hello-triangle.d3ds"));
  await loadAndRun(page, text("core/inspect/testdata/hello-narrow.d3ds"));
  await selectCall(page, "Draw");
  await view(page, "compare");
  await page.click("#compare .cmp-go");
  await page.waitForSelector("#compare .cmp-mask");
  await shot(page, "panel-compare.png");
  await page.close();
});

test("the Resource view: spinning-cube's back buffer at its second Present, the texel under the pointer", { timeout: 180000 }, async () => {
  const page = await h.openPage(h.baseURL);
  await loadAndRun(page, text("assets/scenarios/spinning-cube.d3ds"));
  await selectCall(page, "Present", 1);
  await view(page, "state");
  await page.waitForFunction(() => /Present/.test(document.querySelector("#st-state .inspect-head")?.textContent || ""));
  await page.locator('#st-state [data-stage="OM"] tr[data-binding="render target 0"] button', { hasText: "view" }).click();
  await page.waitForSelector("#res canvas.texture-canvas");
  const box = await page.locator("#res canvas").boundingBox();
  const scale = await page.evaluate(() => window.d3dsimUI.views.resource.scale());
  // Mouse events carry whole CSS pixels: the one nearest the texel's middle.
  await page.mouse.move(Math.round(box.x + 64.5 * scale), Math.round(box.y + 60.5 * scale));
  await page.waitForFunction(() => /^64,60: /.test(document.querySelector("#res .texel-under")?.textContent || ""));
  await shot(page, "panel-resource.png");
  await page.close();
});

test("the page threw nothing", () => {
  assert.deepEqual(h.pageErrors, []);
});
