//go:build !js

package main

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"d3dsim/core/apitrace"
)

// TestCaptureDownloadAndImport: Download's capture of the loaded scenario
// imports back to a scenario that loads and draws the same frame; a
// scenario's text is no capture; a malformed one gets its error.
func TestCaptureDownloadAndImport(t *testing.T) {
	a := &app{}
	if err := a.load(defaultSource(t)); err != nil {
		t.Fatal(err)
	}
	want := runToEnd(t, a)
	data := a.captureFile()
	if len(data) < 100 || captureFormat(data) != "apitrace trace" {
		t.Fatalf("capture of %d bytes, format %q", len(data), captureFormat(data))
	}
	r, err := apitrace.NewReader(bytes.NewReader(data), apitrace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for ; ; n++ {
		if _, err := r.Next(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
	}
	var res captureResult
	if err := json.Unmarshal(importCapture("run.trace", data), &res); err != nil {
		t.Fatal(err)
	}
	if !res.OK || res.Report == nil || res.Report.Calls != n || len(res.Report.Unsupported) != 0 {
		t.Fatalf("import: %+v", res)
	}
	b := &app{}
	if err := b.load([]byte(res.Scenario)); err != nil {
		t.Fatal(err)
	}
	if got := runToEnd(t, b); got.Hash != want.Hash {
		t.Errorf("imported: hash %s, want %s", got.Hash, want.Hash)
	}

	json.Unmarshal(importCapture("x.d3ds", defaultSource(t)), &res)
	if res.Format != "scenario" || res.OK {
		t.Errorf("a scenario: %+v", res)
	}
	res = captureResult{}
	json.Unmarshal(importCapture("cut.trace", data[:len(data)-9]), &res)
	if res.OK || !strings.Contains(res.Error, "truncated chunk") {
		t.Errorf("a cut capture: %+v", res)
	}
	res = captureResult{}
	json.Unmarshal(importCapture("dump.txt", []byte("0 ID3D11DeviceContext::SetResourceMinLOD(this = 0x1, pResource = NULL, MinLOD = 0)\n")), &res)
	if !res.OK || res.Format != "apitrace dump" || len(res.Report.Unsupported) != 1 {
		t.Errorf("dump text: %+v", res)
	}
}
