package scenario

import (
	"fmt"
	"testing"
)

// BenchmarkRunawayFlush: the issue-9 runaway loop, `repeat 1000000000 {
// imm.Flush }`, per API call through the whole stack — runtime, UMD, trace
// ring (default maxevents) and verifier — stopped by the step budget. The
// default budget of 10,000,000 calls takes ns/op x 1e7.
func BenchmarkRunawayFlush(b *testing.B) {
	s, err := Load("b", []byte(fmt.Sprintf("option maxsteps=%d\ndev, imm = D3D11CreateDevice\nrepeat 1000000000 {\n imm.Flush\n}\n", b.N+1)))
	if err != nil {
		b.Fatal(err)
	}
	r := NewRun(s, Overrides{})
	b.ReportAllocs()
	b.ResetTimer()
	sum := r.Finish()
	if sum.Steps != b.N+1 {
		b.Fatalf("%d steps, failures %q", sum.Steps, sum.Failures)
	}
}
