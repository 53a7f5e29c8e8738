// A hostile scenario in the page: the run stops at its limit, a notice
// names the limit, and the page stays responsive (Restart and Play/Pause
// work).
//
//   cd tests/browser && npm ci && node --test limits.test.mjs

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { SERVER_START_TIMEOUT, launch } from "./harness.mjs";

let h;

before(async () => {
  h = await launch();
}, { timeout: SERVER_START_TIMEOUT });

after(async () => {
  await h?.close();
});

// A loop of failing expectations and debug-layer messages whose events
// carry long text: the trace's byte limit, the bounded failures and the step
// budget all come into play; the step budget stops it.
const hostile = [
  "option maxsteps=30000",
  "dev, imm = D3D11CreateDevice Flags=DEBUG",
  `${"n".repeat(256)} = dev.CreateBlendState`,
  "repeat 1000000000 {",
  " imm.Draw 3 0",
  " expect violations == 1",
  "}",
  "",
].join("\n");

test("a run stopped at a limit shows a notice naming it, and the page stays responsive", { timeout: 180000 }, async () => {
  const page = await h.openPage(h.baseURL);
  const loaded = await page.evaluate((src) => window.d3dsim.load(src), hostile);
  assert.equal(loaded.ok, true, loaded.error);
  const notices = page.evaluate(() => new Promise((resolve) => {
    window.addEventListener("d3dsim:notice", (e) => resolve(e.detail), { once: true });
  }));
  const summary = await page.evaluate(() => window.d3dsim.run());
  assert.equal(summary.done, true);
  assert.match(summary.limit, /step budget of 30000/);
  assert.ok(summary.failures.length <= 45, `${summary.failures.length} failures kept`);
  assert.ok(summary.failureCount >= 29000, `failureCount ${summary.failureCount}`);
  assert.match(await notices, /stopped at a limit.*step budget of 30000/);
  assert.match(await page.evaluate(() => window.d3dsim.notice), /step budget of 30000/);
  await page.waitForSelector("#notice:not([hidden])");
  assert.match(await page.textContent("#notice"), /step budget of 30000/);

  // Still responsive: Restart loads the text again, paused at the start.
  await page.click("#restart");
  await page.waitForFunction(() => window.d3dsim.summary().steps === 0 && !window.d3dsim.summary().done);
  // Play runs it to the limit again; Pause (the same button) is answered.
  await page.click("#play");
  await page.waitForFunction(() => window.d3dsim.summary().steps > 0);
  await page.click("#play");
  await page.waitForFunction(() => !window.d3dsim.summary().playing);
  await page.close();
  assert.deepEqual(h.pageErrors, [], "uncaught exceptions in the page");
});
