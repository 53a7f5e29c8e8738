package gpu

// A triangle strip with adjacency into the geometry program ("Primitive
// Topologies"): the even vertices 0, 2, 4, ... of the strip make its
// triangles, the odd ones the vertices adjacent to their edges, and
// triangle m (of (n-4)/2 for n vertices) is handed to the geometry
// program as its six vertices v[0..5]: the triangle's first vertex, the
// vertex adjacent to its first edge, its second vertex, the one adjacent
// to its second edge, its third, the one adjacent to its third edge. An
// even triangle is (2m, 2m+2, 2m+4), an odd one (2m+2, 2m, 2m+4) to keep
// its winding; across the edge shared with the previous triangle lies
// vertex 2m-2, across the one shared with the next 2m+6 and across the
// outer edge 2m+3. The strip's ends have no neighbour: the first
// triangle's first edge has vertex 1 beside it and the last triangle's
// edge towards the next has vertex 2m+5. So a triangle is known to be the
// last only when the strip ends (its last vertex, or the cut index of an
// indexed draw): triangle m goes on when vertex 2m+7 arrives, the last
// one at the end. A lone odd vertex at the end of a strip is shaded and
// not used.

// adjRing holds the strip's vertices 2m-2 .. 2m+7 around triangle m.
const adjRing = 10

// stripAdj is triangle m's six vertices, by their place in the strip.
func stripAdj(m int, last bool) [6]int {
	prev, next := 2*m-2, 2*m+6
	if m == 0 {
		prev = 1
	}
	if last {
		next = 2*m + 5
	}
	if m%2 == 0 {
		return [6]int{2 * m, prev, 2*m + 2, next, 2*m + 4, 2*m + 3}
	}
	return [6]int{2*m + 2, prev, 2 * m, 2*m + 3, 2*m + 4, next}
}

// assembleGSStripAdj is assembleGS for TRIANGLESTRIP_ADJ.
func (ex *executor) assembleGSStripAdj(indexed bool, count, start uint32) {
	s, d := &ex.st, &ex.draw
	cut := s.ib.cut()
	var ring [adjRing]cvert
	var in [6]*cvert
	prim := uint32(0)
	send := func(m int, last bool) {
		for j, v := range stripAdj(m, last) {
			in[j] = &ring[v%adjRing]
		}
		ex.gsPrimitive(&in, 6, prim)
		prim++
	}
	// end sends the last triangle of a strip of n vertices, if it has one.
	end := func(n int) {
		if n >= 6 {
			send((n-4)/2-1, true)
		}
	}
	k := 0
	for i := uint32(0); i < count && !d.prog.failed && !d.stop; i++ {
		if indexed && s.ib.index(uint64(start)+uint64(i)) == cut {
			end(k)
			k = 0
			continue
		}
		ex.programVertex(i, &ring[k%adjRing])
		if k >= 7 && k%2 == 1 {
			send((k-7)/2, false)
		}
		k++
	}
	if !d.prog.failed && !d.stop {
		end(k)
	}
	ex.gsRun()
}
