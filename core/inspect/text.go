package inspect

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Text forms of the answers, as `d3dsim inspect` prints them (and as
// tutorials and bug reports quote them).

func (c CallRef) String() string {
	s := fmt.Sprintf("%s (event %d, line %d", c.Name, c.Seq, c.Line)
	if c.Ctx != "" {
		s += ", " + c.Ctx
	}
	if c.Failed {
		s += ", failed"
	}
	return s + ")"
}

// Text prints the state, stage by stage: each binding's runtime side, then
// the packets the UMD encoded for it.
func (st *State) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "state of %s at event %d: %s\n", st.Context, st.Event, st.Call)
	e := st.Encoded
	switch {
	case e.Note != "":
		fmt.Fprintf(&b, "UMD: %s\n", e.Note)
	case e.Pending:
		fmt.Fprintf(&b, "UMD: still in the immediate context's command buffer (not submitted yet; addresses are allocation-list entries)\n")
	default:
		fmt.Fprintf(&b, "UMD: DMA buffer %d (fence %d): %d allocations, %d patch locations", e.DMA, e.Fence, e.AllocLen, e.Patches)
		if e.Word >= 0 {
			fmt.Fprintf(&b, "; the call's packet %s at word %d", e.Packet, e.Word)
		}
		b.WriteString("\n")
	}
	for _, sg := range st.Stages {
		fmt.Fprintf(&b, "%s\n", sg.Name)
		for _, r := range sg.Rows {
			obj := ""
			if r.Object != "" {
				obj = r.Object
				if r.Debug != "" {
					obj += fmt.Sprintf(" %q", r.Debug)
				}
				if r.Handle != "" {
					obj += " (" + r.Handle + ")"
				}
				obj += ": "
			}
			al := ""
			if len(r.Allocations) > 0 {
				al = " [" + strings.Join(r.Allocations, " ") + "]"
			}
			fmt.Fprintf(&b, "  %-20s runtime: %s%s%s\n", r.Binding, obj, r.Value, al)
			for _, f := range r.Fields {
				fmt.Fprintf(&b, "  %-20s          %s = %s\n", "", f.Name, f.Value)
			}
			if r.CBuffer != nil {
				for _, v := range r.CBuffer.Variables {
					fmt.Fprintf(&b, "  %-20s          %s %s at offset %d\n", "", v.Type, v.Name, v.Offset)
				}
			}
			for _, p := range r.Packets {
				fmt.Fprintf(&b, "  %-20s UMD:     %s (word %d)", "", p.Text, p.Word)
				for _, a := range p.Addresses {
					switch {
					case a.ListIndex < 0:
						b.WriteString("; no allocation")
					case a.Patch >= 0:
						fmt.Fprintf(&b, "; %s+%d (list entry %d) patched at word %d", a.Allocation, a.Offset, a.ListIndex, a.Patch)
					default:
						fmt.Fprintf(&b, "; %s+%d (list entry %d)", a.Allocation, a.Offset, a.ListIndex)
					}
				}
				b.WriteString("\n")
			}
		}
	}
	return b.String()
}

