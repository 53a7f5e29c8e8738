package apitrace

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"d3dsim/core/hresult"
	"d3dsim/core/scenario"
)

// Importing a capture: each D3D11 or DXGI call of a trace (binary or
// `apitrace dump` text) becomes the scenario statement that makes the same
// call, by the table of mappings (mapping.go). Objects are named after the
// pointers the trace records (or the names apitrace-tests' reference dumps
// bind), threads after its thread numbers; every statement keeps the call
// number in a comment. What the simulator cannot do is listed in the
// report (name, count, first call), never dropped silently.

// CallSource yields the calls of a capture in order (Reader, DumpReader).
type CallSource interface {
	Next() (*Call, error)
}

// ImportOptions change how a capture is imported.
type ImportOptions struct {
	// Name is the capture's file name, for the scenario's first comment.
	Name string
	// Strict stops at the first call the simulator cannot make, with an
	// error naming it; otherwise such calls are skipped and reported.
	Strict bool
	// Blob reads a file `apitrace dump --blobs` wrote (blob("NAME")).
	Blob func(name string) ([]byte, error)
	// MaxBytes bounds the scenario written (default: the 1 MiB a
	// scenario may be).
	MaxBytes int
}

// Unsupported is one kind of call the import could not map.
type Unsupported struct {
	Name   string `json:"name"` // the call (Interface::Method)
	Count  int    `json:"count"`
	First  uint64 `json:"first"`  // the first call's number
	Reason string `json:"reason"` // why, for the first one
}

// Notice is something the import changed or could not carry over.
type Notice struct {
	Call uint64 `json:"call"`
	Msg  string `json:"msg"`
}

// Report says what an import did.
type Report struct {
	Calls       int // calls read
	Statements  int // statements written
	Unsupported []Unsupported
	Notices     []Notice
	NoticeCount int // notices in all (Notices keeps the first 100)
	Cut         string

	rows map[*row]int // calls each row of the mapping imported (the tests' coverage)
}

func (r *Report) used(x *row) {
	if r.rows == nil {
		r.rows = map[*row]int{}
	}
	r.rows[x]++
}

// String prints the report as the CLI does.
func (r *Report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d calls imported as %d statements\n", r.Calls, r.Statements)
	if len(r.Unsupported) == 0 {
		b.WriteString("unsupported calls: none\n")
	} else {
		b.WriteString("unsupported calls (skipped):\n")
		for _, u := range r.Unsupported {
			fmt.Fprintf(&b, "  %s: %d, first call %d: %s\n", u.Name, u.Count, u.First, u.Reason)
		}
	}
	for _, n := range r.Notices {
		fmt.Fprintf(&b, "notice: call %d: %s\n", n.Call, n.Msg)
	}
	if r.NoticeCount > len(r.Notices) {
		fmt.Fprintf(&b, "notice: ... and %d more\n", r.NoticeCount-len(r.Notices))
	}
	if r.Cut != "" {
		b.WriteString("notice: " + r.Cut + "\n")
	}
	return b.String()
}

// UnsupportedError is what a strict import stops with.
type UnsupportedError struct {
	Call   uint64
	Name   string
	Reason string
}

func (e *UnsupportedError) Error() string {
	return fmt.Sprintf("call %d: %s: %s", e.Call, e.Name, e.Reason)
}

// object is one object of the capture.
type object struct {
	id     int
	key    string // the pointer (0x...) or the reference dump's binding (<name>)
	typ    string // the scenario type; "" for objects with no counterpart (a DXGI factory)
	kind   string // what it is when typ is "": factory, adapter, annotation, unknown
	alias  *object
	prefix string
	name   string // assigned at the end
	debug  string // SetPrivateData's debug name
	dev    *object
	imm    bool
	// resources
	w, h, format uint32
	mips, slices uint32 // a texture's levels and slices (0: one)
	traceFormat  uint32 // a swap chain's format in the capture where the simulated one is another (R8G8B8A8_UNORM in its place)
	size         uint32
	mapAddr      uint64
	mapRow       uint64
	mapSize      uint64
	mapped       bool
	mapBinding   string // the reference dump's name for the mapped address (<pMap0>)
	query        int64
	missing      string // why the object could not be made (calls that use it are unsupported)
	qi           *stmt  // an interface: the AddRef of the QueryInterface that made it
	refOps       int    // AddRef and Release statements of the object so far
}

// stmt is one statement of the scenario being written.
type stmt struct {
	thread      uint64
	text        string // objects as placeholders (\x01id\x02)
	first, last uint64
	hr          string // the HRESULT it returned ("" for S_OK or none)
	count       int    // calls: more than 1 for a polling run (an until loop)
	poll        string // the "not yet" HRESULT of a polling run
	comment     bool   // a comment line
	directive   bool   // read back from a d3dsim: marker
	dropped     bool   // taken back (a QueryInterface and the Release that undid it)
}

