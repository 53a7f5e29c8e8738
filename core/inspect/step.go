package inspect

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"d3dsim/core/d3d11"
	"d3dsim/core/dxbc"
	"d3dsim/core/hlsl"
	"d3dsim/core/machine"
	"d3dsim/core/scenario"
)

// Steps is one pixel's run through a draw's pixel shader, instruction by
// instruction, as the GPU ran it: per step the GPU instruction, the DXBC
// instruction it was translated from and the HLSL line that one came from,
// which lanes of the pixel's 2x2 quad ran it and the registers it
// changed. Start holds every register of the quad before the first
// instruction (the interpolated inputs among them), so the registers at
// any step are Start with the writes of the steps before it: stepping
// backwards is as cheap as forwards.
type Steps struct {
	Event    uint64  `json:"event"`
	Draw     CallRef `json:"draw"`
	Resource string  `json:"resource"` // the render target the pixel is on
	X        int     `json:"x"`
	Y        int     `json:"y"`
	Stage    string  `json:"stage"`  // ps
	Shader   string  `json:"shader"` // the API object
	// Fragment is which of the draw's fragments at the pixel this is (0
	// the first; a draw whose triangles overlap has several), Fragments
	// how many there are.
	Fragment  int `json:"fragment"`
	Fragments int `json:"fragments"`
	Primitive int `json:"primitive"`
	// Lane is the pixel's lane in its quad (0 top left, 1 top right, 2
	// bottom left, 3 bottom right); Quad the quad's four pixels.
	Lane      int       `json:"lane"`
	Quad      [4][2]int `json:"quad"`
	Registers []string  `json:"registers"` // v0 (TEXCOORD0), o0 (SV_Target0), r0 ...
	// Start is the quad's registers before the first instruction: for
	// register i, component c, lane l, Start[(i*4+c)*4+l] (bits).
	Start     []uint32 `json:"start"`
	Steps     []Step   `json:"steps"`
	Truncated bool     `json:"truncated,omitempty"`
	Discarded bool     `json:"discarded,omitempty"`
	Passed    bool     `json:"passed"`
	// HLSL is the shader's source ("" when it has none), HLSLLine the
	// line of the scenario its first line is (0: not in the scenario).
	HLSL     string `json:"hlsl,omitempty"`
	HLSLLine int    `json:"hlslLine,omitempty"`
	Note     string `json:"note,omitempty"`
	// A vertex's (Stage vs): the draw's vertex (0 the first it fetched),
	// its instance and its SV_VertexID; a compute thread's (Stage cs): its
	// group (SV_GroupID) and its thread in the group (SV_GroupThreadID).
	Vertex   *uint32    `json:"vertex,omitempty"`
	Instance uint32     `json:"instance,omitempty"`
	VertexID uint32     `json:"vertexID,omitempty"`
	Group    *[3]uint32 `json:"group,omitempty"`
	Thread   *[3]uint32 `json:"thread,omitempty"`
}

// Step is one instruction the quad ran.
type Step struct {
	PC   int    `json:"pc"`
	ISA  string `json:"isa"`
	DXBC string `json:"dxbc,omitempty"`
	// DXBCIndex is the DXBC instruction's index (declarations counted),
	// Line the line of the HLSL it came from, 1 the HLSL's first (0:
	// unknown).
	DXBCIndex int     `json:"dxbcIndex"`
	Line      int     `json:"line,omitempty"`
	Active    bool    `json:"active"` // the pixel's lane ran it
	Quad      string  `json:"quad"`   // the quad's lanes that ran it, lane 0 first: "1101"
	Writes    []Write `json:"writes,omitempty"`
}

// Write is one register component an instruction changed in a lane of
// the quad.
type Write struct {
	Reg   int    `json:"reg"` // index into Registers
	Name  string `json:"name"`
	Comp  int    `json:"comp"`
	Lane  int    `json:"lane"`
	Bits  uint32 `json:"bits"`
	Value string `json:"value"` // as a float, and as an integer when it is not a plain float
}

// StepPixel traces the pixel shader of the draw at event seq at pixel (x,
// y) of its render target rt (""; render target 0). fragment chooses among
// the draw's fragments there (-1: the last that was written, else the
// last).
func (s *Session) StepPixel(j *Journal, seq uint64, rt string, x, y, fragment int) (*Steps, error) {
	a, err := s.StepQuery(j, seq, rt, x, y, fragment).Run()
	if err != nil {
		return nil, err
	}
	return a.(*Steps), nil
}

// StepQuery is StepPixel as a query the page runs a slice at a time.
func (s *Session) StepQuery(j *Journal, seq uint64, rt string, x, y, fragment int) *Query {
	return s.StepQueryAt(j, seq, rt, nil, x, y, fragment)
}

