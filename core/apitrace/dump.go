package apitrace

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// The text `apitrace dump --color=never` prints, written the way its Dumper
// writes it (lib/trace/trace_dump.cpp): what people paste into bug reports
// and what apitrace's test suite keeps as reference output. The tests
// compare it with Debian's `apitrace dump`, call for call.

// DumpOptions are `apitrace dump`'s flags that change the text.
type DumpOptions struct {
	ThreadIDs bool // --thread-ids: "@N " after the call number (hexadecimal)
	NoCallNos bool // --call-nos=no
	// Blobs is --blobs: blobs print as blob("blob_callN.bin") and their
	// bytes go to Blob. A repr prints its human form, as apitrace 11.1
	// (Debian's) prints it; later versions print the machine form's blob.
	Blobs bool
	Blob  func(name string, b []byte)
	// Verbose is --verbose: the calls apitrace's parser marks
	// CALL_FLAG_VERBOSE (verboseCalls) are printed too.
	Verbose bool
}

// verboseCalls are the Direct3D 11 calls apitrace's parser marks
// CALL_FLAG_VERBOSE (trace_parser_flags.cpp): `apitrace dump` leaves them
// out unless --verbose.
var verboseCalls = map[string]bool{"ID3D11Device::CheckMultisampleQualityLevels": true}

// DumpProperties writes the header lines of `apitrace dump`.
func DumpProperties(sb *strings.Builder, props []Property) {
	for _, p := range props {
		sb.WriteString("// " + p.Name + " = ")
		dumpString(sb, p.Value, false, true)
		sb.WriteByte('\n')
	}
}

// DumpCall writes one call as `apitrace dump` prints it, with its newline
// (and the blank line after a call that ends a frame).
func DumpCall(sb *strings.Builder, c *Call, o DumpOptions) {
	if !o.Verbose && verboseCalls[c.Name()] {
		return
	}
	d := dumper{sb: sb, o: o, call: c.No}
	if !o.NoCallNos {
		sb.WriteString(strconv.FormatUint(c.No, 10) + " ")
	}
	if o.ThreadIDs {
		sb.WriteString("@" + strconv.FormatUint(c.Thread, 16) + " ")
	}
	sb.WriteString(c.Name())
	sb.WriteByte('(')
	n := 0
	if c.Sig != nil {
		n = len(c.Sig.Args)
	}
	if len(c.Args) > n {
		n = len(c.Args)
	}
	for i := 0; i < n; i++ {
		if i > 0 {
			sb.WriteString(", ")
		}
		if c.Sig != nil && i < len(c.Sig.Args) {
			sb.WriteString(c.Sig.Args[i] + " = ")
		}
		if i < len(c.Args) && c.Present[i] {
			d.value(&c.Args[i])
		} else {
			sb.WriteByte('?')
		}
	}
	sb.WriteByte(')')
	if c.Ret != nil {
		sb.WriteString(" = ")
		d.value(c.Ret)
	}
	if c.Flags&(FlagFake|FlagIncomplete) != 0 {
		sb.WriteString(" //")
		if c.Flags&FlagFake != 0 {
			sb.WriteString(" fake")
		}
		if c.Flags&FlagIncomplete != 0 {
			sb.WriteString(" incomplete")
		}
	}
	sb.WriteByte('\n')
	if c.Backtrace != nil {
		sb.WriteString("Backtrace:\n")
		for _, f := range c.Backtrace {
			dumpFrame(sb, f)
			sb.WriteByte('\n')
		}
	}
	if EndsFrame(c.Name()) {
		sb.WriteByte('\n')
	}
}

// dumpFrame writes a backtrace frame as apitrace's RawStackFrame::dump
// does: module (or ?), ": function", "+0xOFFSET", ": file:line".
func dumpFrame(sb *strings.Builder, f *Frame) {
	if f.Module != "" {
		sb.WriteString(f.Module)
	} else {
		sb.WriteString("?")
	}
	if f.Function != "" {
		sb.WriteString(": " + f.Function)
	}
	if f.HasOff {
		sb.WriteString("+0x" + strconv.FormatUint(f.Offset, 16))
	}
	if f.File != "" {
		sb.WriteString(": " + f.File)
		if f.HasLine {
			sb.WriteString(":" + strconv.FormatUint(f.Line, 10))
		}
	}
}

var dxgiPresent = regexp.MustCompile(`^IDXGI(Decode)?SwapChain\w*::Present\w*$`)

