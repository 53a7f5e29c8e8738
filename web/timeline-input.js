// The fence timeline's input: what is under a point (hit), zoom and pan
// (the view's t0, scale and scrollY), the mouse and keyboard, and the
// tooltip of the item under the pointer.

import { formatT } from "./model.js";
import { ROW, LANE_PAD, MAX_ROWS, LABEL_W, RULER_H, S, lowerBound, bytes } from "./timeline-model.js";

// fit shows the whole trace.
export function fit(tl) {
  const maxT = tl.store ? tl.store.maxT : 0;
  const span = Math.max(1000, maxT);
  tl.t0 = -span * 0.01;
  tl.scale = (span * 1.03) / tl.plotW();
  tl.request();
}

// zoom scales the view by factor about pixel x (the middle by default).
export function zoom(tl, factor, x) {
  const px = x === undefined ? LABEL_W + tl.plotW() / 2 : x;
  const t = tl.t0 + (px - LABEL_W) * tl.scale;
  tl.scale = Math.min(1e9, Math.max(0.01, tl.scale * factor));
  tl.t0 = t - (px - LABEL_W) * tl.scale;
  tl.follow = false;
  tl.request();
}

// panBy moves the view by dx, dy pixels.
export function panBy(tl, dx, dy = 0) {
  tl.t0 -= dx * tl.scale;
  tl.scrollY = Math.max(0, Math.min(maxScroll(tl), tl.scrollY - dy));
  tl.follow = false;
  tl.request();
}

// maxScroll is how far the lanes scroll down.
export function maxScroll(tl) {
  let h = 0;
  for (const l of tl.laneList) h += l.rows * ROW + LANE_PAD;
  return Math.max(0, h + RULER_H + 8 - tl.height());
}

// hit returns the event index under (x, y), -1 for none.
export function hit(tl, x, y) {
  if (x < LABEL_W || y < RULER_H || !tl.laneY) return -1;
  for (const [lane, ly] of tl.laneY) {
    if (y < ly || y >= ly + lane.rows * ROW) continue;
    const row = Math.floor((y - ly) / ROW);
    const t = tl.t0 + (x - LABEL_W) * tl.scale;
    const tol = 4 * tl.scale;
    const maxT = tl.store.maxT;
    let best = -1;
    let bestDur = Infinity;
    const consider = (i) => {
      if (Math.min(lane.d[i], MAX_ROWS - 1) !== row) return;
      const e = Number.isNaN(lane.e[i]) ? maxT : lane.e[i];
      if (lane.s[i] - tol <= t && t <= e + tol) {
        const dur = e - lane.s[i];
        if (dur < bestDur) {
          bestDur = dur;
          best = lane.ev[i];
        }
      }
    };
    for (const bk of lane.buckets) {
      if (!bk || !bk.n) continue;
      bk.prepare(lane);
      let k = lowerBound(bk.pm, t - tol, 0, bk.n);
      for (let guard = 0; k < bk.n && bk.ss[k] <= t + tol && guard < 20000; k++, guard++) consider(bk.ord[k]);
    }
    for (const i of lane.open) consider(i);
    return best;
  }
  return -1;
}

// install listens to the mouse and keyboard on tl's canvas.
export function install(tl) {
  const c = tl.canvas;
  let drag = null;
  let measure = false;
  const timeAt = (e) => {
    const r = c.getBoundingClientRect();
    return tl.t0 + (Math.max(LABEL_W, e.clientX - r.left) - LABEL_W) * tl.scale;
  };
  c.addEventListener("mousedown", (e) => {
    c.focus();
    if (e.shiftKey) {
      // Shift-drag measures a stretch of virtual time.
      measure = true;
      const t = timeAt(e);
      tl.range = [t, t];
      tl.request();
      return;
    }
    drag = { x: e.clientX, y: e.clientY, moved: false };
  });
  window.addEventListener("mousemove", (e) => {
    if (measure) {
      tl.range[1] = timeAt(e);
      tl.tip.hidden = true;
      tl.request();
      return;
    }
    if (drag) {
      const dx = e.clientX - drag.x;
      const dy = e.clientY - drag.y;
      if (Math.abs(dx) + Math.abs(dy) > 2) drag.moved = true;
      if (drag.moved) {
        panBy(tl, dx, dy);
        drag.x = e.clientX;
        drag.y = e.clientY;
        tl.tip.hidden = true;
      }
      return;
    }
    if (e.target !== c) return;
    const r = c.getBoundingClientRect();
    showTip(tl, hit(tl, e.clientX - r.left, e.clientY - r.top), e.clientX - r.left, e.clientY - r.top);
  });
  window.addEventListener("mouseup", (e) => {
    if (measure) {
      measure = false;
      if (tl.range[0] === tl.range[1]) tl.range = null;
      tl.request();
      return;
    }
    if (drag && !drag.moved && e.target === c) {
      const r = c.getBoundingClientRect();
      const i = hit(tl, e.clientX - r.left, e.clientY - r.top);
      if (i >= 0) tl.onSelect(i, "timeline");
    }
    drag = null;
  });
  c.addEventListener("mouseleave", () => { tl.tip.hidden = true; });
  c.addEventListener("wheel", (e) => {
    e.preventDefault();
    const r = c.getBoundingClientRect();
    if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
      panBy(tl, -(e.deltaX || e.deltaY), 0);
    } else if (e.altKey) {
      panBy(tl, 0, -e.deltaY);
    } else {
      zoom(tl, Math.exp(e.deltaY * 0.0025), e.clientX - r.left);
    }
  }, { passive: false });
  c.addEventListener("dblclick", () => { tl.follow = true; fit(tl); });
  c.addEventListener("keydown", (e) => {
    const step = tl.plotW() / 8;
    switch (e.key) {
      case "w": case "=": case "+": zoom(tl, 1 / 1.5); break;
      case "s": case "-": zoom(tl, 1.5); break;
      case "a": case "ArrowLeft": panBy(tl, step); break;
      case "d": case "ArrowRight": panBy(tl, -step); break;
      case "f": case "0": tl.follow = true; fit(tl); break;
      case "Escape": tl.range = null; tl.request(); break;
      default: return;
    }
    e.preventDefault();
  });
}

