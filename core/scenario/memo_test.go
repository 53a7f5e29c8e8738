package scenario

import (
	"testing"

	"d3dsim/core/trace"
)

// TestMemoFollowsRebinds: a statement run in a loop keeps what it found in
// the run's names only until a name is bound again — each Release below
// must reach the buffer its iteration created, as it did before the memo.
func TestMemoFollowsRebinds(t *testing.T) {
	src := `dev, imm = D3D11CreateDevice
repeat 3 {
  b = dev.CreateBuffer ByteWidth=64 BindFlags=VERTEX_BUFFER
  b.Release
}
`
	s, err := Load("memo.d3ds", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	r := NewRun(s, Overrides{})
	if sum := r.Finish(); !sum.OK() {
		t.Fatal(sum.Failures)
	}
	var created, released []string
	for _, e := range r.Events() {
		if e.Layer != trace.UMD || e.Kind != trace.Call {
			continue
		}
		switch e.Name {
		case "CreateResource":
			created = append(created, e.Handle)
		case "DestroyResource":
			released = append(released, e.Handle)
		}
	}
	if len(created) != 3 || len(released) != 3 {
		t.Fatalf("created %q, released %q: want 3 each", created, released)
	}
	for i := range created {
		if created[i] == "" || released[i] != created[i] || (i > 0 && created[i] == created[i-1]) {
			t.Errorf("iteration %d: created %q, released %q", i, created[i], released[i])
		}
	}
}
