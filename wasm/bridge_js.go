//go:build js

package main

// The bridge is the only file that touches syscall/js. It installs
// window.d3dsim, the page's test hook (docs/scenario.md, "Browser"):
//
//	ready                 Promise, resolved once the module runs and the first scenario is loaded
//	load(text)            -> {ok, error: "LINE:COL: message"}; resets the simulation (paused)
//	run()                 -> Promise of the summary once the loaded scenario has run to its end
//	                         (or a later load/pause/step stopped it: done is false then)
//	step(n)               -> summary after n more API calls (pauses playing)
//	play(), pause()       play slice by slice in the canvas's ticks / stop
//	summary()             -> {frames, events, violations, hash, failures, messages, done, steps, playing, loads}
//	pixel(x, y)           -> "#rrggbbaa" of the last presented frame, "" when none
//	link()                -> location.origin + location.pathname + "#s=" + payload
//	source()              -> the loaded scenario's text
//	scenarios()           -> names of the built-in scenarios
//	scenario(name)        -> text of one, null when unknown
//	events(from, max)     -> array of trace events from index from (trace.jsonl objects)
//
// For the page's panel (and tests that want more than the contract):
//
//	check(text)           -> {ok, error, line, col}: parse only, nothing is replaced (the editor's markers)
//	batch(after, max)     -> {n, ints: Int32Array, t: Float64Array, strings}: the events after seq after,
//	                         as columns (wasm/columns.go); after = 0 starts a new string table
//	inspect()             -> the Command lists and Handles views' model (wasm/inspect.go)
//	shaders(version)      -> the Shaders view's list {version, shaders, dropped} (wasm/shaders.go),
//	                         null when its version is still the one given
//	shaderCode(i)         -> shader i's {hlsl, listing, isa} (and notes saying why one is empty), null when none
//	shaderDraws(i)        -> the draws that ran shader i [{seq, name, ctx, line}], null when none
//	inspectState(seq, ctx) -> the pipeline state at event seq, runtime beside UMD (core/inspect State), or {error}
//	inspectResolve(at)    -> {seq} of an event named "Draw#2", "line:24" or a seq, or {error}
//	inspectWait(seq)      -> why the wait at event seq (or inside the API call there) waited
//	                         (core/inspect WaitAnswer), or {error}
//	inspectProblems(from, max) -> {loads, from, total, list}: the run's problems (core/inspect Problem:
//	                         seq, kind, title, line, call, cause) from index from on, at most max
//	inspectMemory(from, max) -> {loads, from, total, list}: the run's memory events (core/inspect
//	                         MemoryEvent: allocations created, destroyed, made resident, evicted) from index from on
//	inspectDMA(seq)       -> the card of the DMA buffer event seq names, or that the API call there
//	                         filled (core/inspect DMACard), or {error}
//	inspectQuery(kind, args) -> Promise of a query's answer, run in slices: kind "resource" (args
//	                         {seq, name, options}), "history" ({seq, name, x, y, mip?, slice?}), "step" ({seq, name,
//	                         x, y, mip?, slice?, fragment}), "stepVertex" ({seq, vertex, instance}), "stepThread" ({seq,
//	                         group: [x, y, z], thread: [x, y, z]}), "compare" ({against: "edit" or a mode sync|in-order|out-of-order,
//	                         at: an event both runs name}); core/inspect Resource, History, Steps (of a pixel,
//	                         a vertex, a thread), Comparison, or {error}
//	compareMask()         -> {width, height, pixels} of the last comparison's differing pixels (red), null when none
//	inspectImage(opts)    -> {width, height, pixels: Uint8ClampedArray} of the last resource answered,
//	                         drawn with opts {channels, lo, hi} (null: none)
//	inspectTexel(x, y)    -> texel (x, y) of the last resource answered in its format, null outside
//	stepFrame()           -> summary after the next Present
//	runFrame()            -> Promise of that summary, run in slices like run() (the Step frame button)
//	stepToLine(n)         -> summary once scenario line n's call has run
//	restart()             -> reload the loaded scenario (paused at its start)
//	setSpeed(n)           API calls per canvas tick while playing (0: as fast as slices go)
//	download(kind)        -> Uint8Array: "jsonl" (trace.jsonl), "perfetto" (trace.perfetto.json), "png" (the frame); null when none
//	download(kind, t0, t1) -> "jsonl" or "perfetto" of the events in virtual time [t0, t1] ns and the calls
//	                         open at t0 that enclose them (core/inspect ClipTrace)
//	tutorials()           -> names of the tutorials; tutorial(name) -> {scenario, notes} or null
//	frameSize()           -> {width, height} of the last presented frame (0, 0: none)
//	fps()                 the canvas's frames per second (ebiten.ActualFPS)
//	goStats()             -> {cycles, allocBytes, allocObjects, liveBytes, goalBytes, totalBytes, gcSeconds, scanBytes}:
//	                         Go's collector and heap (wasm/gostats.go; the figures read it)
//	synthetic(n)          the panel's trace becomes n synthetic events (the timeline's load test)
//	notice                message for the page ("" for none), e.g. a damaged link;
//	                      also sent as a "d3dsim:notice" event on window
//
// After each call that changes the run (changing) and each slice of a run
// in slices, window gets a "d3dsim:change" event: the panel polls only
// while the run changes (web/controller.js).
//
// JS calls a wrapped Go function synchronously with the event loop paused
// (syscall/js.FuncOf), so nothing here blocks: run() answers with a Promise
// and runs one slice per task of the event loop (later), so input, timers,
// the panel's polls and the canvas get turns between slices.
//
// This file is also the only place that reads the page clock: overAfter ends
// a slice after sliceMillis. Where a slice ends does not change the run, so
// the trace and the pixels stay those of `d3dsim run`.

