package scenario

// stmtMemo is what a call statement found in the run's names — the object
// its target names, its method, that its object arguments are set, whether
// the method is void, and the latest of their creations by another thread
// (handOff) — kept until the next bind changes a name. A statement run in a
// loop then looks nothing up: a name's look-up hashes its string, which
// WebAssembly does in software (no AES hash), and the draws scene's target
// look-up alone was 3% of its WebAssembly profile.
type stmtMemo struct {
	s      *Call
	t      *thread
	binds  uint64 // Run.binds when it was made
	tgt    any
	m      *method
	made   signalled // the latest creation by another thread of a name s uses
	madeOf string    // that name ("": none)
	void   bool      // a method call of a void method (d3d11.VoidMethod)
	draw   bool      // a Draw* call (noteDraw)
	lead   int       // its leading positional arguments, before any Key=... (call.lead)
}

// memoFor is s's slot in the run's memo (a direct-mapped table by position)
// and whether it holds s, on t, as of the last bind.
func (r *Run) memoFor(t *thread, s *Call) (*stmtMemo, bool) {
	m := &r.memos[uint(s.Line*7+s.Col)%uint(len(r.memos))]
	return m, m.s == s && m.t == t && m.binds == r.binds
}
