package ddi

import "encoding/binary"

// The kinds of D3D11_QUERY and the data GetData returns for each
// ("D3D11_QUERY enumeration (d3d11.h)", "D3D11_QUERY_DATA_PIPELINE_STATISTICS
// structure", "D3D11_QUERY_DATA_TIMESTAMP_DISJOINT structure",
// "D3D11_QUERY_DATA_SO_STATISTICS structure"). The runtime hands the
// driver's QueryGetData a buffer of DataSize bytes (PFND3D10DDI_QUERYGETDATA's
// pData and DataSize) and reads the fields back from it with Fields.
const (
	QueryEvent               QueryType = 0
	QueryOcclusion           QueryType = 1
	QueryTimestamp           QueryType = 2
	QueryTimestampDisjoint   QueryType = 3
	QueryPipelineStatistics  QueryType = 4
	QueryOcclusionPredicate  QueryType = 5
	QuerySOStatistics        QueryType = 6
	QuerySOOverflowPredicate QueryType = 7
	// The per-stream kinds alternate from 8: SO_STATISTICS_STREAMn is
	// 8+2n, SO_OVERFLOW_PREDICATE_STREAMn 9+2n (d3d11.h's order).
	QuerySOStatisticsStream0        QueryType = 8
	QuerySOOverflowPredicateStream0 QueryType = 9
	numQueryTypes                   QueryType = 16
)

// QueryField is one member of a query's data: its name as the D3D11
// structure spells it and its size in bytes (8 for UINT64, 4 for BOOL).
type QueryField struct {
	Name string
	Size int
}

var (
	boolData     = []QueryField{{"", 4}}
	uint64Data   = []QueryField{{"", 8}}
	disjointData = []QueryField{{"Frequency", 8}, {"Disjoint", 4}}
	pipelineData = []QueryField{{"IAVertices", 8}, {"IAPrimitives", 8}, {"VSInvocations", 8}, {"GSInvocations", 8},
		{"GSPrimitives", 8}, {"CInvocations", 8}, {"CPrimitives", 8}, {"PSInvocations", 8}, {"HSInvocations", 8},
		{"DSInvocations", 8}, {"CSInvocations", 8}}
	soData = []QueryField{{"NumPrimitivesWritten", 8}, {"PrimitivesStorageNeeded", 8}}
)

// queryInfo is what each kind is: its scenario name, its data, and what
// Begin means for it.
var queryInfo = [numQueryTypes]struct {
	name string
	data []QueryField
	// begin: the query has a Begin ("ID3D11DeviceContext::Begin": EVENT
	// and TIMESTAMP queries have none, End alone issues them).
	begin bool
	// predicate: a predicate ("ID3D11Device::CreatePredicate").
	predicate bool
}{
	QueryEvent:                          {name: "EVENT", data: boolData},
	QueryOcclusion:                      {name: "OCCLUSION", data: uint64Data, begin: true},
	QueryTimestamp:                      {name: "TIMESTAMP", data: uint64Data},
	QueryTimestampDisjoint:              {name: "TIMESTAMP_DISJOINT", data: disjointData, begin: true},
	QueryPipelineStatistics:             {name: "PIPELINE_STATISTICS", data: pipelineData, begin: true},
	QueryOcclusionPredicate:             {name: "OCCLUSION_PREDICATE", data: boolData, begin: true, predicate: true},
	QuerySOStatistics:                   {name: "SO_STATISTICS", data: soData, begin: true},
	QuerySOOverflowPredicate:            {name: "SO_OVERFLOW_PREDICATE", data: boolData, begin: true, predicate: true},
	QuerySOStatisticsStream0 + 0:        {name: "SO_STATISTICS_STREAM0", data: soData, begin: true},
	QuerySOOverflowPredicateStream0 + 0: {name: "SO_OVERFLOW_PREDICATE_STREAM0", data: boolData, begin: true, predicate: true},
	QuerySOStatisticsStream0 + 2:        {name: "SO_STATISTICS_STREAM1", data: soData, begin: true},
	QuerySOOverflowPredicateStream0 + 2: {name: "SO_OVERFLOW_PREDICATE_STREAM1", data: boolData, begin: true, predicate: true},
	QuerySOStatisticsStream0 + 4:        {name: "SO_STATISTICS_STREAM2", data: soData, begin: true},
	QuerySOOverflowPredicateStream0 + 4: {name: "SO_OVERFLOW_PREDICATE_STREAM2", data: boolData, begin: true, predicate: true},
	QuerySOStatisticsStream0 + 6:        {name: "SO_STATISTICS_STREAM3", data: soData, begin: true},
	QuerySOOverflowPredicateStream0 + 6: {name: "SO_OVERFLOW_PREDICATE_STREAM3", data: boolData, begin: true, predicate: true},
}

func queryNames() map[string]uint32 {
	m := map[string]uint32{}
	for t, q := range queryInfo {
		m[q.name] = uint32(t)
	}
	return m
}

// Known reports whether t is a D3D11_QUERY value.
func (t QueryType) Known() bool { return t < numQueryTypes }

// String is the kind's name without D3D11_QUERY_.
func (t QueryType) String() string {
	if t.Known() {
		return queryInfo[t].name
	}
	return "QUERY(" + itoa(uint32(t)) + ")"
}

// HasBegin reports whether Begin applies to the kind: EVENT and TIMESTAMP
// queries are issued by End alone.
func (t QueryType) HasBegin() bool { return t.Known() && queryInfo[t].begin }

// IsPredicate reports whether the kind is a predicate (OCCLUSION_PREDICATE,
// SO_OVERFLOW_PREDICATE and its streams): what CreatePredicate makes and
// SetPredication takes.
func (t QueryType) IsPredicate() bool { return t.Known() && queryInfo[t].predicate }

// DataFields lists the members of the kind's data, in memory order; a
// kind with one member has it unnamed.
func (t QueryType) DataFields() []QueryField {
	if !t.Known() {
		return nil
	}
	return queryInfo[t].data
}

// DataSize is ID3D11Asynchronous::GetDataSize: the bytes of the kind's
// data, with the structure's alignment (a TIMESTAMP_DISJOINT's 12 bytes of
// members take 16).
func (t QueryType) DataSize() int {
	n, align := 0, 4
	for _, f := range t.DataFields() {
		n += f.Size
		align = max(align, f.Size)
	}
	return (n + align - 1) / align * align
}

// Fields reads the members of the kind's data from b (DataSize bytes, as
// the driver wrote them), each widened to 64 bits.
func (t QueryType) Fields(b []byte) []uint64 {
	fs := t.DataFields()
	out := make([]uint64, len(fs))
	off := 0
	for i, f := range fs {
		if off+f.Size > len(b) {
			break
		}
		if f.Size == 8 {
			out[i] = binary.LittleEndian.Uint64(b[off:])
		} else {
			out[i] = uint64(binary.LittleEndian.Uint32(b[off:]))
		}
		off += f.Size
	}
	return out
}

func itoa(v uint32) string {
	if v == 0 {
		return "0"
	}
	var b [10]byte
	i := len(b)
	for v > 0 {
		i--
		b[i] = byte('0' + v%10)
		v /= 10
	}
	return string(b[i:])
}