import (
	"fmt"
	"sync"
	"sync/atomic"
	"syscall/js"
	"time"

	"d3dsim/assets"
	"d3dsim/core/scenario"
)

// actualFPS is the canvas's measured frame rate (ebiten.ActualFPS, set by
// main; nil before).
var actualFPS func() float64

// wakeStage asks Ebiten for an Update and a Draw in the next animation
// frame (ebiten.ScheduleFrame, set by main_js.go; nil before): the canvas
// runs only when something changed.
var wakeStage func()

// stageGate is boot.js's gate on Ebiten's animation frames
// (window.__d3dsimStage, web/boot.js stageFrames): hold says the stage is
// idle, so the gate holds Ebiten's next frame instead of asking the
// browser for it; release ends that and asks for the frame held. A page
// that loads main.wasm without boot.js has no gate: both do nothing.
type stageGate struct {
	v    js.Value
	idle atomic.Bool // what v.idle was last set to
}

func newStageGate() *stageGate {
	g := &stageGate{v: js.Global().Get("__d3dsimStage")}
	if g.v.Type() != js.TypeObject {
		g.v = js.Undefined()
	}
	return g
}

// hold marks the stage idle.
func (g *stageGate) hold() {
	if g.v.IsUndefined() || !g.idle.CompareAndSwap(false, true) {
		return
	}
	g.v.Set("idle", true)
}

// release ends a hold and asks for the frame it held.
func (g *stageGate) release() {
	if g.v.IsUndefined() || !g.idle.CompareAndSwap(true, false) {
		return
	}
	g.v.Call("wake")
}

// stageDraws counts the frames the stage was drawn (game.Draw when its frame
// or size changed; set by main_js.go): an idle page's count stands still.
var stageDraws func() uint64

type bridge struct {
	a   *app
	obj js.Value

	// The last answers that stay meaningful while a slice is suspended
	// (busyAnswer): the summary, the inspector's model, the frame size.
	last map[string]any

	// pending are the sources of loads (and restarts) asked for while a
	// slice was suspended, in order: they are done once it has returned,
	// and until then summary() and source() answer for the last of them,
	// as they would have had the load been done at once.
	pending []string
	// playAfter is a Play asked for after such a load: the load would
	// otherwise undo it (a load pauses).
	playAfter bool

	mu    sync.Mutex
	port  js.Value // a MessageChannel's port2: posting to it queues a task
	queue []func() // what the tasks run, in order
	// free are the calls whenFree holds, in order; freeDraining: they (or
	// the last of them) have not all returned.
	free         []freeCall
	freeDraining bool
}

