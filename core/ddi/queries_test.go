package ddi

import "testing"

// TestQueryKinds holds the D3D11_QUERY values as d3d11.h numbers them (the
// per-stream stream-output kinds alternate) and each kind's GetDataSize:
// the size of its D3D11 structure.
func TestQueryKinds(t *testing.T) {
	for _, tc := range []struct {
		name      string
		value     uint32
		size      int
		predicate bool
	}{
		{"EVENT", 0, 4, false}, {"OCCLUSION", 1, 8, false}, {"TIMESTAMP", 2, 8, false},
		{"TIMESTAMP_DISJOINT", 3, 16, false}, {"PIPELINE_STATISTICS", 4, 88, false},
		{"OCCLUSION_PREDICATE", 5, 4, true}, {"SO_STATISTICS", 6, 16, false}, {"SO_OVERFLOW_PREDICATE", 7, 4, true},
		{"SO_STATISTICS_STREAM0", 8, 16, false}, {"SO_OVERFLOW_PREDICATE_STREAM0", 9, 4, true},
		{"SO_STATISTICS_STREAM1", 10, 16, false}, {"SO_OVERFLOW_PREDICATE_STREAM1", 11, 4, true},
		{"SO_STATISTICS_STREAM2", 12, 16, false}, {"SO_OVERFLOW_PREDICATE_STREAM2", 13, 4, true},
		{"SO_STATISTICS_STREAM3", 14, 16, false}, {"SO_OVERFLOW_PREDICATE_STREAM3", 15, 4, true},
	} {
		v, ok := Enums["Query"][tc.name]
		if !ok || v != tc.value {
			t.Errorf("%s = %d (%v), want %d", tc.name, v, ok, tc.value)
			continue
		}
		q := QueryType(v)
		if q.String() != tc.name || q.DataSize() != tc.size || q.IsPredicate() != tc.predicate {
			t.Errorf("%d: %s, %d bytes, predicate %v; want %s, %d, %v", v, q, q.DataSize(), q.IsPredicate(), tc.name, tc.size, tc.predicate)
		}
	}
	if len(Enums["Query"]) != 16 || QueryType(16).Known() {
		t.Errorf("%d query kinds, 16 known: want 16", len(Enums["Query"]))
	}
}
