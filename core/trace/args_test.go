package trace

import (
	"slices"
	"strings"
	"testing"

	"d3dsim/core/memlimit"
)

// TestArgsText: the payloads the layers write print exactly the text the
// traces showed when they were formatted strings, and read back by key.
func TestArgsText(t *testing.T) {
	allocs := func(b *ArgBuilder) {
		b.Str(KeyDevice, "kd1").Allocs(3).
			Alloc(Alloc{Handle: 2, Owner: 1}).Alloc(Alloc{Handle: 3, Owner: 2, Write: true}).Alloc(Alloc{Handle: 1, Owner: 1})
	}
	for _, tt := range []struct {
		build func(*ArgBuilder)
		text  string
		check func(t *testing.T, a Args)
	}{
		{allocs, "device=kd1 allocs=a2@kd1:r,a3@kd2:w,a1@kd1:r", func(t *testing.T, a Args) {
			got := slices.Collect(a.Allocs())
			want := []Alloc{{2, 1, false}, {3, 2, true}, {1, 1, false}}
			if !slices.Equal(got, want) || a.Str(KeyDevice) != "kd1" || got[1].Name() != "a3" || got[1].OwnerName() != "kd2" {
				t.Errorf("allocs %v device %q", got, a.Str(KeyDevice))
			}
		}},
		{func(b *ArgBuilder) { b.Int(KeyAllocs, 3).Int(KeyPatches, 3).Uint(KeySubfence, 2) }, "allocs=3 patches=3 subfence=2", func(t *testing.T, a Args) {
			if n, ok := a.Int(KeyAllocs); !ok || n != 3 || slices.Collect(a.Allocs()) != nil {
				t.Errorf("allocs=%d %v: a count is not a list", n, ok)
			}
		}},
		{func(b *ArgBuilder) { b.Flag(KeyPaging).Uint(KeyFor, 5) }, "paging for=5", func(t *testing.T, a Args) {
			if f, ok := a.Uint(KeyFor); !ok || f != 5 || !a.Has(KeyPaging) || a.Has(KeyDone) {
				t.Errorf("for=%d %v paging %v", f, ok, a.Has(KeyPaging))
			}
		}},
		{func(b *ArgBuilder) {
			b.Flag(KeyDone).Str(KeyRes, "a4").Str(KeyHazard, "RAW").Uint(KeyFence, 4).Uint(KeyDMA, 6)
		}, "done res=a4 hazard=RAW fence=4 dma=6", func(t *testing.T, a Args) {
			if !a.Has(KeyDone) || a.Str(KeyHazard) != "RAW" || a.Str(KeyFence) != "" {
				t.Errorf("done %v hazard %q, fence as a string %q", a.Has(KeyDone), a.Str(KeyHazard), a.Str(KeyFence))
			}
		}},
		{func(b *ArgBuilder) { b.Flag(KeyDone) }, "done", nil},
		{func(b *ArgBuilder) { b.Int(KeyEngine, -1).Int(KeyDropped, 1<<40) }, "engine=-1 dropped=1099511627776", func(t *testing.T, a Args) {
			if e, ok := a.Int(KeyEngine); !ok || e != -1 {
				t.Errorf("engine=%d", e)
			}
		}},
		{func(b *ArgBuilder) {
			b.Str(KeyDevice, "kd1").Uint(KeySize, 4096).Bool(KeyCPU, true).Bool(KeyPrimary, false).Str(KeySurface, "64x64").Uint(KeyPitch, 256).Uint(KeyFmt, 28)
		}, "device=kd1 size=4096 cpu=true primary=false surface=64x64 pitch=256 fmt=28", func(t *testing.T, a Args) {
			if c, ok := a.Bool(KeyCPU); !ok || !c {
				t.Errorf("cpu %v %v", c, ok)
			}
			if p, ok := a.Bool(KeyPrimary); !ok || p {
				t.Errorf("primary %v %v", p, ok)
			}
		}},
		{func(b *ArgBuilder) { b.Text("op=TRANSFER a5 aperture->vram 4096B").Uint(KeyFor, 9) }, "op=TRANSFER a5 aperture->vram 4096B for=9", func(t *testing.T, a Args) {
			if a.Str(KeyNone) != "" || a.Has(KeyNone) {
				t.Errorf("text entries have no key")
			}
		}},
		{func(b *ArgBuilder) { b.Str(KeyHazard, "WAW").Uint(KeyFrom, 3).Uint(KeyTo, 5).Str(KeyRes, "") }, "hazard=WAW from=3 to=5 res=", nil},
		{func(b *ArgBuilder) { b.Allocs(0) }, "allocs=", nil},
		{func(b *ArgBuilder) { b.Int(KeyCount, 2).Pairs(KeySizes, 2).Pair(1, 64).Pair(3, 16) }, "count=2 sizes=1:64,3:16", func(t *testing.T, a Args) {
			var got [][2]uint64
			for x, y := range a.Pairs(KeySizes) {
				got = append(got, [2]uint64{x, y})
			}
			if !slices.Equal(got, [][2]uint64{{1, 64}, {3, 16}}) || a.Str(KeySizes) != "" {
				t.Errorf("pairs %v", got)
			}
		}},
		{func(b *ArgBuilder) { b.Str(KeySizes, "NULL") }, "sizes=NULL", func(t *testing.T, a Args) {
			for range a.Pairs(KeySizes) {
				t.Errorf("a string is not a list of pairs")
			}
		}},
		{func(*ArgBuilder) {}, "", func(t *testing.T, a Args) {
			if !a.IsZero() {
				t.Errorf("an empty builder makes %q", a.b)
			}
		}},
	} {
		var b ArgBuilder
		tt.build(&b)
		a := b.Args()
		if got := a.String(); got != tt.text {
			t.Errorf("String() = %q, want %q", got, tt.text)
		}
		if got := string(a.AppendText([]byte("x "))); got != "x "+tt.text {
			t.Errorf("AppendText = %q", got)
		}
		if got := string(AppendJSON(nil, &Event{Args: a})); tt.text != "" && !strings.Contains(got, `"args":`+string(AppendString(nil, tt.text))) {
			t.Errorf("JSON %s, want args %q", got, tt.text)
		}
		if tt.check != nil {
			tt.check(t, a)
		}
		// The same through a recorder.
		r := NewRecorder(nil, nil)
		r.Emit(Event{Name: "x", Args: a})
		if got := r.Events()[0].Args; got != a {
			t.Errorf("stored %q, emitted %q", got, a)
		}
	}
}

