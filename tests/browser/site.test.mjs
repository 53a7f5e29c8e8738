// Browser tests of the published site (docs/embedding.md, issue 10): the
// test builds dist/ into a temporary directory (`go run . -site DIR`, what
// `make site` runs), serves it from a plain static file server under a
// sub-path (/some/where/, a few lines of node below — not serve.go) and
// drives Debian's headless Chromium through playwright-core:
//
//   - the full page loads from the sub-path and draws;
//   - the embed page inside two iframes of a test page on another origin;
//   - a Share link round trip;
//   - a link frozen in this file (format 1) keeps opening, and an unknown
//     version gets a message naming it;
//   - a scenario too long for a link: Share explains why and offers the
//     .d3ds file (which loads when dropped onto the page) and a single-file
//     HTML repro, which runs when opened from file://;
//   - nothing the pages ask for lies outside the site or is missing.
//
//   cd tests/browser && npm ci && node --test site.test.mjs

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createServer } from "node:http";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import { ROOT, CHROMIUM, CHROMIUM_ARGS, MIME, boundWaits, nextFrames, runToEnd, sharing, staticServer } from "./harness.mjs";

const BUILD_TIMEOUT = 10 * 60 * 1000; // a cold wasm build on 2 cores
const SUB = "/some/where/";
const STAGE_BG = "#0b0e14"; // wasm/main_js.go

// A link made on 2026-11-23 with `d3dsim link` (format 1) and the scenario
// it carries. Frozen: a link shared today must keep opening after the format
// grows (docs/scenario.md, "Links"). Never regenerate it.
const FROZEN_LINK_PAYLOAD =
  "1.lJJfa9swFMXf9Sku9GWDNfgPK6WgByd220CaBtvJBmME2b6xRW3Jk27cbp9-WOlIvD0N-0H87rlHl3t0BRG0Ur3AwehfqEArCLzg5tr3r4MQPhy06QSB__EOJEF3tAQviD3oHpVU9YxVOHwC2XXAIQ5j318YFIQxDrJEZkvgUOEwO9HsVfSLRkgFX2RFDQ8DeERZN8TDgBUFcLDl7AFpfjwc0IDHDA0TgxRVhSYXpkbaSXyFomBDMZG8926tqJEvn562eTRfJTCXqrpvRW35Lknz5Ot-vr2_T1KIBQneoW3ufhxFxUrdavN_fovndZZH63zieAiDbz544zf7_J0NduK5Q0P4ljWiQgPFUbYk1d1g972wlhqjj3XD-mnLRr5h-1dHb_dWt7JiRYuqmk49kowEIbhjokTRIs_TbQKZKR3jWbrYR6vNYwQxWjqx5Xq3P3PHnnsexTGTXTd7fsqQLkOwYGg4ly6udTO5Spplp7R6bci6pYQBhIErLqMMaWNkJ0kOmOtet7r-CXm6jNYPq2S1zPKz7rS3UyKj0VC42m684H03g3Voc4H6C7TQypJQdPZwiTvBokVh_nlh4xMcR_bBd6rYiFe4AY_ZcrYxaFERw7ceS4J-zAiKAvyb8eccrm49z7v1br0_kkHqVpDUyo5lj_0OAAD__w";
const FROZEN_SCENARIO = `# A link frozen on 2026-11-23 (format 1): it must keep opening.
dev, imm = D3D11CreateDevice
sc = dev.CreateSwapChain Width=32 Height=32
bb = sc.GetBuffer 0
rtv = dev.CreateRenderTargetView bb
vb = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:quad
color = dev.CreateBuffer Usage=IMMUTABLE BindFlags=CONSTANT_BUFFER Data=f32[1 0 0 0.5]
vs = dev.CreateVertexShader builtin:vs_passthrough
ps = dev.CreatePixelShader builtin:ps_solid
blend = dev.CreateBlendState BlendEnable=TRUE SrcBlend=SRC_ALPHA DestBlend=INV_SRC_ALPHA BlendOp=ADD
imm.OMSetRenderTargets rtv
imm.OMSetBlendState blend
imm.RSSetViewports 0 0 32 32
imm.IASetPrimitiveTopology TRIANGLELIST
imm.IASetVertexBuffers 0 vb
imm.VSSetShader vs
imm.PSSetShader ps
imm.PSSetConstantBuffers 0 color
imm.ClearRenderTargetView rtv 0 0 1 1
imm.Draw 6 0
sc.Present
expect pixel bb 16 16 == #80008080
expect violations == 0
`;


