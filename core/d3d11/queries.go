package d3d11

import (
	"fmt"
	"strconv"
	"strings"

	"d3dsim/core/ddi"
	"d3dsim/core/hresult"
	"d3dsim/core/trace"
)

// Queries and predicates beyond the EVENT query: the runtime's side of
// "ID3D11DeviceContext::Begin", "End", "GetData", "SetPredication" and
// "ID3D11Device::CreatePredicate". The data of each kind is the D3D11
// structure (ddi.QueryType.DataFields); the driver writes it into the
// buffer the runtime passes to pfnQueryGetData, and GetData hands it to the
// application as QueryData.

// Query kinds (D3D11_QUERY) beyond QueryEvent, QueryOcclusion and
// QueryTimestamp.
const (
	QueryTimestampDisjoint   = ddi.QueryTimestampDisjoint
	QueryPipelineStatistics  = ddi.QueryPipelineStatistics
	QueryOcclusionPredicate  = ddi.QueryOcclusionPredicate
	QuerySOStatistics        = ddi.QuerySOStatistics
	QuerySOOverflowPredicate = ddi.QuerySOOverflowPredicate
)

// QueryData is what GetData wrote: the members of the query kind's
// structure, in its order, each widened to 64 bits (a BOOL is 0 or 1).
type QueryData struct {
	Type   QueryType
	Fields []uint64
}

// Value is the first member: the whole data of a kind with one (an EVENT
// or predicate's BOOL, an occlusion count, a timestamp).
func (d QueryData) Value() uint64 {
	if len(d.Fields) == 0 {
		return 0
	}
	return d.Fields[0]
}

// Field is the member named as the D3D11 structure names it
// ("IAVertices", "Frequency", ...).
func (d QueryData) Field(name string) (uint64, bool) {
	for i, f := range d.Type.DataFields() {
		if f.Name == name && i < len(d.Fields) {
			return d.Fields[i], true
		}
	}
	return 0, false
}

// String prints the data: one number, or Name=value for each member.
func (d QueryData) String() string {
	fs := d.Type.DataFields()
	if len(fs) == 1 || len(fs) != len(d.Fields) {
		return fmt.Sprint(d.Value())
	}
	parts := make([]string, len(fs))
	for i, f := range fs {
		parts[i] = fmt.Sprintf("%s=%d", f.Name, d.Fields[i])
	}
	return strings.Join(parts, " ")
}

// QueryFieldNames lists the member names of a kind's data (none for a kind
// with one member).
func QueryFieldNames(t QueryType) []string {
	fs := t.DataFields()
	if len(fs) < 2 {
		return nil
	}
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.Name
	}
	return out
}

// GetData is ID3D11DeviceContext::GetData of the first member of the
// query's data (GetQueryData has them all).
func (c *DeviceContext) GetData(q *Query) (uint64, hresult.HRESULT, error) {
	d, hr, err := c.GetQueryData(q)
	return d.Value(), hr, err
}

// checkQueryDesc is D3D11_QUERY_DESC's validation: a D3D11_QUERY value,
// and for CreatePredicate a predicate ("ID3D11Device::CreatePredicate":
// "the type of query must be a D3D11_QUERY_SO_OVERFLOW_PREDICATE or
// D3D11_QUERY_OCCLUSION_PREDICATE").
func (d *Device) checkQueryDesc(api, name string, t ddi.QueryType) error {
	field := "pQueryDesc"
	if api == "CreatePredicate" {
		field = "pPredicateDesc"
	}
	switch {
	case !t.Known():
		return d.invalid(api, name, "%s->Query: %d is not a D3D11_QUERY value", field, t)
	case api == "CreatePredicate" && !t.IsPredicate():
		return d.invalid(api, name, "%s->Query: %s is not a predicate (OCCLUSION_PREDICATE or SO_OVERFLOW_PREDICATE)", field, t)
	}
	return nil
}

// CreatePredicate creates an OCCLUSION_PREDICATE or SO_OVERFLOW_PREDICATE
// (and its streams'): a query SetPredication can take.
func (d *Device) CreatePredicate(name string, t ddi.QueryType) (*Query, error) {
	return d.createQuery("CreatePredicate", name, t)
}

