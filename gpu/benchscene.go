package gpu

import (
	"d3dsim/gpu/isa"
	"d3dsim/gpu/shader"
	"d3dsim/gpu/shaderisa"
	"encoding/binary"
	"math"
	"slices"

	"d3dsim/core/sim"
)

// The benchmark scenes of the rasterizer, defined here in code so
// that figures compare across versions. `d3dsim bench` and the package
// benchmarks (bench_test.go) both run them; the CLI also runs the fill scene
// through every layer as a scenario with the same vertices.

// BenchScene is the GPU work of one frame of a benchmark scene: a Width x
// Height RGBA8 target, the vertex program VS and pixel program PS, no depth
// buffer, no blending, culling of back faces (D3D11's default), Draws DRAW
// packets of Count vertices from the start of Vertices (a triangle list in
// the built-in 9-float vertex format).
type BenchScene struct {
	Name          string
	Width, Height int
	Vertices      []float32
	Draws         int
	Count         int
	Triangles     uint64 // triangles drawn per frame
	Pixels        uint64 // pixels shaded per frame

	// Programs in the GPU's ISA (gpu/shaderisa assembly), bound from memory
	// with SET_PROGRAM and the built-in vertex's SET_LAYOUT; "" for the
	// reference programs vs_passthrough and ps_vertexcolor (builtins.go).
	VS, PS string
	// Texture is the side of a square RGBA8 texture in slot 0 (linear
	// filtering, clamp), 0 for none.
	Texture int
}

// TexturedColorPS is the ImGui pixel shader in the ISA: texture × vertex
// colour.
const TexturedColorPS = `ps inputs=3 outputs=1 temps=1
sample r0, v2.xyxx, t0, s0
mul o0, r0, v1`

// FillTexturedISAScene is fill with a 64x64 texture over each quad (uv 0..1)
// multiplied by the vertex colour (TexturedColorPS), bilinear.
func FillTexturedISAScene() BenchScene {
	sc := FillScene()
	sc.Name = "fill-textured-isa"
	sc.Vertices = slices.Clone(sc.Vertices)
	for i := 0; i < len(sc.Vertices); i += 9 {
		sc.Vertices[i+7] = (sc.Vertices[i] + 1) / 2
		sc.Vertices[i+8] = (1 - sc.Vertices[i+1]) / 2
	}
	sc.PS, sc.Texture = TexturedColorPS, 64
	return sc
}

// PhongHLSL is the bench's Phong pixel shader in HLSL: the normal of a
// sphere bulging out of the quad, taken from its uv (a quad's uv goes 0..1),
// lit by one light from a fixed direction (normalised in the source) with
// an ambient, a diffuse and a specular term (Phong's reflection vector, the
// viewer on the z axis), times the vertex colour. PhongPS is what the HLSL
// compiler and the UMD's translator make of it (cmd/d3dsim's tests check
// that), and cmd/d3dsim/peer/llvmpipe.c has it in GLSL.
const PhongHLSL = `float4 main(float4 pos : SV_Position, float4 col : COLOR, float2 uv : TEXCOORD) : SV_Target {
    float3 n = normalize(float3(uv * 2 - 1, 1));
    float3 l = float3(0.3904, 0.4880, 0.7807);
    float3 r = reflect(-l, n);
    float diff = saturate(dot(n, l));
    float spec = pow(saturate(r.z), 16);
    return float4(col.rgb * (0.1 + 0.8 * diff) + 0.5 * spec, col.a);
}`

