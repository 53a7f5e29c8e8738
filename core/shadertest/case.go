package shadertest

import (
	"fmt"
	"math"
	"path"
	"strconv"
	"strings"
)

// Case kinds.
const (
	KindCompile = "compile" // a shader section no test runs: it must compile, or fail to as qualified
	KindRun     = "run"     // a [test] section: its shaders compile and its probes hold
)

// Case is one check of a shader_test file, run on its own: a [test]
// section with the state in effect when it starts (shaders, uniforms,
// resources, samplers, input layout), or a shader section that only has to
// compile (or fail to).
type Case struct {
	File     string // the file's base name
	Line     int    // the [test] or shader section's header line
	Kind     string
	Category string
	Model    Model // the lowest shader model the case compiles for (4.0, 4.1, 5.0)
	MaxModel Model // the highest its [require] allows
	Options  []string
	Shaders  []*Shader
	// NotApplicable is why Direct3D 11 hardware at SM 4.0-5.0 never runs
	// the case (SM 6, Direct3D 9 only, ...): it does not count.
	NotApplicable string
	// Unsupported is what d3dsim's device lacks to run the case (a stage, a
	// view kind): a skip that counts against the pass rate.
	Unsupported string
	// Replay, when set, is the earlier case the scenario runs first: it
	// copied into a texture this case reads.
	Replay *Replay

	Uniforms  []uint32
	Resources []*Resource
	Samplers  []*Sampler
	Layout    []Element
	Cmds      []Cmd
}

// Name is FILE:LINE.
func (c *Case) Name() string { return fmt.Sprintf("%s:%d", c.File, c.Line) }

// Shader is a shader section as a case compiles it.
type Shader struct {
	Stage      string // vs, ps, cs, hs, ds, gs
	Line       int    // the section's header line
	End        int    // its last line
	Source     string // the text, preceded by Line empty lines: line N of the source is line N of the file
	ExpectFail bool   // fail (or notimpl) holds at the case's model
	Default    bool   // the vertex shader `draw quad` supplies
}

// Profile is the target the shader compiles for: ps_4_0, vs_5_0.
func (s *Shader) Profile(m Model) string { return s.Stage + "_" + m.profile() }

// Resource is a [rtv N], [dsv], [srv N], [uav N] or [vb N] section.
type Resource struct {
	Kind      string // rtv, dsv, srv, uav, vb
	Slot      int
	Line      int
	Format    string // DXGI format name without the prefix: R32G32B32A32_FLOAT
	DataType  string // float, sint, uint
	TexelSize int
	Dim       string // 2d, buffer
	Width     int
	Height    int
	Levels    int
	Samples   int
	Raw       bool
	Counter   bool
	Stride    int
	Shadow    bool
	Data      []uint32
	// Start is what a render target holds when the case begins: what the
	// earlier cases of the file drew to it (nil: nothing, cleared to 0).
	// StartUnknown says what the target would hold and why it does not
	// (an earlier case that did not run, or a target too large to carry).
	Start        *Contents
	StartUnknown string
}

// Replay is an earlier case of the file whose `copy` filled a view's
// texture that a case reads: its scenario runs that case first (carry.go).
type Replay struct {
	Case *Case // the earlier case, at the shader model of the one that reads
	Slot int   // the [srv N] it copied into
}

func (r *Resource) copy() *Resource {
	c := *r
	c.Data = append([]uint32(nil), r.Data...)
	return &c
}

// Sampler is a [sampler N] section.
type Sampler struct {
	Slot    int
	Line    int
	Filter  string // "point point point" ... "linear linear linear"
	Address [3]string
	Compare string // comparison function; "" for none
}

// Element is a line of [input layout]: slot, format, semantic, index.
type Element struct {
	Slot      int
	Format    string
	TexelSize int
	Name      string
	Index     int
}

// Cmd is a directive of a [test] section.
type Cmd struct {
	Line int
	Op   string // draw, dispatch, probe, uniform, clear, depth, copy, sample mask
	// draw
	Topology  string // TRIANGLELIST, TRIANGLESTRIP, POINTLIST; "quad" for draw quad
	Vertices  int
	Instances int
	// dispatch
	Groups [3]int
	// probe
	Probe *Probe
	// uniform: the whole buffer after the directive
	Uniforms []uint32
	// clear rtv N v v v v / clear dsv v; copy FROM FROMSLOT TARGET SLOT
	From     string
	FromSlot int
	Target   string // rtv, dsv (copy: rtv, srv, ...)
	Slot     int
	Value    [4]float32
	// depth FUNC
	Func string
	// sample mask
	Mask uint32
	// Why is set on a directive d3dsim's device cannot carry out: the
	// case is skipped with it.
	Why string
}

// Probe is `probe [rtv N|uav N|dsv] (x, y[, x2, y2]) KIND (values) [ulps]`.
type Probe struct {
	Res    string // rtv, uav, dsv
	Slot   int
	X0, Y0 int
	X1, Y1 int // exclusive
	Kind   string
	Values []uint32 // as the kind reads them: float bits, int32, uint32
	Ulps   int
}

