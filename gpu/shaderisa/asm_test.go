package shaderisa

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// A program using every op and operand form.
const everything = `ps inputs=3 outputs=2 temps=4
mov r0, v0
mov_sat r0.xz, -|v1.yxwz|
movc r1, r0.x, l(1.5, -0.0, 0x7fc00000, -7), cb3[4095].w
add r1.yzw, r1, cb0[r2.w + 17]
mad o0, v2.xyzz, r1.wwzy, -r0
dp4 r2.x, r0, r1
iadd r3.x, -v0.x, l(1, 2, 3, 4)
loop
  breakc_z r3.x
  continuec_nz r2.y
  if_nz r2.x
    break
  else
    discard_z r1.w
  endif
  retc_nz r3.w
endloop
sample r0, v1.xyxx, t127.wzyx, s15
sample_l r1, v1, t0, s0, cb1[2].x
ld r2, r3, t1.x
sample_d r1, v1, t2, s1, r2.xyxx, -r3
sample_b r0, v0, t3.x, s2, cb0[1].y
resinfo_uint r2.xy, r3.z, t4.yxzw
resinfo_rcpfloat r1, l(1, 0, 0, 0), t5
resinfo r1.w, cb0[r1.x + 1].x, t6
deriv_rtx_fine r3.y, r2
round_ne_sat o1, r0
ret
`

func TestAssembleRoundTrip(t *testing.T) {
	p := mustAsm(t, everything)
	words := p.Encode()
	q, err := Decode(words)
	if err != nil {
		t.Fatal(err)
	}
	if text := q.String(); text != everything {
		t.Fatalf("disassembly differs:\n%s\nwant\n%s", text, everything)
	}
	if !slices.Equal(q.Encode(), words) {
		t.Fatal("Encode(Decode(words)) != words")
	}
	r := mustAsm(t, q.String())
	if !slices.Equal(r.Encode(), words) {
		t.Fatal("Assemble(Disassemble(words)) encodes differently")
	}
	if s, err := Disassemble(words); err != nil || s != everything {
		t.Fatalf("Disassemble: %v", err)
	}
	seen := map[Op]bool{}
	for _, in := range p.Code {
		seen[in.Op] = true
	}
	for _, n := range []string{"sample_l", "ld", "sample_d", "sample_b", "resinfo", "resinfo_uint", "resinfo_rcpfloat", "breakc", "continuec", "discard", "retc", "else"} {
		if op, _ := OpByName(n); !seen[op] {
			t.Errorf("the round-trip program lacks %s", n)
		}
	}
}

// Immediates print back to the same bits, whatever they hold.
func TestImmediateRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	vals := append([]uint32{}, specials...)
	for range 2000 {
		vals = append(vals, rng.Uint32())
	}
	for _, w := range vals {
		s := immString(w)
		got, err := parseImm(s)
		if err != nil || got != w {
			t.Fatalf("%#08x prints %q, reads back %#08x (%v)", w, s, got, err)
		}
	}
}

// Every op's mnemonic assembles, disassembles and decodes to the same
// text (gpu/shader's TestEveryOpRuns runs each).
func TestEveryOpRoundTrips(t *testing.T) {
	for i := range NumOps {
		op := Op(i)
		src := oneOpProgram(op)
		p := mustAsm(t, src)
		q, err := Decode(p.Encode())
		if err != nil || q.String() != p.String() {
			t.Fatalf("%s: round trip: %v\n%s\n%s", op, err, p, q)
		}
	}
}

