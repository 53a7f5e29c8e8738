package trace

import (
	"encoding/binary"
	"iter"
	"strconv"
	"strings"
	"unsafe"
)

// Key names one argument of an event's payload. Every key is declared here
// once, with the name its text form prints; the layers write and read the
// values by key, typed, and nothing parses the text back.
type Key uint8

const (
	KeyNone Key = iota
	// Kernel objects and submissions (core/dxgk, core/kmd).
	KeyDevice   // kernel device that owns or submits: kd1
	KeyAllocs   // a DMA buffer's allocation list, with owners (Alloc)
	KeySize     // a size in bytes
	KeyCPU      // allocation is CPU-visible
	KeyPrimary  // allocation or resource is a primary surface
	KeySurface  // surface dimensions: WxH
	KeyPitch    // surface row pitch
	KeyFmt      // surface format
	KeyPatches  // patch locations of a DMA buffer
	KeySubfence // an engine's submission fence id
	KeyPaging   // flag: a paging buffer
	KeyFor      // the DMA buffer a paging buffer was built for
	KeyEngine   // GPU engine index
	KeyDropped  // a count of dropped things
	KeyPacket   // a packet index
	KeyPackets  // a packet count
	KeyHazard   // RAW, WAR, WAW
	KeyFrom     // dependency edge: the earlier DMA buffer
	KeyTo       // and the later one
	KeyRes      // a resource or allocation by name
	KeyFence    // a fence value
	KeyDMA      // a DMA buffer id
	KeyDone     // flag: the end of a wait
	KeyBytes    // bytes submitted
	// The runtime (core/d3d11) and its callbacks.
	KeyDev
	KeyRT
	KeyDep
	KeyRecycle
	KeySizes
	KeyCount
	KeyType
	KeyBound
	KeyEntry
	KeyImpl
	KeyFreeThreaded
	KeyHctx
	KeyCode
	KeyShared
	KeyUsage
	KeyState
	KeyDC
	KeyWhy
	KeyObjects
	KeySrc
	KeyCLSHigh
	KeyCLSInUse
	KeyRecorded
	KeyCommandLists
	KeyFlags
	KeyAfter        // the panel's synthetic trace: the frame a dependency follows
	KeyPageFault    // flag: a GPU fault is a memory access outside what the packet's allocations hold
	KeyIRQL         // the IRQL a kernel DDI runs at: PASSIVE_LEVEL
	KeyVBlank       // the display's vertical blank a flip is shown at
	KeySyncInterval // a present's SyncInterval
	KeyLatency      // a device's maximum frame latency
	KeySupport      // CheckFormatSupport's answer, D3D11_FORMAT_SUPPORT bits
	KeyNumRTVs      // pfnSetRenderTargets' NumRTVs (when more than one)
	KeyBlendFactor  // pfnSetBlendState's BlendFactor (when not 1 1 1 1)
	KeySampleMask   // pfnSetBlendState's SampleMask (when not all ones)
	KeyStencilRef   // pfnSetDepthStencilState's StencilRef (when not 0)
	KeyDst          // a present's destination allocation
	KeyNext         // pfnRenderCb: the size of the next command buffer (asked for, then granted)
	KeyData         // GetData's answer: the query's data (Name:value,... for a structure of several members)
	KeyColor        // a D3DPERF marker's colour, #AARRGGBB
	KeyGUID         // SetPrivateData's GUID: WKPDID_D3DDebugObjectName, or the application's own
	KeyDebugName    // an object's debug name (WKPDID_D3DDebugObjectName), where a message names the object
	keyCount
)