// overAfter starts a slice's page clock: the predicate is true once d has
// passed. The only wall-clock reading of the simulator's side of the page
// (app.clock); the simulation never sees it.
//
// time.Since of a reading with its monotonic clock reads only that clock:
// one call out to JavaScript (performance.now) a check, where time.Now
// made two (the wall clock too); the slices of a 1,000-draw frame check it
// thousands of times (2.5% of the page's main thread in the figure's
// profile, 2026-11-29). The run loop's check after each API call reads it
// at every 8th call only (everyNth, stepping.go); a long draw's pieces and
// an inspector query's calls, which can take milliseconds each, read it at
// every check.
func overAfter(d time.Duration) func() bool {
	start := time.Now()
	return func() bool { return time.Since(start) >= d }
}

// installBridge fills window.d3dsim (the page may have created it early with
// a pending ready Promise, see index.html), loads the scenario the URL asks
// for and resolves ready.
func installBridge(a *app) *bridge {
	win := js.Global()
	obj := win.Get("d3dsim")
	if obj.Type() != js.TypeObject {
		obj = js.Global().Get("Object").New()
		win.Set("d3dsim", obj)
	}
	b := &bridge{a: a, obj: obj}
	a.mu.Lock()
	a.clock = func() func() bool { return overAfter(sliceMillis * time.Millisecond) }
	a.y.wake = b.resumeLater // a slice suspended inside a long draw resumes in a task of its own (yield.go)
	a.mu.Unlock()
	b.initLater()

	b.fn("load", func(args []js.Value) any {
		if len(args) < 1 || args[0].Type() != js.TypeString {
			return map[string]any{"ok": false, "error": "1:1: load expects the scenario text as a string"}
		}
		if err := a.load([]byte(args[0].String())); err != nil {
			return map[string]any{"ok": false, "error": err.Error()}
		}
		return map[string]any{"ok": true, "error": ""}
	})
	b.fn("run", func(args []js.Value) any { return b.run() })
	b.fn("step", func(args []js.Value) any {
		n := 1
		if len(args) > 0 && args[0].Type() == js.TypeNumber {
			n = args[0].Int()
		}
		return b.summaryJS(a.step(n))
	})
	b.fn("play", func(args []js.Value) any { a.play(); return nil })
	b.fn("pause", func(args []js.Value) any { a.pause(); return nil })
	b.fn("summary", func(args []js.Value) any { return b.summaryJS(a.summary()) })
	b.fn("progress", func(args []js.Value) any {
		return b.summaryFields(a.progress(), b.a.isPlaying(), b.a.loadCount(), false)
	})
	b.fn("pixel", func(args []js.Value) any {
		if len(args) < 2 || args[0].Type() != js.TypeNumber || args[1].Type() != js.TypeNumber {
			return ""
		}
		return a.pixel(args[0].Int(), args[1].Int())
	})
	b.fn("link", func(args []js.Value) any {
		loc := js.Global().Get("location")
		return a.linkURL(loc.Get("origin").String() + loc.Get("pathname").String())
	})
	b.fn("source", func(args []js.Value) any { return a.source() })
	b.fn("scenarios", func(args []js.Value) any {
		names := assets.Scenarios()
		out := make([]any, len(names))
		for i, n := range names {
			out[i] = n
		}
		return out
	})
	b.fn("scenario", func(args []js.Value) any {
		if len(args) < 1 || args[0].Type() != js.TypeString {
			return nil
		}
		src, ok := assets.Scenario(args[0].String())
		if !ok {
			return nil
		}
		return string(src)
	})
	b.fn("events", func(args []js.Value) any {
		from, max := 0, maxEvents
		if len(args) > 0 && args[0].Type() == js.TypeNumber {
			from = args[0].Int()
		}
		if len(args) > 1 && args[1].Type() == js.TypeNumber {
			max = args[1].Int()
		}
		return js.Global().Get("JSON").Call("parse", string(a.eventsJSON(from, max)))
	})

	b.fn("check", func(args []js.Value) any {
		if len(args) < 1 || args[0].Type() != js.TypeString {
			return map[string]any{"ok": false, "error": "1:1: check expects the scenario text as a string", "line": 1, "col": 1}
		}
		if err := check([]byte(args[0].String())); err != nil {
			line, col := 0, 0
			if e, ok := err.(*scenario.Error); ok {
				line, col = e.Line, e.Col
			}
			return map[string]any{"ok": false, "error": err.Error(), "line": line, "col": col}
		}
		return map[string]any{"ok": true, "error": "", "line": 0, "col": 0}
	})
	b.fn("batch", func(args []js.Value) any {
		after, max := 0, batchMax
		if len(args) > 0 && args[0].Type() == js.TypeNumber {
			after = args[0].Int()
		}
		if len(args) > 1 && args[1].Type() == js.TypeNumber {
			max = args[1].Int()
		}
		bt := a.batch(uint64(after), max)
		ints := bytesToJS(bt.Ints)
		t := bytesToJS(bt.Times)
		return map[string]any{
			"n":        bt.N,
			"ints":     js.Global().Get("Int32Array").New(ints.Get("buffer")),
			"t":        js.Global().Get("Float64Array").New(t.Get("buffer")),
			"strings":  bt.joinedStrings(),
			"nstrings": len(bt.Strings),
		}
	})
	b.fn("inspect", func(args []js.Value) any {
		return js.Global().Get("JSON").Call("parse", string(a.inspect()))
	})
	b.fn("shaders", func(args []js.Value) any {
		have := ""
		if len(args) > 0 && args[0].Type() == js.TypeString {
			have = args[0].String()
		}
		j := a.shadersJSON(have)
		if j == nil {
			return nil
		}
		return js.Global().Get("JSON").Call("parse", string(j))
	})
	b.fn("shaderCode", func(args []js.Value) any {
		if len(args) < 1 || args[0].Type() != js.TypeNumber {
			return nil
		}
		return js.Global().Get("JSON").Call("parse", string(a.shaderCode(args[0].Int())))
	})
	b.fn("shaderDraws", func(args []js.Value) any {
		if len(args) < 1 || args[0].Type() != js.TypeNumber {
			return nil
		}
		return js.Global().Get("JSON").Call("parse", string(a.shaderDraws(args[0].Int())))
	})
	// The inspector (wasm/inspector.go): the state at an event at once, the
	// rest as queries run in slices.
	b.fn("inspectState", func(args []js.Value) any {
		if len(args) < 1 || args[0].Type() != js.TypeNumber {
			return js.Global().Get("JSON").Call("parse", `{"error":"inspectState(seq, ctx)"}`)
		}
		ctx := ""
		if len(args) > 1 && args[1].Type() == js.TypeString {
			ctx = args[1].String()
		}
		return js.Global().Get("JSON").Call("parse", string(a.inspectState(uint64(args[0].Float()), ctx)))
	})
	b.fn("inspectWait", func(args []js.Value) any {
		if len(args) < 1 || args[0].Type() != js.TypeNumber {
			return js.Global().Get("JSON").Call("parse", `{"error":"inspectWait(seq)"}`)
		}
		return js.Global().Get("JSON").Call("parse", string(a.inspectWait(uint64(args[0].Float()))))
	})
	b.fn("inspectProblems", func(args []js.Value) any {
		from, n := 0, 1000
		if len(args) > 0 && args[0].Type() == js.TypeNumber {
			from = args[0].Int()
		}
		if len(args) > 1 && args[1].Type() == js.TypeNumber {
			n = args[1].Int()
		}
		return js.Global().Get("JSON").Call("parse", string(a.inspectProblems(from, n)))
	})
	b.fn("inspectMemory", func(args []js.Value) any {
		from, n := 0, 4096
		if len(args) > 0 && args[0].Type() == js.TypeNumber {
			from = args[0].Int()
		}
		if len(args) > 1 && args[1].Type() == js.TypeNumber {
			n = args[1].Int()
		}
		return js.Global().Get("JSON").Call("parse", string(a.inspectMemory(from, n)))
	})
	b.fn("inspectDMA", func(args []js.Value) any {
		if len(args) < 1 || args[0].Type() != js.TypeNumber {
			return js.Global().Get("JSON").Call("parse", `{"error":"inspectDMA(seq)"}`)
		}
		return js.Global().Get("JSON").Call("parse", string(a.inspectDMA(uint64(args[0].Float()))))
	})
	b.fn("inspectResolve", func(args []js.Value) any {
		if len(args) < 1 || args[0].Type() != js.TypeString {
			return map[string]any{"error": "inspectResolve(event)"}
		}
		seq, err := a.inspectResolve(args[0].String())
		if err != nil {
			return map[string]any{"error": err.Error()}
		}
		return map[string]any{"seq": seq}
	})
	b.fn("inspectQuery", func(args []js.Value) any {
		if len(args) < 2 || args[0].Type() != js.TypeString || args[1].Type() != js.TypeString {
			return js.Global().Get("Promise").Call("resolve", map[string]any{"error": "inspectQuery(kind, argsJSON)"})
		}
		p, failed := a.startQuery(args[0].String(), []byte(args[1].String()))
		if p == nil {
			return js.Global().Get("Promise").Call("resolve", js.Global().Get("JSON").Call("parse", string(failed)))
		}
		return b.runQuery(p)
	})
	b.fn("inspectImage", func(args []js.Value) any {
		opts := "{}"
		if len(args) > 0 && args[0].Type() == js.TypeString {
			opts = args[0].String()
		}
		pix, w, h := a.resourceImage([]byte(opts))
		if pix == nil {
			return nil
		}
		arr := bytesToJS(pix)
		return map[string]any{"width": w, "height": h, "pixels": js.Global().Get("Uint8ClampedArray").New(arr.Get("buffer"))}
	})
	b.fn("compareMask", func(args []js.Value) any {
		pix, w, h := a.compareMask()
		if pix == nil {
			return nil
		}
		arr := bytesToJS(pix)
		return map[string]any{"width": w, "height": h, "pixels": js.Global().Get("Uint8ClampedArray").New(arr.Get("buffer"))}
	})
	b.fn("inspectTexel", func(args []js.Value) any {
		if len(args) < 2 || args[0].Type() != js.TypeNumber || args[1].Type() != js.TypeNumber {
			return nil
		}
		return js.Global().Get("JSON").Call("parse", string(a.resourceTexel(args[0].Int(), args[1].Int())))
	})
	b.fn("stepFrame", func(args []js.Value) any { return b.summaryJS(a.stepFrame()) })
	b.fn("runFrame", func(args []js.Value) any {
		r := a.startFrame()
		r.suspendable = true
		return b.runSlices(r, "runFrame")
	})
	b.fn("stepToLine", func(args []js.Value) any {
		if len(args) < 1 || args[0].Type() != js.TypeNumber {
			return b.summaryJS(a.summary())
		}
		return b.summaryJS(a.stepToLine(args[0].Int()))
	})
	b.fn("restart", func(args []js.Value) any {
		if err := a.load([]byte(a.source())); err != nil {
			return map[string]any{"ok": false, "error": err.Error()}
		}
		return map[string]any{"ok": true, "error": ""}
	})
	b.fn("setSpeed", func(args []js.Value) any {
		if len(args) > 0 && args[0].Type() == js.TypeNumber {
			a.setSpeed(args[0].Int())
		}
		return nil
	})
	b.fn("download", func(args []js.Value) any {
		kind := ""
		if len(args) > 0 && args[0].Type() == js.TypeString {
			kind = args[0].String()
		}
		var span *[2]int64 // download(kind, t0, t1): the trace of a time range
		if len(args) > 2 && args[1].Type() == js.TypeNumber && args[2].Type() == js.TypeNumber {
			span = &[2]int64{int64(args[1].Float()), int64(args[2].Float())}
		}
		var data []byte
		switch kind {
		case "jsonl":
			data = a.traceFileRange(false, span)
		case "perfetto":
			data = a.traceFileRange(true, span)
		case "png":
			data = a.framePNG()
		case "trace":
			data = a.captureFile()
		}
		if data == nil {
			return nil
		}
		return bytesToJS(data)
	})
	// apitrace captures (capture.go): the format of a file's first bytes,
	// and the scenario and report of a capture's bytes.
	b.fn("captureFormat", func(args []js.Value) any {
		if len(args) < 1 {
			return "scenario"
		}
		return captureFormat(jsBytes(args[0], 8<<10))
	})
	b.fn("importCapture", func(args []js.Value) any {
		if len(args) < 2 || args[1].Type() != js.TypeString {
			return js.Global().Get("JSON").Call("parse", `{"ok":false,"error":"importCapture(bytes, name)"}`)
		}
		data := jsBytes(args[0], maxCaptureBytes+1)
		return js.Global().Get("JSON").Call("parse", string(importCapture(args[1].String(), data)))
	})
	b.fn("tutorials", func(args []js.Value) any {
		names := assets.Tutorials()
		out := make([]any, len(names))
		for i, n := range names {
			out[i] = n
		}
		return out
	})
	b.fn("tutorial", func(args []js.Value) any {
		if len(args) < 1 || args[0].Type() != js.TypeString {
			return nil
		}
		src, notes, ok := assets.Tutorial(args[0].String())
		if !ok {
			return nil
		}
		return map[string]any{"scenario": string(src), "notes": string(notes)}
	})
	b.fn("frameSize", func(args []js.Value) any {
		w, h := a.frameSize()
		return map[string]any{"width": w, "height": h}
	})
	b.fn("fps", func(args []js.Value) any {
		if actualFPS == nil {
			return 0
		}
		return actualFPS()
	})
	b.fn("pumpSlices", func(args []js.Value) any {
		return float64(b.a.pumpCount())
	})
	b.fn("goStats", func(args []js.Value) any {
		g := readGoStat()
		o := js.Global().Get("Object").New()
		o.Set("cycles", float64(g.Cycles))
		o.Set("allocBytes", float64(g.AllocBytes))
		o.Set("allocObjects", float64(g.AllocObjects))
		o.Set("liveBytes", float64(g.LiveBytes))
		o.Set("goalBytes", float64(g.GoalBytes))
		o.Set("totalBytes", float64(g.TotalBytes))
		o.Set("gcSeconds", g.GCSeconds)
		o.Set("scanBytes", float64(g.ScanBytes))
		return o
	})
	b.fn("stageDraws", func(args []js.Value) any {
		if stageDraws == nil {
			return 0
		}
		return float64(stageDraws())
	})
	b.fn("synthetic", func(args []js.Value) any {
		if len(args) > 0 && args[0].Type() == js.TypeNumber {
			a.loadSynthetic(args[0].Int())
		}
		return nil
	})

	a.start(js.Global().Get("location").Get("href").String())
	obj.Set("notice", a.getNotice())

	// Resolve the page's pending ready Promise, or make a resolved one.
	if hook := win.Get("__d3dsimReady"); hook.Type() == js.TypeObject && hook.Get("resolve").Type() == js.TypeFunction {
		hook.Call("resolve", obj)
	} else {
		obj.Set("ready", js.Global().Get("Promise").Call("resolve", obj))
	}
	if n := a.getNotice(); n != "" {
		b.notify(n)
	}
	return b
}

