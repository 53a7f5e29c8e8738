// apitrace captures in the page (docs/apitrace.md): Download offers the run
// as capture.trace; that file dropped onto the page becomes the equivalent
// scenario, which plays to the same frame; `apitrace dump` text pasted into
// the empty editor imports too, and the calls the simulator cannot make are
// listed in Problems.
//
//   cd tests/browser && node --test capture.test.mjs

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { SERVER_START_TIMEOUT, launch, runToEnd, within } from "./harness.mjs";

let h = null;

before(async () => {
  h = await launch();
}, { timeout: SERVER_START_TIMEOUT + 60000 });

after(async () => {
  await h?.close();
});

test("Download capture.trace, drop it back: the same frame; paste a dump: Problems lists what is not simulated", { timeout: 300000 }, async () => {
  const page = await h.openPage(h.baseURL + "#demo=hello-triangle");
  const want = await within("the first run", 60000, runToEnd(page));
  assert.match(want.hash, /^[0-9a-f]{16}$/);

  // Download offers the run as an apitrace capture.
  const [dl] = await Promise.all([
    page.waitForEvent("download", { timeout: 60000 }),
    (async () => {
      await page.click("#download");
      await page.click('#download-menu [data-kind="trace"]');
    })(),
  ]);
  assert.equal(dl.suggestedFilename(), "capture.trace");
  const trace = readFileSync(await dl.path());
  assert.equal(trace.subarray(0, 2).toString(), "at", "a Snappy apitrace file starts 'at'");

  // Dropped onto the page, it becomes the scenario, which plays to the
  // same frame; Problems says every call was simulated.
  await page.evaluate((bytes) => {
    const dt = new DataTransfer();
    dt.items.add(new File([new Uint8Array(bytes)], "capture.trace", { type: "application/octet-stream" }));
    window.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, cancelable: true }));
  }, [...trace]);
  await page.waitForFunction(() => window.d3dsim.source().startsWith("# Imported from capture.trace"), null, { timeout: 60000 });
  const src = await page.evaluate(() => window.d3dsim.source());
  assert.match(src, /sc = dev\.CreateSwapChain Width=64 Height=64  # call 3/);
  await page.waitForFunction(() => document.getElementById("source").value.startsWith("# Imported from capture.trace"));
  const got = await within("the run of the dropped capture", 60000, runToEnd(page));
  assert.equal(got.hash, want.hash);
  assert.deepEqual(got.failures, []);
  await page.click('.tabs [data-view="problems"]');
  await page.evaluate(() => window.d3dsimUI.poll());
  await page.waitForFunction(() => /Imported from capture\.trace: \d+ calls, \d+ statements; every call simulated/.test(document.getElementById("problems").textContent), null, { timeout: 30000 });

  // Dump text pasted into the empty editor imports; the call the
  // simulator lacks is in Problems, the scenario runs.
  const dump = [
    "0 D3D11CreateDevice(pAdapter = NULL, DriverType = D3D_DRIVER_TYPE_HARDWARE, Software = NULL, Flags = 0x0, pFeatureLevels = NULL, FeatureLevels = 0, SDKVersion = 7, ppDevice = &0x100, pFeatureLevel = NULL, ppImmediateContext = &0x200) = S_OK",
    "1 ID3D11DeviceContext::SetResourceMinLOD(this = 0x200, pResource = NULL, MinLOD = 0)",
    "2 ID3D11DeviceContext::Flush(this = 0x200)",
    "",
  ].join("\n");
  await page.evaluate(() => {
    const s = document.getElementById("source");
    s.value = "";
    s.focus();
  });
  await page.evaluate((text) => {
    const dt = new DataTransfer();
    dt.setData("text/plain", text);
    document.getElementById("source").dispatchEvent(new ClipboardEvent("paste", { clipboardData: dt, bubbles: true, cancelable: true }));
  }, dump);
  await page.waitForFunction(() => window.d3dsim.source().includes("imm.Flush  # call 2"), null, { timeout: 60000 });
  const pasted = await page.evaluate(() => window.d3dsim.source());
  assert.match(pasted, /# call 1: ID3D11DeviceContext::SetResourceMinLOD: not simulated/);
  const s = await within("the run of the pasted dump", 60000, runToEnd(page));
  assert.deepEqual(s.failures, []);
  await page.evaluate(() => window.d3dsimUI.poll());
  await page.waitForFunction(() => /not simulated\s*ID3D11DeviceContext::SetResourceMinLOD ×1, first call 1/.test(document.getElementById("problems").textContent), null, { timeout: 30000 })
    .catch(async (err) => {
      throw new Error(`${err.message}; Problems shows: ${await page.locator("#problems").textContent()}`);
    });
  assert.match(await page.locator("#problem-count").textContent(), /^[1-9]/);
  assert.deepEqual(h.pageErrors, []);
  await page.close();
});
