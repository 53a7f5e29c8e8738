package apitrace

import (
	"crypto/sha256"
	"fmt"
	"math"
	"strconv"
	"strings"

	"d3dsim/core/d3d11"
	"d3dsim/core/dxbc"
	"d3dsim/core/scenario"
)

// The import of each mapped call (the rows of mapping.go), and reading
// values the way both a binary trace and dump text hold them.

// importFunc imports one call made on tgt (nil for a function).
type importFunc func(m *importer, c *Call, tgt *object) error

// valInt reads an integer: a signed or unsigned integer, an enum's value,
// a bitmask's, a boolean.
func valInt(v *Value) (int64, bool) {
	if v == nil {
		return 0, false
	}
	switch v.Kind {
	case KSInt, KEnum:
		return v.Int, true
	case KUInt, KBitmask, KPointer:
		return int64(v.Uint), true
	case KBool:
		if v.Bool {
			return 1, true
		}
		return 0, true
	case KFloat, KDouble:
		if v.Float == math.Trunc(v.Float) {
			return int64(v.Float), true
		}
	case KName:
		switch v.Str {
		case "TRUE", "True", "true":
			return 1, true
		case "FALSE", "False", "false":
			return 0, true
		}
	}
	return 0, false
}

// arg reads argument name of c as an integer.
func (m *importer) uintArg(c *Call, v *Value, what string) (uint64, error) {
	n, ok := valInt(v)
	if !ok || n < 0 || n > math.MaxUint32 {
		if v == nil {
			return 0, skip("%s is missing", what)
		}
		if v.Kind == KBinding {
			return 0, skip("%s is not in the dump (<%s>)", what, v.Str)
		}
		return 0, skip("%s is %s, not a 32-bit unsigned integer", what, describe(v))
	}
	return uint64(n), nil
}

func (m *importer) uintOf(c *Call, name string) (uint64, error) {
	return m.uintArg(c, c.Arg(name), name)
}

func (m *importer) member(v *Value, name string) *Value {
	s, _ := v.Deref().Member(name)
	return s
}

func (m *importer) uintMember(v *Value, name string) (uint64, error) {
	return m.uintArg(m.c, m.member(v, name), name)
}

func valFloat(v *Value) (float64, bool) {
	if v == nil {
		return 0, false
	}
	switch v.Kind {
	case KFloat, KDouble:
		return v.Float, true
	case KUInt:
		return float64(v.Uint), true
	case KSInt:
		return float64(v.Int), true
	}
	return 0, false
}

func (m *importer) floatOf(v *Value, what string) (float64, error) {
	f, ok := valFloat(v)
	if !ok {
		if v == nil {
			return 0, skip("%s is missing", what)
		}
		return 0, skip("%s is %s, not a number", what, describe(v))
	}
	return f, nil
}

// enumOf reads an enum value of sig: its number, from a binary trace or
// from a name in dump text.
func enumOf(v *Value, sig *EnumSig) (int64, string, bool) {
	if v == nil {
		return 0, "", false
	}
	switch v.Kind {
	case KName:
		for _, e := range sig.Values {
			if e.Name == v.Str {
				return e.Value, e.Name, true
			}
		}
		return 0, v.Str, false
	case KEnum, KSInt, KUInt, KBool:
		n, _ := valInt(v)
		name, _ := sig.Lookup(n)
		if name == "" {
			name = strconv.FormatInt(n, 10)
		}
		return n, name, true
	}
	return 0, describe(v), false
}

// flagsOf reads a bitmask of sig.
func flagsOf(v *Value, sig *BitmaskSig) (uint64, bool) {
	if v == nil {
		return 0, false
	}
	switch v.Kind {
	case KBitmask:
		val := v.Uint
		for _, n := range v.Names {
			found := false
			for _, f := range sig.Flags {
				if f.Name == n {
					val |= f.Value
					found = true
				}
			}
			if !found {
				return 0, false
			}
		}
		return val, true
	case KName:
		for _, f := range sig.Flags {
			if f.Name == v.Str {
				return f.Value, true
			}
		}
		return 0, false
	case KUInt, KPointer, KSInt, KEnum:
		n, _ := valInt(v)
		return uint64(uint32(n)), true
	}
	return 0, false
}

// scenarioEnum is the scenario's name for value v of table kind (the
// d3d11.Enum tables the language reads), or why it has none.
func scenarioEnum(kind string, v int64, traceName string) (string, error) {
	for n, x := range d3d11.Enum(kind) {
		if int64(x) == v {
			return n, nil
		}
	}
	return "", skip("%s %s is not simulated (the scenario's %s values: %s)", kind, traceName, kind, strings.Join(d3d11.EnumNames(kind), " "))
}

// scenarioFlags is the scenario's spelling of flags v of table kind.
func scenarioFlags(kind string, v uint64, sig *BitmaskSig) (string, error) {
	if v == 0 {
		return "0", nil
	}
	var names []string
	rest := v
	for _, n := range d3d11.EnumNames(kind) {
		x := uint64(d3d11.Enum(kind)[n])
		if x != 0 && rest&x == x {
			names = append(names, n)
			rest &^= x
		}
	}
	if rest != 0 {
		var s strings.Builder
		d := dumper{sb: &s}
		d.bitmask(&Value{Kind: KBitmask, BitmaskSig: sig, Uint: rest})
		return "", skip("%s %s are not simulated (the scenario's: %s)", kind, s.String(), strings.Join(d3d11.EnumNames(kind), " "))
	}
	// in the table's order of values, as a person writes them
	sortByValue(names, d3d11.Enum(kind))
	return strings.Join(names, "|"), nil
}

func sortByValue(names []string, tbl map[string]uint32) {
	for i := 1; i < len(names); i++ {
		for j := i; j > 0 && tbl[names[j]] < tbl[names[j-1]]; j-- {
			names[j], names[j-1] = names[j-1], names[j]
		}
	}
}

func (m *importer) scenarioEnumArg(v *Value, sig *EnumSig, kind, what string) (string, int64, error) {
	n, name, ok := enumOf(v, sig)
	if !ok {
		if v == nil {
			return "", 0, skip("%s is missing", what)
		}
		return "", 0, skip("%s is %s, not a value of its enum", what, name)
	}
	s, err := scenarioEnum(kind, n, name)
	return s, n, err
}

func (m *importer) scenarioFlagsArg(v *Value, sig *BitmaskSig, kind, what string) (string, uint64, error) {
	n, ok := flagsOf(v, sig)
	if !ok {
		if v != nil && v.Kind == KBinding {
			m.notice("%s is not in the dump: taken as 0", what)
			return "0", 0, nil
		}
		return "", 0, skip("%s is %s, not flags of its type", what, describe(v))
	}
	s, err := scenarioFlags(kind, n, sig)
	return s, n, err
}

func (m *importer) boolOf(v *Value, what string) (bool, error) {
	n, ok := valInt(v)
	if !ok {
		if v != nil && v.Kind == KEnum {
			return v.Int != 0, nil
		}
		if v != nil && v.Kind == KName {
			if n, _, ok := enumOf(v, sigBOOL); ok {
				return n != 0, nil
			}
		}
		return false, skip("%s is %s, not TRUE or FALSE", what, describe(v))
	}
	return n != 0, nil
}

func tf(b bool) string {
	if b {
		return "TRUE"
	}
	return "FALSE"
}

// bytesOf reads a blob: its bytes, the file `apitrace dump --blobs` wrote,
// or, for a dump that leaves them out (blob(N)), N zero bytes and a notice.
func (m *importer) bytesOf(v *Value, what string) ([]byte, error) {
	v = v.Machine()
	if v == nil {
		return nil, skip("%s is missing", what)
	}
	switch v.Kind {
	case KBlob:
		if v.BlobFile != "" {
			if m.opt.Blob == nil {
				return nil, skip("%s is in %s, which `apitrace dump --blobs` wrote: give the directory it is in", what, v.BlobFile)
			}
			b, err := m.opt.Blob(v.BlobFile)
			if err != nil {
				return nil, skip("%s: %v", what, err)
			}
			return b, nil
		}
		if v.NoBytes {
			m.notice("%s: the dump gives only the size of blob(%d), not its bytes: zero-filled (`apitrace dump --blobs` writes them)", what, v.BlobSize)
			return make([]byte, v.BlobSize), nil
		}
		return v.Bytes, nil
	case KString:
		return []byte(v.Str), nil
	}
	return nil, skip("%s is %s, not bytes", what, describe(v))
}

