// The handles view: every object's kernel and context-local handles with
// their lifetimes, and the recycle caches of command-list handles and
// deferred contexts (the inspector's model, wasm/inspect.go).

import { el, links, seqLinkBySeq, lineLink, plural } from "./view-common.js";

export class HandlesView {
  constructor(objBox, cacheBox) {
    this.objBox = objBox;
    this.cacheBox = cacheBox;
    this.store = null;
  }

  setStore(store) { this.store = store; }

  render(snap) {
    if (!snap) return;
    const st = this.store;
    const top = this.objBox.scrollTop;
    const box = el("div");
    const live = el("div", "live");
    const L = snap.live;
    for (const [k, v, title] of [
      ["IC handles", L.ic, "live DDI handles in the immediate context's table"],
      ["DC handles", L.dc, "live context-local handles in deferred contexts (\"Using context-local DDI handles\", Windows driver documentation)"],
      ["command lists", L.commandLists, "valid command lists (usable by ExecuteCommandList)"],
      ["in recycle cache", L.inCache, "command-list handles retired or cached, waiting for RecycleCreateCommandList"],
      ["deferred contexts", L.deferred, "deferred contexts alive"],
      ["kernel handles", L.kernel, "Dxgkrnl/KMD devices, contexts and allocations"],
      ["allocations", L.allocations, "video memory allocations (DxgkDdiCreateAllocation)"],
    ]) {
      const c = el("span", "live-count");
      c.title = title;
      c.append(el("b", "", String(v)), " " + k);
      live.append(c);
    }
    box.append(live);
    if (snap.dropped) box.append(el("div", "muted more", `${plural(snap.dropped, "oldest row")} not shown`));

    // IC handles, each with its context-local handles.
    const dcOf = new Map();
    for (const h of snap.handles) {
      if (h.ctx !== "IC" && h.of) {
        let a = dcOf.get(h.of);
        if (!a) dcOf.set(h.of, (a = []));
        a.push(h);
      }
    }
    box.append(el("h3", "pane-head", "Objects: IC handle and context-local handles"));
    box.append(el("p", "hint", "Each object's driver part is private memory the runtime allocates with the size CalcPrivate*Size answered. Context-local handles (\u201cUsing context-local DDI handles\u201d, Windows driver documentation): a deferred context gets its own context-local handle for each object it binds, a slot of the size CalcDeferredContextHandleSize gave when the object was created, from an allocator sized by CheckDeferredContextHandleSizes; FinishCommandList destroys them, and the amortized processing trims the slots left over (TrimHighWaterMarks)."));
    const t = el("table", "grid handles");
    const hr = el("tr");
    for (const [h, title] of [
      ["object", ""], ["created by", ""], ["IC handle", ""],
      ["driver part", "the private memory the runtime allocated for the driver's part of the object: the size CalcPrivate*Size answered"],
      ["DC handle size", "the slot a deferred context's handle onto the object takes in the runtime's context-local handle allocator: the size CalcDeferredContextHandleSize answered, one of CheckDeferredContextHandleSizes' sizes"],
      ["life", ""], ["context-local handles", ""],
    ]) {
      const th = el("th", "", h);
      if (title) th.title = title;
      hr.append(th);
    }
    t.append(hr);
    for (const h of snap.handles) {
      if (h.ctx !== "IC") continue;
      const tr = el("tr", h.destroyed ? "dead" : "");
      tr.dataset.handle = h.handle;
      const obj = el("td");
      obj.append(el("b", "", this.store?.named(h.obj) || h.obj || "–"), " ", lineLink(h.line));
      const life = el("td", "life");
      life.append(seqLinkBySeq(st, h.created, "created"));
      if (h.destroyed) life.append(" → ", seqLinkBySeq(st, h.destroyed, "destroyed"));
      else life.append(el("span", "alive", " live"));
      const dcs = el("td", "chips");
      for (const d of dcOf.get(h.handle) || []) {
        const chip = el("span", "chip" + (d.destroyed ? " dead" : ""));
        chip.title = `${d.ctx} ${d.handle} (${d.ddi}) of ${h.handle}: created #${d.created}${d.destroyed ? ", destroyed #" + d.destroyed : ", live"}`;
        chip.append(el("b", "", d.ctx), " " + d.handle);
        chip.addEventListener("click", () => {
          const i = st.index(d.created);
          if (i >= 0) links.select(i, "handles");
        });
        dcs.append(chip);
      }
      tr.append(obj, el("td", "mono small", h.ddi), el("td", "mono", h.handle), el("td", "num", h.private >= 0 ? `${h.private} B` : "–"),
        el("td", "num", h.size ? `${h.size} B` : "–"), life, dcs);
      t.append(tr);
    }
    box.append(t);

    box.append(el("h3", "pane-head", "Kernel handles (Dxgkrnl / KMD)"));
    const k = el("table", "grid");
    const khr = el("tr");
    for (const h of ["handle", "object", "created by", "size", "life"]) khr.append(el("th", "", h));
    k.append(khr);
    for (const h of snap.kernel) {
      const tr = el("tr", h.destroyed ? "dead" : "");
      const life = el("td", "life");
      life.append(seqLinkBySeq(st, h.created, "created"));
      if (h.destroyed) life.append(" → ", seqLinkBySeq(st, h.destroyed, "destroyed"));
      else life.append(el("span", "alive", " live"));
      tr.append(el("td", "mono", h.handle), el("td", "", this.store?.named(h.obj) || h.obj || "–"), el("td", "mono small", h.ddi), el("td", "num", h.size ? `${h.size} B` : "–"), life);
      k.append(tr);
    }
    box.append(k);
    this.objBox.replaceChildren(box);
    this.objBox.scrollTop = top;

    const cb = el("div");
    cb.append(el("h3", "pane-head", "Command-list recycle cache"));
    cb.append(cacheList(st, snap.clCache, "No command-list handle yet."));
    cb.append(el("h3", "pane-head", "Deferred-context recycle cache"));
    cb.append(cacheList(st, snap.dcCache, "No deferred context yet."));
    this.cacheBox.replaceChildren(cb);
  }
}

function cacheList(st, entries, empty) {
  const box = el("div", "caches");
  if (!entries.length) box.append(el("div", "empty", empty));
  for (const c of entries) {
    const card = el("div", "cache" + (c.inCache ? " in" : ""));
    const h = el("div", "cache-head");
    h.append(el("span", "mono", c.handle), " ", el("b", "", c.name || ""), " ");
    const last = c.history.length ? c.history[c.history.length - 1].what : "";
    h.append(el("span", "state " + (c.inCache ? "s-cached" : /^destroyed/.test(last) ? "s-freed" : "s-valid"), c.inCache ? "in cache" : /^destroyed/.test(last) ? "destroyed" : "in use"));
    card.append(h);
    const ol = el("ol", "history");
    for (const e of c.history) {
      const li = el("li");
      li.append(seqLinkBySeq(st, e.seq), " " + e.what);
      ol.append(li);
    }
    card.append(ol);
    box.append(card);
  }
  return box;
}