// state is what a file has set up so far, as shader_runner.c keeps it.
type state struct {
	model, maxModel Model
	options         []string
	notApplicable   string
	unsupported     string
	shaders         map[string]*pending
	uniforms        []uint32
	resources       []*Resource
	samplers        []*Sampler
	layout          []Element
	lastFail        bool // the last shader section is expected to fail: tests are skipped
}

// pending is a shader section and whether a test has run it.
type pending struct {
	sh   *Shader
	c    *Case // its compile case until a test uses it
	used bool
}

// Cases interprets a file into its cases, in order.
func (f *File) Cases() ([]*Case, error) {
	base := path.Base(strings.ReplaceAll(f.Name, "\\", "/"))
	cat := Category(base)
	st := &state{model: sm40, maxModel: sm50, shaders: map[string]*pending{}}
	var out []*Case
	var compiles []*pending
	for _, s := range f.Sections {
		switch s.Kind {
		case "require":
			if err := st.require(f.Name, s); err != nil {
				return nil, err
			}
		case "shader":
			sh := &Shader{Stage: s.Stage, Line: s.Line, End: s.Line, Source: source(s)}
			if n := len(s.Body); n > 0 {
				sh.End = s.Body[n-1].N
			}
			for _, q := range s.Quals {
				if (q.Name == "fail" || q.Name == "notimpl") && q.holds(st.model) {
					sh.ExpectFail = true
				}
			}
			c := st.newCase(base, cat, s.Line, KindCompile)
			c.Shaders = []*Shader{sh}
			if s.Stage == "fx" && c.NotApplicable == "" {
				c.NotApplicable = "an effect (fx profile): the Effects framework compiles it, Direct3D 11 hardware runs no such thing"
			}
			p := &pending{sh: sh, c: c}
			st.shaders[s.Stage] = p
			st.lastFail = sh.ExpectFail
			compiles = append(compiles, p)
		case "resource":
			r, err := parseResource(f.Name, s)
			if err != nil {
				return nil, err
			}
			st.setResource(r)
		case "sampler":
			sm, err := parseSampler(f.Name, s)
			if err != nil {
				return nil, err
			}
			st.setSampler(sm)
		case "input layout":
			st.layout = nil
			for _, l := range s.Body {
				e, err := parseElement(l.Text)
				if err != nil {
					return nil, &Error{f.Name, l.N, err.Error()}
				}
				st.layout = append(st.layout, e)
			}
		case "test":
			if st.lastFail {
				// shader_runner.c skips a test whose last shader is expected
				// not to compile: nothing would run.
				continue
			}
			c, err := st.test(f.Name, base, cat, s)
			if err != nil {
				return nil, err
			}
			if c != nil {
				out = append(out, c)
			}
		case "preproc", "preproc fail":
			// Preprocessor-only checks (D3DPreprocess) are not shader
			// cases: the suite keeps them outside tests/hlsl.
		}
	}
	for _, p := range compiles {
		if !p.used {
			out = append(out, p.c)
		}
	}
	sortCases(out)
	return out, nil
}

func sortCases(cs []*Case) {
	for i := 1; i < len(cs); i++ {
		for j := i; j > 0 && cs[j].Line < cs[j-1].Line; j-- {
			cs[j], cs[j-1] = cs[j-1], cs[j]
		}
	}
}

// source is a shader section's text, its line N the file's line N.
func source(s *Section) string {
	var b strings.Builder
	b.WriteString(strings.Repeat("\n", s.Line))
	for _, l := range s.Body {
		b.WriteString(l.Text)
		b.WriteByte('\n')
	}
	return b.String()
}

func (st *state) newCase(file, cat string, line int, kind string) *Case {
	c := &Case{File: file, Line: line, Kind: kind, Category: cat, Model: st.model, MaxModel: st.maxModel,
		Options: append([]string(nil), st.options...), NotApplicable: st.notApplicable, Unsupported: st.unsupported}
	return c
}

