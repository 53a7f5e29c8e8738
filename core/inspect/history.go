package inspect

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"d3dsim/core/d3d11"
	"d3dsim/core/machine"
	"d3dsim/core/scenario"
	"d3dsim/core/trace"
	"d3dsim/gpu/isa"
	"d3dsim/gpu/texel"
)

// History is everything that touched one texel of a resource up to an
// event, in the order the GPU did it: clears, draws' fragments (those that
// wrote it and those that were discarded or failed a test), copies,
// writes, paging, and the presents that read it, each with the API call
// that encoded it and the DMA buffer and fence that carried it.
type History struct {
	Resource string `json:"resource"`
	X        int    `json:"x"`
	Y        int    `json:"y"`
	// Mip and Slice are the subresource asked for (HistoryQueryAt; absent:
	// what the name shows, a view's first subresource).
	Mip     int            `json:"mip,omitempty"`
	Slice   int            `json:"slice,omitempty"`
	Format  string         `json:"format"`
	Event   uint64         `json:"event"`
	Call    CallRef        `json:"call"`
	Entries []HistoryEntry `json:"entries"`
	Final   string         `json:"final"` // the texel after the last entry
}

// HistoryEntry is one packet or fragment that touched the texel.
type HistoryEntry struct {
	Call   *CallRef `json:"call,omitempty"` // the API call that encoded it (nil: a paging buffer)
	What   string   `json:"what"`           // clear, draw, copy, write, fill, paging, present
	Packet string   `json:"packet"`
	DMA    uint64   `json:"dma"`
	Word   int      `json:"word"`
	Fence  uint64   `json:"fence,omitempty"` // the context fence that signals the DMA buffer (0: a paging buffer's)
	Paging string   `json:"paging,omitempty"`
	Before string   `json:"before"`
	After  string   `json:"after"`
	Read   bool     `json:"read,omitempty"` // the packet read the texel (a present's copy)
	// Fragment is a draw's fragment at the pixel.
	Fragment *FragmentInfo `json:"fragment,omitempty"`
	// Why is what happened, in a sentence.
	Why string `json:"why"`
}

// FragmentInfo is one fragment of a draw at the pixel.
type FragmentInfo struct {
	Primitive int      `json:"primitive"`
	Slice     int      `json:"slice,omitempty"` // the layered target's slice it went to (SV_RenderTargetArrayIndex)
	Front     bool     `json:"front"`
	Outputs   []string `json:"outputs,omitempty"` // the pixel shader's outputs, o0 first
	Depth     string   `json:"depth,omitempty"`   // the depth tested
	// Tests: each test that ran, in order, with what it compared.
	Tests     []string   `json:"tests,omitempty"`
	Passed    bool       `json:"passed"`
	Discarded bool       `json:"discarded,omitempty"`
	Coverage  string     `json:"coverage,omitempty"`
	Blend     *BlendInfo `json:"blend,omitempty"`
	Traced    bool       `json:"traced,omitempty"`
}

// BlendInfo is the output merger's blend of a fragment.
type BlendInfo struct {
	Enabled bool   `json:"enabled"`
	Source  string `json:"source"` // the shader's colour
	Source1 string `json:"source1,omitempty"`
	Dest    string `json:"dest"`    // the target's colour before
	Factor  string `json:"factor"`  // the blend factor
	Color   string `json:"color"`   // "SRC_ALPHA * src ADD INV_SRC_ALPHA * dst"
	Alpha   string `json:"alpha"`   // the alpha's equation
	Result  string `json:"result"`  // what it made
	Mask    string `json:"mask"`    // the write mask
	Written string `json:"written"` // the texel as stored
}

// watchEvent is a pixel event with the allocation it was watched in.
type watchEvent struct {
	ev    machine.PixelEvent
	alloc uint32
}

