// The panel's copy of the trace, as columns: the layout of wasm/columns.go
// (keep the two in step; wasm/jsconsts_test.go checks the kinds, layers and
// columns below against Go). Events arrive in batches of typed arrays; strings
// arrive once each and events name them by index. Views read fields through
// the accessors below and never build an object per event, except for the
// few they show.

export const STRIDE = 15; // colStride in wasm/columns.go
export const C = {
  seq: 0, kind: 1, thread: 2, name: 3, ctx: 4, obj: 5, handle: 6, hr: 7,
  fence: 8, dma: 9, rule: 10, msg: 11, args: 12, line: 13, parent: 14,
};
export const KIND = {
  none: 0, call: 1, ret: 2, submit: 3, exec: 4, fence: 5, interrupt: 6, dpc: 7,
  wait: 8, violation: 9, message: 10, dep: 11,
};
export const KIND_NAMES = ["", "call", "return", "submit", "exec", "fence", "interrupt", "dpc", "wait", "violation", "message", "dep"];
export const LAYER = { none: 0, app: 1, runtime: 2, umd: 3, dxgkrnl: 4, kmd: 5, gpu: 6 };
export const LAYER_NAMES = ["", "app", "runtime", "umd", "dxgkrnl", "kmd", "gpu"];

// The payloads' keys (trace.Key, by their printed names) and the kinds of
// their values (trace.ArgKind). A batch carries each payload's keyed entries
// typed, ARG_STRIDE words each after its events' words (columns.go): payload
// id (the string id column C.args holds), key | kind<<8, value. Views read
// them through Store.argInt and the like, never from the args text.
export const KEY = {
  device: 1, allocs: 2, size: 3, cpu: 4, primary: 5, surface: 6, pitch: 7, fmt: 8, patches: 9,
  subfence: 10, paging: 11, for: 12, engine: 13, dropped: 14, packet: 15, packets: 16, hazard: 17,
  from: 18, to: 19, res: 20, fence: 21, dma: 22, done: 23, bytes: 24, dev: 25, rt: 26, dep: 27,
  recycle: 28, sizes: 29, count: 30, type: 31, bound: 32, entry: 33, impl: 34, freethreaded: 35,
  hctx: 36, code: 37, shared: 38, usage: 39, state: 40, dc: 41, why: 42, objects: 43, src: 44,
  cls_high: 45, cls_in_use: 46, recorded: 47, commandlists: 48, flags: 49, after: 50, pagefault: 51, irql: 52,
  vblank: 53, syncinterval: 54, latency: 55, support: 56, rtvs: 57, blendfactor: 58, samplemask: 59,
  stencilref: 60, dst: 61, next: 62, data: 63, color: 64, guid: 65, debugname: 66,
};
export const ARG = { int: 1, uint: 2, str: 3, flag: 4, bool: 5, allocs: 6, pairs: 8 };
export const ARG_STRIDE = 3; // argStride in wasm/columns.go
const NO_ARGS = [];

// findArg is the offset in a payload's entries ([key | kind<<8, value, ...])
// of key k, -1 when absent.
function findArg(a, k) {
  for (let p = 0; p < a.length; p += 2) if ((a[p] & 0xff) === k) return p;
  return -1;
}

// The panel reads the trace in bounded pieces, so a long run never blocks the
// page for long (docs/browser.md "Long and runaway scenarios"): a batch is at
// most PULL_BATCH events, a poll fetches batches for at most PULL_MS, and
// the store keeps at most MAX_HELD events (about 136 MiB of columns).
export const PULL_BATCH = 8192;
export const PULL_MS = 12;
export const MAX_HELD = 2000000;

// pull fetches the events after store.lastSeq from sim (window.d3dsim) into
// store, batch by batch, until none is left, PULL_MS have passed or the
// store holds MAX_HELD (store.capped is set then). onReset runs when the
// recorder dropped events not fetched yet; the store starts over from what
// it holds. It reports whether events are left to fetch (poll again soon).
// The bound is store.maxHeld, MAX_HELD unless a test sets a smaller one (the
// same cap on a run of a tenth of the size).
export function pull(store, sim, onReset) {
  const t0 = performance.now();
  for (;;) {
    const room = store.maxHeld - store.n;
    if (room <= 0) {
      store.capped = true;
      return false;
    }
    const b = sim.batch(store.lastSeq, Math.min(PULL_BATCH, room));
    if (!b || !b.n) return false;
    if (!store.append(b)) {
      onReset();
      continue;
    }
    if (b.n < Math.min(PULL_BATCH, room)) return false;
    if (performance.now() - t0 >= PULL_MS) return true;
  }
}

