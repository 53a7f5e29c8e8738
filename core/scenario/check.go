package scenario

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"d3dsim/core/builtins"
	"d3dsim/core/d3d11"
	"d3dsim/core/dxbc"
	"d3dsim/core/hlsl"
	"d3dsim/core/hresult"
	"d3dsim/core/machine"
)

// Load parses and checks a scenario: every method, argument, enum value and
// object name is resolved before anything runs, so bad input is reported as
// FILE:LINE:COL and never reaches the simulation.
func Load(file string, src []byte) (*Script, error) {
	s, err := Parse(file, src)
	if err != nil {
		return nil, err
	}
	c := &checker{file: file, types: map[string]string{}, events: map[string]bool{}, sources: s.Sources}
	if err := c.options(s.Options); err != nil {
		return nil, err
	}
	if err := c.block(s.Stmts); err != nil {
		return nil, err
	}
	return s, nil
}

type checker struct {
	file    string
	types   map[string]string // object name -> type
	events  map[string]bool
	sources map[string]*Source

	hlslLim   hlsl.Limits // option hlsl.tokens, hlsl.nodes, hlsl.instructions
	hlslWork  hlsl.Work   // what the fresh compiles of this load did
	hlslFresh int         // how many there were
}

func (c *checker) errf(p Pos, format string, args ...any) *Error {
	return &Error{File: c.file, Line: p.Line, Col: p.Col, Msg: fmt.Sprintf(format, args...)}
}

// knownOptions are the option keys and a check of their values.
var knownOptions = map[string]func(string) bool{
	"seed":                   isUint,
	"sync":                   isBool,
	"ooo":                    isBool,
	"scheduler":              func(v string) bool { return v == SchedulerWDDM || v == SchedulerSALVIA },
	"driver.freethreaded":    isBool,
	"preempt":                isBool,
	"driver.commandlists":    isBool,
	"driver.recycle":         isBool,
	"kmd.engine-reset":       isBool,
	"gpu.pagefault":          func(v string) bool { return v == "report" || v == "warning-colour" },
	"display.refresh":        isUint,
	"gpu.endless":            func(v string) bool { return v == "report" || v == "warning-colour" },
	"tdr.delay":              isUint,
	"wddm2.budget":           isSize,
	"wddm2.monitored-fences": isBool,
	"gpu.vram":               isSize,
	"gpu.engines":            isUint,
	"umd.cmdbuf":             isSize,
	"bug":                    func(v string) bool { return v != "" },
	"maxsteps":               isUint,
	"maxevents":              isUint,
	"maxtime":                isUint,
	"maxpixels":              isUint,
	"maxinstructions":        isUint,
	"sysmem":                 isSize,
	"maxobjects":             isUint,
	"hlsl.tokens":            isUint,
	"hlsl.nodes":             isUint,
	"hlsl.instructions":      isUint,
}

func isBool(v string) bool { return v == "true" || v == "false" }
func isUint(v string) bool { _, ok := parseSize(v); return ok }
func isSize(v string) bool { _, ok := parseSize(v); return ok }

// parseSize reads 123, 0x10, 64K, 64KiB, 256M, 256MiB, 1G, 1GiB.
func parseSize(v string) (uint64, bool) {
	mul := uint64(1)
	for _, suf := range []struct {
		s string
		m uint64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}} {
		if strings.HasSuffix(v, suf.s) {
			v, mul = strings.TrimSuffix(v, suf.s), suf.m
			break
		}
	}
	if v == "" {
		return 0, false
	}
	var n uint64
	base := uint64(10)
	if strings.HasPrefix(v, "0x") {
		v, base = v[2:], 16
		if v == "" {
			return 0, false
		}
	}
	for _, r := range v {
		var d uint64
		switch {
		case r >= '0' && r <= '9':
			d = uint64(r - '0')
		case base == 16 && r >= 'a' && r <= 'f':
			d = uint64(r-'a') + 10
		case base == 16 && r >= 'A' && r <= 'F':
			d = uint64(r-'A') + 10
		default:
			return 0, false
		}
		if n > (math.MaxUint64-d)/base {
			return 0, false
		}
		n = n*base + d
	}
	if n > math.MaxUint64/mul {
		return 0, false
	}
	return n * mul, true
}

