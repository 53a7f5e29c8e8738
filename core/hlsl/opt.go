package hlsl

// The optimiser runs over the IR once the whole entry point is lowered.
// First every web of a temp gets a register of its own (opt_webs.go), so
// that the passes after it can count a value's reads; then, in rounds
// while one of them changes something (a few at most):
//
//   - copy propagation and constant folding (opt_copy.go)
//   - dead code (opt_dce.go)
//   - results written where a mov would copy them (opt_copy.go), lanes
//     of a vector too (opt_lanes.go)
//   - mul then add fused into mad (opt_mad.go)
//   - common subexpressions (opt_cse.go)
//   - short ifs flattened into movc (opt_flatten.go)
//   - movs into one register merged (opt_movs.go)
//   - conditions read through a not (opt_cond.go)
//   - an if around a discard folded into it (opt_discard.go)
//   - one-lane instructions vectorised (opt_slp.go)
//
// then loops whose trips are known unrolled, one at a time, the rounds
// run again after each (opt_unroll.go);
// then copies coalesced (opt_coalesce.go) with the first three again, and
// the temps renumbered densely (opt_temps.go). Each pass keeps an
// instruction's source line (a merged instruction the first one's). Each
// has tests of its own (opt_passes_test.go), and every shader of the
// tests, with random programs, computes the same optimised as generated
// (opt_test.go).

// maxOptRounds bounds the rounds; maxUnrolls the loops unrolled.
const (
	maxOptRounds = 8
	maxUnrolls   = 16
)

// pass is one transformation: the code and temps after it, whether it
// changed anything.
type pass func(code []Instr, temps int) ([]Instr, int, bool)

func simple(f func([]Instr, int) ([]Instr, bool)) pass {
	return func(code []Instr, temps int) ([]Instr, int, bool) {
		code, ch := f(code, temps)
		return code, temps, ch
	}
}

var (
	mainPasses = []pass{simple(copyProp), simple(deadCode), simple(forwardResults), simple(forwardLanes), simple(fuseMad),
		simple(commonSubexprs), flatten, simple(func(c []Instr, _ int) ([]Instr, bool) { return mergeMovs(c) }),
		simple(func(c []Instr, _ int) ([]Instr, bool) { return invertConds(c) }),
		simple(func(c []Instr, _ int) ([]Instr, bool) { return foldDiscards(c) }), vectorize}
	finalPasses = []pass{simple(coalesce), simple(copyProp), simple(deadCode), simple(forwardResults), simple(forwardLanes)}
)

// optimize returns the code improved and the temps it needs.
func optimize(code []Instr, temps int) ([]Instr, int) {
	if d, _ := hasDoubles(code); noOptimize || d {
		// (a shader with doubles stays as generated: double.go)
		return code, temps
	}
	code, temps = splitWebs(code, temps)
	code, temps = runPasses(code, temps, mainPasses)
	// Each loop unrolled is folded before the next (an outer loop's
	// counter may be known only once an inner one is gone).
	for n := 0; n < maxUnrolls; n++ {
		var ch bool
		if code, ch = unrollLoops(code, temps); !ch {
			break
		}
		code, temps = splitWebs(code, temps)
		code, temps = runPasses(code, temps, mainPasses)
	}
	code, temps = runPasses(code, temps, finalPasses)
	code, temps = renumberTemps(code, temps)
	tidySwizzles(code)
	return code, temps
}

// runPasses runs the passes in turn, round after round, until a round
// changes nothing (or maxOptRounds). A pass that changed nothing is not run
// again until another pass changes the code: it would find the same code
// and change nothing again (each pass is a function of the code and the
// temps), and most rounds change little — the last one nothing at all.
// runEveryPass, set by a test, runs every pass every round (what the
// skipping must not change).
var runEveryPass bool

func runPasses(code []Instr, temps int, passes []pass) ([]Instr, int) {
	version := 1                      // counts the changes
	still := make([]int, len(passes)) // the version a pass last changed nothing at (0: none)
	for round := 0; round < maxOptRounds; round++ {
		any := false
		for k, p := range passes {
			if still[k] == version && !runEveryPass {
				continue
			}
			var ch bool
			before := temps
			code, temps, ch = p(code, temps)
			if ch || temps != before {
				version++
				any = any || ch
				continue
			}
			still[k] = version
		}
		if !any {
			break
		}
	}
	return code, temps
}

// tidySwizzles writes the lanes of a source an instruction does not read
// as fxc does, repeating the first lane read (`r0.xyxx` for .xy).
func tidySwizzles(code []Instr) {
	for i := range code {
		x := &code[i]
		for k := range x.Src {
			o := &x.Src[k]
			if o.File == FileImm || texOp(x.Op) && k > 0 {
				continue
			}
			lanes := x.readLanes(k)
			if lanes == 0 || lanes == 0xf {
				continue
			}
			first := o.Swz[firstLane(lanes)]
			for c := 0; c < 4; c++ {
				if lanes&(1<<c) == 0 {
					o.Swz[c] = first
				}
			}
		}
	}
}

// noOptimize, set by a test, leaves the code as generated (the
// optimiser's tests compare the two).
var noOptimize bool
