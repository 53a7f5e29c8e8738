package scenario

import (
	"strconv"
	"strings"
	"testing"
)

// TestOptionRanges: a budget option outside its range is refused when the
// scenario loads, naming the option and the range (gpu.vram=100GiB and the
// like were clamped only at absurd values, or not at all).
func TestOptionRanges(t *testing.T) {
	for _, tt := range []struct{ opt, want string }{
		{"gpu.vram=100GiB", "1:1: option gpu.vram=100GiB: out of range, must be 1MiB..1GiB"},
		{"gpu.engines=1000000", "option gpu.engines=1000000: out of range, must be 1..8"},
		{"gpu.engines=0", "must be 1..8"},
		{"umd.cmdbuf=64GiB", "option umd.cmdbuf=64GiB: out of range, must be 4KiB..64MiB"},
		{"umd.cmdbuf=1K", "must be 4KiB..64MiB"},
		{"maxevents=1", "option maxevents=1: out of range, must be 1000..4000000"},
		{"maxevents=100000000", "must be 1000..4000000"},
		{"maxsteps=0", "option maxsteps=0: out of range, must be 1..100000000"},
		{"maxsteps=1000000000", "must be 1..100000000"},
		{"maxtime=1000000000", "option maxtime=1000000000: out of range, must be 1..60000"},
		{"maxpixels=1000000000000", "must be 1..20000000000"},
		{"maxobjects=1", "option maxobjects=1: out of range, must be 16..250000"},
		{"maxobjects=1000000000", "must be 16..250000"},
		{"sysmem=64GiB", "option sysmem=64GiB: out of range, must be 1MiB..512MiB"},
	} {
		_, err := Load("t", []byte("option "+tt.opt+"\n"))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("option %s: %v, want %q", tt.opt, err, tt.want)
		}
	}
	// Each range's ends load.
	for k, rg := range Ranges {
		for _, n := range []uint64{rg.Min, rg.Max} {
			v := formatSize(n)
			if !rg.Size {
				v = strconv.FormatUint(n, 10)
			}
			if _, err := Load("t", []byte("option "+k+"="+v+"\n")); err != nil {
				t.Errorf("option %s=%s: %v", k, v, err)
			}
		}
	}
}

// TestOverridesPastRanges: the CLI's --max-* flags (Overrides) set budgets
// past the ranges.
func TestOverridesPastRanges(t *testing.T) {
	steps, events, ms, px, objs := uint64(1_000_000_000), uint64(100_000_000), uint64(1_000_000), uint64(1e12), uint64(5_000_000)
	o := decodeOptions(&Script{}, Overrides{MaxSteps: &steps, MaxEvents: &events, MaxTime: &ms, MaxPixels: &px, MaxObjects: &objs})
	if o.maxsteps != 1e9 || o.maxevents != 1e8 || o.maxtime != 1e12 || o.maxpixels != 1e12 || o.maxobjects != 5e6 {
		t.Fatalf("%+v", o)
	}
}

// TestInjectTypes: inject umd.foreign (or umd.overrun) with a target that
// is not a resource, or an on= that is not a device, is refused when the scenario loads (it
// failed at run time, exit 1 instead of 2).
func TestInjectTypes(t *testing.T) {
	for _, tt := range []struct{ src, want string }{
		{"dev, imm = D3D11CreateDevice\ninject umd.foreign target=imm on=dev\n", "2:20: inject umd.foreign: target=imm is a context; it needs a buffer or a texture"},
		{"dev, imm = D3D11CreateDevice\nb = dev.CreateBuffer ByteWidth=16 BindFlags=VERTEX_BUFFER\ninject umd.foreign target=b on=b\n", "on=b is a buffer; it needs a device"},
		{"dev, imm = D3D11CreateDevice\ninject umd.overrun target=imm\n", "2:20: inject umd.overrun: target=imm is a context; it needs a buffer or a texture"},
		{"dev, imm = D3D11CreateDevice\ninject umd.overrun\n", "2:1: inject umd.overrun needs target=RES"},
		{"dev, imm = D3D11CreateDevice\ninject umd.overrun target=nope\n", "unknown object \"nope\""},
	} {
		_, err := Load("t", []byte(tt.src))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v, want %q", err, tt.want)
		}
	}
}

// TestCROnlyLines: a file with old Mac line endings ('\r' alone) has as
// many statements as with '\n' (it parsed as one line, 0 steps).
func TestCROnlyLines(t *testing.T) {
	src := "# cr only\ndev, imm = D3D11CreateDevice\nimm.Flush\nimm.Flush\n"
	for _, nl := range []string{"\n", "\r\n", "\r"} {
		s, err := Load("t", []byte(strings.ReplaceAll(src, "\n", nl)))
		if err != nil {
			t.Fatalf("%q: %v", nl, err)
		}
		if sum := NewRun(s, Overrides{}).Finish(); sum.Steps != 3 || !sum.OK() {
			t.Errorf("line ending %q: %d steps, %q", nl, sum.Steps, sum.Failures)
		}
	}
	// Positions count '\r' lines.
	_, err := Load("t", []byte("dev, imm = D3D11CreateDevice\rimm.Frob\r"))
	if err == nil || !strings.Contains(err.Error(), "t:2:5:") {
		t.Errorf("%v", err)
	}
}

// TestExpectCallsNotFound: `expect calls Nope` says what the previous
// statement produced (it said "not found after " and nothing more).
func TestExpectCallsNotFound(t *testing.T) {
	for _, tt := range []struct{ src, want string }{
		{"dev, imm = D3D11CreateDevice\nimm.Flush\nexpect calls Nope\n", "3:1: expected calls Nope in order; Nope not found: the previous statement produced Flush"},
		{"dev, imm = D3D11CreateDevice\nimm.Flush\nexpect calls Flush Nope\n", "Nope not found after Flush"},
		{"expect calls Nope\n", "Nope not found: the previous statement produced no events"},
	} {
		s, err := Load("t", []byte(tt.src))
		if err != nil {
			t.Fatal(err)
		}
		sum := NewRun(s, Overrides{}).Finish()
		if got := strings.Join(sum.Failures, "\n"); !strings.Contains(got, tt.want) {
			t.Errorf("%q: %s; want %q", tt.src, got, tt.want)
		}
	}
}
