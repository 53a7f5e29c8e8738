// The fence timeline: a Timeline wires its model (timeline-model.js: lanes
// and items from the store), its drawing (timeline-draw.js) and its input
// (timeline-input.js: hit-testing, zoom and pan, mouse and keyboard) to one
// <canvas> and a tooltip, and keeps the view's state (the time at the left
// edge, the scale, the selection).

import { TimelineModel, ROW, LABEL_W, RULER_H } from "./timeline-model.js";
import { draw } from "./timeline-draw.js";
import * as input from "./timeline-input.js";

export { Bucket } from "./timeline-model.js";

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
    this.draws = 0;
    this.hover = -1;
    input.install(this);
    new ResizeObserver(() => this.resize()).observe(canvas.parentElement);
    this.resize();
  }

  reset() {
    super.reset();
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
    if (this.follow) this.fit();
    this.request();
  }

  request() {
    if (this.scheduled || !this.visible) return;
    this.scheduled = true;
    requestAnimationFrame(() => {
      this.scheduled = false;
      this.draw();
    });
  }

  draw() { draw(this); }

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