// PixelHistory is the history of texel (x, y) of resource name up to event
// seq.
func (s *Session) PixelHistory(j *Journal, seq uint64, name string, x, y int) (*History, error) {
	a, err := s.HistoryQuery(j, seq, name, x, y).Run()
	if err != nil {
		return nil, err
	}
	return a.(*History), nil
}

// HistoryQuery is PixelHistory as a query the page runs a slice at a time.
func (s *Session) HistoryQuery(j *Journal, seq uint64, name string, x, y int) *Query {
	return s.HistoryQueryAt(j, seq, name, nil, x, y)
}

// Subresource names a texture's level and array slice (a Texture3D's
// depth slice of the level), as D3D11CalcSubresource's MipSlice and
// ArraySlice do.
type Subresource struct {
	Mip   int `json:"mip"`
	Slice int `json:"slice"`
}

// PixelHistoryAt is PixelHistory of texel (x, y) of subresource sub of the
// resource name is (or views); sub nil: what name shows.
func (s *Session) PixelHistoryAt(j *Journal, seq uint64, name string, sub *Subresource, x, y int) (*History, error) {
	a, err := s.HistoryQueryAt(j, seq, name, sub, x, y).Run()
	if err != nil {
		return nil, err
	}
	return a.(*History), nil
}

// HistoryQueryAt is PixelHistoryAt as a query the page runs a slice at a
// time.
func (s *Session) HistoryQueryAt(j *Journal, seq uint64, name string, sub *Subresource, x, y int) *Query {
	k, err := s.at(j, seq)
	if err != nil {
		return failed(err)
	}
	return s.watchQuery(j, k, seq, name, sub, x, y, nil, func(w *watched) (any, error) { return w.h, nil })
}

// watched is what a watched run saw: the history and the events it was
// made of (in the same order).
type watched struct {
	h       *History
	evs     []watchEvent
	clipped int // the copy's draws clipped to the texel's block
	// The copy's GPU statistics and virtual time once its work before the
	// event was done (a clipped copy's are the whole copy's: its tests).
	stats machine.GPUStats
	now   int64
}

// watchQuery runs the scenario to call k with a pixel watch on texel (x,
// y) of resource name (as the name is bound at the event), then lets the
// GPU finish the work before the event, makes the history and hands it to
// answer. traced, if not nil, chooses the draws whose pixel program is
// traced (by DMA buffer and word, with the copy's journal).
//
// The copy's draws that hold the texel are clipped to its 8x8 block and
// charged what the run's journal j says they charged (gpu's watchclip.go):
// the history needs one pixel, not the frame (1,000 blended full-target
// draws of 64x64: the copy blends 64,000 pixels instead of 4,096,000). If
// the copy then reads pixels a clipped draw left undrawn (the target
// sampled as a texture, say), the question runs again without clipping.
func (s *Session) watchQuery(j *Journal, k int, seq uint64, name string, sub *Subresource, x, y int, traced func(j *Journal, dma uint64, word int) bool, answer func(*watched) (any, error)) *Query {
	q := s.watchQueryClip(j, k, seq, name, sub, x, y, traced, answer)
	q.again = func() *Query { return s.watchQueryClip(nil, k, seq, name, sub, x, y, traced, answer) }
	return q
}

// errSpoiled: a clipped copy read what it did not draw.
var errSpoiled = errors.New("inspect: the clipped copy read pixels it did not draw")

