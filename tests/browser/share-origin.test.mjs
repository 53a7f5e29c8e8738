// Browser tests of where Share's links and files point (issue 18): at the
// address the page is served from — origin and path, here a sub-path of a
// plain static server as in site.test.mjs — and, when that address is this
// computer (127.0.0.1, localhost), Share says the link only works here.
// Chromium maps the host name d3dsim.test to 127.0.0.1
// (--host-resolver-rules), so the same server also stands for a public
// host.
//
//   cd tests/browser && npm ci && node --test share-origin.test.mjs

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import { ROOT, CHROMIUM, CHROMIUM_ARGS, boundWaits, staticServer } from "./harness.mjs";

const BUILD_TIMEOUT = 10 * 60 * 1000; // a cold wasm build on 2 cores
const SUB = "/some/where/";
const PUBLIC_HOST = "d3dsim.test";
const LOCAL_NOTE = "this link only works on this machine";


let tmp = "";
let server = null;
let port = 0;
let browser = null;
const pageErrors = [];

before(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install -y chromium`);
  tmp = mkdtempSync(path.join(tmpdir(), "d3dsim-share-"));
  const dist = path.join(tmp, "dist");
  execFileSync("go", ["run", ".", "-site", dist], { cwd: ROOT, stdio: "inherit" });
  server = staticServer(dist, SUB);
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = server.address().port;
  browser = await chromium.launchPersistentContext(path.join(tmp, "profile"), {
    executablePath: CHROMIUM,
    args: [...CHROMIUM_ARGS, `--host-resolver-rules=MAP ${PUBLIC_HOST} 127.0.0.1`],
    viewport: { width: 1280, height: 800 },
  });
}, { timeout: BUILD_TIMEOUT + 60000 });

after(async () => {
  try {
    await browser?.close();
  } finally {
    server?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  }
});

async function open(url) {
  const page = boundWaits(await browser.newPage());
  page.on("pageerror", (err) => pageErrors.push(`${url}: ${err.message}`));
  await page.goto(url);
  await page.waitForFunction(() => window.d3dsim && window.d3dsim.ready, null, { timeout: 60000 });
  await page.evaluate(() => window.d3dsim.ready.then(() => true));
  return page;
}

// share clicks Share and returns the address bar and the toast's text.
async function share(page) {
  await page.evaluate(() => { for (const t of document.querySelectorAll(".toast")) t.remove(); });
  await page.click("#share");
  await page.waitForFunction(() => location.hash.startsWith("#s=1."));
  await page.waitForSelector(".toast");
  return { href: await page.evaluate(() => location.href), toast: await page.textContent(".toast") };
}

// repro is the exported HTML repro's text and the long-scenario dialog's,
// made in the page by share.js itself.
const repro = (page) => page.evaluate(async () => {
  const m = await import(new URL("share.js", location.href).href);
  const box = m.shareLong("dev, imm = D3D11CreateDevice\n", location.href, () => {});
  const dialog = box.textContent;
  box.remove();
  return { html: m.reproHTML("dev, imm = D3D11CreateDevice\n", m.siteURL()), dialog, site: m.siteURL() };
});

for (const host of ["127.0.0.1", "localhost"]) {
  test(`served from ${host} under a sub-path: Share's link is that address, and says it only works on this machine`, { timeout: 120000 }, async () => {
    const site = `http://${host}:${port}${SUB}`;
    const page = await open(site);
    const { href, toast } = await share(page);
    assert.ok(href.startsWith(site + "#s=1."), `the link: ${href}`);
    assert.ok(!href.includes(":8080"), href);
    assert.equal(href, await page.evaluate(() => window.d3dsim.link()));
    assert.ok(toast.includes(LOCAL_NOTE), `the notice: ${toast}`);

    const r = await repro(page);
    assert.equal(r.site, site);
    assert.ok(r.html.includes(`src="${site}index.html#from=parent"`), "the repro frames this site's page");
    assert.ok(r.html.includes(LOCAL_NOTE), "the repro says it only works on this machine");
    assert.ok(r.dialog.includes("only work on this machine"), `the dialog: ${r.dialog}`);

    // The link opens the same scenario.
    const again = await open(href);
    assert.equal(await again.evaluate(() => window.d3dsim.source()), await page.evaluate(() => window.d3dsim.source()));
    await again.close();
    await page.close();
  });
}

test("served from a public host name: the link is that address, without the local-only note", { timeout: 120000 }, async () => {
  const site = `http://${PUBLIC_HOST}:${port}${SUB}`;
  const page = await open(site + "index.html");
  const { href, toast } = await share(page);
  assert.ok(href.startsWith(site + "index.html#s=1."), `the link: ${href}`);
  assert.ok(!toast.includes(LOCAL_NOTE), `the notice: ${toast}`);
  const r = await repro(page);
  assert.equal(r.site, site);
  assert.ok(r.html.includes(`src="${site}index.html#from=parent"`));
  assert.ok(!r.html.includes(LOCAL_NOTE));
  assert.ok(!r.dialog.includes("only work on this machine"));
  await page.close();
});

test("the pages threw nothing", () => {
  assert.deepEqual(pageErrors, []);
});