// endFrame are the calls apitrace's parser marks CALL_FLAG_END_FRAME
// besides DXGI's Present (trace_parser_flags.cpp).
var endFrame = map[string]bool{
	"CGLFlushDrawable": true, "IDirect3DDevice8::Present": true, "IDirect3DDevice9::GetRenderTargetData": true,
	"IDirect3DDevice9::Present": true, "IDirect3DDevice9Ex::GetRenderTargetData": true, "IDirect3DDevice9Ex::Present": true,
	"IDirect3DDevice9Ex::PresentEx": true, "IDirect3DSwapChain9::Present": true, "IDirect3DSwapChain9Ex::Present": true,
	"eglSwapBuffers": true, "eglSwapBuffersWithDamageEXT": true, "eglSwapBuffersWithDamageKHR": true,
	"glFrameTerminatorGREMEDY": true, "glXSwapBuffers": true, "glXSwapBuffersMscOML": true, "wglSwapBuffers": true,
	"wglSwapLayerBuffers": true, "wglSwapMultipleBuffers": true,
}

// EndsFrame says whether apitrace counts the call as the end of a frame
// (`apitrace info`'s FramesCount, the blank line in a dump).
func EndsFrame(name string) bool {
	if strings.HasPrefix(name, "IDXGI") {
		return dxgiPresent.MatchString(name)
	}
	return endFrame[name]
}

type dumper struct {
	sb     *strings.Builder
	o      DumpOptions
	call   uint64
	blobNo int
}

func (d *dumper) value(v *Value) {
	sb := d.sb
	switch v.Kind {
	case KNull:
		sb.WriteString("NULL")
	case KBool:
		if v.Bool {
			sb.WriteString("true")
		} else {
			sb.WriteString("false")
		}
	case KSInt:
		sb.WriteString(strconv.FormatInt(v.Int, 10))
	case KUInt:
		sb.WriteString(strconv.FormatUint(v.Uint, 10))
	case KFloat:
		sb.WriteString(FormatFloat(v.Float, 7))
	case KDouble:
		sb.WriteString(FormatFloat(v.Float, 16))
	case KString:
		dumpString(sb, v.Str, false, false)
	case KWString:
		sb.WriteByte('L')
		dumpString(sb, v.Str, true, false)
	case KEnum:
		if n, ok := v.EnumSig.Lookup(v.Int); ok {
			sb.WriteString(n)
		} else {
			sb.WriteString(strconv.FormatInt(v.Int, 10))
		}
	case KName:
		sb.WriteString(v.Str)
	case KBinding:
		sb.WriteString("<" + v.Str + ">")
	case KBitmask:
		d.bitmask(v)
	case KStruct:
		if g, ok := guidOf(v); ok {
			sb.WriteString(GUIDName(g))
			return
		}
		sb.WriteByte('{')
		d.members(v, "")
		sb.WriteByte('}')
	case KArray:
		if len(v.Elems) == 1 {
			sb.WriteByte('&')
			d.value(&v.Elems[0])
			return
		}
		sb.WriteByte('{')
		for i := range v.Elems {
			if i > 0 {
				sb.WriteString(", ")
			}
			d.value(&v.Elems[i])
		}
		sb.WriteByte('}')
	case KBlob:
		if d.o.Blobs {
			name := "blob_call" + strconv.FormatUint(d.call, 10)
			if d.blobNo > 0 {
				name += "_" + strconv.Itoa(d.blobNo)
			}
			name += ".bin"
			d.blobNo++
			if d.o.Blob != nil {
				d.o.Blob(name, v.Bytes)
			}
			sb.WriteString(`blob("` + name + `")`)
			return
		}
		n := len(v.Bytes)
		if v.NoBytes {
			n = v.BlobSize
		}
		sb.WriteString("blob(" + strconv.Itoa(n) + ")")
	case KPointer:
		sb.WriteString("0x" + strconv.FormatUint(v.Uint, 16))
	case KRepr:
		if len(v.Elems) == 2 {
			d.value(&v.Elems[0])
		}
	default:
		sb.WriteString("?")
	}
}

func (d *dumper) members(v *Value, sep string) string {
	names := v.Names
	if v.StructSig != nil {
		names = v.StructSig.Members
	}
	for i := range v.Elems {
		name := ""
		if i < len(names) {
			name = names[i]
		}
		if name == "" {
			if v.Elems[i].Kind == KStruct {
				sep = d.members(&v.Elems[i], sep)
			}
			continue
		}
		d.sb.WriteString(sep + name + " = ")
		d.value(&v.Elems[i])
		sep = ", "
	}
	return sep
}

// bitmask prints flags as apitrace does: each flag whose bits are all set,
// in signature order, a zero flag only for 0, then what no flag covers in
// hexadecimal.
func (d *dumper) bitmask(v *Value) {
	val := v.Uint
	first := true
	var flags []BitmaskFlag
	if v.BitmaskSig != nil {
		flags = v.BitmaskSig.Flags
	}
	for _, f := range v.Names {
		if !first {
			d.sb.WriteString(" | ")
		}
		d.sb.WriteString(f)
		first = false
	}
	for _, f := range flags {
		if (f.Value != 0 && val&f.Value == f.Value) || (f.Value == 0 && val == 0) {
			if !first {
				d.sb.WriteString(" | ")
			}
			d.sb.WriteString(f.Name)
			val &^= f.Value
			first = false
		}
		if val == 0 {
			break
		}
	}
	if val != 0 || first {
		if !first {
			d.sb.WriteString(" | ")
		}
		d.sb.WriteString("0x" + strconv.FormatUint(val, 16))
	}
}

