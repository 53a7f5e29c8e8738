// The fence timeline: a Timeline wires its model (timeline-model.js: lanes
// and items from the store), its drawing (timeline-draw.js) and its input
// (timeline-input.js: hit-testing, zoom and pan, mouse and keyboard) to one
// <canvas> and a tooltip, and keeps the view's state (the time at the left
// edge, the scale, the selection).

import { TimelineModel, ROW, LABEL_W, RULER_H } from "./timeline-model.js";
import { draw, labels } from "./timeline-draw.js";
import * as input from "./timeline-input.js";

export { Bucket } from "./timeline-model.js";

// FOLLOW_MS: a followed, streaming trace is painted at most this often
// (request).
const FOLLOW_MS = 100;

export class Timeline extends TimelineModel {
  constructor(canvas, tip, onSelect) {
    super();
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
    this.draws = 0; // whole paints
    this.labelled = 0; // paints of the label column alone (timeline-draw.js labels)
    this.deferred = 0; // paints put off while following a streaming trace (request)
    this.resizes = 0; // each clears the canvas: the next paint is whole
    this.followAt = -Infinity; // when a followed trace was last painted, with followN events
    this.followN = -1;
    this.skipped = 0; // frames that asked for a paint and had nothing new to show
    this.hover = -1;
    input.install(this);
    new ResizeObserver(() => this.resize()).observe(canvas.parentElement);
    this.resize();
  }

  reset() {
    super.reset();
    this.painted = null; // what the canvas shows (plan), null: nothing known
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

  // ingest turns the events not seen yet into lane items and draws them.
  ingest() {
    if (!this.ingestEvents()) return false;
    if (this.follow) this.fit();
    this.request();
    return true;
  }

  width() { return this.canvas.clientWidth; }

  height() { return this.canvas.clientHeight; }

  plotW() { return Math.max(10, this.width() - LABEL_W); }

  x(t) { return LABEL_W + (t - this.t0) / this.scale; }

  fit() { input.fit(this); }
  zoom(factor, x) { input.zoom(this, factor, x); }
  panBy(dx, dy = 0) { input.panBy(this, dx, dy); }
  maxScroll() { return input.maxScroll(this); }
  hit(x, y) { return input.hit(this, x, y); }

  resize() {
    const dpr = window.devicePixelRatio || 1;
    const w = this.canvas.parentElement.clientWidth;
    const h = this.canvas.parentElement.clientHeight;
    this.canvas.style.width = w + "px";
    this.canvas.style.height = h + "px";
    this.canvas.width = Math.max(1, Math.round(w * dpr));
    this.canvas.height = Math.max(1, Math.round(h * dpr));
    this.painted = null; // setting the size clears the canvas
    this.resizes++;
    if (this.follow) this.fit();
    this.request();
  }

  // request asks for a paint in the next animation frame. Following a
  // streaming trace, each poll's events move the whole picture (the fit
  // changes the scale): those paints come at most every FOLLOW_MS (the
  // last one too, that long after the one before), as the summary line
  // does, where they took a tenth of the page's main thread at one a frame
  // (the draws figure, docs/performance.md). A view the user moved, or a
  // trace that is not growing, is painted in the next frame.
  request() {
    if (this.scheduled || !this.visible) return;
    this.scheduled = true;
    const wait = this.follow && this.store && this.store.n !== this.followN ? FOLLOW_MS - (performance.now() - this.followAt) : 0;
    const paint = () => requestAnimationFrame(() => {
      this.scheduled = false;
      if (this.follow && this.store) {
        this.followAt = performance.now();
        this.followN = this.store.n;
      }
      this.draw();
    });
    if (wait > 0) {
      this.deferred++;
      setTimeout(paint, wait);
    } else paint();
  }

  // draw paints the timeline when what it shows changed since the last
  // paint (plan): all of it, the label column alone when only the lanes'
  // counts moved (a run streaming right of the view), or nothing.
  draw() {
    const p = this.plan();
    if (p === null) this.skipped++;
    else if (p === "labels") labels(this);
    else draw(this);
    this.painted = this.paintedState();
    for (const lane of this.laneList) lane.touched = Infinity;
    this.touched = Infinity;
  }

  // paintedState is what a paint depends on besides the items: the view,
  // the lanes' layout (which lanes, their rows), the labels' counts, the
  // debug names (items' labels name objects by them) and the trace's end
  // (open items reach it).
  paintedState() {
    const st = this.store;
    const layout = [];
    const labels = [];
    for (const lane of this.drawOrder || []) {
      layout.push(lane.num, lane.rows);
      if (lane.rows > 1) labels.push(lane.n);
    }
    const r = this.range;
    return {
      view: [this.canvas.width, this.canvas.height, window.devicePixelRatio || 1, this.t0, this.scale, this.scrollY,
        this.selected, r ? r[0] : NaN, r ? r[1] : NaN, st ? st.n === 0 : true, st ? st.debugNames.size : 0, ...layout].join(),
      labels: labels.join(),
      maxT: st ? st.maxT : 0,
      store: st,
    };
  }

  // plan says what to paint: "all", "labels" (the label column) or null
  // (nothing). Events taken in or items closed since the last paint change
  // the picture from their earliest time on (Lane.touched,
  // TimelineModel.touched), open items from the trace's last end on, an
  // edge anywhere between its buffers; the lanes' counts only the label
  // column; the view or the lanes' layout all of it.
  plan() {
    const was = this.painted;
    if (!was || !this.store || was.store !== this.store) return "all";
    const now = this.paintedState();
    if (now.view !== was.view) return "all";
    let t = this.touched;
    for (const lane of this.laneList) if (lane.touched < t) t = lane.touched;
    if (now.maxT !== was.maxT) t = Math.min(t, was.maxT);
    if (t !== Infinity && this.edges.length) return "all";
    // 8 px for what is drawn left of its time: an instant's marker, the
    // selection's frame, an open item's shaded end.
    if (t !== Infinity && this.x(t) - 8 < this.width()) return "all";
    return now.labels === was.labels ? null : "labels";
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
