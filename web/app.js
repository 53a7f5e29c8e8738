// d3dsim page: the full app's chrome — editor, controls, scenario picker,
// tutorials, the panel's tabs and details bar — driven through
// window.d3dsim (wasm/bridge_js.go). Plain ES modules, no build step, no CDN.
//
// Loading the module is boot.js's; the poll that pulls trace events into
// the store and lets the visible view catch up is controller.js's; running
// a tutorial's steps is tutorial-steps.js's. Selecting an event in any view
// selects it in all of them (select()).

import { Store, KIND, LAYER, formatT } from "./model.js";
import { boot, fragment } from "./boot.js";
import { installBarHeight, placeMenu, installSplitter, installPixelProbe, installKeys } from "./layout.js";
import { Controller } from "./controller.js";
import { Editor } from "./editor.js";
import { Timeline } from "./timeline.js";
import { links, el, seqLink, lineLink } from "./view-common.js";
import { CommandListsView } from "./view-cmdlists.js";
import { HandlesView } from "./view-handles.js";
import { ShadersView } from "./view-shaders.js";
import { FlowView } from "./view-flow.js";
import { ProblemsView } from "./view-problems.js";
import { CompareView } from "./view-compare.js";
import { TraceView } from "./view-trace.js";
import { StateView, ResourceView, PixelView } from "./view-inspect.js";
import { TutorialPane, linkedTutorial, linkedStep } from "./tutorial.js";
import { tutorialSteps } from "./tutorial-steps.js";
import { MAX_LINK, shareLong, localOnly, save, reproHTML, siteURL } from "./share.js";
import "./inbox.js"; // a scenario handed over by a parent window (#from=parent)
import "./drop.js"; // a .d3ds file dropped onto the page
import { capture, installPaste } from "./capture.js"; // apitrace captures dropped or pasted
import { standaloneHTML, embeddedScenario } from "./standalone.js";

const $ = (id) => document.getElementById(id);
const hook = window.__d3dsimReady;

// ---- loading the module ----

function fatal(err) {
  const msg = String(err && err.message ? err.message : err);
  $("stage-status").textContent = "d3dsim could not start:\n" + msg;
  $("stage-status").classList.add("failed");
  setState("failed", "failed to load");
  hook?.reject(err);
}

// exited is the module ending while the page runs (out of memory, a
// failure of the Go runtime): a notice says so, Restart reloads the page
// (the link in its address is the scenario's), and nothing throws (boot.js
// quiets window.d3dsim).
let dead = false;
function exited(err) {
  if (!sim) {
    fatal(err);
    return;
  }
  dead = true;
  ctl?.stop?.();
  showNotice(`The simulator stopped: ${err.message}. Restart starts it again.`);
  for (const id of ["play", "step", "step-frame", "share", "download"]) $(id).disabled = true;
  $("restart").disabled = false;
}

boot(exited).then((d3dsim) => {
  $("stage-status").hidden = true;
  start(d3dsim);
}).catch(fatal);

// ---- state ----

let sim = null;
let ctl = null; // the controller (controller.js): polls, the store, the selection
let runPending = 0;
let activeView = "timeline";
let firstFrameAt = 0;
let tutorialName = "";

const store = new Store();
let editor, timeline, cmdlists, handles, shaders, flow, problems, traceView, tutorial, compareView;
let stateView, resourceView, pixelView; // the inspector's views (view-inspect.js)
let probe = null; // the pixel probe under the stage (layout.js)

function setState(state, label) {
  $("state").dataset.state = state;
  $("state").textContent = label || state;
}