var keyNames = [keyCount]string{
	KeyNone: "", KeyDevice: "device", KeyAllocs: "allocs", KeySize: "size", KeyCPU: "cpu", KeyPrimary: "primary",
	KeySurface: "surface", KeyPitch: "pitch", KeyFmt: "fmt", KeyPatches: "patches", KeySubfence: "subfence",
	KeyPaging: "paging", KeyFor: "for", KeyEngine: "engine", KeyDropped: "dropped", KeyPacket: "packet",
	KeyPackets: "packets", KeyHazard: "hazard", KeyFrom: "from", KeyTo: "to", KeyRes: "res", KeyFence: "fence",
	KeyDMA: "dma", KeyDone: "done", KeyBytes: "bytes",
	KeyDev: "dev", KeyRT: "rt", KeyDep: "dep", KeyRecycle: "recycle", KeySizes: "sizes", KeyCount: "count",
	KeyType: "type", KeyBound: "bound", KeyEntry: "entry", KeyImpl: "impl", KeyFreeThreaded: "freethreaded",
	KeyHctx: "hctx", KeyCode: "code", KeyShared: "shared", KeyUsage: "usage", KeyState: "state", KeyDC: "dc",
	KeyWhy: "why", KeyObjects: "objects", KeySrc: "src", KeyCLSHigh: "cls_high", KeyCLSInUse: "cls_in_use",
	KeyRecorded: "recorded", KeyCommandLists: "commandlists", KeyFlags: "flags", KeyAfter: "after",
	KeyPageFault: "pagefault", KeyIRQL: "irql", KeyVBlank: "vblank", KeySyncInterval: "syncinterval", KeyLatency: "latency",
	KeySupport: "support", KeyNumRTVs: "rtvs", KeyBlendFactor: "blendfactor", KeySampleMask: "samplemask", KeyStencilRef: "stencilref", KeyDst: "dst",
	KeyNext: "next", KeyData: "data", KeyColor: "color", KeyGUID: "guid", KeyDebugName: "debugname",
}

// String is the key's name in the text form.
func (k Key) String() string {
	if k < keyCount {
		return keyNames[k]
	}
	return "?"
}

// Alloc is one entry of a DMA buffer's allocation list as Dxgkrnl submits
// it: the kernel allocation handle, the kernel device that owns it, and
// whether the buffer writes it. Its text is a<Handle>@kd<Owner>:w (or :r).
type Alloc struct {
	Handle uint32
	Owner  uint32
	Write  bool
}

// Name is the allocation's handle as Dxgkrnl names it: a3.
func (a Alloc) Name() string { return "a" + strconv.FormatUint(uint64(a.Handle), 10) }

// OwnerName is the owning device's handle as Dxgkrnl names it: kd1.
func (a Alloc) OwnerName() string { return "kd" + strconv.FormatUint(uint64(a.Owner), 10) }

func (a Alloc) appendText(b []byte) []byte {
	b = append(b, 'a')
	b = strconv.AppendUint(b, uint64(a.Handle), 10)
	b = append(b, '@', 'k', 'd')
	b = strconv.AppendUint(b, uint64(a.Owner), 10)
	if a.Write {
		return append(b, ':', 'w')
	}
	return append(b, ':', 'r')
}

// Args is an event's payload: (key, value) entries in the order they were
// written, in a compact binary form (ArgBuilder). Its text (String) is
// "key=value key=value", flags bare, exactly as the trace files show it.
//
// The zero Args is empty. An Args is comparable; its bytes never change.
//
// Encoding: each entry is a tag byte (below 0x20), then for keyed entries
// the key byte, then the value: ints as varints, strings and text length
// prefixed, an allocation list as a count then (handle, owner, write)
// triples, a list of pairs as a count then the pairs. A payload whose first byte is 0x20 or above is one raw text
// entry, the whole string (TextArgs without a copy).
type Args struct{ b string }

const (
	tagInt    = 1 + iota // zigzag varint
	tagUint              // uvarint
	tagStr               // uvarint length, bytes
	tagFlag              // nothing
	tagBool              // one byte
	tagAllocs            // uvarint count, then count × (uvarint handle, uvarint owner, byte write)
	tagText              // no key; uvarint length, bytes printed as is
	tagPairs             // uvarint count, then count × (uvarint, uvarint); printed a:b,a:b
	tagLimit  = 0x20
)

