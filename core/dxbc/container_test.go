package dxbc

import (
	"crypto/md5"
	"encoding/binary"
	"errors"
	"strings"
	"testing"
)

// md5Block is checked against crypto/md5 by running it with MD5's own
// padding: the DXBC variant differs only in its last block.
func TestMD5BlockIsMD5(t *testing.T) {
	for _, n := range []int{0, 1, 55, 56, 63, 64, 65, 119, 120, 200} {
		msg := make([]byte, n)
		for i := range msg {
			msg[i] = byte(i*7 + n)
		}
		padded := append(append([]byte{}, msg...), 0x80)
		for len(padded)%64 != 56 {
			padded = append(padded, 0)
		}
		padded = binary.LittleEndian.AppendUint64(padded, uint64(n)*8)
		s := [4]uint32{0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476}
		for off := 0; off < len(padded); off += 64 {
			md5Block(&s, padded[off:off+64])
		}
		var got [16]byte
		for i, w := range s {
			binary.LittleEndian.PutUint32(got[4*i:], w)
		}
		if want := md5.Sum(msg); got != want {
			t.Errorf("%d bytes: md5Block gives %x, crypto/md5 %x", n, got, want)
		}
	}
}

// Checksums of every length class of the final block (the DXBC variant
// moves to a second block at 56 bytes mod 64) agree with fxc's: a
// container's stored checksum is recomputed after Build, and the fixtures'
// checksums are fxc's own.
func TestChecksumFinalBlockLengths(t *testing.T) {
	for _, f := range loadFixtures(t) {
		var stored [16]byte
		copy(stored[:], f.bytes[4:20])
		if got := Checksum(f.bytes); got != stored {
			t.Errorf("%s (%d bytes, %d mod 64 after the header): computed %x, fxc stored %x", f.name, len(f.bytes), (len(f.bytes)-20)%64, got, stored)
		}
	}
	seen := map[bool]bool{}
	for n := 0; n < 70; n++ {
		c := &Container{Chunks: []Chunk{{FourCC: "STAT", Data: make([]byte, 4*n)}}}
		b, err := c.Build()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Parse(b); err != nil {
			t.Fatalf("%d words: %v", n, err)
		}
		seen[(len(b)-20)%64 > 55] = true
	}
	if !seen[true] || !seen[false] {
		t.Error("the sizes did not reach both final-block cases")
	}
}

func TestParseErrors(t *testing.T) {
	good, err := (&Container{Chunks: []Chunk{{FourCC: "ISGN", Data: (&Signature{}).Bytes()}, {FourCC: "STAT", Data: []byte{1, 2, 3, 4}}}}).Build()
	if err != nil {
		t.Fatal(err)
	}
	mod := func(f func(b []byte) []byte) []byte {
		b := f(append([]byte{}, good...))
		copy(b[4:20], make([]byte, 16))
		sum := Checksum(b)
		copy(b[4:20], sum[:])
		return b
	}
	put := func(b []byte, off int, v uint32) []byte { binary.LittleEndian.PutUint32(b[off:], v); return b }
	for _, tc := range []struct {
		desc string
		b    []byte
		want string
	}{
		{"empty", nil, "shorter than the 32-byte DXBC header"},
		{"magic", mod(func(b []byte) []byte { b[0] = 'X'; return b }), `magic is "XXBC"`},
		{"version", mod(func(b []byte) []byte { return put(b, 20, 2) }), "container version 2"},
		{"total size", mod(func(b []byte) []byte { return put(b, 24, 9999) }), "header says 9999 bytes, the buffer holds"},
		{"chunk count", mod(func(b []byte) []byte { return put(b, 28, 1<<30) }), "chunks do not fit their offset table"},
		{"chunk offset", mod(func(b []byte) []byte { return put(b, 32, 3) }), "chunk 0 offset 3 is outside"},
		{"chunk size", mod(func(b []byte) []byte { return put(b, 44, 1000) }), "chunk 0 (ISGN) extends past the end: offset 40, size 1000"},
		{"checksum", func() []byte { b := append([]byte{}, good...); b[len(b)-1] ^= 1; return b }(), "DXBC checksum mismatch: stored"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			_, err := Parse(tc.b)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
			if tc.desc == "checksum" && !errors.Is(err, ErrChecksum) {
				t.Error("a checksum mismatch is not errors.Is(ErrChecksum)")
			}
		})
	}
}

