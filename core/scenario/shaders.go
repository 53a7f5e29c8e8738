package scenario

import (
	"crypto/sha256"

	"d3dsim/core/builtins"
	"d3dsim/core/d3d11"
	"d3dsim/core/dxbc"
	"d3dsim/core/hlsl"
	"d3dsim/core/machine"
	"d3dsim/core/trace"
)

// The shaders a run created, for the page's Shaders view: where each one's
// code came from (an hlsl block, bytecode, a built-in shader), what the
// UMD made of it and which draws ran it. Noted as the run goes, from the
// calls themselves (a CreateVertexShader or CreatePixelShader that
// succeeded, a Draw* on a context with shaders bound), never recomputed.

// Where a shader's code came from (ShaderInfo.Source).
const (
	ShaderHLSL     = "hlsl"     // hlsl:NAME, compiled from the scenario's hlsl block when it loaded
	ShaderBytecode = "bytecode" // bytes:HEX or fxc:NAME, compiled elsewhere
	ShaderBuiltin  = "builtin"  // builtin:NAME, HLSL of assets/shaders compiled at load
)

// Bounds on what a run keeps: a loop that creates shaders or draws
// millions of times keeps the first ones and counts the rest.
const (
	MaxShaderInfos = 1000 // shaders kept in full (ShaderBook.Dropped counts the others)
	MaxShaderDraws = 1000 // draws kept per shader (ShaderInfo.DrawCount counts them all)
	// What the UMD made of a shader is kept once per distinct bytecode
	// and stage, for at most MaxShaderCodes of them and about
	// MaxShaderCodeBytes (32 bytes of translation per byte of
	// bytecode): a loop creating and releasing one shader keeps one, and
	// 1,000 distinct 60,000-word programs no longer keep 7.8 MB each.
	MaxShaderCodes     = 64
	MaxShaderCodeBytes = 128 << 20
)

// ShaderInfo is one shader the run created.
type ShaderInfo struct {
	Obj     string // the API object: the scenario's name for it
	Stage   string // "vs" or "ps"
	Source  string // ShaderHLSL, ShaderBytecode or ShaderBuiltin
	Builtin string // builtin:NAME's NAME
	// HLSL is the text the shader was compiled from ("" when none): the
	// whole hlsl block, which may hold more entry points than Entry.
	// Any source may carry one (a built-in program written in HLSL too).
	HLSL          string
	HLSLLine      int    // the text's first line in the scenario (0: not in it)
	Block         string // the hlsl or fxc block's name
	Entry, Target string // the hlsl block's entry point and profile
	// Flags: the hlsl block's flags= (D3DCompile's, fxc's /Gec).
	Flags hlsl.Flags
	// Bytecode is the DXBC the runtime was given (nil for a built-in).
	// Shared with the scenario: read only.
	Bytecode []byte
	// Code is what the UMD made of it, read once it was created (Driver
	// false: the driver did not say, or CodeDropped). Shared by the
	// shaders of the same bytecode and stage.
	Code   machine.DriverShader
	Driver bool
	// CodeDropped: the run already keeps MaxShaderCodes distinct
	// translations (or MaxShaderCodeBytes), and not this one's.
	CodeDropped bool

	Seq       uint64       // the creating call's API event (0: not in the trace any more)
	Line      int          // the creating statement's line
	Draws     []ShaderDraw // the first MaxShaderDraws draws that ran it
	DrawCount int          // draws that ran it, all of them
}

// ShaderDraw is one Draw, DrawIndexed, DrawInstanced or
// DrawIndexedInstanced that ran a shader.
type ShaderDraw struct {
	Seq  uint64 // its API event (0: not in the trace any more)
	Name string // the API call
	Ctx  string // the context it was made on (IC, DCn: recorded into a command list)
	Line int
}

// shaderBook is the run's record of its shaders.
type shaderBook struct {
	list    []*ShaderInfo
	by      map[*d3d11.Shader]*ShaderInfo
	dropped int
	draws   int // draws noted, of every shader
	// the last draw's shaders and what by holds of them (noteDraw: two
	// map look-ups a Draw otherwise); ok is cleared by every write to by
	last struct {
		ok     bool
		vs, ps *d3d11.Shader
		infos  [2]*ShaderInfo
	}

	codes     map[codeKey]machine.DriverShader // per distinct bytecode and stage
	codeBytes int                              // their estimated size
}

