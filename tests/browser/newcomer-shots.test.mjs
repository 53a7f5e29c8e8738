// The screenshots of docs/newcomer.md, "the first five minutes" (issue 18),
// and the states they show: the page as it opens, Play, an event selected,
// the flow view, Step call and Step frame, the "?" shortcuts overlay, a
// tutorial's notes stepped, Share. It asserts each state; with
// UPDATE_SCREENSHOTS=1 it also saves docs/newcomer-*.png (1280x800).
//
//   cd tests/browser && npm ci && node --test newcomer-shots.test.mjs
//   UPDATE_SCREENSHOTS=1 node --test newcomer-shots.test.mjs

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { ROOT, SERVER_START_TIMEOUT, launch, nextFrames } from "./harness.mjs";

const UPDATE = process.env.UPDATE_SCREENSHOTS === "1";

let h = null;

before(async () => {
  h = await launch();
}, { timeout: SERVER_START_TIMEOUT + 60000 });

after(async () => {
  await h?.close();
});

// shot saves a screenshot into docs/ when UPDATE_SCREENSHOTS=1.
async function shot(page, name) {
  if (!UPDATE) return;
  mkdirSync(path.join(ROOT, "docs"), { recursive: true });
  await page.mouse.move(0, 0);
  await nextFrames(page); // the canvas views draw in the next animation frame
  await page.screenshot({ path: path.join(ROOT, "docs", name) });
}

const summary = (page) => page.evaluate(() => window.d3dsim.summary());
const poll = (page) => page.evaluate(() => window.d3dsimUI.poll());

test("the first five minutes, as docs/newcomer.md shows them", { timeout: 180000 }, async () => {
  const page = await h.openPage(h.baseURL);

  // 1. The page opens on the default scenario, hello-triangle.
  assert.equal(await page.inputValue("#picker"), "s:hello-triangle");
  assert.match(await page.inputValue("#source"), /D3D11CreateDevice/);
  await page.click("#restart"); // paused at the start, as before Play
  await poll(page);
  assert.equal((await summary(page)).done, false);
  await shot(page, "newcomer-1-open.png");

  // 2. Play: the run goes to its end; the canvas shows the frame, the
  // timeline its events.
  await page.click("#play");
  await page.waitForFunction(() => window.d3dsim.summary().done, null, { timeout: 60000 });
  await poll(page);
  const s = await summary(page);
  assert.ok(s.frames >= 1, "no frame presented");
  assert.deepEqual(s.failures, []);
  await page.waitForFunction(() => window.d3dsimUI.timeline.laneList.length >= 4);
  await shot(page, "newcomer-2-played.png");

  // 3. An event selected (the Present call): the detail pane shows it.
  const present = await page.evaluate(() => {
    const st = window.d3dsimUI.store;
    for (let i = 0; i < st.n; i++) if (st.name(i) === "Present" && st.kind(i) === 1 && st.from(i) === 1) return i;
    return -1;
  });
  assert.ok(present >= 0, "no Present call in the trace");
  await page.evaluate((i) => window.d3dsimUI.select(i, "test"), present);
  await page.waitForFunction(() => /Present/.test(document.getElementById("detail").textContent));
  await shot(page, "newcomer-3-event.png");

  // 4. The flow view of that Present: the WDDM operation flow's steps.
  await page.click('.tabs [data-view="flow"]');
  await page.waitForSelector("#flow .flow-table");
  await page.waitForFunction(() => /Present/.test(document.querySelector("#flow .flow-head")?.textContent || ""));
  const steps = await page.locator("#flow .step").allTextContents();
  for (const want of ["8", "13", "16"]) assert.ok(steps.includes(want), `flow steps ${steps} lack ${want}`);
  await shot(page, "newcomer-4-flow.png");

  // 5. Step call: from the start, one API call a click.
  await page.click('.tabs [data-view="timeline"]');
  await page.click("#restart");
  for (let i = 0; i < 4; i++) await page.click("#step");
  await poll(page);
  const stepped = await summary(page);
  assert.equal(stepped.done, false);
  assert.equal(stepped.frames, 0);
  await shot(page, "newcomer-5-step-call.png");

  // 6. Step frame: on to the next Present, the frame on the canvas.
  await page.click("#step-frame");
  await page.waitForFunction(() => window.d3dsim.summary().frames === 1, null, { timeout: 30000 });
  await poll(page);
  await shot(page, "newcomer-6-step-frame.png");

  // 7. "?": the keyboard shortcuts.
  await page.click("#help");
  await page.waitForSelector("#keys:not([hidden])");
  assert.match(await page.textContent("#keys"), /Step/);
  await shot(page, "newcomer-7-shortcuts.png");
  await page.keyboard.press("Escape");
  await page.waitForSelector("#keys", { state: "hidden" });

  // 8. A tutorial from the picker, its notes stepped twice.
  await page.selectOption("#picker", "t:01-hello-triangle");
  await page.waitForSelector("#notes:not([hidden])");
  await page.click("#notes-next");
  await page.click("#notes-next");
  await page.waitForFunction(() => /^step 2 of \d+$/.test(document.getElementById("notes-pos").textContent));
  await shot(page, "newcomer-8-tutorial.png");

  // 9. Share: the link in the address bar replays this scenario.
  await page.click("#notes-close");
  await page.selectOption("#picker", "s:spinning-cube");
  await page.waitForFunction(() => window.d3dsim.summary().done, null, { timeout: 60000 });
  await page.click("#share");
  await page.waitForFunction(() => location.hash.startsWith("#s=1."));
  await shot(page, "newcomer-9-share.png");

  assert.deepEqual(h.pageErrors, []);
  await page.close();
});
