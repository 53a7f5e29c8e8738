package shader

// Tracing: a Machine with a Trace records, for one quad of its block, the
// instructions it runs and every register change they make, so a debugger
// can step through one pixel's (or vertex's) program forwards and
// backwards, with its quad's neighbours for derivatives. Off (no Trace,
// the default), Run pays one nil check per instruction.

// DefaultTraceSteps bounds the instructions a Trace keeps.
const DefaultTraceSteps = 16384

// Trace is the record of one quad through one Run.
type Trace struct {
	// Quad is the quad followed: lanes 4*Quad .. 4*Quad+3 (QuadLane). Set
	// before the run.
	Quad int
	// Limit is the most steps kept (0: DefaultTraceSteps); past it the
	// trace stops and Truncated is set.
	Limit int

	// Regs is the register file's size: inputs, then outputs, then temps,
	// as the program declares them (Inputs, Outputs).
	Regs, Inputs, Outputs int
	// Start is the quad's registers when the program began: word
	// Index(reg, comp, lane).
	Start []uint32
	// Steps are the instructions run, in order; each carries the changes
	// it made.
	Steps     []TraceStep
	Truncated bool

	cur  []uint32 // the registers as of the last step
	done bool     // Finish was called
}

// TraceStep is one instruction the block ran.
type TraceStep struct {
	PC     int
	Active uint8 // lanes of the quad that run it (bit l: lane 4*Quad+l)
	Alive  uint8 // lanes of the quad not discarded so far
	// Writes are the registers it changed, in the order of Index.
	Writes []RegWrite
}

// RegWrite is one register component of one lane of the quad.
type RegWrite struct {
	Reg   uint32 // 0..Regs-1: inputs, outputs, temps
	Comp  uint8
	Lane  uint8 // 0..3 within the quad
	Value uint32
}

// Index is where register reg's component comp of lane (0..3) is in Start.
func Index(reg, comp, lane int) int { return (reg*4+comp)*4 + lane }

// SetTrace has the machine record into t on its next runs (nil: stop).
func (m *Machine) SetTrace(t *Trace) { m.trace = t }

// before records that the block is about to run instruction pc with the
// execution mask mask, alive lanes not discarded: the changes since the
// last step are that step's.
func (t *Trace) before(m *Machine, pc int, mask, alive uint64) {
	if t.done || t.Truncated {
		return
	}
	if t.cur == nil {
		t.begin(m)
	} else {
		t.settle(m)
	}
	limit := t.Limit
	if limit <= 0 {
		limit = DefaultTraceSteps
	}
	if len(t.Steps) >= limit {
		t.Truncated = true
		return
	}
	sh := uint(4 * t.Quad)
	t.Steps = append(t.Steps, TraceStep{PC: pc, Active: uint8(mask >> sh & 0xF), Alive: uint8(alive >> sh & 0xF)})
}

// Finish records the last instruction's changes: call it after Run.
func (t *Trace) Finish(m *Machine) {
	if t.done {
		return
	}
	if t.cur == nil {
		t.begin(m) // the program ran no instruction
	} else if !t.Truncated {
		t.settle(m)
	}
	t.done = true
}

func (t *Trace) begin(m *Machine) {
	p := m.prog
	t.Regs, t.Inputs, t.Outputs = len(m.regs), p.Inputs, p.Outputs
	t.Start = make([]uint32, 16*t.Regs)
	t.read(m, t.Start)
	t.cur = append([]uint32(nil), t.Start...)
}

// read copies the quad's registers into dst.
func (t *Trace) read(m *Machine, dst []uint32) {
	q := 4 * t.Quad
	for r := range m.regs {
		v := &m.regs[r]
		for c := range 4 {
			copy(dst[Index(r, c, 0):Index(r, c, 0)+4], v[c][q:q+4])
		}
	}
}

// settle attributes the changes since the last read to the last step.
func (t *Trace) settle(m *Machine) {
	if len(t.Steps) == 0 {
		return
	}
	st := &t.Steps[len(t.Steps)-1]
	q := 4 * t.Quad
	for r := range m.regs {
		v := &m.regs[r]
		for c := range 4 {
			for l := range 4 {
				i := Index(r, c, l)
				if x := v[c][q+l]; x != t.cur[i] {
					t.cur[i] = x
					st.Writes = append(st.Writes, RegWrite{Reg: uint32(r), Comp: uint8(c), Lane: uint8(l), Value: x})
				}
			}
		}
	}
}

// At returns the quad's registers just before step i runs (i ==
// len(Steps): after the last), replaying the writes from Start.
func (t *Trace) At(i int) []uint32 {
	regs := append([]uint32(nil), t.Start...)
	for _, s := range t.Steps[:min(max(i, 0), len(t.Steps))] {
		for _, w := range s.Writes {
			regs[Index(int(w.Reg), int(w.Comp), int(w.Lane))] = w.Value
		}
	}
	return regs
}