// showTip shows event i's details beside (x, y), or hides them (-1).
function showTip(tl, i, x, y) {
  if (i === tl.hover && !tl.tip.hidden) {
    placeTip(tl, x, y);
    return;
  }
  tl.hover = i;
  if (i < 0) {
    tl.tip.hidden = true;
    return;
  }
  const st = tl.store;
  const e = st.event(i);
  const ln = tl.itemLane[i];
  const lane = tl.laneList[ln];
  const idx = tl.itemIdx[i];
  const rows = [];
  const head = document.createElement("div");
  head.className = "tip-name";
  head.textContent = e.name;
  rows.push(head);
  const add = (k, v) => {
    if (v === undefined || v === "" || v === 0) return;
    const d = document.createElement("div");
    const kk = document.createElement("span");
    kk.className = "k";
    kk.textContent = k + " ";
    d.append(kk, String(v));
    rows.push(d);
  };
  add("", `${e.thread} · ${e.from && e.from !== e.layer ? e.from + "→" : ""}${e.layer} · ${e.kind} · seq ${e.seq}`);
  if (lane) {
    const s = lane.s[idx];
    const en = lane.e[idx];
    add("at", formatT(s));
    if (!Number.isNaN(en) && en > s) add("lasts", formatT(en - s));
    if (Number.isNaN(en)) add("lasts", "(still running)");
  }
  const dmaStyle = lane && (lane.st[idx] === S.dma || lane.st[idx] === S.paging);
  const inf = dmaStyle ? tl.dmaInfo.get(e.dma) : null;
  if (dmaStyle) head.textContent = `${tl.label(lane, idx, lane.st[idx])} (${e.name})`;
  if (inf) {
    const rel = (t) => (Number.isNaN(t) ? "–" : formatT(t));
    add("submitted", rel(inf.submit));
    add("ISR saw it", rel(inf.isr));
    add("DPC done", rel(inf.dpc));
    if (inf.allocs || inf.patches) add("", `${inf.allocs || 0} ${inf.allocs === 1 ? "allocation" : "allocations"}, ${inf.patches || 0} ${inf.patches === 1 ? "patch" : "patches"}`);
  }
  const mem = tl.memByEvent?.get(i); // a memory lane's record (core/inspect Memory)
  if (mem) {
    add("memory", `${mem.allocation} ${mem.what}${mem.segment ? " · " + mem.segment : ""} · ${bytes(mem.size)}`);
    add(mem.segment ? `${mem.segment} in use` : "allocated", `${bytes(mem.used)} (${mem.device})`);
  }
  add("ctx", e.ctx);
  add("obj", st.named(e.obj));
  add("handle", e.handle);
  add("dma", e.dma);
  add("fence", e.fence || (lane && lane.lab[idx]) || "");
  add("hr", e.hr);
  add("rule", e.rule);
  add("msg", e.msg);
  add("args", e.args);
  add("line", e.line);
  tl.tip.replaceChildren(...rows);
  tl.tip.hidden = false;
  placeTip(tl, x, y);
}

// placeTip puts the tooltip beside (x, y), inside the timeline.
function placeTip(tl, x, y) {
  const wrap = tl.canvas.parentElement;
  const tw = tl.tip.offsetWidth;
  const th = tl.tip.offsetHeight;
  let left = x + 14;
  let top = y + 14;
  if (left + tw > wrap.clientWidth - 4) left = x - tw - 10;
  if (top + th > wrap.clientHeight - 4) top = y - th - 10;
  tl.tip.style.left = Math.max(4, left) + "px";
  tl.tip.style.top = Math.max(4, top) + "px";
}
