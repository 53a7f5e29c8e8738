package translate

import (
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"d3dsim/core/dxbc"
	"d3dsim/gpu/shader"
	"d3dsim/gpu/shaderisa"
)

// geometryShader assembles testdata/geometry/NAME.asm and translates it.
func geometryShader(t *testing.T, name string) *Shader {
	t.Helper()
	text, err := os.ReadFile("testdata/geometry/" + name + ".asm")
	if err != nil {
		t.Fatal(err)
	}
	bc, err := dxbc.Assemble(string(text))
	if err != nil {
		t.Fatal(err)
	}
	sh, err := Translate(bc, dxbc.GeometryShader)
	if err != nil {
		t.Fatal(err)
	}
	return sh
}

type fixedCB [4]uint32

func (c fixedCB) Constant(slot, elem int) ([4]uint32, error) {
	if slot == 0 && elem == 0 {
		return c, nil
	}
	return [4]uint32{}, nil
}

// TestGeometryBillboard: a point becomes the four corners of a square, as
// a triangle strip, with the point's colour; an odd SV_PrimitiveID emits
// nothing.
func TestGeometryBillboard(t *testing.T) {
	sh := geometryShader(t, "billboard")
	d := sh.GS
	if sh.Stage != shaderisa.StageGeometry || d.Input != shaderisa.GSInPoint || d.Output != shaderisa.GSOutTriangleStrip ||
		d.MaxVertices != 4 || d.Instances != 1 || d.Stride != 2 {
		t.Fatalf("stage %v, declaration %+v", sh.Stage, d)
	}
	m := shader.NewMachine(sh.Program)
	f := math.Float32bits
	if err := m.Bind(fixedCB{f(0.25), f(0.5), 0, 0}, nil); err != nil {
		t.Fatal(err)
	}
	// Lane 0: primitive 0 at (0.1, 0.2); lane 1: primitive 1.
	for l, p := range [][4]float32{{0.1, 0.2, 0.5, 1}, {-0.5, -0.5, 0, 1}} {
		for c := range 4 {
			m.In(0)[c][l] = f(p[c])
			m.In(1)[c][l] = f(float32(c + l))
		}
		m.In(int(d.PrimitiveIDReg()))[0][l] = uint32(l)
	}
	var got [2][]string
	m.Emit = func(lanes uint64, cut bool, _ uint8) {
		for l := range 2 {
			if lanes>>l&1 == 0 {
				continue
			}
			if cut {
				got[l] = append(got[l], "cut")
				continue
			}
			o, col := m.Out(0), m.Out(1)
			v := func(r *shader.Vec, c int) float32 { return math.Float32frombits(r[c][l]) }
			got[l] = append(got[l], (strings.Join([]string{ftoa(v(o, 0)), ftoa(v(o, 1)), ftoa(v(o, 2)), ftoa(v(o, 3)), ftoa(v(col, 0)), ftoa(v(col, 3))}, " ")))
		}
	}
	if _, err := m.Run(3); err != nil {
		t.Fatal(err)
	}
	want := []string{"-0.15 0.70 0.50 1.00 0.00 3.00", "0.35 0.70 0.50 1.00 0.00 3.00", "-0.15 -0.30 0.50 1.00 0.00 3.00", "0.35 -0.30 0.50 1.00 0.00 3.00", "cut"}
	if strings.Join(got[0], "|") != strings.Join(want, "|") || len(got[1]) != 0 {
		t.Fatalf("emitted\n%q\n%q\nwant\n%q and nothing", got[0], got[1], want)
	}
}

func ftoa(f float32) string { return fmt.Sprintf("%.2f", f) }

