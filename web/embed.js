// Embed mode (docs/embedding.md): embed.html shows the canvas and one panel
// view of the full page's (app.js), minimal chrome, sized to its iframe.
// Each iframe runs its own copy of the module, so a tutorial page can embed
// several. The fragment says what to show:
//
//	s=1.…            the scenario (a share link's payload; read by the module itself)
//	demo=NAME        a built-in example scenario instead (assets/scenarios/NAME.d3ds)
//	tutorial=NAME    a tutorial's scenario (assets/tutorials/NAME.d3ds)
//	view=V           timeline (default), cmdlists, handles, shaders, flow, problems, trace,
//	                 state, resource, pixel, compare, none
//	select=EVENT     select the first event of that name (flow: the call tree shown)
//	at=EVENT         the inspector's event (state, resource, pixel, compare): Draw#2, line:24, a seq
//	resource=NAME    the resource view's resource, the pixel view's texture (default: bb)
//	pixel=X,Y        the pixel view's pixel (its history, up to at=)
//	against=MODE     the compare view's other run: in-order, out-of-order, sync
//	from=parent      take the scenario from the parent window (inbox.js)
//
// Changing the fragment's view parameters (view, at, resource, pixel,
// against, select) switches the view in place; the run goes on.

import { Store, KIND, LAYER } from "./model.js";
import { Timeline } from "./timeline.js";
import { links, el } from "./view-common.js";
import { CommandListsView } from "./view-cmdlists.js";
import { HandlesView } from "./view-handles.js";
import { FlowView } from "./view-flow.js";
import { ProblemsView } from "./view-problems.js";
import { TraceView } from "./view-trace.js";
import { ShadersView } from "./view-shaders.js";
import { StateView, ResourceView, PixelView } from "./view-inspect.js";
import { CompareView } from "./view-compare.js";
import { boot, fragment } from "./boot.js";
import { Controller } from "./controller.js";
import "./inbox.js";

const $ = (id) => document.getElementById(id);
const VIEWS = ["timeline", "cmdlists", "handles", "shaders", "flow", "problems", "trace", "state", "resource", "pixel", "compare", "none"];
const INSPECT = ["state", "resource", "pixel", "compare"]; // views of the inspector: they ask at= once the run is done

