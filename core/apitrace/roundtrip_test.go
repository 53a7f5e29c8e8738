package apitrace

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"d3dsim/assets"
	"d3dsim/core/internal/oracle"
	"d3dsim/core/scenario"
)

// asset is one example or tutorial scenario.
type asset struct {
	name string
	src  []byte
}

func allAssets(t *testing.T) []asset {
	var out []asset
	for _, n := range assets.Scenarios() {
		src, _ := assets.Scenario(n)
		out = append(out, asset{n, src})
	}
	for _, n := range assets.Tutorials() {
		src, _, _ := assets.Tutorial(n)
		out = append(out, asset{n, src})
	}
	if len(out) < 30 {
		t.Fatalf("only %d assets", len(out))
	}
	breadth, err := os.ReadFile("testdata/breadth.d3ds")
	if err != nil {
		t.Fatal(err)
	}
	out = append(out, asset{"breadth", breadth})
	return append(out, docExamples(t)...)
}

// docExamples are docs/scenario.md's examples: each a complete scenario
// (core/scenario's TestDocExamples runs them), the language's breadth in
// the fewest lines.
func docExamples(t *testing.T) []asset {
	doc, err := os.ReadFile("../../docs/scenario.md")
	if err != nil {
		t.Fatal(err)
	}
	var out []asset
	for i, b := range strings.Split(string(doc), "```d3ds\n")[1:] {
		src, _, _ := strings.Cut(b, "```")
		out = append(out, asset{fmt.Sprintf("scenario.md example %d", i+1), []byte(src)})
	}
	return out
}

// runText runs a scenario and returns its summary, exporting it to a
// capture when export is not nil.
func runText(t testing.TB, name string, src []byte, export *bytes.Buffer) scenario.Summary {
	t.Helper()
	s, err := scenario.Load(name, src)
	if err != nil {
		t.Fatalf("%s: %v\n%s", name, err, numbered(string(src)))
	}
	r := scenario.NewRun(s, scenario.Overrides{})
	var e *Exporter
	if export != nil {
		e = NewExporter(export, s, name)
		r.Observe(e.Observer())
	}
	sum := r.Finish()
	if e != nil {
		if err := e.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return sum
}

func numbered(s string) string {
	var b strings.Builder
	for i, l := range strings.Split(s, "\n") {
		b.WriteString(strings.Repeat(" ", 4-len(itoa(i+1))) + itoa(i+1) + " " + l + "\n")
	}
	return b.String()
}

// importTrace imports a binary capture.
func importTrace(t *testing.T, name string, data []byte) (string, *Report) {
	t.Helper()
	src, f, err := Open(bytes.NewReader(data), Options{})
	if err != nil || f != FormatTrace {
		t.Fatalf("%s: %v (%s)", name, err, f)
	}
	text, rep, err := Import(src, ImportOptions{Name: name})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return text, rep
}

// TestExportImportRoundTrip exports every example and tutorial, imports
// the capture and runs the scenario it gives: the same frame, no failure,
// every call mapped. Exporting that scenario again and importing it gives
// the same scenario (the mapping is a fixed point after one round).
func TestExportImportRoundTrip(t *testing.T) {
	for _, a := range allAssets(t) {
		t.Run(a.name, func(t *testing.T) {
			var capture bytes.Buffer
			want := runText(t, a.name, a.src, &capture)
			text, rep := importTrace(t, a.name, capture.Bytes())
			if len(rep.Unsupported) > 0 {
				t.Errorf("unsupported calls: %+v", rep.Unsupported)
			}
			got := runText(t, a.name+" (imported)", []byte(text), nil)
			if got.Hash != want.Hash || got.Frames != want.Frames {
				t.Errorf("imported: %d frames, hash %s; the scenario: %d frames, hash %s", got.Frames, got.Hash, want.Frames, want.Hash)
			}
			if !got.OK() {
				t.Errorf("the imported scenario fails: %v\n%s", got.Failures, numbered(text))
			}
			// An expect that reads back waits for the GPU (09-errors
			// presents a frame only because one does before a hang).
			for _, k := range []string{"pixel", "hash", "probe"} {
				if bytes.Contains(a.src, []byte("\nexpect "+k+" ")) && !strings.Contains(text, "\nexpect "+k+" ") {
					t.Errorf("the imported scenario lost its expect %s statements", k)
				}
			}
			var again bytes.Buffer
			runText(t, a.name+" (imported)", []byte(text), &again)
			text2, _ := importTrace(t, a.name, again.Bytes())
			if text2 != text {
				t.Errorf("exporting the imported scenario and importing it again changes it:\n%s", firstDiff(text, text2))
			}
		})
	}
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return "line " + itoa(i+1) + ":\n  " + x + "\n  " + y
		}
	}
	return ""
}

