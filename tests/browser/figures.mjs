// The page's speed figures (docs/performance.md, "The page"): measured in
// headless Chromium, printed, never asserted — a measurement, not a test,
// so `node --test` does not pick it up (make figures runs it).
//
//   - a scenario of 1,000 small Draw calls a frame (a triangle in a 16x16
//     viewport: the calls' cost, not the pixels') played with the panel open, one
//     frame per animation frame (runFrame, as Step frame does) for 600
//     frames: frames per second, and the median and 99th percentile of the
//     time between two animation frames;
//   - the same scene played (Play: the ticker runs the slices, 2,000
//     calls or 25 ms each at full speed), 600 animation frames: frames per
//     second, median and p99, and the frames the run presented;
//   - the editor's check of the tutorial with the largest HLSL block (what
//     the page does as you type: the scenario parsed and every block
//     compiled), its text changed each time so that nothing is reused;
//   - an idle page (the default scenario run to its end, nothing playing,
//     no input): the CPU time of all of Chromium's processes over 15 s
//     (SystemInfo.getProcessInfo), and the panel's polls and the stage's
//     draws in that time.
//
//   cd tests/browser && npm ci && node figures.mjs
//
// FIGURES=draws,play,editor,idle picks some (all by default;
// FIGURE_SPEED=N plays at N calls a tick, Play's speed control;
// FIGURE_WARMUP=N runs N frames of the draws figure before it counts); FIGURE_PROFILE=1
// profiles the page during the draws figure (the CDP Profiler) and prints
// the functions with the most self and inclusive time, Go's by name
// (wasmNames; FIGURE_PROFILE=FILE.cpuprofile
// also writes the profile there, for Chromium's DevTools); FIGURE_TRACE=1
// traces it instead (Chromium's tracing) and prints the page's main thread
// by event (the script, the frame's commit, style, layout, paint, GC) in
// milliseconds a frame: what a JavaScript profile calls "(program)".
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ROOT, drawsScene, launch } from "./harness.mjs";

const FRAMES = Number(process.env.FIGURE_FRAMES || 600);
// FIGURE_WARMUP=N runs N frames of the draws figure (after its first, not
// counted) before the 600 it counts: V8 compiles a module's functions in a
// baseline tier first and in its optimizing tier later, while they run.
const WARMUP = Number(process.env.FIGURE_WARMUP || 0);
const DRAWS = 1000;

// hlslBlocks returns the hlsl blocks of a scenario's text: name and lines
// (the braces inside counted in pairs, as the scenario language does).
function hlslBlocks(text) {
  const out = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const m = /^hlsl\s+(\w+)\s*\{/.exec(lines[i]);
    if (!m) continue;
    let depth = 1;
    let j = i + 1;
    for (; j < lines.length && depth > 0; j++) {
      for (const ch of lines[j].replace(/\/\/.*$/, "")) {
        if (ch === "{") depth++;
        else if (ch === "}") depth--;
      }
    }
    out.push({ name: m[1], line: i + 1, lines: j - i - 2 });
    i = j - 1;
  }
  return out;
}

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

const ONLY = new Set((process.env.FIGURES || "draws,play,editor,idle").split(","));
const IDLE_MS = 15000;

