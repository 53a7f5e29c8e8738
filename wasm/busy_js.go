//go:build js

package main

import (
	"syscall/js"

	"d3dsim/core/link"
	"d3dsim/core/scenario"
)

// Answers while a slice is suspended inside a long draw (yield.go): the
// slice holds the app's lock, and a JS callback that waited for it would
// block the event loop the slice waits for. So the bridge answers from
// what it has: the last summary (busy set, playing as the page last asked),
// nothing new for the polls that fetch events, the last inspector model.
// Play, Pause and the speed take effect at once (the slice reads them when
// it resumes); a load or a restart is checked now, stops the suspended run
// (its draw stops at its next piece, the GPU skips the rest) and is done
// once the slice has returned; a run() or runFrame() starts then too; a
// step answers with the summary, without stepping.

// busyNote is the summary's busy field while a slice is suspended.
const busyNote = "a long draw is running: the page answers between its pieces"

// cacheAnswer keeps the answers busyAnswer gives again.
func (b *bridge) cacheAnswer(name string, v any) {
	switch name {
	case "inspect", "frameSize":
	default:
		return
	}
	if b.last == nil {
		b.last = map[string]any{}
	}
	b.last[name] = v
}

// busyAnswer answers d3dsim[name] while a slice is suspended; false for a
// function that takes no lock (the answer is its own).
func (b *bridge) busyAnswer(name string, args []js.Value) (any, bool) {
	a := b.a
	switch name {
	case "summary", "step", "stepFrame", "stepToLine":
		return b.busySummary(true), true
	case "progress":
		return b.busySummary(false), true
	case "play":
		if len(b.pending) > 0 {
			b.playAfter = true
		} else if !a.sum.Done {
			a.playing = true
			a.wakePump()
		}
		return nil, true
	case "pause":
		b.playAfter = false
		a.playing = false
		a.cancel++
		return nil, true
	case "setSpeed":
		if len(args) > 0 && args[0].Type() == js.TypeNumber {
			a.speed = max(0, min(args[0].Int(), sliceCalls))
		}
		return nil, true
	case "load", "restart":
		src := string(a.src)
		if name == "load" {
			if len(args) < 1 || args[0].Type() != js.TypeString {
				return map[string]any{"ok": false, "error": "1:1: load expects the scenario text as a string"}, true
			}
			src = args[0].String()
		}
		if err := check([]byte(src)); err != nil {
			return map[string]any{"ok": false, "error": err.Error()}, true
		}
		a.y.abort.Store(true) // the suspended run stops at its draw's next piece
		b.pending = append(b.pending, src)
		b.playAfter = false
		b.whenFree(func() any {
			b.pending = b.pending[1:]
			if a.load([]byte(src)) == nil && len(b.pending) == 0 && b.playAfter {
				b.playAfter = false
				a.play()
			}
			return nil
		})
		return map[string]any{"ok": true, "error": ""}, true
	case "run":
		return b.whenFree(func() any { return b.run() }), true
	case "runFrame":
		return b.whenFree(func() any {
			r := a.startFrame()
			r.suspendable = true
			return b.runSlices(r, "runFrame")
		}), true
	case "batch":
		return map[string]any{"n": 0, "ints": js.Global().Get("Int32Array").New(0), "t": js.Global().Get("Float64Array").New(0),
			"strings": "", "nstrings": 0}, true
	case "events":
		return []any{}, true
	case "inspect", "frameSize":
		v, ok := b.last[name]
		if !ok {
			if name == "frameSize" {
				return map[string]any{"width": 0, "height": 0}, true
			}
			return nil, true // (the inspector takes null as "nothing new")
		}
		return v, true
	case "shaders", "shaderCode", "shaderDraws", "download", "synthetic":
		return nil, true
	case "pixel":
		return "", true
	// The inspector reads the run: while a slice is suspended the state
	// and the resolve answer an error the view shows, a query waits for
	// the slice (a Promise), an image or a texel is none yet.
	case "inspectState", "inspectResolve", "inspectWait", "inspectDMA", "inspectProblems", "inspectMemory":
		return map[string]any{"error": busyNote}, true
	case "inspectQuery":
		if len(args) < 2 || args[0].Type() != js.TypeString || args[1].Type() != js.TypeString {
			return nil, false
		}
		kind, q := args[0].String(), []byte(args[1].String())
		return b.whenFree(func() any {
			p, failed := a.startQuery(kind, q)
			if p == nil {
				return js.Global().Get("JSON").Call("parse", string(failed))
			}
			return b.runQuery(p)
		}), true
	case "inspectImage", "inspectTexel", "compareMask":
		return nil, true
	case "source":
		if n := len(b.pending); n > 0 {
			return b.pending[n-1], true
		}
		return string(a.src), true
	case "link":
		loc := js.Global().Get("location")
		return link.URL(loc.Get("origin").String()+loc.Get("pathname").String(), string(a.src)), true
	}
	return nil, false
}