// dataArg is bytes as a scenario data value.
func (m *importer) dataArg(b []byte, what string) (string, error) {
	s, ok := dataText(b)
	if !ok {
		return "", skip("%s: no bytes", what)
	}
	return s, nil
}

// shaderArg names the source block holding bytecode (fxc's /Fh header,
// with the listing), writing it the first time.
func (m *importer) shaderArg(v *Value, stage string) (string, error) {
	v2 := v.Machine()
	var code []byte
	if v2 != nil && v2.Kind == KString && v.Kind != KRepr {
		// dump text: the disassembly, which the assembler turns back into
		// bytecode
		b, err := dxbc.Assemble(v2.Str)
		if err != nil {
			return "", skip("the shader's disassembly does not assemble: %v", err)
		}
		code = b
	} else {
		b, err := m.bytesOf(v, "the shader bytecode")
		if err != nil {
			return "", err
		}
		code = b
	}
	h := sha256.Sum256(code)
	if n, ok := m.shaders[h]; ok {
		return "fxc:" + n, nil
	}
	m.stages[stage]++
	n := stage + strconv.Itoa(m.stages[stage])
	listing := ""
	if text, err := dxbc.D3DDisassemble(code); err == nil {
		listing = text
	} else {
		listing = "// " + strings.ReplaceAll(err.Error(), "\n", " ") + "\n"
	}
	m.shaders[h] = n
	blk := "fxc " + n + " {\n" + fxcHeader("g_"+n, listing, code) + "}\n"
	m.blocks = append(m.blocks, blk)
	m.bytes += len(blk)
	return "fxc:" + n, nil
}

// fxcHeader is the C header fxc /Fh writes: the listing in "#if 0", then
// the bytes six a row.
func fxcHeader(name, listing string, blob []byte) string {
	var b strings.Builder
	b.WriteString("#if 0\n")
	b.WriteString(listing)
	if !strings.HasSuffix(listing, "\n") {
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "#endif\n\nconst BYTE %s[] =\n{\n", name)
	for i, v := range blob {
		if i%6 == 0 {
			b.WriteString("    ")
		}
		fmt.Fprintf(&b, "%3d", v)
		switch {
		case i == len(blob)-1:
			b.WriteByte('\n')
		case i%6 == 5:
			b.WriteString(",\n")
		default:
			b.WriteString(", ")
		}
	}
	b.WriteString("};\n")
	return b.String()
}

// out defines the object an output argument returns (on success).
func (m *importer) out(c *Call, name, typ, prefix string) *object {
	if !succeededCall(c) {
		return nil
	}
	v := c.Arg(name).Deref()
	if v == nil {
		return nil
	}
	if k, ok := keyOf(v); ok {
		if o := m.objs[k]; o != nil && o.typ == typ && o.alias == nil {
			return o // the same object again (GetBuffer twice)
		}
	}
	return m.define(v, typ, "", prefix)
}

// bind writes "name = " for an object, or nothing for a failed call.
func (m *importer) bind(o ...*object) string {
	var names []string
	for _, x := range o {
		if x == nil {
			return ""
		}
		names = append(names, m.ref(x))
	}
	return strings.Join(names, ", ") + " = "
}

// objArg resolves an object argument and checks its type.
func (m *importer) objArg(c *Call, name string, types ...string) (*object, error) {
	o, err := m.objOf(c.Arg(name))
	if err != nil || o == nil {
		return o, err
	}
	if o.missing != "" {
		return nil, skip("%s %s could not be made: %s", name, o.key, o.missing)
	}
	for _, t := range types {
		if o.typ == t {
			return o, nil
		}
	}
	return nil, skip("%s is a %s; the scenario takes %s here", name, orKind(o), strings.Join(types, " or "))
}

func orKind(o *object) string {
	if o.typ != "" {
		return o.typ
	}
	return o.kind
}

// argList writes a scenario call's arguments in the method's order:
// positional ones up to the last given, then named ones.
func argList(typ, method string, vals map[string]string) string {
	info, ok := scenario.Describe(typ, method)
	if !ok {
		return ""
	}
	var pos, named []string
	lastPos := -1
	seen := map[string]bool{}
	for i, p := range info.Params {
		if p.Positional {
			if _, ok := vals[p.Name]; ok && !seen[p.Name] {
				// A repeated parameter (a ranged setter's objects) takes
				// the one value at its first place.
				lastPos, seen[p.Name] = i, true
			}
		}
	}
	for i, p := range info.Params {
		v, ok := vals[p.Name]
		if p.Positional {
			if i > lastPos {
				continue
			}
			if !ok {
				v = strconv.FormatFloat(p.Default, 'g', -1, 64)
			}
			pos = append(pos, v)
		} else if ok {
			named = append(named, p.Name+"="+v)
		}
	}
	out := strings.Join(append(pos, named...), " ")
	if out != "" {
		out = " " + out
	}
	return out
}

// callText is "TARGET.Method ARGS".
func (m *importer) callText(tgt *object, method string, vals map[string]string) string {
	return m.ref(tgt) + "." + method + argList(tgt.typ, method, vals)
}

// impSimple imports a row whose arguments map one to one.
func impSimple(r *row) importFunc {
	return func(m *importer, c *Call, tgt *object) error {
		info, _ := scenario.Describe(r.typ, r.method)
		vals := map[string]string{}
		for _, a := range r.args {
			v := c.Arg(a.name)
			var p scenario.ParamInfo
			for _, q := range info.Params {
				if q.Name == a.param {
					p = q
				}
			}
			switch a.conv {
			case cNull:
				if o, _ := m.objOf(v); o != nil || (v != nil && v.Kind != KNull && v.Kind != KBinding) {
					if k, ok := keyOf(v); ok {
						return skip("%s is %s; the simulator takes only NULL", a.name, k)
					}
				}
				continue
			case cUint, cInt:
				n, ok := valInt(v)
				if !ok {
					return skip("%s is %s, not an integer", a.name, describe(v))
				}
				if float64(n) != p.Default || !p.Optional {
					vals[a.param] = strconv.FormatInt(n, 10)
				}
			case cFloat:
				f, err := m.floatOf(v, a.name)
				if err != nil {
					return err
				}
				vals[a.param] = floatText(f)
			case cBool:
				bv, err := m.boolOf(v, a.name)
				if err != nil {
					return err
				}
				if bv || !p.Optional {
					vals[a.param] = tf(bv)
				}
			case cEnum:
				s, n, err := m.scenarioEnumArg(v, a.enum, p.Enum, a.name)
				if err != nil {
					return err
				}
				if n != a.def || !p.Optional {
					vals[a.param] = s
				}
			case cFlags:
				s, n, err := m.scenarioFlagsArg(v, a.mask, p.Enum, a.name)
				if err != nil {
					return err
				}
				if n != 0 || !p.Optional {
					vals[a.param] = s
				}
			case cObj:
				o, err := m.objArg(c, a.name, p.Types...)
				if err != nil {
					return err
				}
				vals[a.param] = m.ref(o)
			}
		}
		hr := ""
		if r.hr {
			hr = hrOf(c)
		}
		m.emit(c, m.callText(tgt, r.method, vals), hr)
		return nil
	}
}

// marker keeps a D3DPERF or annotation marker as a comment, or reads back
// the "d3dsim: " ones the exporter writes.
func (m *importer) marker(c *Call, name string, v *Value) error {
	text := ""
	if v != nil && (v.Kind == KString || v.Kind == KWString) {
		text = v.Str
	}
	if rest, ok := strings.CutPrefix(text, MarkerPrefix); ok {
		return m.directive(c, rest)
	}
	short := strings.TrimPrefix(name, "ID3DUserDefinedAnnotation::")
	if text != "" {
		m.comment(c, fmt.Sprintf("%s %q", short, text))
	} else {
		m.comment(c, short)
	}
	return nil
}

