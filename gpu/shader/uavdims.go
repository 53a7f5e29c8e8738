package shader

// sliceElement is element for the 1D, 1D array, 2D array and 3D texture
// views: the address's x, then y (a 1D array's slice), then z (a 2D
// array's slice, a 3D view's depth slice); outside the view, nothing.
func (u *UAV) sliceElement(addr *[4]*[Lanes]uint32, i int) ([]byte, bool) {
	x, y, z := uint64(addr[0][i]), uint64(0), uint64(0)
	switch u.Kind {
	case ViewTex1DArray:
		z = uint64(addr[1][i])
	case ViewTex2DArray, ViewTex3D:
		y, z = uint64(addr[1][i]), uint64(addr[2][i])
	}
	if x >= uint64(u.Width) || y >= uint64(u.Height) || z >= uint64(max(u.Depth, 1)) {
		return nil, false
	}
	off := z*uint64(u.SlicePitch) + y*uint64(u.Pitch) + x*uint64(u.Stride)
	if off+uint64(u.Stride) > uint64(len(u.Mem)) {
		return nil, false
	}
	return u.Mem[off:], true
}

// uavResinfo runs resinfo on a u# (GetDimensions of a RWTexture view):
// its width, height (a 1D array's slices) and slices or depth, one mip
// level; an unbound slot or a buffer view gives zeros.
func (m *Machine) uavResinfo(in *xinst, mask uint64) {
	var info TexInfo
	if u := m.compute.uav[in.src[1].index]; u != nil && u.Width > 0 {
		info = TexInfo{Width: u.Width, Height: u.Height, Mips: 1, Kind: u.Kind, Depth: max(u.Depth, 1)}
		switch u.Kind {
		case ViewTex1DArray, ViewTex2DArray:
			info.Layers = max(u.Depth, 1)
		case ViewTex2D:
			info.Kind = 0 // a 2D texture: no layers
		}
	}
	mip := m.fetch(in, 0)[0]
	swz := in.src[1].swz
	for i := range Lanes {
		v := ResInfo(in.op, info, mip[i])
		for k := range 4 {
			m.res[k][i] = v[swz[k]]
		}
	}
	m.commit(in, mask, false)
}
