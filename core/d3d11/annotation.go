package d3d11

import (
	"fmt"

	"d3dsim/core/trace"
)

// Annotations: ID3DUserDefinedAnnotation's BeginEvent, EndEvent, SetMarker
// and GetStatus on a context, and the D3DPERF_* functions of the same
// names, which mark the application's work for a profiling tool
// ("ID3DUserDefinedAnnotation interface", "D3DPERF_BeginEvent"). They
// change nothing the GPU does: each is an API call in the trace whose
// message is the marker's text, so the inspector can group the events
// between a BeginEvent and its EndEvent. On a deferred context the markers
// are recorded with the command list and replayed, in order, where the
// list is executed, as D3D11 does for PIX.

// MarkerKind is what an annotation call does.
type MarkerKind uint8

const (
	MarkerBegin MarkerKind = iota + 1 // BeginEvent: opens a group
	MarkerEnd                         // EndEvent: closes the innermost one
	MarkerSet                         // SetMarker: one instant
)

var markerCalls = [...]string{MarkerBegin: "BeginEvent", MarkerEnd: "EndEvent", MarkerSet: "SetMarker"}

// Marker is one annotation call as a command list keeps it.
type Marker struct {
	Kind  MarkerKind
	Text  string
	Color uint32 // D3DPERF's D3DCOLOR (0 for ID3DUserDefinedAnnotation's)
}

// annotations is a context's marker state: its open groups, and on a
// deferred context the markers recorded since the last FinishCommandList.
type annotations struct {
	depth    int32
	recorded []Marker
}

// BeginEvent opens a group named text and returns how many groups were
// open before it. The simulator is the profiling tool, so it never
// returns -1 ("not running under a Direct3D profiling tool").
func (c *DeviceContext) BeginEvent(text string, color uint32) int32 {
	n := c.ann.depth
	c.mark(Marker{Kind: MarkerBegin, Text: text, Color: color}, "")
	c.ann.depth++
	return n
}

// EndEvent closes the innermost group and returns how many are still
// open. With none open the debug layer says so and it returns -1.
func (c *DeviceContext) EndEvent() int32 {
	if c.ann.depth == 0 {
		msg := ""
		if c.dev.debug {
			msg = "D3D11 WARNING: EndEvent: there is no BeginEvent to end on " + c.name
		}
		c.mark(Marker{Kind: MarkerEnd}, msg)
		return -1
	}
	c.ann.depth--
	c.mark(Marker{Kind: MarkerEnd}, "")
	return c.ann.depth
}

// SetMarker marks one instant named text.
func (c *DeviceContext) SetMarker(text string, color uint32) {
	c.mark(Marker{Kind: MarkerSet, Text: text, Color: color}, "")
}

// GetStatus is ID3DUserDefinedAnnotation::GetStatus: TRUE, the
// application runs under a tool that captures its markers.
func (c *DeviceContext) GetStatus() bool {
	c.api("GetStatus", "").end(nil)
	return true
}

// Depth is how many groups are open on the context.
func (c *DeviceContext) Depth() int32 { return c.ann.depth }

// mark is the annotation call's event, its message the marker's text; a
// deferred context records it.
func (c *DeviceContext) mark(m Marker, warn string) {
	var args trace.Args
	if m.Color != 0 {
		args = strArg(trace.KeyColor, fmt.Sprintf("#%08x", m.Color))
	}
	s := c.apiMsg(markerCalls[m.Kind], m.Text, args)
	if warn != "" {
		c.dev.message(markerCalls[m.Kind], "", warn)
	}
	if c.Deferred() {
		c.ann.recorded = append(c.ann.recorded, m)
	}
	s.end(nil)
}

// apiMsg is api for a call whose event carries a text of the
// application's (a marker's, a debug name) and a payload.
func (c *DeviceContext) apiMsg(name, msg string, args trace.Args) span {
	return c.dev.apiMsg(name, "", c, msg, args)
}

// apiMsg is Device.api with the event's message and payload set.
func (d *Device) apiMsg(name, obj string, c *DeviceContext, msg string, args trace.Args) span {
	cfg := d.rt.cfg
	cfg.Sim.PollCharge(cfg.Costs.APICall)
	s := span{rec: cfg.Rec, ev: spanEvent{From: trace.App, Layer: trace.Runtime, Name: name, Obj: obj, Msg: msg, Args: args}}
	if c != nil {
		s.ev.Ctx = c.name
	}
	cfg.Rec.EmitPart(&s.ev, trace.Call, "")
	if c != nil && d.debug {
		c.enterAPI(name)
		s.leave = c
	}
	return s
}

// takeMarkers hands the deferred context's recorded markers to the command
// list FinishCommandList makes.
func (c *DeviceContext) takeMarkers() []Marker {
	m := c.ann.recorded
	c.ann.recorded = nil
	return m
}

// replayMarkers emits a command list's markers where it is executed: on
// the immediate context as events inside ExecuteCommandList, on a deferred
// context into its own recording (a nested list's markers go with it).
func (c *DeviceContext) replayMarkers(l *CommandList) {
	if c.Deferred() {
		c.ann.recorded = append(c.ann.recorded, l.markers...)
		return
	}
	for _, m := range l.markers {
		var b trace.ArgBuilder
		b.Str(trace.KeyDC, l.dc.name)
		if m.Color != 0 {
			b.Str(trace.KeyColor, fmt.Sprintf("#%08x", m.Color))
		}
		c.dev.rt.cfg.Rec.Emit(trace.Event{From: trace.Runtime, Layer: trace.Runtime, Kind: trace.Message, Name: markerCalls[m.Kind],
			Ctx: c.name, Obj: l.name, Msg: m.Text, Args: b.Args()})
	}
}

// D3DPERF_BeginEvent, D3DPERF_EndEvent and D3DPERF_SetMarker are the
// functions of the same markers with no context: their events carry no
// context, and their groups nest per runtime. BeginEvent returns the level
// the group starts at, EndEvent the level it ends at (-1 with none open).
func (rt *Runtime) PerfBeginEvent(text string, color uint32) int32 {
	rt.mu.Lock()
	n := rt.perfDepth
	rt.perfDepth++
	rt.mu.Unlock()
	rt.perf(MarkerBegin, text, color)
	return n
}

func (rt *Runtime) PerfEndEvent() int32 {
	rt.mu.Lock()
	n := rt.perfDepth - 1
	if n >= 0 {
		rt.perfDepth = n
	}
	rt.mu.Unlock()
	rt.perf(MarkerEnd, "", 0)
	return n
}

func (rt *Runtime) PerfSetMarker(text string, color uint32) {
	rt.perf(MarkerSet, text, color)
}

// PerfGetStatus is D3DPERF_GetStatus: nonzero, a tool captures the
// markers.
func (rt *Runtime) PerfGetStatus() uint32 {
	rt.perf(0, "", 0)
	return 1
}

func (rt *Runtime) perf(k MarkerKind, text string, color uint32) {
	name := "D3DPERF_GetStatus"
	if k != 0 {
		name = "D3DPERF_" + markerCalls[k]
	}
	var args trace.Args
	if color != 0 {
		args = strArg(trace.KeyColor, fmt.Sprintf("#%08x", color))
	}
	c := rt.cfg
	c.Sim.PollCharge(c.Costs.APICall)
	s := span{rec: c.Rec, ev: spanEvent{From: trace.App, Layer: trace.Runtime, Name: name, Msg: text, Args: args}}
	c.Rec.EmitPart(&s.ev, trace.Call, "")
	s.end(nil)
}