// TextArgs is a payload of one raw text entry, printed as is. No reader
// finds a key in it: it is for text only people read (and for tests that
// rebuild events from their text).
func TextArgs(s string) Args {
	if s == "" || s[0] >= tagLimit {
		return Args{s}
	}
	var b ArgBuilder
	return b.Text(s).Args()
}

// IsZero reports whether the payload is empty.
func (a Args) IsZero() bool { return a.b == "" }

// Clone is a copy of a whose bytes are its own. A payload read back from a
// Recorder (and every string in it: Str, Entries) points into the text of
// the chunk its event is stored in, and a string kept past the event keeps
// that whole chunk's text alive after the ring has dropped it: whatever a
// reader keeps for longer than the event (a table by handle) it clones.
func (a Args) Clone() Args { return Args{strings.Clone(a.b)} }

// Len is the size of the encoded payload in bytes.
func (a Args) Len() int { return len(a.b) }

// raw reports whether the payload is one raw text entry (TextArgs).
func (a Args) raw() bool { return a.b != "" && a.b[0] >= tagLimit }

// entry is one decoded entry. For tagAllocs, s holds the encoded list and n
// the count.
type entry struct {
	tag byte
	key Key
	n   uint64 // int (zigzag undone as int64 bits), uint, bool, alloc count
	s   string // string, text, encoded alloc list
}

// next decodes the entry at b[i:], returning it and the offset of the
// following one; ok is false at the end or on malformed bytes.
func (a Args) next(i int) (e entry, j int, ok bool) {
	b := a.b
	if i >= len(b) {
		return e, i, false
	}
	if i == 0 && b[0] >= tagLimit {
		return entry{tag: tagText, s: b}, len(b), true
	}
	e.tag = b[i]
	i++
	if e.tag != tagText {
		if i >= len(b) {
			return e, i, false
		}
		e.key = Key(b[i])
		i++
	}
	switch e.tag {
	case tagInt, tagUint:
		v, n := uvarint(b[i:])
		if n <= 0 {
			return e, i, false
		}
		if e.tag == tagInt {
			v = uint64(int64(v>>1) ^ -int64(v&1))
		}
		e.n, i = v, i+n
	case tagFlag:
	case tagBool:
		if i >= len(b) {
			return e, i, false
		}
		e.n, i = uint64(b[i]&1), i+1
	case tagStr, tagText:
		l, n := uvarint(b[i:])
		if n <= 0 || l > uint64(len(b)-i-n) {
			return e, i, false
		}
		i += n
		e.s, i = b[i:i+int(l)], i+int(l)
	case tagAllocs, tagPairs:
		// A count, then per entry two varints (an allocation adds its
		// write byte).
		cnt, n := uvarint(b[i:])
		if n <= 0 {
			return e, i, false
		}
		i += n
		start := i
		for range cnt {
			for range 2 {
				_, n := uvarint(b[i:])
				if n <= 0 {
					return e, i, false
				}
				i += n
			}
			if e.tag == tagAllocs {
				if i >= len(b) {
					return e, i, false
				}
				i++
			}
		}
		e.n, e.s = cnt, b[start:i]
	default:
		return e, i, false
	}
	return e, i, true
}

func uvarint(s string) (uint64, int) {
	var x uint64
	var sh uint
	for i := 0; i < len(s) && i < binary.MaxVarintLen64; i++ {
		c := s[i]
		if c < 0x80 {
			if i == binary.MaxVarintLen64-1 && c > 1 {
				return 0, -1
			}
			return x | uint64(c)<<sh, i + 1
		}
		x |= uint64(c&0x7f) << sh
		sh += 7
	}
	return 0, 0
}

// find is the first entry with key k.
func (a Args) find(k Key) (entry, bool) {
	if a.raw() {
		return entry{}, false
	}
	for i := 0; ; {
		e, j, ok := a.next(i)
		if !ok {
			return entry{}, false
		}
		if e.key == k && e.tag != tagText {
			return e, true
		}
		i = j
	}
}