// require applies a [require] section: it replaces the previous one.
func (st *state) require(file string, s *Section) error {
	st.model, st.maxModel = sm40, sm50
	st.options, st.notApplicable, st.unsupported = nil, "", ""
	for _, l := range s.Body {
		t := strings.TrimSpace(l.Text)
		switch {
		case strings.HasPrefix(t, "shader model >="), strings.HasPrefix(t, "shader model <"):
			less := strings.HasPrefix(t, "shader model <")
			v := strings.TrimSpace(t[strings.IndexAny(t, "<>")+1:])
			v = strings.TrimSpace(strings.TrimPrefix(v, "="))
			m := Model(-1)
			for i, name := range modelNames {
				if v == name {
					m = Model(i)
				}
			}
			if m < 0 {
				return &Error{file, l.N, fmt.Sprintf("unknown shader model %q", clip(v))}
			}
			if less {
				if m == 0 {
					return &Error{file, l.N, "shader model < 2.0 is invalid"}
				}
				st.maxModel = min(st.maxModel, m-1)
			} else {
				st.model = max(st.model, m)
			}
		case strings.HasPrefix(t, "options:"):
			st.options = strings.Fields(strings.TrimPrefix(t, "options:"))
		case strings.HasPrefix(t, "format "):
			f := strings.Fields(strings.TrimPrefix(t, "format "))
			if len(f) > 0 {
				if _, ok := formats[f[0]]; !ok {
					return &Error{file, l.N, fmt.Sprintf("unknown format %q", clip(f[0]))}
				}
			}
			if len(f) == 2 && f[1] == "uav-load" && (f[0] == "r32-float" || f[0] == "r32-uint" || f[0] == "r32-sint") {
				// Typed UAV loads of these three every Direct3D 11 device
				// at feature level 11_0 does ("Typed unordered access
				// view (UAV) loads"); the others are optional.
				break
			}
			st.addUnsupported("UAV typed loads of " + strings.Join(f, " ") + " (an optional capability this device does not report)")
		default:
			switch t {
			case "float64":
				// The device reports D3D11_FEATURE_DOUBLES
				// (d3d11.Device.CheckFeatureSupport): the shader model 5
				// doubles run, so the case does.
			case "rov":
				st.addUnsupported("rasterizer-ordered views: the device does not report ROVsSupported")
			case "int64", "wave-ops":
				st.addNA(t + " needs shader model 6 (Direct3D 12)")
			case "geometry-shader", "clip-planes", "depth-bounds", "point-size":
				st.addNA(t + ": a capability the Direct3D 11 runner never reports")
			default:
				return &Error{file, l.N, fmt.Sprintf("unknown require directive %q", clip(t))}
			}
		}
	}
	if st.maxModel < st.model {
		switch {
		case st.maxModel < sm40:
			st.addNA(fmt.Sprintf("shader model < %s only: Direct3D 9", st.maxModel+1))
		default:
			st.addNA(fmt.Sprintf("shader model %s or later: Direct3D 12", st.model))
		}
		st.model = min(st.model, sm50)
	}
	return nil
}

func (st *state) addNA(s string) {
	if st.notApplicable == "" {
		st.notApplicable = s
	}
}

func (st *state) addUnsupported(s string) {
	if st.unsupported == "" {
		st.unsupported = s
	}
}

func (st *state) setResource(r *Resource) {
	for i, o := range st.resources {
		if o.Kind == r.Kind && o.Slot == r.Slot {
			st.resources[i] = r
			return
		}
	}
	st.resources = append(st.resources, r)
}

func (st *state) setSampler(s *Sampler) {
	for i, o := range st.samplers {
		if o.Slot == s.Slot {
			st.samplers[i] = s
			return
		}
	}
	st.samplers = append(st.samplers, s)
}

func (st *state) resource(kind string, slot int) *Resource {
	for _, r := range st.resources {
		if r.Kind == kind && r.Slot == slot {
			return r
		}
	}
	return nil
}

// defaultTarget adds the 640x480 R32G32B32A32_FLOAT render target the
// runner draws to when the file declares none.
func (st *state) defaultTarget() {
	if st.resource("rtv", 0) != nil || st.resource("dsv", 0) != nil {
		return
	}
	st.resources = append(st.resources, &Resource{Kind: "rtv", Format: "R32G32B32A32_FLOAT", DataType: "float", TexelSize: 16,
		Dim: "2d", Width: 640, Height: 480, Levels: 1})
}

// quadVS is the vertex shader `draw quad` uses when the file gives none.
const quadVS = "float4 main(float4 pos : position) : sv_position\n{\n    return pos;\n}\n"