// watchQueryClip is watchQuery's copy, clipped by the charges of journal
// main (nil: not clipped).
func (s *Session) watchQueryClip(main *Journal, k int, seq uint64, name string, sub *Subresource, x, y int, traced func(j *Journal, dma uint64, word int) bool, answer func(*watched) (any, error)) *Query {
	var evs []watchEvent
	var cur uint32 // the allocation the name's resource has now
	var size int
	var m *machine.Machine
	var rj *Journal
	var pw *machine.PixelWatch
	setup := func(r *scenario.Run, j *Journal) {
		m, rj = r.Machine(), j
		var off uint64 // the texel in the allocation (subres.go)
		w := &machine.PixelWatch{
			Where: func() (uint64, bool) {
				if cur == 0 {
					return 0, false
				}
				in, ok := m.Allocation(cur)
				if !ok {
					return 0, false
				}
				return in.Address + off, true
			},
			On: func(e machine.PixelEvent) { evs = append(evs, watchEvent{e, cur}) },
		}
		if traced != nil {
			w.Trace = func(dma uint64, word int) bool { return traced(rj, dma, word) }
		}
		if main != nil {
			w.Clip = main.charge
		}
		pw = w
		// After each call (on the application's thread, between the
		// layers' locks): the allocation the name's resource has now.
		j.after = append(j.after, func() {
			cur = 0
			res, err := resourceOf(r, name)
			if err != nil || !res.Alive() || res.Kind == d3d11.KindBuffer || x < 0 || y < 0 {
				return
			}
			o, tw, th, n, ok := watchedTexel(r, name, sub, res, x, y)
			if a := m.Allocations(res); len(a) > 0 && ok && x < tw && y < th {
				cur, size, off = a[len(a)-1], n, o
				w.Size = size
			}
		})
		m.SetPixelWatch(w)
	}
	return s.query(k, setup, func(r *scenario.Run, j *Journal) (any, error) {
		w, err := watchedHistory(r, j, m, k, seq, name, sub, x, y, &evs)
		if err == nil && pw.Spoiled != "" {
			return nil, fmt.Errorf("%w: %s", errSpoiled, pw.Spoiled)
		}
		if err != nil {
			return nil, err
		}
		w.clipped = pw.Clipped
		w.stats, w.now = m.GPUStats(), m.Sim().Now()
		return answer(w)
	})
}

// watchedHistory makes the history once the watched copy reached the
// event: it lets the GPU finish the work before it, and keeps the events
// of the allocation the name's resource has at the event.
func watchedHistory(r *scenario.Run, j *Journal, m *machine.Machine, k int, seq uint64, name string, sub *Subresource, x, y int, seen *[]watchEvent) (*watched, error) {
	res, err := resourceOf(r, name)
	if err != nil {
		return nil, err
	}
	if res.Kind == d3d11.KindBuffer {
		return nil, fmt.Errorf("inspect: %s is a buffer: a pixel history is a texture's", name)
	}
	if sub != nil {
		if err := subresourceExists(res, *sub); err != nil {
			return nil, err
		}
	}
	off, tw, th, size, ok := watchedTexel(r, name, sub, res, x, y)
	if !ok {
		tw, th = int(res.Desc.Width), int(res.Desc.Height)
	}
	if x < 0 || y < 0 || x >= tw || y >= th {
		return nil, fmt.Errorf("inspect: pixel %d,%d is outside %s (%dx%d)", x, y, name, tw, th)
	}
	if err := r.Settle(); err != nil {
		return nil, fmt.Errorf("inspect: the GPU cannot finish the work before event %d: %v", seq, err)
	}
	m.SetPixelWatch(nil)
	allocs := m.Allocations(res)
	if len(allocs) == 0 {
		return nil, fmt.Errorf("inspect: %s has no memory", name)
	}
	target := allocs[len(allocs)-1]
	g := machine.GPUFormat(res.Desc.Format)
	h := &History{Resource: res.Name(), X: x, Y: y, Format: d3d11.FormatName(res.Desc.Format), Event: seq, Call: j.callRef(k)}
	if sub != nil {
		h.Mip, h.Slice = sub.Mip, sub.Slice
	}
	w := &watched{h: h}
	for _, we := range *seen { // (the GPU ran most of them in Settle)
		if we.alloc != target {
			continue
		}
		w.evs = append(w.evs, we)
		h.Entries = append(h.Entries, historyEntry(j, r.Recorder(), g, &we.ev, target))
	}
	if data, err := m.ReadBack(res); err == nil && ok {
		if off+uint64(size) <= uint64(len(data)) {
			h.Final = texelText(g, data[off:off+uint64(size)])
		}
	}
	return w, nil
}

