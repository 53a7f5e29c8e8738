package apitrace

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"d3dsim/core/scenario"
)

// The rows of the annotations and private data: ID3DUserDefinedAnnotation's
// markers (an interface of the context, asked for with QueryInterface), the
// D3DPERF_* functions, and SetPrivateData, SetPrivateDataInterface and
// GetPrivateData on any object. The signatures and argument names are
// apitrace's (specs/d3d11.py, specs/d3d9.py, specs/dxgi.py).

var (
	fnAnnBeginEvent = method("ID3DUserDefinedAnnotation", "BeginEvent", "Name")
	fnAnnEndEvent   = method("ID3DUserDefinedAnnotation", "EndEvent")
	fnAnnSetMarker  = method("ID3DUserDefinedAnnotation", "SetMarker", "Name")
	fnAnnGetStatus  = method("ID3DUserDefinedAnnotation", "GetStatus")
	fnCtxQI         = method("ID3D11DeviceContext", "QueryInterface", "riid", "ppvObj")
	fnAnnRelease    = method("ID3DUserDefinedAnnotation", "Release")
	fnPerfBegin     = funcSig("D3DPERF_BeginEvent", "col", "wszName")
	fnPerfEnd       = funcSig("D3DPERF_EndEvent")
	fnPerfGetStatus = funcSig("D3DPERF_GetStatus")
)

func annotationRows() []*row {
	return []*row{
		custom("ID3DUserDefinedAnnotation", "BeginEvent", "context", "BeginEvent", fnAnnBeginEvent, expAnnotation, impAnnotation),
		custom("ID3DUserDefinedAnnotation", "EndEvent", "context", "EndEvent", fnAnnEndEvent, expAnnotation, impAnnotation),
		custom("ID3DUserDefinedAnnotation", "SetMarker", "context", "SetMarker", fnAnnSetMarker, expAnnotation, impAnnotation),
		custom("ID3DUserDefinedAnnotation", "GetStatus", "context", "GetStatus", fnAnnGetStatus, expAnnotation, impAnnotation),
		custom("", "D3DPERF_BeginEvent", "", "D3DPERF_BeginEvent", fnPerfBegin, expPerf, impPerf),
		custom("", "D3DPERF_EndEvent", "", "D3DPERF_EndEvent", fnPerfEnd, expPerf, impPerf),
		custom("", "D3DPERF_SetMarker", "", "D3DPERF_SetMarker", fnD3DPERFSetMarker, expPerf, impPerf),
		custom("", "D3DPERF_GetStatus", "", "D3DPERF_GetStatus", fnPerfGetStatus, expPerf, impPerf),
		custom("", "SetPrivateData", "", "SetPrivateData", nil, expSetPrivateData, impSetPrivateData),
		custom("", "SetPrivateDataInterface", "", "SetPrivateDataInterface", nil, expSetPrivateDataInterface, impSetPrivateDataInterface),
		custom("", "GetPrivateData", "", "GetPrivateData", nil, expGetPrivateData, impGetPrivateData),
	}
}

