package scenario

import (
	"strings"
	"testing"

	"d3dsim/core/trace"
)

// vsyncHead is a GPU-light frame loop's setup: a small swap chain cleared
// each frame.
const vsyncHead = "dev, imm = D3D11CreateDevice\nsc = dev.CreateSwapChain Width=64 Height=64\nbb = sc.GetBuffer 0\nrtv = dev.CreateRenderTargetView bb\n"

// lastReturn is the virtual time of the last Return of the API call name.
func lastReturn(r *Run, name string) int64 {
	var t int64
	for _, e := range r.Events() {
		if e.Kind == trace.Return && e.Name == name && e.From == trace.App {
			t = e.T
		}
	}
	return t
}

// flips are the vertical blanks of the flips (DxgkDdiSetVidPnSourceAddress).
func flips(r *Run) []int64 {
	var v []int64
	for _, e := range r.Events() {
		if e.Kind == trace.Call && e.Name == "DxgkDdiSetVidPnSourceAddress" {
			n, _ := e.Args.Int(trace.KeyVBlank)
			v = append(v, n)
		}
	}
	return v
}

// TestVSync: with SyncInterval 1..4 a frame is shown at a vertical blank
// (one flip per SyncInterval blanks), so a GPU-light loop runs at the
// refresh rate once its frame queue is full: the app thread waits in
// Present (WaitForVerticalBlank). With SyncInterval 0 nothing waits for
// the display and the loop is bound by the GPU: far faster.
func TestVSync(t *testing.T) {
	const frames = 12
	tests := []struct {
		desc, opt string
		sync      int
		hz        int64
	}{
		{"SyncInterval 1 at 60 Hz", "", 1, 60},
		{"SyncInterval 1 at 120 Hz", "option display.refresh=120\n", 1, 120},
		{"SyncInterval 2 at 60 Hz", "", 2, 60},
		{"SyncInterval 0", "", 0, 60},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			src := tt.opt + vsyncHead + "repeat 12 {\n imm.ClearRenderTargetView rtv 1 0 0 1\n sc.Present " + string(rune('0'+tt.sync)) + "\n}\n"
			r := runSource(t, src)
			if f := r.Summary().Failures; len(f) > 0 {
				t.Fatal(f)
			}
			period := 1_000_000_000 / tt.hz
			end := lastReturn(r, "Present")
			waits := 0
			for _, e := range r.Events() {
				if e.Kind == trace.Wait && e.Name == "WaitForVerticalBlank" && !e.Args.Has(trace.KeyDone) {
					waits++
				}
			}
			fl := flips(r)
			t.Logf("last Present returns at %d ns; %d vblank waits; flips at %v", end, waits, fl)
			if tt.sync == 0 {
				if waits != 0 || len(fl) != 0 {
					t.Errorf("SyncInterval 0: %d vblank waits and %d flips, want none", waits, len(fl))
				}
				if end >= period {
					t.Errorf("SyncInterval 0: %d frames took %d ns, a vertical blank is %d ns: not GPU-bound", frames, end, period)
				}
				return
			}
			// The last Present waits for frame frames-3 to be shown: at
			// vertical blank (frames-3)*sync.
			want := int64(frames-3) * int64(tt.sync) * period
			if end < want || end > want+period/2 {
				t.Errorf("last Present returns at %d ns, want just after vertical blank %d (%d ns)", end, (frames-3)*tt.sync, want)
			}
			if waits != frames-3 {
				t.Errorf("%d Presents waited for a vertical blank, want %d", waits, frames-3)
			}
			for i, v := range fl {
				if v != int64((i+1)*tt.sync) {
					t.Fatalf("flip %d at vertical blank %d, want %d (one every %d)", i, v, (i+1)*tt.sync, tt.sync)
				}
			}
		})
	}
}

