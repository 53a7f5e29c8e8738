// The page's layout and input that are not a view: the bar's height (it
// wraps on a narrow window), menus placed inside the window, the splitter
// between the top and the panel, the pixel probe over the stage, and the
// keyboard shortcuts (the ? overlay lists them).

const $ = (id) => document.getElementById(id);

// installBarHeight keeps --bar-h the bar's height: on a narrow window the
// bar wraps onto more rows (style.css), and everything below it moves down.
export function installBarHeight() {
  const bar = $("bar");
  let last = 0;
  const update = () => {
    const h = Math.ceil(bar.getBoundingClientRect().height);
    if (!h || h === last) return;
    last = h;
    document.documentElement.style.setProperty("--bar-h", `${h}px`);
    window.dispatchEvent(new Event("resize")); // Ebitengine sizes its canvas on resize
  };
  new ResizeObserver(update).observe(bar);
  update();
}

// placeMenu puts a menu under its button, inside the window.
export function placeMenu(menu, button) {
  const r = button.getBoundingClientRect();
  menu.style.left = "0px";
  menu.style.top = `${Math.round(r.bottom + 4)}px`;
  const w = menu.offsetWidth;
  menu.style.left = `${Math.round(Math.max(4, Math.min(r.right - w, window.innerWidth - w - 4)))}px`;
}

// installSplitter lets the boundary between the top (stage, editor, notes)
// and the panel be dragged. Ebitengine sizes its canvas on window resize, so
// a resize event follows each move.
export function installSplitter() {
  const sp = $("splitter");
  const root = document.documentElement;
  const set = (h) => {
    if (h == null) root.style.removeProperty("--top-h");
    else root.style.setProperty("--top-h", `${Math.round(h)}px`);
    window.dispatchEvent(new Event("resize"));
  };
  let drag = false;
  sp.addEventListener("mousedown", (e) => {
    drag = true;
    sp.classList.add("dragging");
    e.preventDefault();
  });
  window.addEventListener("mousemove", (e) => {
    if (!drag) return;
    const bar = $("bar").offsetHeight;
    set(Math.max(140, Math.min(window.innerHeight - 180, e.clientY - bar)));
  });
  window.addEventListener("mouseup", () => {
    drag = false;
    sp.classList.remove("dragging");
  });
  sp.addEventListener("dblclick", () => set(null));
}

// installPixelProbe shows, under the pointer over the stage, which pixel of
// the presented frame it is and its colour (d3dsim.pixel), placing the
// frame as wasm/main_js.go's Draw does: centred, a 16-pixel margin, an
// integer scale when it grows.
export function installPixelProbe(sim, frames) {
  const info = $("pixel-info");
  const text = $("pixel-text");
  const sw = $("pixel-swatch");
  const idle = () => {
    const f = sim.frameSize();
    sw.style.display = "none";
    text.textContent = f.width ? `${f.width}×${f.height} · frame ${frames() ?? ""}` : "";
    info.hidden = !f.width;
  };
  document.body.addEventListener("mousemove", (e) => {
    const c = e.target;
    if (!(c instanceof HTMLCanvasElement) || c.parentElement !== document.body) return;
    const f = sim.frameSize();
    if (!f.width) return idle();
    const r = c.getBoundingClientRect();
    const W = c.width;
    const H = c.height;
    const mx = ((e.clientX - r.left) * W) / r.width;
    const my = ((e.clientY - r.top) * H) / r.height;
    const margin = 16;
    let s = Math.min((W - 2 * margin) / f.width, (H - 2 * margin) / f.height);
    if (s >= 1) s = Math.floor(s);
    if (s <= 0) return idle();
    const x0 = Math.round((W - f.width * s) / 2);
    const y0 = Math.round((H - f.height * s) / 2);
    const px = Math.floor((mx - x0) / s);
    const py = Math.floor((my - y0) / s);
    if (px < 0 || py < 0 || px >= f.width || py >= f.height) return idle();
    const col = sim.pixel(px, py);
    text.textContent = `(${px}, ${py}) ${col}`;
    sw.style.display = "inline-block";
    sw.style.background = col.slice(0, 7);
    info.hidden = false;
  });
  document.body.addEventListener("mouseleave", idle);
  // The idle label follows the run: refresh() (app.js, when the summary
  // changes; the frame and its size change only with it). No timer: an idle
  // page runs no code.
  const refresh = () => { if (text.textContent === "" || /frame/.test(text.textContent)) idle(); };
  return { refresh };
}

// installKeys binds the page's keyboard shortcuts to its actions: Space
// plays or pauses, F10 steps a call (Shift+F10 a frame), F11 steps a frame
// (not the browser's full screen), 1 to 9 show the panel's views in their
// tabs' order, ? opens the shortcuts overlay and Esc closes it. Space, the
// digits and ? are left to a text field that has the focus.
export function installKeys(a) {
  document.addEventListener("keydown", (e) => {
    const typing = /^(TEXTAREA|INPUT|SELECT)$/.test(document.activeElement?.tagName || "");
    const plain = !typing && !e.ctrlKey && !e.metaKey && !e.altKey;
    if (e.key === " " && plain) {
      e.preventDefault();
      a.togglePlay();
    } else if (e.key === "F10") {
      e.preventDefault();
      if (e.shiftKey) a.stepFrame();
      else a.stepCall();
    } else if (e.key === "F11") {
      e.preventDefault();
      a.stepFrame();
    } else if (e.key === "Escape" && a.keysOpen()) {
      e.preventDefault();
      a.showKeys(false);
    } else if (/^[0-9]$/.test(e.key) && plain && !e.shiftKey && a.showView) {
      e.preventDefault();
      a.showView(Number(e.key) || 10); // 0: the tenth tab

    } else if (e.key === "?" && plain) {
      e.preventDefault();
      a.showKeys(!a.keysOpen());
    }
  });
}
