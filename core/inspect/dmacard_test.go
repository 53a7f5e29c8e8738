package inspect

import (
	"strings"
	"testing"
)

// TestDMAContents: a DMA buffer's card lists its packets decoded, each
// with the API call that encoded it, its allocation list and its patch
// locations; a paging buffer's card lists its operations.
func TestDMAContents(t *testing.T) {
	ev, j := runEvents(t, "assets/tutorials/03-map-hazards.d3ds")
	c, err := ExplainDMA(Events(ev), at(t, j, "line:28"))
	if err != nil {
		t.Fatal(err)
	}
	j.Contents(c)
	if len(c.PacketList) != 2 || c.Words != 17 || c.PacketsLeft != 0 {
		t.Fatalf("packets: %+v (%d words)", c.PacketList, c.Words)
	}
	clear, copy := c.PacketList[0], c.PacketList[1]
	if !strings.HasPrefix(clear.Text, "CLEAR_RT ") || clear.Word != 0 || clear.Call == nil || clear.Call.Name != "ClearRenderTargetView" || clear.Call.Line != 27 {
		t.Errorf("first packet: %+v %+v", clear, clear.Call)
	}
	if !strings.HasPrefix(copy.Text, "COPY ") || copy.Word != 11 || copy.Call == nil || copy.Call.Name != "CopyResource" || copy.Call.Obj != "shot" {
		t.Errorf("second packet: %+v %+v", copy, copy.Call)
	}
	// The copy's destination is shot (a2, entry 1), patched at word 12.
	if len(copy.Addresses) != 2 || copy.Addresses[0].Allocation != "a2" || copy.Addresses[0].ListIndex != 1 || copy.Addresses[0].Patch != 12 {
		t.Errorf("copy's addresses: %+v", copy.Addresses)
	}
	want := []CardAllocation{{Index: 0, Allocation: "a1", Obj: "sc.buffer0", Write: true}, {Index: 1, Allocation: "a2", Obj: "shot", Write: true}}
	if len(c.AllocList) != 2 || c.AllocList[0] != want[0] || c.AllocList[1] != want[1] {
		t.Errorf("allocation list: %+v", c.AllocList)
	}
	if len(c.PatchList) != c.Patches || c.PatchList[1] != (CardPatch{Word: 12, Index: 1, Allocation: "a2"}) {
		t.Errorf("patch locations (%d): %+v", c.Patches, c.PatchList)
	}
	text := c.Text()
	for _, s := range []string{"allocation list\n  0  a1 (sc.buffer0) write\n", "word 12 <- entry 1 (a2) + 0",
		"    11  COPY dst=0x0 src=0x0 n=4096 [a2+0, entry 1, patched at word 12] [a1+0, entry 0, patched at word 14]  <- #203 CopyResource(shot) at line 28"} {
		if !strings.Contains(text, s) {
			t.Errorf("text has no %q:\n%s", s, text)
		}
	}

	// memory-pressure's eviction: paging buffer 6 moves a2 to system memory.
	ev, j = runEvents(t, "assets/scenarios/memory-pressure.d3ds")
	var evict uint64
	for _, e := range ev {
		if e.Name == "DxgkDdiBuildPagingBuffer" && strings.Contains(e.Args.String(), "vram->system") {
			evict = e.Seq
			break
		}
	}
	p, err := ExplainDMA(Events(ev), evict)
	if err != nil {
		t.Fatal(err)
	}
	j.Contents(p) // a paging buffer is not the journal's: nothing added
	if !p.Paging || len(p.Ops) != 1 || p.Ops[0].Op != "TRANSFER" || p.Ops[0].Allocation != "a2" || p.Ops[0].Obj != "a" ||
		!strings.Contains(p.Ops[0].Why, "evict least recently used a2") || len(p.PacketList) != 0 {
		t.Errorf("paging buffer: %+v", p)
	}
}
