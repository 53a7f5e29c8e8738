package trace

import (
	"fmt"
	"math/rand"
	"testing"
)

// TestRepeatsAgainstEvents: Repeats says an event repeats the one period
// before it exactly when the two decoded events are equal but for their
// seqs and times (and parents, by the same distance), and neither carries a
// fence, a DMA buffer id, a Msg or Args — on random runs of Draw-shaped
// calls (four events, from EmitPart as the runtime emits them), state
// changes between them, messages, lines, time jumps past a chunk's int32
// (wide times), a ring that drops, and byte limits that drop and cut text.
// AgainTimes, where it answers, against the same events.
func TestRepeatsAgainstEvents(t *testing.T) {
	reps, checked, sure, agains := 0, 0, uint64(0), 0
	for seed := int64(1); seed <= 24; seed++ {
		rng := rand.New(rand.NewSource(seed))
		var now int64
		th := "main"
		r := NewRecorder(func() int64 { return now }, func() string { return th })
		switch seed % 4 {
		case 1:
			r.SetLimit(1000 + rng.Intn(3000))
		case 2:
			r.SetByteLimit(int64(200_000 + rng.Intn(200_000)))
		}
		names := []string{"Draw", "DrawIndexed", "Dispatch"}
		ctxs := []string{"IC", "DC1"}
		period := 4
		if seed%5 == 0 {
			period = 1 + rng.Intn(6)
		}
		var b ArgBuilder
		for step := 0; step < 1500; step++ {
			now += []int64{0, 80, 150, 3_000_000_000}[rng.Intn(4)*min(1, rng.Intn(40))]
			if rng.Intn(60) == 0 {
				r.SetLine(rng.Intn(4))
			}
			if rng.Intn(200) == 0 {
				th = []string{"main", "worker"}[rng.Intn(2)]
			}
			switch k := rng.Intn(30); {
			case k < 24: // a Draw-shaped call, now and then with something in it
				name, ctx := names[rng.Intn(8)/7*(1+rng.Intn(2))], ctxs[rng.Intn(10)/9]
				api := Part{From: App, Layer: Runtime, Name: name, Ctx: ctx}
				ddi := Part{From: Runtime, Layer: UMD, Name: name, Ctx: ctx}
				switch rng.Intn(25) {
				case 0:
					ddi.Fence = uint64(1 + rng.Intn(2))
				case 1:
					ddi.Msg = "m"
				case 2:
					ddi.Args = b.Str(KeyImpl, "DrawX").Args()
				case 3:
					ddi.Handle = "h1"
				}
				r.EmitPart(&api, Call, "")
				now += 80
				r.EmitPart(&ddi, Call, "")
				if rng.Intn(30) == 0 {
					r.Emit(Event{From: UMD, Layer: Runtime, Kind: Call, Name: "pfnRenderCb", DMA: uint64(rng.Intn(3))})
					r.Emit(Event{From: UMD, Layer: Runtime, Kind: Return, Name: "pfnRenderCb"})
				}
				r.EmitPart(&ddi, Return, "")
				r.EmitPart(&api, Return, []string{"S_OK", "S_OK", "E_INVALIDARG"}[rng.Intn(30)/29*2])
			case k < 27: // a state change, with a payload big enough for the byte limits
				msg := ""
				if rng.Intn(3) == 0 {
					msg = string(make([]byte, rng.Intn(3000)))
				}
				r.Emit(Event{From: App, Layer: Runtime, Kind: Call, Name: "IASetVertexBuffers", Ctx: "IC", Msg: msg})
				r.Emit(Event{From: App, Layer: Runtime, Kind: Return, Name: "IASetVertexBuffers", Ctx: "IC", HR: "S_OK"})
			default:
				r.Emit(Event{From: Runtime, Layer: Runtime, Kind: Message, Name: "Debug", Msg: fmt.Sprint("x", rng.Intn(2))})
			}
			if rng.Intn(100) != 0 {
				continue
			}
			evs, _ := r.Snapshot()
			if len(evs) == 0 {
				continue
			}
			for try := 0; try < 20; try++ {
				i := rng.Intn(len(evs)) // after = evs[i].Seq
				after := evs[i].Seq
				room := []int{0, 1, 3, 4, 32, 1 << 14}[rng.Intn(6)] // (the last more than the events held)
				got, newest := r.Repeats(after, period, make([]int64, 0, room))
				var want []int64
				if i+1 >= period {
					for j := i + 1; j < len(evs) && len(want) < max(room, 1); j++ {
						if !repeats(&evs[j], &evs[j-period]) {
							break
						}
						want = append(want, evs[j].T)
					}
				}
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("seed %d: Repeats(%d, %d) with room %d = %v, the events say %v", seed, after, period, room, got, want)
				}
				if wantNewest := i+1 >= period && i+1+len(want) == len(evs); newest != wantNewest {
					t.Fatalf("seed %d: Repeats(%d, %d) with room %d says newest %v, want %v", seed, after, period, room, newest, wantNewest)
				}
				checked++
				reps += len(want)
				// AgainTimes, when it answers: every event after after
				// repeats the one four before it, and it hands one time
				// of each whole group of four
				off := rng.Intn(4)
				got, newest, ok := r.AgainTimes(after, off, make([]int64, 0, room))
				if !ok {
					continue
				}
				all := i+1 >= 4
				for j := i + 1; all && j < len(evs); j++ {
					all = repeats(&evs[j], &evs[j-4])
				}
				if !all {
					t.Fatalf("seed %d: AgainTimes(%d) answers, but not every event after it repeats the one four before", seed, after)
				}
				groups := (len(evs) - i - 1) / 4
				want = want[:0]
				for g := 0; g < min(groups, room); g++ {
					want = append(want, evs[i+1+off+4*g].T)
				}
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("seed %d: AgainTimes(%d, %d) with room %d = %v, the events say %v", seed, after, off, room, got, want)
				}
				if wantNewest := groups <= room && (len(evs)-i-1)%4 == 0; newest != wantNewest {
					t.Fatalf("seed %d: AgainTimes(%d, %d) with room %d says newest %v, want %v", seed, after, off, room, newest, wantNewest)
				}
				agains++
			}
		}
		sure += r.sure
	}
	if reps == 0 || checked == 0 {
		t.Fatalf("%d repeats in %d checks: the comparison proves nothing", reps, checked)
	}
	// (the times taken uncompared, after a run of events EmitPart stored again only:
	// Recorder.fullAt)
	if sure == 0 {
		t.Fatalf("no repeat was taken from EmitPart's run of events stored again alone: the shortcut went untested")
	}
	if agains == 0 {
		t.Fatal("AgainTimes never answered: it went untested")
	}
	t.Logf("%d repeats in %d checks, %d taken uncompared, AgainTimes answered %d times", reps, checked, sure, agains)
}

// repeats is Repeats' rule on decoded events.
func repeats(e, old *Event) bool {
	a, b := *e, *old
	if a.Fence|a.DMA|b.Fence|b.DMA != 0 || a.Msg != "" || b.Msg != "" || !a.Args.IsZero() || !b.Args.IsZero() {
		return false
	}
	if (a.Parent == 0) != (b.Parent == 0) || a.Parent != 0 && a.Seq-a.Parent != b.Seq-b.Parent {
		return false
	}
	a.Seq, a.T, a.Parent = 0, 0, 0
	b.Seq, b.T, b.Parent = 0, 0, 0
	return a == b
}