// option is an option a marker carried.
type option struct {
	text string
	call uint64
}

type importer struct {
	opt      ImportOptions
	rep      *Report
	objs     map[string]*object
	all      []*object
	mapped   []*object // resources mapped now
	stmts    []*stmt
	options  []option
	lineOf   map[int]*stmt // the statement each line of the text holds (directives)
	optionAt map[int]int   // the option each line holds
	blocks   []string
	shaders  map[[32]byte]string
	stages   map[string]int
	bytes    int
	c        *Call // the call being imported
	unsup    map[string]*Unsupported
	stopped  error
}

// errSkip reports a call the simulator cannot make; the reason goes in the
// report.
type errSkip struct{ reason string }

func (e *errSkip) Error() string { return e.reason }

func skip(format string, args ...any) error { return &errSkip{fmt.Sprintf(format, args...)} }

// Import reads every call of src and writes the equivalent scenario.
func Import(src CallSource, opt ImportOptions) (string, *Report, error) {
	if opt.MaxBytes <= 0 {
		opt.MaxBytes = 1 << 20
	}
	m := &importer{opt: opt, rep: &Report{}, objs: map[string]*object{}, shaders: map[[32]byte]string{}, stages: map[string]int{},
		unsup: map[string]*Unsupported{}}
	for {
		c, err := src.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", m.rep, err
		}
		m.rep.Calls++
		if err := m.call(c); err != nil {
			return "", m.rep, err
		}
		if m.bytes > opt.MaxBytes {
			return "", m.rep, fmt.Errorf("call %d: the scenario would be longer than %d KiB, the most a scenario may be: import fewer calls (apitrace trim --calls=0-%d writes a shorter capture)", c.No, opt.MaxBytes>>10, c.No)
		}
	}
	if r, ok := src.(*Reader); ok {
		m.rep.Cut = r.Cut
	}
	// The scenario must load. What a marker carried is checked only
	// here: one the language refuses becomes a comment (and a line of the
	// report), and the text is written again.
	for tries := 0; ; tries++ {
		text := m.text()
		if len(text) > opt.MaxBytes {
			return "", m.rep, fmt.Errorf("the scenario would be %d KiB, more than the %d KiB a scenario may be: import fewer calls (apitrace trim)", len(text)>>10, opt.MaxBytes>>10)
		}
		_, err := scenario.Load(opt.Name, []byte(text))
		if err == nil {
			return text, m.rep, nil
		}
		var se *scenario.Error
		if errors.As(err, &se) && tries < 100 {
			if s := m.lineOf[se.Line]; s != nil {
				m.c = &Call{No: s.first}
				m.refused(s.first, "D3DPERF_SetMarker", fmt.Sprintf("marker %q: %s", resolve(s.text, m.names()), se.Msg))
				s.comment, s.directive = true, false
				s.text = "marker not read back: " + se.Msg
				m.rep.Statements--
				continue
			}
			if i, ok := m.optionAt[se.Line]; ok {
				o := m.options[i]
				m.refused(o.call, "D3DPERF_SetMarker", fmt.Sprintf("marker option %q: %s", o.text, se.Msg))
				m.options = append(m.options[:i], m.options[i+1:]...)
				continue
			}
		}
		return "", m.rep, fmt.Errorf("the imported scenario does not load (a fault of the import; please report it with the capture): %v", err)
	}
}

// refused reports a marker the language refuses.
func (m *importer) refused(call uint64, name, reason string) {
	u := m.unsup[name]
	if u == nil {
		m.rep.Unsupported = append(m.rep.Unsupported, Unsupported{Name: name, First: call, Reason: reason})
		for i := range m.rep.Unsupported {
			m.unsup[m.rep.Unsupported[i].Name] = &m.rep.Unsupported[i]
		}
		u = m.unsup[name]
	}
	u.Count++
}

func (m *importer) notice(format string, args ...any) {
	m.rep.NoticeCount++
	if len(m.rep.Notices) < 100 {
		m.rep.Notices = append(m.rep.Notices, Notice{m.c.No, fmt.Sprintf(format, args...)})
	}
}

