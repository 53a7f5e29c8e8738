package trace

import (
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"
	"unsafe"
)

// TestEmitPartAgain: EmitPart, which stores an event the same as the one
// four before it as that record again, leaves the same trace
// as Emit of the same events — the events held, each subscriber's view
// (filters of every kind), the drops, the bytes and the shapes — on random
// runs of Draw-shaped calls and what breaks a run: another thread, another
// scenario line, another event between, a payload, a fence, a message, the
// same strings at other addresses, names past MaxName, time jumps past a
// chunk's int32, a ring that drops, byte limits, and the table of shapes
// compacted under a run; and EmitFixed, whose parts' ids stand for their
// words, the same.
func TestEmitPartAgain(t *testing.T) {
	agains, fixedAgains := uint64(0), uint64(0)
	long := strings.Repeat("n", MaxName+5)
	for seed := int64(1); seed <= 60; seed++ {
		rng := rand.New(rand.NewSource(seed))
		var now int64
		th := "main"
		a, b := stampedPair(&now, &th)
		if seed%3 == 0 { // (the other way of stamping)
			a, b = NewRecorder(func() int64 { return now }, func() string { return th }), NewRecorder(func() int64 { return now }, func() string { return th })
		}
		switch seed % 4 {
		case 1:
			n := 1000 + rng.Intn(500)
			a.SetLimit(n)
			b.SetLimit(n)
		case 2:
			n := int64(150_000 + rng.Intn(100_000))
			a.SetByteLimit(n)
			b.SetByteLimit(n)
		}
		filters := []Filter{{All: true}, {Kinds: 1 << Return}, {Kinds: 1 << Message, DMA: true}}
		got, want := make([][]Event, len(filters)), make([][]Event, len(filters))
		for i, f := range filters {
			if rng.Intn(2) == 0 {
				a.SubscribeTo(f, func(e *Event) { got[i] = append(got[i], *e) })
				b.SubscribeTo(f, func(e *Event) { want[i] = append(want[i], *e) })
			}
		}
		both := func(e Event) { a.Emit(e); b.Emit(e) }
		// Every other seed emits the Draws' parts as FixedParts (EmitFixed):
		// the unchanged ones made once, each changed one made for its call,
		// now and then the same part not fixed; every seventh seed's API
		// part has no id (past MaxUint32: compared word by word).
		fixed := seed%2 == 0
		apiF := NewFixedPart(Part{From: App, Layer: Runtime, Name: "Draw", Ctx: "IC"})
		ddiF := NewFixedPart(Part{From: Runtime, Layer: UMD, Name: "Draw", Ctx: "IC"})
		if seed%7 == 0 {
			apiF.p.fixed = 0
		}
		part := func(p *Part, f *FixedPart, k Kind, hr string) {
			if f != nil {
				a.EmitFixed(f, k, hr)
			} else {
				a.EmitPart(p, k, hr)
			}
			b.Emit(Event{From: p.From, Layer: p.Layer, Kind: k, Name: p.Name, Ctx: p.Ctx, Obj: p.Obj, Handle: p.Handle, HR: hr,
				Fence: p.Fence, Msg: p.Msg, Args: p.Args})
		}
		var ab ArgBuilder
		for i := range 10 { // shapes the compaction drops: the Draw's get other ids
			both(Event{From: App, Layer: Runtime, Kind: Message, Name: fmt.Sprint("Start", i)})
		}
		for step := 0; step < 1500; step++ {
			now += []int64{0, 80, 150, 3_000_000_000}[rng.Intn(4)*min(1, rng.Intn(60))]
			if rng.Intn(100) == 0 {
				line := rng.Intn(3)
				a.SetLine(line)
				b.SetLine(line)
			}
			if rng.Intn(150) == 0 {
				th = []string{"main", "worker", string([]byte("main"))}[rng.Intn(3)]
			}
			switch k := rng.Intn(40); {
			case k < 34: // a Draw, now and then with something that makes it another
				api := Part{From: App, Layer: Runtime, Name: "Draw", Ctx: "IC"}
				ddi := Part{From: Runtime, Layer: UMD, Name: "Draw", Ctx: "IC"}
				var fa, fd *FixedPart
				if fixed && rng.Intn(20) != 0 {
					fa, fd = apiF, ddiF
				}
				switch rng.Intn(40) {
				case 0:
					ddi.Fence = 1
				case 1:
					ddi.Msg = "m"
				case 2:
					ddi.Args = ab.Str(KeyImpl, "DrawX").Args()
				case 3:
					api.Name = string([]byte("Draw")) // equal bytes elsewhere
					if rng.Intn(2) == 0 {
						// the table of shapes compacted as this call begins
						// (when something was dropped since the last time):
						// the DDI's events, kept before, get other ids
						a.shapeB, a.compact, b.shapeB, b.compact = minCompact+1, 0, minCompact+1, 0
					}
				case 4:
					ddi.Name = long
				case 5:
					api.Ctx = "DC1"
				}
				if fa != nil && api != apiF.Part() {
					fa = NewFixedPart(api) // (its own id: not stored as apiF's events again)
				}
				if fd != nil && ddi != ddiF.Part() {
					fd = NewFixedPart(ddi)
				}
				part(&api, fa, Call, "")
				now += 80
				part(&ddi, fd, Call, "")
				if rng.Intn(40) == 0 {
					both(Event{From: UMD, Layer: Runtime, Kind: Call, Name: "pfnRenderCb", DMA: uint64(1 + rng.Intn(3))})
					both(Event{From: UMD, Layer: Runtime, Kind: Return, Name: "pfnRenderCb"})
				}
				part(&ddi, fd, Return, "")
				part(&api, fa, Return, []string{"S_OK", "E_INVALIDARG"}[rng.Intn(40)/39])
			case k < 37:
				both(Event{From: App, Layer: Runtime, Kind: Call, Name: "IASetVertexBuffers", Ctx: "IC", Msg: strings.Repeat("x", rng.Intn(3000))})
				both(Event{From: App, Layer: Runtime, Kind: Return, Name: "IASetVertexBuffers", Ctx: "IC", HR: "S_OK"})
			case k < 39:
				both(Event{From: Runtime, Layer: Runtime, Kind: Message, Name: "Debug", Msg: fmt.Sprint("x", rng.Intn(2))})
			default:
				if seed%5 == 0 && rng.Intn(4) == 0 { // new shapes enough for the table to be compacted
					for i := 0; i < 1500; i++ {
						both(Event{From: App, Layer: Runtime, Kind: Message, Name: "Note", Handle: fmt.Sprintf("%0*d", MaxName, step*10000+i)})
					}
				}
			}
		}
		if !reflect.DeepEqual(got, want) {
			for i := range got {
				for j := range min(len(got[i]), len(want[i])) {
					if !reflect.DeepEqual(got[i][j], want[i][j]) {
						t.Fatalf("seed %d: subscriber %d's event %d:\n%+v\nwant\n%+v", seed, i, j, got[i][j], want[i][j])
					}
				}
			}
			t.Fatalf("seed %d: the subscribers got other events", seed)
		}
		ea, eb := a.Events(), b.Events()
		for i := range min(len(ea), len(eb)) {
			if !reflect.DeepEqual(ea[i], eb[i]) {
				t.Fatalf("seed %d: held event %d:\n%+v\nwant\n%+v", seed, i, ea[i], eb[i])
			}
		}
		if len(ea) != len(eb) || a.Dropped() != b.Dropped() || a.Bytes() != b.Bytes() || a.ShapeBytes() != b.ShapeBytes() {
			t.Fatalf("seed %d: %d events held, %d dropped, %d bytes, shapes %d; want %d, %d, %d, %d", seed,
				len(ea), a.Dropped(), a.Bytes(), a.ShapeBytes(), len(eb), b.Dropped(), b.Bytes(), b.ShapeBytes())
		}
		agains += a.agains
		if fixed {
			fixedAgains += a.agains
		}
		if b.agains != 0 {
			t.Fatal("Emit stored an event again")
		}
	}
	if agains == 0 || fixedAgains == 0 {
		t.Fatalf("%d events stored again, %d of FixedParts: the comparison proves nothing", agains, fixedAgains)
	}
}

