package umd

import (
	"strings"
	"sync"
	"testing"

	"d3dsim/core/ddi"
	"d3dsim/core/rules"
)

// logLock is an HCONTEXT lock that writes its use into the fake runtime's
// call log.
type logLock struct {
	f  *fakeRuntime
	mu sync.Mutex
}

func (l *logLock) Lock()   { l.mu.Lock(); l.f.log("Lock") }
func (l *logLock) Unlock() { l.f.log("Unlock"); l.mu.Unlock() }

// TestHContextLockAroundCallbacks: the table the driver hands the runtime
// holds the HCONTEXT's lock through every immediate-context DDI that
// reaches a callback naming the HCONTEXT, pfnDraw's table entry included;
// bug=FT-HCTX hands over the bare table.
func TestHContextLockAroundCallbacks(t *testing.T) {
	for _, bug := range []bool{false, true} {
		f := newFakeRuntime()
		cfg := Config{NewLock: func(ddi.HCONTEXT) sync.Locker { return &logLock{f: f} }}
		if bug {
			cfg.Bugs = rules.Set{rules.FTHCtx: true}
		}
		table := new(ddi.FuncTable)
		dev, err := NewAdapter(cfg).CreateDevice(hDev, &ddi.CreateDeviceArgs{HRTDevice: 1, HRTCoreLayer: icCore, Callbacks: f, Table: table})
		if err != nil {
			t.Fatal(err)
		}
		d := dev
		if s, ok := dev.(*serialised); ok {
			d = s.Device
		} else if !bug {
			t.Fatalf("CreateDevice returned %T, want the serialised table", dev)
		}
		scene(t, d.(*Device), d)
		f.calls = nil
		table.Get("pfnDraw").Fn.(func(ddi.HDEVICE, uint32, uint32))(hDev, 3, 0)
		dev.Flush(hDev)
		if err := dev.(ddi.Signaler).Signal(hDev, 9, 1); err != nil {
			t.Fatal(err)
		}
		got := strings.Join(f.calls, ";")
		want := "Lock;Unlock;Lock;Render fence=1;Amortize core=4;Unlock;Lock;Signal [9]=1 after fence 1;Unlock"
		if bug {
			want = "Render fence=1;Amortize core=4;Signal [9]=1 after fence 1"
		}
		if got != want {
			t.Errorf("bug %v: calls\n%s\nwant\n%s", bug, got, want)
		}
	}
}

// TestSignalSubmitsFirst: Signal submits what the context recorded, then
// queues the signal behind that submission.
func TestSignalSubmitsFirst(t *testing.T) {
	f := newFakeRuntime()
	d := newDevice(t, f, Config{})
	scene(t, d, d)
	d.Draw(hDev, 3, 0)
	if err := d.Signal(hDev, 9, 4); err != nil {
		t.Fatal(err)
	}
	if err := d.Signal(hDev, 9, 5); err != nil { // nothing recorded since: no submission
		t.Fatal(err)
	}
	var got []string
	for _, c := range f.calls {
		if strings.HasPrefix(c, "Render") || strings.HasPrefix(c, "Signal") {
			got = append(got, c)
		}
	}
	if want := "Render fence=1;Signal [9]=4 after fence 1;Signal [9]=5 after fence 1"; strings.Join(got, ";") != want {
		t.Errorf("got %q, want %q", strings.Join(got, ";"), want)
	}
}