// test turns a [test] section into a run case.
func (st *state) test(file, base, cat string, s *Section) (*Case, error) {
	c := st.newCase(base, cat, s.Line, KindRun)
	start := st.snapshot()
	uses := map[string]bool{}
	for _, l := range s.Body {
		cmd, skip, err := st.directive(l)
		if err != nil {
			return nil, &Error{file, l.N, err.Error()}
		}
		if skip {
			continue
		}
		switch cmd.Op {
		case "draw":
			for _, stage := range []string{"vs", "ps", "hs", "ds", "gs"} {
				if st.shaders[stage] != nil {
					uses[stage] = true
				}
			}
			if cmd.Topology == "quad" {
				uses["vs"] = true
			}
		case "dispatch":
			uses["cs"] = true
		}
		if cmd.Op != "" {
			c.Cmds = append(c.Cmds, cmd)
		}
	}
	// The state the case starts from is the state before its directives,
	// but for what its draws set up (the quad's vertex buffer and layout,
	// the default target and vertex shader), which the draws need first.
	c.Uniforms = start.uniforms
	c.Resources = st.cloneResources()
	c.Samplers = append([]*Sampler(nil), st.samplers...)
	c.Layout = append([]Element(nil), st.layout...)
	if len(uses) == 0 {
		return nil, nil // a test that draws and dispatches nothing checks nothing
	}
	for _, stage := range []string{"vs", "hs", "ds", "gs", "ps", "cs"} {
		if !uses[stage] {
			continue
		}
		p := st.shaders[stage]
		if p == nil {
			if stage == "ps" {
				c.Unsupported = firstOf(c.Unsupported, "a draw without a pixel shader")
			}
			continue
		}
		p.used = true
		c.Shaders = append(c.Shaders, p.sh)
		if p.c.NotApplicable != "" && c.NotApplicable == "" {
			c.NotApplicable = p.c.NotApplicable
		}
	}
	return c, nil
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

type snap struct {
	uniforms []uint32
}

func (st *state) snapshot() snap {
	return snap{uniforms: append([]uint32(nil), st.uniforms...)}
}

func (st *state) cloneResources() []*Resource {
	out := make([]*Resource, len(st.resources))
	for i, r := range st.resources {
		out[i] = r.copy()
	}
	return out
}

// directive parses one line of a [test] section and applies what it
// changes to the file's state. skip is set for a directive whose if(...)
// does not hold.
func (st *state) directive(l Line) (cmd Cmd, skip bool, err error) {
	t := strings.TrimSpace(l.Text)
	cmd.Line = l.N
	// todo, bug and if qualifiers, in any order.
	for {
		word, rest := cutWord(t)
		name, cond, hasCond := strings.Cut(word, "(")
		if name != "todo" && name != "bug" && name != "if" {
			break
		}
		if hasCond {
			// The condition may hold spaces: take up to the ')'.
			full := t[len(name)+1:]
			end := strings.IndexByte(full, ')')
			if end < 0 {
				return cmd, false, fmt.Errorf("unclosed '(' in %q", clip(t))
			}
			cond, rest = full[:end], strings.TrimSpace(full[end+1:])
			ok, err := evalCond(cond, st.model)
			if err != nil {
				return cmd, false, err
			}
			if name == "if" && !ok {
				return cmd, true, nil
			}
		}
		t = rest
	}
	switch {
	case strings.HasPrefix(t, "dispatch"):
		cmd.Op = "dispatch"
		f := strings.Fields(strings.TrimPrefix(t, "dispatch"))
		if len(f) < 3 {
			return cmd, false, fmt.Errorf("malformed dispatch arguments %q", clip(t))
		}
		for i := 0; i < 3; i++ {
			v, err := strconv.ParseUint(f[i], 10, 32)
			if err != nil {
				return cmd, false, fmt.Errorf("malformed dispatch arguments %q", clip(t))
			}
			cmd.Groups[i] = int(min(v, 65536))
		}
	case strings.HasPrefix(t, "clear rtv"):
		f := strings.Fields(strings.TrimPrefix(t, "clear rtv"))
		if len(f) < 5 {
			return cmd, false, fmt.Errorf("malformed rtv clear arguments %q", clip(t))
		}
		slot, err := strconv.Atoi(f[0])
		if err != nil || slot < 0 || slot > 7 {
			return cmd, false, fmt.Errorf("malformed rtv clear arguments %q", clip(t))
		}
		st.defaultTarget()
		cmd.Op, cmd.Target, cmd.Slot = "clear", "rtv", slot
		for i := 0; i < 4; i++ {
			v, ok := cFloat(f[i+1])
			if !ok {
				return cmd, false, fmt.Errorf("malformed rtv clear arguments %q", clip(t))
			}
			cmd.Value[i] = v
		}
	case strings.HasPrefix(t, "clear dsv"):
		f := strings.Fields(strings.TrimPrefix(t, "clear dsv"))
		v, ok := float32(0), len(f) > 0
		if ok {
			v, ok = cFloat(f[0])
		}
		if !ok {
			return cmd, false, fmt.Errorf("malformed dsv clear arguments %q", clip(t))
		}
		cmd.Op, cmd.Target, cmd.Value[0] = "clear", "dsv", v
	case strings.HasPrefix(t, "depth-bounds"):
		cmd.Op = "unsupported"
		st.addCmdUnsupported(&cmd, "depth-bounds testing (Direct3D 12)")
	case strings.HasPrefix(t, "depth "):
		f, ok := compareFuncs[strings.TrimSpace(strings.TrimPrefix(t, "depth "))]
		if !ok {
			return cmd, false, fmt.Errorf("unknown comparison func %q", clip(t))
		}
		cmd.Op, cmd.Func = "depth", f
	case strings.HasPrefix(t, "draw quad"):
		cmd.Op, cmd.Topology, cmd.Vertices, cmd.Instances = "draw", "quad", 3, 1
		st.defaultTarget()
		st.layout = []Element{{Slot: 0, Format: "R32G32_FLOAT", TexelSize: 8, Name: "position"}}
		quad := []float32{-2, -2, -2, 4, 4, -2}
		vb := &Resource{Kind: "vb", Slot: 0, Dim: "buffer", DataType: "float"}
		for _, v := range quad {
			vb.Data = append(vb.Data, math.Float32bits(v))
		}
		st.setResource(vb)
		if st.shaders["vs"] == nil {
			sh := &Shader{Stage: "vs", Source: quadVS, Default: true}
			st.shaders["vs"] = &pending{sh: sh, c: &Case{}}
		}
	case strings.HasPrefix(t, "draw "):
		rest := strings.TrimSpace(strings.TrimPrefix(t, "draw "))
		topo := ""
		for _, tp := range []struct{ w, t string }{{"triangle list", "TRIANGLELIST"}, {"triangle strip", "TRIANGLESTRIP"},
			{"point list", "POINTLIST"}, {"1 control point patch list", "PATCH1"}, {"2 control point patch list", "PATCH2"},
			{"3 control point patch list", "PATCH3"}, {"4 control point patch list", "PATCH4"}} {
			if r, ok := strings.CutPrefix(rest, tp.w); ok {
				topo, rest = tp.t, r
				break
			}
		}
		if topo == "" {
			return cmd, false, fmt.Errorf("unknown primitive topology %q", clip(t))
		}
		f := strings.Fields(rest)
		if len(f) < 1 {
			return cmd, false, fmt.Errorf("malformed vertex count %q", clip(t))
		}
		n, err := strconv.ParseUint(f[0], 10, 32)
		if err != nil {
			return cmd, false, fmt.Errorf("malformed vertex count %q", clip(t))
		}
		inst := uint64(1)
		if len(f) > 1 {
			if inst, err = strconv.ParseUint(f[1], 10, 32); err != nil {
				inst = 1
			}
		}
		st.defaultTarget()
		cmd.Op, cmd.Topology, cmd.Vertices, cmd.Instances = "draw", topo, int(min(n, 1<<20)), int(min(inst, 1<<16))
		if strings.HasPrefix(topo, "PATCH") && st.shaders["hs"] == nil {
			st.addCmdUnsupported(&cmd, "a patch-list topology without a hull shader")
		}
	case strings.HasPrefix(t, "copy "):
		// copy SRC N DST M: CopyResource of the whole texture (scenario.go);
		// a later case does not see what it copied (carry.go).
		cmd.Op = "copy"
		f := strings.Fields(t)
		n1, err1 := strconv.Atoi(f[min(2, len(f)-1)])
		n2, err2 := strconv.Atoi(f[len(f)-1])
		if len(f) != 5 || err1 != nil || err2 != nil {
			return cmd, false, fmt.Errorf("malformed copy %q", clip(t))
		}
		cmd.From, cmd.FromSlot, cmd.Target, cmd.Slot = f[1], n1, f[3], n2
	case strings.HasPrefix(t, "probe"):
		p, err := parseProbe(strings.TrimSpace(strings.TrimPrefix(t, "probe")))
		if err != nil {
			return cmd, false, err
		}
		cmd.Op, cmd.Probe = "probe", p
	case strings.HasPrefix(t, "uniform "):
		if err := st.uniform(strings.TrimSpace(strings.TrimPrefix(t, "uniform "))); err != nil {
			return cmd, false, err
		}
		cmd.Op, cmd.Uniforms = "uniform", append([]uint32(nil), st.uniforms...)
	case strings.HasPrefix(t, "sample mask"):
		v, ok := cUint(strings.TrimSpace(strings.TrimPrefix(t, "sample mask")))
		if !ok {
			return cmd, false, fmt.Errorf("malformed sample mask %q", clip(t))
		}
		cmd.Op, cmd.Mask = "sample mask", v
	case strings.HasPrefix(t, "alpha test"), strings.HasPrefix(t, "shade mode"), strings.HasPrefix(t, "clip-plane"),
		strings.HasPrefix(t, "point-size"), strings.HasPrefix(t, "point-sprite"):
		cmd.Op = "unsupported"
		st.addCmdUnsupported(&cmd, "fixed-function state of Direct3D 9 ("+strings.Fields(t)[0]+")")
	default:
		return cmd, false, fmt.Errorf("unknown test directive %q", clip(t))
	}
	return cmd, false, nil
}

// addCmdUnsupported keeps the reason on the command; the case that holds
// it is skipped (run.go).
func (st *state) addCmdUnsupported(c *Cmd, why string) {
	c.Why = why
}

func cutWord(s string) (string, string) {
	i := strings.IndexAny(s, " \t")
	if i < 0 {
		return s, ""
	}
	return s[:i], strings.TrimSpace(s[i:])
}

var compareFuncs = map[string]string{
	"less equal": "LESS_EQUAL", "not equal": "NOT_EQUAL", "greater equal": "GREATER_EQUAL", "never": "NEVER",
	"less": "LESS", "equal": "EQUAL", "greater": "GREATER", "always": "ALWAYS",
}

// uniform applies `uniform OFFSET TYPE VALUES`: OFFSET counts 32-bit
// values; the buffer grows to a multiple of four, new values 0x7f7f7f7f.
func (st *state) uniform(s string) error {
	f := strings.Fields(s)
	if len(f) < 2 {
		return fmt.Errorf("malformed uniform %q", clip(s))
	}
	off, err := strconv.ParseUint(f[0], 10, 32)
	if err != nil || off > maxUniforms {
		return fmt.Errorf("malformed uniform offset %q", clip(f[0]))
	}
	typ, vals := f[1], f[2:]
	var words []uint32
	need := map[string]int{"float4": 4, "float": 1, "int4": 4, "uint4": 4, "int": 1, "uint": 1, "double2": 2, "int64_t2": 2, "uint64_t2": 2}
	n, ok := need[typ]
	if !ok {
		return fmt.Errorf("unknown uniform type %q", clip(typ))
	}
	if len(vals) < n {
		return fmt.Errorf("malformed %s constant %q", typ, clip(s))
	}
	for _, v := range vals[:n] {
		switch typ {
		case "float4", "float":
			x, ok := cFloat(v)
			if !ok {
				return fmt.Errorf("malformed float constant %q", clip(v))
			}
			words = append(words, math.Float32bits(x))
		case "int4", "int":
			x, ok := cInt(v)
			if !ok {
				return fmt.Errorf("malformed int constant %q", clip(v))
			}
			words = append(words, uint32(x))
		case "uint4", "uint":
			x, ok := cUint(v)
			if !ok {
				return fmt.Errorf("malformed uint constant %q", clip(v))
			}
			words = append(words, x)
		case "double2":
			x, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return fmt.Errorf("malformed double2 constant %q", clip(v))
			}
			b := math.Float64bits(x)
			words = append(words, uint32(b), uint32(b>>32))
		case "int64_t2", "uint64_t2":
			x, err := strconv.ParseInt(v, 0, 64)
			if err != nil {
				u, err2 := strconv.ParseUint(v, 0, 64)
				if err2 != nil {
					return fmt.Errorf("malformed %s constant %q", typ, clip(v))
				}
				x = int64(u)
			}
			words = append(words, uint32(x), uint32(uint64(x)>>32))
		}
	}
	end := int(off) + len(words)
	if end > maxUniforms {
		return fmt.Errorf("uniform past %d values", maxUniforms)
	}
	size := (max(len(st.uniforms), end) + 3) &^ 3
	for len(st.uniforms) < size {
		st.uniforms = append(st.uniforms, 0x7f7f7f7f)
	}
	copy(st.uniforms[off:], words)
	return nil
}