// PhongPS is PhongHLSL compiled (ps_4_0) and translated.
const PhongPS = `ps inputs=3 outputs=1 temps=3
mad r0.xy, v2.xyxx, l(2.0, 2.0, 2.0, 2.0), l(-1.0, -1.0, -1.0, -1.0)
mov r0.z, l(1.0, 1.0, 1.0, 1.0).x
mov r1.xy, r0.xyxx
mov r1.z, l(1.0, 1.0, 1.0, 1.0).x
dp3 r2.x, r0.xyzx, r1.xyzx
rsq r1.x, r2.x
mov r0.z, l(1.0, 1.0, 1.0, 1.0).x
mul r2.xyz, r1.x, r0.xyzx
dp3 r0.x, r2.xyzx, -l(0.3904, 0.488, 0.7807, 0.3904)
add r1.x, r0.x, r0.x
mad_sat r0.x, -r1.x, r2.z, -l(0.7807, 0.7807, 0.7807, 0.7807).x
dp3_sat r1.x, r2.xyzx, l(0.3904, 0.488, 0.7807, 0.3904)
log2 r2.x, |r0.x|
mul r0.x, r2.x, l(16.0, 16.0, 16.0, 16.0).x
exp2 r2.x, r0.x
mad r0.x, l(0.8, 0.8, 0.8, 0.8).x, r1.x, l(0.1, 0.1, 0.1, 0.1).x
mul r1.x, l(0.5, 0.5, 0.5, 0.5).x, r2.x
mad o0.xyz, v1.xyzx, r0.x, r1.x
mov o0.w, v1.w
ret`

// LoopHLSL is the bench's pixel shader with a loop: eight rounds of an
// iterated map of the uv (fractional parts, so every value stays in [0, 1)),
// each adding the vertex colour weighted by the point's coordinates. [loop]
// keeps the loop a loop in the program (the GPU runs its loop, counter and
// break: the machine's control flow per pixel); LoopPS is the program, and
// the peer's GLSL twin is the same loop.
const LoopHLSL = `float4 main(float4 pos : SV_Position, float4 col : COLOR, float2 uv : TEXCOORD) : SV_Target {
    float3 c = 0;
    float2 p = uv;
    [loop] for (int i = 0; i < 8; i++) {
        p = frac(p * 1.9 + 0.13);
        c += col.rgb * (p.x * p.y);
    }
    return float4(c * 0.5, 1);
}`

// LoopPS is LoopHLSL compiled (ps_4_0) and translated.
const LoopPS = `ps inputs=3 outputs=1 temps=6
mov r0.xyz, l(0, 0, 0, 0)
mov r1.xy, v2.xyxx
mov r2.x, l(0, 0, 0, 0).x
loop
  ilt r3.x, r2.x, l(8, 8, 8, 8).x
  breakc_z r3.x
  mad r4.xy, r1.xyxx, l(1.9, 1.9, 1.9, 1.9), l(0.13, 0.13, 0.13, 0.13)
  frc r1.xy, r4.xyxx
  mul r5.x, r1.x, r1.y
  mad r0.xyz, v1.xyzx, r5.x, r0.xyzx
  iadd r2.x, r2.x, l(1, 1, 1, 1).x
endloop
mul o0.xyz, r0.xyzx, l(0.5, 0.5, 0.5, 0.5)
mov o0.w, l(1.0, 1.0, 1.0, 1.0).x
ret`

// FillPhongScene is fill with uv over each quad (as FillTexturedISAScene,
// no texture) shaded by PhongPS.
func FillPhongScene() BenchScene {
	sc := FillTexturedISAScene()
	sc.Name, sc.PS, sc.Texture = "fill-phong", PhongPS, 0
	return sc
}

// FillLoopScene is fill with uv over each quad shaded by LoopPS.
func FillLoopScene() BenchScene {
	sc := FillTexturedISAScene()
	sc.Name, sc.PS, sc.Texture = "fill-loop", LoopPS, 0
	return sc
}

