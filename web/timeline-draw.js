// The fence timeline's drawing: one <canvas>, not a DOM node per event, so
// a million events pan smoothly. draw paints the items of the model
// (timeline-model.js) in view: a bucket of items narrower than a pixel is
// painted as runs of occupied pixel columns, jumping past everything that
// starts in the same column with a binary search, so a frame costs about
// (pixels x lanes x log items) however many events are loaded.

import { formatT } from "./model.js";
import { ROW, LANE_PAD, MAX_ROWS, LABEL_W, RULER_H, S, INSTANT, lowerBound, dense } from "./timeline-model.js";

const FONT = "11px ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace";
const CHAR_W = 6.7;

// Item styles (timeline-model.js S): [fill, text].
const STYLE = [
  ["#3b6fd8", "#eaf1ff"], // api
  ["#e0a528", "#1b1405"], // present
  ["#2f8f8a", "#e6fffb"], // umd
  ["#6b5bd6", "#f0edff"], // callback (pfn*Cb)
  ["#c9772e", "#fff4e8"], // kernel
  ["#2f9e57", "#ecfff3"], // dma
  ["#8d4fc4", "#f8efff"], // paging
  ["#c7434f", "#fff0f1"], // isr
  ["#c2518f", "#fff0f8"], // dpc
  ["#5b6472", "#e9edf2"], // wait
  ["#ff5d5d", ""], // interrupt
  ["#57d98a", ""], // fence
  ["#d6dde8", ""], // submit
  ["#ff3b3b", ""], // violation
  ["#f0c04a", ""], // message
  ["#8fd1a8", ""], // exec (other)
  ["#9c7a1e", "#fff7e0"], // marker (BeginEvent .. EndEvent)
  ["#3d6b52", "#e8fff1"], // queued (a DMA buffer waiting in a queue)
  ["#46505e", "#e6ebf2"], // alloc (an allocation, created to destroyed)
  ["#2b7fa8", "#eaf7ff"], // resident (in VRAM, paged in to evicted)
  ["#7a5aa8", "#f5efff"], // aperture (mapped into the aperture segment)
  ["#ff8a3d", ""], // evict (paged out of VRAM)
];
const HAZARD_COLOR = { RAW: "#ff6b6b", WAR: "#f0a040", WAW: "#f0d040" };

// draw paints the whole timeline of tl (a Timeline) now.
export function draw(tl) {
  const start = performance.now();
  const g = tl.g;
  const dpr = window.devicePixelRatio || 1;
  const W = tl.width();
  const H = tl.height();
  if (W <= 0 || H <= 0) return;
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  g.fillStyle = "#0d1117";
  g.fillRect(0, 0, W, H);
  const st = tl.store;
  const maxT = st ? st.maxT : 0;
  const t0 = tl.t0;
  const t1 = t0 + tl.plotW() * tl.scale;

  // Presents: faint lines across every lane.
  g.fillStyle = "rgba(224,165,40,0.16)";
  {
    const p = tl.presents;
    let k = lowerBound(p, t0, 0, p.length);
    let last = -1;
    // Lines closer than 4 px would only grey the whole view.
    for (; k < p.length && p[k] <= t1; k++) {
      const x = Math.floor(tl.x(p[k]));
      if (x - last < 4) continue;
      last = x;
      g.fillRect(x, RULER_H, 1, H - RULER_H);
    }
  }

  // TDRs, resets and device removals: red lines across every lane, named
  // under the ruler.
  g.font = FONT;
  g.textBaseline = "top";
  let lastLabel = -1e9;
  for (const [t, what] of tl.resets) {
    if (t < t0 || t > t1) continue;
    const x = Math.floor(tl.x(t));
    g.fillStyle = "rgba(255,80,80,0.55)";
    g.fillRect(x, RULER_H, 1, H - RULER_H);
    if (x - lastLabel < 56) continue; // one label for marks a few pixels apart
    lastLabel = x;
    g.fillStyle = "#ff6b6b";
    g.fillText(what, x + 3, RULER_H + 1);
  }

  // Lanes.
  g.font = FONT;
  g.textBaseline = "middle";
  let y = RULER_H + 4 - tl.scrollY;
  const laneY = new Map();
  for (const lane of tl.drawOrder || []) {
    const h = lane.rows * ROW;
    laneY.set(lane, y);
    if (y + h >= RULER_H && y <= H) drawLane(tl, lane, y, t0, t1, maxT, W);
    y += h + LANE_PAD;
    g.fillStyle = "#1b2230";
    g.fillRect(LABEL_W, y - LANE_PAD / 2 - 0.5, W - LABEL_W, 1);
  }
  tl.laneY = laneY;

  drawEdges(tl, laneY, W);
  drawSelection(tl, laneY, H);
  drawRange(tl, H);

  // Label column and ruler over everything.
  drawLabels(tl, laneY, H);
  drawRuler(tl, t0, t1, W);

  if (!st || st.n === 0) {
    g.fillStyle = "#7d8794";
    g.fillText("no events yet: press Play or Step", LABEL_W + 16, RULER_H + 30);
  }
  tl.lastDrawMs = performance.now() - start;
  tl.draws++;
}