// historyEntry describes one pixel event.
func historyEntry(j *Journal, rec *trace.Recorder, g isa.Format, e *machine.PixelEvent, alloc uint32) HistoryEntry {
	he := HistoryEntry{DMA: e.DMA, Word: e.Word, Packet: e.Op.String(), Before: texelText(g, e.Before), After: texelText(g, e.After), Read: !e.Write}
	if k := j.packetCall(e.DMA, e.Word); k >= 0 {
		c := j.callRef(k)
		he.Call = &c
	}
	if di, ok := j.dmaByID[e.DMA]; ok {
		he.Fence = j.dmas[di].info.Fence
		if t, ok := j.packetText(di, e.Word); ok {
			he.Packet = t
		}
	} else {
		he.Paging = pagingOf(rec, e.DMA, "a"+strconv.FormatUint(uint64(alloc), 10))
	}
	switch e.Op {
	case isa.OpClearRT, isa.OpClearDS, isa.OpClearStencil:
		he.What = "clear"
		he.Why = fmt.Sprintf("cleared: %s -> %s", he.Before, he.After)
	case isa.OpCopy:
		he.What = "copy"
		if !e.Write {
			he.Why = "read by a copy"
			if di, ok := j.dmaByID[e.DMA]; ok && j.dmas[di].info.Present {
				he.What, he.Why = "present", "read by the present's copy into the redirection surface (DxgkDdiPresent's Blt)"
			}
		} else {
			he.Why = fmt.Sprintf("copied into: %s -> %s", he.Before, he.After)
		}
	case isa.OpWrite:
		he.What, he.Why = "write", fmt.Sprintf("written by UpdateSubresource's WRITE: %s -> %s", he.Before, he.After)
	case isa.OpFill:
		he.What, he.Why = "fill", fmt.Sprintf("filled: %s -> %s", he.Before, he.After)
	case isa.OpScanout:
		he.What, he.Why = "present", "scanned out by the display engine"
	case isa.OpDraw, isa.OpDrawIndexed, isa.OpDrawInstanced, isa.OpDrawIndexedInstanced:
		he.What = "draw"
		he.Fragment, he.Why = fragmentInfo(g, e)
	default:
		he.What = strings.ToLower(e.Op.String())
		he.Why = fmt.Sprintf("%s: %s -> %s", e.Op, he.Before, he.After)
	}
	if _, ok := j.dmaByID[e.DMA]; !ok {
		he.What = "paging"
		he.Why = fmt.Sprintf("paging buffer %d (%s): %s -> %s", e.DMA, orNone(he.Paging), he.Before, he.After)
	}
	return he
}

// pagingOf is what a paging buffer did to allocation alloc, from its
// DxgkDdiBuildPagingBuffer events ("" when the buffer is not one, or the
// trace let it go).
func pagingOf(rec *trace.Recorder, dma uint64, alloc string) string {
	var ops []string
	for _, e := range rec.Events() {
		if e.DMA == dma && e.Kind == trace.Call && e.Name == "DxgkDdiBuildPagingBuffer" && e.Handle == alloc {
			ops = append(ops, e.Args.String())
		}
	}
	return strings.Join(ops, "; ")
}