function start(d3dsim) {
  sim = d3dsim;

  editor = new Editor({
    source: $("source"), gutter: $("gutter"), gutterInner: $("gutter-inner"), backdropInner: $("backdrop-inner"),
    error: $("error"), cursor: $("cursor"), check: (text) => sim.check(text), highlight: $("highlight"),
  });
  // The bar's state and buttons depend on the editor's text (edited or
  // not, parsing or not): the panel's next poll shows them (summaryKey).
  editor.onChange = () => {
    syncPicker();
    ctl?.wake();
  };
  editor.onCheck = () => ctl?.wake();

  timeline = new Timeline($("timeline"), $("tl-tip"), select);
  timeline.memorySource = (from) => sim.inspectMemory?.(from, 4096); // the memory lanes (core/inspect Memory)
  cmdlists = new CommandListsView($("cl-contexts"), $("cl-lists"));
  handles = new HandlesView($("h-objects"), $("h-caches"));
  shaders = new ShadersView($("sh-list"), $("sh-detail"), sim);
  flow = new FlowView($("flow"));
  problems = new ProblemsView($("problems"), $("problem-count"));
  const filter = el("input", "filter");
  filter.type = "search";
  filter.placeholder = "filter: name, layer, kind, ctx, obj, handle…";
  filter.setAttribute("aria-label", "Filter events");
  const count = el("span", "muted count");
  traceView = new TraceView({ scroll: $("trace"), spacer: $("trace-spacer"), rows: $("trace-rows"), filter, count });
  let filterTimer = 0;
  filter.addEventListener("input", () => {
    clearTimeout(filterTimer);
    filterTimer = setTimeout(() => traceView.setFilter(filter.value), 150);
  });
  viewTools.trace = [filter, count];
  viewTools.timeline = timelineTools();

  // The inspector's views: a resource's "view" opens the Resource view, a
  // pixel's click its history in the Pixel view.
  pixelView = new PixelView($("px-history"), $("px-steps"), sim, {});
  resourceView = new ResourceView($("res"), sim, { pixel: (seq, name, x, y, sub) => { showView("pixel"); pixelView.show(seq, name, x, y, sub); } });
  stateView = new StateView($("st-state"), sim, {
    resource: (seq, name) => { showView("resource"); resourceView.show(seq, name); },
    step: (kind, args) => { showView("pixel"); pixelView.stepOther(kind, args); },
  });
  compareView = new CompareView($("compare"), sim);
  // A click on an editor line's number selects the last call made on it.
  $("gutter-inner").addEventListener("click", (e) => {
    const ln = e.target.closest(".ln");
    if (ln) selectLine(Number(ln.dataset.line));
  });

  ctl = new Controller(sim, store, [timeline, cmdlists, handles, shaders, flow, problems, traceView, stateView, resourceView, pixelView, compareView], {
    reset: () => { $("detail").hidden = true; },
    loaded: () => {
      // Show the new scenario's text.
      const src = sim.source();
      if (editor.value !== src) editor.value = src;
      problems.setCapture(capture.source === src ? capture.report : null);
      editor.setError("");
      syncPicker();
    },
    pulled,
    // What renderSummary shows besides the summary: Play's label while a
    // Step frame runs, Step's and the state's with an edited or broken text.
    summaryKey: () => `${runPending}/${editor.errorText}/${editor.value === sim.source()}`,
    // The Command lists and Handles views wait for the inspector's
    // throttle (controller.js inspect): poll until they caught up.
    busy: () => (activeView === "cmdlists" || activeView === "handles") && ctl.inspectStale,
    summary: renderSummary,
    polled: showHeld,
    select: showSelection,
  });

  tutorial = new TutorialPane({
    pane: $("notes"), title: $("notes-title"), body: $("notes-body"), prev: $("notes-prev"), next: $("notes-next"),
    pos: $("notes-pos"), close: $("notes-close"), onStep: (step) => steps.step(step), onEvent: (step, name) => steps.event(step, name), onClose: () => {
      editor.mark("focus", [0, 0]);
      tutorialName = "";
      syncPicker();
    },
  });

  const steps = tutorialSteps({
    sim, store, editor, tutorial, timeline, poll, select, selected: () => ctl.selected, toast, ensureLoaded,
  });

  links.select = select;
  links.line = (line) => editor.jumpTo(line);

  fillPicker();
  showNotice(sim.notice);
  openLinkedTutorial();
  openNamed();
  openEmbedded();
  $("notice").title = "Click to close";
  $("notice").addEventListener("click", () => { $("notice").hidden = true; });
  window.addEventListener("d3dsim:notice", (e) => showNotice(e.detail));
  installPaste($("source"));
  window.addEventListener("d3dsim:capture", (e) => {
    problems.setCapture(e.detail.report);
    if (activeView === "problems") problems.render();
  });
  for (const id of ["play", "step", "step-frame", "restart", "share", "download"]) $(id).disabled = false;

  $("play").addEventListener("click", togglePlay);
  $("step").addEventListener("click", stepCall);
  $("step-frame").addEventListener("click", stepFrame);
  $("restart").addEventListener("click", restart);
  $("speed").addEventListener("change", () => sim.setSpeed(Number($("speed").value)));
  $("share").addEventListener("click", share);
  $("summary-problems").addEventListener("click", (e) => {
    e.preventDefault();
    showView("problems");
  });
  $("download").addEventListener("click", (e) => {
    e.stopPropagation();
    $("download-menu").hidden = !$("download-menu").hidden;
    if (!$("download-menu").hidden) placeMenu($("download-menu"), $("download"));
  });
  $("download-menu").addEventListener("click", (e) => {
    const b = e.target.closest("button[data-kind]");
    if (b) download(b.dataset.kind);
    $("download-menu").hidden = true;
  });
  document.addEventListener("click", () => { $("download-menu").hidden = true; });
  $("picker").addEventListener("change", pick);
  $("source").addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      runEditor();
    }
  });
  installKeys({ togglePlay, stepCall, stepFrame, showKeys, keysOpen: () => !$("keys").hidden, showView: showTab });
  $("help").addEventListener("click", (e) => {
    e.stopPropagation();
    showKeys(true);
  });
  $("keys-close").addEventListener("click", () => showKeys(false));
  $("keys").addEventListener("click", (e) => { if (e.target === $("keys")) showKeys(false); });
  fillKeysLegend();
  installBarHeight();
  window.addEventListener("hashchange", onHashChange);
  installSplitter();
  probe = installPixelProbe(sim, () => ctl.summary?.frames);
  for (const tab of document.querySelectorAll(".tabs [data-view]")) {
    tab.addEventListener("click", () => showView(tab.dataset.view));
  }

  window.d3dsimUI = {
    store, timeline, select, showView, editor, tutorial, views: { cmdlists, handles, shaders, flow, problems, trace: traceView, state: stateView, resource: resourceView, pixel: pixelView, compare: compareView },
    get selected() { return ctl.selected; },
    get firstFrameAt() { return firstFrameAt; },
    openTutorial: (name, scenario, notes) => openTutorial(name, scenario, notes),
    poll: () => poll(),
    polls: ctl.polls,
    pollPending: () => ctl.catchUp, // a poll is asked for (an idle page has none)
    measurePan,
  };

  showView("timeline");
  ctl.start();
}

