// Embed mode (docs/embedding.md): embed.html shows the canvas and one panel
// view of the full page's (app.js), minimal chrome, sized to its iframe.
// Each iframe runs its own copy of the module, so a tutorial page can embed
// several. The fragment says what to show:
//
//	s=1.…            the scenario (a share link's payload; read by the module itself)
//	demo=NAME        a built-in example scenario instead (assets/scenarios/NAME.d3ds)
//	tutorial=NAME    a tutorial's scenario (assets/tutorials/NAME.d3ds)
//	view=V           timeline (default), cmdlists, handles, shaders, flow, problems, trace, none
//	select=EVENT     select the first event of that name (flow: the call tree shown)
//	from=parent      take the scenario from the parent window (inbox.js)

import { Store, KIND, LAYER } from "./model.js";
import { Timeline } from "./timeline.js";
import { links, el } from "./view-common.js";
import { CommandListsView } from "./view-cmdlists.js";
import { HandlesView } from "./view-handles.js";
import { FlowView } from "./view-flow.js";
import { ProblemsView } from "./view-problems.js";
import { TraceView } from "./view-trace.js";
import { ShadersView } from "./view-shaders.js";
import { boot, fragment } from "./boot.js";
import { Controller } from "./controller.js";
import "./inbox.js";

const $ = (id) => document.getElementById(id);
const VIEWS = ["timeline", "cmdlists", "handles", "shaders", "flow", "problems", "trace", "none"];

const P = fragment(location.hash);
const viewName = VIEWS.includes(P.view) ? P.view : "timeline";
// An unknown view= is named in a notice once the page runs (start).
const badView = P.view != null && !VIEWS.includes(P.view) ? P.view : null;
if (viewName === "none") document.documentElement.classList.add("no-view");

const store = new Store();
let sim = null;
let ctl = null; // the controller (controller.js): polls, the store, the selection
let view = null; // {setStore, refresh(force), select(i)}
let wantSelect = P.select || "";

function showNotice(text) {
  $("notice").textContent = text || "";
  $("notice").hidden = !text;
}

function fatal(err) {
  const msg = String(err && err.message ? err.message : err);
  $("stage-status").textContent = "d3dsim could not start:\n" + msg;
  $("stage-status").classList.add("failed");
  $("state").dataset.state = "failed";
  $("state").textContent = "failed to load";
  window.__d3dsimReady?.reject(err);
}

boot().then(start, fatal);