// busySummary is the last summary the page was given, marked busy (with
// the frame's hash, or without it for progress).
func (b *bridge) busySummary(hash bool) js.Value {
	a := b.a
	sum, playing, loads := a.sum, a.playing, a.loads
	if a.sumLoads != a.loads || len(b.pending) > 0 {
		// The last summary was the scenario loaded before this one (or a
		// load waits for the slice): this one has not answered yet, and is
		// not done.
		sum = scenario.Summary{Failures: []string{}, Messages: []string{}}
	}
	if n := len(b.pending); n > 0 {
		playing, loads = b.playAfter, a.loads+uint64(n)
	}
	s := b.summaryFields(sum, playing, loads, hash)
	s.Set("busy", busyNote)
	return s
}

// freeCall is a call whenFree holds until no slice is suspended.
type freeCall struct {
	f               func() any
	resolve, reject js.Value
}

// whenFree answers a Promise of what f returns (a Promise is followed),
// called once no slice is suspended and every call asked for before it has
// returned: a load() then a run() asked for during a long draw run in that
// order, each after the one before it has returned (queuedFree: until then
// the bridge answers as during the draw).
func (b *bridge) whenFree(f func() any) js.Value {
	var executor js.Func
	executor = js.FuncOf(func(this js.Value, args []js.Value) any {
		b.mu.Lock()
		b.free = append(b.free, freeCall{f: f, resolve: args[0], reject: args[1]})
		start := !b.freeDraining
		b.freeDraining = true
		b.mu.Unlock()
		if start {
			b.later(b.drainFree)
		}
		return nil
	})
	p := js.Global().Get("Promise").New(executor)
	executor.Release()
	return p
}

// queuedFree reports whether calls wait in whenFree's queue: until they
// have run, the bridge answers as it does during a suspended slice, so a
// summary() or a step cannot run ahead of a load asked for before it.
func (b *bridge) queuedFree() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.freeDraining
}

// drainFree runs whenFree's calls one at a time, in order, each on a
// goroutine (f may take the app's lock, which a slice on another goroutine
// may hold for a moment), the next once it has returned.
func (b *bridge) drainFree() {
	if b.a.y.busy.Load() {
		b.later(b.drainFree)
		return
	}
	b.mu.Lock()
	if len(b.free) == 0 {
		b.freeDraining = false
		b.mu.Unlock()
		return
	}
	c := b.free[0]
	b.free = b.free[1:]
	b.mu.Unlock()
	go func() {
		defer b.later(b.drainFree)
		defer func() {
			if p := recover(); p != nil {
				c.reject.Invoke(js.Global().Get("Error").New("d3dsim: internal error"))
			}
		}()
		v := c.f()
		if jv, ok := v.(js.Value); ok && jv.Type() == js.TypeObject && jv.Get("then").Type() == js.TypeFunction {
			jv.Call("then", c.resolve, c.reject)
			return
		}
		c.resolve.Invoke(v)
	}()
}