// parseProbe reads what follows `probe`.
func parseProbe(s string) (*Probe, error) {
	p := &Probe{Res: "rtv"}
	bad := func() (*Probe, error) { return nil, fmt.Errorf("malformed probe arguments %q", clip(s)) }
	rest := s
	for _, r := range []string{"uav", "rtv", "dsv"} {
		if x, ok := strings.CutPrefix(rest, r); ok && (x == "" || x[0] == ' ') {
			p.Res, rest = r, strings.TrimSpace(x)
			if r != "dsv" {
				w, x2 := cutWord(rest)
				n, err := strconv.Atoi(w)
				if err != nil || n < 0 || n > 127 {
					return bad()
				}
				p.Slot, rest = n, x2
			}
			break
		}
	}
	if !strings.HasPrefix(rest, "(") {
		return bad()
	}
	end := strings.IndexByte(rest, ')')
	if end < 0 {
		return bad()
	}
	coords := splitList(rest[1:end])
	rest = strings.TrimSpace(rest[end+1:])
	var c []int
	for _, x := range coords {
		v, err := strconv.Atoi(x)
		if err != nil || v < -1 || v > maxSize {
			return bad()
		}
		c = append(c, v)
	}
	switch len(c) {
	case 4:
		p.X0, p.Y0, p.X1, p.Y1 = c[0], c[1], c[2], c[3]
	case 2:
		p.X0, p.Y0, p.X1, p.Y1 = c[0], c[1], c[0]+1, c[1]+1
	case 1:
		p.X0, p.Y0, p.X1, p.Y1 = c[0], 0, c[0]+1, 1
	default:
		return bad()
	}
	if p.X0 < 0 || p.Y0 < 0 || p.X1 <= p.X0 || p.Y1 <= p.Y0 {
		return bad()
	}
	kind, rest := cutKind(rest)
	want := map[string]int{"rgba": 4, "rgbaui": 4, "rgbai": 4, "rg": 2, "r": 1, "rui": 1, "ri": 1, "rd": 1, "rui64": 1, "ri64": 1}
	n, ok := want[kind]
	if !ok || !strings.HasPrefix(rest, "(") {
		return bad()
	}
	p.Kind = kind
	end = strings.IndexByte(rest, ')')
	if end < 0 {
		return bad()
	}
	vals := splitList(rest[1:end])
	rest = strings.TrimSpace(rest[end+1:])
	if len(vals) < n {
		return bad()
	}
	for _, v := range vals[:n] {
		switch kind {
		case "rgba", "rg", "r":
			x, ok := cFloat(v)
			if !ok {
				return bad()
			}
			p.Values = append(p.Values, math.Float32bits(x))
		case "rgbai", "ri":
			x, ok := cInt(v)
			if !ok {
				return bad()
			}
			p.Values = append(p.Values, uint32(x))
		case "rgbaui", "rui":
			x, ok := cUint(v)
			if !ok {
				return bad()
			}
			p.Values = append(p.Values, x)
		default: // rd, rui64, ri64: 64-bit values
			p.Values = append(p.Values, 0)
		}
	}
	// The tolerance, when a number follows (shader_runner.c's sscanf
	// ignores anything else after the values).
	if f := strings.Fields(rest); len(f) > 0 {
		if u, err := strconv.ParseUint(f[0], 10, 31); err == nil {
			p.Ulps = int(u)
		}
	}
	return p, nil
}

