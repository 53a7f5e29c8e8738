package hlsl

import (
	"math"
	"sync"
)

// RunQuad runs a pixel program on the four invocations of a 2x2 quad
// (0 top left, 1 top right, 2 bottom left, 3 bottom right), which meet at
// each derivative instruction to exchange the value it reads: deriv_rtx
// and its coarse form take the top row's difference for the whole quad,
// the fine form each row's; deriv_rty likewise with columns ("deriv_rtx"
// and "deriv_rtx_fine", Shader Model 5 Assembly). An invocation that is
// elsewhere in the program, or done, gives no difference (0).
func RunQuad(p *Program, envs [4]*Env) ([4]*Output, [4]error) {
	q := &quad{arrived: [4]bool{}, done: [4]bool{}}
	q.cond = sync.NewCond(&q.mu)
	var outs [4]*Output
	var errs [4]error
	var wg sync.WaitGroup
	for i := range envs {
		e := *envs[i]
		lane := i
		e.Deriv = func(pc int, op Op, v [4]uint32) [4]uint32 { return q.meet(lane, pc, op, v) }
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[lane], errs[lane] = Run(p, &e)
			q.finish(lane)
		}()
	}
	wg.Wait()
	return outs, errs
}

type quad struct {
	mu      sync.Mutex
	cond    *sync.Cond
	arrived [4]bool
	done    [4]bool
	pc      [4]int
	v       [4][4]uint32
	op      Op  // the derivative the lanes meet at
	gen     int // meetings so far
	left    int // invocations still to collect the result of this meeting
	res     [4][4]uint32
}

func (q *quad) ready() bool {
	for i := range q.arrived {
		if !q.arrived[i] && !q.done[i] {
			return false
		}
	}
	return true
}

// meet waits for the other invocations at a derivative and returns this
// one's result.
func (q *quad) meet(lane, pc int, op Op, v [4]uint32) [4]uint32 {
	q.mu.Lock()
	defer q.mu.Unlock()
	for q.left > 0 { // a previous meeting is still handing out results
		q.cond.Wait()
	}
	gen := q.gen
	q.arrived[lane], q.pc[lane], q.v[lane], q.op = true, pc, v, op
	if q.ready() {
		q.compute(op)
	} else {
		for q.gen == gen {
			q.cond.Wait()
		}
	}
	r := q.res[lane]
	q.left--
	if q.left == 0 {
		q.cond.Broadcast()
	}
	return r
}

func (q *quad) compute(op Op) {
	var at [4]bool
	n := 0
	for i := range q.arrived {
		at[i] = q.arrived[i] && q.pc[i] == q.pc[firstArrived(q.arrived)]
		if q.arrived[i] {
			n++
		}
	}
	diff := func(a, b, lane int) [4]uint32 {
		var r [4]uint32
		if !at[a] || !at[b] {
			return r // no neighbour: no difference
		}
		for c := 0; c < 4; c++ {
			r[c] = math.Float32bits(math.Float32frombits(q.v[a][c]) - math.Float32frombits(q.v[b][c]))
		}
		return r
	}
	for lane := 0; lane < 4; lane++ {
		if !q.arrived[lane] {
			continue
		}
		row, col := lane/2, lane%2
		switch op {
		case OpDerivRtx, OpDerivRtxCoarse:
			q.res[lane] = diff(1, 0, lane)
		case OpDerivRtxFine:
			q.res[lane] = diff(2*row+1, 2*row, lane)
		case OpDerivRty, OpDerivRtyCoarse:
			q.res[lane] = diff(2, 0, lane)
		case OpDerivRtyFine:
			q.res[lane] = diff(2+col, col, lane)
		}
	}
	q.arrived = [4]bool{}
	q.left = n
	q.gen++
	q.cond.Broadcast()
}

func firstArrived(a [4]bool) int {
	for i, x := range a {
		if x {
			return i
		}
	}
	return 0
}

// finish marks an invocation done: a meeting waiting for it goes on.
func (q *quad) finish(lane int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.done[lane] = true
	for q.left > 0 {
		q.cond.Wait()
	}
	if q.ready() && anyArrived(q.arrived) {
		// The others wait at a derivative this one never reaches: they
		// meet without it.
		q.compute(q.op)
	}
	q.cond.Broadcast()
}

func anyArrived(a [4]bool) bool {
	for _, x := range a {
		if x {
			return true
		}
	}
	return false
}