// fn installs d3dsim[name]. A panic becomes an exception in JS (logged, and
// thrown as an Error) instead of ending the Go program and with it the page.
func (b *bridge) fn(name string, f func(args []js.Value) any) {
	b.obj.Set(name, js.FuncOf(func(this js.Value, args []js.Value) (ret any) {
		// No slice suspends until this returns (suspender.callbacks): the
		// lock this call may wait for is then never held by one.
		b.a.y.enterCallback()
		defer b.a.y.leaveCallback()
		defer func() {
			if p := recover(); p != nil {
				msg := fmt.Sprintf("d3dsim.%s: internal error: %v", name, p)
				js.Global().Get("console").Call("error", msg)
				func() {
					defer func() { recover() }() // the notice must not panic in turn
					b.notify(crashNotice(msg))
				}()
				ret = js.Global().Get("Error").New(msg)
			}
		}()
		if busy := b.a.y.busy.Load(); busy || b.queuedFree() {
			// A slice is suspended inside a long draw, holding the app's
			// lock: answer without it (busy_js.go). A callback that waited
			// for the lock would block the event loop the slice's wake-up
			// needs, for good. Calls asked for during it that wait to run
			// (a load, a run) are answered for in the same way until they
			// have: a step must not run ahead of a load asked for first.
			if ans, ok := b.busyAnswer(name, args); ok {
				if changing[name] {
					b.changed()
				}
				return ans
			}
			if busy && !lockFree[name] {
				return js.Global().Get("Error").New("d3dsim." + name + ": " + busyNote + "; ask again when it pauses")
			}
			if busy {
				ret = f(args)
				return ret
			}
		}
		ret = f(args)
		b.cacheAnswer(name, ret)
		b.notifyPending() // a step that ended the run at a limit, say
		if changing[name] {
			b.changed()
		}
		return ret
	}))
}

