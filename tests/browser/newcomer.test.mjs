// Browser tests of what a new user of the page ran into (issue 18, "A
// project that explains itself"): the page at a small laptop's and a
// phone's viewport, the command lists' sticky header and the counts'
// plurals, unknown names in the fragment (embed.html and index.html), the
// keyboard shortcuts the buttons name and the help overlay that lists them,
// the editor's colouring and its error and failure marks.
//
//   cd tests/browser && npm ci && node --test newcomer.test.mjs
//
// The dev server (serve.go) serves the page, as in page.test.mjs; Share's
// links under a sub-path are share-origin.test.mjs's.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { SERVER_START_TIMEOUT, launch, nextFrames, runToEnd } from "./harness.mjs";

let h = null;
let baseURL = "";

before(async () => {
  h = await launch();
  baseURL = h.baseURL;
}, { timeout: SERVER_START_TIMEOUT + 60000 });

after(async () => {
  await h?.close();
});

const loadNamed = (page, name) => page.evaluate((n) => {
  const r = window.d3dsim.load(window.d3dsim.scenario(n));
  window.d3dsimUI.poll();
  return r;
}, name);

// offscreen lists the page's controls (buttons, selects, links in the
// chrome) that are shown but not wholly inside the viewport, or not the
// topmost element at their centre (clipped or covered). Rows inside a
// scrolling pane are the pane's business and are left out.
const offscreen = (page) => page.evaluate(() => {
  const out = [];
  const W = window.innerWidth;
  const H = window.innerHeight;
  for (const b of document.querySelectorAll("button, select, a#open")) {
    if (b.closest("[hidden], .pane, .trace-scroll, .notes-body, .toast")) continue;
    const r = b.getBoundingClientRect();
    if (r.width < 1 || r.height < 1 || getComputedStyle(b).visibility === "hidden") continue;
    const name = b.id || b.dataset.view || b.title || b.textContent.trim();
    if (r.left < -0.5 || r.top < -0.5 || r.right > W + 0.5 || r.bottom > H + 0.5) {
      out.push(`${name}: [${Math.round(r.left)}, ${Math.round(r.top)}, ${Math.round(r.right)}, ${Math.round(r.bottom)}] outside ${W}x${H}`);
      continue;
    }
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!top || !(b === top || b.contains(top))) out.push(`${name}: covered by ${top ? top.tagName + "." + top.className : "nothing"}`);
  }
  return out;
});

// editorShown says whether the scenario text is on screen, usable: at least
// 120x80 pixels of it inside the viewport and its centre not covered.
const editorShown = (page) => page.evaluate(() => {
  const ta = document.getElementById("source");
  const r = ta.getBoundingClientRect();
  const w = Math.min(r.right, window.innerWidth) - Math.max(r.left, 0);
  const hh = Math.min(r.bottom, window.innerHeight) - Math.max(r.top, 0);
  if (w < 120 || hh < 80) return `the editor shows ${Math.round(w)}x${Math.round(hh)} pixels`;
  const x = Math.max(r.left, 0) + w / 2;
  const y = Math.max(r.top, 0) + hh / 2;
  const top = document.elementFromPoint(x, y);
  return top === ta ? "" : `the editor's centre is covered by ${top?.tagName}.${top?.className}`;
});

for (const size of [{ width: 1024, height: 640 }, { width: 390, height: 844 }]) {
  test(`at ${size.width}x${size.height} every control is on screen and the editor is usable`, { timeout: 120000 }, async () => {
    const page = await h.openPage(baseURL);
    await page.setViewportSize(size);
    await loadNamed(page, "command-lists");
    await runToEnd(page);
    // A selection shows the details strip and its buttons too.
    await page.evaluate(() => window.d3dsimUI.select(5));
    for (const v of ["timeline", "cmdlists", "trace"]) {
      await page.click(`.tabs [data-view="${v}"]`);
      await page.waitForSelector(`.inspector .view[data-view="${v}"]:not([hidden])`);
      await nextFrames(page); // laid out and drawn
      assert.deepEqual(await offscreen(page), [], `${v} view at ${size.width}x${size.height}`);
      assert.equal(await editorShown(page), "", `${v} view at ${size.width}x${size.height}`);
    }
    // The Download menu, open, fits too.
    await page.click("#download");
    assert.deepEqual(await offscreen(page), [], `the Download menu at ${size.width}x${size.height}`);
    await page.close();
  });
}