// wasmNames maps main.wasm's function numbers to Go's names: the page's
// main.wasm has no names (-ldflags=-s -w, serve.go), so the same build
// with them is made aside and its "name" section read (the functions are
// numbered alike). FIGURE_PROFILE's lists then name Go functions, not
// wasm-function[N].
function wasmNames() {
  const out = path.join(mkdtempSync(path.join(tmpdir(), "d3dsim-names-")), "named.wasm");
  execFileSync("go", ["build", "-trimpath", "-o", out, "./wasm"], { cwd: ROOT, env: { ...process.env, GOOS: "js", GOARCH: "wasm" }, stdio: "inherit" });
  const sec = WebAssembly.Module.customSections(new WebAssembly.Module(readFileSync(out)), "name")[0];
  const b = new Uint8Array(sec);
  let p = 0;
  const u32 = () => {
    let r = 0;
    for (let sh = 0; ; sh += 7) {
      const x = b[p++];
      r += (x & 0x7f) * 2 ** sh;
      if (!(x & 0x80)) return r;
    }
  };
  const names = new Map();
  while (p < b.length) {
    const id = b[p++];
    const size = u32();
    const end = p + size;
    if (id === 1) { // function names
      for (let n = u32(); n > 0; n--) {
        const idx = u32();
        const len = u32();
        names.set(idx, new TextDecoder().decode(b.subarray(p, p + len)));
        p += len;
      }
    }
    p = end;
  }
  return names;
}

// topSelf sums a CPU profile's samples by function (name, file, line) and
// returns the n with the most self time, and the n with the most inclusive
// time (a function counted once in a sample however often it is on its
// stack), with their share of the samples.
function topSelf(profile, n, names) {
  const byId = new Map(profile.nodes.map((nd) => [nd.id, nd]));
  const parent = new Map();
  for (const nd of profile.nodes) for (const c of nd.children || []) parent.set(c, nd.id);
  const label = (id) => {
    const f = byId.get(id).callFrame;
    const w = /^wasm-function\[(\d+)\]/.exec(f.functionName);
    if (w && names?.has(Number(w[1]))) return names.get(Number(w[1]));
    return `${f.functionName || "(anonymous)"} ${f.url.replace(/^.*\//, "")}:${f.lineNumber + 1}`;
  };
  const self = new Map();
  const incl = new Map();
  for (const id of profile.samples) {
    const k = label(id);
    self.set(k, (self.get(k) || 0) + 1);
    const seen = new Set();
    for (let x = id; x !== undefined; x = parent.get(x)) {
      const kx = label(x);
      if (!seen.has(kx)) incl.set(kx, (incl.get(kx) || 0) + 1);
      seen.add(kx);
    }
  }
  const total = profile.samples.length;
  const top = (m) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, c]) => `${((100 * c) / total).toFixed(1).padStart(5)}%  ${k}`);
  return { self: top(self), inclusive: top(incl) };
}

// cpuSeconds is the CPU time the browser's processes have used, in all
// and by the type of process (browser, renderer, GPU, utility).
async function cpuSeconds(cdp) {
  const { processInfo } = await cdp.send("SystemInfo.getProcessInfo");
  const by = {};
  for (const p of processInfo) by[p.type] = (by[p.type] || 0) + p.cpuTime;
  return { all: processInfo.reduce((s, p) => s + p.cpuTime, 0), by };
}