// call imports one call.
func (m *importer) call(c *Call) error {
	m.c = c
	name := c.Name()
	iface, meth := c.Method()
	if c.Flags&FlagIncomplete != 0 {
		m.comment(c, fmt.Sprintf("%s: never returned (the capture ends inside it)", name))
		return nil
	}
	err := m.dispatch(c, name, iface, meth)
	if err == nil {
		return nil
	}
	var s *errSkip
	if !errors.As(err, &s) {
		return err
	}
	if m.opt.Strict {
		return &UnsupportedError{c.No, name, s.reason}
	}
	key := name
	if iface != "" {
		key = family(iface) + "::" + meth
	}
	u := m.unsup[key]
	if u == nil {
		m.rep.Unsupported = append(m.rep.Unsupported, Unsupported{Name: key, First: c.No, Reason: s.reason})
		u = &m.rep.Unsupported[len(m.rep.Unsupported)-1]
		m.unsup[key] = u
	}
	u.Count++
	// (the slice may have grown: keep the map pointing into it)
	for i := range m.rep.Unsupported {
		m.unsup[m.rep.Unsupported[i].Name] = &m.rep.Unsupported[i]
	}
	m.comment(c, fmt.Sprintf("%s: not simulated: %s", name, s.reason))
	return nil
}

func (m *importer) dispatch(c *Call, name, iface, meth string) error {
	if r := importMappings[name]; r != nil && iface == "" {
		m.rep.used(r)
		return r.imp(m, c, nil)
	}
	if iface == "" {
		switch name {
		case "CreateDXGIFactory", "CreateDXGIFactory1", "CreateDXGIFactory2":
			if out := c.Arg("ppFactory").Deref(); out != nil && succeededCall(c) {
				m.define(out, "", "factory", "")
			}
			return nil
		case "D3DPERF_SetRegion":
			return m.marker(c, name, c.Arg("wszName"))
		case "D3DPERF_QueryRepeatFrame", "D3DPERF_SetOptions":
			return nil
		}
		return skip("no D3D11 or DXGI call of the simulator is %s", name)
	}
	this := c.Arg("this")
	tgt, err := m.objOf(this)
	if err != nil {
		return err
	}
	if tgt == nil {
		return skip("this is NULL")
	}
	if tgt.alias != nil {
		tgt = tgt.alias
	}
	switch meth {
	case "QueryInterface":
		return m.queryInterface(c, tgt)
	case "GetDesc":
		if family(iface) != "IDXGISwapChain" {
			return nil // a resource's, a view's or a state's: no effect on the simulation
		}
	case "GetDesc1", "GetType", "GetEvictionPriority", "SetEvictionPriority",
		"GetCreationFlags", "GetFeatureLevel", "GetContextFlags", "GetDataSize",
		"CheckMultisampleQualityLevels", "GetExceptionMode", "GetContainingOutput", "GetFrameStatistics", "GetLastPresentCount",
		"GetFullscreenState", "GetGPUThreadPriority", "IsCurrent", "GetCreationFlagsDXGI", "CheckInterfaceSupport":
		return nil // queries with no effect on the simulation
	}
	switch family(iface) {
	case "IDXGIFactory":
		switch meth {
		case "EnumAdapters", "EnumAdapters1":
			if out := c.Arg("ppAdapter").Deref(); out != nil && succeededCall(c) {
				m.define(out, "", "adapter", "")
			}
			return nil
		case "MakeWindowAssociation", "GetWindowAssociation":
			return nil
		}
	case "IDXGIObject", "IDXGIAdapter", "IDXGIDevice":
		switch meth {
		case "GetParent", "GetAdapter":
			for _, a := range []string{"ppParent", "pAdapter"} {
				if out := c.Arg(a).Deref(); out != nil && succeededCall(c) {
					m.define(out, "", "factory", "")
				}
			}
			return nil
		}
	case "ID3D11Device":
		if meth == "GetImmediateContext" {
			out, err := m.objOf(c.Arg("ppImmediateContext").Deref())
			if err != nil || out == nil {
				return err
			}
			m.emit(c, fmt.Sprintf("%s.AddRef", m.ref(out)), "")
			return nil
		}
	}
	r := importMappings[family(iface)+"::"+meth]
	if r == nil {
		r = importMappings[meth] // AddRef, Release: on any interface
		if r != nil && r.iface != "" {
			r = nil
		}
	}
	if r == nil {
		return skip("the scenario language has no %s", meth)
	}
	if r.iface != "" {
		want := r.typ
		if family(r.iface) == "IDXGIFactory" {
			want = "" // made on the factory, a method of the device in the scenario
		}
		if tgt.typ != want {
			return skip("this is a %s, not a %s", orKind(tgt), r.typ)
		}
	}
	if tgt.missing != "" {
		return skip("%s could not be made: %s", tgt.kindName(), tgt.missing)
	}
	m.rep.used(r)
	return r.imp(m, c, tgt)
}

func succeededCall(c *Call) bool {
	if c.Ret == nil {
		return true
	}
	h, ok := valInt(c.Ret)
	return !ok || h >= 0
}

