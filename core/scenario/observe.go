package scenario

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"d3dsim/core/d3d11"
	"d3dsim/core/hresult"
)

// Observing a run: what each API call did, with every argument resolved,
// for a recorder of the run (core/apitrace writes it as an apitrace
// capture), and a description of the API table for a reader that writes
// scenarios (core/apitrace's import).

// ParamKind is the kind of a method's parameter.
type ParamKind uint8

const (
	ParamObject         ParamKind = iota + 1 // an object (Obj), or NULL where optional
	ParamUint                                // a non-negative integer (Num)
	ParamInt                                 // an integer (Num)
	ParamFloat                               // a number (Num)
	ParamEnum                                // one value of Enum (Bits)
	ParamFlags                               // values of Enum joined by | (Bits)
	ParamData                                // bytes: a data list, a mesh or a colour (Bytes)
	ParamShader                              // shader bytecode: builtin:, hlsl:, fxc:, bytes: (Bytes)
	ParamWord                                // a name (Ident): hlsl's entry= and target=
	ParamElem                                // elem[...]: one input element (Elem)
	ParamBool                                // TRUE or FALSE (Bool)
	ParamFloatOrColor                        // a number (Num) or a #RRGGBBAA colour (Color, IsColor)
	ParamObjectOrShader                      // an object (Obj), or shader bytecode (Bytes)
	ParamString                              // a quoted string (Text)
)

var paramKinds = map[pkind]ParamKind{pObj: ParamObject, pUint: ParamUint, pInt: ParamInt, pFloat: ParamFloat, pEnum: ParamEnum,
	pFlags: ParamFlags, pData: ParamData, pBuiltin: ParamShader, pWord: ParamWord, pElem: ParamElem, pBool: ParamBool,
	pFloatOrColor: ParamFloatOrColor, pObjOrCode: ParamObjectOrShader, pString: ParamString, pHLSLFlags: ParamWord}

// ParamInfo describes one parameter of a method.
type ParamInfo struct {
	Name       string
	Kind       ParamKind
	Enum       string   // ParamEnum, ParamFlags: the enum table (d3d11.Enum)
	Types      []string // ParamObject: the object types it takes
	Positional bool
	Optional   bool
	Default    float64 // an optional number's default
}

// MethodInfo describes one method of the API table.
type MethodInfo struct {
	Params  []ParamInfo // positional ones first, in order, then named ones
	Results []string    // the types of the objects it binds
}

// Describe returns the method a scenario calls on an object of type typ
// ("" for the global D3D11CreateDevice), as the checker knows it.
func Describe(typ, name string) (MethodInfo, bool) {
	var m *method
	if typ == "" {
		m = globals[name]
	} else {
		m = lookupMethod(typ, name)
	}
	if m == nil {
		return MethodInfo{}, false
	}
	var out MethodInfo
	add := func(p param, positional bool) {
		pi := ParamInfo{Name: p.name, Kind: paramKinds[p.kind], Enum: p.enum, Positional: positional, Optional: p.opt, Default: p.def}
		if p.types != "" && (p.kind == pObj || p.kind == pObjOrCode) {
			pi.Types = splitTypes(p.types)
		}
		out.Params = append(out.Params, pi)
	}
	for _, p := range m.pos {
		add(p, true)
	}
	for _, p := range m.named {
		add(p, false)
	}
	out.Results = append(out.Results, m.results...)
	return out, true
}

func splitTypes(s string) []string {
	var out []string
	for len(s) > 0 {
		i := 0
		for i < len(s) && s[i] != '|' {
			i++
		}
		out = append(out, s[:i])
		if i < len(s) {
			i++
		}
		s = s[i:]
	}
	return out
}

// Types lists the object types a scenario names.
func Types() []string { return append([]string(nil), allTypes...) }

// TypeOf is the scenario type of an object a run made ("buffer", "vs", ...).
func TypeOf(obj any) string { return typeOf(obj) }