// changing are the bridge's calls that can change the run, its trace or
// its frame (a load, a step, play and pause, the start of a run): after
// each, and after each slice of a run in slices, the bridge wakes the
// canvas and the page (changed). Every other call only reads.
var changing = map[string]bool{"load": true, "run": true, "step": true, "play": true, "pause": true, "stepFrame": true,
	"runFrame": true, "stepToLine": true, "restart": true, "setSpeed": true, "synthetic": true}

// changed wakes the canvas (wakeStage) when it has something to show
// (app.stageNews) and tells the page the run changed:
// a "d3dsim:change" event on window, which the panel's controller waits
// for instead of polling an idle page (web/controller.js). Called while a
// slice may be suspended too: it takes no lock.
func (b *bridge) changed() {
	if wakeStage != nil && b.a.stageNews() {
		wakeStage()
	}
	js.Global().Call("dispatchEvent", js.Global().Get("Event").New("d3dsim:change"))
}

// lockFree are the bridge's calls that never take the app's lock (the
// assets, a syntax check, the canvas's rate): they answer while a slice is
// suspended too.
var lockFree = map[string]bool{"scenarios": true, "scenario": true, "tutorials": true, "tutorial": true, "check": true,
	"captureFormat": true, "fps": true, "pumpSlices": true, "goStats": true}

