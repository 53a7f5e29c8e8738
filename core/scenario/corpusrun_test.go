package scenario

import (
	"encoding/hex"
	"fmt"
	"math/bits"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"d3dsim/core/dxbc"
	"d3dsim/core/trace"
)

// TestFxcCorpusRun runs every shader TestFxcCorpusCreate creates, once,
// through the whole stack: a scenario made from the shader's own
// declarations and signatures binds what it reads (constant buffers of the
// declared sizes filled with a fixed pattern, a small texture of each
// declared kind, buffers for buffer, raw and structured views, samplers of
// the declared modes, unordered access views of the declared kinds) and
// draws or dispatches it. A vertex shader reads a vertex buffer per element
// of its input signature and feeds a pixel shader made from its output
// signature; a pixel shader is fed by a vertex shader made to write exactly
// its input signature and writes render targets of its outputs' types; a
// geometry, hull or domain shader runs between made neighbours; a compute
// shader runs one group. A run fails on a GPU fault, a device removal, a
// KMD rejection, a driver's refusal, a call the runtime drops, a
// debug-layer error or a Go panic; the counts per stage and the failures by
// reason are printed (docs/shaders.md quotes them). A panic, and a
// scenario that does not load (the test's own mistake), fail the test.
// Skipped without D3DSIM_FXC_CORPUS.
func TestFxcCorpusRun(t *testing.T) {
	dir := os.Getenv("D3DSIM_FXC_CORPUS")
	if dir == "" {
		t.Skip("D3DSIM_FXC_CORPUS is not set")
	}
	type tally struct{ created, ran, failed, notRun int }
	stages := map[string]*tally{}
	reasons := map[string][]string{}
	for _, sh := range corpusShaders(t, dir) {
		stage := sh.prog.Profile()
		if stages[stage] == nil {
			stages[stage] = &tally{}
		}
		n := stages[stage]
		// Only what TestFxcCorpusCreate creates is run.
		if why := corpusRun(corpusCreateOnly(sh.blob, sh.prog)); why != "" {
			continue
		}
		n.created++
		why, src, err := corpusRunVariants(sh)
		if err != nil {
			n.notRun++
			reasons["not run: "+err.Error()] = append(reasons["not run: "+err.Error()], sh.name)
			continue
		}
		if strings.HasPrefix(why, "ran ") {
			reasons[why] = append(reasons[why], sh.name)
			why = ""
		}
		if why == "" {
			n.ran++
			continue
		}
		n.failed++
		reasons[why] = append(reasons[why], sh.name)
		if strings.HasPrefix(why, "panic") || strings.HasPrefix(why, "load:") {
			t.Errorf("%s: %s", sh.name, why)
		}
		if testing.Verbose() && os.Getenv("D3DSIM_FXC_CORPUS_SHOW") != "" && strings.Contains(sh.name, os.Getenv("D3DSIM_FXC_CORPUS_SHOW")) {
			t.Logf("%s:\n%s", sh.name, corpusShort(src))
		}
	}
	names := make([]string, 0, len(stages))
	var created, ran int
	for s, n := range stages {
		names = append(names, s)
		created += n.created
		ran += n.ran
	}
	sort.Strings(names)
	t.Logf("%d created, %d ran (%.1f%%)", created, ran, 100*float64(ran)/float64(max(created, 1)))
	for _, s := range names {
		n := stages[s]
		t.Logf("  %-8s created %4d, ran %4d, failed %4d, not run %4d", s, n.created, n.ran, n.failed, n.notRun)
	}
	corpusLogReasons(t, reasons)
}

// corpusRunVariants runs a shader twice: with one-level textures of 4
// texels a side and with 8-texel textures of every level (R8G8B8A8_UNORM
// for float views), and says why the first that failed did, and its
// scenario. A loop whose count is read from a constant buffer as an
// integer takes the float pattern's bits (0.125 is 1,040,187,392) and
// runs into the step limit, as a real GPU would into its timeout: such a
// shader runs again with small integers in its constant buffers, and the
// answer says so ("ran ...").
func corpusRunVariants(sh corpusShader) (why, src string, err error) {
	retried := false
	for _, mips := range []bool{false, true} {
		src, err = corpusRunScenario(sh.blob, sh.cont, sh.prog, "FLOAT", mips)
		if err != nil {
			return "", "", err
		}
		why = corpusRun(src)
		if strings.Contains(why, "step limit") {
			src, _ = corpusRunScenario(sh.blob, sh.cont, sh.prog, "UINT", mips)
			if why = corpusRun(src); why == "" {
				retried = true
			}
		}
		if why != "" {
			if mips {
				why = "with mips: " + why
			}
			return why, src, nil
		}
	}
	if retried {
		return "ran with integers in its constant buffers (with floats a loop's count passed the step limit)", src, nil
	}
	return "", src, nil
}

// TestFxcCorpusRunInRepo runs what the repository holds through
// TestFxcCorpusRun's harness, every variable or not: SDL's and Nuklear's
// fxc-compiled shaders (core/dxbc/testdata) and the translator's listings
// of every stage (core/umd/translate/testdata). Every one runs.
func TestFxcCorpusRunInRepo(t *testing.T) {
	shaders := corpusShaders(t, "../dxbc/testdata")
	files, err := filepath.Glob("../umd/translate/testdata/*/*.asm")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		bc, err := dxbc.Assemble(string(text))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		c, err := dxbc.Parse(bc)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		p, err := c.Program()
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		shaders = append(shaders, corpusShader{filepath.Base(f), bc, c, p})
	}
	stages := map[dxbc.ProgramType]int{}
	for _, sh := range shaders {
		why, _, err := corpusRunVariants(sh)
		if err != nil || why != "" {
			t.Errorf("%s: %v%s", sh.name, err, why)
		}
		stages[sh.prog.Type]++
	}
	if len(stages) != 6 || len(shaders) < 20 {
		t.Errorf("%d shaders of %d stages, want every stage's", len(shaders), len(stages))
	}
}

// corpusShort is a scenario with its long hex strings cut, for a log.
func corpusShort(src string) string {
	var b strings.Builder
	for _, l := range strings.Split(src, "\n") {
		if i := strings.Index(l, "bytes:"); i >= 0 && len(l) > i+80 {
			l = l[:i+80] + "..."
		}
		b.WriteString(l + "\n")
	}
	return b.String()
}

