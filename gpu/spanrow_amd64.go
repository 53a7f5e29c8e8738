package gpu

// rowKernel is a triangle's colour planes for spanRowSSE: a0, d1 and d2 of
// the four bytes of a target word, low byte first, two float64 lanes to a
// register.
type rowKernel struct {
	a0, d1, d2 [4]float64
}

// spanRowSSE is spanRow for the four bytes of a word at once
// (spanrow_amd64.s): out[i] = the four bytes' unorm8 | or.
//
//go:noescape
func spanRowSSE(out []uint32, w1, w2, s1, s2 int64, inv float64, k *rowKernel, or uint32)

// spanColorRows is spanColor's rows on amd64: all of them, through
// spanRowSSE, which computes each pixel with spanRow's operations in
// spanRow's order (one lane a channel), so the pixels are the same.
func (t *tri) spanColorRows(words []uint32, wpitch int, rows []rowSpan, ch *[4]uint8, bgra bool) bool {
	if !simdRows {
		return false
	}
	var k rowKernel
	r, g, c := t.wordChannels(ch, bgra)
	k.a0 = [4]float64{r[0], g[0], c[0]}
	k.d1 = [4]float64{r[1], g[1], c[1]}
	k.d2 = [4]float64{r[2], g[2], c[2]}
	or := t.alpha << 24
	if t.alpha > 0xFF {
		a := ch[3]
		k.a0[3], k.d1[3], k.d2[3] = t.a0[a], t.d1[a], t.d2[a]
		or = 0
	}
	inv, s1, s2 := t.invArea, t.e[1].a, t.e[2].a
	for _, row := range rows {
		o := row.y*wpitch + row.x0
		spanRowSSE(words[o:o+row.x1-row.x0], row.w1, row.w2, s1, s2, inv, &k, or)
	}
	return true
}
