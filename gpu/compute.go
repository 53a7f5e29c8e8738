package gpu

import (
	"d3dsim/gpu/isa"
	"d3dsim/gpu/shader"
	"d3dsim/gpu/shaderisa"
	tfmt "d3dsim/gpu/texel"
	"encoding/binary"
)

// The compute stage: SET_UAV binds an unordered access view, DISPATCH and
// DISPATCH_INDIRECT run the compute program bound with SET_PROGRAM (stage
// isa.StageCS) over a grid of thread groups, in order (group x fastest,
// then y, then z), each group's threads through shader.Machine.RunGroup
// with its own groupshared memory, zeroed. Costs and limits are the
// draws': a dispatch's instructions count against MaxInstructions and the
// buffer's deadline (RunNS), checked after every group (checkpoint), and
// charged at ShaderInstrsPerNS.

// uavBinding is SET_UAV's state for one u# slot.
type uavBinding struct {
	view    shader.UAV
	counter []byte // the hidden counter's word, nil for none
	count   uint32 // the counter while a dispatch runs
	bound   bool
}

// typedUAV converts a typed view's elements through the texel codec.
type typedUAV struct{ f isa.Format }

func (t typedUAV) Load(b []byte) [4]uint32     { return tfmt.Decode(t.f, b) }
func (t typedUAV) Store(b []byte, v [4]uint32) { tfmt.Encode(t.f, v, 0xF, b) }

// setUAV runs SET_UAV.
func (ex *executor) setUAV(p isa.Packet) {
	a := p.Args
	stage, slot := isa.SplitUAVStageSlot(a[0])
	addr, kind, fm := p.Addr(1), a[3], isa.Format(a[4])
	bytes, stride, elements, height, pitch := a[5], a[6], a[7], a[8], a[9]
	if slot >= isa.MaxUAVSlots || (stage != isa.StageCS && stage != isa.StagePS) {
		ex.fault("slot %d of stage %d: u0..u%d of the compute or the pixel stage", slot, stage, isa.MaxUAVSlots-1)
		return
	}
	u := &ex.st.uav[slot]
	if stage == isa.StagePS {
		u = &ex.st.psUAV[slot]
	}
	*u = uavBinding{}
	if addr == 0 {
		return
	}
	v, ok := ex.uavLayout(addr, kind, fm, bytes, stride, elements, height, pitch)
	if !ok {
		return
	}
	if c := p.Addr(10); c != 0 {
		if u.counter, ok = ex.bytes("UAV counter", c, 4); !ok {
			return
		}
	}
	u.view, u.bound = v, true
}

// uavLayout checks a view's layout (SET_UAV's and CLEAR_UAV's words) and
// returns it over its memory; false after a fault.
func (ex *executor) uavLayout(addr uint64, kind uint32, fm isa.Format, bytes, stride, elements, height, pitch uint32) (shader.UAV, bool) {
	v := shader.UAV{Kind: kind, Elements: elements, Stride: stride}
	switch kind {
	case isa.ViewRawBuffer:
		if bytes%4 != 0 || fm != isa.FmtNone {
			ex.fault("a raw view of %d bytes, format %v: whole 32-bit words, no format", bytes, fm)
			return v, false
		}
		v.Stride, v.Elements = 4, bytes/4
	case isa.ViewStructured:
		if stride == 0 || stride%4 != 0 || stride > 2048 || uint64(stride)*uint64(elements) > uint64(bytes) {
			ex.fault("a structured view of %d elements of %d bytes in %d bytes: the stride a multiple of 4 up to 2048", elements, stride, bytes)
			return v, false
		}
	case isa.ViewBuffer, isa.ViewTex1D, isa.ViewTex1DArray, isa.ViewTex2D, isa.ViewTex2DArray, isa.ViewTex3D:
		if !tfmt.Writable(fm) || fm.Info().Depth || uint32(fm.Info().Bytes) != stride {
			ex.fault("a typed view of format %v (element %d bytes): not a format the GPU writes", fm, stride)
			return v, false
		}
		v.Typed = typedUAV{fm}
		if kind == isa.ViewBuffer {
			if uint64(stride)*uint64(elements) > uint64(bytes) {
				ex.fault("a typed view of %d elements of %d bytes in %d bytes", elements, stride, bytes)
				return v, false
			}
			break
		}
		v.Width, v.Height, v.Pitch, v.Depth = elements, height, pitch, 1
		if (kind == isa.ViewTex1D || kind == isa.ViewTex1DArray) && height != 1 {
			ex.fault("a 1D texture view of height %d", height)
			return v, false
		}
		if elements == 0 || height == 0 || elements > maxDim || height > maxDim || uint64(pitch) < fm.RowBytes(elements) ||
			uint64(pitch)*uint64(height-1)+fm.RowBytes(elements) > uint64(bytes) {
			ex.fault("a %dx%d texture view of pitch %d in %d bytes", elements, height, pitch, bytes)
			return v, false
		}
	default:
		ex.fault("view kind %s: a UAV is a typed, raw or structured buffer or a 1D, 2D or 3D texture (or array)", isa.ViewKindName(kind))
		return v, false
	}
	mem, ok := ex.bytes("unordered access view", addr, uint64(bytes))
	if !ok {
		return v, false
	}
	v.Mem = mem
	return v, true
}