// corpusShader is one distinct blob of a corpus.
type corpusShader struct {
	name string
	blob []byte
	cont *dxbc.Container
	prog *dxbc.Program
}

// corpusShaders reads the distinct shader blobs of a corpus directory.
func corpusShaders(t *testing.T, dir string) []corpusShader {
	var files []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			switch strings.ToLower(filepath.Ext(p)) {
			case ".h", ".inc", ".cso", ".fxo", ".dxbc", ".bin":
				files = append(files, p)
			}
		}
		return nil
	})
	sort.Strings(files)
	seen := map[string]bool{}
	var out []corpusShader
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		blob := corpusBlob(raw)
		if blob == nil || seen[string(blob)] {
			continue // none, or the same bytes under another name
		}
		seen[string(blob)] = true
		c, err := dxbc.Parse(blob)
		if err != nil || c.Chunk("SHDR") == nil && c.Chunk("SHEX") == nil {
			continue
		}
		p, err := c.Program()
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		out = append(out, corpusShader{filepath.Base(f), blob, c, p})
	}
	return out
}

// corpusCreateOnly is the scenario that creates the shader alone.
func corpusCreateOnly(blob []byte, p *dxbc.Program) string {
	return "dev, imm = D3D11CreateDevice\ns = dev." + corpusCreate[p.Type] + " bytes:" + hex.EncodeToString(blob) + "\n"
}

var corpusCreate = map[dxbc.ProgramType]string{
	dxbc.VertexShader: "CreateVertexShader", dxbc.PixelShader: "CreatePixelShader", dxbc.GeometryShader: "CreateGeometryShader",
	dxbc.HullShader: "CreateHullShader", dxbc.DomainShader: "CreateDomainShader", dxbc.ComputeShader: "CreateComputeShader",
}

// corpusRun runs a scenario and says why it failed: "" when it ran clean.
// A panic is a failure too.
func corpusRun(src string) (why string) {
	defer func() {
		if p := recover(); p != nil {
			why = fmt.Sprintf("panic: %v", p)
		}
	}()
	s, err := Load("corpus.d3ds", []byte(src))
	if err != nil {
		return "load: " + corpusReason(err.Error())
	}
	r := NewRun(s, Overrides{})
	sum := r.Finish()
	for _, e := range r.Events() {
		switch {
		case e.Kind == trace.Message && (e.Name == "GpuFault" || e.Name == "NonResidentAccess" || e.Name == "TDR" || e.Name == "DeviceRemoved"):
			return e.Name + ": " + corpusReason(e.Msg)
		case e.Kind == trace.Call && e.Name == "pfnSetErrorCb" && e.HR != "DXGI_DDI_ERR_WASSTILLDRAWING":
			return "pfnSetErrorCb: " + corpusReason(e.Msg)
		case e.Kind == trace.Return && e.Layer == trace.KMD && strings.HasPrefix(e.HR, "STATUS_") && e.HR != "STATUS_SUCCESS" && e.HR != "STATUS_PENDING":
			return e.Name + " " + e.HR + ": " + corpusReason(e.Msg)
		case e.Kind == trace.Return && e.From == trace.App && e.HR == Dropped:
			return e.Name + " dropped: " + corpusReason(e.Msg)
		}
	}
	if !sum.OK() {
		return corpusReason(strings.Join(sum.Failures, "\n"))
	}
	for _, m := range sum.Messages {
		if strings.Contains(m, "D3D11 ERROR") {
			return "debug layer: " + corpusReason(m)
		}
	}
	return ""
}

// corpusStagePrefix is a stage's prefix in the context's Set* methods.
var corpusStagePrefix = map[dxbc.ProgramType]string{
	dxbc.VertexShader: "VS", dxbc.PixelShader: "PS", dxbc.GeometryShader: "GS", dxbc.HullShader: "HS",
	dxbc.DomainShader: "DS", dxbc.ComputeShader: "CS",
}

