// The dev server (serve.go, serve_security.go) as an attacker and as the
// page see it: the page and the embed run under the Content-Security-Policy
// the server sends, with no policy violation; a page opened from disk may
// still frame them (the exported repro does); a request naming another host
// (DNS rebinding) and a dotfile get nothing. Loopback traffic only.
//
//   cd tests/browser && npm ci && node --test devserver.test.mjs

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { SERVER_START_TIMEOUT, launch, runToEnd } from "./harness.mjs";

let h;

before(async () => {
  h = await launch();
}, { timeout: SERVER_START_TIMEOUT });

after(async () => {
  await h?.close();
});

// cspViolations collects the page's securitypolicyviolation events.
async function watchCSP(page) {
  await page.addInitScript(() => {
    window.__csp = [];
    document.addEventListener("securitypolicyviolation", (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
}

// rawGet sends a GET with a Host header of our choosing (fetch will not).
function rawGet(url, host) {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, path: u.pathname, headers: { Host: host } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res));
    });
    req.on("error", reject);
    req.end();
  });
}

test("the page and the embed run under the server's CSP without a violation", { timeout: 180000 }, async () => {
  for (const url of [h.baseURL, h.baseURL + "embed.html#demo=hello-triangle&view=flow"]) {
    const resp = await fetch(url);
    const csp = resp.headers.get("content-security-policy") || "";
    assert.match(csp, /script-src 'self' 'wasm-unsafe-eval'[;' ]/, `${url}: CSP ${csp}`);
    assert.doesNotMatch(csp.split(";")[1], /unsafe-inline/, `${url}: any inline script allowed`);
    assert.match(csp, /frame-ancestors/, `${url}: CSP ${csp}`);
    assert.equal(resp.headers.get("referrer-policy"), "no-referrer");

    const page = await h.browser.newPage();
    await watchCSP(page);
    await page.goto(url);
    await page.waitForFunction(() => window.d3dsim && window.d3dsim.ready);
    const sim = await page.evaluate(() => window.d3dsim.ready.then(() => true));
    assert.ok(sim);
    // The embed plays its demo by itself; the page is run here.
    if (url === h.baseURL) await runToEnd(page);
    await page.waitForFunction(() => window.d3dsim.summary().frames >= 1, null, { timeout: 60000 });
    assert.deepEqual(await page.evaluate(() => window.__csp), [], `${url}: CSP violations`);
    await page.close();
  }
});

test("a page opened from disk may frame the app (the exported repro does)", { timeout: 120000 }, async () => {
  const file = path.join(h.tmp, "frame.html");
  writeFileSync(file, `<!doctype html><iframe id="f" src="${h.baseURL}index.html" width="800" height="600"></iframe>`);
  const page = await h.browser.newPage();
  await page.goto(pathToFileURL(file).href);
  const frame = await (await page.locator("iframe#f").elementHandle()).contentFrame();
  await frame.waitForFunction(() => window.d3dsim && window.d3dsim.ready, null, { timeout: 60000 });
  assert.ok(await frame.evaluate(() => window.d3dsim.ready.then(() => true)));
  await page.close();
});

test("another host name, a dotfile and a non-GET get nothing", async () => {
  const port = new URL(h.baseURL).port;
  for (const host of ["evil.example", `evil.example:${port}`, `127.0.0.1:${Number(port) + 1}`]) {
    const res = await rawGet(h.baseURL, host);
    assert.equal(res.statusCode, 421, `Host: ${host}`);
  }
  for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `app.localhost:${port}`]) {
    const res = await rawGet(h.baseURL, host);
    assert.equal(res.statusCode, 200, `Host: ${host}`);
  }
  for (const p of [".git/config", ".env", "views/.hidden.js"]) {
    const res = await fetch(h.baseURL + p);
    assert.equal(res.status, 404, p);
  }
  const post = await fetch(h.baseURL, { method: "POST", body: "x" });
  assert.equal(post.status, 405);
});