// cutKind splits the probe kind (a word of letters and digits) from its
// values.
func cutKind(s string) (string, string) {
	i := 0
	for i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || s[i] >= '0' && s[i] <= '9') {
		i++
	}
	return s[:i], strings.TrimSpace(s[i:])
}

func splitList(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

// cFloat reads a number as strtof does (decimal, hex float, inf, nan).
func cFloat(s string) (float32, bool) {
	s = strings.TrimSuffix(s, "f")
	switch strings.ToLower(strings.TrimLeft(s, "+-")) {
	case "inf", "infinity":
		if strings.HasPrefix(s, "-") {
			return float32(math.Inf(-1)), true
		}
		return float32(math.Inf(1)), true
	case "nan":
		return float32(math.NaN()), true
	}
	v, err := strconv.ParseFloat(s, 32)
	if err != nil {
		// Out-of-range values round as strtof rounds them (to infinity or zero).
		if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
			return 0, false
		}
	}
	return float32(v), true
}

// cInt reads an integer as strtol(s, 0) does: decimal, 0x hex, 0 octal.
func cInt(s string) (int32, bool) {
	neg := strings.HasPrefix(s, "-")
	u, ok := cUint(strings.TrimLeft(s, "+-"))
	if !ok {
		return 0, false
	}
	if neg {
		return -int32(u), true
	}
	return int32(u), true
}

