package builtins

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"d3dsim/core/dxbc"
	"d3dsim/core/umd/translate"
	"d3dsim/gpu"
	"d3dsim/gpu/shader"
	"d3dsim/gpu/shaderisa"
)

// consts is constant buffer 0 of a test: element i is m[i].
type consts [4][4]uint32

func (c *consts) Constant(slot, elem int) ([4]uint32, error) {
	if slot != 0 || elem >= len(c) {
		return [4]uint32{}, nil
	}
	return c[elem], nil
}

// word is a float32 for the tests' inputs: mostly ordinary numbers of
// every magnitude, sometimes zeros, ones, denormals, infinities and NaN.
func word(r *rand.Rand) uint32 {
	special := []float32{0, float32(math.Copysign(0, -1)), 1, -1, 0.5, math.Float32frombits(1), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN())}
	if r.IntN(8) == 0 {
		return math.Float32bits(special[r.IntN(len(special))])
	}
	return math.Float32bits(float32((r.Float64()*2 - 1) * math.Pow(2, float64(r.IntN(40)-20))))
}

// TestBuiltinsComputeTheISAPrograms: each built-in, compiled from HLSL and
// translated by the UMD, gives the GPU's own program of the same name
// (gpu.BuiltinSource) bit for bit, on random blocks of inputs and
// constants: the same arithmetic in the same order, so the same pixels.
// ps_texture's one sample is checked by the golden images; ps_fault must
// run into the step limit like the GPU's.
func TestBuiltinsComputeTheISAPrograms(t *testing.T) {
	for _, tc := range []struct {
		name string
		seed uint64 // of the random inputs
	}{
		{"vs_passthrough", 1},
		{"vs_transform", 2},
		{"ps_vertexcolor", 1},
		{"ps_solid", 2},
		{"ps_fault", 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Lookup(tc.name)
			if err != nil {
				t.Fatal(err)
			}
			pt := map[string]dxbc.ProgramType{"vs": dxbc.VertexShader, "ps": dxbc.PixelShader}[s.Stage]
			ours, err := translate.Translate(s.Bytecode, pt)
			if err != nil {
				t.Fatal(err)
			}
			theirs, err := shaderisa.Assemble(gpu.BuiltinSource(tc.name))
			if err != nil {
				t.Fatal(err)
			}
			a, b := shader.NewMachine(ours.Program), shader.NewMachine(theirs)
			r := rand.New(rand.NewPCG(11, tc.seed))
			for round := range 50 {
				var c consts
				for i := range c {
					for k := range c[i] {
						c[i][k] = word(r)
					}
				}
				if err := a.Bind(&c, nil); err != nil {
					t.Fatal(err)
				}
				if err := b.Bind(&c, nil); err != nil {
					t.Fatal(err)
				}
				for i := range min(ours.Program.Inputs, theirs.Inputs) {
					for k := range 4 {
						for l := range shader.Lanes {
							w := word(r)
							if i == 0 && k == 3 && s.Stage == "vs" {
								w = math.Float32bits(1) // POSITION is x y z: the fetch gives w = 1
							}
							a.In(i)[k][l], b.In(i)[k][l] = w, w
						}
					}
				}
				_, errA := a.Run(shader.AllLanes)
				_, errB := b.Run(shader.AllLanes)
				if tc.name == "ps_fault" {
					if !errors.Is(errA, shader.ErrStepLimit) || !errors.Is(errB, shader.ErrStepLimit) {
						t.Fatalf("ps_fault: %v and the GPU's %v, want both at the step limit", errA, errB)
					}
					return
				}
				if errA != nil || errB != nil {
					t.Fatalf("run: %v, the GPU's %v", errA, errB)
				}
				for _, o := range ours.Outputs {
					for k := range 4 {
						if o.Mask&(1<<k) == 0 {
							continue
						}
						for l := range shader.Lanes {
							if x, y := a.Out(int(o.ISA))[k][l], b.Out(int(o.ISA))[k][l]; x != y {
								t.Fatalf("round %d: o%d.%c lane %d is %#08x, the GPU's program gives %#08x", round, o.ISA, "xyzw"[k], l, x, y)
							}
						}
					}
				}
			}
		})
	}
}
