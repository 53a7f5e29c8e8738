// Running a tutorial's steps (the notes' "@lines" and "@events",
// tutorial.js): a step runs the scenario to the end of its lines, selects
// the first event it names and frames them in the timeline; a click on one
// of a step's event names selects that event.

import { KIND, LAYER } from "./model.js";

// tutorialSteps returns the page's onStep and onEvent for its TutorialPane.
// It drives sim (window.d3dsim) and reads store; poll, select, selected,
// toast and ensureLoaded are the page's.
export function tutorialSteps({ sim, store, editor, tutorial, timeline, poll, select, selected, toast, ensureLoaded }) {
  let stepFrom = 0; // the trace index where the shown step's run began

  // tutorialStep highlights a step's lines, runs the scenario up to the end
  // of them and selects the first event the step names.
  function tutorialStep(step) {
    tutorial.ranOn = 0;
    if (!step) {
      editor.mark("focus", [0, 0]);
      return;
    }
    if (!ensureLoaded()) return;
    // A page opened from a link plays: stop it, and catch the panel up, so
    // the step starts from where the run really is.
    if (sim.summary().playing) sim.pause();
    poll();
    let from = 0;
    if (step.lines) {
      const [a, b] = step.lines;
      editor.mark("focus", [a, b]);
      editor.reveal(a, b - a + 1);
      if (store.lastApiLine > b) {
        sim.restart();
        poll();
      }
      from = store.n;
      stepThrough(a, b);
    }
    if (!step.events.length && step.lines) {
      // No events named: select the step's first API call, so the details
      // bar does not keep showing the previous step's event.
      const [a, b] = step.lines;
      for (let i = 0; i < store.n; i++) {
        if (store.kind(i) === KIND.call && store.from(i) === LAYER.app && store.line(i) >= a && store.line(i) <= b) {
          select(i, "tutorial");
          break;
        }
      }
    }
    stepFrom = from;
    if (step.events.length) {
      const names = new Set(step.events);
      const find = () => findStepEvent(step, names, from);
      let pick = find();
      // The events may come later than the step's last call (a submission the
      // kernel makes after Flush returns, a DMA buffer the GPU starts later):
      // run on, a call at a time, until one of them is in the trace.
      for (let k = 0; pick < 0 && step.lines && k < 2000 && !sim.summary().done; k++) {
        sim.step(1);
        poll();
        tutorial.ranOn = store.lastApiLine;
        pick = find();
      }
      for (let i = store.n - 1; i >= 0 && pick < 0; i--) if (names.has(store.name(i))) pick = i;
      if (pick >= 0) select(pick, "tutorial");
    }
    if (step.lines && tutorial.ranOn <= step.lines[1]) tutorial.ranOn = 0;
    if (step.lines) frameStep(step.lines[0], step.lines[1], selected());
  }

  // frameStep zooms the timeline onto the events of lines a..b and the
  // selected event: fitted to the whole run, a step's calls were a few pixels
  // wide at the right end (a newcomer could not see what the step named).
  // Double-click or "fit" shows the whole run again.
  function frameStep(a, b, sel) {
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = 0; i < store.n; i++) {
      const l = store.line(i);
      if ((l >= a && l <= b) || i === sel) {
        lo = Math.min(lo, store.t[i]);
        hi = Math.max(hi, store.t[i]);
      }
    }
    if (!(hi >= lo)) return;
    const span = Math.max(hi - lo, 1500); // virtual ns
    timeline.scale = (span * 1.5) / timeline.plotW();
    timeline.t0 = lo - span * 0.25;
    timeline.follow = false;
    timeline.request();
  }

  // findStepEvent is the first event named in names that the step's lines
  // produced, else the first after the step began, else -1.
  function findStepEvent(step, names, from) {
    const [a, b] = step.lines || [0, 1e9];
    for (let i = 0; i < store.n; i++) if (names.has(store.name(i)) && store.line(i) >= a && store.line(i) <= b) return i;
    for (let i = from; i < store.n; i++) if (names.has(store.name(i))) return i;
    return -1;
  }

  // tutorialEvent selects one event a step names (a click on its chip: a
  // step often names several, and only the first is selected).
  function tutorialEvent(step, name) {
    const names = new Set([name]);
    let pick = findStepEvent(step, names, stepFrom);
    for (let i = store.n - 1; i >= 0 && pick < 0; i--) if (store.name(i) === name) pick = i;
    if (pick >= 0) select(pick, "tutorial");
    else if (!sim.summary().done) toast(`No ${name} event yet: press Step call or Play to run on`);
    else toast(`This run made no ${name} event (the scenario was edited?). ${stepEvents(step)}`, 6000);
  }

  // stepEvents says which events the step's lines did make (a chip names
  // one the run never made: say what there is instead).
  function stepEvents(step) {
    const [a, b] = step.lines || [0, 0];
    const seen = new Set();
    for (let i = 0; i < store.n && seen.size < 12; i++) {
      if (store.line(i) >= a && store.line(i) <= b && store.kind(i) !== KIND.ret) seen.add(store.name(i));
    }
    return seen.size ? `${a === b ? `Line ${a}` : `Lines ${a}–${b}`} made: ${[...seen].join(", ")}.` : "";
  }

  // isCallLine reports whether a scenario line is an API call statement
  // ("[NAME[, NAME] =] TARGET.Method ..." or "... = D3D11CreateDevice"), not
  // an expect, signal, wait, inject, option, comment or brace.
  function isCallLine(text) {
    return /^\s*(?:\w+\s*(?:,\s*\w+\s*)*=\s*)?(?:\w+\.\w+|D3D11CreateDevice)(?:\s|$)/.test(text || "");
  }

  // stepThrough runs the scenario to the end of lines a..b. sim.stepToLine(b)
  // stops after the first call made by line b or a later one, so when the
  // range ends on lines that make no call (an expect, the brace that closes a
  // repeat) it has run one call too many, from a later line: replay to just
  // before it (the simulation is deterministic), so the page shows the state
  // right after the step's lines. A statement that waits (`expect pixel` and
  // `expect hash` wait for the GPU, `wait` for another thread) runs only with
  // the call after it, so a range ending on one keeps that call: the wait is
  // what the step is about. With threads, a later line of another thread may
  // run before the step's own lines: then go on until one of them has run.
  function stepThrough(a, b) {
    sim.stepToLine(b);
    poll();
    const s = sim.summary();
    if (s.done || store.lastApiLine <= b) return;
    const text = editor.value.split("\n");
    let lastCall = 0;
    for (let l = a; l <= b; l++) if (isCallLine(text[l - 1])) lastCall = l;
    const ranOwn = () => {
      for (let i = 0; i < store.n; i++) {
        if (store.line(i) >= a && store.line(i) <= b) return true; // Release makes no app-layer call event
      }
      return false;
    };
    if (lastCall && !ranOwn()) {
      for (let k = 0; k < 2000 && !ranOwn() && !sim.summary().done; k++) {
        sim.step(1);
        poll();
      }
      tutorial.ranOn = store.lastApiLine;
      return;
    }
    for (let l = Math.max(a, lastCall + 1); l <= b; l++) {
      if (/^\s*(?:expect\s+(?:pixel|hash)|wait)\s/.test(text[l - 1] || "")) {
        tutorial.ranOn = store.lastApiLine;
        return;
      }
    }
    sim.restart();
    poll();
    if (s.steps > 1) sim.step(s.steps - 1);
    poll();
  }

  return { step: tutorialStep, event: tutorialEvent };
}