// directive reads back what the exporter wrote as a marker: an option, an
// inject, a driver-private call, an expectation of a dropped call or one
// that reads a resource back, with objects as <0xADDR>.
func (m *importer) directive(c *Call, text string) error {
	if strings.ContainsAny(text, "\n\r{}") {
		return skip("marker %q is not one statement", text)
	}
	var b strings.Builder
	for {
		i := strings.Index(text, "<0x")
		if i < 0 {
			b.WriteString(text)
			break
		}
		j := strings.IndexByte(text[i:], '>')
		if j < 0 {
			return skip("marker %q: an unclosed <", text)
		}
		key := text[i+1 : i+j]
		o := m.objs[key]
		if o == nil || o.typ == "" {
			return skip("marker names object %s, which no call of the capture made", key)
		}
		b.WriteString(text[:i] + m.ref(o))
		text = text[i+j+1:]
	}
	s := b.String()
	switch {
	case strings.HasPrefix(s, "option "):
		m.options = append(m.options, option{text: strings.TrimPrefix(s, "option "), call: c.No})
	case strings.HasPrefix(s, "expect hr == DROPPED"):
		// the void call before it was dropped by the runtime
		if n := len(m.stmts); n > 0 && !m.stmts[n-1].comment && m.stmts[n-1].hr == "" {
			m.stmts[n-1].hr = "DROPPED"
		}
	case strings.HasPrefix(s, "inject "), strings.HasPrefix(s, "expect pixel "), strings.HasPrefix(s, "expect hash "), strings.HasPrefix(s, "expect probe "),
		strings.HasPrefix(s, "expect violation "):
		// an inject, an expect that reads a resource back (its check, and
		// its wait for the GPU), or one of a violation the run makes on
		// purpose
		m.emit(c, s, "").directive = true
	case strings.HasPrefix(s, "\x01"):
		// a call of the scenario language D3D11 has no call for (the
		// driver-private Escape): OBJ.Method ARGS
		m.emit(c, s, "").directive = true
	default:
		return skip("marker %q is not an option, an inject, an expect or a call d3dsim writes", s)
	}
	return nil
}

// queryInterface makes the interface asked for another name of the same
// object (a D3D11 device's ID3D11Device1, an immediate context's
// ID3DUserDefinedAnnotation, a device's IDXGIDevice1): QueryInterface
// takes a reference, an AddRef in the scenario.
func (m *importer) queryInterface(c *Call, tgt *object) error {
	out := c.Arg("ppvObj").Deref()
	if out == nil || !succeededCall(c) {
		return nil
	}
	k, ok := keyOf(out)
	if !ok {
		return nil
	}
	if tgt.typ == "" {
		if o := m.objs[k]; o == nil {
			m.define(out, "", tgt.kind, "")
		}
		return nil
	}
	var alias *object
	switch o := m.objs[k]; {
	case o == nil || o.alias == nil && o != tgt:
		alias = m.define(out, "", "interface", "")
		alias.alias = tgt
	case o.alias == tgt:
		alias = o // the same interface asked for again
	}
	s := m.emit(c, m.ref(tgt)+".AddRef", "")
	tgt.refOps++
	if alias != nil {
		alias.qi, alias.refOps = s, tgt.refOps
	}
	return nil
}

// privateData keeps a debug name (WKPDID_D3DDebugObjectName): the object
// takes it as its scenario name.
func (m *importer) privateData(tgt *object, guid string, data []byte) {
	if guid != "WKPDID_D3DDebugObjectName" {
		return
	}
	if s := strings.TrimRight(string(data), "\x00"); tgt.typ != "" && s != "" {
		tgt.debug = s
	}
}

func impCreateDevice(m *importer, c *Call, _ *object) error {
	flags, err := m.deviceFlags(c)
	if err != nil {
		return err
	}
	if c.Arg("ppDevice").Deref() == nil || c.Arg("ppDevice").Deref().Kind == KNull {
		m.comment(c, "D3D11CreateDevice without ppDevice: a probe of the feature levels, which creates nothing")
		return nil
	}
	if !succeededCall(c) {
		return skip("it failed (%s): the simulated adapter creates every device", hrOf(c))
	}
	d := m.out(c, "ppDevice", "device", "dev")
	ic := m.out(c, "ppImmediateContext", "context", "imm")
	if ic == nil {
		ic = &object{id: len(m.all), typ: "context", prefix: "imm"}
		m.all = append(m.all, ic)
	}
	ic.imm, ic.dev = true, d
	vals := map[string]string{}
	if flags != "0" {
		vals["Flags"] = flags
	}
	m.emit(c, m.bind(d, ic)+"D3D11CreateDevice"+argList("", "D3D11CreateDevice", vals), "")
	return nil
}

// deviceFlags reads D3D11CreateDevice's Flags: the ones the simulator has
// (DEBUG, SINGLETHREADED); others, which change nothing it simulates
// (BGRA_SUPPORT), with a notice.
func (m *importer) deviceFlags(c *Call) (string, error) {
	v := c.Arg("Flags")
	n, ok := flagsOf(v, sigCreateFlag)
	if !ok {
		if v != nil && v.Kind == KBinding {
			return "0", nil
		}
		return "", skip("Flags is %s", describe(v))
	}
	known := uint64(0)
	for _, x := range d3d11.Enum("CreateDeviceFlags") {
		known |= uint64(x)
	}
	if rest := n &^ known; rest != 0 {
		var s strings.Builder
		d := dumper{sb: &s}
		d.bitmask(&Value{Kind: KBitmask, BitmaskSig: sigCreateFlag, Uint: rest})
		m.notice("D3D11CreateDevice Flags %s: nothing the simulator models; left out", s.String())
		n &= known
	}
	if dt, name, ok := enumOf(c.Arg("DriverType"), sigDriverType); ok && dt != 0 && dt != 1 {
		m.notice("DriverType %s: the simulated GPU stands in for it", name)
	}
	return scenarioFlags("CreateDeviceFlags", n, sigCreateFlag)
}

// swapFormats are the formats of the simulated swap chains' buffers
// (d3d11.Device.CreateSwapChainFormat): a capture's other swap chain
// formats become R8G8B8A8_UNORM, with a notice.
var swapFormats = map[uint32]bool{28: true, 87: true, 24: true, 10: true, 29: true, 91: true}

// swapChain writes CreateSwapChain for a DXGI_SWAP_CHAIN_DESC.
func (m *importer) swapChain(c *Call, d *object, desc *Value, out string) error {
	mode := m.member(desc, "BufferDesc")
	w, err := m.uintMember(mode, "Width")
	if err != nil {
		return err
	}
	h, err := m.uintMember(mode, "Height")
	if err != nil {
		return err
	}
	if w == 0 || h == 0 {
		return skip("the swap chain's size is 0 (the window's); the capture does not say it")
	}
	n, err := m.uintMember(desc, "BufferCount")
	if err != nil {
		return err
	}
	fv, fname, fok := enumOf(m.member(mode, "Format"), sigDXGIFormat)
	format := uint32(28)
	switch {
	case fok && swapFormats[uint32(fv)]:
		format = uint32(fv)
	case fok:
		m.notice("swap chain Format %s: the simulated swap chain's buffers are R8G8B8A8_UNORM in its place", fname)
	}
	if s, _ := m.uintMember(m.member(desc, "SampleDesc"), "Count"); s > 1 {
		m.notice("swap chain SampleDesc.Count %d: the simulator's swap chains have one sample a pixel (render to a multisampled texture and ResolveSubresource into the back buffer)", s)
	}
	sc := m.out(c, out, "swapchain", "sc")
	if sc != nil {
		sc.w, sc.h, sc.format = uint32(w), uint32(h), format
		if fok && uint32(fv) != format {
			sc.traceFormat = uint32(fv)
		}
		sc.dev = d
	}
	vals := map[string]string{"Width": fmtU(w), "Height": fmtU(h)}
	if n != 1 {
		vals["BufferCount"] = fmtU(n)
	}
	if _, e, ok := enumOf(m.member(desc, "SwapEffect"), sigSwapEffect); ok && e != "DXGI_SWAP_EFFECT_DISCARD" {
		vals["SwapEffect"] = strings.TrimPrefix(e, "DXGI_SWAP_EFFECT_") // the bitblt or flip model
	}
	if format != 28 {
		vals["Format"] = strings.TrimPrefix(fname, "DXGI_FORMAT_")
	}
	m.emit(c, m.bind(sc)+m.callText(d, "CreateSwapChain", vals), hrOf(c))
	return nil
}

