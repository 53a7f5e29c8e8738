// Loading the WebAssembly module, for the full page (app.js) and the embed
// (embed.js) alike: boot() starts main.wasm and resolves with window.d3dsim
// once the module is ready, or throws with a message that says what usually
// went wrong (each page shows it in its own way). It asks for two files
// beside the page, by relative URL — wasm_exec.js (a <script> of the page)
// and main.wasm — so a static host serves the site from any sub-path
// (docs/embedding.md).

// instantiate fetches main.wasm beside the page and instantiates it for go.
// A host that sends the wrong MIME type for .wasm (streaming refuses it),
// or an HTTP error (a failed build on the dev server), gets the plain path,
// which says which.
export async function instantiate(go, url = "main.wasm") {
  const inline = document.getElementById("d3dsim-wasm");
  if (inline) return instantiateInline(go, inline.textContent);
  if (WebAssembly.instantiateStreaming) {
    try {
      return await WebAssembly.instantiateStreaming(fetch(url), go.importObject);
    } catch (err) {
      console.warn("d3dsim: instantiateStreaming failed, retrying without streaming:", err);
    }
  }
  let resp;
  try {
    resp = await fetch(url);
  } catch (err) {
    throw new Error(`${url}: ${err.message}${hint()}`);
  }
  if (!resp.ok) {
    throw new Error(`${url}: HTTP ${resp.status}${hint()}\n${(await resp.text()).slice(0, 4000)}`);
  }
  return WebAssembly.instantiate(await resp.arrayBuffer(), go.importObject);
}

// instantiateInline instantiates the module a standalone page carries
// (standalone.js): main.wasm gzipped, as base64 text, decompressed with
// DecompressionStream.
async function instantiateInline(go, b64) {
  let gz;
  try {
    gz = fromBase64(b64.replace(/\s+/g, ""));
  } catch (err) {
    throw new Error(`the module this page carries is damaged (${err.message}): export the page again`);
  }
  // Compiled as it decompresses (a streaming Response of application/wasm).
  const resp = () => new Response(new Blob([gz]).stream().pipeThrough(new DecompressionStream("gzip")), { headers: { "Content-Type": "application/wasm" } });
  try {
    if (WebAssembly.instantiateStreaming) return await WebAssembly.instantiateStreaming(resp(), go.importObject);
  } catch (err) {
    console.warn("d3dsim: instantiateStreaming failed, retrying without streaming:", err);
  }
  let bytes;
  try {
    bytes = await resp().arrayBuffer();
  } catch (err) {
    throw new Error(`the module this page carries does not decompress (${err.message}): export the page again`);
  }
  return WebAssembly.instantiate(bytes, go.importObject);
}