// notifyPending shows the notice the app left (a limit that stopped the
// run, a crash), if any.
func (b *bridge) notifyPending() {
	if n := b.a.takePending(); n != "" {
		b.notify(n)
	}
}

// run answers a Promise resolved with the summary when the loaded run is
// done (or cancelled by load, pause or step). Each slice runs in a task of
// its own (later): between two, the event loop runs whatever else is
// queued — input, the panel's poll, the canvas's frame.
func (b *bridge) run() js.Value {
	r := b.a.startRun()
	r.suspendable = true
	return b.runSlices(r, "run")
}

// runSlices answers a Promise resolved with the summary when r is finished,
// running one slice of r per task (later).
func (b *bridge) runSlices(r *runner, name string) js.Value {
	var executor js.Func
	executor = js.FuncOf(func(this js.Value, args []js.Value) any {
		resolve, reject := args[0], args[1]
		var turn func()
		turn = func() {
			// On a goroutine of its own, not in the task's callback: the
			// slice may suspend inside a long draw until a later task
			// resumes it (yield.go).
			go func() {
				defer func() {
					if p := recover(); p != nil {
						msg := fmt.Sprintf("d3dsim.%s: internal error: %v", name, p)
						// Never a frozen page with stale counters: say so
						// where the page shows notices.
						b.notify(crashNotice(msg))
						reject.Invoke(js.Global().Get("Error").New(msg))
					}
				}()
				s, done := r.slice()
				b.changed()
				if done {
					b.notifyPending()
					resolve.Invoke(b.summaryJS(s))
					return
				}
				b.later(turn)
			}()
		}
		b.later(turn)
		return nil
	})
	p := js.Global().Get("Promise").New(executor)
	executor.Release()
	return p
}