// FormatFloat prints v as a C++ stream with that precision does (%g
// without trailing zeros; inf and nan in lower case).
func FormatFloat(v float64, prec int) string {
	switch {
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	case math.IsNaN(v):
		if math.Signbit(v) {
			return "-nan"
		}
		return "nan"
	}
	return strconv.FormatFloat(v, 'g', prec, 64)
}

// dumpString quotes s as apitrace's visitString does: \" and \\, printable
// ASCII and tabs as they are, newlines as they are (the dump is multi-line),
// carriage returns dropped, anything else as apitrace's octal escape
// (which, as apitrace's does, repeats the middle digit for the top one).
func dumpString(sb *strings.Builder, s string, wide, _ bool) {
	sb.WriteByte('"')
	emit := func(c uint32) {
		switch {
		case c == '"':
			sb.WriteString(`\"`)
		case c == '\\':
			sb.WriteString(`\\`)
		case c >= 0x20 && c <= 0x7e:
			sb.WriteByte(byte(c))
		case c == '\t':
			sb.WriteByte('\t')
		case c == '\r':
		case c == '\n':
			sb.WriteByte('\n')
		default:
			o0, o1, o2 := c&7, (c>>3)&7, (c>>3)&7
			sb.WriteByte('\\')
			if o2 != 0 {
				sb.WriteByte(byte('0' + o2))
			}
			if o1 != 0 {
				sb.WriteByte(byte('0' + o1))
			}
			sb.WriteByte(byte('0' + o0))
		}
	}
	if wide {
		for _, r := range s {
			if r == 0 {
				break
			}
			emit(uint32(r))
		}
	} else {
		for i := 0; i < len(s); i++ {
			if s[i] == 0 {
				break
			}
			emit(uint32(int32(int8(s[i]))))
		}
	}
	sb.WriteByte('"')
}

// GUID is a Windows GUID.
type GUID struct {
	Data1 uint32
	Data2 uint16
	Data3 uint16
	Data4 [8]byte
}

func (g GUID) String() string {
	return fmt.Sprintf("%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x", g.Data1, g.Data2, g.Data3,
		g.Data4[0], g.Data4[1], g.Data4[2], g.Data4[3], g.Data4[4], g.Data4[5], g.Data4[6], g.Data4[7])
}

// guidOf reads a GUID struct value (apitrace prints those by name).
func guidOf(v *Value) (GUID, bool) {
	if v.StructSig == nil || v.StructSig.Name != "GUID" || len(v.Elems) != 4 || v.Elems[3].Kind != KArray || len(v.Elems[3].Elems) != 8 {
		return GUID{}, false
	}
	g := GUID{Data1: uint32(v.Elems[0].Uint), Data2: uint16(v.Elems[1].Uint), Data3: uint16(v.Elems[2].Uint)}
	for i := range 8 {
		g.Data4[i] = byte(v.Elems[3].Elems[i].Uint)
	}
	return g, true
}

// GUIDName is the name apitrace's dump prints for g: its symbolic name when
// known, else uuid(...).
func GUIDName(g GUID) string {
	for _, e := range guids {
		if e.g == g {
			return e.name
		}
	}
	return "uuid(" + g.String() + ")"
}

// GUIDNamed is the GUID of a name GUIDName prints.
func GUIDNamed(name string) (GUID, bool) {
	for _, e := range guids {
		if e.name == name {
			return e.g, true
		}
	}
	if s, ok := strings.CutPrefix(name, "uuid("); ok && strings.HasSuffix(s, ")") && len(s) == 37 {
		var g GUID
		var d4 [8]uint32
		n, _ := fmt.Sscanf(s[:36], "%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x", &g.Data1, &g.Data2, &g.Data3,
			&d4[0], &d4[1], &d4[2], &d4[3], &d4[4], &d4[5], &d4[6], &d4[7])
		if n == 11 {
			for i := range d4 {
				g.Data4[i] = byte(d4[i])
			}
			return g, true
		}
	}
	return GUID{}, false
}

