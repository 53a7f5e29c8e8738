// The pictures in README.md and docs/ are the page's own: the browser tests
// that put the page into each state (screenshots.test.mjs, newcomer-shots.
// test.mjs) take them at a fixed viewport (1280x800) from fixed scenarios.
//
//   make screenshots                  # UPDATE_SCREENSHOTS=1: write docs/*.png
//   node --test screenshots.test.mjs  # compare with the committed docs/*.png
//
// Without UPDATE_SCREENSHOTS=1 each picture is compared with the committed
// one, perceptually: two pixels differ when a channel differs by more than
// PIXEL_DELTA; the picture is cut into TILE x TILE tiles, and it has changed
// when a tile has more than TILE_PIXELS differing pixels (a view that moves,
// a label that changes) — antialiasing and font hinting that differ by a
// shade on a few edge pixels do not count. On a change the test writes the
// new picture and a diff (differing pixels red, changed tiles framed) to
// tests/browser/.screenshots/ and fails, naming them. The committed pictures
// are drawn by Debian's chromium with its fonts (DejaVu, Liberation):
// another browser build or font set draws text otherwise and fails here;
// `make screenshots` on that machine redraws them.

import assert from "node:assert/strict";
import { mkdirSync, readFileSync, existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ROOT, boundWaits, nextFrames } from "./harness.mjs";

export const UPDATE = process.env.UPDATE_SCREENSHOTS === "1";
export const DOCS = path.join(ROOT, "docs");
export const OUT = path.join(ROOT, "tests/browser/.screenshots");

export const PIXEL_DELTA = 32;
export const TILE = 16;
export const TILE_PIXELS = 3;

// SHOTS is every picture README.md and docs/ show, and the test file that
// makes it (screenshots.test.mjs checks that the docs show exactly these,
// and that docs/ holds no other picture).
export const SHOTS = {
  "screenshot.png": "screenshots.test.mjs",
  "panel-timeline.png": "screenshots.test.mjs",
  "panel-cmdlists.png": "screenshots.test.mjs",
  "panel-handles.png": "screenshots.test.mjs",
  "panel-shaders.png": "screenshots.test.mjs",
  "panel-flow.png": "screenshots.test.mjs",
  "panel-problems.png": "screenshots.test.mjs",
  "panel-trace.png": "screenshots.test.mjs",
  "panel-state.png": "screenshots.test.mjs",
  "panel-resource.png": "screenshots.test.mjs",
  "panel-pixel.png": "screenshots.test.mjs",
  "panel-compare.png": "screenshots.test.mjs",
  "timeline-1m.png": "screenshots.test.mjs",
  "timeline-memory.png": "screenshots.test.mjs",
  "tutorial.png": "screenshots.test.mjs",
  "newcomer-1-open.png": "newcomer-shots.test.mjs",
  "newcomer-2-played.png": "newcomer-shots.test.mjs",
  "newcomer-3-event.png": "newcomer-shots.test.mjs",
  "newcomer-4-flow.png": "newcomer-shots.test.mjs",
  "newcomer-5-step-call.png": "newcomer-shots.test.mjs",
  "newcomer-6-step-frame.png": "newcomer-shots.test.mjs",
  "newcomer-7-shortcuts.png": "newcomer-shots.test.mjs",
  "newcomer-8-tutorial.png": "newcomer-shots.test.mjs",
  "newcomer-9-share.png": "newcomer-shots.test.mjs",
};

// settle waits until the page has drawn what it holds: a poll of the panel
// finds no new event, and six animation frames have passed (the canvas
// views and Ebiten's canvas draw on the next frame). The pointer goes to
// the bar's empty middle, where it hovers nothing.
export async function settle(page) {
  await page.mouse.move(900, 12);
  await page.waitForFunction(() => {
    const ui = window.d3dsimUI;
    if (!ui) return true;
    const n = ui.store.n;
    ui.poll();
    return ui.store.n === n; // a poll found nothing new
  });
  await nextFrames(page, 6);
}

