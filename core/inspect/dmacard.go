package inspect

import (
	"fmt"
	"strconv"
	"strings"

	"d3dsim/core/trace"
	"d3dsim/gpu/isa"
)

// What a DMA buffer's card shows beyond the trace: the buffer itself, as
// the kernel-mode driver wrote it (DxgkDdiRender, DxgkDdiPresent) and the
// journal kept it — its packets decoded, its allocation list and its patch
// location list ("Submitting a command buffer": the allocation list names
// every allocation the buffer uses, the patch location list every word
// DxgkDdiPatch writes a physical address at). A paging buffer is not the
// UMD's: its operations are the DxgkDdiBuildPagingBuffer calls of the
// trace that built it.

// MaxCardPackets bounds the packets a card lists (a 1,000-draw frame's
// buffer holds thousands): the rest are counted.
const MaxCardPackets = 4096

// CardPacket is one packet of a DMA buffer, with the API call that
// encoded it.
type CardPacket struct {
	Packet
	Call *WaitCall `json:"call,omitempty"`
}

// CardAllocation is one entry of a DMA buffer's allocation list.
type CardAllocation struct {
	Index      int    `json:"index"`
	Allocation string `json:"allocation"` // a3
	Obj        string `json:"obj,omitempty"`
	Write      bool   `json:"write,omitempty"`
	Segment    string `json:"segment,omitempty"` // where DxgkDdiRender found it: vram, aperture
	Address    uint64 `json:"address,omitempty"`
}

// CardPatch is one entry of a DMA buffer's patch location list.
type CardPatch struct {
	Word       uint32 `json:"word"`  // the buffer's word DxgkDdiPatch writes the address at
	Index      uint32 `json:"index"` // the allocation-list entry
	Offset     uint32 `json:"offset"`
	Allocation string `json:"allocation,omitempty"`
}

// PagingOp is one operation of a paging buffer.
type PagingOp struct {
	Seq        uint64 `json:"seq"`
	Allocation string `json:"allocation"`
	Obj        string `json:"obj,omitempty"`
	Op         string `json:"op"`   // FILL, TRANSFER, DISCARD_CONTENT, MAP_APERTURE_SEGMENT, ...
	Text       string `json:"text"` // the operation as the driver was given it
	Why        string `json:"why,omitempty"`
}

// Contents adds to card c what the journal kept of its buffer: the
// packets decoded (each with the API call that encoded it), the
// allocation list and the patch locations. A buffer the journal does not
// hold (let go past MaxDMAWords, or a paging buffer) is left as it is.
func (j *Journal) Contents(c *DMACard) {
	di, ok := j.dmaByID[c.ID]
	if !ok {
		return
	}
	d := &j.dmas[di]
	objs := map[string]string{}
	for i, e := range d.info.Allocations {
		a := "a" + strconv.FormatUint(uint64(e.Allocation), 10)
		ca := CardAllocation{Index: i, Allocation: a, Write: e.WriteOperation, Address: e.PhysicalAddress}
		if e.SegmentID != 0 {
			ca.Segment = e.SegmentID.String()
		}
		if info, ok := j.mach.Allocation(uint32(e.Allocation)); ok {
			ca.Obj = info.Obj
			objs[a] = info.Obj
		}
		c.AllocList = append(c.AllocList, ca)
	}
	for _, p := range d.info.Patches {
		cp := CardPatch{Word: p.PatchOffset, Index: p.AllocationIndex, Offset: p.AllocationOffset}
		if int(p.AllocationIndex) < len(d.info.Allocations) {
			cp.Allocation = "a" + strconv.FormatUint(uint64(d.info.Allocations[p.AllocationIndex].Allocation), 10)
		}
		c.PatchList = append(c.PatchList, cp)
	}
	if d.info.Words == nil {
		c.PacketNote = "its words were let go: the journal keeps the newest 64 MiB of DMA buffers"
		return
	}
	list, err := isa.Decode(d.info.Words)
	if err != nil {
		c.PacketNote = "its words do not decode: " + err.Error()
	}
	c.Words = len(d.info.Words)
	calls := map[int]*WaitCall{}
	for n, p := range list {
		if n == MaxCardPackets {
			c.PacketsLeft = len(list) - n
			break
		}
		cp := CardPacket{Packet: j.packet(p, d, nil, c.ID)}
		if k := j.packetCall(c.ID, p.At); k >= 0 {
			if calls[k] == nil {
				rec := j.calls.at(k)
				calls[k] = &WaitCall{Seq: rec.seq, Name: j.methods[rec.method], Line: int(rec.line)}
				if e, ok := j.rec.At(rec.seq); ok {
					calls[k].T, calls[k].Ctx, calls[k].Obj = e.T, e.Ctx, e.Obj
				}
			}
			cp.Call = calls[k]
		}
		c.PacketList = append(c.PacketList, cp)
	}
}