// corpusRunScenario writes the scenario that runs a shader: its bindings
// from its declarations, its neighbours from its signatures.
// The constant buffers hold a pattern of cbKind, FLOAT or UINT; with mips
// the shader resources are textures of 8 texels a side with every level.
func corpusRunScenario(blob []byte, c *dxbc.Container, p *dxbc.Program, cbKind string, mips bool) (string, error) {
	in, err := c.Signature(true)
	if err != nil {
		return "", fmt.Errorf("input signature: %v", err)
	}
	out, err := c.Signature(false)
	if err != nil {
		return "", fmt.Errorf("output signature: %v", err)
	}
	var b strings.Builder
	b.WriteString("dev, imm = D3D11CreateDevice Flags=DEBUG\n")
	hexOf := func(bc []byte) string { return "bytes:" + hex.EncodeToString(bc) }
	fmt.Fprintf(&b, "s = dev.%s %s\n", corpusCreate[p.Type], hexOf(blob))
	uavs := corpusBindings(&b, p, cbKind, mips)
	// The pipeline statistics say the shader ran: for a draw, the vertex
	// shader's 3 vertices and pixels the pixel shader ran for.
	b.WriteString("st = dev.CreateQuery Query=PIPELINE_STATISTICS\nimm.Begin st\n")
	check := ""
	switch p.Type {
	case dxbc.ComputeShader:
		b.WriteString("imm.CSSetShader s\n")
		for _, u := range uavs {
			fmt.Fprintf(&b, "imm.CSSetUnorderedAccessViews %d %s\n", u.slot, u.name)
		}
		b.WriteString("imm.Dispatch 1\n")
	case dxbc.VertexShader:
		layout, vbs, strides := corpusVertexInputs(in)
		for _, v := range vbs {
			b.WriteString(v)
		}
		if layout != "" {
			b.WriteString("il = dev.CreateInputLayout s " + layout + "\nimm.IASetInputLayout il\n")
			fmt.Fprintf(&b, "imm.IASetVertexBuffers 0 %s Strides=u32[%s]\n", corpusNames("vb", len(vbs)), strides)
		}
		b.WriteString("imm.VSSetShader s\n")
		if out.Find("SV_Position", 0) != nil {
			ps, err := corpusPassThroughPS(out)
			if err != nil {
				return "", fmt.Errorf("pass-through pixel shader: %v", err)
			}
			fmt.Fprintf(&b, "ps = dev.CreatePixelShader %s\nimm.PSSetShader ps\n", hexOf(ps))
		} else {
			// Written for stream output (or a hull shader): its outputs
			// streamed out to a buffer, nothing rasterized.
			var decl []string
			for _, e := range out.Elements {
				decl = append(decl, fmt.Sprintf("%s%d.%s", e.Name, e.Index, corpusMask(e.Mask)))
			}
			fmt.Fprintf(&b, "so = dev.CreateGeometryShaderWithStreamOutput %s Decl=\"%s\" RasterizedStream=4294967295\n", hexOf(blob), strings.Join(decl, "; "))
			b.WriteString("sob = dev.CreateBuffer ByteWidth=4096 BindFlags=STREAM_OUTPUT\nimm.SOSetTargets sob\nimm.GSSetShader so\n")
		}
		b.WriteString(corpusTargets([]dxbc.Element{{Name: "SV_Target", SystemValue: dxbc.SVTarget, ComponentType: 3, Mask: dxbc.XYZW}}, nil))
		b.WriteString("imm.IASetPrimitiveTopology TRIANGLELIST\nimm.Draw 3\n")
		check = "expect data st.VSInvocations == 3\n"
	case dxbc.PixelShader:
		vs, err := corpusFeedingVS(in)
		if err != nil {
			return "", fmt.Errorf("feeding vertex shader: %v", err)
		}
		fmt.Fprintf(&b, "vs = dev.CreateVertexShader %s\n", hexOf(vs))
		b.WriteString("il = dev.CreateInputLayout vs elem[POSITION 0 R32G32B32A32_FLOAT 0]\nimm.IASetInputLayout il\n")
		b.WriteString("vb = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=f32[-1 -1 0.5 1  -1 3 0.5 1  3 -1 0.5 1]\n")
		b.WriteString("imm.IASetVertexBuffers 0 vb Stride=16\nimm.VSSetShader vs\nimm.PSSetShader s\n")
		b.WriteString(corpusTargets(out.Elements, uavs))
		b.WriteString("imm.IASetPrimitiveTopology TRIANGLELIST\nimm.Draw 3\n")
		check = "expect data st.PSInvocations == 64\n"
	case dxbc.GeometryShader:
		prim := corpusDecl(p, dxbc.OpDclInputPrimitive) & 0x3f
		topo := map[uint32]string{1: "POINTLIST", 2: "LINELIST", 3: "TRIANGLELIST", 6: "LINELIST_ADJ", 7: "TRIANGLELIST_ADJ"}[prim]
		if topo == "" {
			return "", fmt.Errorf("input primitive %d", prim)
		}
		if err := corpusFeed(&b, in, 6); err != nil {
			return "", err
		}
		b.WriteString("imm.GSSetShader s\n")
		if err := corpusRaster(&b, corpusStream0(out), topo, 6); err != nil {
			return "", err
		}
		check = "expect data st.GSInvocations > 0\n"
	case dxbc.HullShader:
		pcsg, err := corpusPatchSignature(c)
		if err != nil {
			return "", err
		}
		ds, err := corpusDomainFor(p, out, pcsg)
		if err != nil {
			return "", fmt.Errorf("domain shader for it: %v", err)
		}
		n := corpusDecl(p, dxbc.OpDclInputControlPointCount)
		if err := corpusFeed(&b, in, int(n)); err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "ds = dev.CreateDomainShader %s\nimm.HSSetShader s\nimm.DSSetShader ds\n", hexOf(ds))
		if err := corpusRaster(&b, corpusDomainOut, fmt.Sprint("PATCHLIST_", n), int(n)); err != nil {
			return "", err
		}
		check = "expect data st.HSInvocations > 0\n"
	case dxbc.DomainShader:
		pcsg, err := corpusPatchSignature(c)
		if err != nil {
			return "", err
		}
		n := corpusDecl(p, dxbc.OpDclInputControlPointCount)
		if len(pcsg.Elements) == 0 {
			pcsg = corpusTessFactors(corpusDecl(p, dxbc.OpDclTessDomain) & 3)
		}
		hs, err := corpusHullFor(p, n, in, pcsg)
		if err != nil {
			return "", fmt.Errorf("hull shader for it: %v", err)
		}
		if err := corpusFeed(&b, in, int(n)); err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "hs = dev.CreateHullShader %s\nimm.HSSetShader hs\nimm.DSSetShader s\n", hexOf(hs))
		if err := corpusRaster(&b, out, fmt.Sprint("PATCHLIST_", n), int(n)); err != nil {
			return "", err
		}
		check = "expect data st.DSInvocations > 0\n"
	default:
		return "", fmt.Errorf("%s shaders are not run yet", p.Type.Prefix())
	}
	b.WriteString("imm.End st\nimm.Flush\nuntil hr == S_OK max 100 {\n  imm.GetData st\n}\n" + check)
	b.WriteString("dev.GetDeviceRemovedReason\nexpect hr == S_OK\n")
	return b.String(), nil
}

func corpusNames(prefix string, n int) string {
	s := make([]string, n)
	for i := range s {
		s[i] = fmt.Sprint(prefix, i)
	}
	return strings.Join(s, " ")
}

// corpusUAV is an unordered access view a scenario made, for the stage's
// binding call.
type corpusUAV struct {
	slot uint32
	name string
}

// corpusFormat is the 4-component format of a return or component type.
func corpusFormat(kind string, comps int) string {
	if comps == 4 && kind == "FLOAT" {
		return "R32G32B32A32_FLOAT"
	}
	return [...]string{"", "R32_", "R32G32_", "R32G32B32_", "R32G32B32A32_"}[comps] + kind
}

// corpusKind is a return type's format kind.
func corpusKind(ret dxbc.ReturnType) string {
	switch ret {
	case dxbc.ReturnUInt:
		return "UINT"
	case dxbc.ReturnSInt:
		return "SINT"
	}
	return "FLOAT"
}

