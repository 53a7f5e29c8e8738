// The fence timeline: one <canvas>, not a DOM node per event, so a million
// events pan smoothly. Events become lane items as they arrive (ingest, once
// per event); drawing walks only the items in view, and where many items fall
// into one pixel column it draws the column once and jumps past them with a
// binary search, so a frame costs about (pixels x lanes x log items) however
// many events are loaded.
//
// Lanes (DESIGN.md "Browser"): per app thread its API calls (with Map and
// fence waits beneath) and its runtime/UMD calls; Dxgkrnl/KMD; each GPU
// engine (DMA and paging buffers as spans labelled with DMA and fence ids,
// interrupts); ISR; DPC (fences signalled). Presents are marked across all
// lanes; dependency edges (trace kind "dep") are drawn between DMA buffers.

import { KIND, LAYER, C, formatT, argValue } from "./model.js";

const ROW = 17; // px per nesting row
const LANE_PAD = 7;
const MAX_ROWS = 4;
const LABEL_W = 156;
const RULER_H = 24;
const FONT = "11px ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace";
const CHAR_W = 6.7;

// Item styles: [fill, text].
const S = {
  api: 0, present: 1, umd: 2, callback: 3, kernel: 4, dma: 5, paging: 6, isr: 7, dpc: 8,
  wait: 9, interrupt: 10, fence: 11, submit: 12, violation: 13, message: 14, exec: 15,
};
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
];
const INSTANT = new Set([S.interrupt, S.fence, S.submit, S.violation, S.message, S.exec]);
const HAZARD_COLOR = { RAW: "#ff6b6b", WAR: "#f0a040", WAW: "#f0d040" };

// A lane's items in growable typed arrays. For drawing, closed items are
// bucketed by duration (powers of two): a bucket whose longest item is under
// two pixels at the current zoom is drawn as density columns, jumping past
// everything that starts in the same pixel with a binary search; wider
// buckets are drawn item by item. Items still open (a call without its
// return yet, a DMA buffer still running) are drawn one by one.
export class Bucket {
  constructor(maxDur) {
    this.maxDur = maxDur;
    this.n = 0;
    this.idx = new Int32Array(64); // item numbers as filed
    this.dirty = true;
    this.k = 0; // items already in ord/ss/pm
    this.ss = new Float64Array(64); // starts in start order
    this.pm = new Float64Array(64); // prefix maximum of ends in that order
    this.ord = new Int32Array(64); // item numbers in that order
  }

  add(i) {
    if (this.n === this.idx.length) {
      const a = new Int32Array(this.n * 2);
      a.set(this.idx);
      this.idx = a;
    }
    this.idx[this.n++] = i;
    this.dirty = true;
  }

  // prepare brings ord, ss and pm up to date with the items filed since the
  // last call, without sorting the whole bucket again: the new items are
  // sorted among themselves and merged in from the first prepared item that
  // sorts after the earliest of them (usually near the end: items are filed
  // as they close, roughly in start order). The order is that of sorting
  // all items by (start, item number).
  prepare(lane) {
    if (!this.dirty) return;
    this.dirty = false;
    const n = this.n;
    const k = this.k;
    if (n === k) return;
    const s = lane.s;
    const e = lane.e;
    if (this.ord.length < n) {
      let cap = this.ord.length;
      while (cap < n) cap *= 2;
      for (const key of ["ord", "ss", "pm"]) {
        const a = new this[key].constructor(cap);
        a.set(this[key].subarray(0, k));
        this[key] = a;
      }
    }
    const cmp = (a, b) => s[a] - s[b] || a - b;
    const add = this.idx.slice(k, n);
    let sorted = true;
    for (let j = 1; j < add.length && sorted; j++) sorted = cmp(add[j - 1], add[j]) <= 0;
    if (!sorted) add.sort(cmp);
    // p: the first prepared item that sorts after add[0].
    const a0 = add[0];
    let p = lowerBound(this.ss, s[a0], 0, k);
    while (p < k && this.ss[p] === s[a0] && this.ord[p] < a0) p++;
    // Merge ord[p..k) with add into ord[p..n).
    const old = this.ord.slice(p, k);
    let x = 0;
    let y = 0;
    for (let q = p; q < n; q++) {
      const i = y >= add.length || (x < old.length && cmp(old[x], add[y]) <= 0) ? old[x++] : add[y++];
      this.ord[q] = i;
      this.ss[q] = s[i];
      const m = q > 0 ? this.pm[q - 1] : -Infinity;
      this.pm[q] = e[i] > m ? e[i] : m;
    }
    this.k = n;
  }
}