// column is a typed array of n elements over a resizable ArrayBuffer that
// may grow to max of them (Store.grow): V8 reserves the address space and
// grows it in place. A plain array where the browser has none.
function column(Type, n, max) {
  try {
    const b = new ArrayBuffer(n * Type.BYTES_PER_ELEMENT, { maxByteLength: Math.max(n, max) * Type.BYTES_PER_ELEMENT });
    if (b.resizable) return new Type(b);
  } catch {
    // No resizable buffers, or no room to reserve: copies, then.
  }
  return new Type(n);
}

export class Store {
  constructor() {
    this.version = 0;
    this.maxHeld = MAX_HELD; // the most events pull fetches
    this.reset();
  }

  reset() {
    this.n = 0;
    this.ints = column(Int32Array, STRIDE * 1024, STRIDE * this.maxHeld);
    this.t = column(Float64Array, 1024, this.maxHeld);
    this.strs = [""];
    this.payloads = new Map(); // payload id -> its entries [key | kind<<8, value, ...]
    this.firstSeq = 0;
    this.lastSeq = 0;
    this.maxT = 0;
    this.lastApiLine = 0;
    this.capped = false; // maxHeld reached: later events are not fetched
    // Markers (BeginEvent/EndEvent, D3DPERF_*): each event's depth in the
    // groups open when it happened, each group's end, and the debug names
    // SetPrivateData(WKPDID_D3DDebugObjectName) gave objects.
    this.depth = column(Uint16Array, 1024, this.maxHeld);
    this.openGroups = [];
    this.groupEnd = new Map(); // index of a BeginEvent -> index of its EndEvent
    this.debugNames = new Map(); // object (or context) name -> debug name
    this.version++;
  }

  // marker says whether event i opens (1) or closes (-1) a marker group:
  // an application's BeginEvent/EndEvent (the annotation's or D3DPERF's),
  // or a command list's markers replayed where it is executed.
  marker(i) {
    const k = this.kind(i);
    const name = this.name(i);
    if (k === KIND.call && this.from(i) === LAYER.app) {
      if (name === "BeginEvent" || name === "D3DPERF_BeginEvent") return 1;
      if (name === "EndEvent" || name === "D3DPERF_EndEvent") return -1;
    } else if (k === KIND.message && this.layer(i) === LAYER.runtime && this.s(i, C.obj)) {
      if (name === "BeginEvent") return 1;
      if (name === "EndEvent") return -1;
    }
    return 0;
  }

  // follow keeps the markers and the debug names up with event i.
  follow(i) {
    const m = this.marker(i);
    if (m < 0 && this.openGroups.length) this.groupEnd.set(this.openGroups.pop(), i);
    this.depth[i] = Math.min(this.openGroups.length, 0xffff);
    if (m > 0) this.openGroups.push(i);
    if (this.kind(i) === KIND.call && this.from(i) === LAYER.app && this.name(i) === "SetPrivateData" &&
        /^WKPDID_D3DDebugObjectNameW?$/.test(this.argStr(i, KEY.guid))) {
      const who = this.s(i, C.obj) || this.s(i, C.ctx);
      const name = this.s(i, C.msg);
      if (name) this.debugNames.set(who, name);
      else this.debugNames.delete(who);
    }
  }

  // named is an object's name with its debug name, when it has one.
  named(obj) {
    const d = obj && this.debugNames.get(obj);
    return d ? `${obj} "${d}"` : obj;
  }

