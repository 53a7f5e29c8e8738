// The page's Shaders view: the shaders a run created, each one's HLSL, DXBC
// listing and GPU ISA side by side, and the draws that ran it (a click
// selects the draw in every view).
//
//   cd tests/browser && node --test shaders.test.mjs

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { SERVER_START_TIMEOUT, launch, runToEnd } from "./harness.mjs";

let h = null; // the server and browser (harness.mjs)

before(async () => {
  h = await launch();
}, { timeout: SERVER_START_TIMEOUT + 60000 });

after(async () => {
  await h?.close();
});

const col = (page, kind) => page.locator(`#sh-detail .shader-col[data-col="${kind}"]`).textContent();
const code = (page, kind) => page.locator(`#sh-detail .shader-col[data-col="${kind}"] .shader-text`).textContent();

test("the Shaders view shows HLSL, DXBC and ISA side by side and links the draws", { timeout: 120000 }, async () => {
  const page = await h.openPage(h.baseURL + "#demo=hlsl-textured");
  assert.match(await page.evaluate(() => window.d3dsim.source()), /hlsl imgui \{/);

  // A #demo= link plays at once, as the default page does: Restart goes
  // back to the start, paused.
  await page.waitForSelector("#restart:not([disabled])");
  await page.click("#restart");
  await page.waitForFunction(() => { const s = window.d3dsim.summary(); return s.steps === 0 && !s.playing; });
  await page.evaluate(() => window.d3dsimUI.poll());
  // The 4 key shows the fourth tab, Shaders (outside the editor). Before
  // the run, no shader; the view follows the run as the panel polls.
  await page.locator(".tabs").click();
  await page.keyboard.press("4");
  await page.waitForSelector('.inspector .view[data-view="shaders"]:not([hidden])');
  assert.equal(await page.locator('.tabs [data-view="shaders"]').getAttribute("aria-selected"), "true");
  assert.match(await page.locator("#sh-list").textContent(), /No shader yet/);
  await runToEnd(page);
  await page.evaluate(() => window.d3dsimUI.poll());

  const rows = page.locator("#sh-list .shader-row");
  await page.waitForFunction(() => document.querySelectorAll("#sh-list .shader-row").length === 2);
  assert.deepEqual(await rows.evaluateAll((rs) => rs.map((r) => r.dataset.obj)), ["vs", "ps"]);
  assert.match(await rows.nth(1).textContent(), /ps.*HLSL.*1/);

  // The pixel shader: its HLSL, its listing as fxc /Fc writes it, and the
  // program the UMD made of it.
  await rows.nth(1).click();
  await page.waitForFunction(() => /psmain/.test(document.querySelector("#sh-detail .shader-head")?.textContent || ""));
  const hlsl = await col(page, "hlsl");
  assert.match(hlsl, /Texture2D texture0/);
  assert.match(hlsl, /\.Sample\(sampler0, input\.uv\)/);
  // Its first line is the block's in the scenario: the link shows it in the editor.
  await page.locator('#sh-detail .shader-col[data-col="hlsl"] .line-link').click();
  const picked = await page.evaluate(() => { const ta = document.getElementById("source"); return ta.value.slice(ta.selectionStart, ta.selectionEnd); });
  assert.match(picked, /^struct VSIn  \{ float3 pos : POSITION;/);
  assert.match(await page.locator('#sh-detail .shader-col[data-col="hlsl"] .line-link').textContent(), /^line 6$/);
  const dxbc = await col(page, "dxbc");
  assert.match(dxbc, /\bps_4_0\b/);
  assert.match(dxbc, /\bsample\b/);
  assert.match(dxbc, /dcl_resource_texture2d/);
  assert.match(await col(page, "isa"), /^GPU ISA \(the UMD's translation\)/);
  const isa = await code(page, "isa");
  assert.match(isa, /^ps inputs=\d+ outputs=1/);
  assert.match(isa, /sample r\d+, v2\.xyxx, t0, s0/);
  // By DXBC instruction: each one above the ISA it became; and back.
  const toggle = page.locator('#sh-detail .shader-col[data-col="isa"] .shader-toggle');
  await toggle.click();
  assert.match(await code(page, "isa"), /\/\/ sample r0\.xyzw, v2\.xyxx, t0\.xyzw, s0\s+\d+\s+sample r0, v2\.xyxx, t0, s0/);
  await toggle.click();
  assert.equal(await code(page, "isa"), isa);
  // Side by side on a wide page.
  const xs = await page.locator("#sh-detail .shader-col").evaluateAll((cs) => cs.map((c) => c.getBoundingClientRect()));
  assert.ok(xs[0].x < xs[1].x && xs[1].x < xs[2].x && xs[0].y === xs[2].y, `columns at ${JSON.stringify(xs)}`);

  // Its draw: a click selects the Draw event in every view.
  const draw = page.locator("#sh-detail .shader-draw");
  assert.equal(await draw.count(), 1);
  assert.match(await draw.textContent(), /Draw on IC/);
  await page.evaluate(() => window.d3dsimUI.select(0, "test"));
  await draw.click();
  const sel = await page.evaluate(() => window.d3dsimUI.selected);
  const ev = await page.evaluate((i) => window.d3dsimUI.store.event(i), sel);
  assert.equal(ev.name, "Draw");
  assert.equal(ev.from, "app");
  assert.equal(ev.kind, "call");
  assert.equal(await page.evaluate(() => window.d3dsimUI.views.trace.selected), sel);
  assert.equal(await page.evaluate(() => window.d3dsimUI.timeline.selected), sel);
  assert.ok(await page.locator("#sh-detail .shader-draw.selected").count() === 1, "the draw is marked as the selection");

  // A narrow page stacks the columns.
  await page.setViewportSize({ width: 640, height: 900 });
  const ys = await page.locator("#sh-detail .shader-col").evaluateAll((cs) => cs.map((c) => c.getBoundingClientRect()));
  assert.ok(ys[0].x === ys[1].x && ys[0].y < ys[1].y && ys[1].y < ys[2].y, `stacked columns at ${JSON.stringify(ys)}`);
  await page.setViewportSize({ width: 1280, height: 800 });

  // Built-in shaders: HLSL compiled at load, its DXBC and the UMD's ISA.
  await page.locator("#picker").selectOption("s:hello-triangle");
  await runToEnd(page);
  await page.evaluate(() => window.d3dsimUI.poll());
  await page.waitForFunction(() => [...document.querySelectorAll("#sh-list .shader-row")].map((r) => r.dataset.obj).join() === "vs,ps");
  assert.match(await page.locator("#sh-list").textContent(), /built-in vs_passthrough/);
  await page.waitForFunction(() => /built-in vs_passthrough: HLSL compiled when the scenario loads/.test(document.querySelector("#sh-detail .shader-head")?.textContent || ""));
  assert.match(await col(page, "hlsl"), /SV_Position/);
  assert.match(await col(page, "dxbc"), /vs_4_0/);
  assert.match(await col(page, "isa"), /mov o\d/);
  assert.deepEqual(h.pageErrors, []);
  await page.close();
});

test("the embed page shows the Shaders view with view=shaders", { timeout: 120000 }, async () => {
  const page = await h.openPage(h.baseURL + "embed.html#demo=hlsl-textured&view=shaders");
  await page.waitForFunction(() => window.d3dsimEmbed && window.d3dsim.summary().done, null, { timeout: 60000 });
  assert.equal(await page.evaluate(() => window.d3dsimEmbed.view), "shaders");
  await page.evaluate(() => window.d3dsimEmbed.poll());
  await page.waitForFunction(() => document.querySelectorAll(".shader-row").length === 2);
  // The first shader, vs, came from the imgui block: the column shows the whole block.
  await page.waitForFunction(() => /Texture2D/.test(document.querySelector('.shader-col[data-col="hlsl"]')?.textContent || ""));
  assert.match(await page.locator('.shader-col[data-col="dxbc"]').textContent(), /vs_4_0|ps_4_0/);
  assert.deepEqual(h.pageErrors, []);
  await page.close();
});