// TestExportApitraceReads has Debian's apitrace read every export: dump
// prints it without an error, as this package prints it, and info names the
// API DirectX and counts its frames.
func TestExportApitraceReads(t *testing.T) {
	at := oracle.Tool(t, "apitrace")
	dir := t.TempDir()
	for _, a := range allAssets(t) {
		t.Run(a.name, func(t *testing.T) {
			var capture bytes.Buffer
			sum := runText(t, a.name, a.src, &capture)
			path := filepath.Join(dir, a.name+".trace")
			if err := os.WriteFile(path, capture.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(at, "dump", "--color=never", "--thread-ids=yes", path)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			want, err := cmd.Output()
			if err != nil || stderr.Len() > 0 {
				t.Fatalf("apitrace dump: %v\n%s", err, stderr.String())
			}
			got, _, _ := readAll(t, path, DumpOptions{ThreadIDs: true})
			compareDumps(t, string(want), got)
			// apitrace counts a frame per Present, failed ones too
			presents := strings.Count(got, "IDXGISwapChain::Present(")
			i := apitraceInfo(t, at, path)
			if i.API != "DirectX" || i.FramesCount != presents || presents < sum.Frames {
				t.Errorf("apitrace info: API %q, %d frames; want DirectX, %d (the run presented %d)", i.API, i.FramesCount, presents, sum.Frames)
			}
		})
	}
}

// dropHeader drops an imported scenario's first line (it names the file).
func dropHeader(s string) string {
	_, rest, _ := strings.Cut(s, "\n")
	return rest
}

// shaderBlocks is the text of a scenario's fxc blocks.
func shaderBlocks(s string) string { return blockLines(s, "fxc ", "}", true) }

// withoutShaderBytes drops the byte arrays of an imported scenario's fxc
// blocks (from "const BYTE" to "};"), keeping their listings.
func withoutShaderBytes(s string) string { return blockLines(s, "const BYTE ", "};", false) }

// blockLines keeps (keep) or drops (!keep) the lines from one that starts
// with start to the next that is end, and keeps or drops the rest the other
// way.
func blockLines(s, start, end string, keep bool) string {
	var b strings.Builder
	in := false
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, start) {
			in = true
		}
		if in == keep {
			b.WriteString(l + "\n")
		}
		if in && l == end {
			in = false
		}
	}
	return b.String()
}

// TestDumpRoundTrip: every example and tutorial, exported, printed by
// Debian's `apitrace dump --blobs --thread-ids=yes` and imported from that
// text (the blobs from the files dump wrote, the shaders assembled from
// their disassembly) is the scenario the binary capture imports to, and
// runs to the same frame. Printed by plain `apitrace dump`, whose blobs
// have no bytes, it imports with notices and the same shaders.
func TestDumpRoundTrip(t *testing.T) {
	at := oracle.Tool(t, "apitrace")
	for _, a := range allAssets(t) {
		t.Run(a.name, func(t *testing.T) {
			dir := t.TempDir()
			var capture bytes.Buffer
			want := runText(t, a.name, a.src, &capture)
			path := filepath.Join(dir, "capture.trace")
			if err := os.WriteFile(path, capture.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			binText, _ := importTrace(t, a.name, capture.Bytes())
			cmd := exec.Command(at, "dump", "--blobs", "--thread-ids=yes", "--color=never", path)
			cmd.Dir = dir
			dump, err := cmd.Output()
			if err != nil {
				t.Fatal(err)
			}
			src, err := NewDumpReader(bytes.NewReader(dump), Options{})
			if err != nil {
				t.Fatal(err)
			}
			text, rep, err := Import(src, ImportOptions{Name: a.name, Blob: func(n string) ([]byte, error) { return os.ReadFile(filepath.Join(dir, n)) }})
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Unsupported) > 0 || rep.NoticeCount > 0 {
				t.Errorf("report: %s", rep)
			}
			if dropHeader(text) != dropHeader(binText) {
				// The dump holds a shader as its listing, whose float literals
				// have six decimals (fxc's %f): a literal such as 2.0/3 comes
				// back as the nearest float to "0.666667". Then the listings
				// must be the same and the frame (below) too; nothing else may
				// differ.
				if withoutShaderBytes(dropHeader(text)) != withoutShaderBytes(dropHeader(binText)) {
					t.Fatalf("the dump imports to another scenario than the capture:\n%s", firstDiff(dropHeader(binText), dropHeader(text)))
				}
				t.Logf("%s: shader bytes differ where the listing prints a float literal in six decimals", a.name)
			}
			got := runText(t, a.name+" (from the dump)", []byte(text), nil)
			if got.Hash != want.Hash || !got.OK() {
				t.Errorf("hash %s, failures %v; want %s", got.Hash, got.Failures, want.Hash)
			}

			plain, err := exec.Command(at, "dump", "--thread-ids=yes", "--color=never", path).Output()
			if err != nil {
				t.Fatal(err)
			}
			src, _ = NewDumpReader(bytes.NewReader(plain), Options{})
			text, rep, err = Import(src, ImportOptions{Name: a.name})
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Unsupported) > 0 {
				t.Errorf("plain dump: unsupported %+v", rep.Unsupported)
			}
			if shaderBlocks(text) != shaderBlocks(binText) && withoutShaderBytes(shaderBlocks(text)) != withoutShaderBytes(shaderBlocks(binText)) {
				t.Errorf("plain dump: the shaders assembled from the disassembly differ:\n%s", firstDiff(shaderBlocks(binText), shaderBlocks(text)))
			}
			if _, err := scenario.Load(a.name, []byte(text)); err != nil {
				t.Errorf("plain dump: %v", err)
			}
		})
	}
}