func impCreateDeviceAndSwapChain(m *importer, c *Call, _ *object) error {
	if err := impCreateDevice(m, c, nil); err != nil {
		return err
	}
	d := m.objs[keyOrEmpty(c.Arg("ppDevice"))]
	if d == nil {
		return nil
	}
	return m.swapChain(c, d, c.Arg("pSwapChainDesc"), "ppSwapChain")
}

func keyOrEmpty(v *Value) string { k, _ := keyOf(v); return k }

func impCreateSwapChain(m *importer, c *Call, _ *object) error {
	d, err := m.objArg(c, "pDevice", "device")
	if err != nil {
		return err
	}
	if d == nil {
		return skip("pDevice is NULL")
	}
	return m.swapChain(c, d, c.Arg("pDesc"), "ppSwapChain")
}

func impGetBuffer(m *importer, c *Call, sc *object) error {
	i, err := m.uintOf(c, "Buffer")
	if err != nil {
		return err
	}
	prefix := "bb"
	if i > 0 {
		prefix = "buffer" + fmtU(i) + "_"
	}
	t := m.out(c, "ppSurface", "texture", prefix)
	if t != nil {
		t.w, t.h, t.format, t.traceFormat = sc.w, sc.h, sc.format, sc.traceFormat
	}
	m.emit(c, m.bind(t)+m.callText(sc, "GetBuffer", map[string]string{"INDEX": fmtU(i)}), hrOf(c))
	return nil
}

// resourceFlags reads the usage and flags of a buffer or texture desc.
func (m *importer) resourceFlags(desc *Value, vals map[string]string) (usage int64, err error) {
	s, usage, err := m.scenarioEnumArg(m.member(desc, "Usage"), sigUsage, "Usage", "Usage")
	if err != nil {
		return 0, err
	}
	if usage != 0 {
		vals["Usage"] = s
	}
	for _, f := range []struct {
		member, kind string
		sig          *BitmaskSig
	}{{"BindFlags", "BindFlags", sigBindFlag}, {"CPUAccessFlags", "CPUAccessFlags", sigCPUAccess}, {"MiscFlags", "MiscFlags", sigMiscFlag}} {
		s, n, err := m.scenarioFlagsArg(m.member(desc, f.member), f.sig, f.kind, f.member)
		if err != nil {
			return 0, err
		}
		if n != 0 {
			vals[f.member] = s
		}
	}
	return usage, nil
}

func impCreateBuffer(m *importer, c *Call, d *object) error {
	desc := c.Arg("pDesc")
	width, err := m.uintMember(desc, "ByteWidth")
	if err != nil {
		return err
	}
	vals := map[string]string{}
	usage, err := m.resourceFlags(desc, vals)
	if err != nil {
		return err
	}
	if v := m.member(desc, "StructureByteStride"); v != nil {
		if n, _ := valInt(v); n != 0 {
			vals["StructureByteStride"] = fmtU(uint64(n))
		}
	}
	if init := c.Arg("pInitialData").Deref(); init != nil && init.Kind != KNull {
		data, err := m.bytesOf(m.member(init, "pSysMem"), "pInitialData")
		if err != nil {
			return err
		}
		if len(data) > int(width) {
			data = data[:width]
		}
		if m.member(init, "pSysMem").NoBytes && usage != 1 {
			// the dump left the bytes out; a buffer that is not
			// IMMUTABLE needs no initial data to be made
			vals["ByteWidth"] = fmtU(width)
		} else {
			s, err := m.dataArg(data, "pInitialData")
			if err != nil {
				return err
			}
			vals["Data"] = s
			if len(data) != int(width) {
				vals["ByteWidth"] = fmtU(width)
			}
		}
	} else {
		vals["ByteWidth"] = fmtU(width)
	}
	b := m.out(c, "ppBuffer", "buffer", "buf")
	if b != nil {
		b.size, b.dev = uint32(width), d
	}
	m.emit(c, m.bind(b)+m.callText(d, "CreateBuffer", vals), hrOf(c))
	return nil
}

func allZero(b []byte) bool {
	for _, x := range b {
		if x != 0 {
			return false
		}
	}
	return true
}

// repack lays rows of pitch bytes out tightly (row bytes each).
func repack(data []byte, pitch, row, rows uint32) []byte {
	if pitch == 0 || pitch == row || row == 0 {
		if n := int(row * rows); row != 0 && len(data) > n {
			return data[:n]
		}
		return data
	}
	out := make([]byte, 0, row*rows)
	for y := uint32(0); y < rows; y++ {
		start := uint64(y) * uint64(pitch)
		end := start + uint64(row)
		if end > uint64(len(data)) {
			out = append(out, make([]byte, int(row))...)
			continue
		}
		out = append(out, data[start:end]...)
	}
	return out
}

func impCreateView(typ string) importFunc {
	method := map[string]string{"rtv": "CreateRenderTargetView", "srv": "CreateShaderResourceView", "dsv": "CreateDepthStencilView"}[typ]
	out := map[string]string{"rtv": "ppRTView", "srv": "ppSRView", "dsv": "ppDepthStencilView"}[typ]
	return func(m *importer, c *Call, d *object) error {
		res, err := m.objArg(c, "pResource", "texture", "buffer")
		if err != nil {
			return err
		}
		if res == nil {
			return skip("pResource is NULL")
		}
		if res.typ != "texture" && typ == "dsv" {
			return skip("a depth stencil view of a buffer")
		}
		vals := map[string]string{}
		desc := c.Arg("pDesc").Deref()
		if desc == nil || desc.Kind == KNull {
			if res.typ != "texture" {
				return skip("a view of a buffer without a description")
			}
		} else if typ == "srv" {
			if err := m.impSRVDesc(desc, res, vals); err != nil {
				return err
			}
		} else if err := m.impTargetDesc(desc, res, typ, vals); err != nil { // (rtvdesc.go)
			return err
		}
		if desc != nil && desc.Kind != KNull {
			f, fname, ok := enumOf(m.member(desc, "Format"), sigDXGIFormat)
			if !ok {
				return skip("the view's Format is %s", describe(m.member(desc, "Format")))
			}
			// the texture's own format is the view's without Format=; a
			// swap chain's buffer was another format in the capture
			if f != 0 && uint32(f) != res.format && !(res.traceFormat != 0 && uint32(f) == res.traceFormat) {
				name, err := scenarioEnum("Format", f, fname)
				if err != nil {
					return err
				}
				vals["Format"] = name
			}
			if typ == "dsv" {
				s, n, err := m.scenarioFlagsArg(m.member(desc, "Flags"), sigDSVFlag, "DSVFlags", "Flags")
				if err != nil {
					return err
				}
				if n != 0 {
					vals["Flags"] = s
				}
			}
		}
		v := m.out(c, out, typ, typ)
		if v != nil {
			v.dev = d
		}
		vals["RES"] = m.ref(res)
		m.emit(c, m.bind(v)+m.callText(d, method, vals), hrOf(c))
		return nil
	}
}

func impCheckFormatSupport(m *importer, c *Call, d *object) error {
	f, _, err := m.scenarioEnumArg(c.Arg("Format"), sigDXGIFormat, "Format", "Format")
	if err != nil {
		return err
	}
	m.emit(c, m.ref(d)+".CheckFormatSupport "+f, hrOf(c))
	return nil
}

func dimSig(typ string) *EnumSig {
	switch typ {
	case "srv":
		return sigSRVDim
	case "dsv":
		return sigDSVDim
	}
	return sigRTVDim
}

func impCreateShader(stage string) importFunc {
	method := map[string]string{"vs": "CreateVertexShader", "ps": "CreatePixelShader", "cs": "CreateComputeShader", "gs": "CreateGeometryShader",
		"hs": "CreateHullShader", "ds": "CreateDomainShader"}[stage]
	out := map[string]string{"vs": "ppVertexShader", "ps": "ppPixelShader", "cs": "ppComputeShader", "gs": "ppGeometryShader",
		"hs": "ppHullShader", "ds": "ppDomainShader"}[stage]
	return func(m *importer, c *Call, d *object) error {
		if o, err := m.objOf(c.Arg("pClassLinkage")); err != nil || o != nil {
			return skip("a class linkage: the simulator has no dynamic shader linkage")
		}
		code, err := m.shaderArg(c.Arg("pShaderBytecode"), stage)
		if err != nil {
			return err
		}
		s := m.out(c, out, stage, stage)
		if s != nil {
			s.dev = d
		}
		m.emit(c, m.bind(s)+m.ref(d)+"."+method+" "+code, hrOf(c))
		return nil
	}
}