function start(d3dsim) {
  sim = d3dsim;
  $("stage-status").hidden = true;
  $("notice").title = "Click to close";
  $("notice").addEventListener("click", () => { $("notice").hidden = true; });
  window.addEventListener("d3dsim:notice", (e) => showNotice(e.detail));
  // A built-in scenario named in the fragment (no s=: the module has
  // loaded the default one). An unknown name, or view, is said in a notice
  // with the valid ones; the title names only what is shown.
  const notes = sim.notice ? [sim.notice] : [];
  const named = P.demo != null ? ["demo", P.demo, sim.scenario(P.demo), sim.scenarios()]
    : P.tutorial != null ? ["tutorial", P.tutorial, sim.tutorial(P.tutorial)?.scenario, sim.tutorials ? sim.tutorials() : []] : null;
  let title = "";
  if (named && !/(^#|&)s=/.test(location.hash)) {
    if (named[2] == null) {
      notes.push(`There is no built-in ${named[0]} named "${named[1]}"; showing the default scenario. The ${named[0]}s are: ${named[3].join(", ")}.`);
    } else {
      sim.load(named[2]);
      sim.play();
      title = named[1];
    }
  }
  if (badView != null) notes.push(`There is no view named "${badView}"; showing the timeline. The views are: ${VIEWS.join(", ")}.`);
  showNotice(notes.join("\n"));
  $("title").textContent = title;
  if (title) document.title = `d3dsim — ${title} (embedded)`;
  view = makeView(viewName);
  ctl = new Controller(sim, store, [view], {
    loaded: updateOpen,
    pulled: (s, grew, loaded) => {
      if (grew || loaded) {
        view.refresh(loaded);
        autoSelect();
      }
    },
    summary: showSummary,
    select: (i) => view.select(i),
  });
  links.select = select;
  links.line = () => {};
  for (const id of ["play", "restart"]) $(id).disabled = false;
  $("play").addEventListener("click", () => {
    const s = sim.summary();
    if (s.playing) sim.pause();
    else {
      if (s.done) sim.restart();
      sim.play();
    }
    poll();
  });
  $("restart").addEventListener("click", () => {
    sim.restart();
    sim.play();
    poll();
  });
  // The full page, same scenario: the link the module makes for what is
  // loaded, pointed at index.html beside this page.
  $("open").addEventListener("pointerdown", updateOpen);
  $("open").addEventListener("focus", updateOpen);
  window.d3dsimEmbed = { store, get selected() { return ctl.selected; }, view: viewName, openURL, poll: () => poll() };
  ctl.start();
}

function poll() {
  ctl.poll();
}

// openURL is index.html beside this page with the loaded scenario's link.
function openURL() {
  return new URL("index.html", location.href).href + new URL(sim.link()).hash;
}

function updateOpen() {
  $("open").href = openURL();
}

// makeView builds the one view's DOM in the inspector section.
function makeView(name) {
  const box = $("inspector");
  if (name === "none") {
    box.hidden = true;
    return { setStore() {}, refresh() {}, select() {} };
  }
  const v = el("div", "view");
  v.dataset.view = name;
  box.append(v);
  const pane = (cls = "pane") => {
    const p = el("div", cls);
    return p;
  };
  switch (name) {
    case "timeline": {
      const wrap = el("div", "tl-wrap");
      const canvas = el("canvas");
      canvas.id = "timeline";
      canvas.tabIndex = 0;
      canvas.setAttribute("aria-label", "Fence timeline: drag to pan, wheel to zoom, click an item for details");
      const tip = el("div", "tl-tip");
      tip.hidden = true;
      wrap.append(canvas, tip);
      v.append(wrap);
      const t = new Timeline(canvas, tip, (i) => select(i));
      t.memorySource = (from) => sim.inspectMemory?.(from, 4096);
      return {
        t,
        setStore: (s) => t.setStore(s),
        refresh: () => { t.ingest(); t.request(); },
        select: (i) => t.select(i),
      };
    }
    case "cmdlists":
    case "handles": {
      const split = el("div", "split");
      const a = pane();
      const b = pane("pane side");
      split.append(a, b);
      v.append(split);
      const w = name === "cmdlists" ? new CommandListsView(a, b) : new HandlesView(a, b);
      return {
        setStore: (s) => w.setStore(s),
        refresh: (force) => {
          const m = ctl.inspect(force);
          if (m || name === "cmdlists") w.render(m);
        },
        select: (i) => w.select?.(i),
      };
    }
    case "shaders": {
      const split = el("div", "split");
      const a = pane("pane shaders-list");
      const b = pane("pane side");
      split.append(a, b);
      v.append(split);
      const w = new ShadersView(a, b, sim);
      return {
        setStore: (s) => w.setStore(s),
        refresh: (force) => w.render(force),
        select: (i) => w.select(i),
      };
    }
    case "flow": {
      const p = pane();
      v.append(p);
      const w = new FlowView(p);
      return {
        setStore: (s) => w.setStore(s),
        refresh: (force) => { if (force || w.current !== ctl.selected) w.render(ctl.selected); },
        select: (i) => w.render(i),
      };
    }
    case "problems": {
      const p = pane();
      v.append(p);
      const w = new ProblemsView(p, el("span"));
      return {
        setStore: (s) => w.setStore(s),
        refresh: () => { w.ingest(sim.summary()); w.render(); },
        select: () => {},
      };
    }
    case "trace": {
      const scroll = el("div", "trace-scroll");
      const spacer = el("div", "trace-spacer");
      const rows = el("div", "trace-rows");
      scroll.append(spacer, rows);
      v.append(scroll);
      const w = new TraceView({ scroll, spacer, rows, filter: el("input"), count: el("span") });
      return {
        setStore: (s) => w.setStore(s),
        refresh: () => w.render(),
        select: (i) => { w.selected = i; w.select(i); },
      };
    }
  }
  return null;
}

function select(i) {
  ctl.select(i);
}

// autoSelect picks the event the fragment names (select=NAME), or for the
// flow view the first Present, once it has arrived.
function autoSelect() {
  if (ctl.selected >= 0) return;
  const want = wantSelect || (viewName === "flow" ? "Present" : "");
  if (!want) return;
  // An API call of that name first, then any call, then any event.
  let call = -1;
  let any = -1;
  for (let i = 0; i < store.n; i++) {
    if (store.name(i) !== want) continue;
    if (store.kind(i) === KIND.call && store.from(i) === LAYER.app) return select(i);
    if (store.kind(i) === KIND.call && call < 0) call = i;
    if (any < 0) any = i;
  }
  if (sim.summary().done && (call >= 0 || any >= 0)) select(call >= 0 ? call : any);
}

// showSummary shows the summary's figures, the Play button and the state.
function showSummary(s) {
  for (const b of document.querySelectorAll("#summary b[data-k]")) {
    const x = s[b.dataset.k];
    b.textContent = x == null || x === "" ? "–" : typeof x === "number" ? x.toLocaleString("en-US") : String(x);
  }
  $("play").textContent = s.playing ? "⏸" : "▶";
  const st = s.failures.length ? ["failed", `failed · ${s.failures.length}`] : s.done ? ["done", "done"] : s.playing ? ["playing", "playing"] : ["paused", "paused"];
  $("state").dataset.state = st[0];
  $("state").textContent = st[1];
  if (viewName === "problems") view.refresh(false);
}
