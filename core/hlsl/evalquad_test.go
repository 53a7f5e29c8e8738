package hlsl

import (
	"math"
	"testing"
)

// TestRunQuadDerivatives runs a pixel shader on the four invocations of
// quads through RunQuad, one goroutine each, and checks each derivative
// form against the quad's values ("deriv_rtx_coarse", "deriv_rtx_fine",
// Shader Model 5 Assembly): coarse takes the top row's (the left column's)
// difference for the whole quad, fine each row's (column's). One quad's
// bottom-right invocation returns before the derivatives: its neighbours
// get no difference from it (0). The race target runs it (RACE_HLSL_RUN):
// the four invocations meet under one lock at every derivative.
func TestRunQuadDerivatives(t *testing.T) {
	src := `float4 main(float2 t : TEXCOORD0) : SV_Target {
	if (t.y > 1000) return 7;
	float a = t.x * t.x + t.y;
	return float4(ddx_coarse(a), ddy_coarse(a), ddx_fine(a), ddy_fine(a));
}`
	res, err := Compile([]byte(src), "quad.hlsl", "main", "ps_5_0")
	if err != nil {
		t.Fatal(err)
	}
	f := func(u uint32) float64 { return float64(math.Float32frombits(u)) }
	bits := func(x float64) uint32 { return math.Float32bits(float32(x)) }
	for q := 0; q < 16; q++ {
		var envs [4]*Env
		var tx, ty, a [4]float64
		for lane := range envs {
			tx[lane] = float64(q + lane%2*(1+lane/2)) // rows differ: the fine x differences too
			ty[lane] = float64(lane/2*(q+1)) + float64(lane%2)*0.5
			if q == 3 && lane == 3 {
				ty[lane] = 2000 // returns before the derivatives
			}
			a[lane] = tx[lane]*tx[lane] + ty[lane]
			envs[lane] = &Env{Inputs: [][4]uint32{{bits(tx[lane]), bits(ty[lane])}}}
		}
		outs, errs := RunQuad(res.Program, envs)
		for lane := range outs {
			if errs[lane] != nil {
				t.Fatalf("quad %d lane %d: %v", q, lane, errs[lane])
			}
		}
		if q == 3 {
			if got := f(outs[3].Regs[0][0]); got != 7 {
				t.Errorf("quad 3: the returning invocation wrote %g, want 7", got)
			}
		}
		for lane := 0; lane < 4; lane++ {
			if q == 3 && lane == 3 {
				continue
			}
			row, col := lane/2*2, lane%2
			diff := func(x, y int) float64 {
				if q == 3 && (x == 3 || y == 3) {
					return 0 // the invocation that returned gives no difference
				}
				return a[y] - a[x]
			}
			want := [4]float64{diff(0, 1), diff(0, 2), diff(row, row+1), diff(col, col+2)}
			for c := range want {
				if got := f(outs[lane].Regs[0][c]); got != want[c] {
					t.Errorf("quad %d lane %d component %d: %g, want %g", q, lane, c, got, want[c])
				}
			}
		}
	}
}