// TestFrameLatency: SetMaximumFrameLatency N lets N frames be queued and
// not shown; the next Present waits (or, with DO_NOT_WAIT, returns
// DXGI_ERROR_WAS_STILL_DRAWING without reaching the driver). 0 restores
// 3; above 16 and a SyncInterval above 4 are DXGI_ERROR_INVALID_CALL.
func TestFrameLatency(t *testing.T) {
	tests := []struct {
		desc, body string
		waits      int    // Presents that wait for a vertical blank
		latency    string // the last GetMaximumFrameLatency's answer
	}{
		{"latency 1", "dev.SetMaximumFrameLatency 1\nrepeat 4 {\n sc.Present 1\n}\ndev.GetMaximumFrameLatency\n", 3, "1"},
		{"latency 16", "dev.SetMaximumFrameLatency 16\nrepeat 16 {\n sc.Present 1\n}\ndev.GetMaximumFrameLatency\n", 0, "16"},
		{"0 is the default", "dev.SetMaximumFrameLatency 1\ndev.SetMaximumFrameLatency 0\nrepeat 4 {\n sc.Present 1\n}\ndev.GetMaximumFrameLatency\n", 1, "3"},
		{"DO_NOT_WAIT", "repeat 3 {\n sc.Present 1\n}\nsc.Present 1 Flags=DO_NOT_WAIT\nexpect hr == DXGI_ERROR_WAS_STILL_DRAWING\ndev.GetMaximumFrameLatency\n", 0, "3"},
		{"DO_NOT_WAIT with room", "repeat 2 {\n sc.Present 1\n}\nsc.Present 1 Flags=DO_NOT_WAIT\nexpect hr == S_OK\nexpect calls PresentDXGI pfnPresentCb DxgkDdiPresent\ndev.GetMaximumFrameLatency\n", 0, "3"},
		{"SyncInterval 5", "sc.Present 5\nexpect hr == DXGI_ERROR_INVALID_CALL\ndev.GetMaximumFrameLatency\n", 0, "3"},
		{"latency 17", "dev.SetMaximumFrameLatency 17\nexpect hr == DXGI_ERROR_INVALID_CALL\ndev.GetMaximumFrameLatency\n", 0, "3"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			r := runSource(t, vsyncHead+tt.body)
			if f := r.Summary().Failures; len(f) > 0 {
				t.Fatal(f)
			}
			waits, got := 0, ""
			ddiOnRefused := false
			var refused bool
			for _, e := range r.Events() {
				switch {
				case e.Kind == trace.Wait && e.Name == "WaitForVerticalBlank" && !e.Args.Has(trace.KeyDone):
					waits++
				case e.Kind == trace.Return && e.Name == "GetMaximumFrameLatency":
					n, _ := e.Args.Int(trace.KeyLatency)
					got = string(rune('0' + n%10))
					if n >= 10 {
						got = string(rune('0'+n/10)) + got
					}
				case e.Kind == trace.Call && e.Name == "Present":
					refused = false
				case e.Kind == trace.Return && e.Name == "Present" && e.HR != "S_OK":
					refused = true
				case e.Name == "PresentDXGI" && refused:
					ddiOnRefused = true
				}
			}
			if waits != tt.waits {
				t.Errorf("%d Presents waited for a vertical blank, want %d", waits, tt.waits)
			}
			if got != tt.latency {
				t.Errorf("GetMaximumFrameLatency = %s, want %s", got, tt.latency)
			}
			if ddiOnRefused {
				t.Error("a refused Present still called PresentDXGI")
			}
		})
	}
}

// TestFrameLatencyMessages: the refusals name what was wrong; a bad
// display.refresh stops the scenario at load with its line.
func TestFrameLatencyMessages(t *testing.T) {
	for _, tt := range []struct{ body, want string }{
		{"sc.Present 5\nexpect hr == DXGI_ERROR_INVALID_CALL\n", "SyncInterval 5 is outside 0..4"},
		{"dev.SetMaximumFrameLatency 17\nexpect hr == DXGI_ERROR_INVALID_CALL\n", "MaxLatency 17 is outside 0..16"},
		{"repeat 3 {\n sc.Present 1\n}\nsc.Present 1 Flags=DO_NOT_WAIT\nexpect hr == DXGI_ERROR_WAS_STILL_DRAWING\n", "3 frames queued, its maximum frame latency"},
	} {
		r := runSource(t, vsyncHead+tt.body)
		found := false
		for _, e := range r.Events() {
			if e.Kind == trace.Return && strings.Contains(e.Msg, tt.want) {
				found = true
			}
		}
		if !found {
			t.Errorf("%q: no return event says %q", tt.body, tt.want)
		}
	}
	for _, tt := range []struct{ src, want string }{
		{"option display.refresh=0\n", "t:1:1: option display.refresh=0: the display's refresh rate in Hz must be 1..1000"},
		{"\noption display.refresh=1001\n", "t:2:1: option display.refresh=1001"},
		{"option display.refresh=fast\n", "bad value \"fast\" for option display.refresh"},
		{vsyncHead + "sc.Present 1 Flags=NOWAIT\n", "NOWAIT"},
		{vsyncHead + "dev.SetMaximumFrameLatency\n", "t:5:"},
	} {
		_, err := Load("t", []byte(tt.src))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: %v, want %q", tt.src, err, tt.want)
		}
	}
}