// What the geometry stage refuses, by name: a stream past 0 of gs_4_0 or
// past 3, several streams of strips, a
// maxvertexcount past 1024 output scalars, SV_RenderTargetArrayIndex.
func TestGeometryRefusals(t *testing.T) {
	text, err := os.ReadFile("testdata/geometry/billboard.asm")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, from, to, want string }{
		{"stream 1 of gs_4_0", "emit\n", "emit_stream m1\n", "emit_stream m1: streams past m0 need gs_5_0"},
		{"declared stream 1 of gs_4_0", "dcl_maxout 4\n", "dcl_maxout 4\ndcl_stream m1\n", "dcl_stream m1: streams past m0 need gs_5_0"},
		{"stream 4", "gs_4_0\n", "gs_5_0\n", "emit_stream m4: a geometry shader has streams m0..m3"},
		{"two streams of triangle strips", "gs_4_0\n", "gs_5_0\n", "writes several streams outputs point lists"},
		{"1028 scalars", "dcl_maxout 4\n", "dcl_maxout 129\n", "maxvertexcount(129) times 8 output components is past the 1024 scalars"},
		{"render target array index", "dcl_output o1.xyzw\n", "dcl_output o1.xyzw\ndcl_output_siv o2.x, rendertarget_array_index\n", "SV_RenderTargetArrayIndex"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.Replace(string(text), tc.from, tc.to, 1)
			switch tc.name {
			case "stream 4":
				src = strings.Replace(src, "cut\nret", "emit_stream m4\nret", 1)
			case "two streams of triangle strips":
				src = strings.Replace(src, "cut\nret", "emit_stream m1\nret", 1)
			}
			if tc.name == "render target array index" {
				src = strings.Replace(src, "// COLOR                    0   xyzw        1     NONE   float   xyzw\n//\ngs_4_0",
					"// COLOR                    0   xyzw        1     NONE   float   xyzw\n// SV_RenderTargetArrayIndex     0   x           2  RTINDEX    uint   x\n//\ngs_4_0", 1)
			}
			bc, err := dxbc.Assemble(src)
			if err != nil {
				t.Fatal(err)
			}
			typ := dxbc.GeometryShader
			if strings.Contains(src, "vs_4_0") {
				typ = dxbc.VertexShader
			}
			_, err = Translate(bc, typ)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one with %q", err, tc.want)
			}
		})
	}
}

// TestGeometryOutline: a triangle's outline as a line strip of four
// vertices, the input array indexed by a register in a loop
// (v[r0.z + 0][0], the vertex index i % 3): the emitted positions are
// vertices 0, 1, 2 and 0 again.
func TestGeometryOutline(t *testing.T) {
	sh := geometryShader(t, "outline")
	d := sh.GS
	if d.Input != shaderisa.GSInTriangle || d.Output != shaderisa.GSOutLineStrip || d.Stride != 2 || sh.Program.Inputs != 8 {
		t.Fatalf("declaration %+v, %d inputs", d, sh.Program.Inputs)
	}
	m := shader.NewMachine(sh.Program)
	m.Bind(nil, nil)
	for v := range 3 {
		m.In(v * 2)[0][0] = math.Float32bits(float32(v + 1)) // x of vertex v
		m.In(v*2 + 1)[1][0] = math.Float32bits(float32(10 * (v + 1)))
	}
	var got []string
	m.Emit = func(lanes uint64, cut bool, _ uint8) {
		got = append(got, fmt.Sprint(math.Float32frombits(m.Out(0)[0][0]), math.Float32frombits(m.Out(1)[1][0])))
	}
	if _, err := m.Run(1); err != nil {
		t.Fatal(err)
	}
	if want := "[1 10 2 20 3 30 1 10]"; fmt.Sprint(got) != want {
		t.Fatalf("emitted %v, want %s", got, want)
	}
}

// TestGeometryStreams: gs_5_0's emit_stream m0 and m1 become the ISA's
// emit with the stream in the instruction (emit_s1 in its listing); the
// outputs declared after dcl_stream m1 are stream 1's; the machine hands
// the stage each emit's stream and the o# registers as they were.
func TestGeometryStreams(t *testing.T) {
	sh := geometryShader(t, "streams")
	if sh.GS.Output != shaderisa.GSOutPointList || sh.GS.MaxVertices != 2 {
		t.Fatalf("declaration %+v", sh.GS)
	}
	var streams []uint8
	for _, o := range sh.Outputs {
		streams = append(streams, o.Stream)
	}
	if fmt.Sprint(streams) != "[0 0 1 1]" {
		t.Fatalf("the outputs' streams %v, want [0 0 1 1]", streams)
	}
	if listing := sh.Program.String(); !strings.Contains(listing, "emit_s1") || strings.Contains(listing, "emit_s0") {
		t.Fatalf("listing without emit_s1 (or with emit_s0):\n%s", listing)
	}
	m := shader.NewMachine(sh.Program)
	if err := m.Bind(fixedCB{}, nil); err != nil {
		t.Fatal(err)
	}
	f := math.Float32bits
	for c, v := range [4]float32{0.1, 0.2, 0.5, 1} {
		m.In(0)[c][0] = f(v)
		m.In(1)[c][0] = f(float32(c))
	}
	var got []string
	m.Emit = func(lanes uint64, cut bool, stream uint8) {
		v := func(r int, c int) string { return ftoa(math.Float32frombits(m.Out(r)[c][0])) }
		got = append(got, fmt.Sprintf("m%d %s %s %s", stream, v(0, 0), v(1, 0), v(1, 1)))
	}
	if _, err := m.Run(1); err != nil {
		t.Fatal(err)
	}
	if want := "m0 0.10 0.00 1.00|m1 0.35 1.00 1.00"; strings.Join(got, "|") != want {
		t.Fatalf("emitted %q, want %q", got, want)
	}
}