// fragmentInfo describes a draw's fragment and says what became of it.
func fragmentInfo(g isa.Format, e *machine.PixelEvent) (*FragmentInfo, string) {
	f := e.Fragment
	fi := &FragmentInfo{Primitive: f.Prim, Slice: f.Slice, Front: f.Front, Passed: f.Passed, Discarded: f.Discarded, Coverage: f.Coverage, Traced: f.Trace != nil}
	if !f.Discarded { // a discarded lane's outputs were never written
		for _, o := range f.Outputs {
			fi.Outputs = append(fi.Outputs, vec4(o, g))
		}
	}
	if !f.Discarded && f.Coverage == "" {
		fi.Depth = fmtF(f.Depth)
		if f.OwnDepth {
			fi.Depth += " (SV_Depth)"
		}
	}
	if f.StencilTest {
		res := "passed"
		if !f.StencilPass {
			res = "failed"
		}
		fi.Tests = append(fi.Tests, fmt.Sprintf("stencil ref %d %s stored %d (read mask %#x): %s; stencil %d -> %d",
			f.StencilRef, cmpName(f.StencilFunc), f.StencilBefore, f.StencilReadMask, res, f.StencilBefore, f.StencilAfter))
	}
	if f.DepthTest {
		res := "passed"
		if !f.DepthPass {
			res = "failed"
		}
		w := ""
		if f.DepthPass && f.DepthWrite {
			w = ", written"
		}
		fi.Tests = append(fi.Tests, fmt.Sprintf("depth %s %s %s: %s%s", fmtF(f.Depth), cmpName(f.DepthFunc), fmtF(f.DepthBefore), res, w))
	}
	if b := f.Blend; b != nil {
		bi := &BlendInfo{Enabled: b.Enable, Source: vecF(b.Src), Dest: vecF(b.Dst), Factor: vecF(b.Factor), Result: vecF(b.Result),
			Mask: fmt.Sprintf("%#x", b.Mask), Written: texelText(g, e.After)}
		if b.Src1 != ([4]float32{}) {
			bi.Source1 = vecF(b.Src1)
		}
		if b.Enable {
			bi.Color = fmt.Sprintf("%s * src %s %s * dst", blendName(b.SrcBlend), blendOpName(b.Op), blendName(b.DestBlend))
			bi.Alpha = fmt.Sprintf("%s * src %s %s * dst", blendName(b.SrcAlpha), blendOpName(b.OpAlpha), blendName(b.DestAlpha))
		}
		fi.Blend = bi
	}
	var why string
	switch {
	case f.Discarded:
		why = "discarded by the pixel shader (discard): nothing written"
	case f.Coverage != "":
		why = "dropped by the output merger: " + f.Coverage
	case f.StencilTest && !f.StencilPass:
		why = "failed the stencil test: " + fi.Tests[0]
	case f.DepthTest && !f.DepthPass:
		why = "failed the depth test: " + fi.Tests[len(fi.Tests)-1]
	case f.Fault:
		why = "the draw faulted: its fragments take the warning colour " + texelText(g, e.After)
	case fi.Blend != nil && fi.Blend.Enabled:
		why = fmt.Sprintf("blended: %s = %s with src %s, dst %s -> %s", fi.Blend.Result, fi.Blend.Color, fi.Blend.Source, fi.Blend.Dest, fi.Blend.Written)
	case fi.Blend != nil:
		why = fmt.Sprintf("written: %s -> %s", fi.Blend.Source, fi.Blend.Written)
	case f.Passed:
		why = fmt.Sprintf("passed: %s -> %s", texelText(g, e.Before), texelText(g, e.After))
	default:
		why = "no colour written"
	}
	return fi, why
}

// The GPU's numbers of comparisons, blend factors and operations, by
// their D3D11 names.
var (
	gpuCmps     = []string{"NEVER", "LESS", "EQUAL", "LESS_EQUAL", "GREATER", "NOT_EQUAL", "GREATER_EQUAL", "ALWAYS"}
	gpuBlends   = map[uint32]string{isa.BlendZero: "ZERO", isa.BlendOne: "ONE", isa.BlendSrcColor: "SRC_COLOR", isa.BlendInvSrcColor: "INV_SRC_COLOR", isa.BlendSrcAlpha: "SRC_ALPHA", isa.BlendInvSrcAlpha: "INV_SRC_ALPHA", isa.BlendDestAlpha: "DEST_ALPHA", isa.BlendInvDestAlpha: "INV_DEST_ALPHA", isa.BlendDestColor: "DEST_COLOR", isa.BlendInvDestColor: "INV_DEST_COLOR", isa.BlendSrcAlphaSat: "SRC_ALPHA_SAT", isa.BlendFactor: "BLEND_FACTOR", isa.BlendInvFactor: "INV_BLEND_FACTOR", isa.BlendSrc1Color: "SRC1_COLOR", isa.BlendInvSrc1Color: "INV_SRC1_COLOR", isa.BlendSrc1Alpha: "SRC1_ALPHA", isa.BlendInvSrc1Alpha: "INV_SRC1_ALPHA"}
	gpuBlendOps = []string{"ADD", "SUBTRACT", "REV_SUBTRACT", "MIN", "MAX"}
)