// resumeLater resumes a slice suspended inside a long draw (yield.go) in a
// timer task resumeMillis later, not in the next task: the input, the
// panel's polls and the canvas's frames queued meanwhile get their turns
// first.
func (b *bridge) resumeLater(resume func()) {
	var cb js.Func
	cb = js.FuncOf(func(this js.Value, args []js.Value) any {
		cb.Release()
		b.a.y.enterCallback()
		defer b.a.y.leaveCallback()
		resume()
		return nil
	})
	js.Global().Call("setTimeout", cb, resumeMillis)
}

// resumeMillis is the page's turn inside a long draw, after each
// sliceMillis of it.
const resumeMillis = 8

// runQuery answers a Promise resolved with an inspector query's answer
// (or {error}), running one slice of it per task, as runSlices does.
func (b *bridge) runQuery(p *pendingQuery) js.Value {
	var executor js.Func
	executor = js.FuncOf(func(this js.Value, args []js.Value) any {
		resolve := args[0]
		var turn func()
		turn = func() {
			defer func() {
				if r := recover(); r != nil {
					msg := fmt.Sprintf("d3dsim.inspectQuery: internal error: %v", r)
					js.Global().Get("console").Call("error", msg)
					resolve.Invoke(map[string]any{"error": msg})
				}
			}()
			if b.a.y.busy.Load() {
				// A slice of the run is suspended inside a draw with the
				// app's lock (yield.go), which p.slice takes: waiting for
				// it here would keep the slice's wake-up from ever running.
				// Ask again after the page's turn.
				b.resumeLater(turn)
				return
			}
			if ans, done := p.slice(overAfter(sliceMillis * time.Millisecond)); done {
				resolve.Invoke(js.Global().Get("JSON").Call("parse", string(ans)))
				return
			}
			b.later(turn)
		}
		b.later(turn)
		return nil
	})
	pr := js.Global().Get("Promise").New(executor)
	executor.Release()
	return pr
}

