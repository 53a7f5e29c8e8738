package scenario

import (
	"strings"
	"testing"
)

// TestContextThreads: a context is used by one application thread at a
// time ("Introduction to a device in Direct3D 11"). On a DEBUG device the
// runtime reports two threads' calls that overlap in virtual time as the
// debug layer does (D3D11 CORRUPTION); calls handed over with signal/wait
// do not overlap, and without the DEBUG flag nothing is said.
func TestContextThreads(t *testing.T) {
	const setup = `dev, imm = D3D11CreateDevice %FLAGS%
t = dev.CreateTexture2D Width=64 Height=64 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET
rtv = dev.CreateRenderTargetView t
s = dev.CreateTexture2D Width=64 Height=64 Format=R8G8B8A8_UNORM Usage=STAGING CPUAccessFlags=READ
imm.ClearRenderTargetView rtv 1 0 0 1
imm.CopyResource s t
`
	racing := `thread painter {
  wait started
  imm.ClearRenderTargetView rtv 0 1 0 1
}
signal started
imm.Map s READ
imm.Unmap s
`
	handedOver := `thread painter {
  wait started
  imm.ClearRenderTargetView rtv 0 1 0 1
  signal done
}
imm.Map s READ
imm.Unmap s
signal started
wait done
imm.ClearRenderTargetView rtv 0 0 1 1
`
	tests := []struct {
		name, flags, body string
		want              []string // in the message; nil: no message
	}{
		{"racing on a debug device", "Flags=DEBUG", racing, []string{"D3D11 CORRUPTION", "ID3D11DeviceContext::ClearRenderTargetView", "thread painter", "thread main was inside Map (line 12)"}},
		{"racing without the debug layer", "", racing, nil},
		{"handed over with signal and wait", "Flags=DEBUG", handedOver, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runSource(t, strings.Replace(setup, "%FLAGS%", tt.flags, 1)+tt.body)
			var msgs []string
			for _, e := range r.Events() {
				if e.Name == "ContextThreads" {
					msgs = append(msgs, e.Msg)
				}
			}
			if tt.want == nil {
				if len(msgs) != 0 {
					t.Fatalf("unexpected report: %q", msgs)
				}
				return
			}
			if len(msgs) != 1 {
				t.Fatalf("%d reports, want 1: %q", len(msgs), msgs)
			}
			for _, w := range tt.want {
				if !strings.Contains(msgs[0], w) {
					t.Errorf("report %q lacks %q", msgs[0], w)
				}
			}
			if s := r.Summary(); s.Violations != 0 {
				t.Errorf("the application's error was counted as the stack's: %d violations", s.Violations)
			}
		})
	}
}