// drawLabels paints the label column: each lane's title and, for a lane of
// several rows, its count of items. Its background hides whatever the lanes
// drew under it, so the column can be painted alone (labels).
function drawLabels(tl, laneY, H) {
  const g = tl.g;
  g.fillStyle = "#10151d";
  g.fillRect(0, RULER_H, LABEL_W, H - RULER_H);
  g.fillStyle = "#242c38";
  g.fillRect(LABEL_W - 1, RULER_H, 1, H - RULER_H);
  g.font = FONT;
  g.textBaseline = "middle";
  for (const [lane, ly] of laneY) {
    if (ly + lane.rows * ROW < RULER_H || ly > H) continue;
    g.fillStyle = ["#ff3b3b", "#3b6fd8", "#c9772e", "#2f9e57", "#c7434f", "#c2518f", "#8d96a3", "#2b7fa8"][lane.rank + 1];
    g.fillRect(0, ly, 3, lane.rows * ROW);
    g.fillStyle = "#c9d1d9";
    g.fillText(lane.title, 10, ly + ROW / 2 + 0.5);
    if (lane.rows > 1) {
      g.fillStyle = "#5d6673";
      if (lane.countN !== lane.n) {
        // toLocaleString is slow (Intl), and the counts of a streaming
        // run's lanes are drawn every poll.
        lane.countN = lane.n;
        lane.countText = lane.n.toLocaleString("en-US") + (lane.n === 1 ? " item" : " items");
      }
      g.fillText(lane.countText, 10, ly + ROW * 1.5 + 0.5);
    }
  }
}

// labels paints the label column alone, as a whole paint would with the
// lanes' layout of the last one (timeline.js plan: only the counts moved).
// Rectangles and text only: a lane's path of markers rasterizes differently
// under a clip (Skia's anti-aliasing, 27 pixels of a GPU lane in a test),
// so the lanes themselves are never painted in part.
export function labels(tl) {
  const g = tl.g;
  const dpr = window.devicePixelRatio || 1;
  g.save();
  g.setTransform(1, 0, 0, 1, 0, 0);
  g.beginPath();
  // The pixels the column's background covers whole.
  const top = Math.ceil(RULER_H * dpr);
  g.rect(0, top, Math.floor((LABEL_W - 1) * dpr), tl.canvas.height - top);
  g.clip();
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  drawLabels(tl, tl.laneY, tl.height());
  g.restore();
  tl.labelled++;
}