// Has reports whether the payload has an entry with key k (a flag or a
// value).
func (a Args) Has(k Key) bool {
	_, ok := a.find(k)
	return ok
}

// Int is the integer value of key k: false when absent or not an integer.
func (a Args) Int(k Key) (int64, bool) {
	e, ok := a.find(k)
	if !ok || (e.tag != tagInt && e.tag != tagUint) {
		return 0, false
	}
	return int64(e.n), true
}

// Uint is the unsigned value of key k: false when absent or not an
// integer.
func (a Args) Uint(k Key) (uint64, bool) {
	e, ok := a.find(k)
	if !ok || (e.tag != tagInt && e.tag != tagUint) {
		return 0, false
	}
	return e.n, true
}

// Bool is the boolean value of key k: false when absent.
func (a Args) Bool(k Key) (v, ok bool) {
	e, ok := a.find(k)
	if !ok || e.tag != tagBool {
		return false, false
	}
	return e.n != 0, true
}

// Str is the string value of key k ("" when absent or not a string).
func (a Args) Str(k Key) string {
	e, ok := a.find(k)
	if !ok || e.tag != tagStr {
		return ""
	}
	return e.s
}

// Allocs is the allocation list (KeyAllocs), in the order written.
func (a Args) Allocs() iter.Seq[Alloc] {
	return func(yield func(Alloc) bool) {
		e, ok := a.find(KeyAllocs)
		if !ok || e.tag != tagAllocs {
			return
		}
		s := e.s
		for range e.n {
			h, n := uvarint(s)
			s = s[n:]
			o, m := uvarint(s)
			s = s[m:]
			w := s[0] != 0
			s = s[1:]
			if !yield(Alloc{Handle: uint32(h), Owner: uint32(o), Write: w}) {
				return
			}
		}
	}
}

// Pairs is the list of pairs under key k (ArgBuilder.Pairs), in the order
// written.
func (a Args) Pairs(k Key) iter.Seq2[uint64, uint64] {
	return func(yield func(uint64, uint64) bool) {
		e, ok := a.find(k)
		if !ok || e.tag != tagPairs {
			return
		}
		s := e.s
		for range e.n {
			x, n := uvarint(s)
			s = s[n:]
			y, m := uvarint(s)
			s = s[m:]
			if !yield(x, y) {
				return
			}
		}
	}
}

// ArgKind is the type of a keyed entry's value, as Entries yields it.
type ArgKind uint8

const (
	ArgInt    ArgKind = tagInt    // Entry.N holds the int64's bits
	ArgUint   ArgKind = tagUint   // Entry.N
	ArgStr    ArgKind = tagStr    // Entry.S
	ArgFlag   ArgKind = tagFlag   // no value
	ArgBool   ArgKind = tagBool   // Entry.N is 0 or 1
	ArgAllocs ArgKind = tagAllocs // Entry.N is the count (Allocs reads the list)
	ArgPairs  ArgKind = tagPairs  // Entry.N is the count (Pairs reads the list)
)

// Entry is one keyed entry of a payload.
type Entry struct {
	Key  Key
	Kind ArgKind
	N    uint64
	S    string
}

// Entries yields the payload's keyed entries in the order written (text
// entries have no key and are left out; so is all of a TextArgs payload).
func (a Args) Entries() iter.Seq[Entry] {
	return func(yield func(Entry) bool) {
		if a.raw() {
			return
		}
		for i := 0; ; {
			e, j, ok := a.next(i)
			if !ok {
				return
			}
			i = j
			if e.tag == tagText {
				continue
			}
			en := Entry{Key: e.key, Kind: ArgKind(e.tag), N: e.n}
			if e.tag == tagStr {
				en.S = e.s
			}
			if !yield(en) {
				return
			}
		}
	}
}