// compare decodes two PNGs in a blank page and compares them (see above);
// it returns the counts and a diff picture (PNG, base64) when they differ.
async function compare(browser, got, want) {
  const page = boundWaits(await browser.newPage());
  try {
    return await page.evaluate(async ({ got, want, PIXEL_DELTA, TILE, TILE_PIXELS }) => {
      const load = async (b64) => {
        const img = new Image();
        img.src = "data:image/png;base64," + b64;
        await img.decode();
        const c = document.createElement("canvas");
        c.width = img.width;
        c.height = img.height;
        const g = c.getContext("2d");
        g.drawImage(img, 0, 0);
        return { w: img.width, h: img.height, d: g.getImageData(0, 0, img.width, img.height).data };
      };
      const a = await load(got);
      const b = await load(want);
      if (a.w !== b.w || a.h !== b.h) return { sizes: `${a.w}x${a.h}, committed ${b.w}x${b.h}`, tiles: -1 };
      const tw = Math.ceil(a.w / TILE);
      const count = new Uint32Array(tw * Math.ceil(a.h / TILE));
      const c = document.createElement("canvas");
      c.width = a.w;
      c.height = a.h;
      const g = c.getContext("2d");
      const out = g.createImageData(a.w, a.h);
      let pixels = 0;
      for (let y = 0; y < a.h; y++) {
        for (let x = 0; x < a.w; x++) {
          const i = (y * a.w + x) * 4;
          const d = Math.max(Math.abs(a.d[i] - b.d[i]), Math.abs(a.d[i + 1] - b.d[i + 1]), Math.abs(a.d[i + 2] - b.d[i + 2]));
          if (d > PIXEL_DELTA) {
            pixels++;
            count[Math.floor(y / TILE) * tw + Math.floor(x / TILE)]++;
            out.data.set([255, 40, 40, 255], i);
          } else {
            const v = (a.d[i] + a.d[i + 1] + a.d[i + 2]) / 9;
            out.data.set([v, v, v, 255], i);
          }
        }
      }
      g.putImageData(out, 0, 0);
      let tiles = 0;
      g.strokeStyle = "#ffd400";
      for (let t = 0; t < count.length; t++) {
        if (count[t] <= TILE_PIXELS) continue;
        tiles++;
        g.strokeRect((t % tw) * TILE + 0.5, Math.floor(t / tw) * TILE + 0.5, TILE - 1, TILE - 1);
      }
      return { pixels, tiles, diff: tiles ? c.toDataURL("image/png").split(",")[1] : "" };
    }, { got: got.toString("base64"), want: want.toString("base64"), PIXEL_DELTA, TILE, TILE_PIXELS });
  } finally {
    await page.close();
  }
}

// shot takes picture name of the page as it stands (after settle): with
// UPDATE_SCREENSHOTS=1 it writes docs/NAME, else it compares it with the
// committed one and fails when the page draws something else.
export async function shot(page, name) {
  assert.ok(SHOTS[name], `${name} is not in shots.mjs SHOTS`);
  await settle(page);
  const png = await page.screenshot({ animations: "disabled", caret: "hide" });
  const file = path.join(DOCS, name);
  if (UPDATE) {
    writeFileSync(file, png);
    return;
  }
  assert.ok(existsSync(file), `${file} is missing: make screenshots draws it`);
  const r = await compare(page.context(), png, readFileSync(file));
  const base = name.replace(/\.png$/, "");
  if (r.tiles === 0) {
    console.log(`# ${name}: as committed (${r.pixels} pixels differ by more than ${PIXEL_DELTA}, in no tile more than ${TILE_PIXELS})`);
    return;
  }
  mkdirSync(OUT, { recursive: true });
  writeFileSync(path.join(OUT, base + ".new.png"), png);
  if (r.diff) writeFileSync(path.join(OUT, base + ".diff.png"), Buffer.from(r.diff, "base64"));
  assert.fail(`docs/${name} is not what the page draws now: ` +
    (r.sizes ? `sizes ${r.sizes}` : `${r.tiles} tiles of ${TILE}x${TILE} changed (${r.pixels} pixels)`) +
    `; see ${path.relative(ROOT, OUT)}/${base}.new.png and ${base}.diff.png. If the change is meant, run make screenshots and commit the pictures.`);
}