// codeKey names a distinct shader: its stage and the hash of its bytecode.
type codeKey struct {
	stage string
	sum   [32]byte
}

// Shaders returns the shaders the run created so far, in creation order
// (copies: later draws do not change them), and how many more were
// created past MaxShaderInfos.
func (r *Run) Shaders() (list []ShaderInfo, dropped int) {
	list = make([]ShaderInfo, len(r.shaders.list))
	for i, s := range r.shaders.list {
		list[i] = *s
		list[i].Draws = s.Draws[:len(s.Draws):len(s.Draws)]
	}
	return list, r.shaders.dropped
}

// ShaderCount is how many shaders the run created so far and how many
// draws ran them: a cheap check that Shaders has something new.
func (r *Run) ShaderCount() (shaders, draws int) {
	return len(r.shaders.list) + r.shaders.dropped, r.shaders.draws
}

// noteShader records shader s, just created by call x.
func (r *Run) noteShader(x *call, s *d3d11.Shader) {
	b := &r.shaders
	if len(b.list) >= MaxShaderInfos {
		b.dropped++
		return
	}
	st := x.st
	info := &ShaderInfo{Obj: x.result(0), Stage: s.Stage, Line: st.Line}
	v := x.value(0)
	switch v.Kind {
	case VBuiltin:
		// A built-in is HLSL compiled when the scenario loads (package
		// builtins): the same text the view shows for an hlsl block.
		info.Source, info.Builtin = ShaderBuiltin, v.Ident
		if b, err := builtins.Lookup(v.Ident); err == nil {
			info.HLSL, info.Entry, info.Target = b.HLSL, builtins.Entry, b.Target
			info.Bytecode = b.Bytecode
		}
	case VHLSL:
		info.Source, info.Block = ShaderHLSL, v.Ident
		info.Entry, info.Target, info.Flags = hlslOptions(st)
		if src := r.script.Sources[v.Ident]; src != nil {
			info.HLSL, info.HLSLLine = src.Text, src.Line
		}
	default:
		info.Source = ShaderBytecode
		if v.Kind == VFxc {
			info.Block = v.Ident
		}
	}
	if v.Kind != VBuiltin || len(v.Bytes) > 0 {
		info.Bytecode = v.Bytes
	}
	info.Code, info.Driver, info.CodeDropped = b.code(x.dev(), s, info.Bytecode)
	api := map[string]string{"vs": "CreateVertexShader", "ps": "CreatePixelShader", "cs": "CreateComputeShader", "gs": "CreateGeometryShader",
		"hs": "CreateHullShader", "ds": "CreateDomainShader"}[s.Stage]
	th := r.sim.Thread()
	n := 0
	r.rec.ScanBack(^uint64(0), func(e *trace.Event) bool {
		if e.Kind == trace.Call && e.From == trace.App && e.Name == api && e.Thread == th {
			info.Seq = e.Seq
			return false
		}
		n++
		return n < 4096
	})
	if b.by == nil {
		b.by = map[*d3d11.Shader]*ShaderInfo{}
	}
	b.list = append(b.list, info)
	b.by[s] = info
	b.last.ok = false
}

// code is what the UMD made of shader s, kept once per distinct bytecode
// and stage (and for at most MaxShaderCodes of them).
func (b *shaderBook) code(dev *d3d11.Device, s *d3d11.Shader, bytecode []byte) (c machine.DriverShader, ok, dropped bool) {
	k := codeKey{stage: s.Stage, sum: sha256.Sum256(bytecode)}
	if c, ok := b.codes[k]; ok {
		return c, true, false
	}
	size := 32 * len(bytecode)
	if len(b.codes) >= MaxShaderCodes || b.codeBytes+size > MaxShaderCodeBytes {
		return machine.DriverShader{}, false, true
	}
	c, ok = machine.ShaderCode(dev, s)
	if !ok {
		return c, false, false
	}
	if b.codes == nil {
		b.codes = map[codeKey]machine.DriverShader{}
	}
	b.codes[k] = c
	b.codeBytes += size
	return c, true, false
}

// flagNames are the names of a flags= value (one name, or several
// joined by |).
func flagNames(v *Value) []string {
	if v.Kind == VFlags {
		return v.Flags
	}
	return []string{v.Ident}
}