// TestEmitPartAgainTwoThreads: two threads whose calls interleave, each
// event the same as the one four before it on its own thread — a call
// stored again right after the other thread's event — leave the same
// trace with EmitPart as with Emit: EmitPart's again path keeps each event's call
// stack (partAgain.st), not the last event's.
func TestEmitPartAgainTwoThreads(t *testing.T) {
	var now int64
	th := "main"
	a, b := stampedPair(&now, &th)
	x := Part{From: App, Layer: Runtime, Name: "Draw", Ctx: "IC"}
	y := Part{From: App, Layer: Runtime, Name: "Dispatch", Ctx: "DC1"}
	for i := range 200 {
		for _, s := range []struct {
			th string
			p  *Part
			k  Kind
		}{{"main", &x, Call}, {"worker", &y, Call}, {"main", &x, Return}, {"worker", &y, Return}} {
			th, now = s.th, int64(i*100)+now%100+1
			a.EmitPart(s.p, s.k, "")
			b.Emit(Event{From: s.p.From, Layer: s.p.Layer, Kind: s.k, Name: s.p.Name, Ctx: s.p.Ctx})
		}
	}
	if a.agains == 0 {
		t.Fatal("no event was stored again: the comparison proves nothing")
	}
	ea, eb := a.Events(), b.Events()
	if len(ea) != len(eb) {
		t.Fatalf("%d events, want %d", len(ea), len(eb))
	}
	for i := range ea {
		if !reflect.DeepEqual(ea[i], eb[i]) {
			t.Fatalf("event %d:\n%+v\nwant\n%+v", i, ea[i], eb[i])
		}
	}
}