class Lane {
  constructor(key, title, rank, order) {
    this.key = key;
    this.title = title;
    this.rank = rank; // group: -1 verifier, 0 app threads, 1 kernel, 2 GPU, 3 ISR, 4 DPC
    this.order0 = order; // first seen
    this.n = 0;
    this.cap = 256;
    this.s = new Float64Array(this.cap);
    this.e = new Float64Array(this.cap);
    this.ev = new Int32Array(this.cap);
    this.st = new Uint8Array(this.cap);
    this.d = new Uint8Array(this.cap);
    this.lab = new Int32Array(this.cap); // fence id on DMA spans
    this.rows = 1;
    this.buckets = []; // by duration class
    this.open = new Set(); // items without an end yet
  }

  push(s, e, ev, st, d) {
    if (this.n === this.cap) {
      this.cap *= 2;
      for (const k of ["s", "e", "ev", "st", "d", "lab"]) {
        const a = new this[k].constructor(this.cap);
        a.set(this[k]);
        this[k] = a;
      }
    }
    const i = this.n++;
    this.s[i] = s;
    this.e[i] = e;
    this.ev[i] = ev;
    this.st[i] = st;
    this.d[i] = d;
    this.lab[i] = 0;
    if (d + 1 > this.rows) this.rows = Math.min(MAX_ROWS, d + 1);
    if (Number.isNaN(e)) this.open.add(i);
    else this.file(i);
    return i;
  }

  close(i, e) {
    this.e[i] = Math.max(e, this.s[i]);
    if (this.open.delete(i)) this.file(i);
  }

  file(i) {
    const dur = this.e[i] - this.s[i];
    const b = dur <= 0 ? 0 : Math.min(62, 1 + Math.ceil(Math.log2(dur + 1)));
    let bk = this.buckets[b];
    if (!bk) this.buckets[b] = bk = new Bucket(b === 0 ? 0 : Math.pow(2, b - 1));
    bk.add(i);
  }
}

