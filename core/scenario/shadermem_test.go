package scenario

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"d3dsim/core/memlimit"
)

// heapAfterGC is the heap held by live objects after a collection.
func heapAfterGC() uint64 {
	runtime.GC()
	runtime.GC()
	return memlimit.HeapObjects()
}

// TestShaderRoundsFlatHeap: 50,000 shaders created and released leave
// nothing that grows with the rounds: the heap after 10,000 and after
// 50,000 are the same within 4 MiB, about 100 bytes a shader (what a released shader kept, the
// driver's translation, the Shaders view's record of it, its handles in
// the trace's table of event shapes, grew by hundreds of KB a round). The
// destructions wait for a Flush, as D3D11 defers them
// (ID3D11DeviceContext::Flush), once every 100 rounds here.
func TestShaderRoundsFlatHeap(t *testing.T) {
	if testing.Short() || runtime.GOOS == "js" {
		// Native only, as TestSoak: make test-wasm checks that the
		// scenarios give the same traces and pixels under WebAssembly,
		// and what holds memory here is the same Go code natively.
		t.Skip("long: 50,000 shader creations")
	}
	const rounds = 50_000
	src := `option maxevents=100000
option maxsteps=100000000
hlsl s {
float4 main(float4 p : SV_Position, float4 c : COLOR) : SV_Target { return c * 0.5 + 0.25; }
}
dev, imm = D3D11CreateDevice
repeat ` + fmt.Sprint(rounds/100) + ` {
 repeat 100 {
  ps = dev.CreatePixelShader hlsl:s
  ps.Release
 }
 imm.Flush
}
`
	s, err := Load("t.d3ds", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	r := NewRun(s, Overrides{})
	r.Step(1 + 10_000*2 + 100) // 10,000 rounds of two calls and their Flushes
	h1 := heapAfterGC()
	sum := r.Finish()
	h2 := heapAfterGC()
	if !sum.OK() {
		t.Fatalf("%s", strings.Join(sum.Failures, "\n"))
	}
	created, _ := r.ShaderCount()
	t.Logf("heap after 10,000 shaders %d KiB, after %d: %d KiB; %d steps", h1>>10, created, h2>>10, sum.Steps)
	if created != rounds {
		t.Errorf("%d shaders created", created)
	}
	if h2 > h1+4<<20 {
		t.Errorf("the heap grew by %d KiB over 40,000 shaders", (h2-h1)>>10)
	}
	runtime.KeepAlive(r)
}

// TestShaderMemoryFollowsBytecode: what a live shader holds is about what
// the device counts for it against its memory limit (option sysmem): its
// object with the bytecode the runtime copied, and its code allocation. A
// live shader held its decoded DXBC and checked program besides (60 bytes a
// byte of bytecode, 2 MB for a 1,200-instruction shader).
func TestShaderMemoryFollowsBytecode(t *testing.T) {
	body := "float4 main(float4 p : SV_Position) : SV_Target { float4 s = p; " + strings.Repeat("s = s * s + normalize(s);", 200) + " return s; }"
	const n = 100
	src := "option maxevents=1000\nhlsl s {\n// TestShaderMemoryFollowsBytecode\n" + body + "\n}\ndev, imm = D3D11CreateDevice\n"
	for i := 0; i < n; i++ {
		src += fmt.Sprintf("ps%d = dev.CreatePixelShader hlsl:s\n", i)
	}
	s, err := Load("t.d3ds", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	r := NewRun(s, Overrides{})
	r.Step(1)
	dev := r.mach.Runtime().Devices()[0]
	h0, o0, a0 := heapAfterGC(), dev.ObjectBytes(), dev.AllocatedBytes()
	sum := r.Finish()
	h1, o1, a1 := heapAfterGC(), dev.ObjectBytes(), dev.AllocatedBytes()
	if !sum.OK() {
		t.Fatalf("%s", strings.Join(sum.Failures, "\n"))
	}
	list, _ := r.Shaders()
	code := len(list[0].Bytecode)
	per := (int64(h1) - int64(h0)) / n
	counted := ((o1 - o0) + int64(a1-a0)) / n
	t.Logf("%d bytes of bytecode; a live shader: %d bytes of heap, %d counted against sysmem", code, per, counted)
	if counted < int64(code) {
		t.Errorf("a live shader counts %d bytes, less than its bytecode", counted)
	}
	if per > 2*counted {
		t.Errorf("a live shader holds %d bytes, more than twice the %d it counts", per, counted)
	}
	runtime.KeepAlive(r)
}
