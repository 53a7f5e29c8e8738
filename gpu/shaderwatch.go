package gpu

import "d3dsim/gpu/shader"

// The shader watch: a debugger's request to trace one vertex of a draw, or
// one thread of a dispatch, through its program (shader.Trace), as the
// pixel watch traces a pixel (watch.go). The command processor notes the
// word of each packet while a watch is set; the vertex stage traces the
// block that shades the chosen vertex of the chosen instance (taking the
// program's general path, not its moves-only shortcut), the compute stage
// the block of the chosen thread in the chosen group. Off (nil, the
// default), each packet pays one nil check.

// ShaderTrace is a program's trace (shader.Trace), for the layers above.
type ShaderTrace = shader.Trace

// ShaderWatch chooses what to trace and holds what was traced.
type ShaderWatch struct {
	// Match chooses the draw or the dispatch, by its DMA buffer and the
	// word its packet starts at.
	Match func(dma uint64, word int) bool
	// Compute: trace a thread of a dispatch; else a vertex of a draw.
	Compute bool
	// Vertex is the draw's vertex (0 the first it fetched) and Instance
	// its instance (0 the first of the draw).
	Vertex, Instance uint32
	// Group and Thread are the dispatch's thread group and the thread in
	// it (SV_GroupID, SV_GroupThreadID).
	Group, Thread [3]uint32

	// What was traced: the trace (nil: the packet ran, or no packet
	// matched), the lane of the vertex or thread in the trace's quad, the
	// vertex's SV_VertexID, and, when the choice named nothing the packet
	// ran (a vertex past the draw's count), why.
	Trace    *shader.Trace
	Lane     int
	VertexID uint32
	Miss     string
	done     bool
}

// SetShaderWatch sets the shader watch (nil: none).
func (g *GPU) SetShaderWatch(w *ShaderWatch) {
	g.mu.Lock()
	g.swatch = w
	g.mu.Unlock()
}

// shaderWatch is the watch when it asks for this packet's vertex (compute
// false) or thread (compute true) and has not been answered.
func (ex *executor) shaderWatch(compute bool) *ShaderWatch {
	w := ex.g.swatch
	if w == nil || w.done || w.Compute != compute || w.Match == nil || !w.Match(ex.dma, ex.swWord) {
		return nil
	}
	return w
}

// traceVertices starts tracing the vertex block i0 (n vertices of instance
// inst) when it holds the watched vertex: it returns the trace to run the
// block with, or nil.
func (ex *executor) traceVertices(m *shader.Machine, i0 uint32, n int, inst uint32) *shader.Trace {
	w := ex.shaderWatch(false)
	if w == nil || w.Instance != inst || w.Vertex < i0 || w.Vertex-i0 >= uint32(n) {
		return nil
	}
	j := int(w.Vertex - i0)
	t := &shader.Trace{Quad: j / 4}
	w.Lane = j % 4
	m.SetTrace(t)
	return t
}

// traceThread starts tracing group (gx, gy, gz) of a dispatch whose groups
// are tg threads (n in all) when it is the watched one: it returns the
// trace RunGroup follows the watched thread's block with, or nil.
func (ex *executor) traceThread(m *shader.Machine, gx, gy, gz uint32, tg [3]uint32, n int) *shader.Trace {
	if ex.g.swatch == nil {
		return nil
	}
	w := ex.shaderWatch(true)
	if w == nil || w.Group != [3]uint32{gx, gy, gz} {
		return nil
	}
	t := w.Thread
	if t[0] >= tg[0] || t[1] >= tg[1] || t[2] >= tg[2] {
		w.Miss = "the thread is outside the thread group"
		w.done = true
		return nil
	}
	idx := int(t[0] + t[1]*tg[0] + t[2]*tg[0]*tg[1])
	if idx >= n {
		return nil
	}
	tr := &shader.Trace{Quad: idx % shader.Lanes / 4}
	w.Lane = idx % 4
	m.SetTraceBlock(idx / shader.Lanes)
	m.SetTrace(tr)
	return tr
}

// endTrace finishes a trace the watch asked for.
func (ex *executor) endTrace(m *shader.Machine, t *shader.Trace) {
	t.Finish(m) // (RunGroup has finished it already: a second call does nothing)
	m.SetTrace(nil)
	w := ex.g.swatch
	w.Trace, w.done = t, true
}