func impCreateInputLayout(m *importer, c *Call, d *object) error {
	n, err := m.uintOf(c, "NumElements")
	if err != nil {
		return err
	}
	descs := c.Arg("pInputElementDescs")
	var list []Value
	switch {
	case descs == nil || descs.Kind == KNull:
	case descs.Kind == KArray:
		list = descs.Elems
	default:
		list = []Value{*descs}
	}
	if uint64(len(list)) != n {
		return skip("NumElements %d, but pInputElementDescs holds %d", n, len(list))
	}
	code, err := m.shaderArg(c.Arg("pShaderBytecodeWithInputSignature"), "vs")
	if err != nil {
		return err
	}
	text := code
	for i := range list {
		e := &list[i]
		sem := m.member(e, "SemanticName")
		if sem == nil || sem.Kind != KString || sanitize(sem.Str) != sem.Str {
			return skip("element %d: SemanticName is %s", i, describe(sem))
		}
		idx, err := m.uintMember(e, "SemanticIndex")
		if err != nil {
			return err
		}
		f, _, err := m.scenarioEnumArg(m.member(e, "Format"), sigDXGIFormat, "Format", "Format")
		if err != nil {
			return err
		}
		slot, err := m.uintMember(e, "InputSlot")
		if err != nil {
			return err
		}
		off := "APPEND_ALIGNED"
		if o, _, ok := enumOf(m.member(e, "AlignedByteOffset"), sigAppendAlign); !ok {
			return skip("element %d: AlignedByteOffset is %s", i, describe(m.member(e, "AlignedByteOffset")))
		} else if o != 0xffffffff {
			off = strconv.FormatInt(o, 10)
		}
		class, _, err := m.scenarioEnumArg(m.member(e, "InputSlotClass"), sigInputClass, "InputClassification", "InputSlotClass")
		if err != nil {
			return err
		}
		step, err := m.uintMember(e, "InstanceDataStepRate")
		if err != nil {
			return err
		}
		text += fmt.Sprintf(" elem[%s %d %s %d %s %s %d]", sem.Str, idx, f, slot, off, class, step)
	}
	l := m.out(c, "ppInputLayout", "inputlayout", "il")
	if l != nil {
		l.dev = d
	}
	m.emit(c, m.bind(l)+m.ref(d)+".CreateInputLayout "+text, hrOf(c))
	return nil
}

// enumField reads a desc member as a scenario enum value, adding it to
// vals unless it is the default.
func (m *importer) enumField(desc *Value, member string, sig *EnumSig, kind string, def int64, vals map[string]string) error {
	s, n, err := m.scenarioEnumArg(m.member(desc, member), sig, kind, member)
	if err != nil {
		return err
	}
	if n != def {
		vals[member] = s
	}
	return nil
}

func (m *importer) boolField(desc *Value, member string, def bool, vals map[string]string) (bool, error) {
	b, err := m.boolOf(m.member(desc, member), member)
	if err != nil {
		return false, err
	}
	if b != def {
		vals[member] = tf(b)
	}
	return b, nil
}

func (m *importer) state(c *Call, d *object, typ, prefix, method, out string, vals map[string]string) error {
	s := m.out(c, out, typ, prefix)
	if s != nil {
		s.dev = d
	}
	m.emit(c, m.bind(s)+m.callText(d, method, vals), hrOf(c))
	return nil
}

func impCreateBlend(m *importer, c *Call, d *object) error {
	desc := c.Arg("pBlendStateDesc")
	vals := map[string]string{}
	for _, f := range []string{"AlphaToCoverageEnable", "IndependentBlendEnable"} {
		if _, err := m.boolField(desc, f, false, vals); err != nil {
			return err
		}
	}
	rts := m.member(desc, "RenderTarget")
	if rts == nil || rts.Kind != KArray || len(rts.Elems) == 0 {
		return skip("RenderTarget is %s", describe(rts))
	}
	// Render target 0's fields, and the other seven's when
	// IndependentBlendEnable makes them count (else D3D11 uses the first).
	n := 1
	if vals["IndependentBlendEnable"] == "TRUE" {
		n = min(8, len(rts.Elems))
	}
	def := d3d11.DefaultBlendDesc().RenderTarget[0]
	for i := range n {
		rt := &rts.Elems[i]
		sfx := ""
		if i > 0 {
			sfx = strconv.Itoa(i)
		}
		one := map[string]string{}
		if _, err := m.boolField(rt, "BlendEnable", false, one); err != nil {
			return err
		}
		for _, f := range []struct {
			name string
			sig  *EnumSig
			kind string
			def  int64
		}{{"SrcBlend", sigBlend, "Blend", int64(def.SrcBlend)}, {"DestBlend", sigBlend, "Blend", int64(def.DestBlend)},
			{"BlendOp", sigBlendOp, "BlendOp", int64(def.BlendOp)}, {"SrcBlendAlpha", sigBlend, "Blend", int64(def.SrcBlendAlpha)},
			{"DestBlendAlpha", sigBlend, "Blend", int64(def.DestBlendAlpha)}, {"BlendOpAlpha", sigBlendOp, "BlendOp", int64(def.BlendOpAlpha)}} {
			if err := m.enumField(rt, f.name, f.sig, f.kind, f.def, one); err != nil {
				return err
			}
		}
		mask, err := m.uintMember(rt, "RenderTargetWriteMask")
		if err != nil {
			return err
		}
		if mask != 15 {
			one["RenderTargetWriteMask"] = fmtU(mask)
		}
		for k, v := range one {
			vals[k+sfx] = v
		}
	}
	return m.state(c, d, "blend", "blend", "CreateBlendState", "ppBlendState", vals)
}

func impCreateRaster(m *importer, c *Call, d *object) error {
	desc := c.Arg("pRasterizerDesc")
	def := d3d11.DefaultRasterizerDesc()
	vals := map[string]string{}
	if err := m.enumField(desc, "FillMode", sigFill, "FillMode", int64(def.FillMode), vals); err != nil {
		return err
	}
	if err := m.enumField(desc, "CullMode", sigCull, "CullMode", int64(def.CullMode), vals); err != nil {
		return err
	}
	if _, err := m.boolField(desc, "FrontCounterClockwise", false, vals); err != nil {
		return err
	}
	if _, err := m.boolField(desc, "DepthClipEnable", true, vals); err != nil {
		return err
	}
	if v, ok := valInt(m.member(desc, "DepthBias")); ok && v != 0 {
		vals["DepthBias"] = strconv.FormatInt(v, 10)
	}
	for _, f := range []string{"DepthBiasClamp", "SlopeScaledDepthBias"} {
		if v, _ := valFloat(m.member(desc, f)); v != 0 {
			vals[f] = floatText(v)
		}
	}
	for _, f := range []string{"ScissorEnable", "MultisampleEnable", "AntialiasedLineEnable"} {
		if _, err := m.boolField(desc, f, false, vals); err != nil {
			return err
		}
	}
	return m.state(c, d, "rasterizer", "rs", "CreateRasterizerState", "ppRasterizerState", vals)
}

func impCreateDepth(m *importer, c *Call, d *object) error {
	desc := c.Arg("pDepthStencilDesc")
	def := d3d11.DefaultDepthStencilDesc()
	vals := map[string]string{}
	if _, err := m.boolField(desc, "DepthEnable", true, vals); err != nil {
		return err
	}
	if err := m.enumField(desc, "DepthWriteMask", sigDepthWrite, "DepthWriteMask", 1, vals); err != nil {
		return err
	}
	if err := m.enumField(desc, "DepthFunc", sigComparison, "Comparison", int64(def.DepthFunc), vals); err != nil {
		return err
	}
	if _, err := m.boolField(desc, "StencilEnable", false, vals); err != nil {
		return err
	}
	for _, f := range []string{"StencilReadMask", "StencilWriteMask"} {
		if n, ok := valInt(m.member(desc, f)); ok && n != 0xff {
			vals[f] = fmtU(uint64(n))
		}
	}
	for _, face := range []string{"FrontFace", "BackFace"} {
		ops := m.member(desc, face)
		if ops == nil {
			continue
		}
		for _, f := range []struct {
			name string
			sig  *EnumSig
			kind string
			def  int64
		}{{"StencilFailOp", sigStencilOp, "StencilOp", int64(def.FrontFace.StencilFailOp)},
			{"StencilDepthFailOp", sigStencilOp, "StencilOp", int64(def.FrontFace.StencilDepthFailOp)},
			{"StencilPassOp", sigStencilOp, "StencilOp", int64(def.FrontFace.StencilPassOp)},
			{"StencilFunc", sigComparison, "Comparison", int64(def.FrontFace.StencilFunc)}} {
			one := map[string]string{}
			if err := m.enumField(ops, f.name, f.sig, f.kind, f.def, one); err != nil {
				return err
			}
			if v, ok := one[f.name]; ok {
				vals[face+f.name] = v
			}
		}
	}
	return m.state(c, d, "depthstencil", "dss", "CreateDepthStencilState", "ppDepthStencilState", vals)
}