func TestAssembleErrors(t *testing.T) {
	tests := []struct{ desc, src, want string }{
		{"no header", "", "no header"},
		{"bad stage", "ts inputs=1", "vs, ps, cs, gs, hs or ds"},
		{"geometry program without dcl_gs", "gs inputs=3", "one dcl_gs"},
		{"unknown op", "ps inputs=1 outputs=1\nfrob o0, v0", "unknown instruction"},
		{"missing test", "ps inputs=1 outputs=1\nif v0.x\nendif", "needs _z or _nz"},
		{"operand count", "ps inputs=1 outputs=1\nadd o0, v0", "takes 3 operands"},
		{"register range", "ps inputs=1 outputs=1\nmov o0, v1", "out of range"},
		{"destination file", "ps inputs=1 outputs=1\nmov v0, v0", "destination"},
		{"mask order", "ps inputs=1 outputs=1\nmov o0.yx, v0", "write mask"},
		{"swizzle", "ps inputs=1 outputs=1\nmov o0, v0.xyzwx", "swizzle"},
		{"literal count", "ps inputs=1 outputs=1\nmov o0, l(1, 2)", "4 values"},
		{"bad float", "ps inputs=1 outputs=1\nmov o0, l(1.x, 2, 3, 4)", "bad float"},
		{"unbalanced", "ps inputs=1 outputs=1\nmov o0, l(1, 2, 3, 4", "unbalanced"},
		{"unclosed if", "ps inputs=1 outputs=1\nif_z v0.x", "never closed"},
		{"stray endloop", "ps inputs=1 outputs=1\nendloop", "without its loop"},
		{"break outside a loop", "ps inputs=1 outputs=1\nbreak", "outside a loop"},
		{"pixel op in a vertex program", "vs inputs=1 outputs=1\ndiscard_nz v0.x", "pixel stage only"},
		{"saturate on an integer op", "ps inputs=1 outputs=1\niadd_sat o0, v0, v0", "saturate"},
		{"modifier on a condition", "ps inputs=1 outputs=1\nif_nz -v0.x\nendif", "no modifier"},
		{"saturate on a compare", "ps inputs=1 outputs=1\nlt_sat o0, v0, v0", "saturate"},
		{"sampler as a source", "ps inputs=1 outputs=1\nmov o0, s0", "not allowed"},
		{"relative outside cb", "ps inputs=1 outputs=1 temps=1\nmov o0, cb0[v0.x + 1]", "relative index"},
		{"too many temps", "ps temps=257", "temps"},
		{"too many inputs", "ps inputs=300", "inputs"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			_, err := Assemble(tc.src)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Assemble = %v, want an error with %q", err, tc.want)
			}
			if !errors.Is(err, ErrSyntax) && !errors.Is(err, ErrBadCode) {
				t.Fatalf("%v wraps neither ErrSyntax nor ErrBadCode", err)
			}
		})
	}
}

func TestDecodeErrors(t *testing.T) {
	good := mustAsm(t, "ps inputs=1 outputs=1 temps=1\nadd o0, v0, l(1, 2, 3, 4)\n").Encode()
	mut := func(f func(w []uint32) []uint32) []uint32 { return f(slices.Clone(good)) }
	tests := []struct {
		desc  string
		words []uint32
	}{
		{"empty", nil},
		{"magic", mut(func(w []uint32) []uint32 { w[0]++; return w })},
		{"version", mut(func(w []uint32) []uint32 { w[1]++; return w })},
		{"stage", mut(func(w []uint32) []uint32 { w[1] |= 9 << 16; return w })},
		{"length", mut(func(w []uint32) []uint32 { w[3]++; return w })},
		{"truncated", mut(func(w []uint32) []uint32 { w[3]--; return w[:len(w)-1] })},
		{"opcode", mut(func(w []uint32) []uint32 { w[4] |= 0xFF; return w })},
		{"instruction length", mut(func(w []uint32) []uint32 { w[4] += 1 << 8; return w })},
		{"reserved bits", mut(func(w []uint32) []uint32 { w[4] |= 1 << 30; return w })},
		{"operand bits", mut(func(w []uint32) []uint32 { w[5] |= 1 << 25; return w })},
		{"index", mut(func(w []uint32) []uint32 { w[6] = 5; return w })},
		{"temps", mut(func(w []uint32) []uint32 { w[2] |= 0xFFFF << 16; return w })},
	}
	for _, tc := range tests {
		if _, err := Decode(tc.words); !errors.Is(err, ErrBadCode) {
			t.Errorf("%s: Decode = %v, want ErrBadCode", tc.desc, err)
		}
	}
	if _, err := Decode(good); err != nil {
		t.Fatal(err)
	}
}

