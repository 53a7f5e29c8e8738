package shadertest

import (
	"d3dsim/core/hlsl"
	"encoding/hex"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// A generated scenario's lines carry a role, so that a failure the
// scenario reports at a line is classified: a shader's block, a resource
// the device refused, a probe that read the wrong value.
type role struct {
	kind string // shader, resource, draw, probe, setup
	what string // the stage, the resource, the probe's directive
	line int    // the shader_test line it comes from
}

// script is a scenario being written, with the role of each line.
type script struct {
	b     strings.Builder
	line  int
	roles map[int]role
	// replay: the lines being written replay an earlier case (Case.Replay):
	// its blocks are named with the prefix pre_, its probes left out, and
	// its lines take this role.
	replay *role
}

func (s *script) add(r role, format string, args ...any) {
	if s.replay != nil && r.kind != "" {
		r = *s.replay
	}
	text := fmt.Sprintf(format, args...)
	s.b.WriteString(text)
	s.b.WriteByte('\n')
	n := strings.Count(text, "\n") + 1
	for i := 0; i < n; i++ {
		s.line++
		if r.kind != "" {
			s.roles[s.line] = r
		}
	}
}

// Bytecode is what a caller supplies instead of d3dsim's compiler: the
// compiled shader of a stage, or why it did not compile. flags are the
// compile flags the case asks for ([require] options: backcompat is
// hlsl.FlagBackCompat, fxc's /Gec).
type Bytecode func(stage, profile, source string, flags hlsl.Flags) ([]byte, error)

// supported stages a scenario can create (CreateVertexShader,
// CreatePixelShader).
var scenarioStages = map[string]string{"vs": "CreateVertexShader", "ps": "CreatePixelShader", "cs": "CreateComputeShader",
	"hs": "CreateHullShader", "ds": "CreateDomainShader"}

// stageVar is the scenario's variable of a stage's shader ("ds" is the
// depth-stencil state's).
func stageVar(stage string) string {
	if v, ok := map[string]string{"hs": "hsh", "ds": "dsh"}[stage]; ok {
		return v
	}
	return stage
}

// elemFormats are the input-layout formats the runner writes: the 32-bit
// channels of every kind, each a vertex-buffer format of feature level
// 11_0 ("Format support for Direct3D feature level 11.0 hardware").
var elemFormats = func() map[string]bool {
	m := map[string]bool{}
	for _, ch := range []string{"R32", "R32G32", "R32G32B32", "R32G32B32A32"} {
		for _, k := range []string{"FLOAT", "UINT", "SINT"} {
			m[ch+"_"+k] = true
		}
	}
	return m
}()

// unsupported is why d3dsim's device (through the scenario language)
// cannot run the case, "" when it can.
func (c *Case) unsupported() string {
	if c.Unsupported != "" {
		return c.Unsupported
	}
	for _, sh := range c.Shaders {
		if scenarioStages[sh.Stage] == "" {
			return map[string]string{"cs": "compute shaders", "hs": "hull shaders", "ds": "domain shaders", "gs": "geometry shaders"}[sh.Stage] +
				": the device has no such stage"
		}
	}
	compute := c.compute()
	rts := 0 // the output merger's render target slots, up to the last declared
	for _, r := range c.Resources {
		if r.Kind == "rtv" {
			rts = max(rts, r.Slot+1)
		}
	}
	for _, r := range c.Resources {
		switch {
		case r.Kind == "uav" && !compute && r.Slot < rts:
			return "[uav " + strconv.Itoa(r.Slot) + "] beside " + strconv.Itoa(rts) + " render target slots: the output merger's views go after its render targets (UAVStartSlot at least NumRTVs)"
		case r.Kind == "uav" && r.Dim == "2d" && r.Samples > 1:
			return "multisampled unordered access views ([uav " + strconv.Itoa(r.Slot) + "])"
		case r.Kind == "uav" && r.Slot >= 8:
			return "unordered access view slot " + strconv.Itoa(r.Slot) + " (the compute stage and the output merger have 8)"
		case r.Kind == "srv" && r.Dim == "buffer" && !r.Raw && r.Stride == 0 && r.TexelSize == 0:
			return "a buffer view of no format ([srv " + strconv.Itoa(r.Slot) + "])"
		case r.Samples > 1 && r.Kind == "srv" && len(r.Data) > 0:
			return "a multisampled [srv " + strconv.Itoa(r.Slot) + "] with data (a multisampled texture is created without data)"
		case r.Samples > 1 && r.Kind == "srv" && r.Dim != "2d":
			return "a multisampled [srv " + strconv.Itoa(r.Slot) + "] that is not a 2D texture"
		case r.Kind == "rtv" && r.Slot >= 8:
			return "render target slot " + strconv.Itoa(r.Slot) + " (the output merger has 8)"
		}
	}
	for _, s := range c.Samplers {
		if s.Filter != "point point point" && s.Filter != "linear linear linear" {
			return "sampler filter " + s.Filter + " (the device filters point or linear for min, mag and mip together)"
		}
	}
	for _, e := range c.Layout {
		if !elemFormats[e.Format] {
			return "vertex element format " + e.Format
		}
	}
	for _, cmd := range c.Cmds {
		switch {
		case cmd.Why != "":
			return cmd.Why
		case cmd.Op == "copy":
			if why := c.copyUnsupported(cmd); why != "" {
				return why
			}
		case cmd.Op == "draw" && compute:
			return "a draw in a case with a compute shader (the runner's scenario dispatches)"
		case cmd.Op == "probe" && cmd.Probe.Res != "uav" && compute:
			return "a probe of a render target in a case with a compute shader"
		case cmd.Op == "probe" && (cmd.Probe.Kind == "rd" || cmd.Probe.Kind == "rui64" || cmd.Probe.Kind == "ri64"):
			return "64-bit probes (" + cmd.Probe.Kind + ")"
		}
	}
	for _, o := range c.Options {
		// backcompat is fxc's /Gec (Case.flags); row-major and
		// column-major a pragma (sourceFor).
		if o == "unbounded-descriptor-arrays" {
			return "the compile option " + o
		}
	}
	return ""
}

// flags are the compile flags of the case's options, as shader_runner.c
// passes them to D3DCompile: backcompat is
// D3DCOMPILE_ENABLE_BACKWARDS_COMPATIBILITY.
func (c *Case) flags() hlsl.Flags {
	var f hlsl.Flags
	for _, o := range c.Options {
		if o == "backcompat" {
			f |= hlsl.FlagBackCompat
		}
	}
	return f
}

// sourceFor is a shader's text for a case: the compile options that set
// the default matrix packing become the pragma that does the same.
func (c *Case) sourceFor(sh *Shader) string {
	src := sh.Source
	for _, o := range c.Options {
		p := map[string]string{"row-major": "#pragma pack_matrix(row_major)", "column-major": "#pragma pack_matrix(column_major)"}[o]
		if p == "" {
			continue
		}
		// On the first line, which is empty (the section's header line),
		// so that the source keeps the file's line numbers.
		if !strings.HasPrefix(src, "\n") {
			src = "\n" + src
		}
		src = p + src
	}
	return src
}

// Scenario writes the case as a scenario. code, if set, holds each
// shader's bytecode (by stage), which the scenario then carries as bytes:
// instead of an hlsl block.
func (c *Case) Scenario(code map[string][]byte) (string, map[int]role) {
	s := &script{roles: map[int]role{}}
	c.write(s, code)
	return s.b.String(), s.roles
}

// write writes the case's scenario, or (s.replay) the lines that replay it
// within a later case's.
func (c *Case) write(s *script, code map[string][]byte) {
	if s.replay == nil {
		s.add(role{}, "# %s (%s): shader_test case, shader model %s", c.Name(), c.Category, c.Model)
	}
	shaderRef := map[string]string{}
	for _, sh := range c.Shaders {
		name := sh.Stage
		if s.replay != nil {
			name = "pre_" + name
		}
		if b, ok := code[sh.Stage]; ok {
			shaderRef[sh.Stage] = "bytes:" + hex.EncodeToString(b)
			continue
		}
		src := strings.TrimLeft(c.sourceFor(sh), "\n")
		if sh.Default {
			s.add(role{}, "# the vertex shader of `draw quad`")
		} else {
			s.add(role{}, "# [%s] of line %d", map[string]string{"vs": "vertex shader", "ps": "pixel shader", "hs": "hull shader", "ds": "domain shader"}[sh.Stage], sh.Line)
		}
		s.add(role{kind: "shader", what: sh.Stage, line: sh.Line}, "hlsl %s {\n%s}", name, strings.TrimRight(src, "\n")+"\n")
		shaderRef[sh.Stage] = fmt.Sprintf("hlsl:%s target=%s", name, sh.Profile(c.Model))
		if f := c.flags(); f != 0 {
			shaderRef[sh.Stage] += " flags=" + f.String()
		}
	}
	setup := role{kind: "setup"}
	if s.replay == nil {
		s.add(setup, "dev, imm = D3D11CreateDevice")
	}
	if r := c.Replay; r != nil && s.replay == nil {
		// The earlier case that copied into a view's texture runs first,
		// as shader_runner.c keeps the texture from case to case; then the
		// state it set is cleared, its objects' names taken again.
		s.add(role{}, "# [srv %d] holds what %s copied into it: that case runs first, without its probes", r.Slot, r.Case.Name())
		s.replay = &role{kind: "setup", what: "the replay of " + r.Case.Name(), line: r.Case.Line}
		r.Case.write(s, nil)
		s.add(setup, "imm.ClearState")
		s.replay = nil
	}
	if c.Kind == KindCompile {
		for _, sh := range c.Shaders {
			s.add(role{kind: "shader", what: sh.Stage, line: sh.Line}, "%s = dev.%s %s", stageVar(sh.Stage), scenarioStages[sh.Stage], shaderRef[sh.Stage])
		}
		if len(c.Shaders) == 1 && c.Shaders[0].ExpectFail {
			s.add(role{}, "# expected not to compile")
		}
		return
	}
	if c.compute() {
		c.computeScenario(s, shaderRef)
		return
	}
	// Resources, in the order the file declares them.
	var rtv, dsv string
	rtvs := map[int]*Resource{} // by slot
	w, h := 0, 0
	uavs, uavNames := map[int]*Resource{}, map[int]string{}
	for _, r := range c.Resources {
		rr := role{kind: "resource", what: r.describe(), line: r.Line}
		switch r.Kind {
		case "uav":
			// A pixel shader's view, bound with the render target below.
			uavs[r.Slot], uavNames[r.Slot] = r, r.uav(s, rr)
		case "rtv", "dsv":
			tex := fmt.Sprintf("%s%d", r.Kind, r.Slot)
			bind := "RENDER_TARGET"
			if r.Kind == "dsv" {
				bind = "DEPTH_STENCIL"
			}
			data := ""
			if r.Kind == "rtv" && r.Start != nil {
				s.add(role{}, "# the target starts as the earlier cases of the file left it (the last to draw: %s)", r.Start.From)
				if r.Start.Data != nil {
					data = " Data=" + u32List(r.Start.Data, len(r.Start.Data))
				}
			}
			s.add(rr, "%s_tex = dev.CreateTexture2D Width=%d Height=%d Format=%s BindFlags=%s%s%s", tex, r.Width, r.Height, r.Format, bind, data, sampleCount(r))
			if r.Kind == "rtv" {
				if rtv == "" || r.Slot == 0 {
					rtv = tex
				}
				rtvs[r.Slot] = r
				s.add(rr, "%s = dev.CreateRenderTargetView %s_tex", tex, tex)
				switch {
				case r.Start == nil:
					s.add(rr, "imm.ClearRenderTargetView %s 0 0 0 0", tex)
				case r.Start.Data == nil:
					v := r.Start.Clear
					s.add(rr, "imm.ClearRenderTargetView %s %s %s %s %s", tex, fmtFloat(v[0]), fmtFloat(v[1]), fmtFloat(v[2]), fmtFloat(v[3]))
				}
			} else {
				dsv = tex
				s.add(rr, "%s = dev.CreateDepthStencilView %s_tex", tex, tex)
				s.add(rr, "imm.ClearDepthStencilView %s 1", tex)
			}
			if w == 0 || r.Width < w {
				w = r.Width
			}
			if h == 0 || r.Height < h {
				h = r.Height
			}
		case "srv":
			name := fmt.Sprintf("srv%d", r.Slot)
			if r.Dim == "buffer" {
				r.srvBuffer(s, rr)
				s.add(rr, "imm.PSSetShaderResources %d %s", r.Slot, name)
				continue
			}
			if rp := c.Replay; rp != nil && rp.Slot == r.Slot && s.replay == nil {
				// The texture the replayed case copied into.
				s.add(rr, "%s = dev.CreateShaderResourceView %s_tex", name, name)
				s.add(rr, "imm.PSSetShaderResources %d %s", r.Slot, name)
				continue
			}
			data, levels := "", ""
			if len(r.Data) > 0 {
				data = " Data=" + u32List(r.Data, r.words())
			}
			if r.Levels > 1 {
				levels = " MipLevels=" + strconv.Itoa(r.Levels)
			}
			s.add(rr, "%s_tex = dev.CreateTexture2D Width=%d Height=%d Format=%s%s BindFlags=SHADER_RESOURCE%s%s", name, r.Width, r.Height, r.Format, levels, data, sampleCount(r))
			s.add(rr, "%s = dev.CreateShaderResourceView %s_tex", name, name)
			s.add(rr, "imm.PSSetShaderResources %d %s", r.Slot, name)
		case "vb":
			if len(r.Data) == 0 {
				continue
			}
			stride := 0
			for _, e := range c.Layout {
				if e.Slot == r.Slot {
					stride += e.TexelSize
				}
			}
			name := fmt.Sprintf("vb%d", r.Slot)
			s.add(rr, "%s = dev.CreateBuffer BindFlags=VERTEX_BUFFER Data=%s", name, u32List(r.Data, len(r.Data)))
			s.add(rr, "imm.IASetVertexBuffers %d %s Stride=%d", r.Slot, name, stride)
		}
	}
	for _, sm := range c.Samplers {
		filter := "MIN_MAG_MIP_POINT"
		if sm.Filter == "linear linear linear" {
			filter = "MIN_MAG_MIP_LINEAR"
		}
		cmp := ""
		if sm.Compare != "" {
			// `comparison FUNC` makes the sampler's filter a comparison
			// one (SampleCmp's), as shader_runner.c sets it.
			filter, cmp = "COMPARISON_"+filter, " ComparisonFunc="+sm.Compare
		}
		addr := func(a string) string { return strings.ToUpper(a) }
		s.add(role{kind: "resource", what: fmt.Sprintf("[sampler %d]", sm.Slot), line: sm.Line},
			"sam%d = dev.CreateSamplerState Filter=%s AddressU=%s AddressV=%s%s", sm.Slot, filter, addr(sm.Address[0]), addr(sm.Address[1]), cmp)
		s.add(setup, "imm.PSSetSamplers %d sam%d", sm.Slot, sm.Slot)
	}
	// The uniforms: one constant buffer at slot 0 of every stage, as large
	// as the most the test sets.
	words := len(c.Uniforms)
	for _, cmd := range c.Cmds {
		if cmd.Op == "uniform" {
			words = max(words, len(cmd.Uniforms))
		}
	}
	uniforms := pad(c.Uniforms, words)
	if words > 0 {
		s.add(setup, "cb = dev.CreateBuffer BindFlags=CONSTANT_BUFFER Data=%s", u32List(uniforms, words))
		s.add(setup, "imm.VSSetConstantBuffers 0 cb")
		s.add(setup, "imm.PSSetConstantBuffers 0 cb")
	}
	for _, sh := range c.Shaders {
		s.add(role{kind: "shader", what: sh.Stage, line: sh.Line}, "%s = dev.%s %s", stageVar(sh.Stage), scenarioStages[sh.Stage], shaderRef[sh.Stage])
	}
	if len(c.Layout) > 0 {
		var elems []string
		for _, e := range c.Layout {
			elems = append(elems, fmt.Sprintf("elem[%s %d %s %d APPEND_ALIGNED PER_VERTEX 0]", e.Name, e.Index, e.Format, e.Slot))
		}
		s.add(role{kind: "resource", what: "[input layout]"}, "layout = dev.CreateInputLayout vs %s", strings.Join(elems, " "))
		s.add(setup, "imm.IASetInputLayout layout")
	}
	s.add(setup, "rs = dev.CreateRasterizerState CullMode=NONE")
	s.add(setup, "imm.RSSetState rs")
	targets := targetList(rtvs)
	if dsv != "" {
		targets += " " + dsv
	}
	if len(uavNames) == 0 {
		s.add(setup, "imm.OMSetRenderTargets %s", targets)
	} else {
		rtvArg := ""
		if len(rtvs) > 0 {
			rtvArg = targetList(rtvs)
		}
		s.add(setup, "imm.OMSetRenderTargetsAndUnorderedAccessViews %s", omUAVArgs(rtvArg, dsv, uavNames))
	}
	s.add(setup, "imm.RSSetViewports 0 0 %d %d", w, h)
	s.add(setup, "imm.VSSetShader vs")
	s.add(setup, "imm.PSSetShader ps")
	for _, sh := range c.Shaders {
		if sh.Stage == "hs" || sh.Stage == "ds" {
			st := strings.ToUpper(sh.Stage)
			s.add(setup, "imm.%sSetShader %s", st, stageVar(sh.Stage))
			if words > 0 {
				s.add(setup, "imm.%sSetConstantBuffers 0 cb", st)
			}
		}
	}
	depth := "LESS"
	depthSet := false
	resolved := map[string]bool{} // the multisampled targets a probe resolves
	for _, cmd := range c.Cmds {
		cr := role{kind: "draw", what: "", line: cmd.Line}
		switch cmd.Op {
		case "uniform":
			uniforms = pad(cmd.Uniforms, words)
			s.add(cr, "imm.UpdateSubresource cb Data=%s", u32List(uniforms, words))
		case "depth":
			depth = cmd.Func
			depthSet = false
		case "clear":
			target := rtv
			if r := rtvs[cmd.Slot]; r != nil {
				target = fmt.Sprintf("rtv%d", cmd.Slot)
			}
			if cmd.Target == "dsv" && dsv != "" {
				s.add(cr, "imm.ClearDepthStencilView %s %s", dsv, fmtFloat(cmd.Value[0]))
			} else if target != "" {
				s.add(cr, "imm.ClearRenderTargetView %s %s %s %s %s", target, fmtFloat(cmd.Value[0]), fmtFloat(cmd.Value[1]),
					fmtFloat(cmd.Value[2]), fmtFloat(cmd.Value[3]))
			}
		case "copy":
			s.add(cr, "imm.CopyResource %s%d_tex %s%d_tex", cmd.Target, cmd.Slot, cmd.From, cmd.FromSlot)
		case "sample mask":
			s.add(cr, "sm = dev.CreateBlendState")
			s.add(cr, "imm.OMSetBlendState sm SampleMask=%#x", cmd.Mask)
		case "draw":
			if dsv != "" && !depthSet {
				s.add(cr, "ds = dev.CreateDepthStencilState DepthEnable=TRUE DepthWriteMask=ALL DepthFunc=%s", depth)
				s.add(cr, "imm.OMSetDepthStencilState ds")
				depthSet = true
			}
			topo := cmd.Topology
			if topo == "quad" {
				topo = "TRIANGLELIST"
			}
			if n, ok := strings.CutPrefix(topo, "PATCH"); ok {
				topo = "PATCHLIST_" + n
			}
			s.add(cr, "imm.IASetPrimitiveTopology %s", topo)
			if cmd.Instances > 1 {
				s.add(cr, "imm.DrawInstanced %d %d", cmd.Vertices, cmd.Instances)
			} else {
				s.add(cr, "imm.Draw %d", cmd.Vertices)
			}
		case "probe":
			p := cmd.Probe
			if s.replay != nil {
				continue
			}
			if p.Res == "uav" {
				probeUAV(s, cmd, uavs)
				continue
			}
			res := rtv
			var target *Resource
			switch {
			case p.Res == "dsv":
				res = dsv
			case rtvs[p.Slot] != nil:
				res, target = fmt.Sprintf("rtv%d", p.Slot), rtvs[p.Slot]
			}
			res += "_tex"
			pr := role{kind: "probe", what: "probe", line: cmd.Line}
			if target != nil && target.Samples > 1 {
				// A multisampled target is read resolved, as
				// shader_runner's readback does (ResolveSubresource into a
				// one-sample texture).
				if !resolved[res] {
					s.add(pr, "%s_res = dev.CreateTexture2D Width=%d Height=%d Format=%s BindFlags=SHADER_RESOURCE", res, target.Width, target.Height, target.Format)
					resolved[res] = true
				}
				s.add(pr, "imm.ResolveSubresource %s_res 0 %s 0 %s", res, res, target.Format)
				res += "_res"
			}
			s.add(pr, "expect probe %s %d %d %d %d == %s", res, p.X0, p.Y0, p.X1, p.Y1, p.list())
		}
	}
}

// sampleCount is a texture's SampleCount argument ("" at one sample).
// copyUnsupported says why the runner cannot make a case's `copy FROM N
// TO M` ("" when it can): it copies a whole texture into another of the
// case's textures of the same size, format and sample count
// (CopyResource), a render target or a shader resource view's.
func (c *Case) copyUnsupported(cmd Cmd) string {
	var from, to *Resource
	for _, r := range c.Resources {
		if r.Kind == cmd.From && r.Slot == cmd.FromSlot {
			from = r
		}
		if r.Kind == cmd.Target && r.Slot == cmd.Slot {
			to = r
		}
	}
	tex := func(r *Resource) bool { return r != nil && (r.Kind == "rtv" || r.Kind == "srv") && r.Dim != "buffer" }
	if !tex(from) || !tex(to) || from.Width != to.Width || from.Height != to.Height || from.Format != to.Format ||
		max(from.Samples, 1) != max(to.Samples, 1) || max(from.Levels, 1) != max(to.Levels, 1) || from.Dim != to.Dim {
		return fmt.Sprintf("copy %s %d %s %d: the runner copies a whole texture into a render target's or view's texture of its size, format and sample count (CopyResource)",
			cmd.From, cmd.FromSlot, cmd.Target, cmd.Slot)
	}
	return ""
}

func sampleCount(r *Resource) string {
	if r.Samples > 1 {
		return " SampleCount=" + strconv.Itoa(r.Samples)
	}
	return ""
}

// targetList is OMSetRenderTargets' render target views: slot 0 up to
// the last one declared, NULL for a slot with none.
func targetList(rtvs map[int]*Resource) string {
	last := -1
	for slot := range rtvs {
		last = max(last, slot)
	}
	if last < 0 {
		return "NULL"
	}
	var b []string
	for slot := 0; slot <= last; slot++ {
		name := "NULL"
		if rtvs[slot] != nil {
			name = fmt.Sprintf("rtv%d", slot)
		}
		b = append(b, name)
	}
	return strings.Join(b, " ")
}

func (r *Resource) describe() string {
	switch {
	case r.Kind == "dsv":
		return "[dsv] (" + r.Format + ")"
	case r.Line == 0:
		return "the default render target (" + r.Format + ")"
	case r.Kind == "rtv" || r.Kind == "srv":
		return fmt.Sprintf("[%s %d] (%s)", r.Kind, r.Slot, r.Format)
	}
	return fmt.Sprintf("[%s %d]", r.Kind, r.Slot)
}

func pad(u []uint32, n int) []uint32 {
	out := append([]uint32(nil), u...)
	for len(out) < n {
		out = append(out, 0x7f7f7f7f)
	}
	return out
}

// u32List writes n values (missing ones 0) as a u32 data list, eight a
// line.
func u32List(u []uint32, n int) string {
	var b strings.Builder
	b.WriteString("u32[")
	for i := 0; i < n; i++ {
		if i > 0 {
			if i%8 == 0 {
				b.WriteString("\n  ")
			} else {
				b.WriteByte(' ')
			}
		}
		v := uint32(0)
		if i < len(u) {
			v = u[i]
		}
		b.WriteString("0x")
		b.WriteString(strconv.FormatUint(uint64(v), 16))
	}
	b.WriteString("]")
	return b.String()
}

// fmtFloat writes a float32 so that the scenario's number reading (a
// float64, then float32) gives the same bits back.
func fmtFloat(f float32) string {
	switch {
	case math.IsInf(float64(f), 1):
		return "inf"
	case math.IsInf(float64(f), -1):
		return "-inf"
	case f != f:
		return "nan"
	}
	// The scenario's numbers take no '+' in an exponent.
	s := strings.Replace(strconv.FormatFloat(float64(f), 'g', -1, 32), "e+", "e", 1)
	if v, err := strconv.ParseFloat(s, 64); err == nil && float32(v) == f {
		return s
	}
	return strings.Replace(strconv.FormatFloat(float64(f), 'g', 9, 32), "e+", "e", 1)
}

// words is the 32-bit words of a texture's texels, every mip level's in
// turn (the order of [srv]'s data and of the scenario's Data).
func (r *Resource) words() int {
	n := 0
	w, h := r.Width, max(r.Height, 1)
	for l := 0; l < max(r.Levels, 1); l++ {
		n += w * h * r.TexelSize / 4
		w, h = max(w/2, 1), max(h/2, 1)
	}
	return n
}

// list is the probe's expected channels as the scenario writes them.
func (p *Probe) list() string {
	parts := make([]string, len(p.Values))
	typ := "f32"
	for i, v := range p.Values {
		switch p.Kind {
		case "rgbaui", "rui":
			typ, parts[i] = "u32", strconv.FormatUint(uint64(v), 10)
		case "rgbai", "ri":
			typ, parts[i] = "i32", strconv.FormatInt(int64(int32(v)), 10)
		default:
			f := math.Float32frombits(v)
			parts[i] = fmtFloat(f)
		}
	}
	s := typ + "[" + strings.Join(parts, " ") + "]"
	if typ == "f32" && p.Ulps > 0 {
		s += " ulps=" + strconv.Itoa(p.Ulps)
	}
	return s
}

// compute reports whether the case runs a compute shader (it then
// dispatches: computeScenario).
func (c *Case) compute() bool {
	for _, sh := range c.Shaders {
		if sh.Stage == "cs" {
			return true
		}
	}
	return false
}

// computeScenario writes a compute case: its resources as the compute
// stage's views ([uav N]: a texture or buffer with an unordered access
// view, bound with CSSetUnorderedAccessViews; [srv N] too, with
// CSSetShaderResources), the uniforms as constant buffer 0, each dispatch
// a Dispatch, each `probe uav N` an expect probe of the view's resource (a
// buffer's element by element).
func (c *Case) computeScenario(s *script, shaderRef map[string]string) {
	setup := role{kind: "setup"}
	uavs := map[int]*Resource{}
	for _, r := range c.Resources {
		rr := role{kind: "resource", what: r.describe(), line: r.Line}
		switch {
		case r.Kind == "uav":
			uavs[r.Slot] = r
			name := r.uav(s, rr)
			s.add(rr, "imm.CSSetUnorderedAccessViews %d %s", r.Slot, name)
		case r.Kind == "srv" && r.Dim == "buffer":
			name := r.srvBuffer(s, rr)
			s.add(rr, "imm.CSSetShaderResources %d %s", r.Slot, name)
		case r.Kind == "srv":
			name := fmt.Sprintf("srv%d", r.Slot)
			s.add(rr, "%s_tex = dev.CreateTexture2D Width=%d Height=%d Format=%s BindFlags=SHADER_RESOURCE Data=%s", name, r.Width, max(r.Height, 1), r.Format, u32List(r.Data, r.words()))
			s.add(rr, "%s = dev.CreateShaderResourceView %s_tex", name, name)
			s.add(rr, "imm.CSSetShaderResources %d %s", r.Slot, name)
		}
	}
	words := len(c.Uniforms)
	for _, cmd := range c.Cmds {
		if cmd.Op == "uniform" {
			words = max(words, len(cmd.Uniforms))
		}
	}
	if words > 0 {
		s.add(setup, "cb = dev.CreateBuffer BindFlags=CONSTANT_BUFFER Data=%s", u32List(pad(c.Uniforms, words), words))
		s.add(setup, "imm.CSSetConstantBuffers 0 cb")
	}
	for _, sh := range c.Shaders {
		if sh.Stage == "cs" {
			s.add(role{kind: "shader", what: sh.Stage, line: sh.Line}, "cs = dev.CreateComputeShader %s", shaderRef[sh.Stage])
		}
	}
	s.add(setup, "imm.CSSetShader cs")
	for _, cmd := range c.Cmds {
		cr := role{kind: "draw", line: cmd.Line}
		switch cmd.Op {
		case "uniform":
			s.add(cr, "imm.UpdateSubresource cb Data=%s", u32List(pad(cmd.Uniforms, words), words))
		case "dispatch":
			s.add(cr, "imm.Dispatch %d %d %d", cmd.Groups[0], cmd.Groups[1], cmd.Groups[2])
		case "probe":
			probeUAV(s, cmd, uavs)
		}
	}
}

// srvBuffer writes a buffer [srv N] and its view, srvN over srvN_tex: a
// typed buffer view (Buffer<float4>) over the texels, a structured
// buffer's (StructuredBuffer<T>) or a raw one's (ByteAddressBuffer).
func (r *Resource) srvBuffer(s *script, rr role) string {
	name := fmt.Sprintf("srv%d", r.Slot)
	switch {
	case r.Raw || r.Stride > 0:
		elem := max(r.TexelSize, 4)
		misc, view := " MiscFlags=BUFFER_ALLOW_RAW_VIEWS", "Format=R32_TYPELESS ViewDimension=BUFFEREX Flags=RAW"
		if !r.Raw {
			elem = r.Stride
			misc, view = fmt.Sprintf(" MiscFlags=BUFFER_STRUCTURED StructureByteStride=%d", r.Stride), "ViewDimension=BUFFER"
		}
		n := r.Width * elem / 4
		s.add(rr, "%s_tex = dev.CreateBuffer ByteWidth=%d BindFlags=SHADER_RESOURCE%s Data=%s", name, 4*n, misc, u32List(r.Data, n))
		s.add(rr, "%s = dev.CreateShaderResourceView %s_tex %s", name, name, view)
	default:
		s.add(rr, "%s_tex = dev.CreateBuffer ByteWidth=%d BindFlags=SHADER_RESOURCE Data=%s", name, r.words()*4, u32List(r.Data, r.words()))
		s.add(rr, "%s = dev.CreateShaderResourceView %s_tex Format=%s ViewDimension=BUFFER", name, name, r.Format)
	}
	return name
}

// uav writes a [uav N] resource: a texture or buffer (typed, raw,
// structured, with a counter) and its unordered access view, uavN over
// uavN_tex; it returns the view's name.
func (r *Resource) uav(s *script, rr role) string {
	name := fmt.Sprintf("uav%d", r.Slot)
	if r.Dim != "buffer" {
		s.add(rr, "%s_tex = dev.CreateTexture2D Width=%d Height=%d Format=%s BindFlags=UNORDERED_ACCESS Data=%s", name, r.Width, max(r.Height, 1), r.Format, u32List(r.Data, r.words()))
		s.add(rr, "%s = dev.CreateUnorderedAccessView %s_tex", name, name)
		return name
	}
	elem := max(r.TexelSize, 4)
	if r.Stride > 0 {
		elem = r.Stride
	}
	n := r.Width * elem / 4
	misc, view := "", fmt.Sprintf("Format=%s", r.Format)
	switch {
	case r.Raw:
		misc, view = " MiscFlags=BUFFER_ALLOW_RAW_VIEWS", "Format=R32_TYPELESS Flags=RAW"
	case r.Stride > 0:
		misc, view = fmt.Sprintf(" MiscFlags=BUFFER_STRUCTURED StructureByteStride=%d", r.Stride), ""
		if r.Counter {
			view = "Flags=COUNTER"
		}
	}
	s.add(rr, "%s_tex = dev.CreateBuffer ByteWidth=%d BindFlags=UNORDERED_ACCESS%s Data=%s", name, 4*n, misc, u32List(r.Data, n))
	s.add(rr, "%s = dev.CreateUnorderedAccessView %s_tex %s", name, name, view)
	return name
}

// probeUAV writes `probe uav N` as an expect probe of the view's texture,
// or of the buffer's elements one by one.
func probeUAV(s *script, cmd Cmd, uavs map[int]*Resource) {
	p := cmd.Probe
	r := uavs[p.Slot]
	pr := role{kind: "probe", what: "probe", line: cmd.Line}
	if r == nil {
		s.add(pr, "# probe uav %d: no such view", p.Slot)
		return
	}
	name := fmt.Sprintf("uav%d_tex", p.Slot)
	if r.Dim != "buffer" {
		s.add(pr, "expect probe %s %d %d %d %d == %s", name, p.X0, p.Y0, p.X1, p.Y1, p.list())
		return
	}
	if r.Counter {
		// A counter buffer's probe reads the view's hidden counter, as
		// the suite's runner does: CopyStructureCount into a buffer.
		s.add(pr, "uav%d_count = dev.CreateBuffer ByteWidth=4 BindFlags=SHADER_RESOURCE Data=u32[0]", p.Slot)
		s.add(pr, "imm.CopyStructureCount uav%d_count 0 uav%d", p.Slot, p.Slot)
		s.add(pr, "expect probe uav%d_count 0 0 == %s", p.Slot, p.list())
		return
	}
	elem := max(r.TexelSize, 4)
	if r.Stride > 0 {
		elem = r.Stride
	}
	for x := p.X0; x < p.X1 && x < p.X0+256; x++ {
		s.add(pr, "expect probe %s %d 0 == %s", name, x*elem/4, p.list())
	}
}

// omUAVArgs is OMSetRenderTargetsAndUnorderedAccessViews' arguments: the
// render target, the depth-stencil view, the views from the lowest slot to
// the highest (NULL between), from that slot.
func omUAVArgs(rtv, dsv string, names map[int]string) string {
	lo, hi := 8, -1
	for k := range names {
		lo, hi = min(lo, k), max(hi, k)
	}
	var args []string
	if rtv != "" {
		args = append(args, rtv)
	}
	if dsv != "" {
		args = append(args, dsv)
	}
	for k := lo; k <= hi; k++ {
		if n, ok := names[k]; ok {
			args = append(args, n)
		} else {
			args = append(args, "NULL")
		}
	}
	return strings.Join(args, " ") + fmt.Sprintf(" UAVStartSlot=%d", lo)
}