func impCreateSampler(m *importer, c *Call, d *object) error {
	desc := c.Arg("pSamplerDesc")
	def := d3d11.DefaultSamplerDesc()
	vals := map[string]string{}
	if err := m.enumField(desc, "Filter", sigFilter, "Filter", int64(def.Filter), vals); err != nil {
		return err
	}
	if err := m.enumField(desc, "AddressU", sigAddress, "Address", int64(def.AddressU), vals); err != nil {
		return err
	}
	if err := m.enumField(desc, "AddressV", sigAddress, "Address", int64(def.AddressV), vals); err != nil {
		return err
	}
	if err := m.enumField(desc, "AddressW", sigAddress, "Address", int64(def.AddressW), vals); err != nil {
		return err
	}
	if err := m.enumField(desc, "ComparisonFunc", sigComparison, "Comparison", int64(def.ComparisonFunc), vals); err != nil {
		return err
	}
	if v, ok := valInt(m.member(desc, "MaxAnisotropy")); ok && v != int64(def.MaxAnisotropy) {
		vals["MaxAnisotropy"] = strconv.FormatInt(v, 10)
	}
	for _, f := range []struct {
		name string
		def  float32
	}{{"MipLODBias", def.MipLODBias}, {"MinLOD", def.MinLOD}, {"MaxLOD", def.MaxLOD}} {
		// (A bound past 1e30 is no clamp, as the default: apitrace dump
		// prints FLT_MAX to 7 digits, 3.402823e+38, and programs write
		// 3.4e38 for D3D11_FLOAT32_MAX.)
		v, ok := valFloat(m.member(desc, f.name))
		if ok && v != float64(f.def) && !(f.def != 0 && math.Abs(v) >= 1e30 && (v > 0) == (f.def > 0)) {
			vals[f.name] = floatText(v)
		}
	}
	if bc := m.member(desc, "BorderColor"); bc != nil && bc.Kind == KArray && len(bc.Elems) == 4 {
		var col [4]float64
		for i := range col {
			col[i], _ = valFloat(&bc.Elems[i])
		}
		if col != [4]float64{} {
			s, ok := colourText(col)
			if !ok {
				return skip("BorderColor {%g, %g, %g, %g}: the scenario's border colours are 8 bits a channel", col[0], col[1], col[2], col[3])
			}
			vals["BorderColor"] = s
		}
	}
	return m.state(c, d, "sampler", "smp", "CreateSamplerState", "ppSamplerState", vals)
}

func impCreateQuery(m *importer, c *Call, d *object) error {
	desc := c.Arg("pQueryDesc")
	s, n, err := m.scenarioEnumArg(m.member(desc, "Query"), sigQuery, "Query", "Query")
	if err != nil {
		return err
	}
	q := m.out(c, "ppQuery", "query", "q")
	if q != nil {
		q.query, q.dev = n, d
	}
	m.emit(c, m.bind(q)+m.callText(d, "CreateQuery", map[string]string{"Query": s}), hrOf(c))
	return nil
}

func impCreateDeferred(m *importer, c *Call, d *object) error {
	if f, _ := m.uintOf(c, "ContextFlags"); f != 0 {
		return skip("ContextFlags %d", f)
	}
	dc := m.out(c, "ppDeferredContext", "context", "dc")
	if dc != nil {
		dc.dev = d
	}
	m.emit(c, m.bind(dc)+m.ref(d)+".CreateDeferredContext", hrOf(c))
	return nil
}

func impCreateFence(m *importer, c *Call, d *object) error {
	v, err := m.uintOf(c, "InitialValue")
	if err != nil {
		return err
	}
	if n, name, _ := enumOf(c.Arg("Flags"), sigFenceFlag); n != 0 {
		return skip("Flags %s: the simulated fences are not shared", name)
	}
	f := m.out(c, "ppFence", "fence", "fence")
	vals := map[string]string{}
	if v != 0 {
		vals["InitialValue"] = fmtU(v)
	}
	m.emit(c, m.bind(f)+m.callText(d, "CreateFence", vals), hrOf(c))
	return nil
}

func impSetLatency(m *importer, c *Call, d *object) error {
	n, err := m.uintOf(c, "MaxLatency")
	if err != nil {
		return err
	}
	m.emit(c, m.callText(d, "SetMaximumFrameLatency", map[string]string{"N": fmtU(n)}), hrOf(c))
	return nil
}

func impGetLatency(m *importer, c *Call, d *object) error {
	m.emit(c, m.ref(d)+".GetMaximumFrameLatency", hrOf(c))
	return nil
}

// elems is an array argument's values (a pointer to one is an array of
// one; NULL none).
func elems(v *Value) []Value {
	switch {
	case v == nil || v.Kind == KNull:
		return nil
	case v.Kind == KArray:
		return v.Elems
	}
	return []Value{*v}
}

func impIASetVertexBuffers(m *importer, c *Call, ctx *object) error {
	start, err := m.uintOf(c, "StartSlot")
	if err != nil {
		return err
	}
	n, err := m.uintOf(c, "NumBuffers")
	if err != nil {
		return err
	}
	if n > 32 {
		return skip("NumBuffers %d: D3D11 has 32 vertex-buffer slots", n)
	}
	if n == 0 {
		return nil
	}
	// One statement for the range, as the call binds it: the strides and
	// offsets as Stride= and Offset= when they are one value, lists when not.
	bufs, strides, offsets := elems(c.Arg("ppVertexBuffers")), elems(c.Arg("pStrides")), elems(c.Arg("pOffsets"))
	text := m.ref(ctx) + ".IASetVertexBuffers " + fmtU(start)
	st, off := make([]string, n), make([]string, n)
	for i := uint64(0); i < n; i++ {
		ref := "NULL"
		if int(i) < len(bufs) {
			o, err := m.objOf(&bufs[i])
			if err != nil {
				return err
			}
			if o != nil && o.typ != "buffer" {
				return skip("ppVertexBuffers[%d] is a %s", i, orKind(o))
			}
			ref = m.ref(o)
		}
		text += " " + ref
		st[i], off[i] = "0", "0"
		if int(i) < len(strides) {
			s, _ := valInt(&strides[i])
			st[i] = strconv.FormatInt(s, 10)
		}
		if int(i) < len(offsets) {
			o, _ := valInt(&offsets[i])
			off[i] = strconv.FormatInt(o, 10)
		}
	}
	for _, l := range []struct {
		one, list, def string
		v              []string
	}{{"Stride", "Strides", "36", st}, {"Offset", "Offsets", "0", off}} {
		same := true
		for _, x := range l.v {
			same = same && x == l.v[0]
		}
		switch {
		case same && l.v[0] != l.def:
			text += " " + l.one + "=" + l.v[0]
		case !same:
			text += " " + l.list + "=u32[" + strings.Join(l.v, " ") + "]"
		}
	}
	m.emit(c, text, "")
	return nil
}

func impSetShader(m *importer, c *Call, ctx *object) error {
	_, meth := c.Method()
	arg, typ := "pVertexShader", "vs"
	switch meth {
	case "PSSetShader":
		arg, typ = "pPixelShader", "ps"
	case "CSSetShader":
		arg, typ = "pComputeShader", "cs"
	case "GSSetShader":
		arg, typ = "pShader", "gs"
	case "HSSetShader":
		arg, typ = "pHullShader", "hs"
	case "DSSetShader":
		arg, typ = "pDomainShader", "ds"
	}
	if n, _ := valInt(c.Arg("NumClassInstances")); n != 0 {
		return skip("class instances: the simulator has no dynamic shader linkage")
	}
	s, err := m.objArg(c, arg, typ)
	if err != nil {
		return err
	}
	m.emit(c, m.ref(ctx)+"."+meth+" "+m.ref(s), "")
	return nil
}