// checkBeginEnd is Begin's and End's validation ("ID3D11DeviceContext::Begin":
// EVENT and TIMESTAMP queries have no Begin; an End of a kind that has one
// needs it; "ID3D11DeviceContext::SetPredication": while a predicate is
// set for predication, Begin and End on it are invalid). The call is
// dropped, the debug layer saying why.
func (c *DeviceContext) checkBeginEnd(call string, q *Query) error {
	if q == nil {
		return nil
	}
	msg := ""
	switch {
	case call == "Begin" && !q.Type.HasBegin():
		msg = fmt.Sprintf("a %s query has no Begin: End alone issues it", q.Type)
	case call == "End" && q.Type.HasBegin() && !q.began:
		msg = fmt.Sprintf("End without Begin on a %s query", q.Type)
	case c.pred == q:
		msg = fmt.Sprintf("%s is the context's predicate (SetPredication): Begin and End on it are invalid while it is set", q.name)
	default:
		return nil
	}
	err := c.dev.invalid(call, q.name, "%s", msg)
	c.api(call, q.name).end(err)
	return err
}

// checkPredication is SetPredication's validation: pPredicate is a
// predicate, and it is issued or signaled (ended, not between a Begin and
// its End): "The predicate must be in the "issued" or "signaled" state to
// be used for predication".
func (c *DeviceContext) checkPredication(q *Query) error {
	if q == nil {
		return nil
	}
	msg := ""
	switch {
	case !q.Type.IsPredicate():
		msg = fmt.Sprintf("pPredicate: %s is a %s query, not a predicate (OCCLUSION_PREDICATE or SO_OVERFLOW_PREDICATE)", q.name, q.Type)
	case q.began || !q.issued:
		msg = fmt.Sprintf("pPredicate: %s is not issued or signaled (End it after its Begin first)", q.name)
	default:
		return nil
	}
	err := c.dev.invalid("SetPredication", q.name, "%s", msg)
	c.api("SetPredication", q.name).end(err)
	return err
}

// SetPredication is pfnSetPredication with the context's handle of the
// predicate (0 for none).
func (c driverContext) SetPredication(q *Query, value bool) error {
	if err := c.checkPredication(q); err != nil {
		return err
	}
	return c.simple("SetPredication", objName(q), []Object{q}, func(w ddiCall) {
		bind(c.DeviceContext, &c.pred, q, nilQuery)
		c.predValue = value
		h := ddi.HQUERY(0)
		if q != nil {
			h = c.qH(q)
		}
		w.SetPredication(c.h, h, value)
	})
}

// GetPredication is ID3D11DeviceContext::GetPredication: the predicate
// (AddRef'd, as D3D11's getters do) and the value; its event's bound= names
// both.
func (c *DeviceContext) GetPredication() (*Query, bool) {
	q, v := c.pred, c.predValue
	c.got("GetPredication", gotObjects([]*Query{q})+map[bool]string{false: " FALSE", true: " TRUE"}[v])
	return q, v
}

// getQueryData calls pfnQueryGetData with a buffer of the kind's
// DataSize bytes and reads the members back.
func (c *DeviceContext) getQueryData(q *Query) (QueryData, error) {
	buf := make([]byte, q.Type.DataSize())
	err := c.ddi.on(q.name, handleName(uint32(q.h))).QueryGetData(c.h, q.h, buf, 0)
	if err != nil {
		return QueryData{}, err
	}
	return QueryData{Type: q.Type, Fields: q.Type.Fields(buf)}, nil
}

// args are GetData's return args when it answers S_OK: type= the query
// kind, data= its data (one number, or Name:value,... for a structure).
func (d QueryData) args() trace.Args {
	var b trace.ArgBuilder
	b.Str(trace.KeyType, d.Type.String())
	fs := d.Type.DataFields()
	if len(fs) == 1 || len(fs) != len(d.Fields) {
		return b.Uint(trace.KeyData, d.Value()).Args()
	}
	parts := make([]string, len(fs))
	for i, f := range fs {
		parts[i] = f.Name + ":" + strconv.FormatUint(d.Fields[i], 10)
	}
	return b.Str(trace.KeyData, strings.Join(parts, ",")).Args()
}