// showKeys opens or closes the keyboard shortcuts' overlay (the ? button and
// key; Esc or a click outside its box closes it).
function showKeys(open) {
  $("keys").hidden = !open;
  if (open) $("keys-close").focus({ preventScroll: true });
}

// fillKeysLegend copies the timeline's colour legend into the overlay (the
// timeline's tools hide it on a narrow window).
function fillKeysLegend() {
  const legend = viewTools.timeline?.[0];
  if (legend) $("keys-legend").replaceChildren(legend.cloneNode(true));
}

// ---- controls ----

function showNotice(text) {
  $("notice").textContent = text || "";
  $("notice").hidden = !text;
}

// ensureLoaded loads the editor's text when it differs from the loaded
// scenario; false (and the error marked) when it does not parse.
function ensureLoaded() {
  if (editor.value === sim.source()) return true;
  return load();
}

function load() {
  const res = sim.load(editor.value);
  if (!res.ok) {
    editor.setError(res.error, 0, true);
    setState("failed", "parse error");
    return false;
  }
  editor.setError("");
  poll();
  return true;
}

async function runEditor() {
  if (!load()) return;
  sim.play();
  poll();
}

function togglePlay() {
  const s = sim.summary();
  if (s.playing || runPending > 0) {
    sim.pause();
  } else {
    if (!ensureLoaded()) return;
    if (sim.summary().done) sim.restart();
    sim.play();
  }
  poll();
}

