package umd

// firstUse numbers keys in the order they were first added: a command
// buffer's allocation list, a command list's resources. It finds a key by a
// scan while there are few (a buffer or a list names a handful) and by a
// map past firstUseScan. Not a map always: clearing a non-empty map, or
// deleting its last key, draws a new hash seed, which under WebAssembly is
// ChaCha8 in portable Go, every command buffer and every command list
// (1.45% of the recycled command-list scene's samples under node).
type firstUse[K comparable] struct {
	keys []K       // in first-use order: keys[i] is numbered i
	m    map[K]int // nil while len(keys) <= firstUseScan
}

const firstUseScan = 16

// index returns k's number, if it was added since the last reset.
func (f *firstUse[K]) index(k K) (int, bool) {
	if f.m != nil {
		i, ok := f.m[k]
		return i, ok
	}
	for i, x := range f.keys {
		if x == k {
			return i, true
		}
	}
	return 0, false
}

// add numbers k, which index did not find, and returns its number.
func (f *firstUse[K]) add(k K) int {
	i := len(f.keys)
	f.keys = append(f.keys, k)
	switch {
	case f.m != nil:
		f.m[k] = i
	case len(f.keys) > firstUseScan:
		f.m = make(map[K]int, 2*len(f.keys))
		for j, x := range f.keys {
			f.m[x] = j
		}
	}
	return i
}

// reset forgets every key, keeping the slice's space.
func (f *firstUse[K]) reset() {
	clear(f.keys) // drop the references
	f.keys, f.m = f.keys[:0], nil
}