let tmp = "";
let dist = "";
let site = null; // the static server of dist/ under SUB
let plain = null; // the same, sending main.wasm as application/octet-stream
let host = null; // another origin: the page that embeds d3dsim
let siteURL = "";
let hostURL = "";
let browser = null;
const requests = []; // [status, path] the site server answered
const pageErrors = [];


function listen(server) {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${server.address().port}`)));
}

async function openPage(url) {
  const page = boundWaits(await browser.newPage());
  page.on("pageerror", (err) => pageErrors.push(`${url}: ${err.message}`));
  page.on("console", (msg) => {
    if (msg.type() === "error") console.log(`[page console.error] ${msg.text()}`);
  });
  await page.goto(url);
  return page;
}

// ready waits for window.d3dsim in a page or frame.
async function ready(target) {
  await target.waitForFunction(() => window.d3dsim && window.d3dsim.ready, null, { timeout: 60000 });
  await target.evaluate(() => window.d3dsim.ready.then(() => true));
}

// The tests of the full page under the sub-path share one (harness.mjs
// sharing): it draws, shares a link and a long scenario, takes a drop.
const { shared, onShared } = sharing(async () => {
  const page = await openPage(siteURL);
  await ready(page);
  return page;
});

// drawnPixels counts the pixels of a canvas screenshot that are not the
// stage's background.
async function drawnPixels(page, png) {
  return page.evaluate(async ({ b64, bg }) => {
    const img = new Image();
    img.src = "data:image/png;base64," + b64;
    await img.decode();
    const c = document.createElement("canvas");
    c.width = img.width;
    c.height = img.height;
    const g = c.getContext("2d");
    g.drawImage(img, 0, 0);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    const q = [1, 3, 5].map((i) => parseInt(bg.slice(i, i + 2), 16));
    let n = 0;
    for (let i = 0; i < d.length; i += 4) {
      if (Math.abs(d[i] - q[0]) > 6 || Math.abs(d[i + 1] - q[1]) > 6 || Math.abs(d[i + 2] - q[2]) > 6) n++;
    }
    return n;
  }, { b64: png.toString("base64"), bg: STAGE_BG });
}

// expectedPixels reads a scenario's "expect pixel bb X Y == #RRGGBBAA" lines.
function expectedPixels(text) {
  return [...text.matchAll(/^\s*expect\s+pixel\s+bb\s+(\d+)\s+(\d+)\s*==\s*(#[0-9a-fA-F]{8})\b/gm)]
    .map((m) => ({ x: Number(m[1]), y: Number(m[2]), want: m[3].toLowerCase() }));
}

async function checkPixels(target, text) {
  const want = expectedPixels(text);
  assert.ok(want.length > 0, "the scenario has no expect pixel line");
  for (const { x, y, want: w } of want) {
    assert.equal((await target.evaluate(([x, y]) => window.d3dsim.pixel(x, y), [x, y])).toLowerCase(), w, `pixel(${x}, ${y})`);
  }
}

// longScenario is alpha-blend with comment lines of pseudorandom letters
// (a fixed LCG): DEFLATE cannot shrink them, so its link is over MAX_LINK.
function longScenario(base) {
  let x = 12345;
  const abc = "abcdefghijklmnopqrstuvwxyz0123456789";
  const lines = ["# A scenario too long for a link: the comments below are noise."];
  for (let i = 0; i < 220; i++) {
    let s = "# ";
    for (let j = 0; j < 72; j++) {
      x = (x * 1103515245 + 12345) % 2147483648;
      s += abc[x % abc.length];
    }
    lines.push(s);
  }
  return lines.join("\n") + "\n" + base;
}

before(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install -y chromium`);
  tmp = mkdtempSync(path.join(tmpdir(), "d3dsim-site-"));
  dist = path.join(tmp, "dist");
  const t0 = performance.now();
  execFileSync("go", ["run", ".", "-site", dist], { cwd: ROOT, stdio: "inherit" });
  console.log(`site: built ${dist} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  site = staticServer(dist, SUB, requests);
  siteURL = (await listen(site)) + SUB;
  const hostPage = (a, b) => `<!doctype html><meta charset="utf-8"><title>a tutorial page</title>
<h1>A tutorial page on another origin</h1>
<iframe id="a" src="${a}" width="720" height="300" title="first"></iframe>
<iframe id="b" src="${b}" width="420" height="520" title="second"></iframe>`;
  const alphaLink = execFileSync("go", ["run", "./cmd/d3dsim", "link", path.join(dist, "scenarios/alpha-blend.d3ds"), "--base", siteURL + "embed.html"], { cwd: ROOT }).toString().trim();
  host = createServer((req, res) => {
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    res.end(hostPage(`${siteURL}embed.html#demo=hello-triangle&view=timeline`, `${alphaLink}&view=cmdlists`));
  });
  hostURL = (await listen(host)) + "/tutorial/page.html";
  browser = await chromium.launchPersistentContext(path.join(tmp, "profile"), {
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 800 },
    acceptDownloads: true,
  });
}, { timeout: BUILD_TIMEOUT + 60000 });

