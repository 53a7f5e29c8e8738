package scenario

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"d3dsim/core/trace"
)

// TestObjectScenarios runs testdata/objects: objects of one device used on
// another device's contexts, identical state objects, the limits on live
// objects.
func TestObjectScenarios(t *testing.T) { runDir(t, "testdata/objects") }

// An object of another device: every refused call says so through the debug
// layer, naming the method, the object and both devices, and no DDI runs
// inside the refused call.
func TestForeignObjectMessages(t *testing.T) {
	for _, tc := range []struct {
		file string
		want []string // methods the debug layer must name
	}{
		{"foreign-immediate.d3ds", []string{"CreateRenderTargetView", "OMSetRenderTargets", "ClearRenderTargetView", "CopyResource", "CopyResource",
			"VSSetShader", "OMSetBlendState", "IASetVertexBuffers", "Map", "End", "GetData", "ExecuteCommandList"}},
		{"foreign-deferred.d3ds", []string{"ClearRenderTargetView", "OMSetRenderTargets", "PSSetShaderResources", "PSSetSamplers", "PSSetShader", "Begin", "End", "Map"}},
		{"foreign-emulated.d3ds", []string{"ClearRenderTargetView", "OMSetRenderTargets", "PSSetShaderResources", "PSSetSamplers", "PSSetShader", "Begin", "End", "Map"}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("testdata", "objects", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			r := runSource(t, string(src))
			s := r.Summary()
			if !s.OK() {
				t.Fatalf("%s", strings.Join(s.Failures, "\n"))
			}
			var foreign []string
			for _, m := range s.Messages {
				if strings.Contains(m, "cannot be used with another") {
					foreign = append(foreign, m)
					if !strings.Contains(m, "device b") || !strings.Contains(m, "device a") {
						t.Errorf("message does not name both devices: %s", m)
					}
				}
			}
			if len(foreign) != len(tc.want) {
				t.Errorf("%d messages, want %d: %q", len(foreign), len(tc.want), foreign)
			}
			for i, m := range tc.want {
				if i < len(foreign) && !strings.Contains(foreign[i], ": D3D11 ERROR: "+m+": ") {
					t.Errorf("message %d is %q, want one for %s", i, foreign[i], m)
				}
			}
			// No DDI between a refused call's Call and Return.
			var open string
			r.rec.View(func(held []trace.Event) {
				for _, e := range held {
					switch {
					case e.Layer == trace.Runtime && e.From == trace.App && e.Kind == trace.Call:
						open = ""
					case e.Kind == trace.Message && strings.Contains(e.Msg, "cannot be used with another"):
						open = e.Name
					case open != "" && e.Layer == trace.UMD && e.Kind == trace.Call:
						t.Errorf("%s of another device's object reached the driver: %s", open, e.Name)
					case e.Layer == trace.Runtime && e.Kind == trace.Return:
						open = ""
					}
				}
			})
		})
	}
}

// identical-states.d3ds: the runtime asks the driver for one blend state of
// each descriptor and one sampler, and destroys each once.
func TestIdenticalStatesDDIs(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "objects", "identical-states.d3ds"))
	if err != nil {
		t.Fatal(err)
	}
	r := runSource(t, string(src))
	if s := r.Summary(); !s.OK() {
		t.Fatalf("%s", strings.Join(s.Failures, "\n"))
	}
	ddis := map[string]int{}
	r.rec.View(func(held []trace.Event) {
		for _, e := range held {
			if e.Layer == trace.UMD && e.From == trace.Runtime && e.Kind == trace.Call {
				ddis[e.Name]++
			}
		}
	})
	for name, want := range map[string]int{"CreateBlendState": 3, "DestroyBlendState": 3, "CreateSampler": 1, "DestroySampler": 1} {
		if ddis[name] != want {
			t.Errorf("%d %s DDIs, want %d", ddis[name], name, want)
		}
	}
}

// memory-budget.d3ds: the creation past the device's budget is refused with
// a debug message naming the limit.
func TestMemoryBudgetMessage(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "objects", "memory-budget.d3ds"))
	if err != nil {
		t.Fatal(err)
	}
	s := runSource(t, string(src)).Summary()
	if !s.OK() {
		t.Fatalf("%s", strings.Join(s.Failures, "\n"))
	}
	if len(s.Messages) != 1 || !strings.Contains(s.Messages[0], "CreateResource(t16): out of memory") ||
		!strings.Contains(s.Messages[0], "memory limit of 1048576 bytes (option sysmem=SIZE)") {
		t.Errorf("messages %q, want one naming the limit", s.Messages)
	}
}
