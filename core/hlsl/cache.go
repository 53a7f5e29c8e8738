package hlsl

import (
	"container/list"
	"crypto/sha256"
	"encoding/binary"
	"sync"
)

// Work is what one compile did, measured against its Limits: the tokens
// after macro expansion and the nodes lowered after inlining. A caller
// that compiles many shaders (a scenario's hlsl blocks) bounds them
// together with it.
type Work struct {
	Tokens int
	Nodes  int
}

// Cache keeps compiled shaders so that the same source, file name, entry
// point, target and limits compile once: a scenario that names one hlsl
// block 10,000 times compiled it 10,000 times (312 s, 4.7 GB). It holds at
// most its number of entries and (estimated) bytes, the least recently used
// going first, errors included (a failing block fails the same way again).
// A Result from a Cache is shared by every caller: read it, never modify it
// (its Bytecode slice among the rest). Safe for concurrent use.
type Cache struct {
	mu         sync.Mutex
	maxEntries int
	maxBytes   int64
	bytes      int64
	m          map[[32]byte]*list.Element
	lru        list.List // of *cacheEntry, most recent at the front
	stats      CacheStats
}

// CacheStats counts a Cache's lookups.
type CacheStats struct {
	Hits, Misses, Evictions uint64
	Entries                 int
	Bytes                   int64
}

type cacheEntry struct {
	key  [32]byte
	res  *Result
	err  error
	work Work
	size int64
}

// NewCache returns a cache of at most entries results and about maxBytes
// bytes of them.
func NewCache(entries int, maxBytes int64) *Cache {
	return &Cache{maxEntries: max(entries, 1), maxBytes: max(maxBytes, 1), m: map[[32]byte]*list.Element{}}
}

// SharedCache is the process's cache, used by the scenario loader: 256
// shaders, 64 MiB.
var SharedCache = NewCache(256, 64<<20)

// Compile is CompileWith through the cache. fresh reports that the shader
// was compiled now (a miss), work what that compile did (zero for a hit).
func (c *Cache) Compile(src []byte, file, entry, target string, lim Limits) (res *Result, work Work, fresh bool, err error) {
	lim = lim.withDefaults()
	key := cacheKey(src, file, entry, target, lim)
	c.mu.Lock()
	if el, ok := c.m[key]; ok {
		c.lru.MoveToFront(el)
		c.stats.Hits++
		e := el.Value.(*cacheEntry)
		c.mu.Unlock()
		return e.res, Work{}, false, e.err
	}
	c.stats.Misses++
	c.mu.Unlock()

	lim.work = &work
	res, err = CompileWith(src, file, entry, target, lim)
	e := &cacheEntry{key: key, res: res, err: err, work: work, size: entrySize(res, err)}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[key]; !ok && e.size <= c.maxBytes {
		c.m[key] = c.lru.PushFront(e)
		c.bytes += e.size
		for c.lru.Len() > c.maxEntries || c.bytes > c.maxBytes {
			old := c.lru.Back()
			oe := old.Value.(*cacheEntry)
			c.lru.Remove(old)
			delete(c.m, oe.key)
			c.bytes -= oe.size
			c.stats.Evictions++
		}
	}
	return res, work, true, err
}

// Stats returns the cache's counters.
func (c *Cache) Stats() CacheStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.stats
	s.Entries, s.Bytes = c.lru.Len(), c.bytes
	return s
}

// cacheKey hashes everything a compile depends on.
func cacheKey(src []byte, file, entry, target string, lim Limits) [32]byte {
	h := sha256.New()
	var n [8]byte
	field := func(b []byte) {
		binary.LittleEndian.PutUint64(n[:], uint64(len(b)))
		h.Write(n[:])
		h.Write(b)
	}
	field(src)
	field([]byte(file))
	field([]byte(entry))
	field([]byte(target))
	for _, v := range []int{lim.Tokens, lim.Nodes, lim.Instructions, int(lim.Flags)} {
		binary.LittleEndian.PutUint64(n[:], uint64(v))
		h.Write(n[:])
	}
	var k [32]byte
	h.Sum(k[:0])
	return k
}

// entrySize estimates the bytes a cached result holds: its bytecode, its
// program (an instruction with its operands is about 200 bytes) and its
// reflection, or its error text.
func entrySize(res *Result, err error) int64 {
	n := int64(256)
	if err != nil {
		n += int64(len(err.Error()))
	}
	if res != nil {
		n += int64(len(res.Bytecode))
		if res.Program != nil {
			n += 200 * int64(len(res.Program.Code))
		}
		for _, cb := range res.CBuffers {
			n += 128 * int64(len(cb.Vars))
		}
	}
	return n
}