// drawLane paints one lane's items in [t0, t1] at height y: dense
// buckets as pixel columns, the others and the open items one by one.
function drawLane(tl, lane, y, t0, t1, maxT, W) {
  const g = tl.g;
  const scale = tl.scale;
  const laneH = lane.rows * ROW;
  // Spans first, instants (bucket 0) on top of them.
  const bks = lane.buckets.length ? [...lane.buckets.slice(1), lane.buckets[0]] : [];
  if (lane.rank === 2) {
    // Under the DMA buffers, the stretch each waited in the queue.
    for (const bk of bks) {
      if (!bk || !bk.n || dense(bk, scale)) continue;
      bk.prepare(lane);
      for (let k = lowerBound(bk.pm, t0, 0, bk.n); k < bk.n && bk.ss[k] <= t1; k++) drawQueued(tl, lane, bk.ord[k], y, t0);
    }
    for (const i of lane.open) if (lane.s[i] <= t1) drawQueued(tl, lane, i, y, t0);
  }
  for (const bk of bks) {
    if (!bk || !bk.n) continue;
    bk.prepare(lane);
    const tiny = dense(bk, scale);
    let k = lowerBound(bk.pm, t0, 0, bk.n);
    if (!tiny) {
      for (; k < bk.n && bk.ss[k] <= t1; k++) drawItem(tl, lane, bk.ord[k], y, t0, maxT, W);
      continue;
    }
    // Tiny at this zoom: runs of occupied pixel columns, one rectangle
    // per run and row; instants as markers at least 3 px apart, one path
    // per bucket.
    const runA = new Float64Array(MAX_ROWS).fill(-10);
    const runB = new Float64Array(MAX_ROWS).fill(-10);
    const runStyle = new Int32Array(MAX_ROWS);
    const runFull = new Uint8Array(MAX_ROWS);
    const flush = (d) => {
      if (runB[d] < runA[d]) return;
      g.fillStyle = STYLE[runStyle[d]][0];
      const top = y + d * ROW + 1;
      g.fillRect(runA[d], top, runB[d] - runA[d] + 1, runFull[d] ? laneH - d * ROW - 2 : ROW - 2);
      runB[d] = -10;
    };
    let instantStyle = -1;
    let lastMark = -10;
    while (k < bk.n) {
      const s = bk.ss[k];
      if (s > t1) break;
      const i = bk.ord[k];
      const px = Math.floor(LABEL_W + (s - t0) / scale);
      const next = t0 + (px + 1 - LABEL_W) * scale;
      const k2 = k + 1 < bk.n && bk.ss[k + 1] >= next ? k + 1 : lowerBound(bk.ss, next, k + 1, bk.n);
      const style = lane.st[i];
      const d = Math.min(lane.d[i], MAX_ROWS - 1);
      if (px >= LABEL_W - 4) {
        if (INSTANT.has(style)) {
          if (px - lastMark >= 4) {
            if (style !== instantStyle) {
              if (instantStyle >= 0) {
                g.fillStyle = STYLE[instantStyle][0];
                g.fill();
              }
              instantStyle = style;
              g.beginPath();
            }
            instantPath(tl, style, px + 0.5, y + d * ROW + ROW / 2);
            lastMark = px;
          }
        } else {
          const full = k2 > k + 1 ? 1 : 0;
          if (px <= runB[d] + 1 && style === runStyle[d] && full === runFull[d]) runB[d] = Math.max(runB[d], px);
          else {
            flush(d);
            runA[d] = px;
            runB[d] = px;
            runStyle[d] = style;
            runFull[d] = full;
          }
        }
      }
      k = k2;
    }
    for (let d = 0; d < MAX_ROWS; d++) flush(d);
    if (instantStyle >= 0) {
      g.fillStyle = STYLE[instantStyle][0];
      g.fill();
    }
  }
  for (const i of lane.open) {
    if (lane.s[i] <= t1) drawItem(tl, lane, i, y, t0, maxT, W);
  }
}

// drawQueued draws a DMA buffer's time in the queue: from
// DxgkDdiSubmitCommand to the GPU's start.
function drawQueued(tl, lane, i, y, t0) {
  const style = lane.st[i];
  if (style !== S.dma && style !== S.paging) return;
  const inf = tl.dmaInfo.get(tl.store.dma(lane.ev[i]));
  const s = lane.s[i];
  if (!inf || !(inf.submit < s)) return;
  const g = tl.g;
  const ry = y + Math.min(lane.d[i], MAX_ROWS - 1) * ROW;
  const xs = Math.max(LABEL_W, LABEL_W + (inf.submit - t0) / tl.scale);
  const x0 = LABEL_W + (s - t0) / tl.scale;
  if (x0 <= xs) return;
  g.fillStyle = "rgba(201,209,217,0.35)";
  g.fillRect(xs, ry + ROW - 3, x0 - xs, 1);
  g.fillRect(xs, ry + ROW - 6, 1, 4);
}

