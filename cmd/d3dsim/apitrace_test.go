package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExportImportRun: export writes a capture, import writes the scenario
// it is (the report on standard error), and run runs the capture as it runs
// the scenario: the same frame.
func TestExportImportRun(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "hello.trace")
	code, out, errOut := runCLI("export", "../../assets/scenarios/hello-triangle.d3ds", "-o", trace)
	if code != 0 || !strings.Contains(out, "hash f9164f2f3c182eef") {
		t.Fatalf("export: exit %d %q %q", code, out, errOut)
	}
	code, out, errOut = runCLI("import", trace)
	if code != 0 || !strings.Contains(out, "sc = dev.CreateSwapChain Width=64 Height=64  # call 3") || !strings.Contains(errOut, "unsupported calls: none") {
		t.Fatalf("import: exit %d %q %q", code, out, errOut)
	}
	scen := filepath.Join(dir, "hello.d3ds")
	if code, _, errOut = runCLI("import", trace, "-o", scen); code != 0 {
		t.Fatalf("import -o: exit %d %q", code, errOut)
	}
	for _, f := range []string{trace, scen} {
		code, out, errOut = runCLI("run", f)
		if code != 0 || !strings.Contains(out, "hash: f9164f2f3c182eef") {
			t.Fatalf("run %s: exit %d %q %q", f, code, out, errOut)
		}
	}
	// dump text, from a file and from standard input
	dump := filepath.Join(dir, "tri.txt")
	text := "0 D3D11CreateDevice(pAdapter = NULL, DriverType = D3D_DRIVER_TYPE_HARDWARE, Software = NULL, Flags = 0x0, pFeatureLevels = NULL, FeatureLevels = 0, SDKVersion = 7, ppDevice = &0x100, pFeatureLevel = NULL, ppImmediateContext = &0x200) = S_OK\n" +
		"1 ID3D11DeviceContext::Flush(this = 0x200)\n2 ID3D11DeviceContext::SetResourceMinLOD(this = 0x200, pResource = NULL, MinLOD = 0)\n"
	os.WriteFile(dump, []byte(text), 0o644)
	code, out, errOut = runCLI("run", dump)
	if code != 0 || !strings.Contains(out, "steps: 2") || !strings.Contains(errOut, "ID3D11DeviceContext::SetResourceMinLOD: 1, first call 2") {
		t.Fatalf("run dump: exit %d %q %q", code, out, errOut)
	}
	code, out, _ = runCLIIn(text, "import", "-")
	if code != 0 || !strings.Contains(out, "imm.Flush  # call 1") {
		t.Fatalf("import -: exit %d %q", code, out)
	}
	if code, _, errOut = runCLI("import", dump, "--strict"); code != exitBadIn || !strings.Contains(errOut, "call 2: ID3D11DeviceContext::SetResourceMinLOD") {
		t.Fatalf("import --strict: exit %d %q", code, errOut)
	}
	// a malformed capture: exit 2, the byte and the call named
	b, _ := os.ReadFile(trace)
	cut := filepath.Join(dir, "cut.trace")
	os.WriteFile(cut, b[:len(b)-7], 0o644)
	if code, _, errOut = runCLI("run", cut); code != exitBadIn || !strings.Contains(errOut, "truncated chunk") || !strings.Contains(errOut, "file byte") {
		t.Fatalf("run cut: exit %d %q", code, errOut)
	}
	if code, _, errOut = runCLI("export", "../../assets/scenarios/hello-triangle.d3ds"); code != exitBadIn || !strings.Contains(errOut, "-o FILE") {
		t.Fatalf("export without -o: exit %d %q", code, errOut)
	}
}