// stampedPair is two recorders stamped with *now and *th (SetStamp): the
// one EmitPart writes to and the one Emit does.
func stampedPair(now *int64, th *string) (a, b *Recorder) {
	stamp := func() (int64, string) { return *now, *th }
	a, b = NewRecorder(nil, nil), NewRecorder(nil, nil)
	a.SetStamp(stamp)
	b.SetStamp(stamp)
	return a, b
}

// TestPartWords: EmitPart compares a Part's fields before From as words:
// they must be exactly its first partWords words, no padding among them
// (a field added before From that is not made of whole 8-byte words would
// make it compare padding), From and Layer one byte each side by side;
// and a part that differs in any field, a
// string's length included, is not stored again.
func TestPartWords(t *testing.T) {
	rt := reflect.TypeFor[Part]()
	var size uintptr
	for i := range rt.NumField() {
		f := rt.Field(i)
		if f.Name == "From" {
			break
		}
		if f.Offset != size || f.Type.Size()%8 != 0 {
			t.Fatalf("Part.%s at %d, size %d: not the next whole words (at %d)", f.Name, f.Offset, f.Type.Size(), size)
		}
		size += f.Type.Size()
	}
	if size != partWords*8 {
		t.Fatalf("the fields before From take %d bytes, partWords is %d words", size, partWords)
	}
	if unsafe.Offsetof(Part{}.Layer) != unsafe.Offsetof(Part{}.From)+1 || unsafe.Sizeof(Part{}.From) != 1 {
		t.Fatal("Part's From and Layer are not two bytes side by side: EmitPart compares them as one uint16")
	}
	a := Part{Name: "Draw", Ctx: "IC", From: App, Layer: Runtime}
	for i, b := range []Part{
		a,
		{Name: "Draw", Ctx: "IC", From: App, Layer: UMD},
		{Name: "Draw", Ctx: "IC", From: Runtime, Layer: Runtime},
		{Name: "Draw", Ctx: "IC", From: App, Layer: Runtime, Fence: 1},
		{Name: "Draw", Ctx: "IC", From: App, Layer: Runtime, Args: TextArgs("x")},
		{Name: "Draw", Ctx: "IC", Msg: "m", From: App, Layer: Runtime},
		{Name: "Draw", Ctx: "IC", Handle: "h", From: App, Layer: Runtime},
		{Name: "Draw"[:3], Ctx: "IC", From: App, Layer: Runtime},
	} {
		var now int64
		th := "main"
		r, _ := stampedPair(&now, &th)
		r.EmitPart(&a, Message, "")
		for _, n := range []string{"x", "y", "z"} {
			r.EmitPart(&Part{Name: n}, Message, "")
		}
		r.EmitPart(&b, Message, "")
		if again := r.agains == 1; again != (i == 0) {
			t.Errorf("part %d: %+v stored again %v after %+v", i, b, again, a)
		}
	}
}

// TestEmitPartAgainCompactedOnTheWayBack: an event that passes EmitPart's
// checks of its part but not of its thread goes the full way, where the
// table of shapes may be compacted (which clears what EmitPart kept): what
// is kept for it afterwards is its part, not the cleared one, so a later
// event with an empty part is not stored as its record again.
func TestEmitPartAgainCompactedOnTheWayBack(t *testing.T) {
	var now int64
	th := "main"
	a, b := stampedPair(&now, &th)
	a.SetLimit(64)
	b.SetLimit(64)
	api := Part{From: App, Layer: Runtime, Name: "Draw", Ctx: "IC"}
	emit := func(p *Part) {
		now += 10
		a.EmitPart(p, Message, "")
		b.Emit(Event{From: p.From, Layer: p.Layer, Kind: Message, Name: p.Name, Ctx: p.Ctx})
	}
	for range 100 { // (the ring drops: the compaction below renumbers)
		emit(&api)
	}
	th = string([]byte("main")) // the same name at another address: the full way
	a.shapeB, a.compact, b.shapeB, b.compact = minCompact+1, 0, minCompact+1, 0
	emit(&api)
	for _, n := range []string{"x", "y", "z"} {
		emit(&Part{Name: n})
	}
	emit(&Part{})
	ea, eb := a.Events(), b.Events()
	if a.agains == 0 || len(ea) != len(eb) {
		t.Fatalf("%d events stored again, %d events held, want %d", a.agains, len(ea), len(eb))
	}
	for i := range ea {
		if !reflect.DeepEqual(ea[i], eb[i]) {
			t.Fatalf("event %d:\n%+v\nwant\n%+v", i, ea[i], eb[i])
		}
	}
}