// TestTextArgs: raw text prints as is and has no keys.
func TestTextArgs(t *testing.T) {
	for _, s := range []string{"", "rt=h3 dep=h2", "\x01odd", "recorded"} {
		a := TextArgs(s)
		if a.String() != s || a.IsZero() != (s == "") {
			t.Errorf("TextArgs(%q) prints %q", s, a.String())
		}
		if a.Has(KeyRT) || a.Str(KeyRT) != "" {
			t.Errorf("TextArgs(%q) has a key", s)
		}
	}
}

// TestArgsCapped: a payload over MaxText drops its last entries (or cuts
// the string that does not fit) and stays decodable.
func TestArgsCapped(t *testing.T) {
	big := strings.Repeat("n", 3*MaxText)
	var b ArgBuilder
	b.Str(KeyDevice, "kd1").Allocs(2000)
	for i := range 2000 {
		b.Alloc(Alloc{Handle: uint32(100000 + i), Owner: 1, Write: i%2 == 0})
	}
	b.Uint(KeyFor, 7)
	var b2 ArgBuilder
	for _, a := range []Args{
		b.Args(),
		b2.Int(KeySize, 1).Str(KeyRes, big).Flag(KeyDone).Args(),
		TextArgs("x=" + big),
		b2.Reset2().Text(big).Args(),
	} {
		c := capArgs(a, MaxText)
		if c.Len() > MaxText || c.IsZero() {
			t.Fatalf("capped to %d bytes", c.Len())
		}
		// Every entry decodes: the text is a prefix of the whole one's
		// up to the cut.
		full, cut := a.String(), c.String()
		i := 0
		for {
			_, j, ok := c.next(i)
			if !ok {
				break
			}
			i = j
		}
		if i != c.Len() {
			t.Errorf("capped payload stops decoding at %d of %d", i, c.Len())
		}
		if !strings.HasPrefix(full, strings.TrimSuffix(cut[:min(len(cut), 64)], "…")) {
			t.Errorf("capped text %q... is not the start of %q...", cut[:40], full[:40])
		}
	}
	r := NewRecorder(nil, nil)
	r.Emit(Event{Name: "x", Args: b.Args()})
	if e := r.Events()[0]; e.Args.Len() > MaxText || e.Args.Str(KeyDevice) != "kd1" || e.Args.Has(KeyFor) {
		t.Errorf("stored payload %d bytes, device %q, for kept %v", e.Args.Len(), e.Args.Str(KeyDevice), e.Args.Has(KeyFor))
	}
}