// corpusData is n words of a fixed pattern: small floats for a FLOAT
// format, small integers for the others.
func corpusData(kind string, n int) string {
	v := make([]string, n)
	for i := range v {
		if kind == "RGBA8" {
			v[i] = fmt.Sprintf("0x%08x", uint32(i)*0x01234567|0xff000000)
			continue
		}
		if kind == "FLOAT" {
			v[i] = fmt.Sprint(float32(i%8+1) * 0.125)
		} else {
			v[i] = fmt.Sprint(i % 5)
		}
	}
	if kind == "FLOAT" {
		return "f32[" + strings.Join(v, " ") + "]"
	}
	return "u32[" + strings.Join(v, " ") + "]"
}

// corpusBindings writes what a shader's declarations read: constant
// buffers, shader resource views, samplers and unordered access views,
// each bound on the shader's stage but the views, which are returned.
func corpusBindings(b *strings.Builder, p *dxbc.Program, cbKind string, mips bool) []corpusUAV {
	st := corpusStagePrefix[p.Type]
	compare := map[uint64]bool{}
	counter := map[uint64]bool{}
	for _, in := range p.Instructions {
		switch in.Op {
		case dxbc.OpSampleC, dxbc.OpSampleCLZ, dxbc.OpGather4C, dxbc.OpGather4POC:
			for _, o := range in.Operands {
				if o.Type == dxbc.RegResource && len(o.Indices) > 0 {
					compare[o.Indices[0].Imm] = true
				}
			}
		case dxbc.OpImmAtomicAlloc, dxbc.OpImmAtomicConsume:
			if o := in.Operands[len(in.Operands)-1]; len(o.Indices) > 0 {
				counter[o.Indices[0].Imm] = true
			}
		}
	}
	var uavs []corpusUAV
	for i, in := range p.Instructions {
		if len(in.Operands) == 0 || len(in.Operands[0].Indices) == 0 {
			continue
		}
		slot := in.Operands[0].Indices[0].Imm
		switch in.Op {
		case dxbc.OpDclConstantBuffer:
			size := uint64(1)
			if len(in.Operands[0].Indices) > 1 {
				size = max(in.Operands[0].Indices[1].Imm, 1)
			}
			fmt.Fprintf(b, "cb%d = dev.CreateBuffer BindFlags=CONSTANT_BUFFER Data=%s\n", i, corpusData(cbKind, int(size*4)))
			fmt.Fprintf(b, "imm.%sSetConstantBuffers %d cb%d\n", st, slot, i)
		case dxbc.OpDclSampler:
			if dxbc.SamplerMode(in.Controls&3) == dxbc.SamplerComparison {
				fmt.Fprintf(b, "smp%d = dev.CreateSamplerState Filter=COMPARISON_MIN_MAG_MIP_LINEAR ComparisonFunc=LESS_EQUAL\n", i)
			} else {
				fmt.Fprintf(b, "smp%d = dev.CreateSamplerState Filter=MIN_MAG_MIP_LINEAR\n", i)
			}
			fmt.Fprintf(b, "imm.%sSetSamplers %d smp%d\n", st, slot, i)
		case dxbc.OpDclResource, dxbc.OpDclResourceRaw, dxbc.OpDclResourceStructured:
			corpusResource(b, fmt.Sprint("t", i), in, "SHADER_RESOURCE", compare[slot], mips)
			fmt.Fprintf(b, "imm.%sSetShaderResources %d t%dv\n", st, slot, i)
		case dxbc.OpDclUAVTyped, dxbc.OpDclUAVRaw, dxbc.OpDclUAVStructured:
			name := fmt.Sprint("u", i)
			corpusResource(b, name, in, "UNORDERED_ACCESS", false, false)
			if counter[slot] || in.Op == dxbc.OpDclUAVStructured && in.Controls&(1<<12) != 0 {
				b.WriteString(" Flags=COUNTER")
			}
			b.WriteString("\n")
			uavs = append(uavs, corpusUAV{uint32(slot), name + "v"})
		}
	}
	return uavs
}

// corpusResource writes a resource of a dcl_resource* or dcl_uav_*
// declaration and the start of its view (NAME and NAMEv). A shader
// resource view's line is ended; an unordered access view's is not (its
// flags follow).
func corpusResource(b *strings.Builder, name string, in dxbc.Instruction, bind string, compare, mips bool) {
	end := "\n"
	view := "CreateShaderResourceView"
	if bind == "UNORDERED_ACCESS" {
		end, view = "", "CreateUnorderedAccessView"
	}
	switch in.Op {
	case dxbc.OpDclResourceRaw, dxbc.OpDclUAVRaw:
		fmt.Fprintf(b, "%s = dev.CreateBuffer BindFlags=%s MiscFlags=BUFFER_ALLOW_RAW_VIEWS Data=%s\n", name, bind, corpusData("UINT", 64))
		dim := " ViewDimension=BUFFEREX"
		if view == "CreateUnorderedAccessView" {
			dim = ""
		}
		fmt.Fprintf(b, "%sv = dev.%s %s Format=R32_TYPELESS%s Flags=RAW"+end, name, view, name, dim)
		return
	case dxbc.OpDclResourceStructured, dxbc.OpDclUAVStructured:
		stride := in.Extra[0]
		fmt.Fprintf(b, "%s = dev.CreateBuffer BindFlags=%s MiscFlags=BUFFER_STRUCTURED StructureByteStride=%d Data=%s\n",
			name, bind, stride, corpusData("UINT", int(stride)*4))
		dim := " ViewDimension=BUFFER"
		if view == "CreateUnorderedAccessView" {
			dim = ""
		}
		fmt.Fprintf(b, "%sv = dev.%s %s%s"+end, name, view, name, dim)
		return
	}
	dim := dxbc.ResourceDimension(in.Controls & 0x1f)
	ret := dxbc.ReturnType(in.Extra[0] & 0xf)
	kind := corpusKind(ret)
	format := corpusFormat(kind, 4)
	comps := 4
	if compare || bind == "UNORDERED_ACCESS" {
		format, comps = corpusFormat(kind, 1), 1
	}
	switch dim {
	case dxbc.DimBuffer:
		fmt.Fprintf(b, "%s = dev.CreateBuffer BindFlags=%s Data=%s\n", name, bind, corpusData(kind, 16*comps))
		fmt.Fprintf(b, "%sv = dev.%s %s Format=%s ViewDimension=BUFFER"+end, name, view, name, format)
		return
	case dxbc.DimTexture2DMS, dxbc.DimTexture2DMSArray:
		samples := (in.Controls >> 5) & 0x7f
		if samples == 0 {
			samples = 4 // Texture2DMS<T>: any count (the view's is read)
		}
		arr := ""
		if dim == dxbc.DimTexture2DMSArray {
			arr = " ArraySize=2"
		}
		fmt.Fprintf(b, "%s = dev.CreateTexture2D Width=4 Height=4%s SampleCount=%d Format=%s BindFlags=%s|RENDER_TARGET\n", name, arr, samples, format, bind)
		fmt.Fprintf(b, "%sv = dev.%s %s"+end, name, view, name)
		return
	}
	k, ok := corpusTextureKinds[dim]
	if !ok {
		return
	}
	// 4 texels a side, one level; with mips (a shader resource's), 8 and
	// the whole chain, in R8G8B8A8_UNORM for a float view.
	size, levels, data := uint32(4), "", ""
	if mips && bind == "SHADER_RESOURCE" {
		size, levels = 8, " MipLevels=0"
		if kind == "FLOAT" && !compare {
			format, comps, kind = "R8G8B8A8_UNORM", 1, "RGBA8"
		}
	}
	texels := 0
	for w := size; ; w /= 2 {
		n := int(w)
		if k.height {
			n *= int(w)
		}
		if k.depth {
			n *= int(w)
		}
		texels += n
		if w == 1 || levels == "" {
			break
		}
	}
	dims := fmt.Sprintf("Width=%d", size)
	if k.height {
		dims += fmt.Sprintf(" Height=%d", size)
	}
	if k.depth {
		dims += fmt.Sprintf(" Depth=%d", size)
	}
	if k.slices > 1 {
		dims += fmt.Sprintf(" ArraySize=%d", k.slices)
	}
	if k.misc != "" {
		dims += " MiscFlags=" + k.misc
	}
	data = corpusData(kind, texels*k.slices*comps)
	fmt.Fprintf(b, "%s = dev.%s %s%s Format=%s BindFlags=%s Data=%s\n", name, k.call, dims, levels, format, bind, data)
	fmt.Fprintf(b, "%sv = dev.%s %s"+end, name, view, name)
}

