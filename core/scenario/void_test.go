package scenario

import (
	"strings"
	"testing"

	"d3dsim/core/trace"
)

// TestVoidMethods: a void method gives the application no HRESULT. After
// one, `hr` is S_OK when the runtime carried it out and DROPPED when it
// dropped it (the debug layer says why); `expect hr == E_INVALIDARG`, the
// simulator's older form, still holds after a dropped one. A dropped call
// with no expect stops the run with a message that says it was dropped.
func TestVoidMethods(t *testing.T) {
	const head = "dev, imm = D3D11CreateDevice Flags=DEBUG\nvb = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:triangle\n"
	tests := []struct {
		desc, body string
		ok         bool
		failure    string
	}{
		{"carried out", "imm.IASetVertexBuffers 0 vb\nexpect hr == S_OK\n", true, ""},
		{"carried out is not DROPPED", "imm.IASetVertexBuffers 0 vb\nexpect hr == DROPPED\n", false, "a void method, was S_OK"},
		{"dropped", "vb.Release\nimm.IASetVertexBuffers 0 vb\nexpect hr == DROPPED\n", true, ""},
		{"dropped, the older form", "vb.Release\nimm.IASetVertexBuffers 0 vb\nexpect hr == E_INVALIDARG\n", true, ""},
		{"dropped is not S_OK", "vb.Release\nimm.IASetVertexBuffers 0 vb\nexpect hr == S_OK\n", false, "was DROPPED"},
		{"dropped without expect", "vb.Release\nimm.IASetVertexBuffers 0 vb\n", false, "was dropped by the runtime (a void method"},
		{"wrong bind flag", "cb = dev.CreateBuffer ByteWidth=16 BindFlags=CONSTANT_BUFFER\nimm.IASetVertexBuffers 0 cb\nexpect hr == DROPPED\n", true, ""},
		{"an object of another device: dropped", "dev2, imm2 = D3D11CreateDevice\nimm2.IASetVertexBuffers 0 vb\nexpect hr == DROPPED\n", true, ""},
		{"an object of another device: no expect, the run goes on", "dev2, imm2 = D3D11CreateDevice\nimm2.IASetVertexBuffers 0 vb\nimm2.Flush\nexpect hr == S_OK\n", true, ""},
		{"an HRESULT method is never DROPPED", "vb.Release\nimm.Map vb WRITE_DISCARD\nexpect hr == DROPPED\n", false, "not a void method the runtime dropped"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			s, err := Load("void.d3ds", []byte(head+tt.body))
			if err != nil {
				t.Fatal(err)
			}
			sum := NewRun(s, Overrides{}).Finish()
			if sum.OK() != tt.ok {
				t.Fatalf("ok %v, want %v: %q", sum.OK(), tt.ok, sum.Failures)
			}
			if tt.failure != "" && !strings.Contains(strings.Join(sum.Failures, "\n"), tt.failure) {
				t.Errorf("failures %q do not say %q", sum.Failures, tt.failure)
			}
		})
	}
}

// TestVoidMethodTrace: the Return event of a dropped void call carries no hr
// (the method returns none) and a msg starting "dropped: ".
func TestVoidMethodTrace(t *testing.T) {
	r := runSource(t, "dev, imm = D3D11CreateDevice\nvb = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:triangle\nvb.Release\nimm.IASetVertexBuffers 0 vb\nexpect hr == DROPPED\n")
	found := false
	for _, e := range r.Events() {
		if e.Line == 4 && e.Name == "IASetVertexBuffers" && e.Kind == trace.Return {
			found = true
			if e.HR != "" || !strings.HasPrefix(e.Msg, "dropped: ") {
				t.Errorf("Return hr=%q msg=%q, want no hr and a msg starting \"dropped: \"", e.HR, e.Msg)
			}
		}
	}
	if !found {
		t.Fatal("no Return of IASetVertexBuffers")
	}
}
