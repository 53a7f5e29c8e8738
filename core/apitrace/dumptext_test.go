package apitrace

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"d3dsim/assets"
	"d3dsim/core/memlimit"
	"d3dsim/core/scenario"
)

func readDump(text string) ([]*Call, error) {
	d, _ := NewDumpReader(strings.NewReader(text), Options{})
	var out []*Call
	for {
		c, err := d.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, c)
	}
}

// TestDumpReaderForms reads the forms `apitrace dump` prints and
// apitrace-tests' references add.
func TestDumpReaderForms(t *testing.T) {
	text := "// process.name = \"tri.exe\"\n//!tri\n" +
		"12 @1 f(a = -3, b = 0.25, c = \"two\nlines \\\"q\\\" \\\\\", d = L\"wide\", e = {1, 2}, f = &{X = 1, Y = {Z = NULL}}, g = A | B | 0x8, h = blob(4), i = blob(\"blob_call12.bin\"), j = 0x7f00, k = <pDev>, l = <>, m = true, n = ?, o = -inf, p = uuid(429b8c22-9188-4b0c-8742-acb0bf85c200)) = S_OK // fake\n" +
		"Backtrace:\ntri.exe: main+0x12: tri.cpp:3\n?\n" +
		"<draw> g()\n" +
		"h(1, 2) = <>\n"
	calls, err := readDump(text)
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) != 3 {
		t.Fatalf("%d calls", len(calls))
	}
	c := calls[0]
	if c.No != 12 || c.Thread != 1 || c.Flags != FlagFake || hrOf(c) != "" {
		t.Errorf("call %+v", c)
	}
	checks := map[string]func(v *Value) bool{
		"a": func(v *Value) bool { return v.Kind == KSInt && v.Int == -3 },
		"b": func(v *Value) bool { return v.Kind == KFloat && v.Float == 0.25 },
		"c": func(v *Value) bool { return v.Str == "two\nlines \"q\" \\" },
		"d": func(v *Value) bool { return v.Kind == KWString && v.Str == "wide" },
		"e": func(v *Value) bool { return v.Kind == KArray && len(v.Elems) == 2 },
		"f": func(v *Value) bool { m, _ := v.Deref().Member("Y"); return m != nil && m.Kind == KStruct },
		"g": func(v *Value) bool { return v.Kind == KBitmask && len(v.Names) == 2 && v.Uint == 8 },
		"h": func(v *Value) bool { return v.NoBytes && v.BlobSize == 4 },
		"i": func(v *Value) bool { return v.BlobFile == "blob_call12.bin" },
		"j": func(v *Value) bool { return v.Kind == KPointer && v.Uint == 0x7f00 },
		"k": func(v *Value) bool { return v.Kind == KBinding && v.Str == "pDev" },
		"l": func(v *Value) bool { return v.Kind == KBinding && v.Str == "" },
		"m": func(v *Value) bool { return v.Kind == KBool && v.Bool },
		"o": func(v *Value) bool { return v.Kind == KFloat && v.Float < 0 },
		"p": func(v *Value) bool {
			g, ok := GUIDNamed(v.Str)
			return ok && GUIDName(g) == "WKPDID_D3DDebugObjectName"
		},
	}
	for n, check := range checks {
		if v := c.Arg(n); v == nil || !check(v) {
			t.Errorf("argument %s: %+v", n, v)
		}
	}
	if c.Arg("n") != nil {
		t.Errorf("n = ? should be absent")
	}
	if calls[1].Name() != "g" || calls[1].No != 13 || calls[2].Ret == nil || calls[2].Ret.Kind != KBinding {
		t.Errorf("calls 2, 3: %+v %+v", calls[1], calls[2])
	}
}

// TestDumpReaderMalformed: malformed text gets a DumpError naming the line
// and the call.
func TestDumpReaderMalformed(t *testing.T) {
	deep := "3 f(a = " + strings.Repeat("{", 100) + strings.Repeat("}", 100) + ")\n"
	for _, c := range []struct{ text, want string }{
		{"1 f(a = \"unterminated)\n", "line 2:0 (call 1): the text ends inside a string"},
		{"1 f(a = 1)\n2 g(a = $)\n", "line 2:8 (call 2): \"$\" cannot start a value"},
		{deep, "(call 3): values nested more than 64 deep"},
		{"4 f(a = blob(999999999999))\n", "(call 4): blob(999999999999): a size up to 64 MiB"},
		{"5 f(a = 1) junk\n", "(call 5): \"junk\" after the call"},
		{"6 f(a = 1, b = {X = 1, 2})\n", "(call 6): a member without a name"},
		{"7 f(a = 0xZZ)\n", "(call 7): \"0xZZ\" is not a hexadecimal number"},
		{"8 @zz f()\n", "line 1:0: \"8 @zz f()\" does not start a call"},
		{"1 f()\nhello world\n", "line 2:0 (call 1): \"hello world\" does not start a call"},
		{"9 f(a = 1", "(call 9): the text ends inside the arguments of f"},
	} {
		_, err := readDump(c.text)
		var de *DumpError
		if !errors.As(err, &de) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%.40q: got %v, want %q", c.text, err, c.want)
		}
	}
}