// corpusTextureKinds are the textures of each dimension: the create call,
// whether it has a height and a depth, its slices and misc flags.
var corpusTextureKinds = map[dxbc.ResourceDimension]struct {
	call          string
	height, depth bool
	slices        int
	misc          string
}{
	dxbc.DimTexture1D: {"CreateTexture1D", false, false, 1, ""}, dxbc.DimTexture1DArray: {"CreateTexture1D", false, false, 2, ""},
	dxbc.DimTexture2D: {"CreateTexture2D", true, false, 1, ""}, dxbc.DimTexture2DArray: {"CreateTexture2D", true, false, 2, ""},
	dxbc.DimTexture3D: {"CreateTexture3D", true, true, 1, ""}, dxbc.DimTextureCube: {"CreateTexture2D", true, false, 6, "TEXTURECUBE"},
	dxbc.DimTextureCubeArray: {"CreateTexture2D", true, false, 12, "TEXTURECUBE"},
}

// corpusVertexInputs is an input layout for a vertex shader's input
// signature, each element a vertex buffer of its own with three vertices
// (system values, SV_VertexID and SV_InstanceID, need none).
func corpusVertexInputs(in *dxbc.Signature) (layout string, vbs []string, strides string) {
	var els, st []string
	for _, e := range in.Elements {
		if e.SystemValue != dxbc.SVUndefined {
			continue
		}
		comps := bits.Len8(e.Mask)
		kind := map[dxbc.ComponentType]string{1: "UINT", 2: "SINT"}[e.ComponentType]
		if kind == "" {
			kind = "FLOAT"
		}
		slot := len(vbs)
		els = append(els, fmt.Sprintf("elem[%s %d %s %d 0 PER_VERTEX 0]", e.Name, e.Index, corpusFormat(kind, comps), slot))
		vbs = append(vbs, fmt.Sprintf("vb%d = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=%s\n", slot, corpusVertexData(kind, comps, slot)))
		st = append(st, fmt.Sprint(4*comps))
	}
	return strings.Join(els, " "), vbs, strings.Join(st, " ")
}

// corpusVertexData is three vertices of an element: a triangle over the
// target in the first two components of a float (z 0.5, w 1), small
// integers otherwise.
func corpusVertexData(kind string, comps, slot int) string {
	tri := [3][4]float32{{-1, -1, 0.5, 1}, {-1, 3, 0.5, 1}, {3, -1, 0.5, 1}}
	var v []string
	for i := range 3 {
		for c := range comps {
			if kind == "FLOAT" {
				x := tri[i][c]
				if slot > 0 {
					x = float32((i+c+slot)%4) * 0.25
				}
				v = append(v, fmt.Sprint(x))
			} else {
				v = append(v, fmt.Sprint((i+c+slot)%3))
			}
		}
	}
	if kind == "FLOAT" {
		return "f32[" + strings.Join(v, " ") + "]"
	}
	return "u32[" + strings.Join(v, " ") + "]"
}

// corpusRegisters merges a signature's elements by register: the
// components of each and the first element's type and system value.
func corpusRegisters(sig *dxbc.Signature, skip func(dxbc.Element) bool) (regs []uint32, by map[uint32]dxbc.Element) {
	by = map[uint32]dxbc.Element{}
	for _, e := range sig.Elements {
		if skip(e) || e.Register == 0xffffffff {
			continue
		}
		if r, ok := by[e.Register]; ok {
			r.Mask |= e.Mask
			by[e.Register] = r
			continue
		}
		by[e.Register] = e
		regs = append(regs, e.Register)
	}
	sort.Slice(regs, func(i, j int) bool { return regs[i] < regs[j] })
	return regs, by
}