// TestVSyncTwoDevices: each device's frames keep their own pace on the one
// display: two devices presenting at once are both shown at the next
// vertical blank, not one blank after the other. With the bitblt model the
// copy waits for the blank (DxgkDdiPresent's return names it); with the flip
// model the flip is made at the blank (DxgkDdiSetVidPnSourceAddress).
func TestVSyncTwoDevices(t *testing.T) {
	for _, model := range []struct{ swap, event string }{{"", "DxgkDdiPresent"}, {" SwapEffect=FLIP_DISCARD BufferCount=2", "DxgkDdiSetVidPnSourceAddress"}} {
		src := `dev, imm = D3D11CreateDevice
sc = dev.CreateSwapChain Width=64 Height=64` + model.swap + `
dev2, imm2 = D3D11CreateDevice
sc2 = dev2.CreateSwapChain Width=64 Height=64` + model.swap + `
dev.SetMaximumFrameLatency 1
dev2.SetMaximumFrameLatency 1
sc.Present 1
sc2.Present 1
sc.Present 1
sc2.Present 1
`
		r := runSource(t, src)
		if f := r.Summary().Failures; len(f) > 0 {
			t.Fatal(f)
		}
		var byCtx = map[string][]int64{}
		for _, e := range r.Events() {
			if e.Kind == trace.Return && e.Name == model.event {
				n, _ := e.Args.Int(trace.KeyVBlank)
				byCtx[e.Handle] = append(byCtx[e.Handle], n)
			}
		}
		if len(byCtx) != 2 {
			t.Fatalf("%s: blanks by context %v, want two contexts", model.event, byCtx)
		}
		for h, v := range byCtx {
			if len(v) != 2 || v[0] != 1 || v[1] != 2 {
				t.Errorf("%s of %s at vertical blanks %v, want 1 and 2", model.event, h, v)
			}
		}
	}
}

// TestVSyncInterrupt: a vertical blank reaches Dxgkrnl the way a finished
// DMA buffer does. Dxgkrnl turns the display's interrupt on
// (DxgkDdiControlInterrupt) while a present waits for a blank; the display
// raises it (VSync), the KMD's ISR reports DXGK_INTERRUPT_CRTC_VSYNC and
// queues the DPC, the DPC calls DxgkCbNotifyDpc, and inside it the flip the
// blank latched is done (FlipDone, at that blank). The flip was programmed
// before its blank; the frame is on screen after it. When nothing waits
// any more the interrupt is turned off, and the run ends.
func TestVSyncInterrupt(t *testing.T) {
	src := vsyncHead + `sc2 = dev.CreateSwapChain Width=64 Height=64 SwapEffect=FLIP_DISCARD BufferCount=2
b2 = sc2.GetBuffer 0
rtv2 = dev.CreateRenderTargetView b2
imm.ClearRenderTargetView rtv2 0 1 0 1
sc2.Present 1
imm.OMSetRenderTargets rtv2
imm.ClearRenderTargetView rtv2 0 0 1 1
sc2.Present 2
`
	r := runSource(t, src)
	if f := r.Summary().Failures; len(f) > 0 {
		t.Fatal(f)
	}
	var seq []string
	var flipDone []int64
	var programmed, shown []int64 // times
	for _, e := range r.Events() {
		switch {
		case e.Kind == trace.Call && e.Name == "DxgkDdiControlInterrupt":
			if strings.HasPrefix(e.Msg, "enable") {
				seq = append(seq, "on")
			} else {
				seq = append(seq, "off")
			}
		case e.Kind == trace.Interrupt && e.Name == "VSync":
			seq = append(seq, "VSync")
		case e.Kind == trace.Call && e.Name == "DxgkCbNotifyInterrupt" && e.Args.Has(trace.KeyVBlank):
			if ty := e.Args.Str(trace.KeyType); ty != "DXGK_INTERRUPT_CRTC_VSYNC" {
				t.Errorf("vertical blank reported as %q", ty)
			}
			seq = append(seq, "CRTC_VSYNC")
		case e.Kind == trace.Call && e.Name == "DxgkCbNotifyDpc" && len(seq) > 0 && seq[len(seq)-1] == "CRTC_VSYNC":
			seq = append(seq, "NotifyDpc")
		case e.Kind == trace.Call && e.Name == "DxgkDdiSetVidPnSourceAddress":
			programmed = append(programmed, e.T)
		case e.Name == "FlipDone":
			n, _ := e.Args.Int(trace.KeyVBlank)
			flipDone = append(flipDone, n)
			shown = append(shown, e.T)
		}
	}
	got := strings.Join(seq, " ")
	// Blank 1 latches the first flip; the second (SyncInterval 2) is due
	// at blank 3, programmed after blank 2.
	want := "on VSync CRTC_VSYNC NotifyDpc VSync CRTC_VSYNC NotifyDpc VSync CRTC_VSYNC NotifyDpc off"
	if got != want {
		t.Errorf("interrupt sequence\n%s\nwant\n%s", got, want)
	}
	if len(flipDone) != 2 || flipDone[0] != 1 || flipDone[1] != 3 {
		t.Fatalf("flips done at blanks %v, want [1 3]", flipDone)
	}
	vblankTime := func(n int64) int64 { return n * 1_000_000_000 / 60 }
	for i, at := range shown {
		blank := vblankTime(flipDone[i])
		if programmed[i] >= blank || at <= blank || at > blank+100_000 {
			t.Errorf("flip %d: programmed at %d, done at %d; its blank is at %d", i, programmed[i], at, blank)
		}
	}
	if programmed[1] < vblankTime(2) {
		t.Errorf("the second flip was programmed at %d, before blank 2 (%d)", programmed[1], vblankTime(2))
	}
}
