// d3dsim page: loads the WebAssembly module and drives the panel through
// window.d3dsim (wasm/bridge_js.go). Plain ES module, no build step.

const $ = (id) => document.getElementById(id);

const ui = {
  stage: $("stage-status"),
  state: $("state"),
  notice: $("notice"),
  picker: $("picker"),
  run: $("run"),
  step: $("step"),
  pause: $("pause"),
  share: $("share"),
  source: $("source"),
  error: $("error"),
  cursor: $("cursor"),
  summary: $("summary"),
  problems: $("problems"),
  filter: $("filter"),
  count: $("count"),
  trace: $("trace"),
  spacer: $("trace-spacer"),
  rows: $("trace-rows"),
  detail: $("detail"),
};

const hook = window.__d3dsimReady;

// ---- loading the module ----

async function instantiate(go) {
  const url = "main.wasm";
  if (WebAssembly.instantiateStreaming) {
    try {
      return await WebAssembly.instantiateStreaming(fetch(url), go.importObject);
    } catch (err) {
      // A wrong MIME type or an HTTP error (a failed build) lands here;
      // the plain path below says which.
      console.warn("d3dsim: instantiateStreaming failed, retrying without streaming:", err);
    }
  }
  const resp = await fetch(url);
  if (!resp.ok) {
    throw new Error(`main.wasm: HTTP ${resp.status}\n${(await resp.text()).slice(0, 4000)}`);
  }
  return WebAssembly.instantiate(await resp.arrayBuffer(), go.importObject);
}

function fatal(err) {
  const msg = String(err && err.message ? err.message : err);
  ui.stage.textContent = "d3dsim could not start:\n" + msg;
  ui.stage.classList.add("failed");
  setState("failed", "failed to load");
  hook?.reject(err);
}

async function boot() {
  if (typeof Go !== "function") {
    throw new Error("wasm_exec.js did not load (serve the page with `go run .` at the repo root)");
  }
  const go = new Go();
  const { instance } = await instantiate(go);
  go.run(instance).then(() => fatal(new Error("the WebAssembly program exited; see the console")));
  const sim = await window.d3dsim.ready;
  ui.stage.hidden = true;
  start(sim);
}

boot().catch(fatal);

// ---- panel ----

let sim = null;
let loads = -1; // the bridge's load count the panel shows
let runPending = 0; // run() calls not answered yet
let lastSummary = "";

function start(d3dsim) {
  sim = d3dsim;
  for (const name of sim.scenarios()) {
    const opt = document.createElement("option");
    opt.value = opt.textContent = name;
    ui.picker.append(opt);
  }
  const custom = document.createElement("option");
  custom.value = "";
  custom.textContent = "(edited)";
  custom.disabled = true;
  ui.picker.append(custom);

  showNotice(sim.notice);
  window.addEventListener("d3dsim:notice", (e) => showNotice(e.detail));
  for (const b of [ui.run, ui.step, ui.pause, ui.share]) b.disabled = false;

  ui.run.addEventListener("click", runEditor);
  ui.step.addEventListener("click", stepOnce);
  ui.pause.addEventListener("click", togglePause);
  ui.share.addEventListener("click", share);
  ui.picker.addEventListener("change", pick);
  ui.source.addEventListener("keydown", editorKey);
  ui.source.addEventListener("input", () => { syncPicker(); });
  for (const ev of ["keyup", "click", "select"]) ui.source.addEventListener(ev, showCursor);
  ui.error.addEventListener("click", () => jumpTo(ui.error.textContent));
  ui.filter.addEventListener("input", () => trace.setFilter(ui.filter.value));
  window.addEventListener("hashchange", onHashChange);

  poll();
  setInterval(poll, 120);
}

function showNotice(text) {
  ui.notice.textContent = text || "";
  ui.notice.hidden = !text;
}

function setState(state, label) {
  ui.state.dataset.state = state;
  ui.state.textContent = label || state;
}