// TestBreadthSurvivesTheRoundTrip: the fields a round trip would lose
// without changing a pixel of testdata/breadth.d3ds (states it binds but
// that draw nothing differently, getters) come back from the capture.
func TestBreadthSurvivesTheRoundTrip(t *testing.T) {
	src, err := os.ReadFile("testdata/breadth.d3ds")
	if err != nil {
		t.Fatal(err)
	}
	var capture bytes.Buffer
	runText(t, "breadth", src, &capture)
	text, _ := importTrace(t, "breadth", capture.Bytes())
	for _, want := range []string{
		"CreateTexture1D Width=4 ArraySize=2 Format=R8G8B8A8_UNORM", "CreateTexture3D Width=2 Height=2 Depth=2 Format=R8G8B8A8_UNORM MipLevels=2",
		"CreateShaderResourceView tex2 ViewDimension=TEXTURE3D MostDetailedMip=1",
		"ScissorEnable=TRUE", "DepthBias=2", "SlopeScaledDepthBias=0.5",
		"StencilEnable=TRUE", "StencilReadMask=15", "FrontFaceStencilPassOp=REPLACE", "BackFaceStencilFunc=NEVER",
		"IndependentBlendEnable=TRUE", "BlendEnable1=TRUE", "DestBlend1=ONE", "RenderTargetWriteMask2=3",
		"BlendFactor=f32[0.5 0.5 0.5 1] SampleMask=255", "OMSetDepthStencilState dss 7",
		"RSSetScissorRects 0 0 64 32", "RSSetViewports 0 0 64 64 0 0 32 32", "VSSetShaderResources 0 srv srv2", "VSSetSamplers 0 smp",
		"DrawIndexedInstancedIndirect buf3", "IAGetVertexBuffers 0 2", "VSGetShaderResources 0 2", "RSGetScissorRects",
		`imm.BeginEvent "Readback \"A\""`, `imm.SetMarker "mark"`, "imm.GetStatus", "imm.EndEvent",
		`D3DPERF_BeginEvent "Perf" Color=#10203040`, `D3DPERF_SetMarker "tick"`, "D3DPERF_GetStatus", "D3DPERF_EndEvent",
		`.SetPrivateData WKPDID_D3DDebugObjectName "Blend one"`, // the application's own GUID, named in the scenario, is a GUID made
		// from the name in the capture, and comes back by its text
		".SetPrivateData uuid_ed41a1be_a680_8426_2684_80a6bea141ed Data=u8[1 2 3]", ".GetPrivateData uuid_ed41a1be_a680_8426_2684_80a6bea141ed",
		".SetPrivateDataInterface uuid_ed41a1be_a680_8426_2684_80a6bea141ed rs",
		"CreateComputeShader fxc:cs1", "CSSetShader cs", "imm.Dispatch 2", "CSGetShader", "CreateUnorderedAccessView buf5 NumElements=16 Flags=COUNTER",
		"CSSetUnorderedAccessViews 0 uav UAVInitialCounts=u32[3]", "DispatchIndirect buf3 8", "CSGetUnorderedAccessViews 0 2",
		"OMSetRenderTargetsAndUnorderedAccessViews rtv uav UAVStartSlot=2 UAVInitialCounts=u32[5]",
		"OMGetRenderTargetsAndUnorderedAccessViews 1 1 2", "OMSetRenderTargetsAndUnorderedAccessViews uav UAVStartSlot=3 Keep=RENDER_TARGETS_AND_DEPTH_STENCIL",
		"OMSetRenderTargetsAndUnorderedAccessViews rtv Keep=UNORDERED_ACCESS_VIEWS",
		"ClearUnorderedAccessViewUint uav 7 0 0 0", "ClearUnorderedAccessViewFloat uav2 0.5 1 2 3", "CopyStructureCount buf6 4 uav",
		"ViewDimension=TEXTURE2DARRAY FirstArraySlice=1 ArraySize=1", "ViewDimension=TEXTURE3D FirstWSlice=1 WSize=3",
		"SampleCount=4 SampleQuality=4294967295", "CreateDepthStencilView tex7 Format=D24_UNORM_S8_UINT", "OMSetRenderTargets rtv3 dsv", "ResolveSubresource tex6 0 tex5 0 R8G8B8A8_UNORM",
		"ViewDimension=TEXTURE2DARRAY MipSlice=1 FirstArraySlice=1 ArraySize=2", "ViewDimension=TEXTURE3D FirstWSlice=2 WSize=-1",
		"Format=R32_FLOAT ViewDimension=BUFFER FirstElement=2 NumElements=8", "CreateDepthStencilView tex10 ViewDimension=TEXTURE2DARRAY FirstArraySlice=1 ArraySize=1",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the imported scenario lacks %q:\n%s", want, numbered(text))
			break
		}
	}
}