// FillScene is "fill": 200 full-screen quads (400 triangles, each quad
// (-1,-1)..(1,1) in clip space) with a colour per corner, into 640x480. Each
// quad shades all 307,200 pixels, so a frame shades 61.44 Mpixels. The
// pixel program ps_vertexcolor copies its colour input to o0: the pixel
// stage draws it with the Gouraud spans (pixelstage.go).
func FillScene() BenchScene {
	const w, h, quads = 640, 480, 200
	v := func(x, y, r, g, b float32) []float32 { return []float32{x, y, 0.5, r, g, b, 1, 0, 0} }
	// Clockwise on the screen, like mesh:quad.
	var vs []float32
	vs = append(vs, v(-1, 1, 1, 0, 0)...)  // top left: red
	vs = append(vs, v(1, 1, 0, 1, 0)...)   // top right: green
	vs = append(vs, v(-1, -1, 0, 0, 1)...) // bottom left: blue
	vs = append(vs, v(-1, -1, 0, 0, 1)...)
	vs = append(vs, v(1, 1, 0, 1, 0)...)
	vs = append(vs, v(1, -1, 1, 1, 1)...) // bottom right: white
	return BenchScene{Name: "fill", Width: w, Height: h, Vertices: vs, Draws: quads, Count: 6,
		Triangles: 2 * quads, Pixels: w * h * quads}
}

// FillRotatedScene is fill with each quad turned by 10 degrees about the
// centre and shrunk to 0.8 of its size, so that it stays inside the target:
// no edge is horizontal or vertical (a quad reaching past the target would
// be clipped to the target's borders, which are), so every pixel takes the
// general Gouraud rows, where fill's axis-aligned quads take the row and
// column terms (docs/performance.md). It gives the
// figure for triangles of any orientation. Pixels is 0: about 64% of fill's,
// counted by the GPU.
func FillRotatedScene() BenchScene {
	sc := FillScene()
	sin, cos := math.Sincos(10 * math.Pi / 180)
	vs := slices.Clone(sc.Vertices)
	for i := 0; i < len(vs); i += 9 {
		x, y := 0.8*float64(vs[i]), 0.8*float64(vs[i+1])
		vs[i], vs[i+1] = float32(x*cos-y*sin), float32(x*sin+y*cos)
	}
	sc.Name, sc.Vertices, sc.Pixels = "fill-rotated", vs, 0
	return sc
}

// TrisScene is "tris": 100,000 small triangles into 640x480, one DRAW. Each
// is a right triangle with legs of 4 pixels, (x, y), (x+4, y), (x, y+4) in
// pixels, red, green and blue at its corners; x and y are placed by the LCG
// s = s*1664525 + 1013904223 (uint32, seed 12345) as f*(640-4) and f*(480-4)
// with f = (s>>8)/2^24, x drawn before y.
func TrisScene() BenchScene {
	const w, h, n = 640, 480, 100_000
	s := uint32(12345)
	next := func() float64 {
		s = s*1664525 + 1013904223
		return float64(s>>8) / (1 << 24)
	}
	vs := make([]float32, 0, n*3*9)
	clip := func(px, py float64, r, g, b float32) {
		vs = append(vs, float32(2*px/w-1), float32(1-2*py/h), 0.5, r, g, b, 1, 0, 0)
	}
	for i := 0; i < n; i++ {
		x := next() * (w - 4)
		y := next() * (h - 4)
		clip(x, y, 1, 0, 0)
		clip(x+4, y, 0, 1, 0)
		clip(x, y+4, 0, 0, 1)
	}
	return BenchScene{Name: "tris", Width: w, Height: h, Vertices: vs, Draws: 1, Count: 3 * n, Triangles: n}
}

// BenchRig runs a BenchScene on a GPU of its own: the scene's vertices and
// target live in VRAM and each Frame submits the scene's DMA buffer and runs
// the simulation until its fence is written.
type BenchRig struct {
	Scene BenchScene
	sim   *sim.Sim
	g     *GPU
	words []uint32
	rt    uint64
	id    uint64
}

