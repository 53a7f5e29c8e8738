// The fence timeline's model: what there is to draw, derived from the store
// (model.js) as events arrive (ingestEvents, once per event) — the lanes
// and their items, the DMA buffers' times, the dependency edges, the
// Presents — and the items' level of detail: a lane files its closed items
// in buckets by duration, so drawing (timeline-draw.js) and hit-testing
// (timeline-input.js) walk only the items in view and pass over a bucket
// of items narrower than a pixel (dense) a pixel column at a time.
//
// Lanes (docs/browser.md): per app thread its API calls (with Map and
// fence waits beneath), its marker groups (BeginEvent to EndEvent, nested)
// and its runtime/UMD calls; per kernel context its queue (DMA buffers built
// and not yet submitted), per engine its hardware queue (submitted, not yet
// done), as GPUView draws them; Dxgkrnl/KMD; each GPU
// engine (DMA and paging buffers as spans labelled with DMA and fence ids,
// interrupts); ISR; DPC (fences signalled). Presents are marked across all
// lanes; dependency edges (trace kind "dep") are drawn between DMA buffers.

import { KIND, LAYER, C, KEY } from "./model.js";

// Geometry of the lanes, in CSS pixels.
export const ROW = 17; // px per nesting row
export const LANE_PAD = 7;
export const MAX_ROWS = 4;
export const LABEL_W = 156;
export const RULER_H = 24;

// Item styles (timeline-draw.js STYLE has their colours).
export const S = {
  api: 0, present: 1, umd: 2, callback: 3, kernel: 4, dma: 5, paging: 6, isr: 7, dpc: 8,
  wait: 9, interrupt: 10, fence: 11, submit: 12, violation: 13, message: 14, exec: 15, marker: 16, queued: 17,
  alloc: 18, resident: 19, aperture: 20, evict: 21,
};
export const INSTANT = new Set([S.interrupt, S.fence, S.submit, S.violation, S.message, S.exec, S.evict]);
// MEMORY are the styles of the memory lanes' items (their label is their record's).
export const MEMORY = new Set([S.alloc, S.resident, S.aperture, S.evict]);
// MEMORY_CALLS are the KMD calls the memory lanes' records come from (core/inspect
// MemoryCalls; wasm/jsconsts_test.go checks the two agree): the lanes are asked
// for again only after one of them.
export const MEMORY_CALLS = new Set(["DxgkDdiCreateAllocation", "DxgkDdiDestroyAllocation", "DxgkDdiBuildPagingBuffer"]);

// engines remembers which thread names are a GPU engine's (gpu, gpu1...):
// isEngine is asked several times an event.
const engines = new Map();

// isEngine reports whether thread th is a GPU engine's.
export function isEngine(th) {
  let v = engines.get(th);
  if (v === undefined) {
    v = /^gpu\d*$/.test(th);
    if (engines.size < 4096) engines.set(th, v);
  }
  return v;
}

// dense reports whether a bucket's items are all under two pixels wide at
// scale (ns per pixel): it is drawn as density columns then.
export function dense(bk, scale) {
  return bk.maxDur / scale < 2;
}

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

  // add files item i (prepare sorts it in).
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

// Lane is one row group of the timeline and its items.
export class Lane {
  constructor(key, title, rank, order) {
    this.key = key;
    this.title = title;
    this.rank = rank; // group: -1 verifier, 0 app threads, 1 kernel, 2 GPU, 3 ISR, 4 DPC, 5 worker, 6 memory
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
    // The earliest start of an item added or closed since the timeline last
    // painted (timeline.js plan): what the picture may have changed from.
    this.touched = -Infinity;
  }

  // push adds an item (e NaN: still open) and returns its number.
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
    if (s < this.touched) this.touched = s;
    if (d + 1 > this.rows) this.rows = Math.min(MAX_ROWS, d + 1);
    if (Number.isNaN(e)) this.open.add(i);
    else this.file(i);
    return i;
  }

  // close ends open item i at e.
  close(i, e) {
    this.e[i] = Math.max(e, this.s[i]);
    if (this.s[i] < this.touched) this.touched = this.s[i];
    if (this.open.delete(i)) this.file(i);
  }

  // file puts closed item i in the bucket of its duration class.
  file(i) {
    const dur = this.e[i] - this.s[i];
    const b = dur <= 0 ? 0 : Math.min(62, 1 + Math.ceil(Math.log2(dur + 1)));
    let bk = this.buckets[b];
    if (!bk) this.buckets[b] = bk = new Bucket(b === 0 ? 0 : Math.pow(2, b - 1));
    bk.add(i);
  }
}