// lowerBound: first k in [lo, n) with a[k] >= v.
function lowerBound(a, v, lo, n) {
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class Timeline {
  constructor(canvas, tip, onSelect) {
    this.canvas = canvas;
    this.tip = tip;
    this.onSelect = onSelect;
    this.g = canvas.getContext("2d", { alpha: false });
    this.store = null;
    this.reset();
    this.t0 = 0;
    this.scale = 50; // ns per CSS pixel
    this.scrollY = 0;
    this.follow = true; // fit the whole trace as it grows, until the user zooms or pans
    this.scheduled = false;
    this.visible = true;
    this.lastDrawMs = 0;
    this.draws = 0;
    this.hover = -1;
    this.installInput();
    new ResizeObserver(() => this.resize()).observe(canvas.parentElement);
    this.resize();
  }

  reset() {
    this.lanes = new Map();
    this.laneList = [];
    this.done = 0; // events ingested
    this.stacks = new Map(); // lane|thread -> open item stack
    this.waits = new Map(); // thread|name -> open wait item
    this.dmaItem = new Map(); // dma -> [lane, item]
    this.paging = new Set();
    // dma -> the four times a WDDM analyst looks for (DESIGN.md "Browser"):
    // submitted (DxgkDdiSubmitCommand), started on the GPU (the span's
    // start), completion seen by the ISR (DxgkCbNotifyInterrupt), DPC done
    // (FenceSignaled); and its allocation and patch counts.
    this.dmaInfo = new Map();
    this.edges = []; // [eventIndex, fromDma, toDma, hazard]
    this.presents = []; // start times of Present calls
    this.itemLane = new Int32Array(0); // event index -> lane number (-1)
    this.itemIdx = new Int32Array(0);
    this.selected = -1;
    this.hover = -1;
    this.follow = true;
    this.scrollY = 0;
    this.range = null; // [t0, t1] measured with shift-drag
  }

  setStore(store) {
    this.store = store;
    this.reset();
    this.request();
  }

  lane(key, title, rank) {
    let l = this.lanes.get(key);
    if (!l) {
      l = new Lane(key, title, rank, this.lanes.size);
      l.num = this.laneList.length;
      this.lanes.set(key, l);
      this.laneList.push(l);
      this.sortLanes();
    }
    return l;
  }

  sortLanes() {
    this.drawOrder = [...this.laneList].sort((a, b) => a.rank - b.rank || a.order0 - b.order0);
  }

  // ingest turns the events not seen yet into lane items.
  ingest() {
    const st = this.store;
    if (!st || this.done >= st.n) return false;
    if (this.itemLane.length < st.n) {
      let cap = Math.max(1024, this.itemLane.length);
      while (cap < st.n) cap *= 2;
      const a = new Int32Array(cap).fill(-1);
      a.set(this.itemLane);
      const b = new Int32Array(cap);
      b.set(this.itemIdx);
      this.itemLane = a;
      this.itemIdx = b;
    }
    for (let i = this.done; i < st.n; i++) this.ingestOne(st, i);
    this.done = st.n;
    if (this.follow) this.fit();
    this.request();
    return true;
  }

  mark(i, lane, idx) {
    this.itemLane[i] = lane.num;
    this.itemIdx[i] = idx;
  }

  // callLane is the lane of a call or return event on thread th.
  callLane(st, i, th) {
    if (th === "isr") return this.lane("isr", "ISR", 3);
    if (th === "dpc") return this.lane("dpc", "DPC", 4);
    if (/^gpu\d*$/.test(th)) return this.lane(th, "GPU " + th.slice(3) + " engine", 2);
    const layer = st.layer(i);
    const from = st.from(i);
    if (from === LAYER.app) return this.appLane(th);
    if (layer === LAYER.runtime || layer === LAYER.umd) {
      if (from === LAYER.dxgkrnl || from === LAYER.kmd) return this.kernelLane();
      return this.lane(th + "/umd", th + " · runtime/UMD", 0);
    }
    return this.kernelLane();
  }

  appLane(th) {
    if (th === "kernel") return this.kernelLane();
    return this.lane(th + "/app", th + " · API", 0);
  }

  kernelLane() { return this.lane("kernel", "Dxgkrnl / KMD", 1); }

  info(dma) {
    let d = this.dmaInfo.get(dma);
    if (!d) this.dmaInfo.set(dma, (d = { submit: NaN, isr: NaN, dpc: NaN, allocs: "", patches: "" }));
    return d;
  }

  ingestOne(st, i) {
    const kind = st.kind(i);
    const th = st.thread(i);
    const t = st.t[i];
    const name = st.name(i);
    switch (kind) {
      case KIND.call: {
        const lane = this.callLane(st, i, th);
        const key = lane.key + "|" + th;
        let stack = this.stacks.get(key);
        if (!stack) this.stacks.set(key, (stack = []));
        let style = S.kernel;
        if (lane.rank === 3) style = S.isr;
        else if (lane.rank === 4) style = S.dpc;
        else if (st.from(i) === LAYER.app) style = name === "Present" ? S.present : S.api;
        else if (lane.rank === 0) style = /^pfn/.test(name) ? S.callback : S.umd;
        const idx = lane.push(t, NaN, i, style, Math.min(stack.length, 255));
        stack.push(idx);
        this.mark(i, lane, idx);
        if (style === S.present) this.presents.push(t);
        if (name === "DxgkDdiBuildPagingBuffer" || (name === "DxgkDdiSubmitCommand" && /paging/.test(st.s(i, C.args)))) {
          if (st.dma(i)) this.paging.add(st.dma(i));
        }
        if (st.dma(i)) {
          if (name === "DxgkDdiSubmitCommand") {
            const d = this.info(st.dma(i));
            const args = st.s(i, C.args);
            d.submit = t;
            d.allocs = argValue(args, "allocs");
            d.patches = argValue(args, "patches");
          } else if (name === "DxgkCbNotifyInterrupt") {
            this.info(st.dma(i)).isr = t;
          }
        }
        break;
      }
      case KIND.ret: {
        const lane = this.callLane(st, i, th);
        const stack = this.stacks.get(lane.key + "|" + th);
        if (stack && stack.length) {
          const idx = stack.pop();
          lane.close(idx, t);
          this.mark(i, lane, idx);
        }
        break;
      }
      case KIND.exec: {
        const lane = /^gpu\d*$/.test(th) ? this.callLane(st, i, th) : this.kernelLane();
        const dma = st.dma(i);
        if (name === "DmaBufferStart" && dma) {
          const idx = lane.push(t, NaN, i, this.paging.has(dma) ? S.paging : S.dma, 0);
          this.dmaItem.set(dma, [lane, idx]);
          this.mark(i, lane, idx);
        } else {
          this.mark(i, lane, lane.push(t, t, i, S.exec, 0));
        }
        break;
      }
      case KIND.fence: {
        const dma = st.dma(i);
        const open = dma ? this.dmaItem.get(dma) : null;
        if (/^gpu\d*$/.test(th) && open && Number.isNaN(open[0].e[open[1]])) {
          const [lane, idx] = open;
          lane.lab[idx] = st.fence(i);
          lane.close(idx, t);
          this.mark(i, lane, idx);
        } else {
          const lane = th === "dpc" || th === "isr" || /^gpu/.test(th) ? this.callLane(st, i, th) : this.kernelLane();
          this.mark(i, lane, lane.push(t, t, i, S.fence, 0));
          if (dma && name === "FenceSignaled") this.info(dma).dpc = t;
        }
        break;
      }
      case KIND.interrupt: {
        const lane = this.callLane(st, i, th);
        this.mark(i, lane, lane.push(t, t, i, S.interrupt, 0));
        break;
      }
      case KIND.submit: {
        const lane = /^gpu\d*$/.test(th) ? this.callLane(st, i, th) : this.kernelLane();
        this.mark(i, lane, lane.push(t, t, i, S.submit, 0));
        break;
      }
      case KIND.wait: {
        const lane = /^(isr|dpc|gpu\d*)$/.test(th) ? this.callLane(st, i, th) : this.appLane(th);
        const key = th + "|" + name;
        if (argValue(st.s(i, C.args), "done") !== "" || /(^|\s)done(\s|$)/.test(st.s(i, C.args))) {
          const open = this.waits.get(key);
          if (open) {
            open[0].close(open[1], t);
            this.waits.delete(key);
            this.mark(i, open[0], open[1]);
          }
        } else {
          const idx = lane.push(t, NaN, i, S.wait, 1);
          this.waits.set(key, [lane, idx]);
          this.mark(i, lane, idx);
        }
        break;
      }
      case KIND.dep: {
        const args = st.s(i, C.args);
        const from = Number(argValue(args, "after") || argValue(args, "from") || argValue(args, "on") || argValue(args, "dep") || 0);
        const hazard = argValue(args, "hazard") || (args.match(/\b(RAW|WAR|WAW)\b/) || [])[1] || "";
        if (from && st.dma(i)) this.edges.push([i, from, st.dma(i), hazard]);
        break;
      }
      case KIND.violation: {
        const lane = this.lane("verify", "verifier", -1);
        this.mark(i, lane, lane.push(t, t, i, S.violation, 0));
        break;
      }
      case KIND.message: {
        if (/^D3D11/.test(st.s(i, C.msg))) {
          const lane = /^(isr|dpc|gpu\d*)$/.test(th) ? this.callLane(st, i, th) : this.appLane(th);
          this.mark(i, lane, lane.push(t, t, i, S.message, 0));
        }
        break;
      }
    }
  }

  // ---- view ----

  width() { return this.canvas.clientWidth; }
  height() { return this.canvas.clientHeight; }
  plotW() { return Math.max(10, this.width() - LABEL_W); }

  fit() {
    const maxT = this.store ? this.store.maxT : 0;
    const span = Math.max(1000, maxT);
    this.t0 = -span * 0.01;
    this.scale = (span * 1.03) / this.plotW();
    this.request();
  }

  zoom(factor, x) {
    const px = x === undefined ? LABEL_W + this.plotW() / 2 : x;
    const t = this.t0 + (px - LABEL_W) * this.scale;
    this.scale = Math.min(1e9, Math.max(0.01, this.scale * factor));
    this.t0 = t - (px - LABEL_W) * this.scale;
    this.follow = false;
    this.request();
  }

  panBy(dx, dy = 0) {
    this.t0 -= dx * this.scale;
    this.scrollY = Math.max(0, Math.min(this.maxScroll(), this.scrollY - dy));
    this.follow = false;
    this.request();
  }

  maxScroll() {
    let h = 0;
    for (const l of this.laneList) h += l.rows * ROW + LANE_PAD;
    return Math.max(0, h + RULER_H + 8 - this.height());
  }

  resize() {
    const dpr = window.devicePixelRatio || 1;
    const w = this.canvas.parentElement.clientWidth;
    const h = this.canvas.parentElement.clientHeight;
    this.canvas.style.width = w + "px";
    this.canvas.style.height = h + "px";
    this.canvas.width = Math.max(1, Math.round(w * dpr));
    this.canvas.height = Math.max(1, Math.round(h * dpr));
    if (this.follow) this.fit();
    this.request();
  }

  request() {
    if (this.scheduled || !this.visible) return;
    this.scheduled = true;
    requestAnimationFrame(() => {
      this.scheduled = false;
      this.draw();
    });
  }

  x(t) { return LABEL_W + (t - this.t0) / this.scale; }

  draw() {
    const start = performance.now();
    const g = this.g;
    const dpr = window.devicePixelRatio || 1;
    const W = this.width();
    const H = this.height();
    if (W <= 0 || H <= 0) return;
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.fillStyle = "#0d1117";
    g.fillRect(0, 0, W, H);
    const st = this.store;
    const maxT = st ? st.maxT : 0;
    const t0 = this.t0;
    const t1 = t0 + this.plotW() * this.scale;

    // Presents: faint lines across every lane.
    g.fillStyle = "rgba(224,165,40,0.16)";
    {
      const p = this.presents;
      let k = lowerBound(p, t0, 0, p.length);
      let last = -1;
      // Lines closer than 4 px would only grey the whole view.
      for (; k < p.length && p[k] <= t1; k++) {
        const x = Math.floor(this.x(p[k]));
        if (x - last < 4) continue;
        last = x;
        g.fillRect(x, RULER_H, 1, H - RULER_H);
      }
    }

    // Lanes.
    g.font = FONT;
    g.textBaseline = "middle";
    let y = RULER_H + 4 - this.scrollY;
    const laneY = new Map();
    for (const lane of this.drawOrder || []) {
      const h = lane.rows * ROW;
      laneY.set(lane, y);
      if (y + h >= RULER_H && y <= H) this.drawLane(lane, y, t0, t1, maxT, W);
      y += h + LANE_PAD;
      g.fillStyle = "#1b2230";
      g.fillRect(LABEL_W, y - LANE_PAD / 2 - 0.5, W - LABEL_W, 1);
    }
    this.laneY = laneY;

    this.drawEdges(laneY, W);
    this.drawSelection(laneY, H);
    this.drawRange(H);

    // Label column and ruler over everything.
    g.fillStyle = "#10151d";
    g.fillRect(0, RULER_H, LABEL_W, H - RULER_H);
    g.fillStyle = "#242c38";
    g.fillRect(LABEL_W - 1, RULER_H, 1, H - RULER_H);
    for (const [lane, ly] of laneY) {
      if (ly + lane.rows * ROW < RULER_H || ly > H) continue;
      g.fillStyle = ["#ff3b3b", "#3b6fd8", "#c9772e", "#2f9e57", "#c7434f", "#c2518f"][lane.rank + 1];
      g.fillRect(0, ly, 3, lane.rows * ROW);
      g.fillStyle = "#c9d1d9";
      g.fillText(lane.title, 10, ly + ROW / 2 + 0.5);
      if (lane.rows > 1) {
        g.fillStyle = "#5d6673";
        g.fillText(lane.n.toLocaleString("en-US") + " items", 10, ly + ROW * 1.5 + 0.5);
      }
    }
    this.drawRuler(t0, t1, W);

    if (!st || st.n === 0) {
      g.fillStyle = "#7d8794";
      g.fillText("no events yet: press Play or Step", LABEL_W + 16, RULER_H + 30);
    }
    this.lastDrawMs = performance.now() - start;
    this.draws++;
  }

  drawLane(lane, y, t0, t1, maxT, W) {
    const g = this.g;
    const scale = this.scale;
    const laneH = lane.rows * ROW;
    // Spans first, instants (bucket 0) on top of them.
    const bks = lane.buckets.length ? [...lane.buckets.slice(1), lane.buckets[0]] : [];
    if (lane.rank === 2) {
      // Under the DMA buffers, the stretch each waited in the queue.
      for (const bk of bks) {
        if (!bk || !bk.n || bk.maxDur / scale < 2) continue;
        bk.prepare(lane);
        for (let k = lowerBound(bk.pm, t0, 0, bk.n); k < bk.n && bk.ss[k] <= t1; k++) this.drawQueued(lane, bk.ord[k], y, t0);
      }
      for (const i of lane.open) if (lane.s[i] <= t1) this.drawQueued(lane, i, y, t0);
    }
    for (const bk of bks) {
      if (!bk || !bk.n) continue;
      bk.prepare(lane);
      const tiny = bk.maxDur / scale < 2;
      let k = lowerBound(bk.pm, t0, 0, bk.n);
      if (!tiny) {
        for (; k < bk.n && bk.ss[k] <= t1; k++) this.drawItem(lane, bk.ord[k], y, t0, maxT, W);
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
              this.instantPath(style, px + 0.5, y + d * ROW + ROW / 2);
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
      if (lane.s[i] <= t1) this.drawItem(lane, i, y, t0, maxT, W);
    }
  }

  // drawQueued draws a DMA buffer's time in the queue: from
  // DxgkDdiSubmitCommand to the GPU's start.
  drawQueued(lane, i, y, t0) {
    const style = lane.st[i];
    if (style !== S.dma && style !== S.paging) return;
    const inf = this.dmaInfo.get(this.store.dma(lane.ev[i]));
    const s = lane.s[i];
    if (!inf || !(inf.submit < s)) return;
    const g = this.g;
    const ry = y + Math.min(lane.d[i], MAX_ROWS - 1) * ROW;
    const xs = Math.max(LABEL_W, LABEL_W + (inf.submit - t0) / this.scale);
    const x0 = LABEL_W + (s - t0) / this.scale;
    if (x0 <= xs) return;
    g.fillStyle = "rgba(201,209,217,0.35)";
    g.fillRect(xs, ry + ROW - 3, x0 - xs, 1);
    g.fillRect(xs, ry + ROW - 6, 1, 4);
  }

  drawItem(lane, i, y, t0, maxT, W) {
    const g = this.g;
    const style = lane.st[i];
    const s = lane.s[i];
    let e = lane.e[i];
    const open = Number.isNaN(e);
    if (open) e = maxT;
    if (e < t0) return;
    const d = Math.min(lane.d[i], MAX_ROWS - 1);
    const ry = y + d * ROW;
    let x0 = LABEL_W + (s - t0) / this.scale;
    let x1 = LABEL_W + (e - t0) / this.scale;
    if (INSTANT.has(style)) {
      this.drawInstant(style, Math.floor(x0) + 0.5, ry + ROW / 2);
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
      let label = this.label(lane, i, style);
      const max = Math.floor((w - 6) / CHAR_W);
      if (max > 1) {
        if (label.length > max) label = label.slice(0, max - 1) + "…";
        g.fillStyle = style === S.wait ? "#e9edf2" : STYLE[style][1];
        g.fillText(label, x0 + 3, ry + ROW / 2 + 0.5);
      }
    }
  }

  label(lane, i, style) {
    const st = this.store;
    const ev = lane.ev[i];
    if (style === S.dma || style === S.paging) {
      const f = lane.lab[i];
      return `${style === S.paging ? "paging " : "DMA "}${st.dma(ev)}${f ? " · fence " + f : ""}`;
    }
    if (style === S.wait) {
      const f = st.fence(ev);
      const obj = st.s(ev, C.obj);
      return `${st.name(ev)}${f ? " fence " + f : ""}${obj ? " · " + obj : ""}`;
    }
    const obj = st.s(ev, C.obj);
    return obj && (style === S.api || style === S.present) ? `${st.name(ev)} ${obj}` : st.name(ev);
  }

  drawInstant(style, x, y) {
    const g = this.g;
    g.fillStyle = STYLE[style][0];
    g.beginPath();
    this.instantPath(style, x, y);
    g.fill();
  }

  // instantPath adds an instant's marker to the current path: a triangle
  // for interrupts and violations, a diamond for the rest.
  instantPath(style, x, y) {
    const g = this.g;
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

  drawEdges(laneY, W) {
    if (!this.edges.length) return;
    const g = this.g;
    const maxT = this.store.maxT;
    g.lineWidth = 1.25;
    let drawn = 0;
    for (const [, from, to, hazard] of this.edges) {
      const a = this.dmaItem.get(from);
      const b = this.dmaItem.get(to);
      if (!a || !b) continue;
      const ae = Number.isNaN(a[0].e[a[1]]) ? maxT : a[0].e[a[1]];
      const x0 = this.x(ae);
      const x1 = this.x(b[0].s[b[1]]);
      if ((x0 < LABEL_W && x1 < LABEL_W) || (x0 > W && x1 > W)) continue;
      // Zoomed out, edges are too short to read and too many to draw: they
      // appear once a DMA buffer is a few pixels wide.
      if (b[0].e[b[1]] - b[0].s[b[1]] < 3 * this.scale) continue;
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

  drawSelection(laneY, H) {
    const i = this.selected;
    if (i < 0 || !this.store || i >= this.store.n) return;
    const g = this.g;
    const x = this.x(this.store.t[i]);
    g.fillStyle = "rgba(255,255,255,0.35)";
    g.fillRect(Math.floor(x), RULER_H, 1, H - RULER_H);
    const ln = this.itemLane[i];
    if (ln < 0 || ln === undefined) return;
    const lane = this.laneList[ln];
    const idx = this.itemIdx[i];
    const y = laneY.get(lane);
    if (y === undefined) return;
    const d = Math.min(lane.d[idx], MAX_ROWS - 1);
    const e = Number.isNaN(lane.e[idx]) ? this.store.maxT : lane.e[idx];
    const x0 = this.x(lane.s[idx]);
    const x1 = Math.max(x0 + 4, this.x(e));
    g.strokeStyle = "#ffffff";
    g.lineWidth = 2;
    g.strokeRect(Math.max(LABEL_W, x0 - 2), y + d * ROW - 1, x1 - Math.max(LABEL_W, x0 - 2) + 2, ROW + 1);
  }

  // drawRange shades a shift-dragged stretch and says how long it is.
  drawRange(H) {
    if (!this.range) return;
    const g = this.g;
    const [a, b] = this.range[0] <= this.range[1] ? this.range : [this.range[1], this.range[0]];
    const x0 = Math.max(LABEL_W, this.x(a));
    const x1 = Math.max(LABEL_W, this.x(b));
    g.fillStyle = "rgba(79,140,255,0.12)";
    g.fillRect(x0, RULER_H, x1 - x0, H - RULER_H);
    g.fillStyle = "rgba(79,140,255,0.8)";
    g.fillRect(x0, RULER_H, 1, H - RULER_H);
    g.fillRect(x1, RULER_H, 1, H - RULER_H);
    const label = formatT(b - a);
    const w = label.length * CHAR_W + 10;
    const lx = Math.min(Math.max(LABEL_W + 2, (x0 + x1) / 2 - w / 2), this.width() - w - 2);
    g.fillStyle = "#1f3d7a";
    g.fillRect(lx, RULER_H + 2, w, 16);
    g.fillStyle = "#eaf1ff";
    g.fillText(label, lx + 5, RULER_H + 10.5);
  }

  drawRuler(t0, t1, W) {
    const g = this.g;
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
      const x = Math.round(this.x(t));
      if (x < LABEL_W) continue;
      g.fillRect(x, RULER_H - 6, 1, 5);
      g.fillText(formatT(t), x + 3, 9);
    }
    g.fillStyle = "#c9d1d9";
    g.fillText("virtual time", 10, 12);
  }

  // ---- interaction ----

  // hit returns the event index under (x, y), -1 for none.
  hit(x, y) {
    if (x < LABEL_W || y < RULER_H || !this.laneY) return -1;
    for (const [lane, ly] of this.laneY) {
      if (y < ly || y >= ly + lane.rows * ROW) continue;
      const row = Math.floor((y - ly) / ROW);
      const t = this.t0 + (x - LABEL_W) * this.scale;
      const tol = 4 * this.scale;
      const maxT = this.store.maxT;
      let best = -1;
      let bestDur = Infinity;
      const consider = (i) => {
        if (Math.min(lane.d[i], MAX_ROWS - 1) !== row) return;
        const e = Number.isNaN(lane.e[i]) ? maxT : lane.e[i];
        if (lane.s[i] - tol <= t && t <= e + tol) {
          const dur = e - lane.s[i];
          if (dur < bestDur) {
            bestDur = dur;
            best = lane.ev[i];
          }
        }
      };
      for (const bk of lane.buckets) {
        if (!bk || !bk.n) continue;
        bk.prepare(lane);
        let k = lowerBound(bk.pm, t - tol, 0, bk.n);
        for (let guard = 0; k < bk.n && bk.ss[k] <= t + tol && guard < 20000; k++, guard++) consider(bk.ord[k]);
      }
      for (const i of lane.open) consider(i);
      return best;
    }
    return -1;
  }

  installInput() {
    const c = this.canvas;
    let drag = null;
    let measure = false;
    const timeAt = (e) => {
      const r = c.getBoundingClientRect();
      return this.t0 + (Math.max(LABEL_W, e.clientX - r.left) - LABEL_W) * this.scale;
    };
    c.addEventListener("mousedown", (e) => {
      c.focus();
      if (e.shiftKey) {
        // Shift-drag measures a stretch of virtual time.
        measure = true;
        const t = timeAt(e);
        this.range = [t, t];
        this.request();
        return;
      }
      drag = { x: e.clientX, y: e.clientY, moved: false };
    });
    window.addEventListener("mousemove", (e) => {
      if (measure) {
        this.range[1] = timeAt(e);
        this.tip.hidden = true;
        this.request();
        return;
      }
      if (drag) {
        const dx = e.clientX - drag.x;
        const dy = e.clientY - drag.y;
        if (Math.abs(dx) + Math.abs(dy) > 2) drag.moved = true;
        if (drag.moved) {
          this.panBy(dx, dy);
          drag.x = e.clientX;
          drag.y = e.clientY;
          this.tip.hidden = true;
        }
        return;
      }
      if (e.target !== c) return;
      const r = c.getBoundingClientRect();
      this.showTip(this.hit(e.clientX - r.left, e.clientY - r.top), e.clientX - r.left, e.clientY - r.top);
    });
    window.addEventListener("mouseup", (e) => {
      if (measure) {
        measure = false;
        if (this.range[0] === this.range[1]) this.range = null;
        this.request();
        return;
      }
      if (drag && !drag.moved && e.target === c) {
        const r = c.getBoundingClientRect();
        const i = this.hit(e.clientX - r.left, e.clientY - r.top);
        if (i >= 0) this.onSelect(i, "timeline");
      }
      drag = null;
    });
    c.addEventListener("mouseleave", () => { this.tip.hidden = true; });
    c.addEventListener("wheel", (e) => {
      e.preventDefault();
      const r = c.getBoundingClientRect();
      if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
        this.panBy(-(e.deltaX || e.deltaY), 0);
      } else if (e.altKey) {
        this.panBy(0, -e.deltaY);
      } else {
        this.zoom(Math.exp(e.deltaY * 0.0025), e.clientX - r.left);
      }
    }, { passive: false });
    c.addEventListener("dblclick", () => { this.follow = true; this.fit(); });
    c.addEventListener("keydown", (e) => {
      const step = this.plotW() / 8;
      switch (e.key) {
        case "w": case "=": case "+": this.zoom(1 / 1.5); break;
        case "s": case "-": this.zoom(1.5); break;
        case "a": case "ArrowLeft": this.panBy(step); break;
        case "d": case "ArrowRight": this.panBy(-step); break;
        case "f": case "0": this.follow = true; this.fit(); break;
        case "Escape": this.range = null; this.request(); break;
        default: return;
      }
      e.preventDefault();
    });
  }

  showTip(i, x, y) {
    if (i === this.hover && !this.tip.hidden) {
      this.placeTip(x, y);
      return;
    }
    this.hover = i;
    if (i < 0) {
      this.tip.hidden = true;
      return;
    }
    const st = this.store;
    const e = st.event(i);
    const ln = this.itemLane[i];
    const lane = this.laneList[ln];
    const idx = this.itemIdx[i];
    const rows = [];
    const head = document.createElement("div");
    head.className = "tip-name";
    head.textContent = e.name;
    rows.push(head);
    const add = (k, v) => {
      if (v === undefined || v === "" || v === 0) return;
      const d = document.createElement("div");
      const kk = document.createElement("span");
      kk.className = "k";
      kk.textContent = k + " ";
      d.append(kk, String(v));
      rows.push(d);
    };
    add("", `${e.thread} · ${e.from && e.from !== e.layer ? e.from + "→" : ""}${e.layer} · ${e.kind} · seq ${e.seq}`);
    if (lane) {
      const s = lane.s[idx];
      const en = lane.e[idx];
      add("at", formatT(s));
      if (!Number.isNaN(en) && en > s) add("lasts", formatT(en - s));
      if (Number.isNaN(en)) add("lasts", "(still running)");
    }
    const dmaStyle = lane && (lane.st[idx] === S.dma || lane.st[idx] === S.paging);
    const inf = dmaStyle ? this.dmaInfo.get(e.dma) : null;
    if (dmaStyle) head.textContent = `${this.label(lane, idx, lane.st[idx])} (${e.name})`;
    if (inf) {
      const rel = (t) => (Number.isNaN(t) ? "–" : formatT(t));
      add("submitted", rel(inf.submit));
      add("ISR saw it", rel(inf.isr));
      add("DPC done", rel(inf.dpc));
      if (inf.allocs || inf.patches) add("", `${inf.allocs || 0} allocations, ${inf.patches || 0} patches`);
    }
    add("ctx", e.ctx);
    add("obj", e.obj);
    add("handle", e.handle);
    add("dma", e.dma);
    add("fence", e.fence || (lane && lane.lab[idx]) || "");
    add("hr", e.hr);
    add("rule", e.rule);
    add("msg", e.msg);
    add("args", e.args);
    add("line", e.line);
    this.tip.replaceChildren(...rows);
    this.tip.hidden = false;
    this.placeTip(x, y);
  }

  placeTip(x, y) {
    const wrap = this.canvas.parentElement;
    const tw = this.tip.offsetWidth;
    const th = this.tip.offsetHeight;
    let left = x + 14;
    let top = y + 14;
    if (left + tw > wrap.clientWidth - 4) left = x - tw - 10;
    if (top + th > wrap.clientHeight - 4) top = y - th - 10;
    this.tip.style.left = Math.max(4, left) + "px";
    this.tip.style.top = Math.max(4, top) + "px";
  }

  // select highlights event i and brings it into view.
  select(i) {
    this.selected = i;
    if (i >= 0 && this.store && i < this.store.n) {
      this.ingest();
      const t = this.store.t[i];
      const t1 = this.t0 + this.plotW() * this.scale;
      if (t < this.t0 || t > t1) {
        this.t0 = t - (this.plotW() / 2) * this.scale;
        this.follow = false;
      }
      // Bring its lane into view.
      const ln = this.itemLane[i];
      if (ln >= 0 && this.laneY) {
        const y = this.laneY.get(this.laneList[ln]);
        if (y !== undefined && (y < RULER_H || y > this.height() - ROW)) {
          this.scrollY = Math.max(0, Math.min(this.maxScroll(), this.scrollY + y - RULER_H - 40));
        }
      }
    }
    this.request();
  }
}