func (c *checker) options(opts []Option) error {
	for _, o := range opts {
		ok, known := knownOptions[o.Key]
		if !known {
			keys := make([]string, 0, len(knownOptions))
			for k := range knownOptions {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			return c.errf(o.Pos, "unknown option %q (known: %s)", o.Key, strings.Join(keys, ", "))
		}
		if !ok(o.Value) {
			return c.errf(o.Pos, "bad value %q for option %s", o.Value, o.Key)
		}
		if rg, ok := Ranges[o.Key]; ok {
			if n, _ := parseSize(o.Value); n < rg.Min || n > rg.Max {
				return c.errf(o.Pos, "option %s=%s: out of range, must be %s", o.Key, o.Value, rg)
			}
		}
		if n, _ := parseSize(o.Value); o.Key == "tdr.delay" && (n < 1 || n > 10_000) {
			return c.errf(o.Pos, "option tdr.delay=%s: the TDR delay in milliseconds must be 1..10000", o.Value)
		}
		if n, _ := parseSize(o.Value); o.Key == "display.refresh" && (n < RefreshRange.Min || n > RefreshRange.Max) {
			return c.errf(o.Pos, "option display.refresh=%s: the display's refresh rate in Hz must be %s", o.Value, RefreshRange)
		}
		n, _ := parseSize(o.Value)
		switch o.Key {
		case "hlsl.tokens":
			c.hlslLim.Tokens = int(n)
		case "hlsl.nodes":
			c.hlslLim.Nodes = int(n)
		case "hlsl.instructions":
			c.hlslLim.Instructions = int(n)
		}
	}
	return nil
}

func (c *checker) block(stmts []Stmt) error {
	for _, s := range stmts {
		if err := c.stmt(s); err != nil {
			return err
		}
	}
	return nil
}

func (c *checker) stmt(s Stmt) error {
	switch s := s.(type) {
	case *Call:
		return c.call(s)
	case *Thread:
		if s.Name == "main" {
			return c.errf(s.Pos, "a thread cannot be called main (the top level is main)")
		}
		return c.block(s.Body)
	case *Repeat:
		return c.block(s.Body)
	case *Until:
		// The block first: it may create what the condition names.
		if err := c.block(s.Body); err != nil {
			return err
		}
		return c.until(s)
	case *Signal, *Wait:
		return nil
	case *Inject:
		return c.inject(s)
	case *Expect:
		return c.expect(s)
	}
	return c.errf(Position(s), "unknown statement")
}

func (c *checker) call(s *Call) error {
	var m *method
	var typ string
	if s.Target == "" {
		m = globals[s.Method]
		if m == nil {
			return c.errf(s.MethodPos, "unknown function %q (did you mean OBJECT.%s? the global functions are D3D11CreateDevice and the D3DPERF_ markers)", s.Method, s.Method)
		}
	} else {
		var ok bool
		typ, ok = c.types[s.Target]
		if !ok {
			return c.errf(s.TargetPos, "unknown object %q (objects are named with NAME = ... before they are used)", s.Target)
		}
		m = lookupMethod(typ, s.Method)
		if m == nil {
			return c.errf(s.MethodPos, "unknown method %s.%s for a %s (a %s has: %s)", s.Target, s.Method, typ, typ, methodNames(typ))
		}
	}
	npos := 0
	seen := map[string]bool{}
	for _, a := range s.Args {
		if a.Key == "" {
			if npos >= len(m.pos) {
				return c.errf(a.Pos, "%s takes %d positional argument(s), this is one too many", s.Method, len(m.pos))
			}
			if err := c.arg(s, m.pos[npos], a.Value); err != nil {
				return err
			}
			npos++
			continue
		}
		var p *param
		for i := range m.named {
			if m.named[i].name == a.Key {
				p = &m.named[i]
			}
		}
		if p == nil {
			var names []string
			for _, n := range m.named {
				names = append(names, n.name)
			}
			if len(names) == 0 {
				return c.errf(a.Pos, "%s takes no Key=Value arguments", s.Method)
			}
			return c.errf(a.Pos, "unknown argument %s= for %s (it takes %s)", a.Key, s.Method, strings.Join(names, ", "))
		}
		if seen[a.Key] {
			return c.errf(a.Pos, "argument %s given twice", a.Key)
		}
		seen[a.Key] = true
		if err := c.arg(s, *p, a.Value); err != nil {
			return err
		}
	}
	if err := c.shaderCode(s); err != nil {
		return err
	}
	for i := npos; i < len(m.pos); i++ {
		if !m.pos[i].opt {
			return c.errf(s.MethodPos, "%s needs a %s argument (argument %d)", s.Method, m.pos[i].name, i+1)
		}
	}
	for _, p := range m.named {
		if !p.opt && !seen[p.name] {
			return c.errf(s.MethodPos, "%s needs %s=", s.Method, p.name)
		}
	}
	if len(s.Results) > len(m.results) {
		if len(m.results) == 0 {
			return c.errf(s.Pos, "%s returns nothing to name", s.Method)
		}
		return c.errf(s.Pos, "%s returns %d value(s), not %d", s.Method, len(m.results), len(s.Results))
	}
	for i, r := range s.Results {
		if r == "NULL" || r == "TRUE" || r == "FALSE" {
			return c.errf(s.Pos, "%s is reserved and cannot name an object", r)
		}
		c.types[r] = m.results[i]
	}
	return nil
}

func (c *checker) arg(s *Call, p param, v Value) error {
	if p.kind == pObjOrCode {
		p.kind = pObj
		if v.Kind != VIdent {
			p.kind = pBuiltin
		}
	}
	switch p.kind {
	case pObj:
		if v.Kind != VIdent {
			return c.errf(v.Pos, "%s of %s must be an object name, not %q", p.name, s.Method, v.Text)
		}
		if v.Ident == "NULL" {
			if !p.opt {
				return c.errf(v.Pos, "%s of %s cannot be NULL", p.name, s.Method)
			}
			return nil
		}
		t, ok := c.types[v.Ident]
		if !ok {
			return c.errf(v.Pos, "unknown object %q", v.Ident)
		}
		for _, want := range strings.Split(p.types, "|") {
			if t == want {
				return nil
			}
		}
		return c.errf(v.Pos, "%s of %s must be a %s, and %s is a %s", p.name, s.Method, fmtTypes(p.types), v.Ident, t)
	case pUint, pInt, pFloat:
		if v.Kind != VNumber {
			return c.errf(v.Pos, "%s of %s must be a number, not %q", p.name, s.Method, v.Text)
		}
		if p.kind != pFloat && (v.Num != math.Trunc(v.Num) || math.Abs(v.Num) > math.MaxUint32) {
			return c.errf(v.Pos, "%s of %s must be a whole number within 32 bits, not %s", p.name, s.Method, v.Text)
		}
		if p.kind == pUint && v.Num < 0 {
			return c.errf(v.Pos, "%s of %s cannot be negative", p.name, s.Method)
		}
		if math.IsInf(v.Num, 0) || math.IsNaN(v.Num) {
			return c.errf(v.Pos, "%s of %s must be finite", p.name, s.Method)
		}
	case pFloatOrColor:
		if v.Kind != VNumber && v.Kind != VColor {
			return c.errf(v.Pos, "%s of %s must be a number or a #RRGGBBAA colour, not %q", p.name, s.Method, v.Text)
		}
	case pBool:
		if v.Kind != VIdent || (v.Ident != "TRUE" && v.Ident != "FALSE") {
			return c.errf(v.Pos, "%s of %s must be TRUE or FALSE, not %q", p.name, s.Method, v.Text)
		}
	case pEnum, pFlags:
		tbl := d3d11.Enum(p.enum)
		names := []string{v.Ident}
		switch v.Kind {
		case VIdent:
		case VFlags:
			if p.kind != pFlags {
				return c.errf(v.Pos, "%s of %s takes one value, not flags", p.name, s.Method)
			}
			names = v.Flags
		case VNumber:
			if p.kind == pFlags && v.Num == 0 {
				return nil
			}
			return c.errf(v.Pos, "%s of %s must be one of %s", p.name, s.Method, strings.Join(d3d11.EnumNames(p.enum), ", "))
		default:
			return c.errf(v.Pos, "%s of %s must be one of %s, not %q", p.name, s.Method, strings.Join(d3d11.EnumNames(p.enum), ", "), v.Text)
		}
		for _, n := range names {
			if _, ok := tbl[n]; !ok {
				return c.errf(v.Pos, "unknown %s value %q for %s (known: %s)", p.name, n, s.Method, strings.Join(d3d11.EnumNames(p.enum), ", "))
			}
		}
	case pData:
		if _, ok := dataBytes(v); !ok {
			if v.Kind == VMesh {
				return c.errf(v.Pos, "unknown mesh %q (built-in meshes: cube, quad, triangle)", v.Ident)
			}
			return c.errf(v.Pos, "%s of %s must be data: f32[...], u8[...], u16[...], u32[...], i8[...], i16[...], i32[...], mesh:NAME or #RRGGBBAA", p.name, s.Method)
		}
	case pElem:
		if _, msg := elemDesc(v); msg != "" {
			return c.errf(v.Pos, "%s", msg)
		}
	case pString:
		if v.Kind != VString {
			return c.errf(v.Pos, "%s of %s must be a string in double quotes (\"text\")", p.name, s.Method)
		}
	case pWord:
		if v.Kind != VIdent {
			return c.errf(v.Pos, "%s= of %s must be a name", p.name, s.Method)
		}
	case pHLSLFlags:
		if v.Kind != VIdent && v.Kind != VFlags {
			return c.errf(v.Pos, "%s= of %s must be D3DCompile flags: ENABLE_BACKWARDS_COMPATIBILITY, names joined by |", p.name, s.Method)
		}
		if _, err := hlslFlags(&v); err != nil {
			return c.errf(v.Pos, "%s= of %s: %v", p.name, s.Method, err)
		}
	case pBuiltin:
		switch v.Kind {
		case VHLSL, VFxc:
			kind := map[ValueKind]string{VHLSL: "hlsl", VFxc: "fxc"}[v.Kind]
			if src := c.sources[v.Ident]; src == nil || src.Kind != kind {
				return c.errf(v.Pos, "no %s block named %s (define it at the top level: '%s %s {', its text, '}')", kind, v.Ident, kind, v.Ident)
			}
			return nil
		case VBytes:
			return nil
		case VBuiltin:
		default:
			return c.errf(v.Pos, "%s of %s must be builtin:NAME, hlsl:NAME, fxc:NAME or bytes:HEX", p.name, s.Method)
		}
		if !slices.Contains(builtins.Names(p.enum), v.Ident) {
			return c.errf(v.Pos, "unknown %s built-in shader %q (known: %s)", strings.ToUpper(p.enum), v.Ident, strings.Join(builtins.Names(p.enum), ", "))
		}
	}
	return nil
}

func (c *checker) inject(s *Inject) error {
	if !s.Fault.Known() {
		var known []string
		for _, f := range machine.Faults() {
			known = append(known, string(f))
		}
		return c.errf(s.Pos, "unknown fault %q (known: %s)", s.Fault, strings.Join(known, ", "))
	}
	args := map[string]Arg{}
	for _, a := range s.Args {
		args[a.Key] = a
	}
	switch s.Fault {
	case machine.FaultOutOfMemory, machine.FaultInvalidArg:
		at, ok := args["at"]
		if !ok {
			return c.errf(s.Pos, "inject %s needs at=CTX.Method", s.Fault)
		}
		obj, _, found := strings.Cut(at.Value.Ident, ".")
		if !found {
			return c.errf(at.Pos, "at= must be CTX.Method, like imm.CreateResource")
		}
		if _, ok := c.types[obj]; !ok {
			return c.errf(at.Pos, "unknown object %q", obj)
		}
	case machine.FaultOverrun:
		a, ok := args["target"]
		if !ok {
			return c.errf(s.Pos, "inject %s needs target=RES", machine.FaultOverrun)
		}
		if t, ok := c.types[a.Value.Ident]; !ok {
			return c.errf(a.Pos, "unknown object %q", a.Value.Ident)
		} else if t != tBuffer && t != tTexture {
			return c.errf(a.Pos, "inject %s: target=%s is a %s; it needs a buffer or a texture", machine.FaultOverrun, a.Value.Ident, t)
		}
	case machine.FaultForeignAllocation:
		for _, k := range []string{"target", "on"} {
			a, ok := args[k]
			if !ok {
				return c.errf(s.Pos, "inject %s needs target=OBJ on=DEV", machine.FaultForeignAllocation)
			}
			t, ok := c.types[a.Value.Ident]
			if !ok {
				return c.errf(a.Pos, "unknown object %q", a.Value.Ident)
			}
			if want := map[string]string{"target": tBuffer + "|" + tTexture, "on": tDevice}[k]; !slices.Contains(strings.Split(want, "|"), t) {
				return c.errf(a.Pos, "inject %s: %s=%s is a %s; it needs a %s", machine.FaultForeignAllocation, k, a.Value.Ident, t, strings.ReplaceAll(want, "|", " or a "))
			}
		}
	}
	return nil
}

// until checks an until loop's condition: a known HRESULT, or a query's
// data; an hr condition needs a call in the block, or hr never changes.
func (c *checker) until(s *Until) error {
	if s.Cond.Data != nil {
		return c.data(s.Cond.Pos, s.Cond.Data)
	}
	if err := c.hresult(s.Cond.Pos, s.Cond.HR); err != nil {
		return err
	}
	if !callsIn(s.Body) {
		return c.errf(s.Pos, "until %s: the block makes no API call on this thread, so hr never changes", s.Cond.Text)
	}
	return nil
}

// callsIn reports whether stmts make an API call on their own thread.
func callsIn(stmts []Stmt) bool {
	for _, st := range stmts {
		switch st := st.(type) {
		case *Call:
			return true
		case *Repeat:
			if callsIn(st.Body) {
				return true
			}
		case *Until:
			if callsIn(st.Body) {
				return true
			}
		}
	}
	return false
}

func (c *checker) hresult(p Pos, name string) error {
	if _, ok := hresult.Parse(name); !ok && name != Dropped { // DROPPED: a void call the runtime dropped (void.go)
		names := hresult.Names()
		sort.Strings(names)
		return c.errf(p, "unknown HRESULT %q (known: %s)", name, strings.Join(names, ", "))
	}
	return nil
}

// data checks `data QUERY OP VALUE`: QUERY, and VALUE when it names one, are
// queries.
func (c *checker) data(p Pos, d *DataCmp) error {
	for i, q := range []string{d.Query, d.Ref} {
		if q == "" {
			continue
		}
		if f := []string{d.Field, d.RefField}[i]; f != "" && !queryFieldNames[f] {
			return c.errf(p, "%s.%s: no D3D11 query data has a member %s (PIPELINE_STATISTICS has IAVertices ... CSInvocations, TIMESTAMP_DISJOINT Frequency and Disjoint, SO_STATISTICS NumPrimitivesWritten and PrimitivesStorageNeeded)", q, f, f)
		}
		t, ok := c.types[q]
		if !ok {
			return c.errf(p, "unknown object %q (data compares what GetData of a query returned)", q)
		}
		if t != tQuery {
			return c.errf(p, "data needs a query, and %s is a %s", q, t)
		}
	}
	return nil
}

// queryFieldNames are the member names of every query kind's data.
var queryFieldNames = func() map[string]bool {
	m := map[string]bool{}
	for t := d3d11.QueryType(0); t.Known(); t++ {
		for _, f := range d3d11.QueryFieldNames(t) {
			m[f] = true
		}
	}
	return m
}()

func (c *checker) expect(s *Expect) error {
	switch s.Kind {
	case ExpectData:
		return c.data(s.Pos, s.Data)
	case ExpectHR:
		return c.hresult(s.Pos, s.Name)
	case ExpectSupport:
		for _, f := range s.Flags {
			if _, ok := d3d11.Enum("FormatSupport")[f]; !ok {
				return c.errf(s.Pos, "unknown D3D11_FORMAT_SUPPORT name %s (want one of %s)", quote(f), strings.Join(d3d11.EnumNames("FormatSupport"), ", "))
			}
		}
	case ExpectPixel, ExpectHash, ExpectProbe:
		t, ok := c.types[s.Name]
		if !ok {
			return c.errf(s.Pos, "unknown object %q", s.Name)
		}
		if t != tTexture && t != tBuffer && !((s.Kind == ExpectPixel || s.Kind == ExpectProbe) && t == tSwap) {
			return c.errf(s.Pos, "expect %s needs a resource, and %s is a %s", map[ExpectKind]string{ExpectPixel: "pixel", ExpectHash: "hash", ExpectProbe: "probe"}[s.Kind], s.Name, t)
		}
		if s.Kind == ExpectPixel && t == tBuffer {
			return c.errf(s.Pos, "expect pixel needs a texture, and %s is a buffer", s.Name)
		}
		if s.Kind == ExpectProbe && t != tBuffer && len(s.Probe.Values) > 4 {
			return c.errf(s.Pos, "a probe of a texture compares 1 to 4 channels, found %d (a buffer's compares its words from X)", len(s.Probe.Values))
		}
		if s.Kind == ExpectProbe && t == tBuffer && (s.Y != 0 || s.Probe.Bottom != 1 || s.Probe.Right != s.X+1) {
			return c.errf(s.Pos, "a probe of buffer %s is `expect probe %s WORD 0 == LIST`: the words from WORD (a 32-bit index), no rectangle", s.Name, s.Name)
		}
		if _, ok := d3d11.Enum("Format")[s.As]; s.As != "" && !ok {
			return c.errf(s.Pos, "unknown format %s after 'as'", quote(s.As))
		}
	}
	return nil
}

// MaxHLSLShaders is how many shaders at the compiler's limits (tokens and
// nodes) the hlsl blocks of one scenario may take to compile, all fresh
// compiles together: the worst of them takes seconds.
const MaxHLSLShaders = 4

// hlslLimits is the compiler's limits with the scenario's options: the
// defaults where an option is absent.
func hlslLimits(l hlsl.Limits) hlsl.Limits {
	d := hlsl.DefaultLimits()
	if l.Tokens > 0 {
		d.Tokens = l.Tokens
	}
	if l.Nodes > 0 {
		d.Nodes = l.Nodes
	}
	if l.Instructions > 0 {
		d.Instructions = l.Instructions
	}
	return d
}

// shaderCode gives the bytecode to CreateVertexShader's and
// CreatePixelShader's hlsl:NAME (compiled here, when the scenario loads,
// as fxc compiles at build time: its errors are load errors, in fxc's
// form, at the scenario's lines), fxc:NAME (the header's bytes) and
// builtin:NAME (the built-in shader's HLSL, compiled once per process by
// package builtins): the runtime gets bytecode whatever the source.
func (c *checker) shaderCode(s *Call) error {
	if s.Method != "CreateVertexShader" && s.Method != "CreatePixelShader" && s.Method != "CreateComputeShader" && s.Method != "CreateGeometryShader" && s.Method != "CreateGeometryShaderWithStreamOutput" && s.Method != "CreateInputLayout" &&
		s.Method != "CreateHullShader" && s.Method != "CreateDomainShader" {
		return nil
	}
	var prog *Value
	entry, target := "main", "vs_5_0"
	switch s.Method {
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
	var opts *Arg
	lim := c.hlslLim
	for i := range s.Args {
		a := &s.Args[i]
		switch a.Key {
		case "":
			if prog == nil { // the first: CreateInputLayout's elements follow
				prog = &a.Value
			}
		case "entry":
			entry, opts = a.Value.Ident, a
		case "target":
			target, opts = a.Value.Ident, a
		case "flags":
			flags, _ := hlslFlags(&a.Value)
			lim.Flags, opts = flags, a
		}
	}
	if prog == nil || prog.Kind == VIdent && s.Method == "CreateInputLayout" && opts == nil {
		return nil // (a shader object's signature)
	}
	if opts != nil && prog.Kind != VHLSL {
		return c.errf(opts.Pos, "%s= is for hlsl:NAME (the bytecode of %s is already compiled)", opts.Key, prog.Text)
	}
	src := c.sources[prog.Ident]
	switch prog.Kind {
	case VBuiltin:
		b, err := builtins.Lookup(prog.Ident)
		if err != nil {
			return c.errf(prog.Pos, "%v", err)
		}
		prog.Bytes = b.Bytecode
	case VFxc:
		b, err := dxbc.ParseFxcHeader(src.Text)
		if err != nil {
			return c.errf(src.Pos, "fxc block %s: %v", src.Name, err)
		}
		prog.Bytes = b
	case VHLSL:
		// The block's lines keep their numbers: the text is compiled after
		// as many empty lines as precede it in the scenario.
		text := strings.Repeat("\n", src.Line-1) + src.Text
		// Compiled once per distinct block, entry and target (the
		// process's cache: 10,000 references to one block compiled it
		// 10,000 times), and all of a load's compiles together are
		// bounded: four shaders at their limits.
		res, work, fresh, err := hlsl.SharedCache.Compile([]byte(text), c.file, entry, target, lim)
		if fresh {
			c.hlslFresh++
			c.hlslWork.Tokens += work.Tokens
			c.hlslWork.Nodes += work.Nodes
			lim := hlslLimits(c.hlslLim)
			if c.hlslWork.Tokens > MaxHLSLShaders*lim.Tokens || c.hlslWork.Nodes > MaxHLSLShaders*lim.Nodes {
				return c.errf(prog.Pos, "hlsl block %s (entry %s, target %s): the HLSL of this scenario took %d tokens and %d nodes in %d compiles, past the budget of a load (%d tokens and %d nodes, %d shaders at the compiler's limits; each distinct block, entry and target compiles once; option hlsl.tokens and hlsl.nodes raise it)",
					src.Name, entry, target, c.hlslWork.Tokens, c.hlslWork.Nodes, c.hlslFresh, MaxHLSLShaders*lim.Tokens, MaxHLSLShaders*lim.Nodes, MaxHLSLShaders)
			}
		}
		if err != nil {
			pos := prog.Pos
			var diags hlsl.Errors
			if errors.As(err, &diags) && len(diags) > 0 && diags[0].Line > 0 {
				pos = Pos{Line: diags[0].Line, Col: diags[0].Col}
			}
			return c.errf(pos, "hlsl block %s (entry %s, target %s): %v", src.Name, entry, target, err)
		}
		prog.Bytes = res.Bytecode
	}
	return nil
}
