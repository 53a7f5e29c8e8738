package main

import (
	"encoding/binary"
	"math"
	"strings"

	"d3dsim/core/trace"
)

// The panel receives the trace as columns, not as one JSON object per event:
// a batch is a little-endian []int32 of colStride words per event, a
// []float64 of virtual times, and the strings first seen in this batch (each
// string crosses to JavaScript once; events name them by index). With a
// million events this is the difference between a smooth page and a frozen
// one: columnar typed arrays, interned strings, incremental batches.
// web/model.js decodes the same layout; keep the two in step.
//
// The payloads (trace.Args) cross typed, so the page reads them by key and
// never parses their text. Each distinct payload is sent once: column
// colArgs names it by a string id whose string is its text (the trace view
// shows it), and the first batch that uses a payload with keyed entries
// carries them after the events' words, as triples of int32
//
//	payload id, key | kind<<8, value
//
// with key a trace.Key, kind a trace.ArgKind, and value the integer
// (clamped to int32), 0 or 1 for a bool, 0 for a flag, the string id of a
// string, the count of an allocation or pair list. A payload with keyed
// entries has an id of its own (its text may repeat another string's: the
// string is then sent twice), so an id never stands for two payloads.
// Events without a payload cost nothing, and a repeated payload nothing
// more than its id.

// Column offsets within an event's colStride words.
const (
	colSeq    = iota // low 31 bits of the seq
	colKind          // kind | layer<<8 | from<<16
	colThread        // string ids, 0 = ""
	colName
	colCtx
	colObj
	colHandle
	colHR
	colFence // clamped to int32
	colDMA   // clamped to int32
	colRule  // string ids
	colMsg
	colArgs
	colLine
	colParent // low 31 bits of the parent's seq, 0 = top level
	colStride
)

// columnEncoder interns strings across the batches of one trace: the first
// batch after reset starts a new table on both sides.
type columnEncoder struct {
	ids  map[string]int32
	args map[trace.Args]int32 // payloads already sent, by value: their text is formatted once
	next int32
	// Reused between batches (the bridge copies them to JS at once): a
	// million events must not leave a trail of garbage for the GC, which
	// in WebAssembly stops the page while it marks.
	ints, times []byte
	argw        []int32 // the batch's payload triples
}

// argStride is the number of int32 words of one payload entry after the
// events' words.
const argStride = 3

func (c *columnEncoder) reset() {
	c.ids = map[string]int32{"": 0}
	c.args = map[trace.Args]int32{}
	c.next = 1
}

// columnBatch is one encoded batch. Ints and Times are the encoder's
// buffers: valid until its next encode.
type columnBatch struct {
	N       int
	Ints    []byte // N*colStride little-endian int32, then argStride per payload entry
	Times   []byte // N little-endian float64 (virtual ns)
	Strings []string
}

// encode appends evs to a new batch.
func (c *columnEncoder) encode(evs []trace.Event) columnBatch {
	if c.ids == nil {
		c.reset()
	}
	c.ints = grow(c.ints, 4*colStride*len(evs))
	c.argw = c.argw[:0]
	c.times = grow(c.times, 8*len(evs))
	b := columnBatch{N: len(evs), Ints: c.ints, Times: c.times}
	id := func(s string) int32 {
		if v, ok := c.ids[s]; ok {
			return v
		}
		v := c.next
		c.next++
		s = strings.Clone(s) // kept for the trace's life (Args.Clone says why)
		c.ids[s] = v
		b.Strings = append(b.Strings, s)
		return v
	}
	// Each column's last string and its id: an event's strings are mostly
	// its predecessor's (a thousand Draws on one thread and context), and
	// comparing them costs less than the table's lookups did (64% of
	// encoding the draws figure's trace, BenchmarkColumnEncode).
	var last [colStride]struct {
		s  string
		id int32
	}
	col := func(k int, s string) int32 {
		if l := &last[k]; s == l.s {
			return l.id
		}
		v := id(s)
		last[k].s, last[k].id = s, v
		return v
	}
	var lastArgs trace.Args
	lastArgsID := int32(-1)
	for i := range evs {
		e := &evs[i]
		var w [colStride]int32
		w[colSeq] = int32(e.Seq & math.MaxInt32)
		w[colKind] = int32(e.Kind) | int32(e.Layer)<<8 | int32(e.From)<<16
		w[colThread] = col(colThread, e.Thread)
		w[colName] = col(colName, e.Name)
		w[colCtx] = col(colCtx, e.Ctx)
		w[colObj] = col(colObj, e.Obj)
		w[colHandle] = col(colHandle, e.Handle)
		w[colHR] = col(colHR, e.HR)
		w[colFence] = clamp32(e.Fence)
		w[colDMA] = clamp32(e.DMA)
		w[colRule] = col(colRule, e.Rule)
		w[colMsg] = col(colMsg, e.Msg)
		if lastArgsID >= 0 && e.Args == lastArgs {
			w[colArgs] = lastArgsID
		} else if v, ok := c.args[e.Args]; ok {
			w[colArgs] = v
		} else {
			w[colArgs] = c.payload(e.Args, id, &b)
			c.args[e.Args.Clone()] = w[colArgs]
		}
		lastArgs, lastArgsID = e.Args, w[colArgs]
		w[colLine] = int32(max(0, min(e.Line, math.MaxInt32)))
		w[colParent] = int32(e.Parent & math.MaxInt32)
		o := 4 * colStride * i
		for k, v := range w {
			binary.LittleEndian.PutUint32(b.Ints[o+4*k:], uint32(v))
		}
		binary.LittleEndian.PutUint64(b.Times[8*i:], math.Float64bits(float64(e.T)))
	}
	for _, v := range c.argw {
		c.ints = binary.LittleEndian.AppendUint32(c.ints, uint32(v))
	}
	b.Ints = c.ints
	return b
}

// payload is the string id of a payload not sent before; its keyed entries
// go to c.argw.
func (c *columnEncoder) payload(a trace.Args, id func(string) int32, b *columnBatch) int32 {
	var v int32
	for en := range a.Entries() {
		if v == 0 {
			// An id of its own, not shared with an equal string.
			v = c.next
			c.next++
			b.Strings = append(b.Strings, a.String())
		}
		var x int32
		switch en.Kind {
		case trace.ArgInt:
			x = int32(max(math.MinInt32, min(int64(en.N), math.MaxInt32)))
		case trace.ArgStr:
			x = id(en.S)
		default: // uint, bool, flag (0), list counts
			x = clamp32(en.N)
		}
		c.argw = append(c.argw, v, int32(en.Key)|int32(en.Kind)<<8, x)
	}
	if v == 0 {
		return id(a.String())
	}
	return v
}

// grow returns b resized to n bytes, reusing its array when it is big
// enough.
func grow(b []byte, n int) []byte {
	if cap(b) >= n {
		return b[:n]
	}
	return make([]byte, n)
}

func clamp32(v uint64) int32 {
	if v > math.MaxInt32 {
		return math.MaxInt32
	}
	return int32(v)
}

// joinedStrings is the batch's new strings joined by NUL, one JS string to
// split: NUL never occurs in a trace string it would break (it is replaced).
func (b columnBatch) joinedStrings() string {
	var sb strings.Builder
	for i, s := range b.Strings {
		if i > 0 {
			sb.WriteByte(0)
		}
		sb.WriteString(strings.ReplaceAll(s, "\x00", "\uFFFD"))
	}
	return sb.String()
}
