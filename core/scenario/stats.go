package scenario

import (
	"d3dsim/core/d3d11"
	"d3dsim/core/hresult"
	"d3dsim/core/machine"
)

// GPUStats returns the simulated GPU's counters (for benchmarks).
func (r *Run) GPUStats() machine.GPUStats { return r.mach.GPUStats() }

// VirtualTime is the main thread's virtual time in nanoseconds.
func (r *Run) VirtualTime() int64 { return r.sim.ThreadTime("main") }

// QueryResult is what one GetData answered: rule ASYNC-SAME compares them
// between the synchronous, in-order and out-of-order runs of a scenario.
type QueryResult struct {
	Line  int    // the statement
	N     int    // how many times that statement ran before (repeat blocks)
	Query string // the scenario's name of the query
	Type  string // EVENT, OCCLUSION or TIMESTAMP
	HR    string // S_OK, S_FALSE or an error
	Value uint64 // the data, when HR is S_OK (its first member)
	// Data is the whole of the data (PIPELINE_STATISTICS'
	// IAVertices=... CSInvocations=..., TIMESTAMP_DISJOINT's Frequency and
	// Disjoint), when HR is S_OK.
	Data string
}

// QueryResults returns every GetData so far, in order.
func (r *Run) QueryResults() []QueryResult { return r.queries }

func (r *Run) recordQuery(x *call, d d3d11.QueryData, hr hresult.HRESULT, err error) {
	v := d.Value()
	q := QueryResult{Line: x.st.Line, Query: r.names[x.query(0)], Value: v, HR: hr.Name()}
	if hr == hresult.S_OK && err == nil {
		q.Data = d.String()
	}
	if err != nil {
		q.HR = hresult.Of(err).Name()
	}
	if r.queryRuns == nil {
		r.queryRuns = map[int]int{}
	}
	if r.cur != nil && r.cur.polling() {
		// An until loop's next poll asks the same question again:
		// the modes compare the answer each got in the end.
		q.N = max(r.queryRuns[q.Line]-1, 0)
	} else {
		q.N = r.queryRuns[q.Line]
		r.queryRuns[q.Line]++
	}
	if qq := x.query(0); qq != nil {
		now := hr
		if err != nil {
			now = hresult.Of(err)
		}
		r.qdata[qq] = queryData{line: q.Line, hr: now, value: v, data: d}
	}
	if x.query(0) != nil {
		q.Type = x.query(0).Type.String()
	}
	if n := len(r.queries); n > 0 && r.queries[n-1].Line == q.Line && r.queries[n-1].N == q.N {
		// Another poll of the same question replaces the last: a loop
		// of a billion polls keeps one result, not a billion.
		r.queries[n-1] = q
		return
	}
	r.queries = append(r.queries, q)
}