// Methods lists the methods of an object type, sorted.
func Methods(typ string) []string {
	var out []string
	for n := range methods[typ] {
		out = append(out, n)
	}
	for n := range common {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// ArgRecord is one argument of a call a run made, resolved: the field its
// kind says holds the value, the parameter's default where Given is false.
type ArgRecord struct {
	ParamInfo
	Given   bool
	Num     float64
	Bits    uint32
	Obj     any // nil for NULL
	Bytes   []byte
	Ident   string
	Text    string // ParamString: the decoded string
	Bool    bool
	Elem    d3d11.InputElementDesc
	Color   [4]float32
	IsColor bool
	Value   Value // the value as written (zero when not given)
}

// CallRecord is one API call a run made.
type CallRecord struct {
	Thread     string
	Line       int
	Method     string
	Target     any    // the object called; nil for D3D11CreateDevice
	TargetType string // its scenario type
	Args       []ArgRecord
	Results    []any // the objects the call made, in order (nil where it failed)
	Err        error
	HR         hresult.HRESULT
	Dropped    bool            // a void method the runtime dropped
	Mapped     []byte          // Map: the memory it mapped (nil when it failed)
	Data       uint64          // GetData's answer, GetMaximumFrameLatency's, GetCompletedValue's, CheckFormatSupport's, CheckFeatureSupport's (bit i: the i-th BOOL)
	Query      d3d11.QueryData // GetData's whole answer: every member of the kind's structure
}

// Arg is the argument called name (nil when the method has none).
func (c *CallRecord) Arg(name string) *ArgRecord {
	for i := range c.Args {
		if c.Args[i].Name == name {
			return &c.Args[i]
		}
	}
	return nil
}

// InjectRecord is an inject statement a run executed, with the objects its
// arguments name.
type InjectRecord struct {
	Thread  string
	Line    int
	Stmt    *Inject
	Objects map[string]any // at=OBJ.Method, target=, on=: the objects by name
}

// ExpectRecord is an expect statement that reads a resource back (pixel,
// hash, probe): it waits for the GPU to finish the work on the resource's
// device, so a run without it can present fewer frames (a hang injected
// next cancels a Present the GPU has not done yet). Object is the
// resource, or the swap chain, the statement names.
type ExpectRecord struct {
	Thread string
	Line   int
	Stmt   *Expect
	Object any
}

// Observer receives what a run does as it does it.
type Observer struct {
	Call   func(*CallRecord)
	Inject func(*InjectRecord)
	Expect func(*ExpectRecord)
}

// Observe has o see every API call, inject statement and expect statement
// that reads a resource back from now on.
func (r *Run) Observe(o *Observer) { r.obs = o }

// observe reports the call x just made.
func (r *Run) observe(t *thread, s *Call, x *call, err error) {
	if r.obs == nil || r.obs.Call == nil {
		return
	}
	rec := &CallRecord{Thread: t.name, Line: s.Line, Method: s.Method, Target: x.tgt, TargetType: typeOf(x.tgt),
		Err: err, HR: hresult.Of(err), Dropped: t.lastDropped}
	if x.tgt == nil {
		rec.TargetType = ""
	}
	for i, p := range x.m.pos {
		a := x.posArgP(i)
		rec.Args = append(rec.Args, r.argRecord(p, a, true))
	}
	for _, p := range x.m.named {
		var ap *Arg
		if a, ok := x.namedArg(p.name); ok {
			ap = &a
		}
		rec.Args = append(rec.Args, r.argRecord(p, ap, false))
	}
	for _, n := range s.Results {
		if err == nil {
			rec.Results = append(rec.Results, r.vars[n])
		} else {
			rec.Results = append(rec.Results, nil)
		}
	}
	switch s.Method {
	case "Map":
		if res := x.res(0); err == nil && res != nil {
			rec.Mapped = res.Mapped()
		}
	case "GetData", "GetMaximumFrameLatency", "GetCompletedValue", "CheckFeatureSupport":
		rec.Data = r.lastData
		if s.Method == "GetData" {
			rec.Query = r.lastQuery
		}
	case "CheckFormatSupport":
		rec.Data = uint64(r.support.s)
	}
	r.obs.Call(rec)
}

func (r *Run) argRecord(p param, a *Arg, positional bool) ArgRecord {
	ar := ArgRecord{ParamInfo: ParamInfo{Name: p.name, Kind: paramKinds[p.kind], Enum: p.enum, Positional: positional, Optional: p.opt, Default: p.def}}
	if p.types != "" && (p.kind == pObj || p.kind == pObjOrCode) {
		ar.Types = splitTypes(p.types)
	}
	ar.Num = p.def
	if a == nil {
		return ar
	}
	v := a.Value
	ar.Given, ar.Value = true, v
	switch p.kind {
	case pObj, pObjOrCode:
		if v.Kind == VIdent {
			if v.Ident != "NULL" {
				ar.Obj = r.vars[v.Ident]
			}
		} else {
			ar.Bytes = v.Bytes
		}
	case pUint, pInt, pFloat:
		ar.Num = v.Num
	case pEnum, pFlags:
		ar.Bits = enumValue(p, v)
	case pData:
		ar.Bytes, _ = dataBytes(v)
	case pBuiltin:
		ar.Bytes = v.Bytes
	case pWord:
		ar.Ident = v.Ident
	case pHLSLFlags:
		ar.Ident = strings.Join(flagNames(&v), "|")
	case pString:
		ar.Text = v.Text
	case pElem:
		ar.Elem, _ = elemDesc(v)
	case pBool:
		ar.Bool = v.Ident == "TRUE"
	case pFloatOrColor:
		if v.Kind == VColor {
			ar.IsColor = true
			for i := range 4 {
				ar.Color[i] = float32(v.Color[i]) / 255
			}
		} else {
			ar.Num = v.Num
		}
	}
	return ar
}

// observeInject reports an inject statement.
func (r *Run) observeInject(s *Inject) {
	if r.obs == nil || r.obs.Inject == nil || r.cur == nil {
		return
	}
	rec := &InjectRecord{Thread: r.cur.name, Line: s.Line, Stmt: s, Objects: map[string]any{}}
	for _, a := range s.Args {
		name := a.Value.Ident
		if i := indexByte(name, '.'); i >= 0 {
			name = name[:i]
		}
		if o, ok := r.vars[name]; ok && o != nil {
			rec.Objects[name] = o
		}
	}
	r.obs.Inject(rec)
}

// observeExpect reports an expect statement that reads a resource back or
// expects a violation (Format).
func (r *Run) observeExpect(t *thread, e *Expect) {
	if r.obs == nil || r.obs.Expect == nil || e.Format(e.Name) == "" {
		return
	}
	r.obs.Expect(&ExpectRecord{Thread: t.name, Line: e.Line, Stmt: e, Object: r.vars[e.Name]})
}

// Format writes an expect statement that reads a resource back (pixel,
// hash, probe) as the language does, with name for the resource, and one
// that expects a violation of a rule (a run that breaks the rule on
// purpose, an inject's driver bug, says so); "" for the other kinds. Load
// reads it back to the same statement.
func (e *Expect) Format(name string) string {
	switch e.Kind {
	case ExpectViolation:
		return "expect violation " + e.Name
	case ExpectPixel:
		s := fmt.Sprintf("expect pixel %s %d %d", name, e.X, e.Y)
		if e.As != "" {
			s += " as " + e.As
		}
		if e.Texel == nil {
			return s + " == " + colorString(e.Color)
		}
		s += " == " + formatList(e.Texel.Kind, e.Texel.F32, e.Texel.U32)
		if e.Within != 0 {
			s += " within " + strconv.FormatFloat(e.Within, 'g', -1, 64)
		}
		return s
	case ExpectHash:
		return fmt.Sprintf("expect hash %s == %s", name, e.Hex)
	case ExpectProbe:
		p := e.Probe
		if p == nil {
			return ""
		}
		s := fmt.Sprintf("expect probe %s %d %d", name, e.X, e.Y)
		if p.Right != e.X+1 || p.Bottom != e.Y+1 {
			s += fmt.Sprintf(" %d %d", p.Right, p.Bottom)
		}
		var f []float32
		if p.Kind == VF32 {
			for _, v := range p.Values {
				f = append(f, math.Float32frombits(v))
			}
		}
		s += " == " + formatList(p.Kind, f, p.Values)
		if p.Ulps != 0 {
			s += " ulps=" + strconv.Itoa(p.Ulps)
		}
		return s
	}
	return ""
}

// formatList writes an f32, u32 or i32 list as the language does.
func formatList(kind ValueKind, f []float32, u []uint32) string {
	var parts []string
	switch kind {
	case VF32:
		for _, x := range f {
			switch {
			case math.IsNaN(float64(x)):
				parts = append(parts, "nan")
			case math.IsInf(float64(x), 1):
				parts = append(parts, "inf")
			case math.IsInf(float64(x), -1):
				parts = append(parts, "-inf")
			default:
				parts = append(parts, strconv.FormatFloat(float64(x), 'g', -1, 32))
			}
		}
		return "f32[" + strings.Join(parts, " ") + "]"
	case VI32:
		for _, x := range u {
			parts = append(parts, strconv.Itoa(int(int32(x))))
		}
		return "i32[" + strings.Join(parts, " ") + "]"
	}
	for _, x := range u {
		parts = append(parts, strconv.FormatUint(uint64(x), 10))
	}
	return "u32[" + strings.Join(parts, " ") + "]"
}

func indexByte(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}
