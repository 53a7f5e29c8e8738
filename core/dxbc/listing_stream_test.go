package dxbc

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"d3dsim/core/memlimit"
)

// nestedIfs is a pixel shader of n nested ifs.
func nestedIfs(t *testing.T, n int) []byte {
	t.Helper()
	b := NewBuilder(PixelShader, 5, 0)
	b.DclOutput(0, XYZW)
	b.Emit(OpMov, Temp(0), Imm(1, 1, 1, 1))
	for i := 0; i < n; i++ {
		b.EmitTest(OpIf, TestNonZero, Temp(0).Select(0))
	}
	for i := 0; i < n; i++ {
		b.Emit(OpEndif)
	}
	b.Emit(OpMov, Output(0), Temp(0))
	b.Ret()
	blob, err := b.Build(&Signature{}, &Signature{Elements: []Element{{Name: "SV_Target", ComponentType: ComponentFloat32, Register: 0, Mask: XYZW}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return blob
}

// TestListingBoundedIndent: 60,000 nested ifs list in space linear in the
// program (indented per level the listing took 3.6 GB), written as they go,
// and deeper blocks are indented MaxIndent levels.
func TestListingBoundedIndent(t *testing.T) {
	c, err := Parse(nestedIfs(t, 60_000))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	memlimit.Check(t, 256<<20, "listing 60,000 nested ifs", func() {
		if err := WriteListing(&out, c); err != nil {
			t.Fatal(err)
		}
	})
	lines := strings.Split(out.String(), "\n")
	widest := 0
	for _, l := range lines {
		widest = max(widest, len(l)-len(strings.TrimLeft(l, " ")))
	}
	if widest != 2*MaxIndent {
		t.Errorf("deepest indentation %d spaces, want %d", widest, 2*MaxIndent)
	}
	if s, err := Listing(c); err != nil || s != out.String() {
		t.Errorf("Listing differs from WriteListing (err %v)", err)
	}
	if out.Len() > 16<<20 { // ~73 bytes a line, 120,000 lines
		t.Errorf("a listing of %d bytes", out.Len())
	}
	if !strings.Contains(out.String(), "\n  if_nz r0.x\n    if_nz r0.x\n") {
		t.Errorf("nesting not indented by two spaces a level")
	}
}

// failAfter is a writer that fails once n bytes were written.
type failAfter struct{ n int }

func (w *failAfter) Write(p []byte) (int, error) {
	if w.n -= len(p); w.n < 0 {
		return 0, errors.New("disk full")
	}
	return len(p), nil
}

// TestListingStopsAtWriteError: a failing writer stops the listing with
// its error.
func TestListingStopsAtWriteError(t *testing.T) {
	c, err := Parse(nestedIfs(t, 10_000))
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteListing(&failAfter{n: 100_000}, c); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("err = %v", err)
	}
}
