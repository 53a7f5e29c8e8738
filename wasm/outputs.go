package main

import (
	"bytes"
	"encoding/json"
	"image/png"

	"d3dsim/core/inspect"
	"d3dsim/core/scenario"
	"d3dsim/core/trace"
)

// What the page reads out of a run: frames and pixels, the trace as JSON
// lines, columnar batches and the inspector's model, the downloads.

// frame calls fn with the last presented frame (ok false: none yet) when
// anything changed since generation have, and returns the current
// generation. fn runs with the lock held and must not keep f.Pix.
func (a *app) frame(have uint64, fn func(f scenario.Frame, ok bool)) uint64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.frameLocked(have, fn)
}

// frameIfFree is frame when the app's lock is free; when a slice holds it
// (running, or suspended inside a long draw) the frame stays as it was and
// have comes back.
func (a *app) frameIfFree(have uint64, fn func(f scenario.Frame, ok bool)) uint64 {
	if !a.mu.TryLock() {
		return have
	}
	defer a.mu.Unlock()
	return a.frameLocked(have, fn)
}

func (a *app) frameLocked(have uint64, fn func(f scenario.Frame, ok bool)) uint64 {
	if a.gen == have {
		return have
	}
	var f scenario.Frame
	ok := false
	if a.run != nil {
		f, ok = a.run.LastFrame()
		ok = ok && f.Width > 0 && f.Height > 0 && len(f.Pix) >= f.Width*f.Height*4
	}
	fn(f, ok)
	return a.gen
}

// pixel is "#rrggbbaa" of the last presented frame, "" when none.
func (a *app) pixel(x, y int) string {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.run == nil {
		return ""
	}
	return a.run.Pixel(x, y)
}

// eventsJSON is a JSON array of the trace events after seq from (with
// nothing dropped, the count the caller already has), at most max of them,
// in the trace.jsonl form (docs/scenario.md, "Trace"). By seq, not by index: the
// index of an event shifts when the trace ring drops old ones. One string
// crosses to JavaScript instead of an object per field.
func (a *app) eventsJSON(from, max int) []byte {
	if from < 0 {
		from = 0
	}
	if max <= 0 || max > maxEvents {
		max = maxEvents
	}
	a.mu.Lock()
	var evs []trace.Event
	if a.run != nil {
		evs = a.run.Recorder().AppendSince(nil, uint64(from), max)
	}
	a.mu.Unlock()
	if len(evs) == 0 {
		return []byte("[]")
	}
	b := make([]byte, 0, 160*len(evs)+2)
	b = append(b, '[')
	for i := range evs {
		if i > 0 {
			b = append(b, ',')
		}
		b = trace.AppendJSON(b, &evs[i])
	}
	return append(b, ']')
}

// batch encodes the trace events after seq after, at most max of them, for
// the panel. after == 0 starts a new string table (a new trace).
func (a *app) batch(after uint64, max int) columnBatch {
	a.mu.Lock()
	defer a.mu.Unlock()
	if after == 0 {
		a.enc.reset()
	}
	if max <= 0 || max > batchMax {
		max = batchMax
	}
	var evs []trace.Event
	switch {
	case a.synth > 0:
		evs = syntheticEvents(int(min(after, uint64(a.synth))), max, a.synth)
	case a.run != nil:
		// Into the app's buffer: a new slice each poll was the page's
		// largest garbage, a frame's events (about 800 KB of the draws
		// figure's 1.75 MB a frame, BenchmarkPageFrame), and every
		// collection it brought marks the whole heap on the page's only
		// thread.
		evs = a.run.Recorder().AppendSince(a.batchBuf[:0], after, max)
		a.batchBuf = evs[:0]
		defer clear(evs) // no event's strings kept past the batch
	}
	return a.enc.encode(evs)
}

// loadSynthetic replaces the panel's trace by n synthetic events (for the
// timeline's load test); the scenario stays loaded, paused. The next load
// ends it.
func (a *app) loadSynthetic(n int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.synth = max(0, n)
	a.playing = false
	a.cancel++
	a.loads++ // the panel starts a fresh trace
	a.gen++
}

// inspect is the Command lists and Handles views' model as JSON, brought up
// to date with the trace first.
func (a *app) inspect() []byte {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.insp == nil {
		a.insp = newInspector()
	}
	if a.run != nil && a.synth == 0 {
		a.insp.consume(a.run.Recorder().Since(a.insp.seen))
	}
	b, err := json.Marshal(a.insp.snapshot())
	if err != nil {
		return []byte("{}")
	}
	return b
}

// traceFile is the run's trace as trace.jsonl or trace.perfetto.json (the
// download buttons; the same writers as `d3dsim run --out`).
func (a *app) traceFile(perfetto bool) []byte {
	return a.traceFileRange(perfetto, nil)
}

// traceFileRange is traceFile clipped to the virtual-time range span
// ([t0, t1] ns, the timeline's selection: inspect.ClipTrace); nil: all.
func (a *app) traceFileRange(perfetto bool, span *[2]int64) []byte {
	a.mu.Lock()
	var evs []trace.Event
	if a.run != nil {
		if span != nil {
			evs = inspect.ClipTrace(a.run.Recorder(), span[0], span[1])
		} else {
			evs = a.run.Events()
		}
	}
	a.mu.Unlock()
	var buf bytes.Buffer
	if perfetto {
		trace.WritePerfetto(&buf, evs)
	} else {
		trace.WriteJSONL(&buf, evs)
	}
	return buf.Bytes()
}

// framePNG is the last presented frame as PNG, at its own size (nil when
// none).
func (a *app) framePNG() []byte {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.run == nil {
		return nil
	}
	f, ok := a.run.LastFrame()
	if !ok || f.Width <= 0 || f.Height <= 0 || len(f.Pix) < f.Width*f.Height*4 {
		return nil
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, f.Image()); err != nil {
		return nil
	}
	return buf.Bytes()
}

// frameSize is the last presented frame's size (0, 0 when none).
func (a *app) frameSize() (w, h int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.run == nil {
		return 0, 0
	}
	if f, ok := a.run.LastFrame(); ok {
		return f.Width, f.Height
	}
	return 0, 0
}