// cUint reads an unsigned integer as strtoul(s, 0) does; a negative value
// wraps as strtoul's does.
func cUint(s string) (uint32, bool) {
	if r, ok := strings.CutPrefix(s, "-"); ok {
		u, ok := cUint(r)
		return -u, ok
	}
	base := 10
	switch {
	case strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X"):
		s, base = s[2:], 16
	case len(s) > 1 && s[0] == '0':
		s, base = s[1:], 8
	}
	v, err := strconv.ParseUint(s, base, 32)
	if err != nil {
		return 0, false
	}
	return uint32(v), true
}

// formats are the format names of shader_runner.c: DXGI name, data type,
// texel size.
var formats = map[string]struct {
	dxgi string
	typ  string
	size int
}{
	"r32g32b32a32-float": {"R32G32B32A32_FLOAT", "float", 16},
	"r32g32b32a32-sint":  {"R32G32B32A32_SINT", "sint", 16},
	"r32g32b32a32-uint":  {"R32G32B32A32_UINT", "uint", 16},
	"r32g32-float":       {"R32G32_FLOAT", "float", 8},
	"r32g32-sint":        {"R32G32_SINT", "sint", 8},
	"r32g32-uint":        {"R32G32_UINT", "uint", 8},
	"r32-float-shadow":   {"R32_FLOAT", "float", 4},
	"r32-float":          {"R32_FLOAT", "float", 4},
	"r32-sint":           {"R32_SINT", "sint", 4},
	"r32-uint":           {"R32_UINT", "uint", 4},
	"r32-typeless":       {"R32_TYPELESS", "uint", 4},
	"unknown":            {"UNKNOWN", "uint", 0},
	// d3dsim's additions: 8-bit targets, so that this project's own files
	// can draw to what every device has.
	"r8g8b8a8-unorm": {"R8G8B8A8_UNORM", "float", 4},
	"b8g8r8a8-unorm": {"B8G8R8A8_UNORM", "float", 4},
}

