package apitrace

import (
	"bytes"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"d3dsim/core/internal/oracle"
)

// everyValue writes a trace with every value tag, enter and leave events
// interleaved across three threads, a fake call, a backtrace and a call
// never left.
func everyValue() []byte { return everyValueBig(3 << 20) }

// everyValueBig is everyValue with a blob of big bytes (across chunks).
func everyValueBig(big int) []byte {
	var buf bytes.Buffer
	w := NewWriter(&buf, []Property{{"process.name", `C:\app\tri.exe`}})
	mapType := &EnumSig{ID: 1, Values: []EnumValue{{"D3D11_MAP_READ", 1}, {"D3D11_MAP_WRITE", 2}, {"D3D11_MAP_WRITE_DISCARD", 4}}}
	hr := &EnumSig{ID: 2, Values: []EnumValue{{"S_OK", 0}, {"E_INVALIDARG", -2147024809}}}
	flags := &BitmaskSig{ID: 1, Flags: []BitmaskFlag{{"D3D11_MAP_FLAG_DO_NOT_WAIT", 0x100000}}}
	bind := &BitmaskSig{ID: 2, Flags: []BitmaskFlag{{"NONE", 0}, {"VB", 1}, {"IB", 2}}}
	mapped := &StructSig{ID: 1, Name: "D3D11_MAPPED_SUBRESOURCE", Members: []string{"pData", "RowPitch", "DepthPitch"}}
	tex := &StructSig{ID: 2, Name: "D3D11_TEX2D_RTV", Members: []string{"MipSlice"}}
	union := &StructSig{ID: 3, Members: []string{"Texture2D"}}
	desc := &StructSig{ID: 4, Name: "D3D11_RENDER_TARGET_VIEW_DESC", Members: []string{"Format", "", "Flag"}}
	guid := &StructSig{ID: 5, Name: "GUID", Members: []string{"Data1", "Data2", "Data3", "Data4"}}
	mapSig := &FuncSig{ID: 1, Name: "ID3D11DeviceContext::Map", Args: []string{"this", "pResource", "Subresource", "MapType", "MapFlags", "pMappedResource"}}
	memcpy := &FuncSig{ID: 2, Name: "memcpy", Args: []string{"dest", "src", "n"}}
	all := &FuncSig{ID: 3, Name: "Everything", Args: []string{"null", "f", "t", "neg", "pos", "fl", "dbl", "str", "blob", "enum", "mask", "arr", "st", "ptr", "repr", "wstr", "inf", "nan", "guid", "big"}}
	draw := &FuncSig{ID: 4, Name: "ID3D11DeviceContext::Draw", Args: []string{"this", "VertexCount", "StartVertexLocation"}}
	present := &FuncSig{ID: 5, Name: "IDXGISwapChain::Present", Args: []string{"this", "SyncInterval", "Flags"}}

	no := w.Enter(0, mapSig, []Arg{{0, PtrV(0x1000)}, {1, PtrV(0x2000)}, {2, UintV(0)}, {3, EnumV(mapType, 4)}, {4, BitmaskV(flags, 0)}}, 0, nil)
	// thread 1 enters and leaves Draw while Map is open
	d := w.Enter(1, draw, []Arg{{0, PtrV(0x1000)}, {1, UintV(3)}, {2, UintV(0)}}, 0,
		[]*Frame{{ID: 1, Module: "tri.exe", Function: "main", File: "tri.cpp", Line: 42, HasLine: true, Offset: 0x1a2b, HasOff: true}, {ID: 2}})
	w.Leave(d, nil, nil)
	ok := EnumV(hr, 0)
	w.Leave(no, []Arg{{5, ArrayV(StructV(mapped, PtrV(0x7f0000), UintV(96), UintV(96)))}}, &ok)
	m := w.Enter(0, memcpy, []Arg{{0, PtrV(0x7f0000)}, {1, BlobV([]byte{1, 2, 3, 0, 255})}, {2, UintV(5)}}, FlagFake, nil)
	w.Leave(m, nil, nil)
	e := w.Enter(2, all, []Arg{
		{0, Null}, {1, BoolV(false)}, {2, BoolV(true)}, {3, IntV(-5)}, {4, UintV(1 << 40)}, {5, FloatV(0.3)},
		{6, Value{Kind: KDouble, Float: 1.0 / 3}}, {7, StrV("quote \" back \\ tab\tnew\nline cr\r é end")},
		{8, BlobV(nil)}, {9, EnumV(mapType, 99)}, {10, BitmaskV(bind, 1|2|8)}, {11, ArrayV(UintV(1), IntV(-2), FloatV(2.5))},
		{12, ArrayV(StructV(desc, UintV(28), StructV(union, StructV(tex, UintV(0))), BitmaskV(bind, 0)))},
		{13, PtrV(0xdeadbeef)}, {14, ReprV(StrV("vs_4_0\nret \n"), BlobV([]byte("DXBC")))}, {15, WStrV("Marker ☃")},
		{16, FloatV(float32(math.Inf(1)))}, {17, Value{Kind: KDouble, Float: math.NaN()}},
		{18, StructV(guid, UintV(0x429b8c22), UintV(0x9188), UintV(0x4b0c), ArrayV(UintV(0x87), UintV(0x42), UintV(0xac), UintV(0xb0), UintV(0xbf), UintV(0x85), UintV(0xc2), UintV(0)))},
		{19, BlobV(bytes.Repeat([]byte{0xab}, big))},
	}, 0, nil)
	w.Leave(e, nil, nil)
	p := w.Enter(0, present, []Arg{{0, PtrV(0x3000)}, {1, UintV(0)}, {2, BitmaskV(flags, 0)}}, 0, nil)
	w.Leave(p, nil, &ok)
	w.Enter(1, draw, []Arg{{0, PtrV(0x1000)}, {1, UintV(6)}}, 0, nil) // never left
	if err := w.Close(); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// TestWriterReadBack reads the written trace back: every value as written,
// calls in the order they were left, the open one incomplete at the end.
func TestWriterReadBack(t *testing.T) {
	data := everyValue()
	r, err := NewReader(bytes.NewReader(data), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Version != 6 || len(r.Properties) != 1 || r.Properties[0].Value != `C:\app\tri.exe` {
		t.Fatalf("header: version %d properties %v", r.Version, r.Properties)
	}
	var names []string
	var calls []*Call
	for {
		c, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, c.Name())
		calls = append(calls, c)
	}
	want := []string{"ID3D11DeviceContext::Draw", "ID3D11DeviceContext::Map", "memcpy", "Everything", "IDXGISwapChain::Present", "ID3D11DeviceContext::Draw"}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("calls %v, want %v", names, want)
	}
	if calls[0].No != 1 || calls[0].Thread != 1 || calls[1].No != 0 || calls[5].Flags != FlagIncomplete || calls[2].Flags != FlagFake {
		t.Errorf("numbers, threads or flags wrong: %+v %+v %+v", calls[0], calls[1], calls[5])
	}
	if bt := calls[0].Backtrace; len(bt) != 2 || bt[0].Function != "main" || bt[0].Line != 42 || bt[0].Offset != 0x1a2b {
		t.Errorf("backtrace %+v", bt)
	}
	ev := calls[3]
	if v := ev.Arg("big"); v == nil || len(v.Bytes) != 3<<20 {
		t.Errorf("a 3 MiB blob across chunks came back wrong")
	}
	if v := ev.Arg("wstr"); v.Str != "Marker ☃" {
		t.Errorf("wide string %q", v.Str)
	}
	if v := ev.Arg("fl"); float32(v.Float) != 0.3 {
		t.Errorf("float %v", v.Float)
	}
	var sb strings.Builder
	for _, c := range calls {
		DumpCall(&sb, c, DumpOptions{ThreadIDs: true})
	}
	for _, s := range []string{
		"pMappedResource = &{pData = 0x7f0000, RowPitch = 96, DepthPitch = 96}) = S_OK",
		"MapType = D3D11_MAP_WRITE_DISCARD, MapFlags = 0x0",
		"enum = 99, mask = VB | IB | 0x8",
		"st = &{Format = 28, Texture2D = {MipSlice = 0}, Flag = NONE}",
		"guid = WKPDID_D3DDebugObjectName",
		`wstr = L"Marker \3`,
		"inf = inf, nan = nan",
		"memcpy(dest = 0x7f0000, src = blob(5), n = 5) // fake",
		"Backtrace:\ntri.exe: main+0x1a2b: tri.cpp:42\n?\n",
		"IDXGISwapChain::Present(this = 0x3000, SyncInterval = 0, Flags = 0x0) = S_OK\n\n",
		"5 @1 ID3D11DeviceContext::Draw(this = 0x1000, VertexCount = 6, StartVertexLocation = ?) // incomplete",
	} {
		if !strings.Contains(sb.String(), s) {
			t.Errorf("dump lacks %q:\n%s", s, sb.String())
		}
	}
}

// TestWriterAgreesWithApitraceDump writes the trace to a file and has
// Debian's apitrace dump it: its text must be this package's, call for
// call, and its blobs the bytes written.
func TestWriterAgreesWithApitraceDump(t *testing.T) {
	at := oracle.Tool(t, "apitrace")
	dir := t.TempDir()
	path := filepath.Join(dir, "every.trace")
	if err := os.WriteFile(path, everyValue(), 0o644); err != nil {
		t.Fatal(err)
	}
	want, err := exec.Command(at, "dump", "--verbose", "--color=never", "--thread-ids=yes", path).CombinedOutput()
	if err != nil {
		t.Fatalf("apitrace dump: %v\n%s", err, want)
	}
	got, _, _ := readAll(t, path, DumpOptions{ThreadIDs: true})
	compareDumps(t, string(want), got)
}