// impSlots imports a StartSlot, Num..., pp... call: one statement a slot.
func impSlots(param string) importFunc {
	return func(m *importer, c *Call, ctx *object) error {
		_, meth := c.Method()
		sig := c.Sig
		if sig == nil || len(sig.Args) < 4 {
			return skip("%s has %d arguments", meth, len(sig.Args))
		}
		start, err := m.uintOf(c, sig.Args[1])
		if err != nil {
			return err
		}
		n, err := m.uintOf(c, sig.Args[2])
		if err != nil {
			return err
		}
		info, _ := scenario.Describe("context", meth)
		var types []string
		for _, p := range info.Params {
			if p.Name == param {
				types = p.Types
			}
		}
		objs := elems(c.Arg(sig.Args[3]))
		if n > 128 {
			return skip("%s %d: no stage has more than 128 slots", sig.Args[2], n)
		}
		if n == 0 {
			return nil
		}
		// One statement for the range, as the call binds it.
		text := m.ref(ctx) + "." + meth + " " + fmtU(start)
		for i := uint64(0); i < n; i++ {
			ref := "NULL"
			if int(i) < len(objs) {
				o, err := m.objOf(&objs[i])
				if err != nil {
					return err
				}
				if o != nil {
					okType := false
					for _, t := range types {
						okType = okType || o.typ == t
					}
					if !okType {
						return skip("%s[%d] is a %s", sig.Args[3], i, orKind(o))
					}
				}
				ref = m.ref(o)
			}
			text += " " + ref
		}
		m.emit(c, text, "")
		return nil
	}
}

func impOMSetRenderTargets(m *importer, c *Call, ctx *object) error {
	n, err := m.uintOf(c, "NumViews")
	if err != nil {
		return err
	}
	if n > 8 {
		return skip("NumViews %d: D3D11 has 8 render-target slots", n)
	}
	views := elems(c.Arg("ppRenderTargetViews"))
	var rtvs []*object
	for i := uint64(0); i < n && int(i) < len(views); i++ {
		o, err := m.objOf(&views[i])
		if err != nil {
			return err
		}
		if o != nil && o.typ != "rtv" {
			return skip("ppRenderTargetViews[%d] is a %s", i, orKind(o))
		}
		rtvs = append(rtvs, o)
	}
	// Empty slots at the end are left out; one in the middle is NULL.
	for len(rtvs) > 0 && rtvs[len(rtvs)-1] == nil {
		rtvs = rtvs[:len(rtvs)-1]
	}
	dsv, err := m.objArg(c, "pDepthStencilView", "dsv")
	if err != nil {
		return err
	}
	text := m.ref(ctx) + ".OMSetRenderTargets"
	if len(rtvs) == 0 {
		text += " " + m.ref(nil)
	}
	for _, o := range rtvs {
		text += " " + m.ref(o)
	}
	if dsv != nil {
		text += " " + m.ref(dsv)
	}
	m.emit(c, text, "")
	return nil
}

func impOMSetBlendState(m *importer, c *Call, ctx *object) error {
	s, err := m.objArg(c, "pBlendState", "blend")
	if err != nil {
		return err
	}
	text := m.ref(ctx) + ".OMSetBlendState " + m.ref(s)
	// BlendFactor NULL is {1, 1, 1, 1}, the scenario's default.
	if f := elems(c.Arg("BlendFactor")); len(f) == 4 {
		var v [4]float64
		for i := range v {
			if v[i], err = m.floatOf(&f[i], "BlendFactor"); err != nil {
				return err
			}
		}
		if v != [4]float64{1, 1, 1, 1} {
			text += fmt.Sprintf(" BlendFactor=f32[%s %s %s %s]", floatText(v[0]), floatText(v[1]), floatText(v[2]), floatText(v[3]))
		}
	}
	if mask, ok := valInt(c.Arg("SampleMask")); ok && uint32(mask) != 0xffffffff {
		text += fmt.Sprintf(" SampleMask=%d", uint32(mask))
	}
	m.emit(c, text, "")
	return nil
}

func impOMSetDepthStencilState(m *importer, c *Call, ctx *object) error {
	s, err := m.objArg(c, "pDepthStencilState", "depthstencil")
	if err != nil {
		return err
	}
	text := m.ref(ctx) + ".OMSetDepthStencilState " + m.ref(s)
	if ref, ok := valInt(c.Arg("StencilRef")); ok && ref != 0 {
		text += " " + strconv.FormatInt(ref, 10)
	}
	m.emit(c, text, "")
	return nil
}

func impRSSetViewports(m *importer, c *Call, ctx *object) error {
	n, err := m.uintOf(c, "NumViewports")
	if err != nil {
		return err
	}
	vps := elems(c.Arg("pViewports"))
	if n == 0 || len(vps) == 0 {
		return skip("no viewport: the scenario sets one")
	}
	if n > 16 || uint64(len(vps)) < n {
		return skip("NumViewports %d with %d viewports: D3D11 has 16", n, len(vps))
	}
	text := m.ref(ctx) + ".RSSetViewports"
	var depth [2]float64
	for i := range n {
		var f [6]float64
		for k, name := range []string{"TopLeftX", "TopLeftY", "Width", "Height", "MinDepth", "MaxDepth"} {
			if f[k], err = m.floatOf(m.member(&vps[i], name), name); err != nil {
				return err
			}
		}
		if i == 0 {
			depth = [2]float64{f[4], f[5]}
		} else if depth != [2]float64{f[4], f[5]} {
			m.notice("viewport %d's MinDepth and MaxDepth differ from the first's: the scenario gives every viewport the first's", i)
		}
		text += fmt.Sprintf(" %s %s %s %s", floatText(f[0]), floatText(f[1]), floatText(f[2]), floatText(f[3]))
	}
	if depth[0] != 0 {
		text += " MinDepth=" + floatText(depth[0])
	}
	if depth[1] != 1 {
		text += " MaxDepth=" + floatText(depth[1])
	}
	m.emit(c, text, "")
	return nil
}

func impClearRTV(m *importer, c *Call, ctx *object) error {
	rtv, err := m.objArg(c, "pRenderTargetView", "rtv")
	if err != nil {
		return err
	}
	cols := elems(c.Arg("ColorRGBA"))
	if len(cols) != 4 {
		return skip("ColorRGBA holds %d values", len(cols))
	}
	var col [4]float64
	for i := range col {
		if col[i], err = m.floatOf(&cols[i], "ColorRGBA"); err != nil {
			return err
		}
	}
	text := m.ref(ctx) + ".ClearRenderTargetView " + m.ref(rtv) + " "
	if s, ok := colourText(col); ok {
		text += s
	} else {
		text += floatText(col[0]) + " " + floatText(col[1]) + " " + floatText(col[2]) + " " + floatText(col[3])
	}
	m.emit(c, text, "")
	return nil
}

func impClearDSV(m *importer, c *Call, ctx *object) error {
	dsv, err := m.objArg(c, "pDepthStencilView", "dsv")
	if err != nil {
		return err
	}
	flags, ok := flagsOf(c.Arg("ClearFlags"), sigClearFlag)
	if !ok || flags&1 == 0 {
		return skip("ClearFlags %s: the simulated depth-stencil views clear depth", describe(c.Arg("ClearFlags")))
	}
	if flags&2 != 0 {
		m.notice("ClearFlags D3D11_CLEAR_STENCIL: the simulated depth buffer has no stencil to clear")
	}
	depth, err := m.floatOf(c.Arg("Depth"), "Depth")
	if err != nil {
		return err
	}
	m.emit(c, m.ref(ctx)+".ClearDepthStencilView "+m.ref(dsv)+" "+floatText(depth), "")
	return nil
}