// parseResource reads a resource section.
func parseResource(file string, s *Section) (*Resource, error) {
	r := &Resource{Kind: s.Res, Slot: s.Slot, Line: s.Line, Format: "R32G32B32A32_FLOAT", DataType: "float", TexelSize: 16, Dim: "2d", Levels: 1}
	switch s.Res {
	case "dsv":
		r.Format, r.TexelSize, r.Shadow = "D32_FLOAT", 4, true
	case "vb":
		r.Dim, r.Format, r.TexelSize = "buffer", "", 0
	}
	explicit := false
	for _, l := range s.Body {
		t := strings.TrimSpace(l.Text)
		bad := func(what string) error { return &Error{file, l.N, fmt.Sprintf("malformed %s %q", what, clip(t))} }
		switch {
		case strings.HasPrefix(t, "format "):
			if explicit {
				return nil, &Error{file, l.N, "resource format already specified"}
			}
			f, ok := formats[strings.TrimSpace(strings.TrimPrefix(t, "format "))]
			if !ok {
				return nil, &Error{file, l.N, fmt.Sprintf("unknown format %q", clip(t))}
			}
			r.Format, r.DataType, r.TexelSize, explicit = f.dxgi, f.typ, f.size, true
			r.Shadow = strings.HasSuffix(t, "-shadow")
		case strings.HasPrefix(t, "stride "):
			if explicit {
				return nil, &Error{file, l.N, "resource format already specified"}
			}
			v, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(t, "stride ")))
			if err != nil || v < 1 || v > 2048 {
				return nil, bad("stride")
			}
			r.Stride, r.TexelSize, r.Format, explicit = v, v, "UNKNOWN", true
		case strings.HasPrefix(t, "size "):
			a := strings.TrimSpace(strings.TrimPrefix(t, "size "))
			if !strings.HasPrefix(a, "(") || !strings.HasSuffix(a, ")") {
				return nil, bad("resource size")
			}
			p := splitList(a[1 : len(a)-1])
			num := func(i int) (int, bool) {
				if i >= len(p) {
					return 0, false
				}
				v, err := strconv.Atoi(p[i])
				return v, err == nil && v >= 1 && v <= maxSize
			}
			ok := len(p) > 0
			switch {
			case !ok:
			case p[0] == "buffer" || p[0] == "raw_buffer" || p[0] == "counter_buffer":
				r.Dim, r.Height = "buffer", 1
				r.Width, ok = num(1)
				r.Raw = p[0] == "raw_buffer"
				if p[0] == "counter_buffer" {
					r.Counter, r.Stride, r.TexelSize, r.Format, explicit = true, 4, 4, "UNKNOWN", true
				}
			case p[0] == "2d":
				r.Dim = "2d"
				var ok2 bool
				r.Width, ok = num(1)
				r.Height, ok2 = num(2)
				ok = ok && ok2
			case p[0] == "2dms":
				r.Dim = "2d"
				var ok2, ok3 bool
				r.Samples, ok = num(1)
				r.Width, ok2 = num(2)
				r.Height, ok3 = num(3)
				ok = ok && ok2 && ok3
			default:
				ok = false
			}
			if !ok {
				return nil, bad("resource size")
			}
		case strings.HasPrefix(t, "levels "):
			v, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(t, "levels ")))
			if err != nil || v < 1 || v > 15 {
				return nil, bad("levels")
			}
			r.Levels = v
		default:
			for _, w := range strings.Fields(t) {
				var u uint32
				ok := true
				switch r.DataType {
				case "float":
					var f float32
					f, ok = cFloat(w)
					u = math.Float32bits(f)
				case "sint":
					var i int32
					i, ok = cInt(w)
					u = uint32(i)
				default:
					u, ok = cUint(w)
				}
				if !ok {
					return nil, bad("resource data")
				}
				if len(r.Data) >= maxTexels {
					return nil, &Error{file, l.N, fmt.Sprintf("more than %d values of data", maxTexels)}
				}
				r.Data = append(r.Data, u)
			}
		}
	}
	if r.Kind == "uav" && !explicit {
		return nil, &Error{file, s.Line, "format must be specified for UAV resources"}
	}
	if r.Kind == "vb" {
		r.Width = len(r.Data) * 4
	}
	return r, nil
}

// parseSampler reads a [sampler N] section: point filtering and clamping by
// default.
func parseSampler(file string, s *Section) (*Sampler, error) {
	sm := &Sampler{Slot: s.Slot, Line: s.Line, Filter: "point point point", Address: [3]string{"clamp", "clamp", "clamp"}}
	for _, l := range s.Body {
		t := strings.TrimSpace(l.Text)
		switch {
		case strings.HasPrefix(t, "address "):
			f := strings.Fields(strings.TrimPrefix(t, "address "))
			if len(f) < 3 {
				return nil, &Error{file, l.N, fmt.Sprintf("malformed address modes %q", clip(t))}
			}
			for i := 0; i < 3; i++ {
				switch f[i] {
				case "border", "clamp", "mirror_once", "mirror", "wrap":
					sm.Address[i] = f[i]
				default:
					return nil, &Error{file, l.N, fmt.Sprintf("unknown sampler address mode %q", clip(f[i]))}
				}
			}
		case strings.HasPrefix(t, "filter "):
			f := strings.Join(strings.Fields(strings.TrimPrefix(t, "filter ")), " ")
			ok := false
			for _, a := range []string{"point", "linear"} {
				for _, b := range []string{"point", "linear"} {
					for _, c := range []string{"point", "linear"} {
						ok = ok || f == a+" "+b+" "+c
					}
				}
			}
			if !ok {
				return nil, &Error{file, l.N, fmt.Sprintf("unknown sampler filter %q", clip(t))}
			}
			sm.Filter = f
		case strings.HasPrefix(t, "comparison "):
			fn, ok := compareFuncs[strings.TrimSpace(strings.TrimPrefix(t, "comparison "))]
			if !ok {
				return nil, &Error{file, l.N, fmt.Sprintf("unknown comparison func %q", clip(t))}
			}
			sm.Compare = fn
		default:
			return nil, &Error{file, l.N, fmt.Sprintf("unknown sampler directive %q", clip(t))}
		}
	}
	return sm, nil
}

// parseElement reads an input layout line: SLOT FORMAT NAME [INDEX].
func parseElement(s string) (Element, error) {
	f := strings.Fields(s)
	if len(f) < 3 {
		return Element{}, fmt.Errorf("malformed input layout directive %q", clip(s))
	}
	slot, err := strconv.Atoi(f[0])
	if err != nil || slot < 0 || slot > 31 {
		return Element{}, fmt.Errorf("malformed input layout directive %q", clip(s))
	}
	fm, ok := formats[f[1]]
	if !ok {
		return Element{}, fmt.Errorf("unknown format %q", clip(f[1]))
	}
	e := Element{Slot: slot, Format: fm.dxgi, TexelSize: fm.size, Name: f[2]}
	if len(f) > 3 {
		if v, err := strconv.Atoi(f[3]); err == nil && v >= 0 && v < 1<<16 {
			e.Index = v
		}
	}
	return e, nil
}