after(async () => {
  try {
    await browser?.close();
  } finally {
    site?.close();
    plain?.close();
    host?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  }
});

test("dist/ holds the page, the module and its gzip copy, the scenarios, tutorials, gallery and example", () => {
  for (const f of ["index.html", "embed.html", "embed-example.html", "app.js", "embed.js", "share.js", "inbox.js", "boot.js", "drop.js", "style.css",
    "wasm_exec.js", "main.wasm", "main.wasm.gz", "scenarios/hello-triangle.d3ds", "tutorials/01-hello-triangle.d3ds",
    "tutorials/01-hello-triangle.md", "gallery/index.html"]) {
    assert.ok(existsSync(path.join(dist, f)), `dist/${f} is missing`);
  }
  const wasm = readFileSync(path.join(dist, "main.wasm"));
  const gz = readFileSync(path.join(dist, "main.wasm.gz"));
  assert.ok(gunzipSync(gz).equals(wasm), "main.wasm.gz does not decompress to main.wasm");
  console.log(`site: main.wasm ${(wasm.length / 2 ** 20).toFixed(1)} MiB, main.wasm.gz ${(gz.length / 2 ** 20).toFixed(1)} MiB`);
  assert.equal(readFileSync(path.join(dist, "scenarios/hello-triangle.d3ds"), "utf8"),
    readFileSync(path.join(ROOT, "assets/scenarios/hello-triangle.d3ds"), "utf8"));
  // Relative paths only: no page names a root-relative or local URL.
  for (const f of ["index.html", "embed.html", "embed-example.html", "gallery/index.html"]) {
    const html = readFileSync(path.join(dist, f), "utf8");
    const bad = [...html.matchAll(/\b(?:src|href)="([^"]*)"/g)].map((m) => m[1]).filter((u) => /^\/(?!\/)|^https?:\/\/(127\.0\.0\.1|localhost)/.test(u));
    assert.deepEqual(bad, [], `${f} names absolute local paths`);
  }
});

