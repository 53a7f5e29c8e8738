package scenario

import (
	"strings"
	"testing"

	"d3dsim/assets"
	"d3dsim/core/trace"
)

// TestIndexBufferHazards pins what D3D11 allows for index buffers the CPU
// writes ("D3D11_USAGE enumeration", "How to: Use dynamic resources"): a
// DYNAMIC index buffer is mapped with WRITE_DISCARD while a submitted draw
// still reads it, and that Map does not wait; a bindable buffer with
// CPUAccessFlags=READ is refused at creation (only STAGING reads back); a
// STAGING buffer the GPU still reads waits for a WRITE map (WAR) and not for
// a READ one. The scenario is the index-buffer-hazards example.
func TestIndexBufferHazards(t *testing.T) {
	src, ok := assets.Scenario("index-buffer-hazards")
	if !ok {
		t.Fatal("no index-buffer-hazards scenario")
	}
	s, err := Load("index-buffer-hazards.d3ds", src)
	if err != nil {
		t.Fatal(err)
	}
	r := NewRun(s, Overrides{})
	if sum := r.Finish(); !sum.OK() {
		t.Fatalf("%v", sum.Failures)
	}
	lines := strings.Split(string(src), "\n")
	lineOf := func(prefix string, nth int) int {
		for i, l := range lines {
			if strings.HasPrefix(l, prefix) {
				if nth--; nth == 0 {
					return i + 1
				}
			}
		}
		t.Fatalf("no %q (#%d) in the scenario", prefix, nth)
		return 0
	}
	waited := func(line int) bool {
		for _, e := range r.Events() {
			if e.Line == line && (e.Kind == trace.Wait || e.Name == "pfnWaitForSynchronizationObjectCb") {
				return true
			}
		}
		return false
	}
	tests := []struct {
		desc string
		line int
		wait bool
	}{
		{"READ of a STAGING buffer the GPU only reads", lineOf("imm.Map stage2 READ", 1), false},
		{"WRITE of a STAGING buffer a submitted copy reads (WAR)", lineOf("imm.Map stage1 WRITE", 1), true},
		{"WRITE_DISCARD of a DYNAMIC index buffer a submitted draw reads", lineOf("imm.Map dynIdx WRITE_DISCARD", 2), false},
	}
	for _, tt := range tests {
		if got := waited(tt.line); got != tt.wait {
			t.Errorf("%s (line %d): waited %v, want %v", tt.desc, tt.line, got, tt.wait)
		}
	}
	bad := lineOf("bad = dev.CreateBuffer", 1)
	for _, e := range r.Events() {
		if e.Line == bad && e.Name == "CreateBuffer" && e.Kind == trace.Return && e.HR != "E_INVALIDARG" {
			t.Errorf("a DYNAMIC INDEX_BUFFER with CPUAccessFlags=READ: CreateBuffer returned %q, want E_INVALIDARG", e.HR)
		}
	}
}