// initLater sets up later's MessageChannel (setTimeout when the page has
// none).
func (b *bridge) initLater() {
	mc := js.Global().Get("MessageChannel")
	if mc.Type() != js.TypeFunction {
		return
	}
	ch := mc.New()
	ch.Get("port1").Set("onmessage", js.FuncOf(func(this js.Value, args []js.Value) any {
		b.mu.Lock()
		if len(b.queue) == 0 {
			b.mu.Unlock()
			return nil
		}
		f := b.queue[0]
		b.queue = b.queue[1:]
		b.mu.Unlock()
		b.a.y.enterCallback()
		defer b.a.y.leaveCallback()
		f()
		return nil
	}))
	b.port = ch.Get("port2")
}

// later runs f in a new task of the event loop, after what is already
// queued. A MessageChannel message, not setTimeout(0): a chain of nested
// timeouts is clamped to 4 ms each (HTML's timer nesting rule), a sixth of
// a 25 ms slice lost to waiting.
func (b *bridge) later(f func()) {
	if b.port.IsUndefined() {
		var cb js.Func
		cb = js.FuncOf(func(this js.Value, args []js.Value) any {
			cb.Release()
			b.a.y.enterCallback()
			defer b.a.y.leaveCallback()
			f()
			return nil
		})
		js.Global().Call("setTimeout", cb, 0)
		return
	}
	b.mu.Lock()
	b.queue = append(b.queue, f)
	b.mu.Unlock()
	b.port.Call("postMessage", nil)
}

// notify sets d3dsim.notice and dispatches a "d3dsim:notice" event.
func (b *bridge) notify(msg string) {
	b.a.setNotice(msg)
	b.obj.Set("notice", msg)
	ev := js.Global().Get("CustomEvent").New("d3dsim:notice", map[string]any{"detail": msg})
	js.Global().Call("dispatchEvent", ev)
	js.Global().Get("console").Call("warn", "d3dsim: "+msg)
}

// summaryJS converts a summary to a plain object, with the JSON names of
// scenario.Summary plus playing and loads (scenarios loaded so far).
func (b *bridge) summaryJS(s scenario.Summary) js.Value {
	return b.summaryFields(s, b.a.isPlaying(), b.a.loadCount(), true)
}

// summaryFields is summaryJS with playing and loads given. Its keys come in
// one order, always: js.ValueOf of a map sets them in Go's map order, a new
// one each call, and the panel compares two summaries as JSON text
// (web/controller.js): each poll of an idle page saw a new summary and
// redrew it.
// Without hash (progress) it has no hash field.
func (b *bridge) summaryFields(s scenario.Summary, playing bool, loads uint64, hash bool) js.Value {
	o := js.Global().Get("Object").New()
	o.Set("frames", s.Frames)
	o.Set("events", s.Events)
	o.Set("dropped", s.Dropped)
	o.Set("violations", s.Violations)
	if hash {
		o.Set("hash", b.a.frameHash(s))
	}
	o.Set("failures", anySlice(s.Failures))
	o.Set("messages", anySlice(s.Messages))
	o.Set("failureCount", s.FailureCount)
	o.Set("messageCount", s.MessageCount)
	o.Set("limit", s.Limit)
	o.Set("done", s.Done)
	o.Set("steps", s.Steps)
	o.Set("playing", playing)
	o.Set("loads", loads)
	return o
}

// bytesToJS copies b into a new Uint8Array (its own buffer, offset 0, so
// typed-array views of it are aligned).
// jsBytes copies at most max bytes of a Uint8Array (or a string's UTF-8).
func jsBytes(v js.Value, max int) []byte {
	if v.Type() == js.TypeString {
		s := v.String()
		return []byte(s[:min(len(s), max)])
	}
	if v.Type() != js.TypeObject || v.Get("length").Type() != js.TypeNumber {
		return nil
	}
	n := min(v.Get("length").Int(), max)
	b := make([]byte, n)
	js.CopyBytesToGo(b, v.Call("subarray", 0, n))
	return b
}

func bytesToJS(b []byte) js.Value {
	u := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(u, b)
	return u
}

// anySlice converts for js.ValueOf, which takes []any, not []string.
func anySlice(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}
