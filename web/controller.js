// The panel's controller, shared by the full page (app.js) and the embed
// (embed.js): it polls the module (window.d3dsim), pulls new trace events
// into the store, lets the views catch up and fans a selection out to them.
// The pages say what catching up and selecting mean for their views through
// hooks; the loop itself is here once.
//
// A poll reads the summary, starts a fresh store when a new scenario was
// loaded, and pulls new events as columnar batches into the store (model.js
// pull). Polls run while something happens, one an animation frame: while
// the run plays, a run or a step in slices goes on (each slice, each call
// that changes the run sends "d3dsim:change", wasm/bridge_js.go), events
// are left to fetch or the summary moved since the last poll. Then they
// stop: an idle page polls nothing (no timer), until a control, a script
// calling window.d3dsim or a link changes the run again. One poll a frame
// keeps each frame's share of the trace's work even (polls every 100 ms
// fetched six frames' events at once, a late frame each time). A poll
// fetches for a bounded time; while events are left the next frame's poll
// goes on.

import { pull } from "./model.js";

// SUMMARY_MS: a streaming run's summary is shown at most this often (poll).
const SUMMARY_MS = 100;

export class Controller {
  // sim is window.d3dsim, store a model.js Store. views get the store anew
  // (setStore) whenever it starts over. hooks, all optional:
  //   reset()                  the store started over (a load, or events dropped)
  //   loaded(s)                a new scenario was loaded (s: its summary)
  //   pulled(s, grew, loaded)  after each fetch: grew says the store took events
  //   summary(s)               the summary changed (summaryKey adds to what counts)
  //   summaryKey()             more state the summary's display depends on
  //   polled(s)                at the end of every poll
  //   busy()                   a view waits for another poll (the inspector's throttle)
  //   select(i, source)        event i is the selection now
  constructor(sim, store, views, hooks = {}) {
    this.sim = sim;
    this.store = store;
    this.views = views;
    this.hooks = hooks;
    this.loads = -1; // the module's load count the store holds
    this.selected = -1;
    this.summary = null; // the last summary shown
    this.summaryShown = "";
    this.summaryAt = 0; // when it was shown (performance.now)
    this.catchUp = false; // a poll is scheduled to fetch the events left
    this.snap = null; // the inspector's model (inspect)
    this.snapVersion = -1;
    this.snapAt = 0;
    // What polls cost, and the wake-ups that asked for them (for tests: an
    // idle page's counts stand still).
    this.polls = { n: 0, maxMs: 0, totalMs: 0, wakes: 0 };
    this.stopped = false;
    this.onChange = () => this.wake();
  }

  // start polls now, and again whenever the run changes.
  start() {
    window.addEventListener("d3dsim:change", this.onChange);
    this.poll();
  }

  // stop ends the polls (the module exited).
  stop() {
    this.stopped = true;
    window.removeEventListener("d3dsim:change", this.onChange);
  }

  // wake asks for a poll in the next animation frame (one, however many
  // ask).
  wake() {
    if (this.catchUp || this.stopped) return;
    this.catchUp = true;
    this.polls.wakes++;
    requestAnimationFrame(() => {
      this.catchUp = false;
      this.poll(false);
    });
  }

  // poll runs one poll and, while something happens, asks for the next.
  // The page's controls and tests call it (force): what it shows is then
  // the run's state. The polls of a streaming run show a new summary at
  // most every SUMMARY_MS (the text of a dozen counters, the editor's
  // marks and the problems' count 60 times a second were work nobody
  // reads); the last one is shown however soon it comes.
  poll(force = true) {
    if (this.stopped) return;
    const t0 = performance.now();
    const busy = this.pollOnce(force);
    const ms = performance.now() - t0;
    this.polls.n++;
    this.polls.totalMs += ms;
    if (ms > this.polls.maxMs) this.polls.maxMs = ms;
    if (busy) this.wake();
  }

  // pollOnce is one poll; it reports whether to poll again: events are
  // left to fetch, the store took some, the summary moved (a run in
  // slices sends no event while a slice is suspended inside a long draw,
  // but its summary says busy), or the run plays.
  pollOnce(force = true) {
    const h = this.hooks;
    // progress(): the summary without the frame's hash (a SHA-256 of the
    // last frame), where the module has it; the summary line shows the
    // hash, so summary() is asked only when the line is drawn (at most
    // every 100 ms while a run streams), not every animation frame.
    const s = this.sim.progress ? this.sim.progress() : this.sim.summary();
    let loaded = false;
    if (s.loads !== this.loads) {
      // A new scenario (from this page, a link, or a script calling
      // d3dsim.load): start a fresh trace.
      this.loads = s.loads;
      this.reset();
      loaded = true;
      h.loaded?.(s);
    }
    // When the recorder dropped events not fetched yet, the store starts
    // over from what the recorder still holds.
    const v = this.store.version;
    const more = pull(this.store, this.sim, () => this.reset());
    h.pulled?.(s, this.store.version !== v, loaded);
    const key = JSON.stringify(s) + (h.summaryKey ? h.summaryKey() : "");
    const moved = key !== this.summaryShown;
    const now = performance.now();
    const show = moved && (force || loaded || now - this.summaryAt >= SUMMARY_MS);
    if (show) {
      const full = this.sim.progress ? this.sim.summary() : s;
      this.summaryShown = key;
      this.summary = full;
      this.summaryAt = now;
      h.summary?.(full);
    }
    h.polled?.(s);
    return more || moved || loaded || this.store.version !== v || s.playing || !!s.busy || !!h.busy?.();
  }

  // reset starts the store over and hands it to every view.
  reset() {
    this.store.reset();
    for (const v of this.views) v.setStore(this.store);
    this.snap = null;
    this.snapVersion = -1;
    this.selected = -1;
    this.hooks.reset?.();
  }

  // inspect is the inspector's model (command lists, handles), fetched when
  // the trace grew, at most every 250 ms while events stream in; null when
  // the throttle holds a stale one back.
  inspect(force) {
    const now = performance.now();
    if (this.snap && this.snapVersion === this.store.version) return this.snap;
    if (!force && this.snap && now - this.snapAt < 250) return null;
    this.snap = this.sim.inspect();
    this.snapVersion = this.store.version;
    this.snapAt = now;
    return this.snap;
  }

  // inspectStale says whether the trace grew since the inspector's model.
  get inspectStale() {
    return this.snapVersion !== this.store.version;
  }

  // select makes event i the selection of every view.
  select(i, source) {
    if (i < 0 || i >= this.store.n) return;
    this.selected = i;
    this.hooks.select?.(i, source);
  }
}