func TestDecodeErrors(t *testing.T) {
	ps40 := uint32(PixelShader)<<16 | 0x40
	for _, tc := range []struct {
		desc string
		w    []uint32
		want string
	}{
		{"no version", []uint32{ps40}, "lacks its version and length"},
		{"shader model 3", []uint32{0x30, 2}, "shader model 3.0 is not 4.x or 5.x"},
		{"stage", []uint32{9<<16 | 0x40, 2}, "program type 9 is unknown"},
		{"length token", []uint32{ps40, 50}, "length token says 50 words"},
		{"unknown opcode", []uint32{ps40, 3, 1<<24 | 2000}, "word 2 (opcode(2000)): opcode 2000 is not an instruction of shader model 4 or 5"},
		{"instruction length", []uint32{ps40, 3, 9<<24 | uint32(OpMov)}, "word 2 (mov): length 9 does not fit"},
		{"zero length", []uint32{ps40, 3, uint32(OpRet)}, "length 0 does not fit"},
		{"leftover words", []uint32{ps40, 4, 2<<24 | uint32(OpRet), 0}, "1 words after the operands, want 0"},
		{"missing operand", []uint32{ps40, 3, 1<<24 | uint32(OpMov)}, "operand 1: operand token missing"},
		{"N components", []uint32{ps40, 4, 2<<24 | uint32(OpIf), 3}, "N-component operands are not supported"},
		{"deep relative index", func() []uint32 {
			w := []uint32{ps40, 0, uint32(OpIf)}
			op := uint32(2 | 1<<2 | 0xe4<<4 | 1<<20 | uint32(IndexRelative)<<22)
			for i := 0; i < 8; i++ {
				w = append(w, op)
			}
			w[2] |= uint32(len(w)-2) << 24
			w[1] = uint32(len(w))
			return w
		}(), "nest deeper than 4"},
		{"customdata length", []uint32{ps40, 3, uint32(OpCustomData) | 3<<11}, "customdata length missing"},
		{"extended opcode type", []uint32{ps40, 4, 1<<31 | 2<<24 | uint32(OpRet), 7}, "type 7 is unknown"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			_, err := DecodeProgram(tc.w)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestSignatureAndRDEFErrors(t *testing.T) {
	for _, tc := range []struct {
		desc string
		err  error
		want string
	}{
		{"signature kind", func() error { _, err := ParseSignature("SHDR", nil); return err }(), "SHDR is not a signature chunk"},
		{"signature count", func() error { _, err := ParseSignature("ISGN", []byte{2, 0, 0, 0, 8, 0, 0, 0}); return err }(), "2 elements of 24 bytes at offset 8 do not fit the 8-byte chunk"},
		{"signature name", func() error {
			s := (&Signature{Elements: []Element{{Name: "A"}}}).Bytes()
			binary.LittleEndian.PutUint32(s[8:], 500)
			_, err := ParseSignature("ISGN", s)
			return err
		}(), "element 0 name string at offset 500 is past the end"},
		{"rdef short", func() error { _, err := ParseRDEF([]byte{1}); return err }(), "RDEF: cbuffer count at offset 0 is past the end"},
		{"rdef RD11", func() error {
			b := (&Reflection{Major: 5}).Bytes()
			b[28] = 'X'
			_, err := ParseRDEF(b)
			return err
		}(), "lacks its RD11 tag"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", tc.err, tc.want)
			}
		})
	}
}

// A reflection built by hand — a cbuffer with a struct, a texture and a
// sampler — reads back as written, in both layouts.
func TestRDEFWriteRead(t *testing.T) {
	f4 := &Type{Class: ClassVector, Base: TypeFloat, Rows: 1, Columns: 4, Name: "float4"}
	m := &Type{Class: ClassMatrixRows, Base: TypeFloat, Rows: 4, Columns: 4, Name: "float4x4"}
	light := &Type{Class: ClassStruct, Rows: 1, Columns: 8, Name: "Light", Members: []Member{{"color", f4, 0}, {"dir", f4, 16}}}
	for _, major := range []uint8{4, 5} {
		rf := &Reflection{Major: major, ProgramType: 0xfffe, Creator: "d3dsim hlsl",
			ConstantBuffers: []ConstantBuffer{{Name: "Frame", Size: 96, Variables: []Variable{
				{Name: "mvp", Offset: 0, Size: 64, Flags: VariableUsed, Type: m},
				{Name: "sun", Offset: 64, Size: 32, Type: light},
			}}},
			Bindings: []Binding{
				{Name: "smp", Type: InputSampler, BindCount: 1},
				{Name: "tex", Type: InputTexture, ReturnType: 5, Dimension: 4, Samples: 0xffffffff, BindCount: 1, Flags: 12},
				{Name: "Frame", Type: InputCBuffer, BindCount: 1},
			}}
		back, err := ParseRDEF(rf.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		if got, want := dumpReflection(back), dumpReflection(rf); got != want {
			t.Errorf("shader model %d: read back\n%s\nwant\n%s", major, got, want)
		}
		if v := back.ConstantBuffer("Frame").Variables[1]; v.Type.Members[1].Name != "dir" || v.Type.Members[1].Offset != 16 {
			t.Errorf("shader model %d: struct member read back as %+v", major, v.Type.Members[1])
		}
	}
}

// Struct members count against the reflection's item budget, so a small
// chunk whose types share members cannot make the reader build millions.
func TestRDEFMemberBudget(t *testing.T) {
	f := &Type{Class: ClassScalar, Base: TypeFloat, Rows: 1, Columns: 1}
	big := func() *Type {
		s := &Type{Class: ClassStruct}
		for i := 0; i < 40000; i++ {
			s.Members = append(s.Members, Member{Name: "m", Type: f, Offset: uint32(4 * i)})
		}
		return s
	}
	rf := &Reflection{Major: 4, ConstantBuffers: []ConstantBuffer{{Name: "cb", Variables: []Variable{
		{Name: "a", Type: big()}, {Name: "b", Type: big()},
	}}}}
	_, err := ParseRDEF(rf.Bytes())
	if err == nil || !strings.Contains(err.Error(), "types and members") {
		t.Fatalf("error %v, want the item budget", err)
	}
}

func TestValidateMalformedDeclarations(t *testing.T) {
	in, out := kitchenSignatures()
	for _, tc := range []struct {
		desc string
		in   Instruction
		want string
	}{
		{"sampler without index", Instruction{Op: OpDclSampler, Operands: []Operand{{Type: RegSampler}}}, "declares s, not a s register"},
		{"resource as temp", Instruction{Op: OpDclResource, Operands: []Operand{Temp(0)}, Extra: []uint32{0x5555}}, "declares r0.xyzw, not a t register"},
		{"cbuffer 1-D", Instruction{Op: OpDclConstantBuffer, Operands: []Operand{reg(RegConstantBuffer, 0)}}, "declared as cb<slot>[<size>]"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			p := &Program{Type: PixelShader, Major: 4, Instructions: []Instruction{tc.in, {Op: OpRet}}}
			blob, err := BuildShader(p, in, out, nil)
			if err != nil {
				t.Fatal(err)
			}
			_, err = Validate(blob, PixelShader)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}