// dispatchIndirect reads DISPATCH_INDIRECT's three counts and dispatches.
func (ex *executor) dispatchIndirect(p isa.Packet) {
	b, ok := ex.bytes("indirect arguments", p.Addr(0), isa.IndirectDispatchBytes)
	if !ok {
		return
	}
	ex.dispatch(binary.LittleEndian.Uint32(b), binary.LittleEndian.Uint32(b[4:]), binary.LittleEndian.Uint32(b[8:]))
}

// dispatch runs x*y*z thread groups of the compute program.
func (ex *executor) dispatch(x, y, z uint32) {
	g, s := ex.g, &ex.st
	if x > isa.MaxDispatch || y > isa.MaxDispatch || z > isa.MaxDispatch {
		ex.fault("%d x %d x %d thread groups: at most %d in each dimension", x, y, z, isa.MaxDispatch)
		return
	}
	b := &s.prog[stageCS]
	if !b.bound {
		ex.fault("no compute program")
		return
	}
	e := ex.draw.prog.program(b.mem)
	switch {
	case e.err != nil:
		ex.fault("compute program: %v", e.err)
		return
	case e.prog.Stage != shaderisa.StageCompute:
		ex.fault("compute program is a %v program", e.prog.Stage)
		return
	case e.prog.Inputs < shaderisa.ComputeInputs:
		ex.fault("compute program: %d inputs, the thread identifiers take %d", e.prog.Inputs, shaderisa.ComputeInputs)
		return
	}
	d := &ex.draw
	d.stop, d.vsInstrs, d.vertexCost, d.pipe = false, 0, 0, pipe{}
	d.pipeCache.kept = false
	if x == 0 || y == 0 || z == 0 || g.stopped != nil || g.abandoned {
		return
	}
	m := e.m
	consts := cbView{bufs: &s.cb[stageCS]}
	tex := texUnit{st: s, stage: stageCS}
	if err := m.Bind(&consts, &tex); err != nil {
		ex.fault("compute program: %v", err)
		return
	}
	var uavs [shaderisa.MaxUAVs]*shader.UAV
	for i := range s.uav {
		u := &s.uav[i]
		if !u.bound {
			continue
		}
		uavs[i] = &u.view
		if u.counter != nil {
			u.count = binary.LittleEndian.Uint32(u.counter)
			u.view.Counter = &u.count
		}
	}
	m.BindCompute(uavs)
	defer func() {
		for i := range s.uav {
			if u := &s.uav[i]; u.bound && u.counter != nil {
				binary.LittleEndian.PutUint32(u.counter, u.count)
			}
		}
	}()
	tg := e.prog.ThreadGroup()
	n := int(tg[0] * tg[1] * tg[2])
	shared := make([]uint32, m.SharedWords())
	var groups uint64
	var gx, gy, gz uint32
	fill := func(blk int) {
		for l := range shader.Lanes {
			idx := uint32(blk*shader.Lanes + l)
			if int(idx) >= n {
				break
			}
			tx, ty, tz := idx%tg[0], idx/tg[0]%tg[1], idx/(tg[0]*tg[1])
			in := m.In(0)
			in[0][l], in[1][l], in[2][l], in[3][l] = gx*tg[0]+tx, gy*tg[1]+ty, gz*tg[2]+tz, 0
			in = m.In(1)
			in[0][l], in[1][l], in[2][l], in[3][l] = gx, gy, gz, 0
			in = m.In(2)
			in[0][l], in[1][l], in[2][l], in[3][l] = tx, ty, tz, 0
			in = m.In(3)
			in[0][l], in[1][l], in[2][l], in[3][l] = idx, 0, 0, 0
		}
	}
	var err error
run:
	for gz = 0; gz < z; gz++ {
		for gy = 0; gy < y; gy++ {
			for gx = 0; gx < x; gx++ {
				clear(shared)
				var steps uint64
				tr := ex.traceThread(m, gx, gy, gz, tg, n)
				steps, err = m.RunGroup(n, shared, fill)
				if tr != nil {
					ex.endTrace(m, tr)
				}
				d.vsInstrs += steps
				groups++
				if err != nil || !ex.checkpoint() {
					break run
				}
			}
		}
	}
	if err != nil {
		ex.fault("compute program: %v (thread group %d, %d, %d)", err, gx, gy, gz)
	}
	g.stats.Instructions += d.vsInstrs
	ex.e.ctr[ctrCSInvocations] += groups * uint64(n)
	if c := g.costs.ShaderInstrsPerNS; c > 0 {
		ex.res.cost += int64(d.vsInstrs / uint64(c))
	}
}