const h = await launch();
try {
  const page = await h.openPage(h.baseURL);

  // 1. 1,000 draws a frame with the panel open.
  if (ONLY.has("draws")) {
    const scene = drawsScene({ frames: WARMUP + FRAMES + 1, draws: DRAWS, size: 256 });
    const res = await page.evaluate((t) => window.d3dsim.load(t), scene);
    if (!res.ok) throw new Error(res.error);
    await page.click('.tabs [data-view="timeline"]');
    const prof = process.env.FIGURE_PROFILE ? await page.context().newCDPSession(page) : null;
    if (prof) {
      await prof.send("Profiler.enable");
      await prof.send("Profiler.setSamplingInterval", { interval: 500 });
      await prof.send("Profiler.start");
    }
    const tracing = process.env.FIGURE_TRACE ? await page.context().newCDPSession(page) : null;
    const traced = [];
    let traceDone = null;
    if (tracing) {
      tracing.on("Tracing.dataCollected", (d) => traced.push(...d.value));
      traceDone = new Promise((r) => tracing.once("Tracing.tracingComplete", r));
      await tracing.send("Tracing.start", { categories: "devtools.timeline,v8,blink,toplevel", transferMode: "ReportEvents" });
    }
    if (WARMUP > 0) {
      await page.evaluate(async (n) => {
        for (let i = 0; i < n; i++) {
          await new Promise((r) => requestAnimationFrame(r));
          await window.d3dsim.runFrame();
        }
      }, WARMUP);
    }
    const cdp = await h.browser.cdp();
    const cpu0 = await cpuSeconds(cdp);
    const f = await page.evaluate(async (frames) => {
      const sim = window.d3dsim;
      const polls = window.d3dsimUI.polls;
      await sim.runFrame(); // the first frame: set-up and warm-up
      // Long animation frames (Chromium's LoAF: 50 ms or more of work
      // between two frames), with the scripts that ran in them.
      const loafs = [];
      const obs = typeof PerformanceObserver === "function" && PerformanceObserver.supportedEntryTypes?.includes("long-animation-frame")
        ? new PerformanceObserver((l) => { for (const e of l.getEntries()) loafs.push(e); }) : null;
      obs?.observe({ type: "long-animation-frame" });
      // Each frame: its gap to the last, the runFrame() call's time to its
      // answer (the slice and the tasks before it), the panel's poll time.
      const gaps = [];
      const runs = [];
      const pollMs = [];
      // Go's collections finished within each gap (d3dsim.goStats, where
      // the module has it: a collection marks on the page's only thread).
      const gcs = [];
      const grew = []; // and the module's memory grown within it (bytes)
      const go = () => sim.goStats?.() ?? null;
      const go0 = go();
      let lastGC = go0?.cycles ?? 0;
      let lastMem = go0?.totalBytes ?? 0;
      let last = 0;
      let presented = 0;
      let lastPoll = polls.totalMs;
      const t0 = performance.now();
      await new Promise((resolve, reject) => {
        const tick = (now) => {
          const g = go0 ? sim.goStats() : { cycles: 0, totalBytes: 0 };
          if (last) {
            gaps.push(now - last);
            pollMs.push(polls.totalMs - lastPoll);
            gcs.push(g.cycles - lastGC);
            grew.push(g.totalBytes - lastMem);
          }
          lastGC = g.cycles;
          lastMem = g.totalBytes;
          lastPoll = polls.totalMs;
          last = now;
          const c0 = performance.now();
          sim.runFrame().then((s) => {
            runs.push(performance.now() - c0);
            presented = s.frames;
            if (gaps.length >= frames || s.done) resolve();
            else requestAnimationFrame(tick);
          }, reject);
        };
        requestAnimationFrame(tick);
      });
      const ms = performance.now() - t0;
      const go1 = go();
      obs?.disconnect();
      const scripts = new Map();
      for (const e of loafs) {
        for (const sc of e.scripts) {
          const k = `${sc.invokerType} ${sc.invoker}${sc.sourceFunctionName ? ` (${sc.sourceFunctionName})` : ""}`;
          const v = scripts.get(k) || { n: 0, ms: 0 };
          v.n++;
          v.ms += sc.duration;
          scripts.set(k, v);
        }
      }
      return {
        gaps, ms, presented, events: sim.summary().events, runs, pollMs, gcs, grew, go0, go1,
        loaf: { n: loafs.length, ms: loafs.reduce((a, e) => a + e.duration, 0), blocking: loafs.reduce((a, e) => a + e.blockingDuration, 0),
          scripts: [...scripts].sort((a, b) => b[1].ms - a[1].ms).slice(0, 6) },
      };
    }, FRAMES);
    const cpu1 = await cpuSeconds(cdp);
    const med = quantile(f.gaps, 0.5);
    const p99 = quantile(f.gaps, 0.99);
    console.log(`figure: ${DRAWS.toLocaleString("en-US")} Draw calls a frame with the panel open, ${f.gaps.length} frames: ` +
      `${((f.gaps.length * 1000) / f.ms).toFixed(1)} frames/s, frame time median ${med.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms ` +
      `(${(p99 / med).toFixed(2)}x the median); ${f.presented} frames presented, ${f.events.toLocaleString("en-US")} events; ` +
      `${((1000 * (cpu1.all - cpu0.all)) / f.gaps.length).toFixed(1)} CPU-ms of Chromium a frame (the renderer ` +
      `${((1000 * (cpu1.by.renderer - cpu0.by.renderer)) / f.gaps.length).toFixed(1)}: CPU time, not the clock, so a loaded machine changes it less)`);
    // The frames late by more than half a vsync (the gaps past 1.5x the
    // median), against the others: what ran in them.
    const late = [];
    const onTime = [];
    for (let i = 0; i < f.gaps.length; i++) (f.gaps[i] > 1.5 * med ? late : onTime).push(i);
    const mean = (xs, is) => (is.length ? is.reduce((a, i) => a + xs[i], 0) / is.length : 0);
    // runs[i] is the runFrame() of the frame that gap i ends (pollMs[i] the
    // polls within gap i).
    const withGC = (is) => is.filter((i) => f.gcs[i] > 0).length;
    if (f.go0) {
      const d = (k) => f.go1[k] - f.go0[k];
      const mib = (x) => (x / 2 ** 20).toFixed(1);
      console.log(`  Go's collector: ${d("cycles")} collections in ${f.gaps.length} frames (in ${withGC(onTime)} frames on time, ${withGC(late)} of ${late.length} late), ` +
        `${(d("allocBytes") / f.gaps.length / 1024).toFixed(0)} KiB and ${(d("allocObjects") / f.gaps.length).toFixed(0)} objects allocated a frame, ` +
        `${(1000 * d("gcSeconds")).toFixed(0)} ms of the collector's CPU (the runtime's estimate); heap live ${mib(f.go1.liveBytes)} MiB, goal ${mib(f.go1.goalBytes)} MiB, ` +
        `the module's memory ${mib(f.go1.totalBytes)} MiB at the end; the frames they ended in: ` +
        f.gcs.flatMap((n, i) => (n ? [`#${i}${late.includes(i) ? " (late)" : ""}`] : [])).join(", "));
    }
    // The longest frames, each with what ran in it: runFrame() ends the
    // frame the gap ends (runs[i]), the polls and collections are the gap's.
    const worst = f.gaps.map((g, i) => i).sort((a, b) => f.gaps[b] - f.gaps[a]).slice(0, 6);
    console.log(`  the longest frames (gap ms: runFrame() ms, polls ms${f.go0 ? ", collections, memory grown MiB" : ""}): ` +
      worst.map((i) => `#${i} ${f.gaps[i].toFixed(0)}: ${f.runs[i].toFixed(0)}, ${f.pollMs[i].toFixed(0)}` +
        (f.go0 ? `, ${f.gcs[i]}, ${(f.grew[i] / 2 ** 20).toFixed(0)}` : "")).join("; "));
    // Where the late frames are in the run (the p99 of 600 frames allows
    // five): a start slower than the rest (the module's code compiled
    // again as it gets hot, the heap's first growth) or spread alike.
    const per = Array.from({ length: Math.ceil(f.gaps.length / 100) }, (_, k) => late.filter((i) => Math.floor(i / 100) === k).length);
    console.log(`  late frames by hundred: ${per.join(", ")} (the first ten frames: ${late.filter((i) => i < 10).length})`);
    console.log(`  frames within 1.5x the median: ${onTime.length}, runFrame() ${mean(f.runs, onTime).toFixed(1)} ms, polls ${mean(f.pollMs, onTime).toFixed(1)} ms; ` +
      `late: ${late.length}, runFrame() ${mean(f.runs, late).toFixed(1)} ms, polls ${mean(f.pollMs, late).toFixed(1)} ms, ` +
      `runFrame() p99 ${quantile(f.runs, 0.99).toFixed(1)} ms; long animation frames (50 ms or more): ${f.loaf.n}, ` +
      `${f.loaf.ms.toFixed(0)} ms, ${f.loaf.blocking.toFixed(0)} ms blocking` +
      (f.loaf.scripts.length ? `; their scripts: ${f.loaf.scripts.map(([k, v]) => `${k} ${v.n}x ${v.ms.toFixed(0)} ms`).join(", ")}` : ""));
    if (tracing) {
      await tracing.send("Tracing.end");
      await traceDone;
      const main = new Set(traced.filter((e) => e.name === "thread_name" && e.args.name === "CrRendererMain").map((e) => `${e.pid}/${e.tid}`));
      const by = new Map();
      for (const e of traced) {
        if (e.ph === "X" && e.dur && main.has(`${e.pid}/${e.tid}`)) by.set(e.name, (by.get(e.name) || 0) + e.dur);
      }
      const top = [...by].sort((a, b) => b[1] - a[1]).slice(0, 30);
      console.log(`trace of the page's main thread (wall-clock ms a frame, nested events counted in each):\n  ` +
        top.map(([n, d]) => `${(d / 1000 / f.gaps.length).toFixed(2).padStart(7)}  ${n}`).join("\n  "));
    }
    if (prof) {
      const { profile } = await prof.send("Profiler.stop");
      const top = topSelf(profile, 40, wasmNames());
      console.log(`profile of the page's main thread (self time, ${profile.samples.length} samples):\n  ${top.self.join("\n  ")}`);
      console.log(`inclusive time:\n  ${top.inclusive.join("\n  ")}`);
      if (process.env.FIGURE_PROFILE.endsWith(".cpuprofile")) writeFileSync(process.env.FIGURE_PROFILE, JSON.stringify(profile));
    }
  }

  // 1b. The same scene played (Play: the ticker's slices, one an animation frame)
  // with the panel open: the page's frames, and how far the run got.
  if (ONLY.has("play")) {
    const res = await page.evaluate((t) => window.d3dsim.load(t), drawsScene({ frames: 100000, draws: DRAWS, size: 256 }));
    if (!res.ok) throw new Error(res.error);
    await page.click('.tabs [data-view="timeline"]');
    const cdp = await h.browser.cdp();
    const cpu0 = await cpuSeconds(cdp);
    const f = await page.evaluate(async ({ frames, speed }) => {
      const sim = window.d3dsim;
      sim.setSpeed(speed); // 0: as fast as the frame allows
      sim.play();
      // 60 frames to start playing, then the measured ones.
      for (let i = 0; i < 60; i++) await new Promise((r) => requestAnimationFrame(r));
      const s0 = sim.progress();
      const go0 = sim.goStats?.() ?? null;
      const gaps = [];
      let last = 0;
      const t0 = performance.now();
      await new Promise((resolve) => {
        const tick = (now) => {
          if (last) gaps.push(now - last);
          last = now;
          if (gaps.length >= frames) resolve();
          else requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      });
      const ms = performance.now() - t0;
      const s1 = sim.progress();
      const go1 = sim.goStats?.() ?? null;
      sim.pause();
      sim.setSpeed(0);
      return { gaps, ms, presented: s1.frames - s0.frames, events: s1.events - s0.events, go0, go1 };
    }, { frames: FRAMES, speed: Number(process.env.FIGURE_SPEED || 0) });
    const cpu1 = await cpuSeconds(cdp);
    const med = quantile(f.gaps, 0.5);
    const p99 = quantile(f.gaps, 0.99);
    console.log(`figure: ${DRAWS.toLocaleString("en-US")} Draw calls a frame played with the panel open, ${f.gaps.length} animation frames: ` +
      `${((f.gaps.length * 1000) / f.ms).toFixed(1)} frames/s, frame time median ${med.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms ` +
      `(${(p99 / med).toFixed(2)}x the median); the run presented ${f.presented} frames (${((f.presented * 1000) / f.ms).toFixed(1)} a second), ` +
      `${f.events.toLocaleString("en-US")} events; ${((1000 * (cpu1.all - cpu0.all)) / f.gaps.length).toFixed(1)} CPU-ms of Chromium a frame ` +
      `(the renderer ${((1000 * (cpu1.by.renderer - cpu0.by.renderer)) / f.gaps.length).toFixed(1)})` +
      (f.go0 ? `; Go's collector: ${f.go1.cycles - f.go0.cycles} collections, ${((f.go1.allocBytes - f.go0.allocBytes) / f.gaps.length / 1024).toFixed(0)} KiB ` +
        `allocated an animation frame, heap live ${(f.go1.liveBytes / 2 ** 20).toFixed(1)} MiB, the module's memory ${(f.go1.totalBytes / 2 ** 20).toFixed(1)} MiB at the end` : ""));
  }

  // 2. The editor's check of the largest tutorial shader.
  if (ONLY.has("editor")) {
    const dir = path.join(ROOT, "assets/tutorials");
    let best = null;
    for (const file of readdirSync(dir).filter((n) => n.endsWith(".d3ds"))) {
      const text = readFileSync(path.join(dir, file), "utf8");
      for (const b of hlslBlocks(text)) if (!best || b.lines > best.lines) best = { ...b, file, text };
    }
    const times = await page.evaluate(({ text, line }) => {
      const lines = text.split("\n");
      const out = [];
      for (let i = 0; i < 7; i++) {
        // A comment of its own in the block each time: an edit.
        const edited = [...lines.slice(0, line), `// edit ${i}`, ...lines.slice(line)].join("\n");
        const t0 = performance.now();
        const r = window.d3dsim.check(edited);
        out.push(performance.now() - t0);
        if (!r.ok) throw new Error(r.error);
      }
      return out;
    }, best);
    console.log(`figure: the editor's check of ${best.file} (hlsl block ${best.name}, ${best.lines} lines, the largest of the tutorials): ` +
      `${times.map((t) => t.toFixed(1)).join(", ")} ms (median ${quantile(times, 0.5).toFixed(1)} ms)`);
  }
  await page.close();

  // 3. An idle page: the default scenario run to its end, then nothing.
  if (ONLY.has("idle")) {
    const idle = await h.openPage(h.baseURL);
    await idle.evaluate(() => window.d3dsim.run());
    // The last poll and frames settle (FIGURE_IDLE_SETTLE ms: V8 compiles
    // the module's hot functions again in the background for a while).
    await idle.evaluate((ms) => new Promise((r) => setTimeout(r, ms)), Number(process.env.FIGURE_IDLE_SETTLE || 1000));
    const cdp = await h.browser.cdp();
    const counts = () => idle.evaluate(() => ({ polls: window.d3dsimUI.polls.n, draws: window.d3dsim.stageDraws?.() ?? -1 }));
    const c0 = await counts();
    const cpu0 = await cpuSeconds(cdp);
    await new Promise((r) => setTimeout(r, IDLE_MS));
    const cpu1 = await cpuSeconds(cdp);
    const c1 = await counts();
    const used = cpu1.all - cpu0.all;
    const by = Object.keys(cpu1.by).map((k) => `${k} ${(cpu1.by[k] - (cpu0.by[k] || 0)).toFixed(2)}`).join(", ");
    console.log(`figure: an idle page over ${IDLE_MS / 1000} s: ${used.toFixed(2)} CPU-s of Chromium's processes ` +
      `(${(used / (IDLE_MS / 1000)).toFixed(3)} of a core: ${by}); ${c1.polls - c0.polls} panel polls, ${c1.draws - c0.draws} stage draws`);
    await idle.close();
  }
  if (h.pageErrors.length) throw new Error(`errors in the page: ${h.pageErrors.join("; ")}`);
} finally {
  await h.close();
}