// bytes is a size as people read it: 512 KiB, 1.5 MiB, 300 B.
export function bytes(n) {
  if (n >= 1048576) return `${+(n / 1048576).toFixed(1)} MiB`;
  if (n >= 1024) return `${+(n / 1024).toFixed(1)} KiB`;
  return `${n} B`;
}

// lowerBound: first k in [lo, n) with a[k] >= v.
export function lowerBound(a, v, lo, n) {
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// TimelineModel holds the lanes and items of one store's events.
export class TimelineModel {
  // reset forgets every item (a new store).
  reset() {
    this.lanes = new Map();
    // Lanes by thread, so an event finds its lane without building its key
    // (callLane, threadLane, appLane); null: the thread has none of its own.
    this.ownLanes = new Map();
    this.appLanes = new Map();
    this.umdLanes = new Map();
    this.kernel = null;
    this.laneList = [];
    this.done = 0; // events ingested
    this.stacks = new Map(); // lane|thread -> open item stack
    this.waits = new Map(); // thread|name -> open wait item
    this.dmaItem = new Map(); // dma -> [lane, item]
    this.queued = new Map(); // dma -> [lane, item] waiting in its context's queue or in an engine's hardware queue
    this.paging = new Set();
    // dma -> the four times a WDDM analyst looks for (docs/browser.md):
    // submitted (DxgkDdiSubmitCommand), started on the GPU (the span's
    // start), completion seen by the ISR (DxgkCbNotifyInterrupt), DPC done
    // (FenceSignaled); and its allocation and patch counts.
    this.dmaInfo = new Map();
    this.edges = []; // [eventIndex, fromDma, toDma, hazard]
    this.presents = []; // start times of Present calls
    this.resets = []; // [time, what] of TDRs, engine and adapter resets, device removals (marked across the lanes)
    // The earliest time of an event taken in since the timeline last painted
    // (each lane keeps its items' own, Lane.touched): what the picture may
    // have changed from (timeline.js plan).
    this.touched = -Infinity;
    this.itemLane = new Int32Array(0); // event index -> lane number (-1)
    this.itemIdx = new Int32Array(0);
    // The memory lanes (GPUView's memory view): the records of core/inspect
    // Memory, pulled through memorySource (window.d3dsim.inspectMemory).
    this.memDone = 0; // records taken in
    this.memAsk = true; // a memory call came in (MEMORY_CALLS): ask for the records
    this.memAsks = 0; // the asks (for tests)
    this.memRecs = []; // the records the items name (lane.lab)
    this.memOpen = new Map(); // lane key|allocation -> [lane, item, row]
    this.memByEvent = new Map(); // event index -> its memory record (the tooltip's)
  }

  // ingestMemory takes in the memory records of events the store holds
  // (core/inspect MemoryEvent): per device, each allocation's life (created
  // to destroyed), its residency in VRAM (paged in to evicted or freed) and
  // in the aperture segment (mapped to unmapped); an eviction is also an
  // instant. False when there were none.
  // The records are asked for only after a memory call came in (memAsk:
  // a run of a million draws asked the module once a poll, for nothing)
  // and until every record of the events held is in.
  ingestMemory() {
    const st = this.store;
    const src = this.memorySource;
    if (!st || !src || st.n === 0 || !this.memAsk) return false;
    let any = false;
    let left = false; // records of events not held yet, or past the rounds
    this.memAsks++;
    for (let round = 0; ; round++) {
      if (round === 64) {
        left = true;
        break;
      }
      const a = src(this.memDone);
      if (!a || a.error || !a.list) {
        left = !!a?.error; // a slice held the run (busy): ask again
        break;
      }
      if (!a.list.length) break;
      let k = 0;
      for (; k < a.list.length; k++) {
        const m = a.list[k];
        if (m.seq > st.lastSeq) break; // the store has not got its event yet
        const i = st.index(m.seq);
        if (i >= 0) this.ingestMem(m, i);
      }
      this.memDone += k;
      any = any || k > 0;
      if (k < a.list.length) left = true;
      if (k < a.list.length || this.memDone >= a.total) break;
    }
    this.memAsk = left;
    return any;
  }

  // ingestMem turns one memory record (of event i) into items.
  ingestMem(m, i) {
    const dev = m.device || "device";
    const t = m.t;
    const lanes = {
      "": [`mem/${dev}/allocs`, `${dev} · allocations`, S.alloc],
      vram: [`mem/${dev}/vram`, `${dev} · VRAM (memory segment)`, S.resident],
      aperture: [`mem/${dev}/aperture`, `${dev} · aperture segment`, S.aperture],
    };
    const [key, title, style] = lanes[m.segment || ""] || lanes[""];
    const lane = this.lane(key, title, 6);
    const okey = key + "|" + m.allocation;
    const rec = this.memRecs.push(m) - 1;
    this.memByEvent.set(i, m);
    if (m.what === "created" || m.what === "resident" || m.what === "mapped") {
      const slots = lane.slots || (lane.slots = []);
      let d = slots.indexOf(false);
      if (d < 0) d = slots.length;
      slots[d] = true;
      const idx = lane.push(t, NaN, i, style, Math.min(d, 255));
      lane.lab[idx] = rec;
      this.memOpen.set(okey, [lane, idx, d]);
      return;
    }
    const open = this.memOpen.get(okey);
    if (open) {
      open[0].close(open[1], t);
      open[0].slots[open[2]] = false;
      this.memOpen.delete(okey);
    }
    if (m.what === "evicted" || m.what === "discarded") lane.lab[lane.push(t, t, i, S.evict, open ? Math.min(open[2], 255) : 0)] = rec;
  }

  // lane is the lane of that key, made (with title and rank) when new.
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

  // sortLanes orders the lanes for drawing: by rank, then as first seen.
  sortLanes() {
    this.drawOrder = [...this.laneList].sort((a, b) => a.rank - b.rank || a.order0 - b.order0);
  }

  // ingestEvents turns the events not seen yet into lane items; false when
  // there were none.
  ingestEvents() {
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
    let t = Infinity;
    for (let i = this.done; i < st.n; i++) {
      if (st.t[i] < t) t = st.t[i];
      this.ingestOne(st, i);
      if (st.kind(i) === KIND.call && st.layer(i) === LAYER.kmd && MEMORY_CALLS.has(st.name(i))) this.memAsk = true;
    }
    if (t < this.touched) this.touched = t;
    this.done = st.n;
    this.ingestMemory();
    return true;
  }

  // mark records that event i is item idx of lane.
  mark(i, lane, idx) {
    this.itemLane[i] = lane.num;
    this.itemIdx[i] = idx;
  }

  // callLane is the lane of a call or return event on thread th.
  callLane(st, i, th) {
    const own = this.threadLane(th);
    if (own) return own;
    const layer = st.layer(i);
    const from = st.from(i);
    if (from === LAYER.app) return this.appLane(th);
    if (layer === LAYER.runtime || layer === LAYER.umd) {
      if (from === LAYER.dxgkrnl || from === LAYER.kmd) return this.kernelLane();
      let l = this.umdLanes.get(th);
      if (!l) this.umdLanes.set(th, (l = this.lane(th + "/umd", th + " · runtime/UMD", 0)));
      return l;
    }
    return this.kernelLane();
  }

  // threadLane is the lane of every call on thread th when it has one of
  // its own (ISR, DPC, the worker, a GPU engine, the display), else null;
  // remembered by thread (a lookup an event, where a key and a title were
  // built and a pattern tested each time).
  threadLane(th) {
    let l = this.ownLanes.get(th);
    if (l === undefined) {
      if (th === "isr") l = this.lane("isr", "ISR", 3);
      else if (th === "dpc") l = this.lane("dpc", "DPC", 4);
      else if (th === "worker") l = this.lane("worker", "Dxgkrnl worker (PASSIVE_LEVEL)", 5);
      else if (isEngine(th)) l = this.lane(th, "GPU " + th.slice(3) + " engine", 2);
      else if (th === "display") l = this.lane("display", "Display (vertical blanks)", 2);
      else l = null;
      this.ownLanes.set(th, l);
    }
    return l;
  }

  // appLane is the lane of thread th's API calls.
  appLane(th) {
    if (th === "kernel") return this.kernelLane();
    let l = this.appLanes.get(th);
    if (!l) this.appLanes.set(th, (l = this.lane(th + "/app", th + " · API", 0)));
    return l;
  }

  // kernelLane is the lane of Dxgkrnl and the KMD.
  kernelLane() { return this.kernel || (this.kernel = this.lane("kernel", "Dxgkrnl / KMD", 1)); }

  // info is DMA buffer dma's times and counts (dmaInfo), made when new.
  info(dma) {
    let d = this.dmaInfo.get(dma);
    if (!d) this.dmaInfo.set(dma, (d = { submit: NaN, isr: NaN, dpc: NaN, allocs: "", patches: "" }));
    return d;
  }

  // ingestMarker opens (m 1) or closes (m -1) a marker group's span on
  // thread th's marker lane: the BeginEvent's text, from it to its EndEvent.
  ingestMarker(st, i, m, th, t) {
    const lane = this.lane(th + "/markers", th + " · markers", 0);
    const key = "markers|" + th;
    let stack = this.stacks.get(key);
    if (!stack) this.stacks.set(key, (stack = []));
    if (m > 0) stack.push(lane.push(t, NaN, i, S.marker, Math.min(stack.length, 255)));
    else if (stack.length) lane.close(stack.pop(), t);
  }

  // enqueue puts DMA buffer dma in a queue lane (GPUView's context queue:
  // built, not yet submitted to the GPU; or an engine's hardware queue:
  // submitted, not yet done), on the lowest row free, until dequeue.
  enqueue(lane, dma, i, t) {
    const slots = lane.slots || (lane.slots = []);
    let d = slots.indexOf(false);
    if (d < 0) d = slots.length;
    slots[d] = true;
    const idx = lane.push(t, NaN, i, S.queued, Math.min(d, 255));
    this.queued.set(dma, [lane, idx, d]);
  }

  dequeue(dma, t) {
    const q = this.queued.get(dma);
    if (!q) return;
    const [lane, idx, d] = q;
    lane.close(idx, t);
    lane.slots[d] = false;
    this.queued.delete(dma);
  }

  // ingestOne turns event i into a lane item, or closes the item it ends.
  ingestOne(st, i) {
    const kind = st.kind(i);
    const th = st.thread(i);
    const t = st.t[i];
    const name = st.name(i);
    const m = st.marker(i);
    if (m) this.ingestMarker(st, i, m, th, t);
    if (kind === KIND.message && (name === "TDR" || name === "DeviceRemoved")) this.resets.push([t, name === "TDR" ? "TDR" : "removed"]);
    else if (kind === KIND.call && (name === "DxgkDdiResetEngine" || name === "DxgkDdiResetFromTimeout")) this.resets.push([t, "reset"]);
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
        if (name === "DxgkDdiBuildPagingBuffer" || (name === "DxgkDdiSubmitCommand" && st.argHas(i, KEY.paging))) {
          if (st.dma(i)) this.paging.add(st.dma(i));
        }
        if (st.dma(i) && name === "DxgkDdiSubmitCommand") {
          this.dequeue(st.dma(i), t);
          const eng = st.argInt(i, KEY.engine);
          this.enqueue(this.lane("hwq/" + eng, `engine ${eng} · hardware queue`, 2), st.dma(i), i, t);
        }
        if (st.dma(i)) {
          if (name === "DxgkDdiSubmitCommand") {
            const d = this.info(st.dma(i));
            d.submit = t;
            d.allocs = st.allocCount(i);
            d.patches = st.argInt(i, KEY.patches);
          } else if (name === "DxgkCbNotifyInterrupt") {
            this.info(st.dma(i)).isr = t;
          }
        }
        break;
      }
      case KIND.ret: {
        if (st.dma(i) && (name === "DxgkDdiRender" || name === "DxgkDdiPresent")) {
          const h = st.s(i, C.handle);
          this.enqueue(this.lane("cpuq/" + h, `${h} · context queue`, 1), st.dma(i), i, t);
        }
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
        const lane = isEngine(th) ? this.callLane(st, i, th) : this.kernelLane();
        const dma = st.dma(i);
        // A preempted buffer's span ends at DmaBufferPreempted and a new
        // one opens where it resumes ("GPU preemption"; gpu/preempt.go).
        if ((name === "DmaBufferStart" || name === "DmaBufferResume") && dma) {
          const idx = lane.push(t, NaN, i, this.paging.has(dma) ? S.paging : S.dma, 0);
          // Its time in the queue is drawn from its submission on.
          const sub = this.dmaInfo.get(dma)?.submit;
          if (sub < lane.touched) lane.touched = sub;
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
        if (dma && isEngine(th)) this.dequeue(dma, t);
        if (isEngine(th) && open && Number.isNaN(open[0].e[open[1]])) {
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
        const lane = isEngine(th) ? this.callLane(st, i, th) : this.kernelLane();
        this.mark(i, lane, lane.push(t, t, i, S.submit, 0));
        break;
      }
      case KIND.wait: {
        const lane = /^(isr|dpc|gpu\d*)$/.test(th) ? this.callLane(st, i, th) : this.appLane(th);
        const key = th + "|" + name;
        if (st.argHas(i, KEY.done)) {
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
        // The panel's synthetic trace names the earlier buffer after=,
        // Dxgkrnl's DmaDependency from=.
        const from = st.argInt(i, KEY.after) || st.argInt(i, KEY.from);
        const hazard = st.argStr(i, KEY.hazard);
        if (from && st.dma(i)) this.edges.push([i, from, st.dma(i), hazard]);
        break;
      }
      case KIND.violation: {
        const lane = this.lane("verify", "verifier", -1);
        this.mark(i, lane, lane.push(t, t, i, S.violation, 0));
        break;
      }
      case KIND.message: {
        const pdma = name === "DmaBufferPreempted" ? st.dma(i) : 0;
        const popen = pdma ? this.dmaItem.get(pdma) : null;
        if (popen && Number.isNaN(popen[0].e[popen[1]])) {
          popen[0].close(popen[1], t); // stopped at a boundary: the engine is free until it resumes
          this.mark(i, popen[0], popen[1]);
        }
        if (pdma) {
          const lane = this.callLane(st, i, th);
          this.mark(i, lane, lane.push(t, t, i, S.message, 0));
        } else if (/^D3D11/.test(st.s(i, C.msg))) {
          const lane = /^(isr|dpc|gpu\d*)$/.test(th) ? this.callLane(st, i, th) : this.appLane(th);
          this.mark(i, lane, lane.push(t, t, i, S.message, 0));
        }
        break;
      }
    }
  }

  // label is the text an item shows (on its span, atop its tooltip).
  label(lane, i, style) {
    const st = this.store;
    const ev = lane.ev[i];
    if (style === S.dma || style === S.paging) {
      const f = lane.lab[i];
      return `${style === S.paging ? "paging " : "DMA "}${st.dma(ev)}${f ? " · fence " + f : ""}`;
    }
    if (style === S.marker) return st.s(ev, C.msg) || "(unnamed group)";
    if (MEMORY.has(style)) {
      const m = this.memRecs[lane.lab[i]];
      if (!m) return st.name(ev);
      const what = style === S.evict ? `${m.what} ` : "";
      return `${what}${m.allocation}${m.obj ? " " + st.named(m.obj) : ""} · ${bytes(m.size)}`;
    }
    if (style === S.queued) return `DMA ${st.dma(ev)}`;
    if (style === S.wait) {
      const f = st.fence(ev);
      const obj = st.s(ev, C.obj);
      return `${st.name(ev)}${f ? " fence " + f : ""}${obj ? " · " + obj : ""}`;
    }
    const obj = st.named(st.s(ev, C.obj));
    return obj && (style === S.api || style === S.present) ? `${st.name(ev)} ${obj}` : st.name(ev);
  }
}