// StepPixelAt is StepPixel at pixel (x, y) of subresource sub of rt's
// resource (a layered draw's slice; nil: what rt shows).
func (s *Session) StepPixelAt(j *Journal, seq uint64, rt string, sub *Subresource, x, y, fragment int) (*Steps, error) {
	a, err := s.StepQueryAt(j, seq, rt, sub, x, y, fragment).Run()
	if err != nil {
		return nil, err
	}
	return a.(*Steps), nil
}

// StepQueryAt is StepPixelAt as a query the page runs a slice at a time.
func (s *Session) StepQueryAt(j *Journal, seq uint64, rt string, sub *Subresource, x, y, fragment int) *Query {
	k, err := s.at(j, seq)
	if err != nil {
		return failed(err)
	}
	c := j.calls.at(k)
	name := j.methods[c.method]
	if !strings.HasPrefix(name, "Draw") || c.ctx < 0 || j.ctxs[c.ctx] != j.ctxs[c.ctx].Device().ImmediateContext() {
		return failed(fmt.Errorf("inspect: event %d is %s: stepping a pixel needs a Draw on the immediate context", seq, name))
	}
	si := j.stateAt(c.ctx, k)
	if si < 0 {
		return failed(fmt.Errorf("inspect: the journal holds no state of the draw's context at event %d", seq))
	}
	b := j.states[si].b
	if b.PS == nil {
		return failed(fmt.Errorf("inspect: the draw at event %d has no pixel shader bound", seq))
	}
	if rt == "" {
		for _, v := range b.RTV {
			if v != nil {
				rt = v.Res.Name()
				break
			}
		}
		if rt == "" {
			return failed(fmt.Errorf("inspect: the draw at event %d has no render target bound", seq))
		}
	}
	traced := func(rj *Journal, dma uint64, word int) bool { return rj.packetCall(dma, word) == k }
	return s.watchQuery(j, k, seq, rt, sub, x, y, traced, func(w *watched) (any, error) {
		return steps(j, k, seq, b, rt, x, y, fragment, w)
	})
}

// steps makes the Steps of the traced fragment the watched run saw.
func steps(j *Journal, k int, seq uint64, b *d3d11.Bindings, rt string, x, y, fragment int, w *watched) (*Steps, error) {
	h, evs := w.h, w.evs
	// The draw's fragments at the pixel, in order.
	var frags []*machine.Fragment
	for i, e := range evs {
		if e.ev.Fragment != nil && h.Entries[i].Call != nil && h.Entries[i].Call.Index == k {
			frags = append(frags, e.ev.Fragment)
		}
	}
	if len(frags) == 0 {
		return nil, fmt.Errorf("inspect: the draw at event %d covers no fragment at %d,%d of %s", seq, x, y, rt)
	}
	pick := fragment
	if pick < 0 || pick >= len(frags) {
		pick = len(frags) - 1
		if fragment < 0 {
			for i := len(frags) - 1; i >= 0; i-- {
				if frags[i].Passed {
					pick = i
					break
				}
			}
		}
	}
	f := frags[pick]
	out := &Steps{Event: seq, Draw: j.callRef(k), Resource: rt, X: x, Y: y, Stage: "ps", Shader: b.PS.Name(),
		Fragment: pick, Fragments: len(frags), Primitive: f.Prim, Lane: f.Lane, Discarded: f.Discarded, Passed: f.Passed}
	qx, qy := x&^1, y&^1
	out.Quad = [4][2]int{{qx, qy}, {qx + 1, qy}, {qx, qy + 1}, {qx + 1, qy + 1}}
	tr := f.Trace
	if tr == nil {
		return nil, fmt.Errorf("inspect: the fragment at %d,%d was not traced (the draw ran no pixel program there)", x, y)
	}
	traceSteps(out, j.run, b.PS, tr, f.Lane)
	return out, nil
}

