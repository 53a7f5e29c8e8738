// Browser tests of the d3dsim page (SCENARIO.md "Browser", "Links"): the dev
// server (serve.go) serves the page, Debian's headless Chromium opens it
// through playwright-core and the tests drive window.d3dsim.
//
//   cd tests/browser && npm ci && node --test
//
// Needs Go (to build the server and main.wasm) and /usr/bin/chromium
// (apt-get install -y chromium). Saves docs/screenshot.png.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const CHROMIUM = "/usr/bin/chromium";
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];
const SERVER_START_TIMEOUT = 10 * 60 * 1000; // a cold wasm build on 2 cores
const VIEWPORT = { width: 1280, height: 800 };
// The stage's colours (wasm/main_js.go).
const STAGE_BG = "#0b0e14";
const FRAME_RIM = "#2a313d";

const scenarioFile = path.join(ROOT, "assets/scenarios/hello-triangle.d3ds");

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

let server = null;
let serverLog = "";
let baseURL = "";
let browser = null; // a persistent BrowserContext
let tmp = "";
const pageErrors = [];

function killServer() {
  if (server && server.exitCode === null && server.signalCode === null) {
    server.kill("SIGKILL");
  }
}
process.on("exit", killServer);

// startServer builds the server (go build, so killing it kills the server,
// not a `go run` parent) and runs it on a free port; it builds main.wasm
// before it prints the URL it serves.
async function startServer() {
  tmp = mkdtempSync(path.join(tmpdir(), "d3dsim-browser-"));
  const bin = path.join(tmp, "d3dsim-serve");
  execFileSync("go", ["build", "-o", bin, "."], { cwd: ROOT, stdio: "inherit" });
  server = spawn(bin, ["-addr", "127.0.0.1:0"], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in time:\n${serverLog}`)), SERVER_START_TIMEOUT);
    const onData = (chunk) => {
      serverLog += chunk;
      const m = /serving .* on (http:\/\/\S+)/.exec(serverLog);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    server.stdout.on("data", onData);
    server.stderr.on("data", onData);
    server.on("exit", (code, sig) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code ?? sig}) before serving:\n${serverLog}`));
    });
  });
  // Wait until it answers.
  for (let i = 0; ; i++) {
    try {
      const resp = await fetch(url);
      if (resp.ok) break;
    } catch (err) {
      if (i > 100) throw err;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return url;
}

async function stopServer() {
  if (!server || server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((r) => server.once("exit", r));
  server.kill("SIGTERM");
  const timer = setTimeout(() => server.kill("SIGKILL"), 5000);
  await exited;
  clearTimeout(timer);
}

// openPage opens url and waits for the module; errors thrown in the page are
// collected for the last test.
async function openPage(url) {
  const page = await browser.newPage();
  page.on("pageerror", (err) => pageErrors.push(`${url}: ${err.message}`));
  page.on("console", (msg) => {
    if (msg.type() === "error") console.log(`[page console.error] ${msg.text()}`);
  });
  await page.goto(url);
  await page.waitForFunction(() => window.d3dsim && window.d3dsim.ready);
  await page.evaluate(() => window.d3dsim.ready.then(() => true));
  return page;
}

// runToEnd runs the loaded scenario to its end and returns the summary.
const runToEnd = (page) => page.evaluate(() => window.d3dsim.run());

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
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium not found at ${CHROMIUM}: install it with apt-get install -y chromium`);
  }
  baseURL = await startServer();
  // A fresh profile (--user-data-dir) in the temp dir, removed at the end.
  browser = await chromium.launchPersistentContext(path.join(tmp, "profile"), {
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    viewport: VIEWPORT,
  });
}, { timeout: SERVER_START_TIMEOUT + 60000 });

after(async () => {
  try {
    await browser?.close();
  } finally {
    await stopServer();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  }
});

test("the default scenario runs and draws its triangle", { timeout: 120000 }, async () => {
  const page = await openPage(baseURL);
  const summary = await runToEnd(page);
  assert.equal(summary.done, true, `run did not finish: ${JSON.stringify(summary)}`);
  assert.deepEqual(summary.failures, [], `failures: ${summary.failures.join("\n")}`);
  assert.ok(summary.frames >= 1, `no frame presented: ${JSON.stringify(summary)}`);
  assert.match(summary.hash, /^[0-9a-f]{16}$/);
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
  await page.waitForFunction(() => document.querySelectorAll("#trace-rows .trace-row").length > 0);
  assert.equal(await page.inputValue("#source"), readFileSync(scenarioFile, "utf8"));

  // The canvas shows the frame: more than the dark stage, and more than the
  // frame's clear colour (the corner pixel): the triangle. Ebitengine draws
  // on its next animation frame.
  const canvas = page.locator("body > canvas");
  await canvas.waitFor();
  const clear = (await page.evaluate(() => window.d3dsim.pixel(0, 0))).slice(0, 7);
  let counts = null;
  for (let i = 0; i < 50; i++) {
    counts = await countPixels(page, await canvas.screenshot(), [STAGE_BG, FRAME_RIM, clear]);
    if (counts.drawing > 500) break;
    await page.waitForTimeout(100);
  }
  assert.ok(counts.notBackground > 1000, `the canvas is blank: ${JSON.stringify(counts)}`);
  assert.ok(counts.drawing > 500, `no triangle on the canvas, only background: ${JSON.stringify(counts)}`);

  mkdirSync(path.join(ROOT, "docs"), { recursive: true });
  await page.screenshot({ path: path.join(ROOT, "docs/screenshot.png") });
  await page.close();
});

test("a bad scenario is refused with LINE:COL", { timeout: 60000 }, async () => {
  const page = await openPage(baseURL);
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

  // The same through the editor: the error shows under it.
  await page.fill("#source", bad);
  await page.click("#run");
  await page.waitForFunction(() => /^3:\d+: /.test(document.getElementById("error").textContent));
  await page.close();
});

test("a link replays to the same hash", { timeout: 120000 }, async () => {
  const page = await openPage(baseURL);
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
  const second = await runToEnd(again);
  assert.equal(second.hash, first.hash);
  assert.equal(second.events, first.events);
  assert.equal(
    await again.evaluate(() => window.d3dsim.pixel(2, 2)),
    await page.evaluate(() => window.d3dsim.pixel(2, 2)),
  );
  await again.close();
  await page.close();
});

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