  // append adds one batch from d3dsim.batch; false when its seqs do not
  // follow on (the recorder dropped events we had not fetched): the caller
  // starts over.
  append(b) {
    if (!b || !b.n) return true;
    const first = b.ints[C.seq];
    if (this.n > 0 && first !== this.lastSeq + 1) return false;
    if (b.nstrings > 0) {
      const add = b.strings.split("\u0000");
      for (const s of add) this.strs.push(s);
    }
    const ev = b.n * STRIDE;
    for (let p = ev; p + ARG_STRIDE <= b.ints.length; p += ARG_STRIDE) {
      const id = b.ints[p];
      let a = this.payloads.get(id);
      if (!a) this.payloads.set(id, (a = []));
      a.push(b.ints[p + 1], b.ints[p + 2]);
    }
    this.grow(this.n + b.n);
    this.ints.set(b.ints.subarray(0, ev), this.n * STRIDE);
    this.t.set(b.t, this.n);
    if (this.n === 0) this.firstSeq = first;
    const start = this.n;
    this.n += b.n;
    this.lastSeq = this.ints[(this.n - 1) * STRIDE + C.seq];
    for (let i = start; i < this.n; i++) {
      const t = this.t[i];
      if (t > this.maxT) this.maxT = t;
      if (this.from(i) === LAYER.app && this.kind(i) === KIND.call) {
        const l = this.ints[i * STRIDE + C.line];
        if (l > 0) this.lastApiLine = l;
      }
      this.follow(i);
    }
    this.version++;
    return true;
  }

  // grow makes room for need events. The columns live in resizable
  // ArrayBuffers reserved for maxHeld events (column()): they grow in
  // place. Copied into arrays twice the size, as before (and still where
  // the browser has no resizable buffers, or past the reserve), a store of
  // a million events stopped the page for a copy of 60 MB and more: the
  // worst frames of the 1,000-draw figure (a poll of 117 ms, most of it in
  // grow; docs/performance.md "The page").
  grow(need) {
    let cap = this.t.length;
    if (need <= cap) return;
    while (cap < need) cap *= 2;
    if (need <= this.maxHeld) cap = Math.min(cap, this.maxHeld);
    const b = this.t.buffer;
    if (b.resizable && cap * 8 <= b.maxByteLength && this.ints.buffer.resizable && this.depth.buffer.resizable) {
      this.ints.buffer.resize(cap * STRIDE * 4);
      b.resize(cap * 8);
      this.depth.buffer.resize(cap * 2);
      return;
    }
    const ints = new Int32Array(cap * STRIDE);
    ints.set(this.ints.subarray(0, this.n * STRIDE));
    const t = new Float64Array(cap);
    t.set(this.t.subarray(0, this.n));
    const depth = new Uint16Array(cap);
    depth.set(this.depth.subarray(0, this.n));
    this.ints = ints;
    this.t = t;
    this.depth = depth;
  }

  // Accessors by index (0 .. n-1).
  w(i, c) { return this.ints[i * STRIDE + c]; }
  s(i, c) { return this.strs[this.ints[i * STRIDE + c]]; }
  seq(i) { return this.ints[i * STRIDE + C.seq]; }
  kind(i) { return this.ints[i * STRIDE + C.kind] & 0xff; }
  layer(i) { return (this.ints[i * STRIDE + C.kind] >> 8) & 0xff; }
  from(i) { return (this.ints[i * STRIDE + C.kind] >> 16) & 0xff; }
  thread(i) { return this.strs[this.ints[i * STRIDE + C.thread]]; }
  threadId(i) { return this.ints[i * STRIDE + C.thread]; }
  name(i) { return this.strs[this.ints[i * STRIDE + C.name]]; }
  nameId(i) { return this.ints[i * STRIDE + C.name]; }
  line(i) { return this.ints[i * STRIDE + C.line]; }
  parent(i) { return this.ints[i * STRIDE + C.parent]; }
  dma(i) { return this.ints[i * STRIDE + C.dma]; }
  fence(i) { return this.ints[i * STRIDE + C.fence]; }

  // The typed payload of event i, by key (KEY): its entries as the layers
  // wrote them, never parsed from the text.
  argList(i) { return this.payloads.get(this.ints[i * STRIDE + C.args]) || NO_ARGS; }
  // argHas: the payload has key k (a flag or a value).
  argHas(i, k) { return findArg(this.argList(i), k) >= 0; }
  // argInt is key k's integer value (or a bool's 0 or 1), dflt when absent
  // or not an integer.
  argInt(i, k, dflt = 0) {
    const a = this.argList(i);
    const p = findArg(a, k);
    if (p < 0) return dflt;
    const kind = a[p] >> 8;
    return kind === ARG.int || kind === ARG.uint || kind === ARG.bool ? a[p + 1] : dflt;
  }
  // argStr is key k's string value, "" when absent or not a string.
  argStr(i, k) {
    const a = this.argList(i);
    const p = findArg(a, k);
    return p >= 0 && a[p] >> 8 === ARG.str ? this.strs[a[p + 1]] : "";
  }
  // allocCount is the number of allocations the payload names: the length
  // of its allocation list, or its allocs count (DxgkDdiSubmitCommand).
  allocCount(i) {
    const a = this.argList(i);
    const p = findArg(a, KEY.allocs);
    if (p < 0) return 0;
    const kind = a[p] >> 8;
    return kind === ARG.allocs || kind === ARG.int || kind === ARG.uint ? a[p + 1] : 0;
  }