func impUpdateSubresource(m *importer, c *Call, ctx *object) error {
	res, err := m.objArg(c, "pDstResource", "buffer", "texture")
	if err != nil {
		return err
	}
	if res == nil {
		return skip("pDstResource is NULL")
	}
	if n, _ := m.uintOf(c, "DstSubresource"); n != 0 {
		return skip("DstSubresource %d: the simulated resources have one subresource", n)
	}
	data, err := m.bytesOf(c.Arg("pSrcData"), "pSrcData")
	if err != nil {
		return err
	}
	if box := c.Arg("pDstBox").Deref(); box != nil && box.Kind != KNull {
		left, _ := m.uintMember(box, "left")
		right, _ := m.uintMember(box, "right")
		if res.typ != "buffer" || left != 0 {
			return skip("a box: the scenario's UpdateSubresource writes a resource from its start")
		}
		if uint64(len(data)) > right {
			data = data[:right]
		}
	} else if res.typ == "texture" {
		pitch, _ := m.uintOf(c, "SrcRowPitch")
		data = repack(data, uint32(pitch), res.w*formatSize(res.format), res.h)
	}
	s, err := m.dataArg(data, "pSrcData")
	if err != nil {
		return err
	}
	m.emit(c, m.ref(ctx)+".UpdateSubresource "+m.ref(res)+" Data="+s, "")
	return nil
}

func impMap(m *importer, c *Call, ctx *object) error {
	res, err := m.objArg(c, "pResource", "buffer", "texture")
	if err != nil {
		return err
	}
	if res == nil {
		return skip("pResource is NULL")
	}
	if n, _ := m.uintOf(c, "Subresource"); n != 0 {
		return skip("Subresource %d: the simulated resources have one subresource", n)
	}
	typ, _, err := m.scenarioEnumArg(c.Arg("MapType"), sigMap, "MapType", "MapType")
	if err != nil {
		return err
	}
	flags, fv, err := m.scenarioFlagsArg(c.Arg("MapFlags"), sigMapFlag, "MapFlags", "MapFlags")
	if err != nil {
		return err
	}
	text := m.ref(ctx) + ".Map " + m.ref(res) + " " + typ
	if fv != 0 {
		text += " Flags=" + flags
	}
	if out := c.Arg("pMappedResource").Deref(); out != nil && out.Kind == KStruct && succeededCall(c) {
		if p := m.member(out, "pData"); p != nil {
			res.mapBinding = ""
			if addr, ok := valInt(p); ok {
				res.mapAddr = uint64(addr)
				m.setMapped(res, true)
			} else if p.Kind == KBinding {
				res.mapAddr, res.mapBinding = 0, p.Str
				m.setMapped(res, true)
			}
			res.mapRow, _ = m.uintMember(out, "RowPitch")
			res.mapSize, _ = m.uintMember(out, "DepthPitch")
		}
	}
	m.emit(c, text, hrOf(c))
	return nil
}

// impMemcpy turns the tracer's record of mapped writes into Write: the
// resource whose mapping holds dest, at its offset there (texture rows
// laid out tightly, as the simulator maps them). In a reference dump whose
// addresses and bytes are wildcards (<>), the write is left out with a
// notice, as blob(N)'s bytes are.
func impMemcpy(m *importer, c *Call, _ *object) error {
	destV := c.Arg("dest")
	var res *object
	off := uint64(0)
	srcV := c.Arg("src")
	n, nKnown := valInt(c.Arg("n"))
	var data []byte
	switch {
	case srcV != nil && srcV.Kind == KBinding:
		if !nKnown {
			m.notice("memcpy: the dump gives neither the bytes nor their count (<>): the write is left out")
			return nil
		}
		m.notice("memcpy: the dump does not give the %d bytes written (<>): zero-filled", n)
		data = make([]byte, n)
	default:
		b, err := m.bytesOf(srcV, "src")
		if err != nil {
			return err
		}
		data = b
	}
	if destV != nil && destV.Kind == KBinding {
		var mapped []*object
		for _, o := range m.mapped {
			if destV.Str == "" || o.mapBinding == destV.Str {
				mapped = append(mapped, o)
			}
		}
		if len(mapped) != 1 {
			m.notice("memcpy: the dump does not give the address written (<%s>) and %d resources are mapped: the write is left out", destV.Str, len(mapped))
			return nil
		}
		res = mapped[0]
		if destV.Str == "" && len(data) != int(res.mapSize) && res.typ == "buffer" && len(data) != int(res.size) {
			m.notice("memcpy into %s: the dump does not give the address written (<>): written at offset 0", res.kindName())
		}
	} else {
		dest, ok := valInt(destV)
		if !ok {
			return skip("dest is %s", describe(destV))
		}
		for _, o := range m.mapped {
			if uint64(dest) >= o.mapAddr {
				size := o.mapSize
				if o.typ == "buffer" {
					size = uint64(o.size)
				} else if o.mapRow > 0 {
					size = o.mapRow * uint64(o.h)
				}
				if uint64(dest)+uint64(len(data)) <= o.mapAddr+size && (res == nil || o.mapAddr > res.mapAddr) {
					res = o
				}
			}
		}
		if res == nil {
			return skip("a copy to %#x, in no mapped resource", dest)
		}
		off = uint64(dest) - res.mapAddr
	}
	if res.typ == "texture" {
		row := uint64(res.w * formatSize(res.format))
		if res.mapRow != 0 && res.mapRow != row && row != 0 {
			y0 := off / res.mapRow
			if off%res.mapRow != 0 {
				return skip("a copy that starts inside row %d of a texture mapped with RowPitch %d", y0, res.mapRow)
			}
			rows := (uint64(len(data)) + res.mapRow - 1) / res.mapRow
			data = repack(data, uint32(res.mapRow), uint32(row), uint32(rows))
			off = y0 * row
		}
	}
	s, err := m.dataArg(data, "src")
	if err != nil {
		return err
	}
	text := m.ref(res) + ".Write " + s
	if off != 0 {
		text += " Offset=" + fmtU(off)
	}
	m.emit(c, text, "")
	return nil
}

func impUnmap(m *importer, c *Call, ctx *object) error {
	res, err := m.objArg(c, "pResource", "buffer", "texture")
	if err != nil {
		return err
	}
	if res == nil {
		return skip("pResource is NULL")
	}
	m.setMapped(res, false)
	m.emit(c, m.ref(ctx)+".Unmap "+m.ref(res), "")
	return nil
}

func impGetData(m *importer, c *Call, ctx *object) error {
	q, err := m.objArg(c, "pAsync", "query")
	if err != nil {
		return err
	}
	if q == nil {
		return skip("pAsync is NULL")
	}
	m.emit(c, m.ref(ctx)+".GetData "+m.ref(q), hrOf(c))
	return nil
}

func impFinishCommandList(m *importer, c *Call, ctx *object) error {
	restore, err := m.boolOf(c.Arg("RestoreDeferredContextState"), "RestoreDeferredContextState")
	if err != nil {
		return err
	}
	cl := m.out(c, "ppCommandList", "commandlist", "cl")
	text := m.bind(cl) + m.ref(ctx) + ".FinishCommandList"
	if restore {
		text += " TRUE"
	}
	m.emit(c, text, hrOf(c))
	return nil
}

func impGetCompletedValue(m *importer, c *Call, f *object) error {
	m.emit(c, m.ref(f)+".GetCompletedValue", "")
	return nil
}

func impAddRef(m *importer, c *Call, tgt *object) error {
	if tgt == nil || tgt.typ == "" {
		return nil
	}
	m.emit(c, m.ref(tgt)+".AddRef", "")
	tgt.refOps++
	return nil
}

// impRelease writes Release, except for the Release of an interface a
// QueryInterface made when the object's references did not change in
// between: the pair is taken back (a program that asks for IDXGIDevice1
// for one call and lets it go).
func impRelease(m *importer, c *Call, tgt *object) error {
	if tgt == nil || tgt.typ == "" {
		return nil
	}
	if k, ok := keyOf(c.Arg("this")); ok {
		if a := m.objs[k]; a != nil && a.alias == tgt && a.qi != nil && a.refOps == tgt.refOps {
			a.qi.dropped = true
			a.qi = nil
			m.rep.Statements--
			return nil
		}
	}
	m.emit(c, m.ref(tgt)+".Release", "")
	tgt.refOps++
	return nil
}

// setMapped keeps the list of mapped resources the fake memcpy calls are
// looked up in.
func (m *importer) setMapped(o *object, mapped bool) {
	if o.mapped == mapped {
		return
	}
	o.mapped = mapped
	if mapped {
		m.mapped = append(m.mapped, o)
		return
	}
	for i, x := range m.mapped {
		if x == o {
			m.mapped = append(m.mapped[:i], m.mapped[i+1:]...)
			break
		}
	}
}
