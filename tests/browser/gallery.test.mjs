// Browser tests of the gallery (issue 18): the test builds the site into a
// temporary directory (`go run . -site DIR`, what `make site` runs), adds a
// second gallery built the way a user would, `d3dsim gallery --out
// DIR/standalone` without --base, serves both from a plain static file
// server under a sub-path (as site.test.mjs does) and checks in Debian's
// headless Chromium that
//
//   - no card's text runs outside its card, at common widths;
//   - every thumbnail loads and is not blank (a scenario that presents no
//     frame shows the "no frame presented" placeholder);
//   - every card's link opens the app (dist/index.html) with its scenario.
//
//   cd tests/browser && npm ci && node --test gallery.test.mjs

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { inflateRawSync } from "node:zlib";
import path from "node:path";
import { chromium } from "playwright-core";
import { ROOT, CHROMIUM, CHROMIUM_ARGS, staticServer } from "./harness.mjs";

const BUILD_TIMEOUT = 10 * 60 * 1000; // a cold wasm build on 2 cores
const SUB = "/some/where/";
const GALLERIES = ["gallery/", "standalone/"]; // the site's, and d3dsim gallery's default

let tmp = "";
let dist = "";
let server = null;
let siteURL = "";
let browser = null;

before(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install -y chromium`);
  tmp = mkdtempSync(path.join(tmpdir(), "d3dsim-gallery-"));
  dist = path.join(tmp, "dist");
  execFileSync("go", ["run", ".", "-site", dist], { cwd: ROOT, stdio: "inherit" });
  const out = execFileSync("go", ["run", "./cmd/d3dsim", "gallery", "--out", path.join(dist, "standalone")], { cwd: ROOT }).toString();
  assert.match(out, /the cards open the app at \.\.\/index\.html/);
  server = staticServer(dist, SUB);
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  siteURL = `http://127.0.0.1:${server.address().port}${SUB}`;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}, { timeout: BUILD_TIMEOUT + 60000 });

after(async () => {
  try {
    await browser?.close();
  } finally {
    server?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  }
});

for (const g of GALLERIES) {
  for (const width of [1280, 1024, 800, 390]) {
    test(`${g}: no card's text overflows at ${width} px`, { timeout: 60000 }, async () => {
      const page = await browser.newPage({ viewport: { width, height: 800 } });
      await page.goto(siteURL + g);
      await page.waitForLoadState("load");
      const bad = await page.evaluate(() => {
        const out = [];
        for (const li of document.querySelectorAll("li")) {
          const r = li.getBoundingClientRect();
          for (const e of li.querySelectorAll("div, a, p, span, img")) {
            const q = e.getBoundingClientRect();
            if (q.width === 0) continue;
            if (q.left < r.left - 0.5 || q.right > r.right + 0.5 || q.bottom > r.bottom + 0.5 || e.scrollWidth > e.clientWidth + 1) {
              out.push(`${li.id}: ${e.tagName.toLowerCase()}.${e.className} "${e.textContent.trim().slice(0, 40)}"`);
            }
          }
        }
        return out;
      });
      assert.deepEqual(bad, [], "text outside its card");
      await page.close();
    });
  }

  test(`${g}: every thumbnail loads; the placeholders say "no frame presented"`, { timeout: 60000 }, async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(siteURL + g);
    await page.waitForLoadState("load");
    const imgs = await page.evaluate(() => [...document.querySelectorAll("li img")].map((i) => ({ id: i.closest("li").id, src: i.getAttribute("src"), ok: i.complete && i.naturalWidth > 0 })));
    assert.ok(imgs.length >= 20, `only ${imgs.length} thumbnails`);
    for (const i of imgs) assert.ok(i.ok, `${i.id}: ${i.src} did not load`);
    const svgs = imgs.filter((i) => i.src.endsWith(".svg"));
    assert.deepEqual(svgs.map((i) => i.id).sort(), ["demo-memory-pressure", "demo-sync-destroy"]);
    for (const i of svgs) {
      const text = await (await fetch(new URL(i.src, siteURL + g))).text();
      assert.match(text, /no frame presented/);
      assert.ok(text.includes(i.id.replace(/^demo-/, "")), `${i.src} does not name its scenario`);
    }
    await page.close();
  });
}

// scenarioOf is the scenario a card's link carries, read with node's own
// inflate, not the app's decoder: "#s=1." then the base64url of the text's
// raw DEFLATE (docs/scenario.md, "Links").
function scenarioOf(href) {
  const s = /(?:^#|&)s=1\.([^&]*)/.exec(new URL(href).hash)?.[1];
  return s == null ? null : inflateRawSync(Buffer.from(s, "base64url")).toString("utf8");
}

// Every card's link carries its scenario (checked with node's inflate:
// every card, both galleries); a demo's and a tutorial's card open the app
// with it, from a click and from a fresh load. Opening each of the 59
// links as a page load (about 3 s each, most of this file's 145 s) checked
// the app's decoder 59 times on the same path; core/link's tests and
// fuzzing check the decoder itself.
test("every card's link opens the app with its scenario", { timeout: 15 * 60000 }, async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors = [];
  page.on("pageerror", (err) => errors.push(err.message));
  const want = (id) => {
    const name = id.replace(/^(demo|tutorial)-/, "");
    return readFileSync(path.join(dist, id.startsWith("demo-") ? "scenarios" : "tutorials", name + ".d3ds"), "utf8");
  };
  // opensApp checks the page at a card's link shows the card's scenario.
  const opensApp = async (g, c) => {
    await page.waitForFunction(() => window.d3dsim && window.d3dsim.ready, null, { timeout: 120000 });
    await page.evaluate(() => window.d3dsim.ready.then(() => true));
    assert.equal(await page.locator("#source").inputValue(), want(c.id), `${g}${c.id}: the app opened another scenario`);
    assert.equal(await page.evaluate(() => window.d3dsim.notice), "", `${g}${c.id}: notice`);
  };
  const kinds = new Set();
  for (const g of GALLERIES) {
    await page.goto(siteURL + g);
    const cards = await page.evaluate(() => [...document.querySelectorAll("li")].map((li) => ({ id: li.id, href: li.querySelector("a").href })));
    assert.ok(cards.some((c) => c.id.startsWith("demo-")) && cards.some((c) => c.id.startsWith("tutorial-")), `${g}: demos and tutorials`);
    for (const c of cards) {
      const u = new URL(c.href);
      assert.equal(u.origin + u.pathname, siteURL + "index.html", `${g}${c.id}: the link goes to ${u.pathname}, not the app`);
      assert.match(u.hash, /^#s=1\./, `${g}${c.id}: the link carries no scenario`);
      assert.equal(scenarioOf(c.href), want(c.id), `${g}${c.id}: the link carries another scenario`);
    }
    // Click the first card: the app opens with its scenario.
    await page.click(`#${cards[0].id} a`);
    await page.waitForURL((u) => u.pathname === SUB + "index.html");
    await opensApp(g, cards[0]);
    kinds.add(cards[0].id.split("-")[0]);
    // A card of the kind not opened yet, as a fresh page load.
    const other = cards.find((c) => !kinds.has(c.id.split("-")[0]));
    if (other) {
      await page.goto("about:blank");
      await page.goto(other.href);
      await opensApp(g, other);
      kinds.add(other.id.split("-")[0]);
    }
  }
  assert.deepEqual([...kinds].sort(), ["demo", "tutorial"]);
  assert.deepEqual(errors, []);
  await page.close();
});
