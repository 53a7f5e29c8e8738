package inspect

import (
	"fmt"
	"strconv"
	"strings"

	"d3dsim/core/d3d11"
	"d3dsim/core/scenario"
)

// Session answers the questions that need the machine as it was at an
// event — a resource's contents, a pixel's history, a shader's steps — by
// running the scenario again, deterministically, up to the API call the
// event belongs to: the same seed and options give the same run, so the
// copy is the run as it was. A Session holds no run between questions;
// each question costs a run of the scenario up to its event.
type Session struct {
	Script    *scenario.Script
	Overrides scenario.Overrides
}

// NewSession makes a session over a loaded scenario.
func NewSession(s *scenario.Script, o scenario.Overrides) *Session {
	return &Session{Script: s, Overrides: o}
}

// Run runs the scenario to its end with a journal, for the state query
// and for naming events: what the CLI does before it asks anything.
func (s *Session) Run() (*scenario.Run, *Journal) {
	r := scenario.NewRun(s.Script, s.Overrides)
	j := Record(r)
	r.Finish()
	return r, j
}

// replay runs the scenario again from the start until call index k has
// been made (the call the event belongs to), after setup has prepared the
// fresh run (a pixel watch). It returns the paused run and its journal.
func (s *Session) replay(k int, setup func(*scenario.Run, *Journal)) (*scenario.Run, *Journal, error) {
	r := scenario.NewRun(s.Script, s.Overrides)
	j := Record(r)
	if setup != nil {
		setup(r, j)
	}
	for j.Calls() <= k {
		if _, done := r.StepStatement(); done {
			break
		}
	}
	if j.Calls() <= k {
		return nil, nil, fmt.Errorf("inspect: the scenario made %d API calls, and call %d was asked for", j.Calls(), k)
	}
	return r, j, nil
}

// at resolves event seq to its call, in a journal of the whole run.
func (s *Session) at(j *Journal, seq uint64) (int, error) {
	k := j.callAt(seq)
	if k < 0 {
		return -1, fmt.Errorf("inspect: no API call at or before event %d", seq)
	}
	return k, nil
}

// resourceOf resolves a name of the scenario to the resource it names at
// the run's present point: a resource, a view's resource or a swap chain's
// buffer 0.
func resourceOf(r *scenario.Run, name string) (*d3d11.Resource, error) {
	switch o := r.Object(name).(type) {
	case *d3d11.Resource:
		return o, nil
	case *d3d11.View:
		return o.Res, nil
	case *d3d11.SwapChain:
		if len(o.Buffers) > 0 {
			return o.Buffers[0], nil
		}
	case nil:
		// A swap chain's buffer by the runtime's name for it: sc.buffer0.
		if i := strings.LastIndex(name, ".buffer"); i > 0 {
			if sc, ok := r.Object(name[:i]).(*d3d11.SwapChain); ok {
				if n, err := strconv.Atoi(name[i+len(".buffer"):]); err == nil && n >= 0 && n < len(sc.Buffers) {
					return sc.Buffers[n], nil
				}
			}
		}
		return nil, fmt.Errorf("inspect: %s names nothing at this event (not created yet, or its creating call failed)", name)
	}
	return nil, fmt.Errorf("inspect: %s is not a resource, a view or a swap chain", name)
}