// The encoder's constructors, as the UMD's translator uses them, build
// the same program as the text.
func TestConstructors(t *testing.T) {
	built := &Program{Stage: StagePixel, Inputs: 2, Outputs: 1, Temps: 2, Code: []Inst{
		{Op: OpSample, Dst: R(0), Src: []Operand{V(1).WithSwizzle("xyxx"), T(0), S(0)}},
		{Op: OpMad, Sat: true, Dst: R(1).WithMask("xw"), Src: []Operand{R(0), V(0).WithNeg().WithAbs(), LF(0.5, 1, -2, 0)}},
		{Op: OpIf, NZ: true, Src: []Operand{R(1).WithSwizzle("w")}},
		{Op: OpMov, Dst: O(0), Src: []Operand{CBRel(2, 7, 1, 3).WithSwizzle("zyxw")}},
		{Op: OpEndIf},
	}}
	p, err := built.Check()
	if err != nil {
		t.Fatal(err)
	}
	text := `ps inputs=2 outputs=1 temps=2
sample r0, v1.xyxx, t0, s0
mad_sat r1.xw, r0, -|v0|, l(0.5, 1.0, -2.0, 0)
if_nz r1.w
  mov o0, cb2[r1.w + 7].zyxw
endif
`
	if p.String() != text {
		t.Fatalf("built:\n%s\nwant\n%s", p, text)
	}
	bad := *built
	bad.Code = append([]Inst{}, built.Code...)
	bad.Code[1].Src = bad.Code[1].Src[:2]
	if _, err := bad.Check(); err == nil {
		t.Fatal("Check accepted mad with two sources")
	}
	bad.Code = []Inst{{Op: OpMov, Dst: O(0), Src: []Operand{V(0).WithSwizzle("xq")}}}
	if _, err := bad.Check(); err == nil {
		t.Fatal("Check accepted the swizzle letter q")
	}
}

func TestListing(t *testing.T) {
	p := mustAsm(t, vertexColor)
	want := `0000: 30485347 00010001 00000101 00000005  ps inputs=1 outputs=1 temps=0
0004: 00000501 000000f3 00000000 0000e402 00000000
      mov o0, v0
`
	if got := p.Listing(); got != want {
		t.Fatalf("Listing:\n%s\nwant\n%s", got, want)
	}
}

// oneOpProgram returns the text of a small pixel program that uses op once
// with register operands (r0, v0, t0, s0), inside the constructs its
// control flow needs.
func oneOpProgram(op Op) string {
	if op.ComputeOnly() {
		return oneComputeOp(op)
	}
	switch op {
	case OpDclHS: // a patch of one control point in and out, integer triangles, the factors in o0
		return "hs inputs=3 outputs=1 temps=0\ndcl_hs l(0x3120101, 0x10101, 0xff020100, 0xffffff03)\nmov o0, l(1, 1, 1, 1)\nret\n"
	case OpDclDS:
		return "ds inputs=4 outputs=1 temps=0\ndcl_ds l(0x201, 0x101, 0, 0)\nmov o0, v2\nret\n"
	}
	if op.GeometryOnly() {
		// A point in, v0 its one vertex's one register, v1 and v2 the
		// identifiers; a triangle strip of at most 4 vertices out.
		head := "gs inputs=3 outputs=1 temps=1\ndcl_gs l(257, 5, 4, 1)\n"
		if op == OpDclGS {
			return head + "ret\n"
		}
		return head + "mov o0, v0\n" + op.String() + "\nret\n"
	}
	var b strings.Builder
	b.WriteString(op.String())
	if op.HasTest() {
		b.WriteString("_nz")
	}
	sep := " "
	if op.HasDst() {
		b.WriteString(" r0")
		if op == OpDEq || op == OpDGe || op == OpDLt || op == OpDNe || op == OpDToF {
			b.WriteString(".xy") // 32-bit results from doubles 0 and 1
		}
		sep = ", "
	}
	for _, a := range op.Srcs() {
		b.WriteString(sep)
		b.WriteString([...]string{ArgReg: "v0", ArgTex: "t0", ArgSmp: "s0", ArgRes: "t0"}[a])
		sep = ", "
	}
	body := b.String()
	switch op {
	case OpIf:
		body += "\nendif"
	case OpElse:
		body = "if_z v0.x\nelse\nendif"
	case OpEndIf:
		body = "if_z v0.x\nendif"
	case OpLoop, OpEndLoop:
		body = "loop\nbreak\nendloop"
	case OpBreak, OpBreakc, OpContinue, OpContinuec:
		body = "loop\nbreakc_z v0.x\n" + body + "\nbreak\nendloop"
	case OpCall:
		body = "call l0"
	case OpCallc:
		body += ", l0"
	case OpLabel:
		body = "call l1"
	}
	sub := ""
	if op == OpCall || op == OpCallc || op == OpLabel {
		sub = "label l" + map[bool]string{true: "1", false: "0"}[op == OpLabel] + "\nmov r0, v0\nret\n"
	}
	return "ps inputs=1 outputs=1 temps=1\n" + body + "\nmov o0, r0\nret\n" + sub
}