// hlslFlags reads an hlsl:NAME shader's flags=: D3DCompile's flags by
// their D3DCOMPILE_ names (hlsl.ParseFlag).
func hlslFlags(v *Value) (hlsl.Flags, error) {
	var f hlsl.Flags
	for _, n := range flagNames(v) {
		x, err := hlsl.ParseFlag(n)
		if err != nil {
			return 0, err
		}
		f |= x
	}
	return f, nil
}

// hlslOptions are an hlsl:NAME shader's entry=, target= and flags=, with
// the defaults the checker compiled it with.
func hlslOptions(st *Call) (entry, target string, flags hlsl.Flags) {
	entry, target = "main", "vs_5_0"
	switch st.Method {
	case "CreatePixelShader":
		target = "ps_5_0"
	case "CreateComputeShader":
		target = "cs_5_0"
	case "CreateGeometryShader", "CreateGeometryShaderWithStreamOutput":
		target = "gs_5_0"
	case "CreateHullShader":
		target = "hs_5_0"
	case "CreateDomainShader":
		target = "ds_5_0"
	}
	for _, a := range st.Args {
		switch a.Key {
		case "entry":
			entry = a.Value.Ident
		case "target":
			target = a.Value.Ident
		case "flags":
			flags, _ = hlslFlags(&a.Value)
		}
	}
	return entry, target, flags
}

// noteDraw records that draw call s on x's context ran its bound shaders.
// from is the trace's last seq before the call: the draw's API event
// follows it. The caller asks only for a Draw* call (stmtMemo.draw), once
// a shader was noted.
func (r *Run) noteDraw(t *thread, s *Call, x *call, from uint64) {
	b := &r.shaders
	c, ok := x.tgt.(*d3d11.DeviceContext)
	if !ok {
		return
	}
	vs, ps := c.BoundShaders()
	l := &b.last
	if !l.ok || l.vs != vs || l.ps != ps {
		l.ok, l.vs, l.ps, l.infos = true, vs, ps, [2]*ShaderInfo{b.by[vs], b.by[ps]}
	}
	infos := l.infos
	if infos[0] == nil && infos[1] == nil {
		return
	}
	b.draws++
	keep := false // a shader that lists fewer than MaxShaderDraws draws: only then is the draw's event looked for
	// (the two stages unrolled: every Draw statement)
	if info := infos[0]; info != nil {
		info.DrawCount++
		keep = len(info.Draws) < MaxShaderDraws
	}
	if info := infos[1]; info != nil {
		info.DrawCount++
		keep = keep || len(info.Draws) < MaxShaderDraws
	}
	if !keep {
		return
	}
	d := ShaderDraw{Name: s.Method, Line: s.Line}
	end := uint64(r.rec.Len())
	for q := from + 1; q <= end && q <= from+256; q++ {
		e, ok := r.rec.At(q)
		if ok && e.Kind == trace.Call && e.From == trace.App && e.Name == s.Method && e.Thread == t.name {
			d.Seq, d.Ctx = e.Seq, e.Ctx
			break
		}
	}
	for _, info := range infos {
		if info != nil && len(info.Draws) < MaxShaderDraws {
			info.Draws = append(info.Draws, d)
		}
	}
}

// Listing is the shader's bytecode listed as fxc /Fc does ("" for a
// built-in, which has none).
func (s *ShaderInfo) Listing() (string, error) {
	if s.Bytecode == nil {
		return "", nil
	}
	c, err := dxbc.Parse(s.Bytecode)
	if err != nil {
		return "", err
	}
	return dxbc.Listing(c)
}

// ISA is the GPU program the UMD made of the shader, in gpu/shaderisa's
// assembly: the disassembly of the words it placed in its allocation (built-in
// shaders included: they reach the driver as bytecode too). "" when the
// driver did not say.
func (s *ShaderInfo) ISA() (string, error) {
	if !s.Driver {
		return "", nil
	}
	return s.Code.ISA()
}

// Translation is the UMD's translation listed instruction by instruction:
// each DXBC instruction (as a comment) followed by the ISA instructions it
// became ("" when the driver did not say).
func (s *ShaderInfo) Translation() string {
	if !s.Driver {
		return ""
	}
	return s.Code.Translation()
}