// corpusPassThroughPS is a pixel shader whose input signature is a vertex
// shader's output signature: it adds the float inputs into SV_Target0.
func corpusPassThroughPS(vsOut *dxbc.Signature) ([]byte, error) {
	bd := dxbc.NewBuilder(dxbc.PixelShader, 4, 0)
	regs, by := corpusRegisters(vsOut, func(dxbc.Element) bool { return false })
	bd.Emit(dxbc.OpMov, dxbc.Temp(0), dxbc.Imm(0.25, 0.5, 0.75, 1))
	for _, r := range regs {
		e := by[r]
		switch {
		case e.SystemValue == dxbc.SVPosition:
			bd.DclInputPSSIV(r, e.Mask, dxbc.InterpLinearNoPerspective, dxbc.SVPosition)
		case e.SystemValue != dxbc.SVUndefined:
			bd.DclInputPSSIV(r, e.Mask, dxbc.InterpLinear, e.SystemValue)
		case e.ComponentType != 3:
			bd.DclInputPS(r, e.Mask, dxbc.InterpConstant)
		default:
			bd.DclInputPS(r, e.Mask, dxbc.InterpLinear)
			sw := corpusSwizzle(e.Mask)
			bd.Emit(dxbc.OpAdd, dxbc.Temp(0), dxbc.Temp(0), dxbc.Input(r).Swz(sw))
		}
	}
	bd.DclOutput(0, dxbc.XYZW)
	bd.Emit(dxbc.OpMov, dxbc.Output(0), dxbc.Temp(0))
	bd.Ret()
	var in dxbc.Signature
	for _, e := range vsOut.Elements {
		e.ReadWrite = 0
		in.Elements = append(in.Elements, e)
	}
	out := &dxbc.Signature{Elements: []dxbc.Element{{Name: "SV_Target", SystemValue: dxbc.SVTarget, ComponentType: 3, Mask: dxbc.XYZW}}}
	return bd.Build(&in, out, nil)
}

// corpusSwizzle is a swizzle that reads a mask's components, the last
// repeated: .xy -> "xyyy".
func corpusSwizzle(mask uint8) string {
	s := ""
	last := byte('x')
	for i, c := range "xyzw" {
		if mask&(1<<i) != 0 {
			last = byte(c)
		}
		s += string(last)
	}
	return s
}

// corpusFeedingVS is a vertex shader that writes exactly a pixel shader's
// input signature (but what the rasterizer makes: SV_IsFrontFace,
// SV_SampleIndex, SV_PrimitiveID): SV_Position from its input, the rest
// constants.
func corpusFeedingVS(psIn *dxbc.Signature) ([]byte, error) {
	bd := dxbc.NewBuilder(dxbc.VertexShader, 4, 0)
	bd.DclInput(0, dxbc.XYZW)
	generated := func(e dxbc.Element) bool {
		return e.SystemValue == dxbc.SVIsFrontFace || e.SystemValue == dxbc.SVSampleIndex || e.SystemValue == dxbc.SVPrimitiveID
	}
	regs, by := corpusRegisters(psIn, generated)
	hasPos := false
	for _, r := range regs {
		e := by[r]
		switch e.SystemValue {
		case dxbc.SVPosition:
			hasPos = true
			bd.DclOutputSIV(r, e.Mask, dxbc.SVPosition)
			bd.Emit(dxbc.OpMov, dxbc.Output(r).Mask(e.Mask), dxbc.Input(0))
			continue
		case dxbc.SVUndefined:
			bd.DclOutput(r, e.Mask)
		default:
			bd.DclOutputSIV(r, e.Mask, e.SystemValue)
		}
		if e.ComponentType == 3 {
			bd.Emit(dxbc.OpMov, dxbc.Output(r).Mask(e.Mask), dxbc.Imm(0.25, 0.5, 0.75, 1))
		} else {
			bd.Emit(dxbc.OpMov, dxbc.Output(r).Mask(e.Mask), dxbc.ImmUint(1, 2, 3, 0))
		}
	}
	var out dxbc.Signature
	for _, e := range psIn.Elements {
		if generated(e) {
			continue
		}
		e.ReadWrite = 0
		out.Elements = append(out.Elements, e)
	}
	if !hasPos {
		// A pixel shader that reads no SV_Position still needs one to be
		// rasterized: the next free register.
		r := uint32(0)
		for _, x := range regs {
			r = max(r, x+1)
		}
		bd.DclOutputSIV(r, dxbc.XYZW, dxbc.SVPosition)
		bd.Emit(dxbc.OpMov, dxbc.Output(r), dxbc.Input(0))
		out.Elements = append(out.Elements, dxbc.Element{Name: "SV_Position", SystemValue: dxbc.SVPosition, ComponentType: 3, Register: r, Mask: dxbc.XYZW})
	}
	bd.Ret()
	in := &dxbc.Signature{Elements: []dxbc.Element{{Name: "POSITION", ComponentType: 3, Mask: dxbc.XYZW, ReadWrite: dxbc.XYZW}}}
	return bd.Build(in, &out, nil)
}

// corpusTargets writes 8x8 render targets for a pixel shader's outputs
// (SV_TargetN of its type; a depth buffer for SV_Depth), the viewport, and
// binds them with the pixel shader's unordered access views.
func corpusTargets(outs []dxbc.Element, uavs []corpusUAV) string {
	var b strings.Builder
	rtvs := []string{}
	dsv := ""
	for _, e := range outs {
		name := strings.ToUpper(e.Name)
		switch {
		case name == "SV_TARGET":
			for len(rtvs) <= int(e.Register) {
				rtvs = append(rtvs, "NULL")
			}
			kind := map[dxbc.ComponentType]string{1: "UINT", 2: "SINT"}[e.ComponentType]
			format := "R8G8B8A8_UNORM"
			if kind != "" {
				format = corpusFormat(kind, 4)
			}
			fmt.Fprintf(&b, "rt%d = dev.CreateTexture2D Width=8 Height=8 Format=%s BindFlags=RENDER_TARGET\nrtv%d = dev.CreateRenderTargetView rt%d\n",
				e.Register, format, e.Register, e.Register)
			rtvs[e.Register] = fmt.Sprint("rtv", e.Register)
		case strings.HasPrefix(name, "SV_DEPTH"):
			b.WriteString("ds = dev.CreateTexture2D Width=8 Height=8 Format=D32_FLOAT BindFlags=DEPTH_STENCIL\ndsv = dev.CreateDepthStencilView ds\n")
			dsv = " dsv"
		}
	}
	views := strings.Join(rtvs, " ") + dsv
	if len(uavs) > 0 {
		start := uavs[0].slot
		for _, u := range uavs {
			start = min(start, u.slot)
		}
		names := map[uint32]string{}
		last := start
		for _, u := range uavs {
			names[u.slot] = u.name
			last = max(last, u.slot)
		}
		for s := start; s <= last; s++ {
			n := names[s]
			if n == "" {
				n = "NULL"
			}
			views += " " + n
		}
		fmt.Fprintf(&b, "imm.OMSetRenderTargetsAndUnorderedAccessViews %s UAVStartSlot=%d\n", strings.TrimSpace(views), start)
	} else if strings.TrimSpace(views) != "" {
		fmt.Fprintf(&b, "imm.OMSetRenderTargets %s\n", strings.TrimSpace(views))
	}
	b.WriteString("imm.RSSetViewports 0 0 8 8\n")
	return b.String()
}