// A program with the later forms: an immediate constant buffer, relative
// operands, subroutines, bit ops and doubles.
const everythingSM5 = `ps inputs=3 outputs=2 temps=8
icb 1, 2.5, -3, 0x7f800000
icb 4, 5, 6, 7
mov r4[4][r0.x + 4], v0
mov r1, icb0[2][r0.y + 1].wzyx
add r2, -v1[2][r1.z + 1], r4[4][r3.w + 5].x
bfi r3, v0, v1, v2, r1
ubfe r3.x, l(8, 8, 8, 8), l(4, 4, 4, 4), r1
firstbit_shi r3.y, -r3.x
dadd r0.zw, -|v0.zwxy|, v2
dtof o1.xy, r0.zwzw
dmovc r0, v0.x, r0, r0
f32tof16 r1.z, v0.x
call l0
callc_nz r1.x, l7
mov o0, r2
ret
label l0
add r2, r2, l(1, 1, 1, 1)
ret
label l7
call l0
ret
`

func TestAssembleRoundTripSM5(t *testing.T) {
	p := mustAsm(t, everythingSM5)
	words := p.Encode()
	if words[1]&0xFFFF != VersionICB || words[4] != 2 {
		t.Fatalf("header %#x %d: want version %d and 2 icb elements", words[1], words[4], VersionICB)
	}
	q, err := Decode(words)
	if err != nil {
		t.Fatal(err)
	}
	if text := q.String(); text != everythingSM5 {
		t.Fatalf("disassembly differs:\n%s\nwant\n%s", text, everythingSM5)
	}
	if !slices.Equal(q.Encode(), words) {
		t.Fatal("Encode(Decode(words)) != words")
	}
	if !strings.Contains(p.Listing(), "icb[1]") {
		t.Errorf("the listing lacks the icb:\n%s", p.Listing())
	}
	// A program without an icb keeps the first version's header.
	if w := mustAsm(t, vertexColor).Encode(); w[1]&0xFFFF != Version {
		t.Errorf("version %d, want %d", w[1]&0xFFFF, Version)
	}
}

// oneComputeOp returns a compute program that uses op once (u0, g0 of 16
// bytes, v0, r0).
func oneComputeOp(op Op) string {
	head := "cs inputs=4 outputs=0 temps=1\ndcl_thread_group l(4, 2, 1, 0)\ndcl_tgsm g0, l(16, 0, 0, 0)\n"
	if op == OpDclThreadGroup || op == OpDclTGSM {
		return head + "ret\n"
	}
	var b strings.Builder
	b.WriteString(op.String())
	sep := " "
	if op.HasDst() {
		switch {
		case op == OpStoreUAVTyped:
			b.WriteString(" u0")
		case op.MemDst():
			b.WriteString(" g0.x")
		default:
			b.WriteString(" r0")
		}
		sep = ", "
	}
	for _, a := range op.Srcs() {
		b.WriteString(sep)
		b.WriteString([...]string{ArgReg: "v0", ArgTex: "t0", ArgSmp: "s0", ArgRes: "u0", ArgUAV: "u0", ArgMem: "g0",
			ArgTGSM: "g0", ArgImm: "l(0, 0, 0, 0)"}[a])
		sep = ", "
	}
	return head + b.String() + "\nret\n"
}

