package verify

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"d3dsim/core/trace"
)

// TestQuietSame: the quiet path (quiet.go) and the full one (every event
// through event) find the same violations and warnings and leave the same
// per-thread state, on random event streams made of calls shaped like a
// quiet Draw and the perturbations that must send one the full way: another
// context or thread, a payload, a handle, a removal, a CalcPrivate DDI, a
// call that can report a removal, a nested callback, a long busy stretch
// (AM-BALANCE), another thread inside a DDI of a driver without the
// free-threaded cap (FT-CAP), a blamed error (ERR-APP), an empty device key,
// and polls that split a call across batches.
func TestQuietSame(t *testing.T) {
	quietSeen, repeatSeen := 0, 0
	for seed := int64(1); seed <= 120; seed++ {
		rng := rand.New(rand.NewSource(seed))
		var now int64
		rec := trace.NewRecorder(func() int64 { return now }, func() string { return "main" })
		// fast: quiet and its repeats; noRep: quiet alone; full: neither
		fast, noRep, full := New(rec), New(rec), New(rec)
		full.noQuiet = true
		noRep.noRepeat = true
		pick := func(xs ...string) string { return xs[rng.Intn(len(xs))] }
		maybe := func(p float64) bool { return rng.Float64() < p }
		// or is def, or with probability p one of alts
		or := func(p float64, def string, alts ...string) string {
			if maybe(p) {
				return pick(alts...)
			}
			return def
		}
		emit := func(e trace.Event) {
			rec.Emit(e)
			if maybe(0.05) {
				fast.Poll() // a batch boundary anywhere, even inside a call
			}
			if maybe(0.05) {
				noRep.Poll()
			}
		}
		var last []trace.Event // the last call shaped like a quiet Draw, as emitted
		repeat := func(n int) {
			for ; n > 0; n-- {
				for _, e := range last {
					now += []int64{0, 80, 1000, 300_000}[rng.Intn(4)]
					emit(e)
				}
				if maybe(0.5) {
					fast.Poll() // at a call's end: the next may be a repeat
				}
			}
		}
		workerIn := false
		for step := 0; step < 400; step++ {
			now += []int64{10, 80, 1000, 400_000, 2_000_000}[rng.Intn(5)]
			switch r := rng.Intn(20); {
			case r < 6 && last != nil: // that call again, a few times (repeats.go)
				repeat(rng.Intn(12) + 1)
			case r < 12: // a call shaped like a quiet Draw, perturbed now and then
				at := rec.Len()
				th := or(0.08, "main", "worker")
				ctx := or(0.05, "IC", "DC1", "")
				api := or(0.15, "Draw", "DrawIndexed", "Dispatch", "Present", "Map", "IASetPrimitiveTopology", "CreateBuffer")
				ddiName := or(0.15, api, "Draw", "DrawIndexed", "Dispatch", "IaSetTopology", "CalcPrivateResourceSize", "CreateResource", "pfnRenderCb")
				var args trace.Args
				if maybe(0.05) {
					args = kv(trace.KeyDev, pick("dev1", "dev2"))
				}
				handle := or(0.05, "", "h1")
				hr := or(0.05, "", "D3DDDIERR_DEVICEREMOVED", "S_OK")
				ddiCtx := or(0.03, ctx, "DC2")
				obj := pick("", fmt.Sprint("o", rng.Intn(6)))
				emit(trace.Event{Thread: th, From: trace.App, Layer: trace.Runtime, Kind: trace.Call, Name: api, Ctx: ctx, Obj: obj})
				if maybe(0.05) {
					now += 50
					emit(trace.Event{Thread: th, From: trace.App, Layer: trace.Runtime, Kind: trace.Message, Name: "Note", Ctx: ctx})
				}
				emit(trace.Event{Thread: th, From: trace.Runtime, Layer: trace.UMD, Kind: trace.Call, Name: ddiName, Ctx: ddiCtx, Handle: handle, Args: args})
				if maybe(0.06) { // a callback inside the DDI
					cb := pick("pfnRenderCb", "pfnPerformAmortizedProcessingCb", "pfnSetErrorCb")
					cbHR := ""
					if cb == "pfnSetErrorCb" {
						cbHR = pick("D3DDDIERR_APPLICATIONERROR", "E_INVALIDARG")
					}
					emit(trace.Event{Thread: th, From: trace.UMD, Layer: trace.Runtime, Kind: trace.Call, Name: cb, Ctx: ddiCtx, HR: cbHR})
					emit(trace.Event{Thread: th, From: trace.UMD, Layer: trace.Runtime, Kind: trace.Return, Name: cb, Ctx: ddiCtx})
				}
				emit(trace.Event{Thread: th, From: trace.Runtime, Layer: trace.UMD, Kind: trace.Return, Name: ddiName, Ctx: ddiCtx, HR: hr})
				apiHR := or(0.05, "S_OK", "DXGI_ERROR_DEVICE_REMOVED")
				emit(trace.Event{Thread: th, From: trace.App, Layer: trace.Runtime, Kind: trace.Return, Name: api, Ctx: ctx, Obj: obj, HR: apiHR})
				last = last[:0]
				for _, e := range rec.Since(uint64(at)) {
					if e.Kind != trace.Violation {
						e.Seq, e.T, e.Parent = 0, 0, 0
						last = append(last, e)
					}
				}
			case r == 12: // the runtime's amortized call inside a Flush
				emit(trace.Event{From: trace.App, Layer: trace.Runtime, Kind: trace.Call, Name: "Flush", Ctx: "IC"})
				emit(trace.Event{From: trace.Runtime, Layer: trace.UMD, Kind: trace.Call, Name: "Flush", Ctx: "IC"})
				emit(trace.Event{From: trace.UMD, Layer: trace.Runtime, Kind: trace.Call, Name: "pfnPerformAmortizedProcessingCb", Ctx: "IC"})
				emit(trace.Event{From: trace.UMD, Layer: trace.Runtime, Kind: trace.Return, Name: "pfnPerformAmortizedProcessingCb", Ctx: "IC"})
				emit(trace.Event{From: trace.Runtime, Layer: trace.UMD, Kind: trace.Return, Name: "Flush", Ctx: "IC"})
				emit(trace.Event{From: trace.App, Layer: trace.Runtime, Kind: trace.Return, Name: "Flush", Ctx: "IC", HR: "S_OK"})
			case r == 13: // the driver's caps: free-threaded or not
				emit(trace.Event{From: trace.Runtime, Layer: trace.UMD, Kind: trace.Message, Name: "DriverCaps", Args: kv(trace.KeyFreeThreaded, rng.Intn(2))})
			case r == 14: // another thread enters a DDI, or leaves it
				if !workerIn {
					emit(trace.Event{Thread: "other", From: trace.App, Layer: trace.Runtime, Kind: trace.Call, Name: "CreateQuery"})
					emit(trace.Event{Thread: "other", From: trace.Runtime, Layer: trace.UMD, Kind: trace.Call, Name: "CreateQuery", Handle: "q1"})
				} else {
					emit(trace.Event{Thread: "other", From: trace.Runtime, Layer: trace.UMD, Kind: trace.Return, Name: "CreateQuery", Handle: "q1"})
					emit(trace.Event{Thread: "other", From: trace.App, Layer: trace.Runtime, Kind: trace.Return, Name: "CreateQuery", HR: "S_OK"})
				}
				workerIn = !workerIn
			case r == 15: // a removal
				emit(trace.Event{From: trace.Dxgkrnl, Layer: trace.Runtime, Kind: trace.Message, Name: "DeviceRemoved", Obj: "dev1"})
			case r == 16: // a kernel device, now and then without a handle (emptyKey)
				h := or(0.04, "k1", "")
				emit(trace.Event{From: trace.Dxgkrnl, Layer: trace.KMD, Kind: trace.Call, Name: "DxgkDdiCreateDevice", Handle: h, Obj: "dev1"})
				emit(trace.Event{From: trace.Dxgkrnl, Layer: trace.KMD, Kind: trace.Return, Name: "DxgkDdiCreateDevice", Handle: h, Obj: "dev1"})
			case r == 17 && maybe(0.5): // a blamed error
				hr := pick("D3DDDIERR_APPLICATIONERROR", "E_INVALIDARG")
				emit(trace.Event{From: trace.UMD, Layer: trace.Runtime, Kind: trace.Call, Name: "pfnSetErrorCb", Ctx: "IC", HR: hr})
				emit(trace.Event{From: trace.UMD, Layer: trace.Runtime, Kind: trace.Return, Name: "pfnSetErrorCb", Ctx: "IC"})
			case r == 17: // the debug layer's message
				emit(trace.Event{From: trace.App, Layer: trace.Runtime, Kind: trace.Message, Name: "Debug", Ctx: "IC", Msg: pick("D3D11 ERROR: x", "driver error")})
			case r == 18 && maybe(0.3): // handle h1 destroyed (LIFE-DANGLING)
				emit(trace.Event{From: trace.App, Layer: trace.Runtime, Kind: trace.Call, Name: "Release", Obj: "buf1"})
				emit(trace.Event{From: trace.Runtime, Layer: trace.UMD, Kind: trace.Call, Name: "DestroyResource", Ctx: "IC", Handle: "h1", Obj: "buf1"})
				emit(trace.Event{From: trace.Runtime, Layer: trace.UMD, Kind: trace.Return, Name: "DestroyResource", Ctx: "IC", Handle: "h1", Obj: "buf1"})
				emit(trace.Event{From: trace.App, Layer: trace.Runtime, Kind: trace.Return, Name: "Release", Obj: "buf1", HR: "S_OK"})
			default:
				fast.Poll()
			}
		}
		repeat(3) // the end, a repeat's state
		fast.Poll()
		noRep.Poll()
		full.Poll()
		got, mid, want := summary(fast), summary(noRep), summary(full)
		if got != want {
			t.Fatalf("seed %d: the quiet path with repeats gives\n%s\nthe full one\n%s", seed, got, want)
		}
		if mid != want {
			t.Fatalf("seed %d: the quiet path gives\n%s\nthe full one\n%s", seed, mid, want)
		}
		quietSeen += fast.quietN
		repeatSeen += fast.repeatN
	}
	if quietSeen == 0 || repeatSeen == 0 {
		t.Fatalf("%d calls took the quiet path, %d as repeats: the comparison proves nothing", quietSeen, repeatSeen)
	}
}

// summary prints what a verifier found and its per-thread state.
func summary(v *Verifier) string {
	var b strings.Builder
	fmt.Fprintf(&b, "count %d warnings %d\n", v.Count(), v.WarningCount())
	for _, x := range v.Violations() {
		b.WriteString(x.String() + "\n")
	}
	var ths []string
	for name := range v.ths.m {
		ths = append(ths, name)
	}
	slices.Sort(ths)
	for _, name := range ths {
		s := v.ths.m[name]
		fmt.Fprintf(&b, "%s: submits %d lastAt %d work %v lastWasAm %v drawAt %d busyAt %d openRoot %d ddis %v blame %q\n",
			name, s.submits, s.lastAt, s.work, s.lastWasAm, s.drawAt, s.busyAt, s.openRoot, s.ddis, s.blame)
	}
	fmt.Fprintf(&b, "inDDIs %d sawRm %v removed %v objDev %v kdev %v\n", v.ft.inDDIs, v.as.sawRm, v.as.removed, v.as.objDev, v.as.kdev)
	return b.String()
}