// pagingOps are the operations DxgkDdiBuildPagingBuffer built into paging
// buffer id, from the trace: the calls of it before event near.
func (r reader) pagingOps(id, near uint64) []PagingOp {
	var out []PagingOp
	for s := near; s >= r.first && s > 0 && near-s < scanLimit; s-- {
		e, _ := r.get(s)
		if e.DMA != id || e.Kind != trace.Call || e.Name != "DxgkDdiBuildPagingBuffer" {
			continue
		}
		text := e.Args.String()
		op, _, _ := strings.Cut(strings.TrimPrefix(text, "op="), " ")
		out = append(out, PagingOp{Seq: e.Seq, Allocation: e.Handle, Obj: e.Obj, Op: op, Text: text, Why: e.Msg})
	}
	for a, b := 0, len(out)-1; a < b; a, b = a+1, b-1 {
		out[a], out[b] = out[b], out[a]
	}
	return out
}

// contentsText is the lists of a card as --dma prints them.
func (c *DMACard) contentsText(b *strings.Builder) {
	for _, op := range c.Ops {
		fmt.Fprintf(b, "paging op  #%d %s", op.Seq, op.Text)
		if op.Obj != "" {
			fmt.Fprintf(b, " (%s)", op.Obj)
		}
		if op.Why != "" {
			fmt.Fprintf(b, ": %s", op.Why)
		}
		b.WriteString("\n")
	}
	if len(c.AllocList) > 0 {
		b.WriteString("allocation list\n")
		for _, a := range c.AllocList {
			fmt.Fprintf(b, "  %d  %s", a.Index, a.Allocation)
			if a.Obj != "" {
				fmt.Fprintf(b, " (%s)", a.Obj)
			}
			if a.Write {
				b.WriteString(" write")
			} else {
				b.WriteString(" read")
			}
			if a.Segment != "" {
				fmt.Fprintf(b, ", %s 0x%x", a.Segment, a.Address)
			}
			b.WriteString("\n")
		}
	}
	if len(c.PatchList) > 0 {
		b.WriteString("patch locations\n")
		for _, p := range c.PatchList {
			fmt.Fprintf(b, "  word %d <- entry %d (%s) + %d\n", p.Word, p.Index, p.Allocation, p.Offset)
		}
	}
	if len(c.PacketList) > 0 {
		fmt.Fprintf(b, "packets as DxgkDdiRender wrote them (%d words; DxgkDdiSubmitCommand appends the FENCE)\n", c.Words)
		var last *WaitCall
		for _, p := range c.PacketList {
			fmt.Fprintf(b, "  %4d  %s", p.Word, p.Text)
			for _, a := range p.Addresses {
				if a.Patch >= 0 {
					fmt.Fprintf(b, " [%s+%d, entry %d, patched at word %d]", a.Allocation, a.Offset, a.ListIndex, a.Patch)
				}
			}
			if p.Call != nil && p.Call != last {
				fmt.Fprintf(b, "  <- #%d %s", p.Call.Seq, p.Call.text())
			}
			last = p.Call
			b.WriteString("\n")
		}
		if c.PacketsLeft > 0 {
			fmt.Fprintf(b, "  … %d packets more\n", c.PacketsLeft)
		}
	}
	if c.PacketNote != "" {
		fmt.Fprintf(b, "packets    %s\n", c.PacketNote)
	}
}