test("the command lists' sticky header never covers the row a selection scrolls to; counts say 1 call, 2 calls", { timeout: 120000 }, async () => {
  const page = await h.openPage(baseURL);
  await loadNamed(page, "command-lists");
  await runToEnd(page);
  await page.click('.tabs [data-view="cmdlists"]');
  await page.waitForSelector("#cl-contexts .call");
  // Scroll to the end, then select the first call of each section: it
  // scrolls into view, below its section's (sticky) header.
  const covered = await page.evaluate(async () => {
    const box = document.getElementById("cl-contexts");
    const out = [];
    for (const sec of box.querySelectorAll(".ctx")) {
      box.scrollTop = box.scrollHeight;
      await new Promise((r) => requestAnimationFrame(r));
      const row = sec.querySelector(".call");
      window.d3dsimUI.select(Number(row.dataset.ev));
      await new Promise((r) => requestAnimationFrame(r));
      const rr = row.querySelector(".call-head").getBoundingClientRect();
      const hr = sec.querySelector(".ctx-head").getBoundingClientRect();
      const pr = box.getBoundingClientRect();
      if (rr.top < hr.bottom - 0.5) out.push(`${sec.dataset.ctx}: row at ${rr.top}, header bottom ${hr.bottom}`);
      if (rr.bottom > pr.bottom + 0.5) out.push(`${sec.dataset.ctx}: row below the pane`);
    }
    return out;
  });
  assert.deepEqual(covered, []);

  const counts = await page.$$eval("#cl-contexts .call-head .count", (xs) => xs.map((x) => x.textContent));
  assert.ok(counts.includes("1 DDI/kernel call"), `counts: ${[...new Set(counts)].join(", ")}`);
  assert.ok(counts.some((c) => /^[2-9] DDI\/kernel calls$/.test(c)), `counts: ${[...new Set(counts)].join(", ")}`);

  // One API call run: the summary says "1 call".
  // (the step once the load has run: until then it is answered for, busy)
  await page.evaluate(() => window.d3dsim.load(window.d3dsim.source()));
  await page.waitForFunction(() => !window.d3dsim.summary().busy, null, { timeout: 60000 });
  await page.evaluate(() => { window.d3dsim.step(1); window.d3dsimUI.poll(); });
  await page.waitForFunction(() => document.querySelector('#summary [data-k="steps"]').textContent === "1");
  const summary = await page.textContent("#summary");
  assert.match(summary, /\b1 call\b/, summary);
  assert.match(summary, /\b0 frames\b/, summary);
  const body = await page.evaluate(() => document.body.innerText);
  assert.doesNotMatch(body, /(^|[^\d,.])1 (calls|events|frames|violations|API calls|DDI\/kernel calls|steps|items)\b/, "a singular count with a plural noun");
  await page.close();
});