// fromBase64 decodes base64 text to bytes (Uint8Array.fromBase64 where
// the browser has it).
function fromBase64(b64) {
  if (typeof Uint8Array.fromBase64 === "function") return Uint8Array.fromBase64(b64);
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

// hint says what usually went wrong.
function hint() {
  if (location.protocol === "file:") return " (browsers do not fetch main.wasm from file://: serve the directory over HTTP, e.g. python3 -m http.server)";
  return " (is main.wasm published beside this page? `make site` writes it into dist/)";
}

// boot starts the module and resolves with window.d3dsim once it is ready.
// onExit, when given, hears of the program exiting later (it never exits on
// its own: only running out of memory or a failure of the Go runtime ends
// it); without it that is an uncaught error. Either way window.d3dsim then
// answers every call quietly (quiet), and so do the module's callbacks
// (the canvas's frames): no "Go program has already exited" in the page.
export async function boot(onExit) {
  if (typeof Go !== "function") {
    throw new Error("wasm_exec.js did not load: it belongs beside this page (`make site` writes it into dist/; `go run .` at the repo root serves it)");
  }
  const go = new Go();
  const { instance } = await instantiate(go);
  let exit;
  const exited = new Promise((r) => { exit = r; });
  // The module's package initialisation takes window.requestAnimationFrame
  // for Ebitengine's loop: it gets stageFrames' gate, the page keeps the
  // browser's.
  const raf = window.requestAnimationFrame;
  window.requestAnimationFrame = stageFrames(raf);
  let running;
  try {
    running = go.run(instance);
  } finally {
    window.requestAnimationFrame = raf;
  }
  running.then(() => {
    // The module's callbacks (Ebiten's frames) answer nothing. Its pending
    // timers are dropped too: wasm_exec.js's timer callback resumes the
    // module until it takes the timer off its list, which a module that has
    // exited never does (the page looped on "missed timeout event").
    const dropTimers = () => {
      for (const t of go._scheduledTimeouts?.values?.() ?? []) clearTimeout(t);
      go._scheduledTimeouts?.clear?.();
    };
    dropTimers();
    go._resume = dropTimers;
    const err = new Error("the WebAssembly program exited (out of memory, or a failure of the Go runtime; see the console)");
    if (window.d3dsim) quiet(window.d3dsim, err);
    // What the module had not answered yet it never will: ready (an exit
    // during the start), a run() or runFrame() in progress, a query.
    window.__d3dsimReady?.reject?.(err);
    exit(err);
    if (!onExit) throw err;
    onExit(err);
  });
  const d3dsim = await Promise.race([window.d3dsim.ready, exited.then((err) => { throw err; })]);
  keepLast(d3dsim);
  settleOnExit(d3dsim, exited);
  return d3dsim;
}

// stageFrames is the requestAnimationFrame Ebitengine's loop calls. Its
// loop asks for every animation frame, even when the game has nothing to
// update (Ebitengine's FPSModeVsyncOffMinimum still runs it to find out,
// 60 times a second, through a goroutine of the module): while the stage
// is idle the gate holds the loop's next frame instead, so an idle page
// asks the browser for no frame at all. The module sets
// window.__d3dsimStage.idle once an Update finds nothing to do
// (wasm/main_js.go), and calls wake() when the run changes (a control, a
// script's call, a resize or input reaches Ebitengine on its own): the
// frame held is asked for then.
export function stageFrames(raf) {
  const gate = {
    idle: false,
    held: null,
    holds: 0, // frames held (for tests)
    wake() {
      this.idle = false;
      const cb = this.held;
      this.held = null;
      if (cb) raf.call(window, cb);
    },
  };
  window.__d3dsimStage = gate;
  return (cb) => {
    if (!gate.idle) return raf.call(window, cb);
    gate.held = cb;
    gate.holds++;
    return 0;
  };
}

// settleOnExit makes the Promises d's calls answer settle when the module
// exits before it has answered them (exited resolves then): a run() holds
// its resolve inside the module, and a module that has exited never calls
// it, so a page (or a test) awaiting it waited for ever. They settle as the
// quiet calls answer (quiet has replaced d's functions by then): run() and
// runFrame() with the last summary, marked failed; a query with its error.
export function settleOnExit(d, exited) {
  const late = { run: () => d.summary(), runFrame: () => d.summary(), inspectQuery: () => ({ error: d.exited }) };
  for (const [name, answer] of Object.entries(late)) {
    const f = d[name];
    if (typeof f !== "function" || f.settles) continue;
    d[name] = Object.assign((...args) => {
      const p = f(...args);
      if (!p || typeof p.then !== "function") return p;
      return Promise.race([p, exited.then(answer)]);
    }, { settles: true });
  }
}

// keepLast wraps d3dsim.summary (and progress) to remember its last answer, which quiet
// gives back once the module has exited (the page's counters stay).
function keepLast(d) {
  for (const name of ["summary", "progress"]) {
    const f = d[name];
    if (typeof f !== "function" || f.kept) continue;
    // progress() has no hash: the last summary's is kept.
    d[name] = Object.assign((...args) => {
      const s = f(...args);
      d.lastSummary = s && typeof s === "object" && !("hash" in s) && d.lastSummary ? { ...s, hash: d.lastSummary.hash } : s;
      return s;
    }, { kept: true });
  }
}

// quiet replaces window.d3dsim's functions once the module has exited:
// each answers what the page can use (the last summary, marked done and
// failed, empty event batches, loads refused with the reason), never an
// exception.
export function quiet(d, err) {
  const why = `the simulator stopped: ${err.message}. Restart reloads the page`;
  const { busy, ...last } = d.lastSummary || {}; // (no slice is running any more)
  const summary = {
    ...last, done: true, playing: false, failures: [...(last.failures || []), why],
    failureCount: (last.failureCount || 0) + 1, messages: last.messages || [], limit: last.limit || "",
  };
  const answers = {
    summary: () => summary, progress: () => summary, step: () => summary, stepFrame: () => summary, stepToLine: () => summary,
    run: () => Promise.resolve(summary), runFrame: () => Promise.resolve(summary),
    load: () => ({ ok: false, error: `1:1: ${why}` }), restart: () => ({ ok: false, error: `1:1: ${why}` }),
    check: () => ({ ok: true, error: "", line: 0, col: 0 }),
    batch: () => ({ n: 0, ints: new Int32Array(0), t: new Float64Array(0), strings: "", nstrings: 0 }),
    events: () => [], scenarios: () => [], tutorials: () => [], pixel: () => "", link: () => location.href,
    frameSize: () => ({ width: 0, height: 0 }), fps: () => 0, stageDraws: () => 0, pumpSlices: () => 0,
  };
  for (const k of Object.keys(d)) {
    if (typeof d[k] === "function") d[k] = answers[k] || (() => null);
  }
  d.exited = why;
}

// fragment reads a URL fragment's &-separated keys ("#demo=x&view=flow"),
// decoded where they decode: both pages take their options from it.
export function fragment(hash) {
  const out = {};
  for (const kv of hash.replace(/^#/, "").split("&")) {
    const i = kv.indexOf("=");
    if (i <= 0) continue;
    try {
      out[kv.slice(0, i)] = decodeURIComponent(kv.slice(i + 1));
    } catch {
      out[kv.slice(0, i)] = kv.slice(i + 1);
    }
  }
  return out;
}