// corpusLogReasons prints the reasons, the most frequent first, each with
// its count and up to three of its shaders.
func corpusLogReasons(t *testing.T, reasons map[string][]string) {
	t.Helper()
	rs := make([]string, 0, len(reasons))
	for r := range reasons {
		rs = append(rs, r)
	}
	sort.Slice(rs, func(i, j int) bool {
		if len(reasons[rs[i]]) != len(reasons[rs[j]]) {
			return len(reasons[rs[i]]) > len(reasons[rs[j]])
		}
		return rs[i] < rs[j]
	})
	for _, r := range rs {
		ex := reasons[r]
		t.Logf("  %4d %s (%s)", len(ex), r, strings.Join(ex[:min(len(ex), 3)], ", "))
	}
}

// corpusDecl is the controls of a program's first declaration op (its
// primitive, domain ...), or its first extra word for a count.
func corpusDecl(p *dxbc.Program, op dxbc.Opcode) uint32 {
	for _, in := range p.Instructions {
		if in.Op != op {
			continue
		}
		if op == dxbc.OpDclTessDomain || op == dxbc.OpDclInputPrimitive {
			return in.Controls
		}
		// The control-point counts are in the opcode token's bits 11..16.
		return in.Controls & 0x3f
	}
	return 0
}

// corpusFeed writes a vertex shader that writes exactly a stage's input
// signature, fed by a vertex buffer of n positions.
func corpusFeed(b *strings.Builder, in *dxbc.Signature, n int) error {
	vs, err := corpusFeedingVS(in)
	if err != nil {
		return fmt.Errorf("feeding vertex shader: %v", err)
	}
	pos := [][4]float32{{-1, -1, 0.5, 1}, {-1, 3, 0.5, 1}, {3, -1, 0.5, 1}, {0, 0, 0.5, 1}}
	var v []string
	for i := range max(n, 1) {
		for _, x := range pos[i%4] {
			v = append(v, fmt.Sprint(x))
		}
	}
	fmt.Fprintf(b, "vs = dev.CreateVertexShader bytes:%s\n", hex.EncodeToString(vs))
	b.WriteString("il = dev.CreateInputLayout vs elem[POSITION 0 R32G32B32A32_FLOAT 0]\nimm.IASetInputLayout il\n")
	fmt.Fprintf(b, "vb = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=f32[%s]\n", strings.Join(v, " "))
	b.WriteString("imm.IASetVertexBuffers 0 vb Stride=16\nimm.VSSetShader vs\n")
	return nil
}

// corpusRaster writes a pass-through pixel shader for the last stage's
// outputs (none if they have no SV_Position), a render target and the
// draw of n vertices.
func corpusRaster(b *strings.Builder, out *dxbc.Signature, topo string, n int) error {
	for _, e := range out.Elements {
		if e.SystemValue == dxbc.SVPosition {
			ps, err := corpusPassThroughPS(out)
			if err != nil {
				return fmt.Errorf("pass-through pixel shader: %v", err)
			}
			fmt.Fprintf(b, "ps = dev.CreatePixelShader bytes:%s\nimm.PSSetShader ps\n", hex.EncodeToString(ps))
			break
		}
	}
	b.WriteString(corpusTargets([]dxbc.Element{{Name: "SV_Target", ComponentType: 3, Mask: dxbc.XYZW}}, nil))
	fmt.Fprintf(b, "imm.IASetPrimitiveTopology %s\nimm.Draw %d\n", topo, n)
	return nil
}

// corpusStream0 is a geometry shader's stream-0 outputs.
func corpusStream0(out *dxbc.Signature) *dxbc.Signature {
	s := &dxbc.Signature{}
	for _, e := range out.Elements {
		if e.Stream == 0 {
			s.Elements = append(s.Elements, e)
		}
	}
	return s
}

// corpusPatchSignature is a hull or domain shader's PCSG.
func corpusPatchSignature(c *dxbc.Container) (*dxbc.Signature, error) {
	ch := c.Chunk("PCSG")
	if ch == nil {
		return &dxbc.Signature{}, nil
	}
	s, err := dxbc.ParseSignature("PCSG", ch.Data)
	if err != nil {
		return nil, fmt.Errorf("patch-constant signature: %v", err)
	}
	return s, nil
}

var corpusDomains = []string{"domain_undefined", "domain_isoline", "domain_tri", "domain_quad"}

// corpusDomainOut is the made domain shader's output: SV_Position.
var corpusDomainOut = &dxbc.Signature{Elements: []dxbc.Element{{Name: "SV_Position", SystemValue: dxbc.SVPosition, ComponentType: 3, Mask: dxbc.XYZW}}}

// corpusAssemble assembles a listing and lays it out with the signatures
// given (the assembler writes no patch-constant signature).
func corpusAssemble(text string, build func(*dxbc.Program) ([]byte, error)) ([]byte, error) {
	bc, err := dxbc.Assemble(text)
	if err != nil {
		return nil, err
	}
	c, err := dxbc.Parse(bc)
	if err != nil {
		return nil, err
	}
	p, err := c.Program()
	if err != nil {
		return nil, err
	}
	return build(p)
}

