package kmd

import (
	"d3dsim/core/memlimit"
	"d3dsim/core/rules"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"d3dsim/core/dxgkddi"
	"d3dsim/gpu"
	"d3dsim/gpu/isa"
)

// FuzzValidate feeds arbitrary command buffers and allocation lists to the
// validator, with and without the WDDM-ISOLATE bug switch: it must never
// panic, and an accepted buffer must decode with every patch location inside
// it.
func FuzzValidate(f *testing.F) {
	seed := func(cmd []uint32, l []byte) {
		b := make([]byte, 4*len(cmd))
		for i, w := range cmd {
			binary.LittleEndian.PutUint32(b[4*i:], w)
		}
		f.Add(b, l, false)
		f.Add(b, l, true)
	}
	seed(drawBuffer(), []byte{1, 2})
	var b isa.Builder
	b.Copy(la(0, 4), la(1, 0), 64)
	b.Write(la(2, 0), []byte{1, 2, 3})
	b.Query(isa.QueryTimestamp, la(2, 8))
	b.Fill(la(1, 0), 16, 3)
	b.SetIB(la(1, 0), 64, 2, 0)
	b.DrawIndexed(6, 0, 0)
	seed(b.Words, []byte{1, 2, 4})
	seed([]uint32{0x16000002, 1, 0}, nil)
	seed([]uint32{0x15000003, 0, 0, 0xFFFFFFFF}, []byte{3})
	// A present (list byte 0 has 0x40: DxgkDdiPresent; 0x43 % 6 is a1, the
	// primary, and 0x43 % 3 picks entry 1 as the source).
	seed(drawBuffer(), []byte{0x43, 0x01})
	// Depth, texture and constant buffers, a depth clear and a raw SCANOUT
	// (privileged: only DxgkDdiPresent may scan out).
	var d isa.Builder
	d.SetDS(la(1, 0), 32, 32, 128, isa.FmtD32F)
	d.ClearDS(la(1, 0), 32, 32, 128, isa.FmtD32F, 1)
	d.SetDepth(true, true, 2)
	d.SetTex(0, la(0, 0), 64, 64, 256, isa.FmtRGBA8)
	d.SetCB(isa.StagePS, 0, la(2, 0), 16)
	d.SetBlend(true, isa.BlendSrcAlpha, isa.BlendInvSrcAlpha, isa.BlendOpAdd, isa.BlendOne, isa.BlendZero, isa.BlendOpAdd, 0xF)
	d.Draw(3, 0)
	seed(d.Words, []byte{1, 2, 4})
	var sc isa.Builder
	sc.Scanout(la(0, 0), 64, 64, 256, isa.FmtRGBA8)
	seed(sc.Words, []byte{1})
	// Out of range inside an own allocation: a 64x64 target of pitch 256 on
	// the 4 KiB a2, and a copy past the 16 bytes of a4.
	var o isa.Builder
	o.SetRT(la(0, 0), 64, 64, 256, isa.FmtRGBA8)
	o.Copy(la(1, 8), la(1, 0), 16)
	seed(o.Words, []byte{2, 4})

	f.Fuzz(func(t *testing.T, raw []byte, l []byte, bug bool) {
		// No input may make it allocate past a ceiling.
		memlimit.Check(t, 64<<20, "FuzzValidate", func() {
			var bugs []rules.ID
			if bug {
				bugs = append(bugs, RuleIsolate)
			}
			r := newRig(t, bugs...)
			cmd := make([]uint32, len(raw)/4)
			for i := range cmd {
				cmd[i] = binary.LittleEndian.Uint32(raw[4*i:])
			}
			lst := make([]dxgkddi.AllocationListEntry, len(l))
			for i, h := range l {
				lst[i] = dxgkddi.AllocationListEntry{Allocation: dxgkddi.HAllocation(h % 6), WriteOperation: h&0x80 != 0}
			}
			present := len(l) > 0 && l[0]&0x40 != 0
			var a dxgkddi.RenderArgs
			var err error
			if present {
				// A present's list: null, then what the input names.
				lst = append([]dxgkddi.AllocationListEntry{{}}, lst...)
				p := dxgkddi.PresentArgs{Device: 1, Context: 1, AllocationList: lst,
					Flags: dxgkddi.PresentFlags{Blt: l[0]&1 == 0, Flip: l[0]&2 != 0}, NoDmaBuffer: l[0]&4 != 0}
				err = r.d.DxgkDdiPresent(&p)
				a = dxgkddi.RenderArgs{DmaBuffer: p.DmaBuffer, PatchLocationList: p.PatchLocationList}
			} else {
				a = dxgkddi.RenderArgs{Device: 1, Context: 1, CommandBuffer: cmd, AllocationList: lst}
				err = r.d.DxgkDdiRender(&a)
			}
			if err != nil {
				return
			}
			if !bug {
				if _, derr := isa.Decode(a.DmaBuffer); derr != nil {
					t.Fatalf("accepted buffer does not decode: %v", derr)
				}
			}
			for _, p := range a.PatchLocationList {
				if int(p.PatchOffset)+1 >= len(a.DmaBuffer) || int(p.AllocationIndex) >= len(lst) {
					t.Fatalf("patch %+v outside buffer of %d / list of %d", p, len(a.DmaBuffer), len(lst))
				}
			}
			for i := range lst {
				lst[i].PhysicalAddress = gpu.VRAMBase + uint64(i)<<20
			}
			if err := r.d.DxgkDdiPatch(&dxgkddi.PatchArgs{Context: 1, DmaBuffer: a.DmaBuffer, AllocationList: lst, PatchLocationList: a.PatchLocationList}); err != nil {
				t.Fatalf("patch of an accepted buffer: %v", err)
			}
		})
	})
}