// Text prints the resource: what it is, where its memory lives, and its
// texels (the region asked for) or its rows.
func (r *Resource) Text() string {
	var b strings.Builder
	how := "with the GPU's work before the event done"
	if !r.Settled {
		how = "as the GPU had it at that moment (work before the event may still be queued)"
	}
	fmt.Fprintf(&b, "%s at event %d, %s: %s\n", r.Name, r.Event, r.Call, how)
	size := fmt.Sprintf("%dx%d", r.Width, r.Height)
	if r.Kind == "Buffer" {
		size = fmt.Sprintf("%d bytes", r.Width)
	}
	slices := "array slice"
	if r.Kind == "Texture3D" {
		slices = "depth slice"
	}
	sub := ""
	if r.Mips > 1 || r.Slices > 1 {
		sub = fmt.Sprintf("; mip %d, slice %d", r.Mip, r.Slice)
	}
	if r.Samples > 1 {
		size = fmt.Sprintf("%dx%d", r.Width/r.Samples, r.Height)
		sub += fmt.Sprintf("; %d samples a pixel, side by side in %dx%d texels: texel x*%d+s is sample s of pixel x", r.Samples, r.Width, r.Height, r.Samples)
	}
	fmt.Fprintf(&b, "%s %s %s, %s, %s; %s, %s%s\n", r.Kind, size, r.Format, r.Usage, r.BindFlags, plural(r.Mips, "mip level"), plural(r.Slices, slices), sub)
	for _, in := range r.Instances {
		cur := "earlier instance"
		if in.Current {
			cur = "current"
		}
		used := "not used by the GPU since it became current"
		if in.Fence != 0 {
			used = fmt.Sprintf("last used by fence %d of %s", in.Fence, orNone(in.Context))
		}
		fmt.Fprintf(&b, "  %s (%s): %s %s, %d bytes; %s; %s\n", in.Allocation, cur, in.Segment, in.Address, in.Size, used, in.Where)
	}
	for _, rn := range r.Renames {
		fmt.Fprintf(&b, "  renamed at event %d: %s\n", rn.Seq, rn.Msg)
	}
	if t := r.Texture; t != nil {
		fmt.Fprintf(&b, "texels %d,%d %dx%d (%s, %s)", t.Region[0], t.Region[1], t.Region[2], t.Region[3], strings.Join(t.Channels, " "), t.Number)
		if t.Number == "float" || t.Depth {
			var rng []string
			for c := range t.Channels {
				rng = append(rng, fmt.Sprintf("%s %s..%s", t.Channels[c], fmtF(t.Min[c]), fmtF(t.Max[c])))
			}
			fmt.Fprintf(&b, "; range %s", strings.Join(rng, ", "))
		}
		b.WriteString(":\n")
		for _, row := range t.Texels {
			for _, tx := range row {
				fmt.Fprintf(&b, "  %d,%d  %s  %s\n", tx.X, tx.Y, tx.Text, tx.Hex)
			}
		}
	}
	if bf := r.Buffer; bf != nil {
		fmt.Fprintf(&b, "as %s", bf.Layout)
		if bf.Note != "" {
			fmt.Fprintf(&b, ": %s", bf.Note)
		}
		fmt.Fprintf(&b, " (rows %d..%d of %d)\n", bf.First, bf.First+len(bf.Rows), bf.Total)
		fmt.Fprintf(&b, "  %s\n", strings.Join(bf.Columns, " | "))
		for _, row := range bf.Rows {
			fmt.Fprintf(&b, "  %s\n", strings.Join(row, " | "))
		}
	}
	return b.String()
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// Text prints the history, one numbered entry per packet or fragment.
func (h *History) Text() string {
	var b strings.Builder
	sub := ""
	if h.Mip != 0 || h.Slice != 0 {
		sub = fmt.Sprintf(" mip %d slice %d", h.Mip, h.Slice)
	}
	fmt.Fprintf(&b, "pixel %d,%d of %s%s (%s) up to event %d, %s:\n", h.X, h.Y, h.Resource, sub, h.Format, h.Event, h.Call)
	for i, e := range h.Entries {
		call := "(paging, by Dxgkrnl)"
		if e.Call != nil {
			call = e.Call.String()
		}
		carried := fmt.Sprintf("DMA buffer %d", e.DMA)
		if e.Fence != 0 {
			carried += fmt.Sprintf(" (fence %d)", e.Fence)
		}
		fmt.Fprintf(&b, "%3d. %-7s %s, %s: %s\n", i+1, e.What, call, carried, e.Why)
		if f := e.Fragment; f != nil {
			fmt.Fprintf(&b, "       primitive %d (%s)", f.Primitive, map[bool]string{true: "front", false: "back"}[f.Front])
			if f.Slice != 0 {
				fmt.Fprintf(&b, " to slice %d", f.Slice)
			}
			if len(f.Outputs) > 0 {
				fmt.Fprintf(&b, "; shader output o0 %s", f.Outputs[0])
				for k, o := range f.Outputs[1:] {
					fmt.Fprintf(&b, ", o%d %s", k+1, o)
				}
			}
			if f.Depth != "" {
				fmt.Fprintf(&b, "; depth %s", f.Depth)
			}
			b.WriteString("\n")
			for _, t := range f.Tests {
				fmt.Fprintf(&b, "       %s\n", t)
			}
			if bl := f.Blend; bl != nil {
				if bl.Enabled {
					fmt.Fprintf(&b, "       blend: colour %s, alpha %s; src %s, dst %s, factor %s -> %s, mask %s, stored %s\n",
						bl.Color, bl.Alpha, bl.Source, bl.Dest, bl.Factor, bl.Result, bl.Mask, bl.Written)
				} else {
					fmt.Fprintf(&b, "       no blending: src %s, mask %s, stored %s\n", bl.Source, bl.Mask, bl.Written)
				}
			}
		}
	}
	fmt.Fprintf(&b, "final: %s\n", h.Final)
	return b.String()
}

// RegistersAt returns the quad's registers just before step i (i ==
// len(Steps): after the last): for register r, component c, lane l, the
// bits at (r*4+c)*4+l.
func (s *Steps) RegistersAt(i int) []uint32 {
	regs := append([]uint32(nil), s.Start...)
	for _, st := range s.Steps[:min(max(i, 0), len(s.Steps))] {
		for _, w := range st.Writes {
			regs[(w.Reg*4+w.Comp)*4+w.Lane] = w.Bits
		}
	}
	return regs
}

// Text prints the steps: the inputs, then per instruction the HLSL line,
// the DXBC and the ISA instruction, and the registers it changed in the
// pixel's lane with their derivatives across the quad.
func (s *Steps) Text() string {
	var b strings.Builder
	switch {
	case s.Vertex != nil:
		fmt.Fprintf(&b, "vertex %d (SV_VertexID %d) of instance %d in %s: %s shader %s, lane %d of its quad of vertices\n",
			*s.Vertex, s.VertexID, s.Instance, s.Draw, s.Stage, s.Shader, s.Lane)
	case s.Group != nil && s.Thread != nil:
		g, t := *s.Group, *s.Thread
		fmt.Fprintf(&b, "thread %d,%d,%d of group %d,%d,%d in %s: %s shader %s, lane %d of its quad of threads\n",
			t[0], t[1], t[2], g[0], g[1], g[2], s.Draw, s.Stage, s.Shader, s.Lane)
	default:
		fmt.Fprintf(&b, "pixel %d,%d of %s in %s: %s shader %s, fragment %d of %d, primitive %d, lane %d of the quad %v\n",
			s.X, s.Y, s.Resource, s.Draw, s.Stage, s.Shader, s.Fragment+1, s.Fragments, s.Primitive, s.Lane, s.Quad)
	}
	pixel := s.Stage == "ps"
	if !pixel {
		// Vertex and compute registers hold integers as often as floats
		// (ids, indices): a denormal's bits read as the integer.
		vecBits := func(regs []uint32, r, l int) string {
			var p []string
			for c := range 4 {
				p = append(p, wordText(regs[(r*4+c)*4+l]))
			}
			return "(" + strings.Join(p, ", ") + ")"
		}
		return s.stepsText(&b, vecBits)
	}
	regs := s.RegistersAt(0)
	vec := func(regs []uint32, r, l int) string {
		var p []string
		for c := range 4 {
			p = append(p, fmtF(val(regs, r, c, l)))
		}
		return "(" + strings.Join(p, ", ") + ")"
	}
	for r, n := range s.Registers {
		if strings.HasPrefix(n, "v") {
			fmt.Fprintf(&b, "  input %s = %s\n", n, vec(regs, r, s.Lane))
		}
	}
	hl := strings.Split(s.HLSL, "\n")
	for i, st := range s.Steps {
		mark := " "
		if !st.Active {
			mark = "-" // the pixel's lane did not run it
		}
		fmt.Fprintf(&b, "%s%4d. pc %-3d", mark, i+1, st.PC)
		if st.Line > 0 && st.Line <= len(hl) {
			fmt.Fprintf(&b, " HLSL %d: %s |", st.Line, strings.TrimSpace(hl[st.Line-1]))
		}
		if st.DXBC != "" {
			fmt.Fprintf(&b, " DXBC %s |", st.DXBC)
		}
		fmt.Fprintf(&b, " ISA %s  (quad lanes %s)\n", st.ISA, st.Quad)
		after := s.RegistersAt(i + 1)
		seen := map[int]bool{}
		for _, w := range st.Writes {
			if seen[w.Reg] {
				continue
			}
			seen[w.Reg] = true
			name := s.Registers[w.Reg]
			if k := strings.IndexByte(name, ' '); k >= 0 {
				name = name[:k]
			}
			ddx, ddy := []string{}, []string{}
			// the quad's coarse derivatives: across its top row, down its
			// left column, where both lanes ran the step (a program with no
			// derivative instruction runs only its covered lanes: the
			// others hold what they held before, not a neighbour's value).
			for c := range 4 {
				ddx = append(ddx, quadDiff(st.Quad, after, w.Reg, c, 1))
				ddy = append(ddy, quadDiff(st.Quad, after, w.Reg, c, 2))
			}
			fmt.Fprintf(&b, "         %s = %s  ddx (%s) ddy (%s)\n", name, vec(after, w.Reg, s.Lane), strings.Join(ddx, ", "), strings.Join(ddy, ", "))
		}
	}
	end := "written"
	switch {
	case s.Discarded:
		end = "discarded"
	case !s.Passed:
		end = "not written (a test failed)"
	}
	fmt.Fprintf(&b, "the fragment was %s", end)
	if s.Truncated {
		b.WriteString("; the trace stopped at its limit of steps")
	}
	b.WriteString("\n")
	return b.String()
}

// wordText is a register word as a float, or as an integer when its bits
// are a denormal (an id, an index, a count).
func wordText(x uint32) string {
	if x != 0 && x>>23&0xFF == 0 {
		return strconv.FormatInt(int64(int32(x)), 10)
	}
	return fmtF(float64(math.Float32frombits(x)))
}

// stepsText is a vertex's or a compute thread's steps (Text after the
// head line): the inputs, then each step with the registers it changed in
// the lane followed (no derivatives: the quad is four vertices or threads).
func (s *Steps) stepsText(b *strings.Builder, vec func(regs []uint32, r, l int) string) string {
	regs := s.RegistersAt(0)
	for r, n := range s.Registers {
		if strings.HasPrefix(n, "v") {
			fmt.Fprintf(b, "  input %s = %s\n", n, vec(regs, r, s.Lane))
		}
	}
	hl := strings.Split(s.HLSL, "\n")
	for i, st := range s.Steps {
		mark := " "
		if !st.Active {
			mark = "-"
		}
		fmt.Fprintf(b, "%s%4d. pc %-3d", mark, i+1, st.PC)
		if st.Line > 0 && st.Line <= len(hl) {
			fmt.Fprintf(b, " HLSL %d: %s |", st.Line, strings.TrimSpace(hl[st.Line-1]))
		}
		if st.DXBC != "" {
			fmt.Fprintf(b, " DXBC %s |", st.DXBC)
		}
		fmt.Fprintf(b, " ISA %s  (quad lanes %s)\n", st.ISA, st.Quad)
		after := s.RegistersAt(i + 1)
		seen := map[int]bool{}
		for _, w := range st.Writes {
			if seen[w.Reg] || w.Lane != s.Lane {
				continue
			}
			seen[w.Reg] = true
			name := s.Registers[w.Reg]
			if k := strings.IndexByte(name, ' '); k >= 0 {
				name = name[:k]
			}
			fmt.Fprintf(b, "         %s = %s\n", name, vec(after, w.Reg, s.Lane))
		}
	}
	if s.Truncated {
		b.WriteString("the trace stopped at its limit of steps\n")
	}
	return b.String()
}

// quadDiff is component c of register reg in quad lane l minus lane 0's,
// or "·" when quad (the lanes that ran the step, "1" each, lane 0 first)
// says one of the two did not run it.
func quadDiff(quad string, regs []uint32, reg, c, l int) string {
	if len(quad) > l && (quad[0] != '1' || quad[l] != '1') {
		return "·"
	}
	return fmtF(val(regs, reg, c, l) - val(regs, reg, c, 0))
}

// val is component c of register r in quad lane l, as a float.
func val(regs []uint32, r, c, l int) float64 {
	return float64(math.Float32frombits(regs[(r*4+c)*4+l]))
}