// String is the payload's text: "key=value ..." in the order written.
func (a Args) String() string {
	if a.b == "" || a.raw() {
		return a.b
	}
	var buf [128]byte
	return string(a.AppendText(buf[:0]))
}

// AppendText appends the payload's text to b.
func (a Args) AppendText(b []byte) []byte {
	if a.raw() {
		return append(b, a.b...)
	}
	for i, first := 0, true; ; first = false {
		e, j, ok := a.next(i)
		if !ok {
			return b
		}
		i = j
		if !first {
			b = append(b, ' ')
		}
		if e.tag == tagText {
			b = append(b, e.s...)
			continue
		}
		b = append(b, e.key.String()...)
		if e.tag == tagFlag {
			continue
		}
		b = append(b, '=')
		switch e.tag {
		case tagInt:
			b = strconv.AppendInt(b, int64(e.n), 10)
		case tagUint:
			b = strconv.AppendUint(b, e.n, 10)
		case tagBool:
			b = strconv.AppendBool(b, e.n != 0)
		case tagStr:
			b = append(b, e.s...)
		case tagAllocs:
			s := e.s
			for k := range e.n {
				if k > 0 {
					b = append(b, ',')
				}
				h, n := uvarint(s)
				s = s[n:]
				o, m := uvarint(s)
				s = s[m:]
				b = Alloc{Handle: uint32(h), Owner: uint32(o), Write: s[0] != 0}.appendText(b)
				s = s[1:]
			}
		case tagPairs:
			s := e.s
			for k := range e.n {
				if k > 0 {
					b = append(b, ',')
				}
				x, n := uvarint(s)
				s = s[n:]
				y, m := uvarint(s)
				s = s[m:]
				b = strconv.AppendUint(b, x, 10)
				b = append(b, ':')
				b = strconv.AppendUint(b, y, 10)
			}
		}
	}
}

// capArgs bounds the payload to n bytes and keeps it decodable: entries that
// do not fit are dropped, and a string or text entry that only partly fits
// is cut (Truncate) as the last entry. Raw text is cut like any text.
func capArgs(a Args, n int) Args {
	if len(a.b) <= n {
		return a
	}
	if a.raw() {
		s := Truncate(a.b, n)
		if s != "" && s[0] < tagLimit { // cannot happen for raw text, kept for safety
			return Args{}
		}
		return Args{s}
	}
	var out []byte
	for i := 0; ; {
		e, j, ok := a.next(i)
		if !ok {
			break
		}
		if len(out)+(j-i) <= n {
			out = append(out, a.b[i:j]...)
			i = j
			continue
		}
		if e.tag == tagStr || e.tag == tagText {
			// header: tag, key, up to 2 bytes of length for MaxText.
			room := n - len(out) - 2 - binary.MaxVarintLen32
			if room > 24 {
				s := Truncate(e.s, room)
				out = append(out, e.tag)
				if e.tag != tagText {
					out = append(out, byte(e.key))
				}
				out = binary.AppendUvarint(out, uint64(len(s)))
				out = append(out, s...)
			}
		}
		break
	}
	return Args{string(out)}
}

// ArgBuilder writes a payload entry by entry. The zero value is ready; the
// methods chain: b.Str(KeyDevice, "kd1").Int(KeySize, 64). It holds up to 64
// bytes in place; Args makes the payload's one allocation.
type ArgBuilder struct {
	n    int
	buf  [64]byte
	over []byte // the bytes once they outgrow buf
}

func (w *ArgBuilder) spill() {
	if w.over == nil {
		w.over = append(make([]byte, 0, 2*len(w.buf)), w.buf[:w.n]...)
	}
}

func (w *ArgBuilder) put(c ...byte) {
	if w.over == nil && w.n+len(c) <= len(w.buf) {
		w.n += copy(w.buf[w.n:], c)
		return
	}
	w.spill()
	w.over = append(w.over, c...)
}

