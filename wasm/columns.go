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
}

func (c *columnEncoder) reset() {
	c.ids = map[string]int32{"": 0}
	c.args = map[trace.Args]int32{}
	c.next = 1
}

// columnBatch is one encoded batch. Ints and Times are the encoder's
// buffers: valid until its next encode.
type columnBatch struct {
	N       int
	Ints    []byte // N*colStride little-endian int32
	Times   []byte // N little-endian float64 (virtual ns)
	Strings []string
}

// encode appends evs to a new batch.
func (c *columnEncoder) encode(evs []trace.Event) columnBatch {
	if c.ids == nil {
		c.reset()
	}
	c.ints = grow(c.ints, 4*colStride*len(evs))
	c.times = grow(c.times, 8*len(evs))
	b := columnBatch{N: len(evs), Ints: c.ints, Times: c.times}
	id := func(s string) int32 {
		if v, ok := c.ids[s]; ok {
			return v
		}
		v := c.next
		c.next++
		c.ids[s] = v
		b.Strings = append(b.Strings, s)
		return v
	}
	for i := range evs {
		e := &evs[i]
		var w [colStride]int32
		w[colSeq] = int32(e.Seq & math.MaxInt32)
		w[colKind] = int32(e.Kind) | int32(e.Layer)<<8 | int32(e.From)<<16
		w[colThread] = id(e.Thread)
		w[colName] = id(e.Name)
		w[colCtx] = id(e.Ctx)
		w[colObj] = id(e.Obj)
		w[colHandle] = id(e.Handle)
		w[colHR] = id(e.HR)
		w[colFence] = clamp32(e.Fence)
		w[colDMA] = clamp32(e.DMA)
		w[colRule] = id(e.Rule)
		w[colMsg] = id(e.Msg)
		if v, ok := c.args[e.Args]; ok {
			w[colArgs] = v
		} else {
			w[colArgs] = id(e.Args.String())
			c.args[e.Args] = w[colArgs]
		}
		w[colLine] = int32(max(0, min(e.Line, math.MaxInt32)))
		w[colParent] = int32(e.Parent & math.MaxInt32)
		o := 4 * colStride * i
		for k, v := range w {
			binary.LittleEndian.PutUint32(b.Ints[o+4*k:], uint32(v))
		}
		binary.LittleEndian.PutUint64(b.Times[8*i:], math.Float64bits(float64(e.T)))
	}
	return b
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
