// The panel reads trace payloads typed (web/model.js Store.argHas, argInt,
// argStr, allocCount over the batches' typed entries, wasm/columns.go),
// never from their text. This test checks, on scenarios with paging
// buffers, waits and out-of-order dependencies, that the timeline and the
// flow view find what the text says: the text is parsed here, in the test,
// as the panel used to, and compared with what the views built.
//
//   cd tests/browser && npm ci && node --test args.test.mjs

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { ROOT, SERVER_START_TIMEOUT, launch } from "./harness.mjs";
import { C, KEY, KIND } from "../../web/model.js";

let h;
before(async () => { h = await launch(); }, { timeout: SERVER_START_TIMEOUT });
after(async () => { await h?.close(); });

for (const name of ["memory-pressure", "out-of-order", "command-lists", "two-devices"]) {
  test(`${name}: the timeline and the flow read the payloads the text shows`, { timeout: 180000 }, async () => {
    const page = await h.openPage(h.baseURL);
    const src = readFileSync(path.join(ROOT, "assets/scenarios", name + ".d3ds"), "utf8");
    const res = await page.evaluate((text) => window.d3dsim.load(text), src);
    assert.equal(res.ok, true, res.error);
    const sum = await page.evaluate(() => window.d3dsim.run());
    await page.evaluate(() => window.d3dsimUI.poll());
    await page.waitForFunction((n) => window.d3dsimUI.store.lastSeq === n, sum.events, { timeout: 120000 });
    await page.click('.tabs [data-view="flow"]');
    const r = await page.evaluate(({ C, KEY, KIND }) => {
      const ui = window.d3dsimUI;
      const st = ui.store;
      ui.timeline.ingest();
      const flow = ui.views.flow;
      flow.ingest();
      // The old text parser, kept here only to compare.
      const argValue = (args, key) => {
        for (const f of (args || "").split(/\s+/)) if (f.startsWith(key + "=")) return f.slice(key.length + 1);
        return "";
      };
      const paging = new Set(), info = new Map(), edges = [], pagingFor = new Map();
      let waitsDone = 0, waitsTyped = 0;
      for (let i = 0; i < st.n; i++) {
        const args = st.s(i, C.args);
        const name = st.name(i), kind = st.kind(i), dma = st.dma(i);
        if (kind === KIND.call && dma) {
          const pg = name === "DxgkDdiBuildPagingBuffer" || (name === "DxgkDdiSubmitCommand" && /paging/.test(args));
          if (pg) {
            paging.add(dma);
            const m = /for(?:=| DMA )(\d+)/.exec(args + " " + st.s(i, C.msg));
            if (m) pagingFor.set(dma, Number(m[1]));
          }
          if (name === "DxgkDdiSubmitCommand") info.set(dma, [argValue(args, "allocs"), argValue(args, "patches")]);
        }
        if (kind === KIND.wait) {
          if (argValue(args, "done") !== "" || /(^|\s)done(\s|$)/.test(args)) waitsDone++;
          if (st.argHas(i, KEY.done)) waitsTyped++;
        }
        if (kind === KIND.dep) {
          const from = Number(argValue(args, "after") || argValue(args, "from") || 0);
          const hazard = argValue(args, "hazard") || (args.match(/\b(RAW|WAR|WAW)\b/) || [])[1] || "";
          if (from && dma) edges.push([i, from, dma, hazard]);
        }
      }
      const gotInfo = [];
      for (const [dma, d] of ui.timeline.dmaInfo) if (info.has(dma)) gotInfo.push([dma, d.allocs, d.patches]);
      return {
        n: st.n,
        paging: [...paging].sort((a, b) => a - b), gotPaging: [...ui.timeline.paging].sort((a, b) => a - b),
        info: [...info].map(([dma, [a, p]]) => [dma, Number(a), Number(p)]).sort((x, y) => x[0] - y[0]),
        gotInfo: gotInfo.sort((x, y) => x[0] - y[0]),
        edges, gotEdges: ui.timeline.edges,
        pagingFor: [...pagingFor].sort((a, b) => a[0] - b[0]), gotPagingFor: [...flow.pagingFor].sort((a, b) => a[0] - b[0]),
        waitsDone, waitsTyped,
      };
    }, { C, KEY, KIND });
    assert.ok(r.n > 0);
    assert.ok(r.info.length > 0, "no DxgkDdiSubmitCommand");
    assert.deepEqual(r.gotPaging, r.paging);
    assert.deepEqual(r.gotInfo, r.info);
    assert.deepEqual(r.gotEdges, r.edges);
    assert.deepEqual(r.gotPagingFor, r.pagingFor);
    assert.equal(r.waitsTyped, r.waitsDone);
    if (name === "memory-pressure") assert.ok(r.paging.length > 0 && r.pagingFor.length > 0, "memory-pressure has no paging buffer");
    if (name === "out-of-order") assert.ok(r.edges.length > 0 && r.edges.every((e) => e[3]), "out-of-order has no dependency edge with a hazard");
    assert.deepEqual(h.pageErrors, []);
    await page.close();
  });
}
