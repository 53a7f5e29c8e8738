package inspect

import (
	"errors"
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

// Query is a question on its way to its answer: a copy of the run going
// to the event's API call, then the answer made from it. Step runs it a
// slice at a time (the page, which must keep answering); Run to the end
// (the CLI, the tests).
type Query struct {
	r      *scenario.Run
	j      *Journal
	k      int
	finish func(r *scenario.Run, j *Journal) (any, error)
	answer any
	err    error
	done   bool
	steps  int // statements run so far
	// again makes the question again another way when finish answers
	// errSpoiled (a clipped pixel watch: history.go).
	again func() *Query
}

// query starts a question: a fresh run of the scenario, prepared by setup
// (a pixel watch), that stops once call index k has been made (the call
// the event belongs to); then finish makes the answer.
func (s *Session) query(k int, setup func(*scenario.Run, *Journal), finish func(*scenario.Run, *Journal) (any, error)) *Query {
	r := scenario.NewRun(s.Script, s.Overrides)
	j := Record(r)
	if setup != nil {
		setup(r, j)
	}
	return &Query{r: r, j: j, k: k, finish: finish}
}

// failed is a query answered by an error before it ran.
func failed(err error) *Query { return &Query{err: err, done: true} }

// Step runs the query for at most l's calls and statements (0: no bound of
// that kind) or until l.Over says stop, and reports whether it is answered.
func (q *Query) Step(l scenario.SliceLimits) bool {
	if q.done {
		return true
	}
	calls, stmts := 0, 0
	for q.j.Calls() <= q.k {
		call, done := q.r.StepStatement()
		stmts++
		q.steps++
		if call {
			calls++
		}
		if done {
			break
		}
		if l.Calls > 0 && calls >= l.Calls || l.Statements > 0 && stmts >= l.Statements || l.Over != nil && l.Over() {
			if q.j.Calls() <= q.k {
				return false
			}
		}
	}
	if q.j.Calls() <= q.k {
		q.err = fmt.Errorf("inspect: the scenario made %d API calls, and call %d was asked for", q.j.Calls(), q.k+1)
	} else {
		q.answer, q.err = q.finish(q.r, q.j)
	}
	if errors.Is(q.err, errSpoiled) && q.again != nil {
		n := q.again()
		q.r, q.j, q.finish, q.err, q.again = n.r, n.j, n.finish, n.err, nil
		if n.done {
			q.answer, q.done = n.answer, true
			return true
		}
		return false // (the slices go on with the unclipped copy)
	}
	q.done, q.r, q.j = true, nil, nil
	return true
}

// Run runs the query to its answer.
func (q *Query) Run() (any, error) {
	for !q.Step(scenario.SliceLimits{}) {
	}
	return q.answer, q.err
}

// Answer is the answer once Step said so.
func (q *Query) Answer() (any, error) { return q.answer, q.err }

// Progress is how many of the statements of the run the query has made
// so far, and the call it runs to (its index among the calls).
func (q *Query) Progress() (statements, call int) { return q.steps, q.k }

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