test("embed.html names an unknown demo, tutorial or view and the valid ones", { timeout: 120000 }, async () => {
  // An unknown view rides with an unknown demo: the page says both (the
  // embed reads demo= and tutorial= once, as it starts: a page each).
  const cases = [
    ["demo=nope&view=bogus", [["nope", "hello-triangle"], ["bogus", "cmdlists"]]],
    ["tutorial=nope", [["nope", "01-hello-triangle"]]],
  ];
  for (const [frag, named] of cases) {
    const page = await h.openPage(`${baseURL}embed.html#${frag}`);
    await page.waitForSelector("#notice:not([hidden])");
    const notice = await page.textContent("#notice");
    for (const [bad, valid] of named) {
      assert.ok(notice.includes(`"${bad}"`), `${frag}: the notice names ${bad}: ${notice}`);
      assert.ok(notice.includes(valid), `${frag}: the notice lists the valid choices (${valid}): ${notice}`);
      assert.notEqual((await page.textContent("#title")).trim(), bad, `${frag}: the title is not the unknown name`);
      assert.ok(!(await page.title()).includes(bad), `${frag}: the document title`);
    }
    await page.close();
  }
  // A known one still works, unannounced.
  const page = await h.openPage(`${baseURL}embed.html#demo=alpha-blend&view=trace`);
  assert.equal(await page.evaluate(() => window.d3dsim.source() === window.d3dsim.scenario("alpha-blend")), true);
  assert.equal(await page.isVisible("#notice"), false);
  assert.equal(await page.textContent("#title"), "alpha-blend");
  await page.close();
});

// One page per fragment form, each checked for what it opens and for
// playing as the default page does (this was two tests, here and in
// dead-ends.test.mjs, opening 8 pages for what 4 show).
test("index.html honours #demo= and #t= like the embed, plays them as the default page does, and names unknown ones", { timeout: 180000 }, async () => {
  const done = (page) => page.waitForFunction(() => window.d3dsim.summary().done, null, { timeout: 60000 }).then(() => page.evaluate(() => window.d3dsim.summary()));
  let page = await h.openPage(`${baseURL}#demo=alpha-blend`);
  await page.waitForFunction(() => window.d3dsim.source() === window.d3dsim.scenario("alpha-blend"));
  await page.waitForFunction(() => document.getElementById("source").value === window.d3dsim.scenario("alpha-blend"));
  assert.equal(await page.inputValue("#picker"), "s:alpha-blend");
  assert.equal(await page.isVisible("#notice"), false);
  const demo = await done(page);
  assert.ok(demo.frames >= 1, `#demo= ran to a frame: ${JSON.stringify(demo)}`);
  assert.deepEqual(demo.failures, []);
  await page.close();

  const tut = "01-hello-triangle";
  page = await h.openPage(`${baseURL}#t=${tut}`);
  await page.waitForSelector("#notes:not([hidden])");
  assert.equal(await page.evaluate((n) => window.d3dsim.source() === window.d3dsim.tutorial(n).scenario, tut), true);
  assert.equal(await page.inputValue("#picker"), "t:" + tut);
  await done(page);
  assert.equal(await page.textContent("#notes-pos"), (await page.evaluate(() => window.d3dsimUI.tutorial.notes.steps.length)) + " steps");
  // Start → still starts the lesson from its first step.
  await page.click("#notes-next");
  await page.waitForFunction(() => /^step 1 of \d+$/.test(document.getElementById("notes-pos").textContent));
  assert.equal((await page.evaluate(() => window.d3dsim.summary())).done, false, "step 1 restarted the run and stopped at its lines");
  await page.close();

  for (const [frag, valid] of [["demo=nope", "hello-triangle"], ["t=nope", tut]]) {
    page = await h.openPage(`${baseURL}#${frag}`);
    await page.waitForSelector("#notice:not([hidden])");
    const notice = await page.textContent("#notice");
    assert.ok(notice.includes('"nope"'), `${frag}: ${notice}`);
    assert.ok(notice.includes(valid), `${frag}: ${notice}`);
    if (frag === "demo=nope") {
      // The default scenario it falls back to plays, as on the default page.
      const def = await done(page);
      assert.ok(def.frames >= 1, `the default scenario ran to a frame: ${JSON.stringify(def)}`);
    }
    await page.close();
  }
  assert.deepEqual(h.pageErrors, []);
});