func cmpName(fn uint32) string {
	if int(fn) < len(gpuCmps) {
		return gpuCmps[fn]
	}
	return strconv.FormatUint(uint64(fn), 10)
}

func blendName(b uint32) string {
	if n, ok := gpuBlends[b]; ok {
		return n
	}
	return strconv.FormatUint(uint64(b), 10)
}

func blendOpName(b uint32) string {
	if int(b) < len(gpuBlendOps) {
		return gpuBlendOps[b]
	}
	return strconv.FormatUint(uint64(b), 10)
}

func fmtF(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }

func vecF(v [4]float32) string {
	return fmt.Sprintf("(%s, %s, %s, %s)", fmtF(float64(v[0])), fmtF(float64(v[1])), fmtF(float64(v[2])), fmtF(float64(v[3])))
}

// vec4 prints shader output bits: floats, or integers for an integer
// target's format.
func vec4(v [4]uint32, g isa.Format) string {
	if g.Int() {
		return fmt.Sprintf("(%d, %d, %d, %d)", int32(v[0]), int32(v[1]), int32(v[2]), int32(v[3]))
	}
	return vecF([4]float32{math.Float32frombits(v[0]), math.Float32frombits(v[1]), math.Float32frombits(v[2]), math.Float32frombits(v[3])})
}

// texelText prints a texel's bytes in format g ("" for none).
func texelText(g isa.Format, b []byte) string {
	info := g.Info()
	if len(b) < int(info.Bytes) || info.Bytes == 0 {
		return ""
	}
	b = b[:info.Bytes]
	if info.Depth {
		d := depthOf(g, b)
		if info.Stencil {
			s := b[3]
			if g == isa.FmtD32FS8 {
				s = b[4]
			}
			return fmt.Sprintf("depth %s stencil %d", fmtF(d), s)
		}
		return "depth " + fmtF(d)
	}
	if info.Block != 1 {
		return fmt.Sprintf("%x", b)
	}
	v := texel.Decode(g, b)
	var parts []string
	for c := range max(1, min(int(info.Channels), 4)) {
		switch info.Number {
		case isa.NumUInt:
			parts = append(parts, strconv.FormatUint(uint64(v[c]), 10))
		case isa.NumSInt:
			parts = append(parts, strconv.FormatInt(int64(int32(v[c])), 10))
		default:
			parts = append(parts, fmtF(float64(math.Float32frombits(v[c]))))
		}
	}
	s := "(" + strings.Join(parts, ", ") + ")"
	if info.Number == isa.NumUNorm && info.Bytes == 4 && info.Channels == 4 {
		s += fmt.Sprintf(" #%02x%02x%02x%02x", byte(math.Float32frombits(v[0])*255+0.5), byte(math.Float32frombits(v[1])*255+0.5),
			byte(math.Float32frombits(v[2])*255+0.5), byte(math.Float32frombits(v[3])*255+0.5))
	}
	return s
}

func depthOf(g isa.Format, b []byte) float64 {
	switch g {
	case isa.FmtD32F, isa.FmtD32FS8:
		return float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))
	case isa.FmtD16:
		return float64(binary.LittleEndian.Uint16(b)) / 0xFFFF
	}
	return float64(binary.LittleEndian.Uint32(b)&0xFFFFFF) / 0xFFFFFF
}