let P = fragment(location.hash);
let viewName = VIEWS.includes(P.view) ? P.view : "timeline";
// An unknown view= is named in a notice once the page runs (start).
let badView = P.view != null && !VIEWS.includes(P.view) ? P.view : null;
document.documentElement.classList.toggle("no-view", viewName === "none");

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
  if (badView != null) notes.push(badViewNote());
  showNotice(notes.join("\n"));
  $("title").textContent = title;
  if (title) document.title = `d3dsim — ${title} (embedded)`;
  view = makeView(viewName);
  // The controller's one view: the view shown now (it changes with the
  // fragment: switchView).
  const holder = { setStore: (s) => view.setStore(s), refresh: (f) => view.refresh(f), select: (i) => view.select(i) };
  ctl = new Controller(sim, store, [holder], {
    loaded: updateOpen,
    pulled: (s, grew, loaded) => {
      if (grew || loaded) {
        view.refresh(loaded);
        autoSelect();
      }
      if (s.done) view.ready?.();
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
  window.d3dsimEmbed = { store, get selected() { return ctl.selected; }, get view() { return viewName; }, get shown() { return view; }, openURL, poll: () => poll() };
  window.addEventListener("hashchange", switchView);
  ctl.start();
}

function badViewNote() {
  return `There is no view named "${badView}"; showing the timeline. The views are: ${VIEWS.join(", ")}.`;
}

// switchView shows the view the fragment names now, with its parameters;
// a new scenario in the fragment loads the page again.
function switchView() {
  const next = fragment(location.hash);
  for (const k of ["s", "demo", "tutorial", "from"]) {
    if (next[k] !== P[k]) {
      location.reload();
      return;
    }
  }
  P = next;
  viewName = VIEWS.includes(P.view) ? P.view : "timeline";
  badView = P.view != null && !VIEWS.includes(P.view) ? P.view : null;
  showNotice(badView != null ? badViewNote() : "");
  document.documentElement.classList.toggle("no-view", viewName === "none");
  $("inspector").hidden = false;
  $("inspector").replaceChildren();
  wantSelect = P.select || "";
  view = makeView(viewName);
  view.setStore(store);
  view.refresh(true);
  if (ctl.selected >= 0) view.select(ctl.selected);
  if (sim.summary().done) view.ready?.();
  autoSelect();
}

// atSeq resolves the fragment's at= (default: the last Present, else the
// last API call) to a seq, or says why not.
function atSeq() {
  const names = P.at ? [P.at] : ["Present", "line:999999999"];
  let r = null;
  for (const n of names) {
    r = sim.inspectResolve(n);
    if (r && r.seq) return { seq: r.seq };
  }
  return { error: `at=${P.at || "Present"}: ${(r?.error || "no such event").replace(/^inspect: /, "")}` };
}

// inspectView wraps an inspector view: once the run is done it asks the
// question the fragment names (ask), once.
function inspectView(w, ask, box) {
  let asked = false;
  return {
    w,
    setStore: (s) => w.setStore(s),
    refresh: () => {},
    select: (i) => w.select(i),
    ready: () => {
      if (asked) return;
      asked = true;
      const at = atSeq();
      if (at.error) {
        box.replaceChildren(el("div", "empty", at.error));
        return;
      }
      ask(at.seq);
    },
  };
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
    case "state": {
      const p = pane();
      v.append(p);
      const w = new StateView(p, sim, {
        resource: (seq, name) => { location.hash = withParams({ view: "resource", at: String(seq), resource: name }); },
        step: () => {},
      });
      return inspectView(w, (seq) => w.renderSeq(seq), p);
    }
    case "resource": {
      const p = pane();
      v.append(p);
      const w = new ResourceView(p, sim, {
        pixel: (seq, name, x, y, sub) => { location.hash = withParams({ view: "pixel", at: String(seq), resource: name, pixel: `${x},${y}`, sub: sub ? `${sub.mip},${sub.slice}` : null }); },
      });
      return inspectView(w, (seq) => w.show(seq, P.resource || "bb"), p);
    }
    case "pixel": {
      const split = el("div", "split");
      const a = pane("pane pixel-history");
      const b = pane();
      b.tabIndex = 0;
      split.append(a, b);
      v.append(split);
      const w = new PixelView(a, b, sim, {});
      return inspectView(w, (seq) => {
        const m = /^(\d+),(\d+)$/.exec(P.pixel || "");
        if (!m) {
          a.replaceChildren(el("div", "empty", `pixel=${P.pixel ?? ""}: say which pixel as pixel=X,Y (e.g. pixel=32,20)`));
          return;
        }
        const sm = /^(\d+),(\d+)$/.exec(P.sub || "");
        if (P.sub !== undefined && !sm) {
          a.replaceChildren(el("div", "empty", `sub=${P.sub}: say which subresource as sub=MIP,SLICE (e.g. sub=0,2)`));
          return;
        }
        w.show(seq, P.resource || "bb", Number(m[1]), Number(m[2]), sm ? { mip: Number(sm[1]), slice: Number(sm[2]) } : null);
      }, a);
    }
    case "compare": {
      const p = pane();
      v.append(p);
      const w = new CompareView(p, sim);
      w.setStore(store);
      const iv = inspectView(w, (seq) => {
        if (P.against) w.compare(P.against, P.at || "");
      }, p);
      iv.ready = P.against ? iv.ready : () => {};
      return iv;
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

// withParams is the fragment with params changed (the scenario kept; a
// param given as null is taken out).
function withParams(params) {
  const q = { ...fragment(location.hash), ...params };
  return "#" + Object.entries(q).filter(([, v]) => v != null).map(([k, v]) => `${k}=${k === "s" ? v : encodeURIComponent(v)}`).join("&");
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