test("the shortcuts the buttons name work, and ? lists them all", { timeout: 120000 }, async () => {
  const page = await h.openPage(baseURL);
  // The default scenario plays on a fresh page: a load asked for during one
  // of its long draws is done once the draw pauses (summary() answers for
  // the new scenario at once); a step is taken only after that.
  const fresh = async () => {
    const steps = await page.evaluate(() => {
      window.d3dsim.load(window.d3dsim.scenario("spinning-cube"));
      window.d3dsimUI.poll();
      return window.d3dsim.summary().steps;
    });
    await page.waitForFunction(() => !window.d3dsim.summary().busy);
    return steps;
  };
  // F10: one API call.
  assert.equal(await fresh(), 0);
  await page.click(".tabs [data-view=trace]"); // focus off the editor
  await page.keyboard.press("F10");
  await page.waitForFunction(() => window.d3dsim.summary().steps === 1);
  await page.keyboard.press("F10");
  await page.waitForFunction(() => window.d3dsim.summary().steps === 2);

  // F11 does what the Step frame button does, and not the browser's full screen.
  await fresh();
  await page.click("#step-frame");
  await page.waitForFunction(() => window.d3dsim.summary().steps > 0 && !/Pause/.test(document.getElementById("play").textContent));
  const byButton = await page.evaluate(() => window.d3dsim.summary());
  await fresh();
  await page.click(".tabs [data-view=trace]");
  await page.evaluate(() => {
    window.__f11 = null;
    window.addEventListener("keydown", (e) => { if (e.key === "F11") setTimeout(() => { window.__f11 = e.defaultPrevented; }); });
  });
  await page.keyboard.press("F11");
  await page.waitForFunction(() => window.__f11 !== null);
  assert.equal(await page.evaluate(() => window.__f11), true, "F11 is preventDefault()ed");
  await page.waitForFunction(() => window.d3dsim.summary().steps > 0 && !/Pause/.test(document.getElementById("play").textContent));
  const byKey = await page.evaluate(() => window.d3dsim.summary());
  assert.equal(byKey.steps, byButton.steps, "F11 stops where Step frame does");
  assert.equal(byKey.events, byButton.events);

  // Ctrl+Enter in the editor loads and plays the edited text.
  const text = (await page.evaluate(() => window.d3dsim.scenario("hello-triangle"))) + "\n# edited\n";
  await page.fill("#source", text);
  await page.focus("#source");
  await page.keyboard.press("Control+Enter");
  await page.waitForFunction((t) => window.d3dsim.source() === t, text);

  // Every shortcut a title= names is in the overlay "?" opens.
  await page.click('.tabs [data-view="timeline"]');
  const named = await page.evaluate(() => {
    const keys = new Set();
    for (const e of document.querySelectorAll("[title]")) {
      const t = e.getAttribute("title");
      for (const m of t.matchAll(/\b(F\d{1,2}|(?:Ctrl|Shift|Alt)\+\w+|Esc|Space)\b/g)) keys.add(m[1]);
      for (const m of t.matchAll(/\(([A-Za-z0-9?])[,)]/g)) keys.add(m[1]);
    }
    return [...keys];
  });
  assert.ok(named.includes("F10") && named.includes("F11") && named.includes("Ctrl+Enter"), `named: ${named}`);
  await page.click(".tabs [data-view=timeline]");
  await page.keyboard.press("?");
  await page.waitForSelector("#keys:not([hidden])");
  const listed = await page.$$eval("#keys kbd", (ks) => ks.map((k) => k.textContent.trim().toLowerCase()));
  for (const k of named) assert.ok(listed.includes(k.toLowerCase()), `the overlay lists ${k} (it lists ${listed.join(" ")})`);
  for (const k of ["?", "esc", "space"]) assert.ok(listed.includes(k), `the overlay lists ${k}`);
  await page.keyboard.press("Escape");
  await page.waitForSelector("#keys", { state: "hidden" });
  // The visible ? button opens it; a click outside the box closes it.
  await page.click("#help");
  await page.waitForSelector("#keys:not([hidden])");
  await page.mouse.click(5, 300);
  await page.waitForSelector("#keys", { state: "hidden" });
  // "?" typed in the editor is text, not the overlay.
  await page.focus("#source");
  await page.keyboard.press("?");
  assert.equal(await page.isVisible("#keys"), false);
  await page.close();
});