function stepCall() {
  if (!ensureLoaded()) return;
  sim.step(1);
  poll();
  selectLastCall();
}

// stepFrame runs to the next Present in slices (sim.runFrame), so a frame of
// many or heavy calls leaves the page responsive; Pause (or another step or
// load) ends it early. The Play button reads Pause meanwhile (runPending).
async function stepFrame() {
  if (!ensureLoaded()) return;
  runPending++;
  poll();
  try {
    await sim.runFrame();
  } finally {
    runPending--;
  }
  poll();
  selectLastCall();
}

function restart() {
  if (dead) {
    location.reload(); // a new module; the address keeps the link
    return;
  }
  load();
}

// selectLastCall selects the API call that just ran (after a step).
function selectLastCall() {
  for (let i = store.n - 1; i >= Math.max(0, store.n - 100000); i--) {
    if (store.kind(i) === KIND.call && store.from(i) === LAYER.app) {
      select(i, "step");
      return;
    }
  }
}

async function share() {
  if (!ensureLoaded()) return;
  if (location.protocol === "file:") {
    // A standalone page opened from disk (standalone.js): no address
    // anyone else can open; the file is what to hand on.
    toast("This page was opened from disk: a link to it opens nowhere else. Hand on the file itself (Download → d3dsim-standalone.html makes one on the d3dsim site)", 6000);
    return;
  }
  const url = sim.link() + tutorialKeys();
  if (url.length > MAX_LINK) {
    // Too long for a link: offer files instead, and say why (share.js).
    shareLong(sim.source(), url, toast);
    return;
  }
  history.replaceState(null, "", new URL(url).hash);
  let copied = false;
  try {
    await navigator.clipboard.writeText(url);
    copied = true;
  } catch {
    // No clipboard permission: the link is in the address bar.
  }
  // The link points at the address this page is served from (sim.link():
  // location's origin and path); from this machine's own server, nobody
  // else can open it.
  const local = localOnly(url) ? ` — ${new URL(url).host} is this computer: this link only works on this machine` : "";
  toast((copied ? `Link copied (${url.length} characters)` : "The link is in the address bar") + local, local ? 6000 : 2500);
}

// tutorialKeys is what a shared link adds while a tutorial is open: its
// name and the step shown (docs/scenario.md "Links": t=, step=), so the
// link opens the notes at that step.
function tutorialKeys() {
  if (!tutorial.active || !tutorialName) return "";
  return `&t=${tutorialName}` + (tutorial.k >= 0 ? `&step=${tutorial.k + 1}` : "");
}