// The sizes of main.wasm the docs quote ("17.1 MiB raw", "3.95 MiB
// gzipped") are the built module's, to 3%: a module that grew or shrank
// more than that fails here until the docs say so.
test("the docs quote main.wasm's sizes as built", () => {
  const size = { raw: statSync(path.join(dist, "main.wasm")).size, gzipped: statSync(path.join(dist, "main.wasm.gz")).size };
  const files = ["README.md", ...readdirSync(path.join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => "docs/" + f)];
  const wrong = [];
  let quoted = 0;
  for (const f of files) {
    const text = readFileSync(path.join(ROOT, f), "utf8");
    for (const m of text.matchAll(/(\d+(?:\.\d+)?) MiB (raw|gzipped)\b/g)) {
      quoted++;
      const want = size[m[2]] / 2 ** 20;
      if (Math.abs(Number(m[1]) - want) > 0.03 * want) {
        wrong.push(`${f}:${text.slice(0, m.index).split("\n").length}: "${m[0]}", main.wasm is ${want.toFixed(2)} MiB ${m[2]}`);
      }
    }
  }
  console.log(`site: the docs quote main.wasm's size ${quoted} times`);
  assert.ok(quoted >= 2, "no doc quotes main.wasm's size as \"N MiB raw\" and \"N MiB gzipped\": is the pattern still right?");
  assert.deepEqual(wrong, []);
});