// quoteString is text as a scenario string: quotes and backslashes
// escaped, control characters and invalid UTF-8 as spaces, at most
// scenario.MaxString bytes.
func quoteString(text string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range strings.ToValidUTF8(text, " ") {
		if b.Len() > scenario.MaxString-utf8.UTFMax {
			break
		}
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// strArgOf is the text of a string argument (ASCII or wide).
func strArgOf(v *Value) string {
	if v == nil {
		return ""
	}
	switch v.Kind {
	case KString, KWString:
		return v.Str
	case KBlob:
		return string(v.Bytes)
	}
	return ""
}

// expAnnotation writes the marker on the context's
// ID3DUserDefinedAnnotation, asked for (QueryInterface) and given back
// (Release) around it, as an application that keeps no pointer to it would.
func expAnnotation(e *Exporter, th uint64, r *scenario.CallRecord) {
	ctxAddr := e.obj(r.Target)
	ann := ctxAddr.Uint + 0x10
	e.write(th, fnCtxQI, []Arg{{0, ctxAddr}, {1, guidValue("IID_ID3DUserDefinedAnnotation")}}, []Arg{{2, ArrayV(PtrV(ann))}}, ptrU(hrValue(0)), 0)
	if e.annDepth == nil {
		e.annDepth = map[any]int64{}
	}
	text := ""
	if a := r.Arg("TEXT"); a != nil {
		text = a.Text
	}
	d := e.annDepth[r.Target]
	switch r.Method {
	case "BeginEvent":
		e.write(th, fnAnnBeginEvent, []Arg{{0, PtrV(ann)}, {1, WStrV(text)}}, nil, ptrU(IntV(d)), 0)
		e.annDepth[r.Target] = d + 1
	case "EndEvent":
		d--
		if d >= 0 {
			e.annDepth[r.Target] = d
		}
		e.write(th, fnAnnEndEvent, []Arg{{0, PtrV(ann)}}, nil, ptrU(IntV(max(d, -1))), 0)
	case "SetMarker":
		e.write(th, fnAnnSetMarker, []Arg{{0, PtrV(ann)}, {1, WStrV(text)}}, nil, nil, 0)
	case "GetStatus":
		e.write(th, fnAnnGetStatus, []Arg{{0, PtrV(ann)}}, nil, ptrU(boolV(true)), 0)
	}
	e.write(th, fnAnnRelease, []Arg{{0, PtrV(ann)}}, nil, ptrU(UintV(1)), 0)
}

// impAnnotation is the marker on the context the annotation interface
// belongs to.
func impAnnotation(m *importer, c *Call, tgt *object) error {
	meth := c.Sig.Name[strings.LastIndex(c.Sig.Name, "::")+2:]
	text := m.ref(tgt) + "." + meth
	if meth == "BeginEvent" || meth == "SetMarker" {
		text += " " + quoteString(strArgOf(c.Arg("Name")))
	}
	m.emit(c, text, "")
	return nil
}

// colorText is a D3DCOLOR (0xAARRGGBB) as a scenario colour.
func colorText(col uint64) string {
	return fmt.Sprintf("#%02x%02x%02x%02x", col>>16&0xff, col>>8&0xff, col&0xff, col>>24&0xff)
}

func expPerf(e *Exporter, th uint64, r *scenario.CallRecord) {
	text, col := "", uint64(0)
	if a := r.Arg("TEXT"); a != nil {
		text = a.Text
	}
	if a := r.Arg("Color"); a != nil && a.Given {
		if a.IsColor {
			c := a.Color
			col = uint64(c[3]*255+0.5)<<24 | uint64(c[0]*255+0.5)<<16 | uint64(c[1]*255+0.5)<<8 | uint64(c[2]*255+0.5)
		} else {
			col = uint64(uint32(a.Num))
		}
	}
	switch r.Method {
	case "D3DPERF_BeginEvent":
		e.write(th, fnPerfBegin, []Arg{{0, UintV(col)}, {1, WStrV(text)}}, nil, ptrU(IntV(e.perfDepth)), 0)
		e.perfDepth++
	case "D3DPERF_EndEvent":
		e.perfDepth--
		d := e.perfDepth
		if d < 0 {
			e.perfDepth = 0
		}
		e.write(th, fnPerfEnd, nil, nil, ptrU(IntV(max(d, -1))), 0)
	case "D3DPERF_SetMarker":
		e.write(th, fnD3DPERFSetMarker, []Arg{{0, UintV(col)}, {1, WStrV(text)}}, nil, nil, 0)
	case "D3DPERF_GetStatus":
		e.write(th, fnPerfGetStatus, nil, nil, ptrU(UintV(1)), 0)
	}
}

// impPerf is the D3DPERF marker, or, for a SetMarker whose text starts
// "d3dsim: ", what the exporter wrote as one (directive).
func impPerf(m *importer, c *Call, _ *object) error {
	name := c.Sig.Name
	text := strArgOf(c.Arg("wszName"))
	if rest, ok := strings.CutPrefix(text, MarkerPrefix); ok && name == "D3DPERF_SetMarker" {
		return m.directive(c, rest)
	}
	s := name
	if name == "D3DPERF_BeginEvent" || name == "D3DPERF_SetMarker" {
		s += " " + quoteString(text)
		if col, ok := valInt(c.Arg("col")); ok && col != 0 {
			s += " Color=" + colorText(uint64(col))
		}
	}
	m.emit(c, s, "")
	return nil
}

// privateSig is the object's SetPrivateData family of methods: IDXGIObject's
// names its arguments Name and pUnknown, ID3D11DeviceChild's guid and pData.
func privateSig(typ, meth string) *FuncSig {
	iface := interfaces[typ]
	if typ == "swapchain" {
		switch meth {
		case "SetPrivateData":
			return method(iface, meth, "Name", "DataSize", "pData")
		case "SetPrivateDataInterface":
			return method(iface, meth, "Name", "pUnknown")
		}
		return method(iface, meth, "Name", "pDataSize", "pData")
	}
	switch meth {
	case "SetPrivateData":
		return method(iface, meth, "guid", "DataSize", "pData")
	case "SetPrivateDataInterface":
		return method(iface, meth, "guid", "pData")
	}
	return method(iface, meth, "guid", "pDataSize", "pData")
}

// guidArg is a GUID argument from the scenario's name: a known GUID by its
// name, a uuid(...) as written, or the application's own name as a GUID
// derived from it (the same name, the same GUID).
func guidArg(name string) Value {
	if _, ok := GUIDNamed(name); ok {
		return guidValue(name)
	}
	if rest, ok := strings.CutPrefix(name, "uuid_"); ok {
		if _, ok := GUIDNamed("uuid(" + strings.ReplaceAll(rest, "_", "-") + ")"); ok {
			return guidValue("uuid(" + strings.ReplaceAll(rest, "_", "-") + ")")
		}
	}
	var h uint64 = 14695981039346656037
	for i := 0; i < len(name); i++ {
		h = (h ^ uint64(name[i])) * 1099511628211
	}
	d4 := make([]Value, 8)
	for i := range d4 {
		d4[i] = UintV(h >> (8 * i) & 0xff)
	}
	return StructV(stGUID, UintV(h>>32&0xffffffff), UintV(h>>16&0xffff), UintV(h&0xffff), ArrayV(d4...))
}

func privateData(r *scenario.CallRecord) (guid string, data []byte) {
	if a := r.Arg("GUID"); a != nil {
		guid = a.Ident
	}
	if a := r.Arg("TEXT"); a != nil && a.Given {
		return guid, []byte(a.Text)
	}
	if a := r.Arg("Data"); a != nil && a.Given {
		data = a.Bytes
	}
	return guid, data
}

func expSetPrivateData(e *Exporter, th uint64, r *scenario.CallRecord) {
	guid, data := privateData(r)
	pData := Null
	if len(data) > 0 {
		pData = BlobV(data)
	}
	e.write(th, privateSig(r.TargetType, "SetPrivateData"), []Arg{e.this(r), {1, guidArg(guid)}, {2, UintV(uint64(len(data)))}, {3, pData}}, nil, hr(r), 0)
}

func expSetPrivateDataInterface(e *Exporter, th uint64, r *scenario.CallRecord) {
	guid, _ := privateData(r)
	var o any
	if a := r.Arg("OBJ"); a != nil {
		o = a.Obj
	}
	e.write(th, privateSig(r.TargetType, "SetPrivateDataInterface"), []Arg{e.this(r), {1, guidArg(guid)}, {2, e.obj(o)}}, nil, hr(r), 0)
}

func expGetPrivateData(e *Exporter, th uint64, r *scenario.CallRecord) {
	guid, _ := privateData(r)
	e.write(th, privateSig(r.TargetType, "GetPrivateData"), []Arg{e.this(r), {1, guidArg(guid)}}, []Arg{{2, ArrayV(UintV(0))}}, hr(r), 0)
}

// guidName is a GUID argument as the scenario names it: its symbolic name,
// or a name made from its text (uuid_... with the dashes as '_').
func guidName(c *Call, arg string) string {
	g := c.Arg(arg)
	if g == nil {
		return ""
	}
	if gg, ok := guidOf(g); ok {
		if n := GUIDName(gg); !strings.HasPrefix(n, "uuid(") {
			return n
		}
		return "uuid_" + strings.ReplaceAll(gg.String(), "-", "_")
	}
	if g.Kind == KName {
		if gg, ok := GUIDNamed(g.Str); ok && strings.HasPrefix(g.Str, "uuid(") {
			return "uuid_" + strings.ReplaceAll(gg.String(), "-", "_")
		}
		if isScenarioWord(g.Str) {
			return g.Str
		}
	}
	return ""
}

// isScenarioWord says whether s can be a scenario's word (a GUID's name).
func isScenarioWord(s string) bool {
	if s == "" || len(s) > scenario.MaxWord {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// impSetPrivateData is the statement, and for a debug name the object's
// scenario name too (privateData).
func impSetPrivateData(m *importer, c *Call, tgt *object) error {
	arg := "guid"
	if c.Arg("guid") == nil {
		arg = "Name"
	}
	guid := guidName(c, arg)
	if guid == "" {
		return skip("SetPrivateData: the GUID is not one the dump names")
	}
	var data []byte
	if v := c.Arg("pData"); v != nil && v.Kind != KNull {
		b, err := m.bytesOf(v, "pData")
		if err != nil {
			return err
		}
		data = b
	}
	m.privateData(tgt, guid, data)
	s := m.ref(tgt) + ".SetPrivateData " + guid
	switch {
	case len(data) == 0:
	case guid == "WKPDID_D3DDebugObjectName":
		s += " " + quoteString(strings.TrimRight(string(data), "\x00"))
	default:
		s += " Data=u8[" + strings.Trim(fmt.Sprint(data), "[]") + "]"
	}
	m.emit(c, s, hrOf(c))
	return nil
}

func impSetPrivateDataInterface(m *importer, c *Call, tgt *object) error {
	arg, obj := "guid", "pData"
	if c.Arg("guid") == nil {
		arg, obj = "Name", "pUnknown"
	}
	guid := guidName(c, arg)
	if guid == "" {
		return skip("SetPrivateDataInterface: the GUID is not one the dump names")
	}
	o, err := m.objOf(c.Arg(obj))
	if err != nil {
		return err
	}
	if o != nil && o.typ == "" {
		return skip("SetPrivateDataInterface: %s is no object of the scenario", orKind(o))
	}
	m.emit(c, m.ref(tgt)+".SetPrivateDataInterface "+guid+" "+m.ref(o), hrOf(c))
	return nil
}

func impGetPrivateData(m *importer, c *Call, tgt *object) error {
	arg := "guid"
	if c.Arg("guid") == nil {
		arg = "Name"
	}
	guid := guidName(c, arg)
	if guid == "" {
		return skip("GetPrivateData: the GUID is not one the dump names")
	}
	m.emit(c, m.ref(tgt)+".GetPrivateData "+guid, hrOf(c))
	return nil
}