// Reset2 is Reset, chained (tests only).
func (w *ArgBuilder) Reset2() *ArgBuilder { w.Reset(); return w }

// TestArgBuilderAllocs: a small payload costs its one string.
func TestArgBuilderAllocs(t *testing.T) {
	var sink Args
	n := testing.AllocsPerRun(1000, func() {
		var b ArgBuilder
		sink = b.Str(KeyDevice, "kd1").Int(KeyEngine, 0).Flag(KeyPaging).Args()
	})
	if n > 1 {
		t.Errorf("%v allocations for a small payload", n)
	}
	_ = sink
}

// FuzzArgs: any bytes decode without a panic, in bounded memory, and what
// decodes prints and caps.
func FuzzArgs(f *testing.F) {
	var b ArgBuilder
	b.Str(KeyDevice, "kd1").Allocs(2).Alloc(Alloc{1, 1, true}).Alloc(Alloc{2, 3, false}).Int(KeyEngine, -4).Flag(KeyDone).Bool(KeyCPU, true).Text("t")
	b.Pairs(KeySizes, 2).Pair(1, 2).Pair(300, 4)
	f.Add([]byte(b.Args().b))
	f.Add([]byte("rt=h3"))
	f.Add([]byte{tagAllocs, byte(KeyAllocs), 0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Add([]byte{tagStr, byte(KeyRes), 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	f.Fuzz(func(t *testing.T, data []byte) {
		memlimit.Check(t, 64<<20, "decoding a payload", func() {
			a := Args{string(data)}
			s := a.String()
			if len(s) > 64*len(data)+64 {
				t.Fatalf("%d bytes print %d", len(data), len(s))
			}
			for k := range keyCount + 2 {
				a.Has(k)
				a.Int(k)
				a.Uint(k)
				a.Bool(k)
				a.Str(k)
			}
			n := 0
			for range a.Allocs() {
				n++
			}
			for k := range keyCount + 2 {
				for range a.Pairs(k) {
					n++
				}
			}
			if n > len(data) {
				t.Fatalf("%d allocation entries from %d bytes", n, len(data))
			}
			c := capArgs(a, 32)
			if len(data) > 32 && c.Len() > 32 {
				t.Fatalf("capped to %d bytes", c.Len())
			}
			_ = c.String()
		})
	})
}

func TestArgsEntries(t *testing.T) {
	var b ArgBuilder
	a := b.Flag(KeyPaging).Text("note").Int(KeyDMA, -3).Uint(KeyFor, 7).Str(KeyHazard, "RAW").Bool(KeyCPU, true).
		Allocs(2).Alloc(Alloc{Handle: 1, Owner: 1}).Alloc(Alloc{Handle: 2, Owner: 1, Write: true}).
		Pairs(KeySizes, 1).Pair(4, 5).Args()
	var got []Entry
	for e := range a.Entries() {
		got = append(got, e)
	}
	want := []Entry{
		{Key: KeyPaging, Kind: ArgFlag}, {Key: KeyDMA, Kind: ArgInt, N: uint64(1<<64 - 3)}, {Key: KeyFor, Kind: ArgUint, N: 7},
		{Key: KeyHazard, Kind: ArgStr, S: "RAW"}, {Key: KeyCPU, Kind: ArgBool, N: 1},
		{Key: KeyAllocs, Kind: ArgAllocs, N: 2}, {Key: KeySizes, Kind: ArgPairs, N: 1},
	}
	if !slices.Equal(got, want) {
		t.Errorf("Entries = %+v, want %+v", got, want)
	}
	for range TextArgs("paging for=3").Entries() {
		t.Error("TextArgs has a keyed entry")
	}
}