// drawItem paints one item: a span (with its label when it fits) or an
// instant's marker.
function drawItem(tl, lane, i, y, t0, maxT, W) {
  const g = tl.g;
  const style = lane.st[i];
  const s = lane.s[i];
  let e = lane.e[i];
  const open = Number.isNaN(e);
  if (open) e = maxT;
  if (e < t0) return;
  const d = Math.min(lane.d[i], MAX_ROWS - 1);
  const ry = y + d * ROW;
  let x0 = LABEL_W + (s - t0) / tl.scale;
  let x1 = LABEL_W + (e - t0) / tl.scale;
  if (INSTANT.has(style)) {
    drawInstant(tl, style, Math.floor(x0) + 0.5, ry + ROW / 2);
    return;
  }
  if (x1 - x0 < 1) x1 = x0 + 1;
  if (x0 < LABEL_W) x0 = LABEL_W;
  if (x1 > W + 2) x1 = W + 2;
  const w = x1 - x0;
  if (w <= 0) return;
  if (style === S.wait) {
    g.fillStyle = "rgba(91,100,114,0.55)";
    g.fillRect(x0, ry + 3, w, ROW - 6);
    g.fillStyle = "#9aa4b2";
    g.fillRect(x0, ry + ROW / 2 - 0.5, w, 1);
  } else {
    g.fillStyle = STYLE[style][0];
    g.fillRect(x0, ry + 1, w - (w > 3 ? 1 : 0), ROW - 2);
    if (open) {
      g.fillStyle = "rgba(13,17,23,0.45)";
      g.fillRect(Math.max(x0, x1 - 6), ry + 1, Math.min(6, w), ROW - 2);
    }
  }
  if (w > 24) {
    let label = tl.label(lane, i, style);
    const max = Math.floor((w - 6) / CHAR_W);
    if (max > 1) {
      if (label.length > max) label = label.slice(0, max - 1) + "…";
      g.fillStyle = style === S.wait ? "#e9edf2" : STYLE[style][1];
      g.fillText(label, x0 + 3, ry + ROW / 2 + 0.5);
    }
  }
}

// drawInstant paints an instant's marker at (x, y).
function drawInstant(tl, style, x, y) {
  const g = tl.g;
  g.fillStyle = STYLE[style][0];
  g.beginPath();
  instantPath(tl, style, x, y);
  g.fill();
}

// instantPath adds an instant's marker to the current path: a triangle
// for interrupts and violations, a diamond for the rest.
function instantPath(tl, style, x, y) {
  const g = tl.g;
  if (style === S.interrupt || style === S.violation) {
    g.moveTo(x, y - 6);
    g.lineTo(x + 4, y + 5);
    g.lineTo(x - 4, y + 5);
  } else {
    g.moveTo(x, y - 5);
    g.lineTo(x + 4, y);
    g.lineTo(x, y + 5);
    g.lineTo(x - 4, y);
  }
  g.closePath();
}

// drawEdges paints the dependency edges between DMA buffers, coloured by
// hazard (RAW, WAR, WAW).
function drawEdges(tl, laneY, W) {
  if (!tl.edges.length) return;
  const g = tl.g;
  const maxT = tl.store.maxT;
  g.lineWidth = 1.25;
  let drawn = 0;
  for (const [, from, to, hazard] of tl.edges) {
    const a = tl.dmaItem.get(from);
    const b = tl.dmaItem.get(to);
    if (!a || !b) continue;
    const ae = Number.isNaN(a[0].e[a[1]]) ? maxT : a[0].e[a[1]];
    const x0 = tl.x(ae);
    const x1 = tl.x(b[0].s[b[1]]);
    if ((x0 < LABEL_W && x1 < LABEL_W) || (x0 > W && x1 > W)) continue;
    // Zoomed out, edges are too short to read and too many to draw: they
    // appear once a DMA buffer is a few pixels wide.
    if (b[0].e[b[1]] - b[0].s[b[1]] < 3 * tl.scale) continue;
    if (++drawn > 600) break;
    const y0 = laneY.get(a[0]) + ROW / 2;
    const y1 = laneY.get(b[0]) + ROW / 2;
    g.strokeStyle = HAZARD_COLOR[hazard] || "#c9d1d9";
    g.beginPath();
    g.moveTo(x0, y0);
    const mx = (x0 + x1) / 2;
    g.bezierCurveTo(mx, y0 - 14, mx, y1 - 14, x1, y1);
    g.stroke();
    g.fillStyle = g.strokeStyle;
    g.beginPath();
    g.moveTo(x1, y1);
    g.lineTo(x1 - 5, y1 - 4);
    g.lineTo(x1 - 5, y1 + 4);
    g.fill();
  }
}