// FuzzImportDump: any text either fails to read with a DumpError or
// imports to a scenario that loads; nothing panics, and the work is
// bounded.
func FuzzImportDump(f *testing.F) {
	var sb strings.Builder
	r, _ := NewReader(bytes.NewReader(everyValueBig(16)), Options{})
	for {
		c, err := r.Next()
		if err != nil {
			break
		}
		DumpCall(&sb, c, DumpOptions{ThreadIDs: true})
	}
	f.Add(sb.String())
	var hello strings.Builder
	r, _ = NewReader(bytes.NewReader(exportedSeed(f, "hello-triangle")), Options{})
	for {
		c, err := r.Next()
		if err != nil {
			break
		}
		DumpCall(&hello, c, DumpOptions{ThreadIDs: true})
	}
	f.Add(hello.String())
	f.Add("0 D3D11CreateDevice(pAdapter = NULL, DriverType = D3D_DRIVER_TYPE_HARDWARE, Software = NULL, Flags = 0x0, pFeatureLevels = NULL, FeatureLevels = 0, SDKVersion = 7, ppDevice = &0x100, pFeatureLevel = NULL, ppImmediateContext = &0x200) = S_OK\n" +
		"1 ID3D11Device::CreateBuffer(this = 0x100, pDesc = &{ByteWidth = 16, Usage = D3D11_USAGE_DYNAMIC, BindFlags = D3D11_BIND_VERTEX_BUFFER, CPUAccessFlags = D3D11_CPU_ACCESS_WRITE, MiscFlags = 0x0, StructureByteStride = 0}, pInitialData = NULL, ppBuffer = &0x300) = S_OK\n" +
		"2 ID3D11DeviceContext::Map(this = 0x200, pResource = 0x300, Subresource = 0, MapType = D3D11_MAP_WRITE_DISCARD, MapFlags = 0x0, pMappedResource = &{pData = 0x7000, RowPitch = 16, DepthPitch = 16}) = S_OK\n" +
		"3 memcpy(dest = 0x7004, src = blob(8), n = 8) // fake\n4 ID3D11DeviceContext::Unmap(this = 0x200, pResource = 0x300, Subresource = 0)\n" +
		"5 @1 ID3D11DeviceContext::Draw(this = 0x200, VertexCount = 3, StartVertexLocation = 0)\n6 D3DPERF_SetMarker(col = 0, wszName = L\"d3dsim: inject gpu.hang\")\n")
	f.Add("CreateDXGIFactory(riid = IID_IDXGIFactory, ppFactory = &<pFactory>) = S_OK\nIDXGIFactory::CreateSwapChain(this = <pFactory>, pDevice = <pDevice>, pDesc = &{BufferDesc = {Width = 8}}, ppSwapChain = &<sc>) = S_OK\n")
	f.Fuzz(func(t *testing.T, text string) {
		memlimit.Check(t, 256<<20, "importing the dump", func() {
			d, _ := NewDumpReader(strings.NewReader(text), Options{})
			out, _, err := Import(d, ImportOptions{MaxBytes: 256 << 10})
			if err != nil {
				return
			}
			if _, err := scenario.Load("fuzz", []byte(out)); err != nil {
				t.Fatalf("the import does not load: %v\n%s", err, out)
			}
		})
	})
}

// exportedSeed is an example's capture, for the fuzz targets' seeds.
func exportedSeed(f *testing.F, name string) []byte {
	src, _ := assets.Scenario(name)
	var b bytes.Buffer
	runText(f, name, src, &b)
	return b.Bytes()
}

// FuzzImportTrace: the same for binary captures.
func FuzzImportTrace(f *testing.F) {
	f.Add(everyValueBig(16))
	f.Add(exportedSeed(f, "hello-triangle"))
	f.Add(exportedSeed(f, "dynamic-triangle"))
	f.Fuzz(func(t *testing.T, data []byte) {
		memlimit.Check(t, 256<<20, "importing the trace", func() {
			src, _, err := Open(bytes.NewReader(data), Options{})
			if err != nil || src == nil {
				return
			}
			out, _, err := Import(src, ImportOptions{MaxBytes: 256 << 10})
			if err != nil {
				return
			}
			if _, err := scenario.Load("fuzz", []byte(out)); err != nil {
				t.Fatalf("the import does not load: %v\n%s", err, out)
			}
		})
	})
}
