package hlsl

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// skinSource is a skinning pixel shader (four weighted float4x3 bones of
// a constant buffer summed, then a point and a normal transformed by the
// sum), its local matrix declared with the packing given.
func skinSource(packing string) string {
	return `
cbuffer Skin : register(b0) { float4 pad; float4x3 Bones[8]; };
float4 main(float4 p : POSITION, float4 n : NORMAL, nointerpolation int4 idx : BLENDINDICES, float4 w : BLENDWEIGHT) : SV_Target {
	` + packing + ` float4x3 skin = 0;
	[unroll] for (int i = 0; i < 4; i++) skin += Bones[idx[i] & 7] * w[i];
	float3 pos = mul(p, skin);
	float3 nrm = mul(n.xyz, (float3x3)skin);
	return float4(pos + nrm, nrm.x);
}`
}

// TestSkinningInColumns: a column_major local matrix summed from
// column_major constants is kept a register per column, as fxc keeps it:
// each bone is three mul/mad reading cb# directly (no mov gathers lanes of
// three constant registers into a row), the transforms one dpN per
// component; it computes what the same source with the local row_major
// (a register per row) computes, bit for bit.
func TestSkinningInColumns(t *testing.T) {
	cols := compileOK(t, skinSource(""), "main", "ps_5_0")
	rows := compileOK(t, skinSource("row_major"), "main", "ps_5_0")
	listing := irText(cols.Program.Code)
	for _, line := range strings.Split(listing, "\n") {
		if strings.HasPrefix(line, "mov") && strings.Contains(line, "cb0[") {
			t.Errorf("a bone's lanes gathered with a mov: %s\n%s", line, listing)
			break
		}
	}
	if n := strings.Count(listing, "\nmad ") + strings.Count(listing, "\nmul "); n != 12 {
		t.Errorf("%d mul/mad, want 12 (three columns of four bones)\n%s", n, listing)
	}
	if c, r := len(cols.Program.Code), len(rows.Program.Code); c >= r {
		t.Errorf("%d instructions in columns, %d in rows", c, r)
	}
	r := rand.New(rand.NewPCG(4, 3))
	for k := 0; k < 16; k++ {
		seed := r.Uint64()
		a, errA := Run(cols.Program, optEnv(rand.New(rand.NewPCG(seed, 1)), 4))
		b, errB := Run(rows.Program, optEnv(rand.New(rand.NewPCG(seed, 1)), 4))
		if errA != nil || errB != nil {
			t.Fatalf("run: %v, %v", errA, errB)
		}
		if fmt.Sprint(a.Regs) != fmt.Sprint(b.Regs) {
			t.Fatalf("columns %v, rows %v", a.Regs, b.Regs)
		}
	}
}

// TestColumnLocal: which local matrices are kept in columns.
func TestColumnLocal(t *testing.T) {
	for _, c := range []struct {
		name, decl, body string
		columns          bool
	}{
		{"summed from column_major constants", "float4x3 m = 0;", "m += Bones[1] * 2;", true},
		{"assigned a column_major constant", "float4x3 m;", "m = Bones[0];", true},
		{"declared row_major", "row_major float4x3 m = 0;", "m += Bones[1];", false},
		{"rows written one by one", "float4x3 m = 0;", "m += Bones[1]; m[0] = p.xyz;", false},
		{"from a row_major constant", "float4x3 m = 0;", "m += RowBones;", false},
		{"built from vectors", "float4x3 m;", "m = float4x3(p.xyz, p.yzx, p.zxy, p.xxx);", false},
	} {
		src := `
cbuffer Skin : register(b0) { float4x3 Bones[2]; row_major float4x3 RowBones; };
float4 main(float4 p : POSITION) : SV_Target {
	` + c.decl + `
	` + c.body + `
	return float4(mul(p, m), 1);
}`
		code := compileOK(t, src, "main", "ps_5_0")
		// In columns, the result is three dp4 of p (one a column); in
		// rows, a mul/mad chain over the rows.
		dp4 := strings.Count(irText(code.Program.Code), "dp4")
		if got := dp4 == 3; got != c.columns {
			t.Errorf("%s: in columns %v, want %v\n%s", c.name, got, c.columns, irText(code.Program.Code))
		}
	}
}

// TestLaneGroups: a component-wise operation over a matrix is split into
// instructions by the registers its sources' components sit in.
func TestLaneGroups(t *testing.T) {
	// col(c, r): lane r of register c, as a column_major float4x3 in cb#.
	col := func(c, r int) Operand { return comp(FileCB, 10+c, r) }
	w := comp(FileInput, 1, 0)
	rowMajor4x3 := func(at func(c, r int) Operand) []Operand {
		var out []Operand
		for r := 0; r < 4; r++ {
			for c := 0; c < 3; c++ {
				out = append(out, at(c, r))
			}
		}
		return out
	}
	scattered := make([]Operand, 8)
	for i := range scattered {
		scattered[i] = comp(FileTemp, i, 0)
	}
	for _, c := range []struct {
		name string
		n    int
		srcs [][]Operand
		want string
	}{
		{"a vector", 4, [][]Operand{rowMajor4x3(col)[:4]}, "[]"},
		{"column_major times a scalar: by column", 12, [][]Operand{rowMajor4x3(col), {w}}, "[[0 3 6 9] [1 4 7 10] [2 5 8 11]]"},
		{"rows in registers: in order", 8, [][]Operand{append(regComps(FileTemp, 0, 4), regComps(FileTemp, 1, 4)...)}, "[]"},
		{"immediates: in order", 8, [][]Operand{{immF(1), immF(2), immF(3), immF(4), immF(5), immF(6), immF(7), immF(8)}}, "[]"},
		{"a register a component: in order", 8, [][]Operand{scattered}, "[]"},
	} {
		srcs := make([][]Operand, len(c.srcs))
		for i, s := range c.srcs {
			srcs[i] = broadcast(s, c.n)
		}
		if got := fmt.Sprint(laneGroups(c.n, srcs)); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}