  // index of a seq (-1 when not held).
  index(seq) {
    const i = seq - this.firstSeq;
    return i >= 0 && i < this.n && this.seq(i) === seq ? i : -1;
  }

  // parentIndex is the index of i's parent call, -1 when top level.
  parentIndex(i) {
    const p = this.parent(i);
    return p ? this.index(p) : -1;
  }

  // event is the trace.jsonl form of event i (for details and tests).
  event(i) {
    const e = {
      seq: this.seq(i), t: this.t[i], thread: this.thread(i),
      from: LAYER_NAMES[this.from(i)], layer: LAYER_NAMES[this.layer(i)], kind: KIND_NAMES[this.kind(i)],
      name: this.name(i),
    };
    for (const k of ["ctx", "obj", "handle", "hr"]) {
      const v = this.s(i, C[k]);
      if (v) e[k] = v;
    }
    if (this.fence(i)) e.fence = this.fence(i);
    if (this.dma(i)) e.dma = this.dma(i);
    for (const k of ["rule", "msg", "args"]) {
      const v = this.s(i, C[k]);
      if (v) e[k] = v;
    }
    if (this.line(i)) e.line = this.line(i);
    if (this.parent(i)) e.parent = this.parent(i);
    return e;
  }

  // returnOf is the index of the return that closes call i (-1: not yet).
  // Calls nest per thread, so it is the first later return on i's thread
  // whose parent is i's parent and whose name is i's.
  returnOf(i, limit = 200000) {
    if (this.kind(i) !== KIND.call) return -1;
    const th = this.threadId(i);
    const name = this.nameId(i);
    const parent = this.parent(i);
    const end = Math.min(this.n, i + limit);
    for (let j = i + 1; j < end; j++) {
      if (this.threadId(j) === th && this.kind(j) === KIND.ret && this.nameId(j) === name && this.parent(j) === parent) return j;
    }
    return -1;
  }

  // rootCall is the top-level call enclosing i (i itself when top level).
  rootCall(i) {
    let r = i;
    for (let k = 0; k < 64; k++) {
      const p = this.parentIndex(r);
      if (p < 0) break;
      r = p;
    }
    return r;
  }
}

// formatT formats virtual nanoseconds for people.
export function formatT(ns) {
  const a = Math.abs(ns);
  if (a >= 1e9) return (ns / 1e9).toFixed(3) + " s";
  if (a >= 1e6) return (ns / 1e6).toFixed(3) + " ms";
  if (a >= 1e3) return (ns / 1e3).toFixed(2) + " µs";
  return Math.round(ns) + " ns";
}

// wddmFlowStep is the number of the step of the WDDM operation flow an
// event is, "" when none (the Flow view's badges).
export function wddmFlowStep(store, i) {
  if (store.kind(i) !== KIND.call) return "";
  const name = store.name(i);
  const layer = store.layer(i);
  switch (name) {
    case "DxgkDdiCreateDevice": return "1";
    case "CreateDevice": return layer === LAYER.umd ? "2" : "";
    case "pfnCreateContextCb": return "3";
    case "CreateResource": return layer === LAYER.umd ? "4" : "";
    case "pfnAllocateCb": return "5";
    case "DxgkDdiCreateAllocation": return "6";
    case "PresentDXGI": case "Flush": return layer === LAYER.umd ? "8" : "";
    case "pfnPresentCb": case "pfnRenderCb": return "9";
    case "DxgkDdiPresent": case "DxgkDdiRender": case "DxgkDdiRenderKm": return "10";
    case "DxgkDdiBuildPagingBuffer": return "11";
    case "DxgkDdiSubmitCommand": return store.argHas(i, KEY.paging) ? "12" : "14";
    case "DxgkDdiPatch": return "13";
    case "DxgkDdiInterruptRoutine": return "15";
    case "DxgkCbNotifyInterrupt": case "DxgkCbQueueDpc": return "16";
  }
  if (layer === LAYER.umd && /^Draw/.test(name)) return "7";
  return "";
}