// load puts the editor's text into the simulator; false (and the error shown
// under the editor) when it does not parse.
function load() {
  const res = sim.load(ui.source.value);
  showError(res.ok ? "" : res.error);
  if (res.ok) poll();
  return res.ok;
}

function showError(text) {
  ui.error.textContent = text || "";
  ui.source.classList.toggle("has-error", !!text);
  if (text) setState("failed", "parse error");
}

async function runEditor() {
  if (!load()) return;
  runPending++;
  try {
    await sim.run();
  } finally {
    runPending--;
    poll();
  }
}

function stepOnce() {
  if (ui.source.value !== sim.source() && !load()) return;
  sim.step(1);
  poll();
}

function togglePause() {
  const s = sim.summary();
  if (s.playing || runPending > 0) sim.pause();
  else sim.play();
  poll();
}

async function share() {
  if (ui.source.value !== sim.source()) await runEditor();
  if (ui.error.textContent) return;
  const url = sim.link();
  location.hash = new URL(url).hash; // onHashChange sees it is ours
  let copied = false;
  try {
    await navigator.clipboard.writeText(url);
    copied = true;
  } catch {
    // No clipboard permission: the link is in the address bar.
  }
  toast(copied ? `Link copied (${url.length} characters)` : "Link is in the address bar");
}