// corpusDomainFor is a domain shader for a hull shader: its output control
// points and patch constants as its inputs (read by none), the domain
// location as the position.
func corpusDomainFor(hs *dxbc.Program, hsOut, pcsg *dxbc.Signature) ([]byte, error) {
	n := corpusDecl(hs, dxbc.OpDclOutputControlPointCount)
	dom := corpusDecl(hs, dxbc.OpDclTessDomain) & 3
	text := fmt.Sprintf(`ds_5_0
dcl_input_control_point_count %d
dcl_tessellator_domain %s
dcl_input vDomain.xy
dcl_output_siv o0.xyzw, position
mad o0.xy, vDomain.xyxx, l(2.0, 2.0, 0.0, 0.0), l(-1.0, -1.0, 0.0, 0.0)
mov o0.zw, l(0.0, 0.0, 0.5, 1.0)
ret
`, n, corpusDomains[dom])
	return corpusAssemble(text, func(p *dxbc.Program) ([]byte, error) {
		return dxbc.BuildShaderPatch(p, hsOut, corpusDomainOut, pcsg, nil)
	})
}

// corpusTessNames are the dcl_output_siv names of the tess factors, by
// their signature's system value (the first of each, the semantic index
// added).
var corpusTessNames = map[dxbc.SystemValue]uint32{
	dxbc.SVQuadEdgeTess: 11, dxbc.SVQuadInsideTess: 15, dxbc.SVTriEdgeTess: 17, dxbc.SVTriInsideTess: 20,
	dxbc.SVLineDetailTess: 21, dxbc.SVLineDensityTess: 22,
}

// corpusTessFactors is a domain's tess factors as fxc lays them out, for
// a domain shader that has no patch-constant signature (an assembled
// listing): a quad's four edges and two insides, a triangle's three and
// one, an isoline's density and detail, a register each.
func corpusTessFactors(domain uint32) *dxbc.Signature {
	kinds := map[uint32][]dxbc.SystemValue{
		1: {dxbc.SVLineDensityTess, dxbc.SVLineDetailTess},
		2: {dxbc.SVTriEdgeTess, dxbc.SVTriEdgeTess, dxbc.SVTriEdgeTess, dxbc.SVTriInsideTess},
		3: {dxbc.SVQuadEdgeTess, dxbc.SVQuadEdgeTess, dxbc.SVQuadEdgeTess, dxbc.SVQuadEdgeTess, dxbc.SVQuadInsideTess, dxbc.SVQuadInsideTess},
	}[domain]
	s := &dxbc.Signature{}
	index := map[dxbc.SystemValue]uint32{}
	for r, sv := range kinds {
		name := "SV_TessFactor"
		if sv == dxbc.SVTriInsideTess || sv == dxbc.SVQuadInsideTess {
			name = "SV_InsideTessFactor"
		}
		s.Elements = append(s.Elements, dxbc.Element{Name: name, Index: index[sv], SystemValue: sv, ComponentType: 3, Register: uint32(r), Mask: dxbc.X})
		if sv != dxbc.SVLineDensityTess && sv != dxbc.SVLineDetailTess {
			index[sv]++
		}
	}
	if domain == 1 {
		s.Elements[1].Index = 1 // SV_TessFactor[1], the detail
	}
	return s
}

// corpusTessListing are the listing's names of D3D10_SB_NAME 11 to 22.
var corpusTessListing = []string{"finalQuadUeq0EdgeTessFactor", "finalQuadVeq0EdgeTessFactor", "finalQuadUeq1EdgeTessFactor",
	"finalQuadVeq1EdgeTessFactor", "finalQuadUInsideTessFactor", "finalQuadVInsideTessFactor",
	"finalTriUeq0EdgeTessFactor", "finalTriVeq0EdgeTessFactor", "finalTriWeq0EdgeTessFactor",
	"finalTriInsideTessFactor", "finalLineDetailTessFactor", "finalLineDensityTessFactor"}

// corpusHullFor is a hull shader for a domain shader: its control points
// passed through (no control-point phase), one fork phase writing every
// tess factor 2 and the other patch constants a pattern.
func corpusHullFor(ds *dxbc.Program, n uint32, cp, pcsg *dxbc.Signature) ([]byte, error) {
	dom := corpusDecl(ds, dxbc.OpDclTessDomain) & 3
	prim := "output_triangle_cw"
	if dom == 1 {
		prim = "output_line"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "hs_5_0\nhs_decls\ndcl_input_control_point_count %d\ndcl_output_control_point_count %d\n", n, n)
	fmt.Fprintf(&b, "dcl_tessellator_domain %s\ndcl_tessellator_partitioning partitioning_integer\n", corpusDomains[dom])
	fmt.Fprintf(&b, "dcl_tessellator_output_primitive %s\nhs_fork_phase\n", prim)
	var code strings.Builder
	regs, by := corpusRegisters(pcsg, func(e dxbc.Element) bool { return corpusTessNames[e.SystemValue] != 0 })
	for _, e := range pcsg.Elements {
		if name, ok := corpusTessNames[e.SystemValue]; ok {
			c := "xyzw"[bits.TrailingZeros8(e.Mask)]
			if e.SystemValue != dxbc.SVLineDetailTess && e.SystemValue != dxbc.SVLineDensityTess {
				name += e.Index // an isoline's two are told apart by their system values
			}
			fmt.Fprintf(&b, "dcl_output_siv o%d.%c, %s\n", e.Register, c, corpusTessListing[name-11])
			fmt.Fprintf(&code, "mov o%d.%c, l(2.0)\n", e.Register, c)
		}
	}
	for _, r := range regs {
		m := corpusMask(by[r].Mask)
		fmt.Fprintf(&b, "dcl_output o%d.%s\n", r, m)
		fmt.Fprintf(&code, "mov o%d.%s, l(0.25, 0.5, 0.75, 1.0)\n", r, m)
	}
	b.WriteString(code.String() + "ret\n")
	return corpusAssemble(b.String(), func(p *dxbc.Program) ([]byte, error) {
		return dxbc.BuildShaderHull(p, cp, cp, pcsg, nil)
	})
}

// corpusMask is a write mask's letters: 0b0101 -> "xz".
func corpusMask(m uint8) string {
	s := ""
	for i, c := range "xyzw" {
		if m&(1<<i) != 0 {
			s += string(c)
		}
	}
	return s
}