test("the editor colours the scenario language; errors wrap; a run's failures are marked on their lines", { timeout: 120000 }, async () => {
  const page = await h.openPage(baseURL);
  const src = [
    "# a comment",
    "option seed=7",
    "dev, imm = D3D11CreateDevice",
    "vb = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=f32[1 0 0.5 1]",
    "thread t1 {",
    "  signal one",
    "}",
    "wait one",
    "repeat 2 {",
    "  imm.Flush",
    "}",
    "expect pixel bb 1 1 == #ff0000ff",
  ].join("\n");
  await page.fill("#source", src);
  const tokens = await page.evaluate(() => {
    const out = {};
    for (const s of document.querySelectorAll("#highlight span[class]")) (out[s.className] ||= []).push(s.textContent);
    return out;
  });
  const has = (cls, text) => assert.ok((tokens[cls] || []).includes(text), `${cls} ${JSON.stringify(text)} in ${JSON.stringify(tokens[cls])}`);
  has("t-comment", "# a comment");
  for (const k of ["option", "thread", "signal", "wait", "repeat", "expect"]) has("t-keyword", k);
  has("t-name", "dev");
  has("t-name", "vb");
  has("t-method", "CreateBuffer");
  has("t-method", "Flush");
  has("t-key", "Usage");
  has("t-key", "BindFlags");
  has("t-enum", "IMMUTABLE");
  has("t-enum", "VERTEX_BUFFER");
  has("t-number", "7");
  has("t-color", "#ff0000ff");
  has("t-data", "f32");
  // The overlay's text is the editor's, character for character.
  assert.equal(await page.evaluate(() => document.getElementById("highlight").textContent.replace(/\n$/, "")), src);

  // A long parse error wraps instead of ending in "…".
  const long = "option seed=1\ndev = D3D11CreateDevice " + "Bogus=1 ".repeat(3) + "@";
  await page.setViewportSize({ width: 1024, height: 640 });
  await page.fill("#source", long);
  await page.waitForSelector("#error:not([hidden])");
  const err = await page.evaluate(() => {
    const e = document.getElementById("error");
    const cs = getComputedStyle(e);
    return { text: e.textContent, ws: cs.whiteSpace, to: cs.textOverflow, fits: e.scrollWidth <= e.clientWidth + 1 };
  });
  assert.notEqual(err.ws, "nowrap", "the error wraps");
  assert.notEqual(err.to, "ellipsis");
  assert.ok(err.fits, `the error fits its box: ${err.text}`);

  // A run that fails an expect: its line is marked in the gutter like a
  // parse error, with the message.
  const failing = (await page.evaluate(() => window.d3dsim.scenario("hello-triangle"))) + "\nexpect violations == 3\n";
  const res = await page.evaluate((t) => window.d3dsim.load(t), failing);
  assert.equal(res.ok, true, res.error);
  const s = await runToEnd(page);
  assert.ok(s.failures.length > 0, "the scenario fails");
  const m = /^(\d+):\d+: /.exec(s.failures[0]);
  assert.ok(m, `a failure says LINE:COL: ${s.failures[0]}`);
  await page.evaluate(() => window.d3dsimUI.poll());
  await page.waitForSelector(`.gutter .ln.failure[data-line="${m[1]}"]`);
  const title = await page.getAttribute(`.gutter .ln.failure[data-line="${m[1]}"]`, "title");
  assert.ok(title.includes(s.failures[0].replace(/^\d+:\d+: /, "")), `title: ${title}`);
  const lines = new Set(s.failures.map((f) => f.split(":")[0]));
  assert.equal(await page.locator(".backdrop .mark.failure").count(), lines.size);
  // Editing the text clears the run's marks (they belong to the run).
  await page.fill("#source", failing + "# edited\n");
  await page.waitForFunction(() => document.querySelectorAll(".gutter .ln.failure").length === 0);
  await page.close();
});

test("the page threw nothing", () => {
  assert.deepEqual(h.pageErrors, []);
});
