package gpu

import (
	"d3dsim/gpu/isa"
	"encoding/binary"
)

// The GPU's counters and what QUERY and SET_PREDICATION do with them.
//
// The counters are the GPU's, not an engine's: when Dxgkrnl runs buffers
// out of order on several engines, a query's begin, its draws and its end
// may run on different engines. Each engine's copy is loaded from the GPU
// before a buffer runs and stored back after (buffers run one at a time).
// The pipeline-statistics counters are counted by the stages themselves
// (draw.go): the input assembler's vertices and primitives, the vertex
// program's invocations, the primitives the clipper takes and those it
// hands the rasterizer, the pixel program's invocations. The stages this
// GPU has no programs for (geometry, hull, domain, compute) and stream
// output count nothing.

// counters indexes; the eleven pipeline statistics are consecutive in the
// order of D3D11_QUERY_DATA_PIPELINE_STATISTICS.
const (
	ctrSamples       = iota // samples that passed the depth test (occlusion)
	ctrIAVertices           // vertices the input assembler read
	ctrIAPrimitives         // primitives it assembled
	ctrVSInvocations        // vertex program invocations
	ctrGSInvocations
	ctrGSPrimitives
	ctrCInvocations  // primitives the clipper took
	ctrCPrimitives   // primitives it passed on to the rasterizer (after clipping)
	ctrPSInvocations // pixel program invocations
	ctrHSInvocations
	ctrDSInvocations
	ctrCSInvocations
	ctrResets // engine resets: a timestamp discontinuity (TIMESTAMP_DISJOINT)
	// Stream output's, four of each, one a stream (ctrSOWritten+n).
	ctrSOWritten                     // primitives stream output wrote
	ctrSONeeded   = ctrSOWritten + 4 // primitives it would have written with room
	ctrSOOverflow = ctrSONeeded + 4  // stream-output overflows
	numCounters   = ctrSOOverflow + 4
)

type counters [numCounters]uint64

// openQuery is a query between its begin and end: the counters at the
// begin.
type openQuery struct {
	addr   uint64
	family uint32 // the begin kind
	snap   counters
}

// maxOpenQueries bounds the queries open at once on the GPU.
const maxOpenQueries = 64

// drawCounters are a draw's pipeline statistics, added to the engine's
// counters when the draw is done.
type drawCounters struct {
	iaPrims, vsInv, cInv, cPrims uint64
	gsInv, gsPrims               uint64
	hsInv, dsInv                 uint64
}

// query runs QUERY. A begin remembers the counters under its address (the
// oldest open query is forgotten past maxOpenQueries); an end writes what
// changed since the begin of its family with the same address, or else the
// latest open one of its family. Begin and end may be in different
// buffers. A timestamp is the virtual time at which the packet runs within
// its buffer: the GPU's clock, isa.TimestampFrequency ticks a second.
func (ex *executor) query(kind uint32, addr uint64) {
	e, g := ex.e, ex.g
	if isa.QueryBegins(kind) {
		if len(g.open) == maxOpenQueries {
			g.open = append(g.open[:0], g.open[1:]...)
		}
		g.open = append(g.open, openQuery{addr: addr, family: kind, snap: e.ctr})
		return
	}
	var out [11]uint64
	n := 1 // uint64s written
	// A stream-output query's stream (isa.SOQuery): its begin has the
	// same bits, the counters are the stream's (any stream's for
	// QueryAnyStream).
	stream, streamBits := uint32(0), uint32(0)
	if b := isa.QueryBase(kind); b == isa.QuerySOEnd || b == isa.QueryOverflowEnd {
		stream, streamBits, kind = kind>>isa.QueryStreamShift&3, kind&^b, b
	}
	since := func(begin uint32) (d counters, ok bool) {
		k := -1
		for i := range g.open {
			if g.open[i].family == begin && (k < 0 || g.open[i].addr == addr || g.open[k].addr != addr) {
				k = i
			}
		}
		if k < 0 {
			ex.fault("query end (kind %d) at %#x without a begin", kind, addr)
			return d, false
		}
		for i := range d {
			d[i] = e.ctr[i] - g.open[k].snap[i]
		}
		g.open = append(g.open[:k], g.open[k+1:]...)
		return d, true
	}
	switch kind {
	case isa.QueryOcclusionEnd:
		d, ok := since(isa.QueryOcclusionBegin)
		if !ok {
			return
		}
		out[0] = d[ctrSamples]
	case isa.QueryTimestamp:
		out[0] = uint64(ex.t0 + ex.res.cost)
	case isa.QueryStatsEnd:
		d, ok := since(isa.QueryStatsBegin)
		if !ok {
			return
		}
		n = copy(out[:], d[ctrIAVertices:ctrCSInvocations+1])
	case isa.QuerySOEnd:
		d, ok := since(isa.QuerySOBegin | streamBits)
		if !ok {
			return
		}
		out[0], out[1], n = d[ctrSOWritten+stream], d[ctrSONeeded+stream], 2
	case isa.QueryDisjointEnd:
		d, ok := since(isa.QueryDisjointBegin)
		if !ok {
			return
		}
		out[0], n = isa.TimestampFrequency, 2
		if d[ctrResets] != 0 {
			out[1] = 1
		}
	case isa.QueryOverflowEnd:
		d, ok := since(isa.QueryOverflowBegin | streamBits)
		if !ok {
			return
		}
		any := streamBits&isa.QueryAnyStream != 0 && d[ctrSOOverflow]+d[ctrSOOverflow+1]+d[ctrSOOverflow+2]+d[ctrSOOverflow+3] != 0
		if any || d[ctrSOOverflow+stream] != 0 {
			out[0] = 1
		}
	default:
		ex.fault("unknown query kind %d", kind)
		return
	}
	if dst, ok := ex.bytes("query result", addr, uint64(8*n)); ok {
		for i := range n {
			binary.LittleEndian.PutUint64(dst[8*i:], out[i])
		}
	}
}

// predicatedOut reports whether the predicated packet about to run is
// skipped: the predicate's data (nonzero: TRUE) equals the value of
// SET_PREDICATION. A predicate the GPU cannot read faults and skips.
func (ex *executor) predicatedOut() bool {
	b, ok := ex.bytes("predicate", ex.st.predAddr, 8)
	if !ok {
		return true
	}
	return (binary.LittleEndian.Uint64(b) != 0) == ex.st.predValue
}