// guids are the interface and private-data GUIDs the D3D11 mapping uses,
// with their names in the Windows SDK headers.
var guids = []struct {
	name string
	g    GUID
}{
	{"IID_IUnknown", GUID{0x00000000, 0x0000, 0x0000, [8]byte{0xc0, 0, 0, 0, 0, 0, 0, 0x46}}},
	{"IID_IDXGIObject", GUID{0xaec22fb8, 0x76f3, 0x4639, [8]byte{0x9b, 0xe0, 0x28, 0xeb, 0x43, 0xa6, 0x7a, 0x2e}}},
	{"IID_IDXGIDevice", GUID{0x54ec77fa, 0x1377, 0x44e6, [8]byte{0x8c, 0x32, 0x88, 0xfd, 0x5f, 0x44, 0xc8, 0x4c}}},
	{"IID_IDXGIDevice1", GUID{0x77db970f, 0x6276, 0x48ba, [8]byte{0xba, 0x28, 0x07, 0x01, 0x43, 0xb4, 0x39, 0x2c}}},
	{"IID_IDXGIFactory", GUID{0x7b7166ec, 0x21c7, 0x44ae, [8]byte{0xb2, 0x1a, 0xc9, 0xae, 0x32, 0x1a, 0xe3, 0x69}}},
	{"IID_IDXGIFactory1", GUID{0x770aae78, 0xf26f, 0x4dba, [8]byte{0xa8, 0x29, 0x25, 0x3c, 0x83, 0xd1, 0xb3, 0x87}}},
	{"IID_IDXGIAdapter", GUID{0x2411e7e1, 0x12ac, 0x4ccf, [8]byte{0xbd, 0x14, 0x97, 0x98, 0xe8, 0x53, 0x4d, 0xc0}}},
	{"IID_IDXGISwapChain", GUID{0x310d36a0, 0xd2e7, 0x4c0a, [8]byte{0xaa, 0x04, 0x6a, 0x9d, 0x23, 0xb8, 0x88, 0x6a}}},
	{"IID_ID3D11Device", GUID{0xdb6f6ddb, 0xac77, 0x4e88, [8]byte{0x82, 0x53, 0x81, 0x9d, 0xf9, 0xbb, 0xf1, 0x40}}},
	{"IID_ID3D11Device1", GUID{0xa04bfb29, 0x08ef, 0x43d6, [8]byte{0xa4, 0x9c, 0xa9, 0xbd, 0xbd, 0xcb, 0xe6, 0x86}}},
	{"IID_ID3D11DeviceContext", GUID{0xc0bfa96c, 0xe089, 0x44fb, [8]byte{0x8e, 0xaf, 0x26, 0xf8, 0x79, 0x61, 0x90, 0xda}}},
	{"IID_ID3D11DeviceContext1", GUID{0xbb2c6faa, 0xb5fb, 0x4082, [8]byte{0x8e, 0x6b, 0x38, 0x8b, 0x8c, 0xfa, 0x90, 0xe1}}},
	{"IID_ID3DUserDefinedAnnotation", GUID{0xb2daad8b, 0x03d4, 0x4dbf, [8]byte{0x95, 0xeb, 0x32, 0xab, 0x4b, 0x63, 0xd0, 0xab}}},
	{"IID_ID3D11Texture2D", GUID{0x6f15aaf2, 0xd208, 0x4e89, [8]byte{0x9a, 0xb4, 0x48, 0x95, 0x35, 0xd3, 0x4f, 0x9c}}},
	{"IID_ID3D11Resource", GUID{0xdc8e63f3, 0xd12b, 0x4952, [8]byte{0xb4, 0x7b, 0x5e, 0x45, 0x02, 0x6a, 0x86, 0x2d}}},
	{"IID_ID3D11Device5", GUID{0x8ffde202, 0xa0e7, 0x45df, [8]byte{0x9e, 0x01, 0xe8, 0x37, 0x80, 0x1b, 0x5e, 0xa0}}},
	{"IID_ID3D11DeviceContext4", GUID{0x917600da, 0xf58c, 0x4c33, [8]byte{0x98, 0xd8, 0x3e, 0x15, 0xb3, 0x90, 0xfa, 0x24}}},
	{"IID_ID3D11Fence", GUID{0xaffde9d1, 0x1df7, 0x4bb7, [8]byte{0x8a, 0x34, 0x0f, 0x46, 0x25, 0x1d, 0xab, 0x80}}},
	{"IID_IDXGIFactory2", GUID{0x50c83a1c, 0xe072, 0x4c48, [8]byte{0x87, 0xb0, 0x36, 0x30, 0xfa, 0x36, 0xa6, 0xd0}}},
	{"WKPDID_D3DDebugObjectName", GUID{0x429b8c22, 0x9188, 0x4b0c, [8]byte{0x87, 0x42, 0xac, 0xb0, 0xbf, 0x85, 0xc2, 0x00}}},
	{"WKPDID_D3DDebugObjectNameW", GUID{0x4cca5fd8, 0x921f, 0x42c8, [8]byte{0x85, 0x66, 0x70, 0xca, 0xf2, 0xa9, 0xb7, 0x41}}},
}