test("the gallery's thumbnails, files and links resolve under the sub-path", { timeout: 60000 }, async () => {
  const url = siteURL + "gallery/index.html";
  const html = await (await fetch(url)).text();
  const imgs = [...html.matchAll(/<img src="([^"]+)"/g)].map((m) => m[1]);
  const files = [...html.matchAll(/<a class="file" href="([^"]+)"/g)].map((m) => m[1]);
  const cards = [...html.matchAll(/<a href="([^"]+)"><img/g)].map((m) => m[1].replace(/&amp;/g, "&"));
  assert.ok(imgs.length >= 20, `only ${imgs.length} thumbnails`);
  assert.equal(files.length, imgs.length, "every card links its .d3ds file");
  for (const u of [...imgs, ...files]) {
    const r = await fetch(new URL(u, url));
    assert.equal(r.status, 200, `${u} from the gallery`);
  }
  for (const c of cards) assert.match(c, /^\.\.\/index\.html#s=1\./);
  // A card opens its scenario in the app.
  const page = await openPage(new URL(cards[cards.length - 1], url).href);
  await ready(page);
  const s = await runToEnd(page);
  assert.equal(s.done, true);
  assert.equal(await page.evaluate(() => window.d3dsim.notice), "");
  await page.close();
});

let helloHash = "";

test("the full page loads from the sub-path and draws", { timeout: 120000 }, onShared(async () => {
  const t0 = performance.now();
  const page = await shared();
  const s = await runToEnd(page);
  console.log(`site: first page ready and run in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  assert.equal(s.done, true);
  assert.deepEqual(s.failures, []);
  assert.ok(s.frames >= 1);
  helloHash = s.hash;
  await checkPixels(page, readFileSync(path.join(dist, "scenarios/hello-triangle.d3ds"), "utf8"));
  // The canvas shows the frame: the stage is not all background.
  // Ebitengine draws in an animation frame: look again after each frame.
  const box = await page.locator("body > canvas").boundingBox();
  let n = 0;
  for (let i = 0; i < 300; i++) {
    n = await drawnPixels(page, await page.screenshot({ clip: box }));
    if (n > 500) break;
    await nextFrames(page);
  }
  assert.ok(n > 500, `the stage shows only ${n} drawn pixels`);
  // The panel works too: the timeline has the run's events.
  assert.ok(await page.evaluate(() => window.d3dsimUI.store.n) > 100);

  // Opened from disk, the page says it must be served over HTTP.
  for (const f of ["index.html", "embed.html"]) {
    const local = boundWaits(await browser.newPage());
    await local.goto(pathToFileURL(path.join(dist, f)).href);
    await local.waitForFunction(() => /file:\/\//.test(document.getElementById("stage-status").textContent));
    assert.match(await local.locator("#stage-status").textContent(), /Serve this directory over HTTP/);
    await local.close();
  }
}));

test("two embed iframes on another origin's page both run, fit their frame and open the full page", { timeout: 180000 }, async () => {
  const page = await openPage(hostURL);
  const frameOf = async (id) => (await page.locator(`iframe#${id}`).elementHandle()).contentFrame();
  const a = await frameOf("a");
  const b = await frameOf("b");
  await Promise.all([ready(a), ready(b)]);

  // a: hello-triangle by name, the timeline.
  await a.waitForFunction(() => window.d3dsimEmbed && window.d3dsim.summary().done && !window.d3dsim.summary().busy && window.d3dsimEmbed.store.n > 100, null, { timeout: 60000 });
  const sa = await a.evaluate(() => window.d3dsim.summary());
  assert.equal(sa.hash, helloHash, "the embedded hello-triangle gives the full page's frame");
  assert.deepEqual(sa.failures, []);
  assert.equal(await a.evaluate(() => window.d3dsimEmbed.view), "timeline");
  // b: alpha-blend from the link, the command lists.
  await b.waitForFunction(() => window.d3dsimEmbed && window.d3dsim.summary().done && !window.d3dsim.summary().busy && document.querySelectorAll(".ctx").length > 0, null, { timeout: 60000 });
  await checkPixels(b, readFileSync(path.join(dist, "scenarios/alpha-blend.d3ds"), "utf8"));
  assert.equal(await b.evaluate(() => window.d3dsimEmbed.view), "cmdlists");

  for (const [f, w, h] of [[a, 720, 300], [b, 420, 520]]) {
    const fit = await f.evaluate(() => {
      const r = (e) => e.getBoundingClientRect();
      const c = r(document.querySelector("body > canvas"));
      const v = r(document.querySelector("#inspector"));
      return { iw: innerWidth, ih: innerHeight, c: [c.left, c.top, c.right, c.bottom], v: [v.left, v.top, v.right, v.bottom], scroll: document.documentElement.scrollHeight };
    });
    // The canvas and the view sit inside the iframe, side by side or stacked.
    for (const [name, [l, t, r, btm]] of [["canvas", fit.c], ["view", fit.v]]) {
      assert.ok(l >= 0 && t >= 0 && r <= fit.iw + 1 && btm <= fit.ih + 1 && r - l > 50 && btm - t > 50, `${name} ${JSON.stringify(fit)} in a ${w}x${h} frame`);
    }
    assert.ok(fit.scroll <= fit.ih + 1, `the embed scrolls: ${JSON.stringify(fit)}`);
  }
  // The timeline drew its lanes (in an animation frame after the events
  // came in: wait for it).
  const colours = () => {
    const c = document.getElementById("timeline");
    const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    const seen = new Set();
    for (let i = 0; i < d.length; i += 64) seen.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
    return seen.size > 5 ? seen.size : 0;
  };
  await a.waitForFunction(colours).catch(async () => {
    assert.fail(`the timeline canvas has too few colours: ${await a.evaluate(colours)}`);
  });

  // "open in d3dsim" points at the full page beside embed.html with the
  // same scenario.
  const open = await b.evaluate(() => {
    document.getElementById("open").dispatchEvent(new Event("pointerdown"));
    return { href: document.getElementById("open").href, text: document.getElementById("open").textContent, src: window.d3dsim.source() };
  });
  assert.match(open.text, /open in d3dsim/);
  assert.ok(open.href.startsWith(siteURL + "index.html#s=1."), open.href);
  const full = await openPage(open.href);
  await ready(full);
  assert.equal(await full.evaluate(() => window.d3dsim.source()), open.src);
  assert.deepEqual((await runToEnd(full)).failures, []); // (it plays on its own: read its pixels once it has run)
  await checkPixels(full, open.src);
  await full.close();
  await page.close();
});

test("the example page embeds two working simulators", { timeout: 180000 }, async () => {
  const page = await openPage(siteURL + "embed-example.html");
  for (const id of ["embed-timeline", "embed-link"]) {
    const f = await (await page.locator(`iframe#${id}`).elementHandle()).contentFrame();
    await ready(f);
    await f.waitForFunction(() => window.d3dsimEmbed && window.d3dsim.summary().done, null, { timeout: 60000 });
    const s = await f.evaluate(() => window.d3dsim.summary());
    assert.deepEqual(s.failures, [], id);
    assert.ok(s.frames >= 1, id);
  }
  await page.close();
});

test("a host that sends main.wasm as application/octet-stream still works", { timeout: 120000 }, async () => {
  plain = staticServer(dist, SUB, null, { ...MIME, ".wasm": "application/octet-stream" });
  const url = (await listen(plain)) + SUB + "embed.html#demo=hello-triangle&view=none";
  const page = await openPage(url);
  await ready(page);
  await page.waitForFunction(() => window.d3dsim.summary().done, null, { timeout: 60000 });
  assert.equal(await page.evaluate(() => window.d3dsim.summary().hash), helloHash);
  await page.close();
});

test("a Share link round-trips under the sub-path", { timeout: 120000 }, onShared(async () => {
  const page = await shared();
  const text = readFileSync(path.join(dist, "scenarios/alpha-blend.d3ds"), "utf8").replace("f32[1 0 0 0.5]", "f32[0 1 0 0.5]")
    .replace("#80008080", "#00808080");
  assert.equal((await page.evaluate((t) => window.d3dsim.load(t), text)).ok, true);
  const s1 = await runToEnd(page);
  assert.deepEqual(s1.failures, []);
  await page.waitForFunction((t) => document.getElementById("source").value === t, text); // the editor shows it
  await page.click("#share");
  await page.waitForFunction(() => /#s=1\./.test(location.hash));
  const url = page.url();
  assert.ok(url.startsWith(siteURL + "#s=1."), url);
  const again = await openPage(url);
  await ready(again);
  assert.equal(await again.evaluate(() => window.d3dsim.source()), text);
  const s2 = await runToEnd(again);
  assert.equal(s2.hash, s1.hash);
  await again.close();
}));

test("a version-1 link frozen in this test keeps opening; an unknown version is named", { timeout: 120000 }, async () => {
  const page = await openPage(`${siteURL}#s=${FROZEN_LINK_PAYLOAD}`);
  await ready(page);
  assert.equal(await page.evaluate(() => window.d3dsim.notice), "");
  assert.equal(await page.evaluate(() => window.d3dsim.source()), FROZEN_SCENARIO);
  const s = await runToEnd(page);
  assert.deepEqual(s.failures, []);
  await checkPixels(page, FROZEN_SCENARIO);
  // The embed page reads the same link.
  const e = await openPage(`${siteURL}embed.html#s=${FROZEN_LINK_PAYLOAD}&view=problems`);
  await ready(e);
  assert.equal(await e.evaluate(() => window.d3dsim.source()), FROZEN_SCENARIO);
  await e.close();

  const future = await openPage(`${siteURL}#s=2.${FROZEN_LINK_PAYLOAD.slice(2)}`);
  await ready(future);
  const notice = await future.evaluate(() => window.d3dsim.notice);
  assert.match(notice, /version "2" is not supported/);
  await future.waitForSelector("#notice:not([hidden])");
  await future.close();
  await page.close();
});

test("a scenario too long for a link shares as a .d3ds file and a single-file HTML repro", { timeout: 180000 }, onShared(async () => {
  const page = await shared();
  // The address bar as a fresh page has it (the link test shared this one).
  await page.evaluate(() => history.replaceState(null, "", location.pathname));
  const text = longScenario(readFileSync(path.join(dist, "scenarios/alpha-blend.d3ds"), "utf8"));
  assert.equal((await page.evaluate((t) => window.d3dsim.load(t), text)).ok, true);
  const s1 = await runToEnd(page);
  assert.deepEqual(s1.failures, []);
  await page.waitForFunction((t) => document.getElementById("source").value === t, text); // the editor shows it
  const linkLen = await page.evaluate(() => window.d3dsim.link().length);
  assert.ok(linkLen > 8192, `the test scenario's link is only ${linkLen} characters`);
  console.log(`site: long scenario ${text.length} bytes, its link ${linkLen} characters`);

  await page.click("#share");
  const dialog = page.locator(".share-long");
  await dialog.waitFor();
  const why = await dialog.textContent();
  assert.match(why, /too long for a link/);
  assert.match(why, new RegExp(`${linkLen.toLocaleString("en-US")} characters`));
  assert.doesNotMatch(page.url(), /#s=/, "the long link went into the address bar");

  const [d1] = await Promise.all([page.waitForEvent("download"), page.click('.share-long [data-share="d3ds"]')]);
  assert.equal(d1.suggestedFilename(), "scenario.d3ds");
  const f1 = path.join(tmp, "scenario.d3ds");
  await d1.saveAs(f1);
  assert.equal(readFileSync(f1, "utf8"), text);

  const [d2] = await Promise.all([page.waitForEvent("download"), page.click('.share-long [data-share="html"]')]);
  assert.equal(d2.suggestedFilename(), "d3dsim-repro.html");
  const f2 = path.join(tmp, "d3dsim-repro.html");
  await d2.saveAs(f2);
  const html = readFileSync(f2, "utf8");
  assert.ok(html.includes(`src="${siteURL}index.html#from=parent"`), "the repro loads d3dsim from the site it was exported from");

  // Opened from disk, the repro runs the scenario in the site's page.
  const repro = await openPage(pathToFileURL(f2).href);
  const frame = await (await repro.locator("iframe#d3dsim").elementHandle()).contentFrame();
  await ready(frame);
  await frame.waitForFunction((n) => window.d3dsim.source().length === n, text.length, { timeout: 60000 });
  assert.equal(await frame.evaluate(() => window.d3dsim.source()), text);
  const s2 = await runToEnd(frame);
  assert.equal(s2.hash, s1.hash);
  assert.deepEqual(s2.failures, []);
  assert.equal(await repro.locator("#scenario").textContent(), text);
  await repro.close();

  // The .d3ds file dropped onto the page loads and plays, over another
  // scenario loaded first (the page holds the long one already).
  const fresh = page;
  const other = readFileSync(path.join(dist, "scenarios/hello-triangle.d3ds"), "utf8");
  assert.equal((await fresh.evaluate((t) => window.d3dsim.load(t), other)).ok, true);
  await fresh.waitForFunction((t) => window.d3dsim.source() === t && document.getElementById("source").value === t, other);
  await fresh.evaluate((body) => {
    const dt = new DataTransfer();
    dt.items.add(new File([body], "scenario.d3ds", { type: "text/plain" }));
    window.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, cancelable: true }));
  }, readFileSync(f1, "utf8"));
  await fresh.waitForFunction((n) => window.d3dsim.source().length === n && document.getElementById("source").value.length === n, text.length);
  assert.equal(await fresh.evaluate(() => window.d3dsim.source()), text);
}));

test("the pages asked the static server for nothing outside the site and nothing missing", () => {
  assert.ok(requests.length > 20, `only ${requests.length} requests`);
  const bad = requests.filter(([status, p]) => status !== 200 || !p.startsWith(SUB));
  assert.deepEqual(bad, [], "requests the static site cannot answer");
  assert.deepEqual(pageErrors, [], "errors thrown in the pages");
});