func TestTessDecls(t *testing.T) {
	hs := HSDecl{InCP: 4, OutCP: 4, Domain: TessDomainQuad, Part: TessPartFractionalOdd, Output: TessOutTriangleCCW,
		InStride: 2, OutStride: 1, PCRegs: 2,
		EdgeFactor: [4]uint8{0, 1, 2, 3}, InsideFactor: [4]uint8{4, 5, NoFactor, NoFactor}}
	if got := hsDeclOf(hs.Imm()); got != hs {
		t.Errorf("dcl_hs round trip: %+v, want %+v", got, hs)
	}
	if hs.IDReg() != 12 {
		t.Errorf("IDReg %d", hs.IDReg())
	}
	imm := func(v [4]uint32) string { return fmt.Sprintf("l(%d, %d, %d, %d)", v[0], v[1], v[2], v[3]) }
	ok := "hs inputs=13 outputs=2 temps=0\ndcl_hs " + imm(hs.Imm()) + "\nret\n"
	p, err := Assemble(ok)
	if err != nil {
		t.Fatal(err)
	}
	if p.HS() != hs {
		t.Errorf("HS() %+v", p.HS())
	}
	ds := DSDecl{CP: 4, Domain: TessDomainQuad, Stride: 1, PCRegs: 2}
	if p, err := Assemble("ds inputs=8 outputs=1 temps=0\ndcl_ds " + imm(ds.Imm()) + "\nret\n"); err != nil || p.DS() != ds {
		t.Errorf("dcl_ds: %v %+v", err, p)
	}
	bad := []struct{ desc, src, want string }{
		{"inside factor missing", "hs inputs=13 outputs=2 temps=0\ndcl_hs " + imm(HSDecl{InCP: 4, OutCP: 4, Domain: TessDomainQuad, Part: 1, Output: 3, InStride: 2, OutStride: 1, PCRegs: 2,
			EdgeFactor: [4]uint8{0, 1, 2, 3}, InsideFactor: [4]uint8{4, NoFactor, NoFactor, NoFactor}}.Imm()) + "\nret\n", "inside factor 1"},
		{"lines from a quad", "hs inputs=13 outputs=2 temps=0\ndcl_hs " + imm(HSDecl{InCP: 4, OutCP: 4, Domain: TessDomainQuad, Part: 1, Output: TessOutLine, InStride: 2, OutStride: 1, PCRegs: 2,
			EdgeFactor: [4]uint8{0, 1, 2, 3}, InsideFactor: [4]uint8{4, 5, NoFactor, NoFactor}}.Imm()) + "\nret\n", "output primitive the domain has"},
		{"inputs too few", "hs inputs=12 outputs=2 temps=0\ndcl_hs " + imm(hs.Imm()) + "\nret\n", "12 inputs"},
		{"33 control points", "ds inputs=32 outputs=1 temps=0\ndcl_ds l(0x321, 0x1, 0, 0)\nret\n", "1..32 control points"},
		{"no dcl_ds", "ds inputs=8 outputs=1 temps=0\nret\n", "one dcl_ds, this one 0"},
		{"dcl_ds in a vertex program", "vs inputs=8 outputs=1 temps=0\ndcl_ds " + imm(ds.Imm()) + "\nret\n", "domain stage only"},
	}
	for _, c := range bad {
		if _, err := Assemble(c.src); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.desc, err, c.want)
		}
	}
}

// TestEmitStreams: emit and cut name a geometry stream in their
// channel bits (emit_s1 .. cut_s3; stream 0 plain emit and cut), which
// encode, decode and list back the same; emit_s4 is no instruction.
func TestEmitStreams(t *testing.T) {
	src := "gs inputs=3 outputs=1 temps=1\ndcl_gs l(257, 1, 4, 1)\nmov o0, v0\nemit\nemit_s1\ncut_s1\nemit_s3\ncut\nret\n"
	p, err := Assemble(src)
	if err != nil {
		t.Fatal(err)
	}
	var streams []uint8
	for _, in := range p.Code[1:6] {
		streams = append(streams, in.Channel)
	}
	if fmt.Sprint(streams) != "[0 0 1 1 3]" {
		t.Fatalf("streams %v", streams)
	}
	back, err := Decode(p.Encode())
	if err != nil {
		t.Fatal(err)
	}
	if got := back.String(); !strings.Contains(got, "emit\nemit_s1\ncut_s1\nemit_s3\ncut\n") {
		t.Fatalf("listed back:\n%s", got)
	}
	if _, err := Assemble(strings.Replace(src, "emit_s3", "emit_s4", 1)); err == nil {
		t.Fatal("emit_s4 assembled")
	}
}