function onHashChange() {
  // A link pasted into this tab: replay it like a fresh open.
  if (/(^#|&)s=/.test(location.hash) && location.hash !== new URL(sim.link()).hash) location.reload();
}

function pick() {
  const text = sim.scenario(ui.picker.value);
  if (text == null) return;
  ui.source.value = text;
  runEditor();
}

function syncPicker() {
  const text = ui.source.value;
  const match = sim.scenarios().find((n) => sim.scenario(n) === text);
  ui.picker.value = match ?? "";
}

function editorKey(e) {
  if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
    e.preventDefault();
    runEditor();
  } else if (e.key === "Tab" && !e.shiftKey && !e.ctrlKey && !e.altKey) {
    e.preventDefault();
    document.execCommand("insertText", false, "    ");
  }
}

function showCursor() {
  const before = ui.source.value.slice(0, ui.source.selectionStart);
  const line = before.split("\n").length;
  const col = before.length - before.lastIndexOf("\n");
  ui.cursor.textContent = `${line}:${col}`;
}

// jumpTo selects the line a "LINE:COL: message" (or a line number) names.
function jumpTo(where) {
  const m = /^(\d+)(?::(\d+))?/.exec(String(where));
  if (!m) return;
  const line = Number(m[1]);
  const lines = ui.source.value.split("\n");
  if (line < 1 || line > lines.length) return;
  let start = 0;
  for (let i = 0; i < line - 1; i++) start += lines[i].length + 1;
  const col = m[2] ? Math.min(Number(m[2]) - 1, lines[line - 1].length) : 0;
  ui.source.focus();
  ui.source.setSelectionRange(start + col, start + lines[line - 1].length);
  const lh = parseFloat(getComputedStyle(ui.source).lineHeight) || 18;
  ui.source.scrollTop = Math.max(0, (line - 4) * lh);
  showCursor();
}

function toast(text) {
  const el = document.createElement("div");
  el.className = "toast";
  el.textContent = text;
  document.body.append(el);
  setTimeout(() => el.remove(), 2500);
}

// ---- polling the simulator ----

function poll() {
  if (!sim) return;
  const s = sim.summary();
  if (s.loads !== loads) {
    // A new scenario (from this panel, a link, or a script calling
    // d3dsim.load): show its text and start a fresh trace.
    loads = s.loads;
    const src = sim.source();
    if (ui.source.value !== src) {
      ui.source.value = src;
      showCursor();
    }
    syncPicker();
    trace.reset();
  }
  trace.fetch(s.events);
  const key = JSON.stringify(s) + runPending;
  if (key === lastSummary) return;
  lastSummary = key;
  renderSummary(s);
}

function renderSummary(s) {
  for (const b of ui.summary.querySelectorAll("b[data-k]")) {
    const v = s[b.dataset.k];
    b.textContent = v === "" || v == null ? "–" : String(v);
  }
  ui.summary.querySelector('[data-k="violations"]').classList.toggle("nonzero", s.violations > 0);
  const items = [
    ...s.failures.map((t) => ["failure", t]),
    ...s.messages.map((t) => ["message", t]),
  ];
  ui.problems.replaceChildren(...items.map(([cls, t]) => {
    const li = document.createElement("li");
    li.className = cls;
    li.textContent = t;
    li.addEventListener("click", () => jumpTo(t));
    return li;
  }));
  const running = s.playing || runPending > 0;
  ui.pause.textContent = running ? "Pause" : "Play";
  ui.pause.disabled = s.done && !running;
  ui.step.disabled = s.done && ui.source.value === sim.source();
  if (ui.error.textContent) return; // keep "parse error"
  if (s.failures.length > 0) setState("failed", `failed · ${s.failures.length}`);
  else if (s.done) setState("done", "done");
  else if (running) setState(s.playing ? "playing" : "running", `${s.playing ? "playing" : "running"} · ${s.steps} calls`);
  else setState("paused", s.steps ? `paused · ${s.steps} calls` : "ready");
}

// ---- the trace list ----
//
// Events are fetched incrementally (events(from, max)) and kept up to
// MAX_KEPT; the list is virtualised: only the rows in view exist in the DOM.

const MAX_KEPT = 200000;
const FETCH_PER_POLL = 20000;

const trace = {
  all: [], // events kept, oldest first
  fetched: 0, // events fetched from the bridge (including dropped ones)
  view: [], // events passing the filter
  filter: "",
  selected: null,
  follow: true, // keep the last row in view while events arrive
  pool: [],
  rowH: 20,
  scheduled: false,

  reset() {
    this.all = [];
    this.view = [];
    this.fetched = 0;
    this.selected = null;
    this.follow = true;
    ui.detail.hidden = true;
    this.schedule();
  },

  fetch(total) {
    let budget = FETCH_PER_POLL;
    let added = false;
    while (this.fetched < total && budget > 0) {
      const batch = sim.events(this.fetched, Math.min(budget, 5000));
      if (!batch.length) break;
      this.fetched += batch.length;
      budget -= batch.length;
      for (const e of batch) {
        this.all.push(e);
        if (this.matches(e)) this.view.push(e);
      }
      added = true;
    }
    if (this.all.length > MAX_KEPT) {
      const drop = this.all.length - MAX_KEPT;
      const cut = this.all[drop].seq;
      this.all.splice(0, drop);
      const i = this.view.findIndex((e) => e.seq >= cut);
      this.view.splice(0, i < 0 ? this.view.length : i);
    }
    if (added) this.schedule();
  },

  matches(e) {
    if (!this.filter) return true;
    const f = this.filter;
    return [e.name, e.layer, e.from, e.kind, e.ctx, e.obj, e.thread, e.handle, e.hr, e.msg, e.rule]
      .some((v) => v && String(v).toLowerCase().includes(f));
  },

  setFilter(text) {
    this.filter = text.trim().toLowerCase();
    this.view = this.all.filter((e) => this.matches(e));
    this.schedule();
  },

  schedule() {
    if (this.scheduled) return;
    this.scheduled = true;
    requestAnimationFrame(() => {
      this.scheduled = false;
      this.render();
    });
  },

  render() {
    const n = this.view.length;
    ui.count.textContent = this.filter ? `${n} of ${this.all.length}` : `${n} events`;
    ui.spacer.style.height = `${n * this.rowH}px`;
    if (this.follow) ui.trace.scrollTop = ui.trace.scrollHeight;
    const first = Math.max(0, Math.floor(ui.trace.scrollTop / this.rowH) - 5);
    const count = Math.min(n - first, Math.ceil(ui.trace.clientHeight / this.rowH) + 10);
    ui.rows.style.transform = `translateY(${first * this.rowH}px)`;
    while (this.pool.length < count) this.pool.push(makeRow());
    const rows = this.pool.slice(0, Math.max(0, count));
    for (let i = 0; i < rows.length; i++) fillRow(rows[i], this.view[first + i], this.selected);
    if (ui.rows.childElementCount !== rows.length) ui.rows.replaceChildren(...rows);
  },
};

ui.trace.addEventListener("scroll", () => {
  const atEnd = ui.trace.scrollTop + ui.trace.clientHeight >= ui.trace.scrollHeight - trace.rowH;
  trace.follow = atEnd;
  trace.schedule();
});
new ResizeObserver(() => trace.schedule()).observe(ui.trace);

ui.rows.addEventListener("click", (e) => {
  const row = e.target.closest(".trace-row");
  if (!row || !row._event) return;
  if (trace.selected === row._event.seq) {
    closeDetail();
    return;
  }
  trace.selected = row._event.seq;
  showDetail(row._event);
  trace.schedule();
});

const CELLS = ["c-seq", "c-t", "c-thread", "c-layer", "c-kind", "c-name", "c-more"];

function makeRow() {
  const row = document.createElement("div");
  row.className = "trace-row";
  for (const c of CELLS) {
    const span = document.createElement("span");
    span.className = c;
    row.append(span);
  }
  return row;
}

function fillRow(row, e, selected) {
  row._event = e;
  row.className = `trace-row k-${e.kind}` + (e.seq === selected ? " selected" : "");
  const [seq, t, thread, layer, kind, name, more] = row.children;
  seq.textContent = e.seq;
  t.textContent = (e.t / 1000).toFixed(3);
  thread.textContent = e.thread;
  layer.textContent = e.from && e.from !== e.layer ? `${e.from}→${e.layer}` : e.layer;
  layer.className = `c-layer l-${e.layer}`;
  kind.textContent = e.kind;
  name.textContent = e.name;
  name.title = e.name;
  name.className = `c-name l-${e.layer}`;
  more.replaceChildren(...details(e));
}

const FAIL_HR = /^(E_|DXGI_ERROR|D3DDDIERR|STATUS_(?!SUCCESS))/;

function details(e) {
  const out = [];
  const add = (k, v, cls) => {
    if (v === undefined || v === "" || v === 0) return;
    const key = document.createElement("span");
    key.className = "k";
    key.textContent = (out.length ? " " : "") + k + "=";
    const val = document.createElement("span");
    if (cls) val.className = cls;
    val.textContent = v;
    out.push(key, val);
  };
  add("ctx", e.ctx);
  add("obj", e.obj);
  add("handle", e.handle);
  add("hr", e.hr, e.hr && FAIL_HR.test(e.hr) ? "hr-bad" : "");
  add("fence", e.fence);
  add("dma", e.dma);
  add("rule", e.rule, "hr-bad");
  add("msg", e.msg);
  add("args", e.args);
  return out;
}

function closeDetail() {
  trace.selected = null;
  ui.detail.hidden = true;
  trace.schedule();
}

ui.trace.addEventListener("keydown", (e) => {
  if (e.key === "Escape") closeDetail();
});

function showDetail(e) {
  const dl = document.createElement("dl");
  for (const [k, v] of Object.entries(e)) {
    const dt = document.createElement("dt");
    dt.textContent = k;
    const dd = document.createElement("dd");
    if (k === "line") {
      const a = document.createElement("a");
      a.textContent = `line ${v}`;
      a.addEventListener("click", () => jumpTo(v));
      dd.append(a);
    } else {
      dd.textContent = typeof v === "object" ? JSON.stringify(v) : String(v);
    }
    dl.append(dt, dd);
  }
  ui.detail.replaceChildren(dl);
  ui.detail.hidden = false;
}
