package gpu

// planedTri is a triangle with planes for every attribute, for the tests
// that set one up outside a draw (the draw's come from attachPlanes).
func planedTri() (t tri) {
	p := make([]float64, 3*numAttr)
	t.a0, t.d1, t.d2 = p[:numAttr:numAttr], p[numAttr:2*numAttr:2*numAttr], p[2*numAttr:]
	return t
}