// NewBenchRig prepares scene sc on a GPU whose rasterizer uses workers
// goroutines (Config.RasterWorkers).
func NewBenchRig(sc BenchScene, workers int) *BenchRig {
	s := sim.New(1)
	g := New(Config{VRAM: 256 << 20, Aperture: 16 << 20, Engines: 1, RasterWorkers: workers}, s, nil)
	r := &BenchRig{Scene: sc, sim: s, g: g}
	next := VRAMBase
	alloc := func(n int) uint64 {
		size := (uint64(n) + 4095) &^ 4095
		if err := g.mem.Commit(next, size); err != nil {
			panic(err) // 256 MiB holds every scene: a bug
		}
		a := next
		next += size
		return a
	}
	data := make([]byte, 4*len(sc.Vertices))
	for i, f := range sc.Vertices {
		binary.LittleEndian.PutUint32(data[4*i:], math.Float32bits(f))
	}
	vb := alloc(len(data))
	mem, _ := g.mem.Bytes(vb, uint64(len(data)))
	copy(mem, data)
	pitch := 4 * sc.Width
	r.rt = alloc(pitch * sc.Height)

	var b isa.Builder
	if sc.Texture > 0 {
		n := sc.Texture
		tex := alloc(4 * n * n)
		mem, _ := g.mem.Bytes(tex, uint64(4*n*n))
		for i := range n * n {
			x, y := i%n, i/n
			mem[4*i], mem[4*i+1], mem[4*i+2], mem[4*i+3] = byte(x*255/n), byte(y*255/n), byte((x^y)*4), 255
		}
		b.SetTex(0, tex, uint32(n), uint32(n), uint32(4*n), isa.FmtRGBA8)
	}
	program := func(stage uint32, src string) {
		p, err := shaderisa.Assemble(src)
		if err != nil {
			panic(err) // the scenes' own programs: a bug
		}
		w := p.Encode()
		addr := alloc(4 * len(w))
		mem, _ := g.mem.Bytes(addr, uint64(4*len(w)))
		for i, x := range w {
			binary.LittleEndian.PutUint32(mem[4*i:], x)
		}
		b.SetProgram(stage, addr, uint32(len(w)), 0)
	}
	b.SetRT(r.rt, uint32(sc.Width), uint32(sc.Height), uint32(pitch), isa.FmtRGBA8)
	b.SetViewport(0, 0, float32(sc.Width), float32(sc.Height), 0, 1)
	vs, ps := sc.VS, sc.PS
	if vs == "" {
		vs = BuiltinSource("vs_passthrough")
	}
	if ps == "" {
		ps = BuiltinSource("ps_vertexcolor")
	}
	b.SetLayout(isa.BuiltinLayout())
	program(isa.StageVS, vs)
	program(isa.StagePS, ps)
	b.SetDepth(false, false, isa.CmpLess)
	b.SetVB(0, vb, uint32(len(data)), vertexBytes, 0)
	for i := 0; i < sc.Draws; i++ {
		b.Draw(uint32(sc.Count), 0)
	}
	r.words = b.Words
	return r
}

// Frame draws one frame of the scene.
func (r *BenchRig) Frame() {
	r.id++
	id := r.id
	buf := append(r.words[:len(r.words):len(r.words)], uint32(isa.OpFence)<<24|2, uint32(id), uint32(id>>32))
	r.g.Submit(0, id, buf)
	r.sim.RunUntil(func() bool { return r.g.CompletedFence(0) >= id })
}

// Stats are the rig's GPU counters.
func (r *BenchRig) Stats() Stats { return r.g.Stats() }

// Faults are the faults the rig's GPU recorded (a scene has none).
func (r *BenchRig) Faults() []Fault { return r.g.Faults() }

// Target returns the render target's pixels (RGBA8, tightly packed).
func (r *BenchRig) Target() []byte {
	n := uint64(4 * r.Scene.Width * r.Scene.Height)
	b, _ := r.g.mem.Bytes(r.rt, n)
	return append([]byte(nil), b...)
}

// VectorRows says whether this build draws the Gouraud rows and runs the
// shader machine's kernels with vector instructions: a GOEXPERIMENT=simd
// build on amd64 whose processor has AVX2. d3dsim bench prints it, since
// its figures depend on it (docs/performance.md).
func VectorRows() bool { return spanVec && shader.VectorKernels() }
