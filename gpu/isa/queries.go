package isa

// Queries and predication. A QUERY packet's begin kinds remember the GPU's
// counters under the query's address; its end kinds write what changed since
// the begin with the same address (the latest open begin of the family
// otherwise) as the D3D11 query data lays it out. SET_PREDICATION makes the
// rendering and resource-manipulation packets after it depend on a
// predicate's data in memory ("ID3D11DeviceContext::SetPredication").

// OpSetPredication: addr(2) value. addr 0 (a NullAddress the KMD left
// unpatched) turns predication off. Otherwise the predicated packets (DRAW*,
// CLEAR_*, COPY, WRITE and the subresource packets) that follow are skipped
// when (the uint64 at addr != 0) equals value (0 or 1).
const OpSetPredication Opcode = 0x40

// More query kinds (QUERY's first word) after QueryTimestamp.
const (
	QueryStatsBegin    = 3  // remember the pipeline-statistics counters
	QueryStatsEnd      = 4  // write D3D11_QUERY_DATA_PIPELINE_STATISTICS (11 uint64)
	QuerySOBegin       = 5  // remember the stream-output counters
	QuerySOEnd         = 6  // write D3D11_QUERY_DATA_SO_STATISTICS (2 uint64)
	QueryDisjointBegin = 7  // remember the engine-reset count
	QueryDisjointEnd   = 8  // write D3D11_QUERY_DATA_TIMESTAMP_DISJOINT: Frequency (uint64), Disjoint (uint32, then 4 zero bytes)
	QueryOverflowBegin = 9  // remember the stream-output overflow count
	QueryOverflowEnd   = 10 // write 1 (uint64) when stream output overflowed since, else 0
	NumQueryKinds      = 11
)

// QueryStreamShift places the bits of a QUERY kind that name the stream-output
// stream (0..3) of QuerySO* and QueryOverflow* (the D3D11 queries
// SO_STATISTICS_STREAMn and SO_OVERFLOW_PREDICATE_STREAMn): SOQuery(kind,
// n) is kind | n<<8.
// QueryAnyStream on QueryOverflow* is every stream's
// (D3D11_QUERY_SO_OVERFLOW_PREDICATE: "any of the streaming output
// buffers").
const (
	QueryStreamShift = 8
	QueryAnyStream   = 1 << 10
	queryStreamBits  = 3<<QueryStreamShift | QueryAnyStream
)

// QueryBase is kind without its stream bits.
func QueryBase(kind uint32) uint32 { return kind &^ queryStreamBits }

// SOQuery is a stream-output query kind for stream n.
func SOQuery(kind, n uint32) uint32 { return kind | (n&3)<<QueryStreamShift }

// TimestampFrequency is the GPU's timestamp frequency in Hz, what a
// TIMESTAMP_DISJOINT query reports: the timestamp counter is the GPU's
// virtual clock, one tick a virtual nanosecond.
const TimestampFrequency = 1_000_000_000

// QueryBytes is the bytes a QUERY packet of the kind reaches at its
// address: what its end writes (a begin is keyed by the same address).
func QueryBytes(kind uint32) uint64 {
	switch kind &^ queryStreamBits {
	case QueryStatsBegin, QueryStatsEnd:
		return 88
	case QuerySOBegin, QuerySOEnd, QueryDisjointBegin, QueryDisjointEnd:
		return 16
	}
	return 8
}

// QueryBegins reports whether kind is a begin, and QueryEndOf is the end
// that matches begin kind b.
func QueryBegins(kind uint32) bool {
	kind &^= queryStreamBits
	return kind == QueryOcclusionBegin || kind == QueryStatsBegin || kind == QuerySOBegin || kind == QueryDisjointBegin || kind == QueryOverflowBegin
}

// SetPredication appends SET_PREDICATION: addr NullAddress turns it off.
func (b *Builder) SetPredication(addr uint64, value bool) int {
	b.header(OpSetPredication, 3)
	at := b.addr(addr)
	v := uint32(0)
	if value {
		v = 1
	}
	b.Words = append(b.Words, v)
	return at
}

// PredicatedOp reports whether packets of op are skipped under predication:
// D3D11's rendering and resource-manipulation commands (draws, clears,
// copies, updates, resolves, mipmap generation).
func PredicatedOp(op Opcode) bool {
	switch op {
	case OpDraw, OpDrawIndexed, OpDrawInstanced, OpDrawIndexedInstanced, OpDrawIndirect, OpDrawIndexedIndirect, OpDrawAuto,
		OpClearRT, OpClearDS, OpClearStencil, OpCopy, OpWrite:
		return true
	}
	return predicatedLater[op]
}

// predicatedLater are the later predicated packets (subresource copies,
// resolves, mipmap generation), registered where they are defined.
var predicatedLater [256]bool