// hrOf is the name of the HRESULT a call returned ("" for S_OK, no return
// value or one the dump left out).
func hrOf(c *Call) string {
	if c.Ret == nil {
		return ""
	}
	v := c.Ret
	if v.Kind == KEnum && v.EnumSig != nil {
		if n, ok := v.EnumSig.Lookup(v.Int); ok {
			if n == "S_OK" {
				return ""
			}
			return n
		}
	}
	if v.Kind == KName {
		if v.Str == "S_OK" {
			return ""
		}
		return v.Str
	}
	if h, ok := valInt(v); ok {
		if h == 0 {
			return ""
		}
		return hresult.HRESULT(int32(h)).Name()
	}
	return ""
}

// kindName is how a report names an object.
func (o *object) kindName() string {
	if o.typ != "" {
		return o.typ + " " + o.key
	}
	return o.kind + " " + o.key
}

// keyOf is the key of a pointer value: 0x... or <name>.
func keyOf(v *Value) (string, bool) {
	v = v.Deref()
	if v == nil {
		return "", false
	}
	switch v.Kind {
	case KPointer:
		if v.Uint == 0 {
			return "", false
		}
		return "0x" + strconv.FormatUint(v.Uint, 16), true
	case KBinding:
		if v.Str == "" {
			return "", false
		}
		return "<" + v.Str + ">", true
	case KUInt:
		if v.Uint == 0 {
			return "", false
		}
		return "0x" + strconv.FormatUint(v.Uint, 16), true
	}
	return "", false
}

// objOf resolves a pointer argument to an object (nil for NULL).
func (m *importer) objOf(v *Value) (*object, error) {
	if v == nil {
		return nil, nil
	}
	v = v.Deref()
	if v.Kind == KNull {
		return nil, nil
	}
	if v.Kind == KBinding && v.Str == "" {
		return nil, skip("an object the dump leaves out (<>)")
	}
	k, ok := keyOf(v)
	if !ok {
		if (v.Kind == KPointer || v.Kind == KUInt) && v.Uint == 0 {
			return nil, nil
		}
		return nil, skip("%s is not an object pointer", describe(v))
	}
	o := m.objs[k]
	if o == nil {
		return nil, skip("object %s was not made by a call of the capture", k)
	}
	if o.alias != nil {
		return o.alias, nil
	}
	return o, nil
}

func describe(v *Value) string {
	if v == nil {
		return "missing"
	}
	var b strings.Builder
	d := dumper{sb: &b}
	d.value(v)
	s := b.String()
	if len(s) > 60 {
		s = s[:60] + "..."
	}
	return s
}

// define makes the object an output pointer names.
func (m *importer) define(v *Value, typ, kind, prefix string) *object {
	k, ok := keyOf(v)
	if !ok {
		return nil
	}
	o := &object{id: len(m.all), key: k, typ: typ, kind: kind, prefix: prefix}
	m.objs[k] = o
	m.all = append(m.all, o)
	return o
}

// ref is an object's placeholder in a statement (named at the end).
func (m *importer) ref(o *object) string {
	if o == nil {
		return "NULL"
	}
	if o.alias != nil {
		o = o.alias
	}
	return "\x01" + strconv.Itoa(o.id) + "\x02"
}

// emit adds a statement for call c (hr: the HRESULT name it returned, ""
// for S_OK or none).
func (m *importer) emit(c *Call, text, hr string) *stmt {
	s := &stmt{thread: c.Thread, text: text, first: c.No, last: c.No, hr: hr, count: 1}
	if m.mergePoll(s) {
		return m.stmts[len(m.stmts)-1]
	}
	m.bytes += len(text) + 20
	m.stmts = append(m.stmts, s)
	m.rep.Statements++
	return s
}

// comment adds a comment line for call c.
func (m *importer) comment(c *Call, text string) {
	m.bytes += len(text) + 20
	m.stmts = append(m.stmts, &stmt{thread: c.Thread, text: text, first: c.No, last: c.No, comment: true, count: 1})
}

// isPoll says whether a call returning hr asks again: GetData's S_FALSE,
// a DO_NOT_WAIT Map's or Present's DXGI_ERROR_WAS_STILL_DRAWING.
func isPoll(hr string) bool { return hr == "S_FALSE" || hr == "DXGI_ERROR_WAS_STILL_DRAWING" }

// mergePoll folds a call into the polling run before it: the same
// statement on the same thread, right after calls that answered "not yet".
func (m *importer) mergePoll(s *stmt) bool {
	n := len(m.stmts)
	if n == 0 {
		return false
	}
	p := m.stmts[n-1]
	if p.comment || p.dropped || p.thread != s.thread || p.text != s.text {
		return false
	}
	switch {
	case p.count == 1 && isPoll(p.hr):
		p.poll = p.hr
	case p.count > 1 && p.hr == p.poll:
	default:
		return false
	}
	p.count++
	p.last, p.hr = s.last, s.hr
	return true
}