function onHashChange() {
  // A link pasted into this tab: replay it like a fresh open.
  if (/(^#|&)s=/.test(location.hash) && location.hash !== new URL(sim.link()).hash) location.reload();
  else if (/(^#|&)(demo|t|tutorial)=/.test(location.hash)) location.reload();
}

function download(kind) {
  if (kind === "standalone") {
    // The scenario and the simulator in one file (standalone.js).
    if (embeddedScenario() != null && location.protocol === "file:") {
      showNotice("This page was opened from disk: a standalone page is made from the d3dsim site (its main.wasm and modules), not from a copy. Open the site, paste the scenario and download it there.");
      return;
    }
    toast("Packing the scenario and the simulator into one file…", 20000);
    standaloneHTML(sim.source(), siteURL()).then((html) => {
      save("d3dsim-standalone.html", html, "text/html");
      toast(`d3dsim-standalone.html: ${(html.length / 1048576).toFixed(1)} MB, runs from disk with no server`, 4000);
    }, (err) => showNotice(`The standalone page could not be made: ${err.message}`));
    return;
  }
  if (kind === "repro") {
    // Any scenario, not only one too long for a link (share.js).
    save("d3dsim-repro.html", reproHTML(sim.source(), siteURL()), "text/html");
    return;
  }
  const range = /^range-(.*)$/.exec(kind);
  if (range) {
    // The timeline's shift-drag selection, clipped (core/inspect ClipTrace).
    if (!timeline.range || timeline.range[0] === timeline.range[1]) {
      toast("Select a stretch of time first: shift-drag on the timeline", 4000);
      return;
    }
    const [a, b] = timeline.range[0] <= timeline.range[1] ? timeline.range : [timeline.range[1], timeline.range[0]];
    const t0 = Math.floor(a);
    const t1 = Math.ceil(b);
    const data = sim.download(range[1], t0, t1);
    if (!data) return;
    const ext = range[1] === "jsonl" ? "jsonl" : "perfetto.json";
    save(`trace-${t0}-${t1}ns.${ext}`, data, range[1] === "jsonl" ? "application/x-ndjson" : "application/json");
    return;
  }
  const data = sim.download(kind);
  if (!data) {
    // Say what there is instead.
    const s = sim.summary();
    toast(kind === "png"
      ? `No frame presented yet (${s.steps.toLocaleString("en-US")} API calls, no Present so far): Step frame or Play runs on to one; the trace downloads have the ${s.events.toLocaleString("en-US")} events so far`
      : "No events yet: Step call or Play runs the scenario", 5000);
    return;
  }
  const name = { jsonl: "trace.jsonl", perfetto: "trace.perfetto.json", png: "frame.png", trace: "capture.trace" }[kind];
  const type = { jsonl: "application/x-ndjson", perfetto: "application/json", png: "image/png", trace: "application/octet-stream" }[kind];
  save(name, data, type);
}

function toast(text, ms = 2500) {
  const t = el("div", "toast", text);
  document.body.append(t);
  setTimeout(() => t.remove(), ms);
}

// ---- scenario picker and tutorials ----

function fillPicker() {
  const p = $("picker");
  const g1 = el("optgroup");
  g1.label = "Scenarios";
  for (const name of sim.scenarios()) {
    const o = el("option", "", name);
    o.value = "s:" + name;
    g1.append(o);
  }
  p.append(g1);
  const tuts = sim.tutorials ? sim.tutorials() : [];
  if (tuts.length) {
    const g2 = el("optgroup");
    g2.label = "Tutorials";
    for (const name of tuts) {
      const o = el("option", "", name);
      o.value = "t:" + name;
      g2.append(o);
    }
    p.append(g2);
  }
  const custom = el("option", "", "(edited)");
  custom.value = "";
  custom.disabled = true;
  p.append(custom);
}

function pick() {
  const v = $("picker").value;
  if (v.startsWith("t:")) {
    const t = sim.tutorial(v.slice(2));
    if (t) openTutorial(v.slice(2), t.scenario, t.notes);
    return;
  }
  const text = sim.scenario(v.slice(2));
  if (text == null) return;
  if (tutorial.active) tutorial.close();
  editor.value = text;
  runEditor();
}

function syncPicker() {
  const text = editor.value;
  if (tutorialName) {
    const t = sim.tutorial(tutorialName);
    if (t && t.scenario === text) {
      $("picker").value = "t:" + tutorialName;
      return;
    }
  }
  const match = sim.scenarios().find((n) => sim.scenario(n) === text);
  $("picker").value = match ? "s:" + match : "";
}

// openLinkedTutorial opens the notes of the tutorial a link names
// (#s=...&t=NAME, what `d3dsim link` prints for a tutorial), or of the
// tutorial whose text the link carries exactly (a tutorial shared from the
// page). The link's own text stays in the editor; when it differs from the
// tutorial's, a notice says the steps may point at the wrong lines.
function openLinkedTutorial() {
  if (!/(^#|&)s=/.test(location.hash) || sim.notice || !sim.tutorials) return;
  const names = sim.tutorials();
  const src = sim.source();
  const named = linkedTutorial(location.hash);
  if (named && !names.includes(named)) {
    showNotice(`This link names the tutorial "${named}", which this version of d3dsim does not have: showing its scenario without notes. The tutorials are: ${names.join(", ")}.`);
    return;
  }
  const name = named || names.find((n) => sim.tutorial(n).scenario === src);
  if (!name) return;
  const t = sim.tutorial(name);
  openTutorial(name, src, t.notes);
  if (t.scenario !== src) {
    showNotice(`This link's scenario differs from the tutorial "${name}" as this version ships it: the notes' steps may point at the wrong lines.`);
  }
  openAt(linkedStep(location.hash));
}

// openAt shows a tutorial opened from the address at step k (1-based, the
// link's step=), running the scenario to it as Next does; without a step
// the scenario plays, as the default page does.
function openAt(k) {
  if (k > 0 && tutorial.notes) {
    const n = tutorial.notes.steps.length;
    if (k > n) showNotice(`This link names step ${k} of the tutorial "${tutorialName}", which has ${n} ${n === 1 ? "step" : "steps"}: showing its introduction.`);
    else {
      tutorial.go(k - 1);
      return;
    }
  }
  sim.play();
  poll();
}

// openNamed opens what the fragment names without a scenario of its own,
// as embed.html does: #demo=NAME, a built-in example scenario, or #t=NAME
// (also #tutorial=NAME), a tutorial with its notes (at &step=K when given).
// Either plays, as the default page does. An unknown name gets a notice
// naming it and the valid ones, and the default scenario stays.
function openNamed() {
  if (/(^#|&)s=/.test(location.hash)) return; // a link: openLinkedTutorial's
  const p = fragment(location.hash);
  if (p.demo != null) {
    const text = sim.scenario(p.demo);
    if (text == null) {
      showNotice(unknownName("example scenario", p.demo, sim.scenarios()));
      return;
    }
    editor.value = text;
    load();
    syncPicker();
    sim.play(); // as the default page does
    poll();
    return;
  }
  const tname = p.t ?? p.tutorial;
  if (tname != null) {
    const t = sim.tutorial(tname);
    if (!t) {
      showNotice(unknownName("tutorial", tname, sim.tutorials()));
      return;
    }
    openTutorial(tname, t.scenario, t.notes);
    openAt(linkedStep(location.hash));
  }
}

// openEmbedded plays the scenario a standalone page carries
// (standalone.js), unless the fragment names what to open.
function openEmbedded() {
  const text = embeddedScenario();
  if (text == null || /(^#|&)(s|demo|t|tutorial)=/.test(location.hash)) return;
  editor.value = text;
  load();
  syncPicker();
  sim.play();
  poll();
}

// unknownName is the notice for a name the fragment gives that does not exist.
function unknownName(what, name, valid) {
  return `There is no ${what} named "${name}"; showing the default scenario. The ${what}s are: ${valid.join(", ")}.`;
}

// openTutorial loads a tutorial's scenario (paused at its start) and shows
// its notes.
function openTutorial(name, scenario, notes) {
  tutorialName = name;
  editor.value = scenario;
  load();
  tutorial.open(name, notes);
  syncPicker();
}

// ---- views ----

const viewTools = {};

function timelineTools() {
  const mk = (text, title, fn) => {
    const b = el("button", "ghost small", text);
    b.title = title;
    b.addEventListener("click", fn);
    return b;
  };
  const legend = el("span", "legend");
  for (const [cls, text] of [["api", "API"], ["present", "Present"], ["umd", "UMD"], ["callback", "pfn…Cb"], ["kernel", "KMD"],
    ["dma", "DMA"], ["paging", "paging"], ["isr", "ISR"], ["dpc", "DPC"], ["wait", "wait"]]) {
    const s = el("span", "lg lg-" + cls, text);
    legend.append(s);
  }
  const help = el("span", "muted help", "?");
  help.title = "drag or arrows: pan · wheel or W/S: zoom · shift-drag: measure (Esc clears) · click: select · double-click or F: fit";
  return [legend, help,
    mk("−", "zoom out (s)", () => timeline.zoom(1.6)),
    mk("+", "zoom in (w)", () => timeline.zoom(1 / 1.6)),
    mk("fit", "show the whole trace (f, double-click)", () => { timeline.follow = true; timeline.fit(); })];
}

// showTab shows the view of the n-th tab (1-based: the 1 … 9 and 0 keys).
function showTab(n) {
  const tab = document.querySelectorAll(".tabs [data-view]")[n - 1];
  if (tab) showView(tab.dataset.view);
}

function showView(name) {
  activeView = name;
  for (const tab of document.querySelectorAll(".tabs [data-view]")) tab.setAttribute("aria-selected", String(tab.dataset.view === name));
  for (const v of document.querySelectorAll(".inspector .view")) v.hidden = v.dataset.view !== name;
  $("view-tools").replaceChildren(...(viewTools[name] || []));
  timeline.visible = name === "timeline";
  refreshView(true);
}

function refreshView(force) {
  switch (activeView) {
    case "timeline":
      timeline.ingest();
      timeline.request();
      break;
    case "cmdlists":
      cmdlists.render(ctl.inspect(force));
      break;
    case "handles":
      handles.render(ctl.inspect(force));
      break;
    case "shaders":
      shaders.render(force);
      break;
    case "flow":
      if (force || flow.current !== ctl.selected) flow.render(ctl.selected);
      break;
    case "state":
      stateView.show();
      break;
    case "problems":
      problems.render();
      break;
    case "trace":
      // Hidden, the list could not scroll to the selection: do it now.
      if (force && ctl.selected >= 0) traceView.select(ctl.selected);
      else traceView.render();
      break;
  }
}

// select makes event i the selection of every view (controller.js select,
// then showSelection below).
function select(i, source) {
  ctl.select(i, source);
}

// showSelection shows the selection, event i, in every view.
function showSelection(i, source) {
  timeline.select(i);
  cmdlists.select(i);
  shaders.select(i);
  stateView.select(i);
  resourceView.select(i);
  compareView.select(i);
  traceView.selected = i;
  if (source !== "trace") traceView.select(i);
  if (activeView === "flow" || source === "flow") flow.render(i);
  for (const r of document.querySelectorAll(".problem.selected")) r.classList.remove("selected");
  const pr = document.querySelector(`.problem[data-ev="${i}"]`);
  if (pr) pr.classList.add("selected");
  editor.mark("selected", store.line(i));
  if (store.line(i) && source !== "tutorial") editor.reveal(store.line(i));
  showDetail(i);
}

// selectLine selects the last API call made on scenario line line (the
// editor's line numbers), when the panel holds one.
function selectLine(line) {
  for (let i = store.n - 1; i >= 0; i--) {
    if (store.line(i) === line && store.kind(i) === KIND.call && store.from(i) === LAYER.app) {
      select(i, "line");
      return;
    }
  }
}

function showDetail(i) {
  const d = $("detail");
  const e = store.event(i);
  const parts = [];
  parts.push(seqLink(store, i), el("b", "", e.name), el("span", "muted", [e.thread, e.layer ? (e.from && e.from !== e.layer ? e.from + "→" : "") + e.layer : "", e.kind, formatT(e.t)].filter(Boolean).join(" · ")));
  for (const k of ["ctx", "obj", "handle", "hr", "fence", "dma", "rule", "msg", "args"]) {
    if (e[k] !== undefined) parts.push(el("span", "kv", `${k}=${k === "obj" ? store.named(e[k]) : e[k]}`));
  }
  if (e.line) parts.push(lineLink(e.line));
  const go = (view, text) => {
    const b = el("button", "ghost small", text);
    b.addEventListener("click", () => {
      showView(view);
      select(i, "detail");
    });
    return b;
  };
  parts.push(el("span", "spacer"), go("state", "state"), go("flow", "flow"), go("timeline", "timeline"), go("trace", "trace"));
  d.replaceChildren(...parts);
  d.hidden = false;
}

// ---- polling ----

function poll() {
  ctl?.poll();
}

// pulled lets the views take in what a poll fetched (controller.js): the
// editor's ran-to mark and the visible view; the inspector's views catch up
// once its throttle allows. The problems follow the summary (renderSummary:
// a streaming run's at most every 100 ms), not every poll: each asked the
// module for its problems, 60 times a second.
function pulled(s, grew) {
  if (grew) {
    editor.mark("ran", store.lastApiLine);
    refreshView(false);
  }
  if ((activeView === "cmdlists" || activeView === "handles") && ctl.inspectStale) refreshView(false);
  if (s.frames >= 1 && !firstFrameAt) firstFrameAt = performance.now();
}

// showHeld says so when the panel stopped fetching at store.maxHeld events.
function showHeld(s) {
  const note = $("held-note");
  if (!note) return;
  const text = store.capped
    ? `The panel holds the first ${store.maxHeld.toLocaleString("en-US")} events of ${s.events.toLocaleString("en-US")}; Download has the newest the trace keeps.`
    : "";
  if (note.textContent !== text) note.textContent = text;
  note.hidden = !store.capped;
}

function renderSummary(s) {
  probe?.refresh();
  for (const b of document.querySelectorAll("#summary b[data-k]")) {
    const v = s[b.dataset.k];
    b.textContent = v === "" || v == null ? "–" : typeof v === "number" ? v.toLocaleString("en-US") : String(v);
    const unit = b.nextElementSibling;
    if (unit?.dataset.unit) unit.textContent = v === 1 ? unit.dataset.unit : unit.dataset.unit + "s";
  }
  // A run's failures ("LINE:COL: message") marked on their lines, while the
  // editor shows the text that ran.
  editor.setFailures(editor.value === sim.source() ? s.failures : []);
  document.querySelector('#summary [data-k="violations"]').classList.toggle("nonzero", s.violations > 0);
  problems.ingest(s);
  if (activeView === "problems") problems.render();
  // The problems' count, the tab badge's: in the line under the editor and
  // in the status pill; each problem marked on its line.
  const np = problems.count;
  editor.setProblems(editor.value === sim.source() ? problems.lineMarks() : []);
  const foot = $("summary-problems");
  foot.hidden = np === 0;
  foot.querySelector("b").textContent = np.toLocaleString("en-US");
  foot.querySelector("[data-unit]").textContent = np === 1 ? "problem" : "problems";
  const running = s.playing || runPending > 0;
  $("play").textContent = running ? "⏸ Pause" : s.done ? "▶ Replay" : "▶ Play";
  $("play").title = running ? "Pause (Space)"
    : s.done ? "Replay (Space): run the scenario again from the start (Ctrl+Enter in the editor loads the edited text and plays it)"
      : "Play (Space): run the scenario slice by slice (Ctrl+Enter in the editor loads the edited text and plays it)";
  const clean = editor.value === sim.source();
  $("step").disabled = s.done && clean;
  $("step-frame").disabled = s.done && clean;
  if (editor.errorText) {
    setState("failed", "parse error");
    return;
  }
  const nps = `${np.toLocaleString("en-US")} ${np === 1 ? "problem" : "problems"}`;
  if (s.failures.length > 0) setState("failed", `failed · ${nps}`);
  else if (s.done) setState(np ? "problems" : "done", np ? `done · ${nps}` : "done");
  else if (running) setState("playing", "playing");
  else setState("paused", s.steps ? "paused" : "ready");
}

// ---- measurement (browser tests) ----

// measurePan pans the timeline by dx pixels a frame for frames animation
// frames and reports the time between frames and the time each draw took.
function measurePan(frames = 120, dx = 7) {
  showView("timeline");
  timeline.ingest();
  return new Promise((resolve) => {
    const gaps = [];
    const draws = [];
    let last = 0;
    let k = 0;
    const tick = (now) => {
      if (last) gaps.push(now - last);
      last = now;
      timeline.panBy(k % 60 < 30 ? -dx : dx);
      timeline.scheduled = true; // draw here, not in another callback
      timeline.draw();
      timeline.scheduled = false;
      draws.push(timeline.lastDrawMs);
      if (++k < frames) requestAnimationFrame(tick);
      else resolve({ gaps, draws });
    };
    requestAnimationFrame(tick);
  });
}
