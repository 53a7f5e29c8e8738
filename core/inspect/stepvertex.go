package inspect

import (
	"fmt"
	"strconv"
	"strings"

	"d3dsim/core/machine"
	"d3dsim/core/scenario"
)

// Stepping a vertex of a draw through its vertex shader, and a thread of a
// dispatch through its compute shader, as StepPixel steps a pixel: the
// scenario runs again up to the draw or dispatch with the GPU's shader
// watch on it (gpu/shaderwatch.go); the GPU traces the block of lanes that
// holds the vertex or thread, and the steps are its quad's, the chosen lane
// marked. A vertex's quad is the four vertices shaded beside it, a thread's
// the four threads beside it: no derivatives, but the neighbours' values
// are there.

// StepVertex traces vertex v (the draw's v-th, 0 the first it fetched) of
// instance inst of the draw at event seq through its vertex shader.
func (s *Session) StepVertex(j *Journal, seq uint64, v, inst uint32) (*Steps, error) {
	a, err := s.StepVertexQuery(j, seq, v, inst).Run()
	if err != nil {
		return nil, err
	}
	return a.(*Steps), nil
}

// StepThread traces thread t (SV_GroupThreadID) of group g (SV_GroupID) of
// the dispatch at event seq through its compute shader.
func (s *Session) StepThread(j *Journal, seq uint64, g, t [3]uint32) (*Steps, error) {
	a, err := s.StepThreadQuery(j, seq, g, t).Run()
	if err != nil {
		return nil, err
	}
	return a.(*Steps), nil
}

// StepVertexQuery is StepVertex as a query the page runs a slice at a time.
func (s *Session) StepVertexQuery(j *Journal, seq uint64, v, inst uint32) *Query {
	k, err := s.shaderCall(j, seq, "Draw", "a vertex")
	if err != nil {
		return failed(err)
	}
	c := j.calls.at(k)
	si := j.stateAt(c.ctx, k)
	if si < 0 {
		return failed(fmt.Errorf("inspect: the journal holds no state of the draw's context at event %d", seq))
	}
	b := j.states[si].b
	if b.VS == nil {
		return failed(fmt.Errorf("inspect: the draw at event %d has no vertex shader bound", seq))
	}
	w := &machine.ShaderWatch{Vertex: v, Instance: inst}
	return s.shaderWatchQuery(k, seq, w, func(r *scenario.Run, rj *Journal) (any, error) {
		if w.Trace == nil {
			return nil, fmt.Errorf("inspect: the draw at event %d shaded no vertex %d of instance %d (vertices and instances count from 0: is it past the draw's count?)", seq, v, inst)
		}
		out := &Steps{Event: seq, Draw: j.callRef(k), Stage: "vs", Shader: b.VS.Name(), Lane: w.Lane, Passed: true}
		out.Vertex, out.Instance, out.VertexID = &v, inst, w.VertexID
		traceSteps(out, j.run, b.VS, w.Trace, w.Lane)
		return out, nil
	})
}

// StepThreadQuery is StepThread as a query the page runs a slice at a time.
func (s *Session) StepThreadQuery(j *Journal, seq uint64, g, t [3]uint32) *Query {
	k, err := s.shaderCall(j, seq, "Dispatch", "a compute thread")
	if err != nil {
		return failed(err)
	}
	w := &machine.ShaderWatch{Compute: true, Group: g, Thread: t}
	return s.shaderWatchQuery(k, seq, w, func(r *scenario.Run, rj *Journal) (any, error) {
		// The copy stopped right after the dispatch: its context's compute
		// shader is the one the dispatch ran.
		cs := rj.ctxs[rj.calls.at(k).ctx].ComputeShader()
		switch {
		case cs == nil:
			return nil, fmt.Errorf("inspect: the dispatch at event %d has no compute shader bound", seq)
		case w.Miss != "":
			return nil, fmt.Errorf("inspect: thread %d,%d,%d of group %d,%d,%d of the dispatch at event %d: %s", t[0], t[1], t[2], g[0], g[1], g[2], seq, w.Miss)
		case w.Trace == nil:
			return nil, fmt.Errorf("inspect: the dispatch at event %d ran no group %d,%d,%d (groups count from 0: is it past the dispatch's count?)", seq, g[0], g[1], g[2])
		}
		out := &Steps{Event: seq, Draw: j.callRef(k), Stage: "cs", Shader: cs.Name(), Lane: w.Lane, Passed: true}
		out.Group, out.Thread = &g, &t
		traceSteps(out, r, cs, w.Trace, w.Lane)
		// The thread's ids, in the input registers the GPU fills
		// (gpu/compute.go).
		for i, id := range []string{"SV_DispatchThreadID", "SV_GroupID", "SV_GroupThreadID", "SV_GroupIndex"} {
			if i < w.Trace.Inputs && i < len(out.Registers) && out.Registers[i] == "v"+strconv.Itoa(i) {
				out.Registers[i] += " (" + id + ")"
			}
		}
		return out, nil
	})
}

// shaderCall is the call index of event seq when it is a call of a method
// starting with prefix (Draw, Dispatch) on an immediate context.
func (s *Session) shaderCall(j *Journal, seq uint64, prefix, what string) (int, error) {
	k, err := s.at(j, seq)
	if err != nil {
		return -1, err
	}
	c := j.calls.at(k)
	name := j.methods[c.method]
	if !strings.HasPrefix(name, prefix) || c.ctx < 0 || j.ctxs[c.ctx] != j.ctxs[c.ctx].Device().ImmediateContext() {
		return -1, fmt.Errorf("inspect: event %d is %s: stepping %s needs a %s on the immediate context", seq, name, what, prefix)
	}
	return k, nil
}

// shaderWatchQuery runs the scenario to call k with the shader watch w on
// its packet, lets the GPU finish the work before the event, and answers.
func (s *Session) shaderWatchQuery(k int, seq uint64, w *machine.ShaderWatch, answer func(*scenario.Run, *Journal) (any, error)) *Query {
	var m *machine.Machine
	setup := func(r *scenario.Run, rj *Journal) {
		m = r.Machine()
		w.Match = func(dma uint64, word int) bool { return rj.packetCall(dma, word) == k }
		m.SetShaderWatch(w)
	}
	return s.query(k, setup, func(r *scenario.Run, rj *Journal) (any, error) {
		err := r.Settle()
		m.SetShaderWatch(nil)
		if err != nil {
			return nil, fmt.Errorf("inspect: the GPU cannot finish the work before event %d: %v", seq, err)
		}
		return answer(r, rj)
	})
}
