package hlsl

import (
	"fmt"
	"sync"
	"testing"
)

// TestCacheCompilesOnce: the same source, file, entry, target and limits
// compile once; any difference compiles again; errors are kept too.
func TestCacheCompilesOnce(t *testing.T) {
	c := NewCache(8, 1<<20)
	src := []byte("float4 vs(float4 p : P) : SV_Position { return p; }\nfloat4 ps() : SV_Target { return 1; }")
	first, work, fresh, err := c.Compile(src, "a.hlsl", "vs", "vs_5_0", Limits{})
	if err != nil || !fresh || work.Tokens == 0 || work.Nodes == 0 {
		t.Fatalf("first: fresh %v, work %+v, err %v", fresh, work, err)
	}
	for i := 0; i < 10_000; i++ {
		r, w, fresh, err := c.Compile(src, "a.hlsl", "vs", "vs_5_0", Limits{})
		if r != first || fresh || w != (Work{}) || err != nil {
			t.Fatalf("reference %d: %p fresh %v work %+v err %v", i, r, fresh, w, err)
		}
	}
	for _, k := range []struct{ file, entry, target string }{{"b.hlsl", "vs", "vs_5_0"}, {"a.hlsl", "ps", "ps_5_0"}, {"a.hlsl", "vs", "vs_4_0"}} {
		if _, _, fresh, err := c.Compile(src, k.file, k.entry, k.target, Limits{}); !fresh || err != nil {
			t.Errorf("%+v: fresh %v, err %v", k, fresh, err)
		}
	}
	if _, _, fresh, _ := c.Compile(src, "a.hlsl", "vs", "vs_5_0", Limits{Nodes: 1000}); !fresh {
		t.Error("other limits: a hit")
	}
	_, _, _, err1 := c.Compile(src, "a.hlsl", "nope", "ps_5_0", Limits{})
	_, _, fresh, err2 := c.Compile(src, "a.hlsl", "nope", "ps_5_0", Limits{})
	if err1 == nil || err2 == nil || fresh || err1.Error() != err2.Error() {
		t.Errorf("errors not kept: %v / %v (fresh %v)", err1, err2, fresh)
	}
	if s := c.Stats(); s.Hits != 10_001 || s.Misses != 6 || s.Entries != 6 {
		t.Errorf("stats %+v", s)
	}
}

// TestCacheBounded: past its entries or bytes the least recently used
// results go.
func TestCacheBounded(t *testing.T) {
	c := NewCache(4, 1<<20)
	for i := 0; i < 100; i++ {
		src := fmt.Sprintf("float4 main() : SV_Target { return %d; }", i)
		if _, _, fresh, err := c.Compile([]byte(src), "a.hlsl", "main", "ps_5_0", Limits{}); err != nil || !fresh {
			t.Fatal(err, fresh)
		}
	}
	if s := c.Stats(); s.Entries != 4 || s.Evictions != 96 {
		t.Errorf("by entries: %+v", s)
	}
	small := NewCache(1000, 4096)
	for i := 0; i < 100; i++ {
		src := fmt.Sprintf("float4 main() : SV_Target { return %d; }", i)
		small.Compile([]byte(src), "a.hlsl", "main", "ps_5_0", Limits{})
	}
	if s := small.Stats(); s.Bytes > 4096 || s.Entries == 0 || s.Entries >= 100 {
		t.Errorf("by bytes: %+v", s)
	}
}

// TestCacheConcurrent: goroutines compiling the same and different
// shaders get the same answers (run with -race).
func TestCacheConcurrent(t *testing.T) {
	c := NewCache(16, 1<<20)
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				src := fmt.Sprintf("float4 main() : SV_Target { return %d; }", i%5)
				r, _, _, err := c.Compile([]byte(src), "a.hlsl", "main", "ps_5_0", Limits{})
				if err != nil || len(r.Bytecode) == 0 {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
}
