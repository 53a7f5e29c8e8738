package translate

import (
	"encoding/binary"
	"os"
	"slices"
	"strings"
	"testing"

	"d3dsim/core/dxbc"
	"d3dsim/gpu/shader"
	"d3dsim/gpu/shaderisa"
)

// computeShader assembles testdata/compute/NAME.asm and translates it.
func computeShader(t *testing.T, name string) *Shader {
	t.Helper()
	text, err := os.ReadFile("testdata/compute/" + name + ".asm")
	if err != nil {
		t.Fatal(err)
	}
	bc, err := dxbc.Assemble(string(text))
	if err != nil {
		t.Fatal(err)
	}
	sh, err := Translate(bc, dxbc.ComputeShader)
	if err != nil {
		t.Fatal(err)
	}
	return sh
}

// dispatch runs groups thread groups (one-dimensional) of sh, filling the
// thread identifiers as the GPU does.
func dispatch(t *testing.T, sh *Shader, groups int, uavs [shaderisa.MaxUAVs]*shader.UAV) {
	t.Helper()
	m := shader.NewMachine(sh.Program)
	m.BindCompute(uavs)
	g := sh.ThreadGroup
	n := int(g[0] * g[1] * g[2])
	for gid := range groups {
		shared := make([]uint32, m.SharedWords())
		_, err := m.RunGroup(n, shared, func(b int) {
			for l := range shader.Lanes {
				idx := uint32(b*shader.Lanes + l)
				tx, ty, tz := idx%g[0], idx/g[0]%g[1], idx/(g[0]*g[1])
				for r, v := range [4][3]uint32{{uint32(gid)*g[0] + tx, ty, tz}, {uint32(gid), 0, 0}, {tx, ty, tz}, {idx, 0, 0}} {
					m.In(r)[0][l], m.In(r)[1][l], m.In(r)[2][l] = v[0], v[1], v[2]
				}
			}
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

func words(b []byte) []uint32 {
	out := make([]uint32, len(b)/4)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return out
}

// TestComputePrefixSum: groupshared memory, barriers inside a loop, a raw
// view: each group of 256 words becomes its inclusive prefix sum.
func TestComputePrefixSum(t *testing.T) {
	sh := computeShader(t, "prefix_sum")
	if sh.Stage != shaderisa.StageCompute || sh.ThreadGroup != [3]uint32{256, 1, 1} ||
		len(sh.UAVs) != 1 || sh.UAVs[0].Dimension != dxbc.DimRawBuffer {
		t.Fatalf("stage %v, group %v, UAVs %+v", sh.Stage, sh.ThreadGroup, sh.UAVs)
	}
	data := make([]byte, 4*512)
	in := make([]uint32, 512)
	for i := range in {
		in[i] = uint32(i*37%101) + 1
		binary.LittleEndian.PutUint32(data[4*i:], in[i])
	}
	dispatch(t, sh, 2, [shaderisa.MaxUAVs]*shader.UAV{0: {Kind: shader.ViewRawBuffer, Mem: data}})
	var sum uint32
	for i, v := range words(data) {
		if i%256 == 0 {
			sum = 0
		}
		sum += in[i]
		if v != sum {
			t.Fatalf("word %d = %d, want %d", i, v, sum)
		}
	}
}

// TestComputeHistogram: atomics on groupshared memory and on a raw view,
// InterlockedMax, an append view's counter.
func TestComputeHistogram(t *testing.T) {
	sh := computeShader(t, "histogram")
	if len(sh.UAVs) != 3 || !sh.UAVs[2].Counter || sh.UAVs[0].Stride != 4 {
		t.Fatalf("UAVs %+v", sh.UAVs)
	}
	const n = 256
	vals := make([]byte, 4*n)
	var want [16]uint32
	var maxBin uint32
	var small []uint32
	for i := range n {
		v := uint32(i*i*13+7) % 97
		binary.LittleEndian.PutUint32(vals[4*i:], v)
		want[v&15]++
		if v < 8 {
			small = append(small, uint32(i))
		}
	}
	// The largest bin count of any one group.
	for g := range n / 64 {
		var bins [16]uint32
		for i := g * 64; i < g*64+64; i++ {
			bins[binary.LittleEndian.Uint32(vals[4*i:])&15]++
		}
		for _, b := range bins {
			maxBin = max(maxBin, b)
		}
	}
	hist := make([]byte, 4*17)
	list := make([]byte, 4*n)
	var counter uint32
	dispatch(t, sh, n/64, [shaderisa.MaxUAVs]*shader.UAV{
		0: {Kind: shader.ViewStructured, Mem: vals, Stride: 4, Elements: n},
		1: {Kind: shader.ViewRawBuffer, Mem: hist},
		2: {Kind: shader.ViewStructured, Mem: list, Stride: 4, Elements: n, Counter: &counter},
	})
	got := words(hist)
	for b := range 16 {
		if got[b] != want[b] {
			t.Fatalf("bin %d = %d, want %d (%v)", b, got[b], want[b], got)
		}
	}
	if got[16] != maxBin {
		t.Errorf("largest bin %d, want %d", got[16], maxBin)
	}
	// The threads run in order: the list is in thread order.
	if int(counter) != len(small) || !slicesEqual(words(list)[:counter], small) {
		t.Errorf("appended %d: %v, want %v", counter, words(list)[:counter], small)
	}
}

func slicesEqual(a, b []uint32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Compute instructions outside a compute shader, and the UAV kinds the GPU
// lacks, are refused by name.
func TestComputeRefusals(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"vs_5_0\ndcl_uav_raw u1\nret\n", "dcl_uav_raw: unordered access views (RWTexture*, RWBuffer, RWStructuredBuffer, RWByteAddressBuffer, AppendStructuredBuffer) outside a compute or pixel shader"},
		{"ps_5_0\ndcl_tgsm_raw g0, 16\nret\n", "dcl_tgsm_raw: thread groups, groupshared memory and barriers outside a compute shader"},
		{"ps_5_0\nsync_uglobal\nret\n", "sync: thread groups, groupshared memory and barriers outside a compute shader"},
		{"cs_5_0\ndcl_uav_typed_texturecube (float,float,float,float) u0\ndcl_thread_group 1, 1, 1\nret\n", "dcl_uav_typed_texturecube u0: this GPU's typed unordered access views are buffers and 1D, 2D and 3D textures"},
		{"cs_5_0\ndcl_uav_raw u0\ndcl_thread_group 1, 1, 1\nstore_structured u0.x, l(0), l(0), l(1)\nret\n", "structured access is for RWStructuredBuffer"},
		{"cs_5_0\ndcl_temps 1\ndcl_tgsm_raw g0, 16\ndcl_thread_group 1, 1, 1\nld_structured r0.x, l(0), l(0), g0.xxxx\nret\n", "declared raw"},
		{"cs_5_0\ndcl_temps 1\ndcl_thread_group 1, 1, 1\nimm_atomic_alloc r0.x, u3\nret\n", "u3 is not declared"},
		{"cs_5_0\ndcl_uav_typed_buffer (float,float,float,float) u0\ndcl_temps 1\ndcl_thread_group 1, 1, 1\nresinfo r0.xy, l(0), u0.xyzw\nret\n", "resinfo of u0, a buffer view: GetDimensions of a RWTexture view (a buffer view's is bufinfo)"},
	} {
		bc, err := dxbc.Assemble(c.text)
		if err != nil {
			t.Fatalf("%q: %v", c.text, err)
		}
		stage := dxbc.ComputeShader
		if strings.HasPrefix(c.text, "ps") {
			stage = dxbc.PixelShader
		}
		if strings.HasPrefix(c.text, "vs") {
			stage = dxbc.VertexShader
		}
		_, err = Translate(bc, stage)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.text, err, c.want)
		}
	}
}

// GetDimensions of the compute stage's buffer views: a typed view's
// elements, a raw view's bytes, a structured view's structures.
func TestComputeBufInfo(t *testing.T) {
	bc, err := dxbc.Assemble(`cs_5_0
dcl_uav_typed_buffer (uint,uint,uint,uint) u0
dcl_uav_raw u1
dcl_uav_structured u2, 8
dcl_temps 1
dcl_thread_group 1, 1, 1
bufinfo r0.x, u0.xxxx
bufinfo r0.y, u1.xxxx
bufinfo r0.z, u2.xxxx
store_raw u1.xyz, l(0), r0.xyzx
ret
`)
	if err != nil {
		t.Fatal(err)
	}
	sh, err := Translate(bc, dxbc.ComputeShader)
	if err != nil {
		t.Fatal(err)
	}
	raw := make([]byte, 40)
	dispatch(t, sh, 1, [shaderisa.MaxUAVs]*shader.UAV{
		0: {Kind: shader.ViewBuffer, Mem: make([]byte, 28), Stride: 4, Elements: 7},
		1: {Kind: shader.ViewRawBuffer, Mem: raw},
		2: {Kind: shader.ViewStructured, Mem: make([]byte, 24), Stride: 8, Elements: 3},
	})
	if got := words(raw)[:3]; got[0] != 7 || got[1] != 40 || got[2] != 3 {
		t.Fatalf("bufinfo = %v, want [7 40 3]", got)
	}
}

// TestComputeAtomicViewWithoutComponents: fxc writes the view of an
// imm_atomic_* as an operand with no components (imm_atomic_iadd r0.x, u0,
// l(0), l(5)), where d3dsim's assembler writes u0.xyzw; both translate and
// run (real fxc output of a public engine's compute shaders was refused
// with "a source without components").
func TestComputeAtomicViewWithoutComponents(t *testing.T) {
	u0 := dxbc.Operand{Type: dxbc.RegUAV, Indices: []dxbc.Index{{Imm: 0}}}
	decl := u0
	decl.Components = 0
	p := &dxbc.Program{Type: dxbc.ComputeShader, Major: 5, Instructions: []dxbc.Instruction{
		{Op: dxbc.OpDclUAVRaw, Operands: []dxbc.Operand{decl}},
		{Op: dxbc.OpDclTemps, Extra: []uint32{1}},
		{Op: dxbc.OpDclThreadGroup, Extra: []uint32{1, 1, 1}},
		{Op: dxbc.OpImmAtomicIadd, Operands: []dxbc.Operand{dxbc.Temp(0).Mask(dxbc.X), u0, dxbc.ImmUint(0), dxbc.ImmUint(5)}},
		{Op: dxbc.OpImmAtomicExch, Operands: []dxbc.Operand{dxbc.Temp(0).Mask(dxbc.Y), u0, dxbc.ImmUint(4), dxbc.ImmUint(9)}},
		{Op: dxbc.OpStoreRaw, Operands: []dxbc.Operand{{Type: dxbc.RegUAV, Components: 4, Mode: dxbc.SelectMask, WriteMask: dxbc.X | dxbc.Y, Indices: []dxbc.Index{{Imm: 0}}}, dxbc.ImmUint(8), dxbc.Temp(0).Swz("xyxx")}},
		{Op: dxbc.OpRet},
	}}
	bc, err := dxbc.BuildShader(p, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	sh, err := Translate(bc, dxbc.ComputeShader)
	if err != nil {
		t.Fatal(err)
	}
	raw := []byte{2, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
	dispatch(t, sh, 1, [shaderisa.MaxUAVs]*shader.UAV{0: {Kind: shader.ViewRawBuffer, Mem: raw}})
	if got, want := words(raw), []uint32{7, 9, 2, 7}; !slices.Equal(got, want) {
		t.Fatalf("words %v, want %v (the sum, the exchanged value, and the two old values)", got, want)
	}
}
