package apitrace

import (
	"d3dsim/core/d3d11"
	"d3dsim/core/scenario"
)

// Predicates and the data of every query kind: ID3D11Device::CreatePredicate,
// ID3D11DeviceContext::SetPredication and GetPredication, and the
// structure GetData writes ("D3D11_QUERY_DATA_PIPELINE_STATISTICS",
// "D3D11_QUERY_DATA_TIMESTAMP_DISJOINT", "D3D11_QUERY_DATA_SO_STATISTICS").

var (
	fnCreatePredicate = method("ID3D11Device", "CreatePredicate", "pPredicateDesc", "ppPredicate")
	fnSetPredication  = method("ID3D11DeviceContext", "SetPredication", "pPredicate", "PredicateValue")
	fnGetPredication  = method("ID3D11DeviceContext", "GetPredication", "ppPredicate", "pPredicateValue")

	stQueryDataDisjoint = structSig("D3D11_QUERY_DATA_TIMESTAMP_DISJOINT", "Frequency", "Disjoint")
	stQueryDataPipeline = structSig("D3D11_QUERY_DATA_PIPELINE_STATISTICS", d3d11.QueryFieldNames(d3d11.QueryPipelineStatistics)...)
	stQueryDataSO       = structSig("D3D11_QUERY_DATA_SO_STATISTICS", d3d11.QueryFieldNames(d3d11.QuerySOStatistics)...)
)

// expCreatePredicate is CreateQuery's export with the predicate's names.
func expCreatePredicate(e *Exporter, th uint64, r *scenario.CallRecord) {
	desc := StructV(stQueryDesc, EnumV(sigQuery, int64(bitsArg(r, "Query", 0))), BitmaskV(sigQueryMisc, 0))
	out := e.outObj(r, 2, 0)
	if out != nil {
		e.dims[r.Results[0]] = [3]uint32{bitsArg(r, "Query", 0)}
	}
	e.write(th, fnCreatePredicate, []Arg{e.this(r), {1, ArrayV(desc)}}, out, hr(r), 0)
}

func impCreatePredicate(m *importer, c *Call, d *object) error {
	s, n, err := m.scenarioEnumArg(m.member(c.Arg("pPredicateDesc"), "Query"), sigQuery, "Query", "Query")
	if err != nil {
		return err
	}
	q := m.out(c, "ppPredicate", "query", "q")
	if q != nil {
		q.query, q.dev = n, d
	}
	m.emit(c, m.bind(q)+m.callText(d, "CreatePredicate", map[string]string{"Query": s}), hrOf(c))
	return nil
}

// GetPredication's outputs are the run's: the capture holds the call.
func expGetPredication(e *Exporter, th uint64, r *scenario.CallRecord) {
	e.write(th, fnGetPredication, []Arg{e.this(r)}, nil, nil, 0)
}

func impGetPredication(m *importer, c *Call, ctx *object) error {
	m.emit(c, m.ref(ctx)+".GetPredication", "")
	return nil
}

// queryDataValue is GetData's pData for a query of kind: the kind's
// structure, a BOOL for EVENT and the predicates, a UINT64 for the rest.
func queryDataValue(kind d3d11.QueryType, d d3d11.QueryData) Value {
	f := func(i int) uint64 {
		if i < len(d.Fields) {
			return d.Fields[i]
		}
		return 0
	}
	var members []Value
	switch kind {
	case d3d11.QueryTimestampDisjoint:
		return StructV(stQueryDataDisjoint, UintV(f(0)), boolV(f(1) != 0))
	case d3d11.QueryPipelineStatistics:
		for i := range stQueryDataPipeline.Members {
			members = append(members, UintV(f(i)))
		}
		return StructV(stQueryDataPipeline, members...)
	}
	switch fs := kind.DataFields(); {
	case len(fs) == 2: // the SO_STATISTICS kinds
		return StructV(stQueryDataSO, UintV(f(0)), UintV(f(1)))
	case len(fs) == 1 && fs[0].Size == 4:
		return boolV(f(0) != 0)
	}
	return UintV(f(0))
}