func (w *ArgBuilder) putStr(s string) {
	if w.over == nil && w.n+len(s) <= len(w.buf) {
		w.n += copy(w.buf[w.n:], s)
		return
	}
	w.spill()
	w.over = append(w.over, s...)
}

func (w *ArgBuilder) putUvarint(v uint64) {
	var t [binary.MaxVarintLen64]byte
	n := binary.PutUvarint(t[:], v)
	w.put(t[:n]...)
}

// Int adds key=v.
func (w *ArgBuilder) Int(k Key, v int64) *ArgBuilder {
	w.put(tagInt, byte(k))
	w.putUvarint(uint64(v<<1) ^ uint64(v>>63))
	return w
}

// Uint adds key=v.
func (w *ArgBuilder) Uint(k Key, v uint64) *ArgBuilder {
	w.put(tagUint, byte(k))
	w.putUvarint(v)
	return w
}

// Bool adds key=true or key=false.
func (w *ArgBuilder) Bool(k Key, v bool) *ArgBuilder {
	var c byte
	if v {
		c = 1
	}
	w.put(tagBool, byte(k), c)
	return w
}

// Str adds key=s.
func (w *ArgBuilder) Str(k Key, s string) *ArgBuilder {
	w.put(tagStr, byte(k))
	w.putUvarint(uint64(len(s)))
	w.putStr(s)
	return w
}

// Flag adds the bare key.
func (w *ArgBuilder) Flag(k Key) *ArgBuilder {
	w.put(tagFlag, byte(k))
	return w
}

// Text adds s as is, under no key: text only people read.
func (w *ArgBuilder) Text(s string) *ArgBuilder {
	w.put(tagText)
	w.putUvarint(uint64(len(s)))
	w.putStr(s)
	return w
}

// Allocs adds the allocation list (KeyAllocs) of n entries, which the next
// n calls of Alloc write.
func (w *ArgBuilder) Allocs(n int) *ArgBuilder {
	w.put(tagAllocs, byte(KeyAllocs))
	w.putUvarint(uint64(n))
	return w
}

// Pairs adds a list of n pairs under key k, printed a:b,a:b, which the next
// n calls of Pair write.
func (w *ArgBuilder) Pairs(k Key, n int) *ArgBuilder {
	w.put(tagPairs, byte(k))
	w.putUvarint(uint64(n))
	return w
}

// Pair writes one entry of the list Pairs opened.
func (w *ArgBuilder) Pair(x, y uint64) *ArgBuilder {
	w.putUvarint(x)
	w.putUvarint(y)
	return w
}

// Alloc writes one entry of the list Allocs opened.
func (w *ArgBuilder) Alloc(a Alloc) *ArgBuilder {
	w.putUvarint(uint64(a.Handle))
	w.putUvarint(uint64(a.Owner))
	if a.Write {
		w.put(1)
	} else {
		w.put(0)
	}
	return w
}

// Args is the payload written so far. The builder can go on and make
// another.
func (w *ArgBuilder) Args() Args {
	if w.over != nil {
		return Args{string(w.over)}
	}
	if w.n == 0 {
		return Args{}
	}
	return Args{string(w.buf[:w.n])}
}

// Reset empties the builder.
func (w *ArgBuilder) Reset() { w.n, w.over = 0, nil }

// argsAt is the payload stored at p in a recorder chunk's text, without a
// copy.
func argsAt(p *byte, n int) Args { return Args{unsafe.String(p, n)} }

// IntArg is the payload key=v alone.
func IntArg(k Key, v int64) Args {
	var b ArgBuilder
	return b.Int(k, v).Args()
}

// UintArg is the payload key=v alone.
func UintArg(k Key, v uint64) Args {
	var b ArgBuilder
	return b.Uint(k, v).Args()
}

// FlagArgs is the payload of bare keys, no values.
func FlagArgs(k ...Key) Args {
	var b ArgBuilder
	for _, k := range k {
		b.Flag(k)
	}
	return b.Args()
}