// TestDrawRunsAsPackets: a run of DRAW packets validated at once (drawRun)
// translates as the packets one by one do — the DMA buffer, the patches,
// the packet count, the draws flag and the error — for random buffers of
// draws between other packets (addresses, a privileged FENCE, queries),
// cut short, with a DRAW header of another length, with and without
// checking.
func TestDrawRunsAsPackets(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 8))
	for range 3000 {
		var b isa.Builder
		for range r.IntN(30) {
			switch r.IntN(8) {
			case 0:
				b.SetTopology(isa.TopoTriangleList)
			case 1:
				b.SetVB(0, isa.NullAddress, 0, 36, 0)
			case 2:
				b.Fence(7)
			case 3:
				b.Query(isa.QueryTimestamp, isa.NullAddress)
			case 4:
				b.DrawIndexed(3, 0, 0)
			default:
				for range 1 + r.IntN(5) {
					b.Draw(3, uint32(r.IntN(9)))
				}
			}
		}
		cmd := b.Words
		switch r.IntN(4) {
		case 0:
			cmd = cmd[:r.IntN(len(cmd)+1)]
		case 1:
			if len(cmd) > 0 {
				cmd[r.IntN(len(cmd))] = uint32(isa.OpDraw)<<24 | uint32(r.IntN(4))
			}
		}
		for _, check := range []bool{true, false} {
			a := translator{ddi: "DxgkDdiRender", check: check}
			want := translator{ddi: "DxgkDdiRender", check: check, byPacket: true}
			err, err2 := a.run(cmd), want.run(cmd)
			if fmt.Sprint(err) != fmt.Sprint(err2) || !slices.Equal(a.dma, want.dma) || !slices.Equal(a.patches, want.patches) ||
				a.packets != want.packets || a.draws != want.draws || a.occlusion != want.occlusion {
				t.Fatalf("check %v, buffer %#x:\nruns: %v %d packets draws %v\nby packet: %v %d packets draws %v", check, cmd, err, a.packets, a.draws, err2, want.packets, want.draws)
			}
		}
	}
}
