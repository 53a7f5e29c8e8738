package umd

import (
	"encoding/binary"

	"d3dsim/core/ddi"
	"d3dsim/core/hresult"
	"d3dsim/gpu/isa"
)

// Queries and predication in the driver. A query that the GPU answers
// owns a little CPU-visible memory; Begin and End become QUERY packets
// naming it (the GPU matches an end to the begin with the same address),
// and QueryGetData reads the GPU's result there once the buffer that
// carried the End has completed, writing the D3D11 structure the runtime
// asked for ("PFND3D10DDI_QUERYGETDATA"). SetPredication becomes
// SET_PREDICATION naming the predicate's memory, sent before the next
// command that needs it.

// queryMemory is the bytes a query kind's result takes in memory (0: an
// EVENT query needs none): what the GPU's end writes (isa.QueryBytes),
// at least the 16 bytes the first queries had.
func queryMemory(t ddi.QueryType) uint64 {
	begin, _ := queryPackets(t)
	if t == ddi.QueryEvent {
		return 0
	}
	return max(16, (isa.QueryBytes(begin)+15)&^15)
}

// queryPackets are the QUERY kinds of a query kind's Begin and End (begin
// ^0: none, End alone issues the query; end ^0: a NOP, an EVENT query's
// End needs only a buffer to ride on).
func queryPackets(t ddi.QueryType) (begin, end uint32) {
	switch {
	case t == ddi.QueryOcclusion || t == ddi.QueryOcclusionPredicate:
		return isa.QueryOcclusionBegin, isa.QueryOcclusionEnd
	case t == ddi.QueryTimestamp:
		return ^uint32(0), isa.QueryTimestamp
	case t == ddi.QueryTimestampDisjoint:
		return isa.QueryDisjointBegin, isa.QueryDisjointEnd
	case t == ddi.QueryPipelineStatistics:
		return isa.QueryStatsBegin, isa.QueryStatsEnd
	case t == ddi.QuerySOStatistics:
		return isa.QuerySOBegin, isa.QuerySOEnd // stream 0's
	case t == ddi.QuerySOOverflowPredicate:
		// "any of the streaming output buffers overflowed"
		return isa.QueryOverflowBegin | isa.QueryAnyStream, isa.QueryOverflowEnd | isa.QueryAnyStream
	case t >= ddi.QuerySOStatisticsStream0 && t <= ddi.QuerySOOverflowPredicateStream0+6:
		// SO_STATISTICS_STREAMn and SO_OVERFLOW_PREDICATE_STREAMn
		// alternate: the stream's counters.
		n := uint32(t-ddi.QuerySOStatisticsStream0) / 2
		if (t-ddi.QuerySOStatisticsStream0)%2 == 0 {
			return isa.SOQuery(isa.QuerySOBegin, n), isa.SOQuery(isa.QuerySOEnd, n)
		}
		return isa.SOQuery(isa.QueryOverflowBegin, n), isa.SOQuery(isa.QueryOverflowEnd, n)
	}
	return ^uint32(0), ^uint32(0)
}

func (c *context) queryBegin(rec recorder, q *query) {
	if q == nil {
		return
	}
	q.active, q.ended = true, false
	if begin, _ := queryPackets(q.kind); begin != ^uint32(0) {
		rec.ensure(8, 2)
		c.cmd.Query(begin, c.refAlloc(q.alloc, true, 0))
	}
}

// queryEnd encodes the End of q; the caller notes that the recording
// carries it.
func (c *context) queryEnd(rec recorder, q *query) {
	rec.ensure(8, 2)
	if _, end := queryPackets(q.kind); end != ^uint32(0) {
		c.cmd.Query(end, c.refAlloc(q.alloc, true, 0))
	} else {
		c.cmd.Words = append(c.cmd.Words, uint32(isa.OpNop)<<24) // the End needs a buffer to ride on
	}
	q.active, q.ended = false, true
}

// queryData writes q's data as its D3D11 structure into out from the
// GPU's result in res: a BOOL for an EVENT query (TRUE) and a predicate
// (the GPU's count or flag is nonzero), the GPU's uint64s as they are for
// the others.
func queryData(q *query, res []byte, out []byte) {
	clear(out)
	switch {
	case q.kind == ddi.QueryEvent:
		binary.LittleEndian.PutUint32(out, 1)
	case q.kind.IsPredicate():
		if len(res) >= 8 && binary.LittleEndian.Uint64(res) != 0 {
			binary.LittleEndian.PutUint32(out, 1)
		}
	default:
		copy(out, res)
	}
}

// checkDataSize refuses a buffer smaller than the kind's data: the
// runtime passes GetDataSize bytes.
func checkDataSize(q *query, data []byte) error {
	if n := q.kind.DataSize(); len(data) < n {
		return hresult.Errorf(hresult.E_INVALIDARG, "umd: QueryGetData of a %s query with %d bytes of data, it needs %d", q.kind, len(data), n)
	}
	return nil
}

// SetPredication records the predicate (pfnSetPredication); the packet
// goes out before the next command (syncPredication).
func (c *context) SetPredication(_ ddi.HDEVICE, h ddi.HQUERY, value bool) {
	c.pred, c.predValue = nil, value
	if h != 0 {
		c.pred = c.query(h)
	}
}

// predicationWords is the room SET_PREDICATION takes when the GPU's
// predication must change before the next command: its words and its
// allocation-list entry.
func (c *context) predicationRoom() (words, allocs int) {
	if c.pred != c.gpuPred || c.pred != nil && c.predValue != c.gpuPredValue {
		return 4, 1
	}
	return 0, 0
}

// syncPredication sends SET_PREDICATION when the GPU's predication is not
// what the context set.
func (c *context) syncPredication() {
	if w, _ := c.predicationRoom(); w > 0 {
		c.emitPredication()
	}
}

// emitPredication sends the context's predication.
func (c *context) emitPredication() {
	addr := isa.NullAddress
	if c.pred != nil {
		addr = c.refAlloc(c.pred.alloc, false, 0)
	}
	c.cmd.SetPredication(addr, c.pred != nil && c.predValue)
	c.gpuPred, c.gpuPredValue = c.pred, c.predValue
}

// predicationOff turns the GPU's predication off if the recording left it
// on: before commands that must not be predicated (a spliced command
// list starts from the default state) and at the end of a command list.
func (c *context) predicationOff(rec recorder) {
	if c.gpuPred == nil {
		return
	}
	pred := c.pred
	c.pred = nil
	rec.ensure(0, 0) // (sends it)
	c.pred = pred
}