// traceSteps fills out's registers and steps from trace tr of shader sh
// (run's), for the lane of the quad followed.
func traceSteps(out *Steps, run *scenario.Run, sh *d3d11.Shader, tr *machine.ShaderTrace, lane int) {
	out.Registers = registerNames(sh, tr.Regs, tr.Inputs, tr.Outputs)
	out.Start = tr.Start
	out.Truncated = tr.Truncated
	isaText, source, dxbcText := []string(nil), []int(nil), []string(nil)
	if code, ok := machine.ShaderCode(sh.Device(), sh); ok {
		isaText, source, dxbcText = code.StepTexts()
	} else {
		out.Note = "the driver did not say what it made of the shader: no GPU or DXBC instructions"
	}
	lines := hlslLines(run, sh, dxbcText)
	if info := shaderInfo(run, sh); info != nil {
		out.HLSL, out.HLSLLine = info.HLSL, info.HLSLLine
	}
	for _, ts := range tr.Steps {
		st := Step{PC: ts.PC, DXBCIndex: -1, Active: ts.Active>>lane&1 != 0}
		for l := range 4 {
			if ts.Active>>l&1 != 0 {
				st.Quad += "1"
			} else {
				st.Quad += "0"
			}
		}
		if ts.PC < len(isaText) {
			st.ISA = isaText[ts.PC]
		}
		if ts.PC < len(source) {
			st.DXBCIndex = source[ts.PC]
			if st.DXBCIndex >= 0 && st.DXBCIndex < len(dxbcText) {
				st.DXBC = dxbcText[st.DXBCIndex]
			}
			if st.DXBCIndex >= 0 && st.DXBCIndex < len(lines) {
				st.Line = lines[st.DXBCIndex]
			}
		}
		for _, w := range ts.Writes {
			st.Writes = append(st.Writes, Write{Reg: int(w.Reg), Name: regComp(out.Registers, int(w.Reg), int(w.Comp)), Comp: int(w.Comp), Lane: int(w.Lane),
				Bits: w.Value, Value: bitsText(w.Value)})
		}
		out.Steps = append(out.Steps, st)
	}
}

// registerNames names the traced register file: inputs and outputs with
// their semantics, then temps.
func registerNames(sh *d3d11.Shader, regs, inputs, outputs int) []string {
	names := make([]string, regs)
	for i := range regs {
		switch {
		case i < inputs:
			names[i] = "v" + strconv.Itoa(i) + semantic(sh.Inputs, i)
		case i < inputs+outputs:
			names[i] = "o" + strconv.Itoa(i-inputs) + semantic(sh.Outputs, i-inputs)
		default:
			names[i] = "r" + strconv.Itoa(i-inputs-outputs)
		}
	}
	return names
}

// semantic is " (NAME)" of the signature's elements in register reg.
func semantic(sig *dxbc.Signature, reg int) string {
	if sig == nil {
		return ""
	}
	var parts []string
	for _, e := range sig.Elements {
		if int(e.Register) == reg {
			parts = append(parts, e.Name+strconv.Itoa(int(e.Index)))
		}
	}

	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

func regComp(names []string, r, c int) string {
	n := "?"
	if r < len(names) {
		n = names[r]
		if i := strings.IndexByte(n, ' '); i >= 0 {
			n = n[:i]
		}
	}
	return n + "." + "xyzw"[c:c+1]
}

// bitsText prints register bits as a float, with the integer beside it
// when the bits are not a plain float (an integer or a mask).
func bitsText(x uint32) string {
	f := math.Float32frombits(x)
	s := strconv.FormatFloat(float64(f), 'g', 7, 32)
	e := x >> 23 & 0xFF
	if x != 0 && (e == 0 || e == 0xFF) {
		s += fmt.Sprintf(" (0x%08x = %d)", x, int32(x))
	}
	return s
}

// shaderInfo finds what the run noted of shader sh (its HLSL).
func shaderInfo(r *scenario.Run, sh *d3d11.Shader) *scenario.ShaderInfo {
	list, _ := r.Shaders()
	for i := len(list) - 1; i >= 0; i-- {
		if list[i].Obj == sh.Name() {
			return &list[i]
		}
	}
	return nil
}

// hlslLines gives each DXBC instruction (declarations counted, in the
// order of dxbcText) the HLSL line it came from, by compiling the shader's
// HLSL again: the compiler's instructions carry their lines, one per DXBC
// instruction after the declarations. Nil when the shader has no HLSL or
// the counts disagree.
func hlslLines(r *scenario.Run, sh *d3d11.Shader, dxbcText []string) []int {
	info := shaderInfo(r, sh)
	if info == nil || info.HLSL == "" || info.Entry == "" || info.Target == "" {
		return nil
	}
	res, err := hlsl.CompileWith([]byte(info.HLSL), info.Block, info.Entry, info.Target, hlsl.Limits{Flags: info.Flags})
	if err != nil || res.Program == nil {
		return nil
	}
	var body []int
	for i, t := range dxbcText {
		if !strings.HasPrefix(t, "dcl_") {
			body = append(body, i)
		}
	}
	code := res.Program.Code
	if len(code) != len(body) {
		return nil
	}
	lines := make([]int, len(dxbcText))
	for k, i := range body {
		lines[i] = code[k].Line
	}
	return lines
}