// drawSelection marks the selected event: a line across the lanes and a
// frame around its item.
function drawSelection(tl, laneY, H) {
  const i = tl.selected;
  if (i < 0 || !tl.store || i >= tl.store.n) return;
  const g = tl.g;
  const x = tl.x(tl.store.t[i]);
  g.fillStyle = "rgba(255,255,255,0.35)";
  g.fillRect(Math.floor(x), RULER_H, 1, H - RULER_H);
  const ln = tl.itemLane[i];
  if (ln < 0 || ln === undefined) return;
  const lane = tl.laneList[ln];
  const idx = tl.itemIdx[i];
  const y = laneY.get(lane);
  if (y === undefined) return;
  const d = Math.min(lane.d[idx], MAX_ROWS - 1);
  const e = Number.isNaN(lane.e[idx]) ? tl.store.maxT : lane.e[idx];
  const x0 = tl.x(lane.s[idx]);
  const x1 = Math.max(x0 + 4, tl.x(e));
  g.strokeStyle = "#ffffff";
  g.lineWidth = 2;
  g.strokeRect(Math.max(LABEL_W, x0 - 2), y + d * ROW - 1, x1 - Math.max(LABEL_W, x0 - 2) + 2, ROW + 1);
}

// drawRange shades a shift-dragged stretch and says how long it is.
function drawRange(tl, H) {
  if (!tl.range) return;
  const g = tl.g;
  const [a, b] = tl.range[0] <= tl.range[1] ? tl.range : [tl.range[1], tl.range[0]];
  const x0 = Math.max(LABEL_W, tl.x(a));
  const x1 = Math.max(LABEL_W, tl.x(b));
  g.fillStyle = "rgba(79,140,255,0.12)";
  g.fillRect(x0, RULER_H, x1 - x0, H - RULER_H);
  g.fillStyle = "rgba(79,140,255,0.8)";
  g.fillRect(x0, RULER_H, 1, H - RULER_H);
  g.fillRect(x1, RULER_H, 1, H - RULER_H);
  const label = formatT(b - a);
  const w = label.length * CHAR_W + 10;
  const lx = Math.min(Math.max(LABEL_W + 2, (x0 + x1) / 2 - w / 2), tl.width() - w - 2);
  g.fillStyle = "#1f3d7a";
  g.fillRect(lx, RULER_H + 2, w, 16);
  g.fillStyle = "#eaf1ff";
  g.fillText(label, lx + 5, RULER_H + 10.5);
}

// drawRuler paints the time ruler along the top.
function drawRuler(tl, t0, t1, W) {
  const g = tl.g;
  g.fillStyle = "#10151d";
  g.fillRect(0, 0, W, RULER_H);
  g.fillStyle = "#242c38";
  g.fillRect(0, RULER_H - 1, W, 1);
  const span = t1 - t0;
  const target = span / Math.max(1, (W - LABEL_W) / 110);
  const pow = Math.pow(10, Math.floor(Math.log10(target)));
  let step = pow;
  for (const m of [1, 2, 5, 10]) {
    if (pow * m >= target) { step = pow * m; break; }
  }
  g.fillStyle = "#7d8794";
  g.font = FONT;
  for (let t = Math.ceil(t0 / step) * step; t <= t1; t += step) {
    const x = Math.round(tl.x(t));
    if (x < LABEL_W) continue;
    g.fillRect(x, RULER_H - 6, 1, 5);
    g.fillText(formatT(t), x + 3, 9);
  }
  g.fillStyle = "#c9d1d9";
  g.fillText("virtual time", 10, 12);
}
