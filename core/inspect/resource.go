package inspect

import (
	"encoding/binary"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"d3dsim/core/d3d11"
	"d3dsim/core/ddi"
	"d3dsim/core/machine"
	"d3dsim/core/scenario"
	"d3dsim/core/trace"
	"d3dsim/gpu/isa"
	"d3dsim/gpu/texel"
)

// ResourceOptions say how to read a resource.
type ResourceOptions struct {
	// Mip and Slice choose the subresource of a texture.
	Mip   int `json:"mip"`
	Slice int `json:"slice"`
	// As is a format (its DXGI name) to read the bytes as: a typed format
	// of a typeless texture's family, or any format for a buffer ("": the
	// resource's own; a buffer's default follows its bindings, Layout).
	As string `json:"as"`
	// Layout is how a buffer's bytes become a table: "vertex" (the input
	// layout of the vertex-buffer slot it is bound to at the event),
	// "cbuffer" (the reflected cbuffer of the constant-buffer slot it is
	// bound to), "format" (elements of As), "words" (32-bit words, Stride
	// bytes a row), "" to pick by its bindings.
	Layout string `json:"layout"`
	Stride int    `json:"stride"`
	// GPUNow reads the memory as the GPU had it at that moment of the run,
	// without letting it finish the work submitted or recorded before the
	// event (the default lets it: the contents the API calls before the
	// event made).
	GPUNow bool `json:"gpuNow"`
	// X, Y, W, H is the region of texels (or rows of a buffer: Y, H) the
	// answer lists; W or H 0: up to 16 from X, Y.
	X int `json:"x"`
	Y int `json:"y"`
	W int `json:"w"`
	H int `json:"h"`
}

// Resource is a resource at an event.
type Resource struct {
	Name      string  `json:"name"`
	Event     uint64  `json:"event"`
	Call      CallRef `json:"call"`
	Kind      string  `json:"kind"` // Texture2D, Buffer
	Width     int     `json:"width"`
	Height    int     `json:"height"`
	Format    string  `json:"format"`
	Usage     string  `json:"usage"`
	BindFlags string  `json:"bindFlags"`
	Mips      int     `json:"mips"`
	Slices    int     `json:"slices"`            // array slices; a 3D texture's depth slices of level Mip
	Samples   int     `json:"samples,omitempty"` // a multisampled texture's samples a pixel (0: one)
	// Mip and Slice are the subresource read; Width and Height are its.
	Mip       int        `json:"mip"`
	Slice     int        `json:"slice"`
	Settled   bool       `json:"settled"` // the GPU had finished the work before the event
	Bytes     int        `json:"bytes"`
	Instances []Instance `json:"instances"`
	Renames   []Rename   `json:"renames,omitempty"`
	Texture   *Texture   `json:"texture,omitempty"`
	Buffer    *Buffer    `json:"buffer,omitempty"`

	data   []byte
	gpu    isa.Format
	pitch  int
	number isa.Number
}

// Instance is one allocation instance holding the resource's bytes: the
// current one, and the earlier instances a WRITE_DISCARD rename left on
// the renaming list until the GPU is done with them.
type Instance struct {
	Allocation string `json:"allocation"` // a3
	Current    bool   `json:"current"`
	Segment    string `json:"segment"` // vram, aperture
	Address    string `json:"address"`
	Resident   bool   `json:"resident"` // in VRAM
	Size       uint64 `json:"size"`
	// Fence and Context: the instance waits for the context's fence Fence
	// (the last DMA buffer that uses it) before it is idle again.
	Fence   uint64 `json:"fence"`
	Context string `json:"context,omitempty"`
	Idle    bool   `json:"idle"`
	Where   string `json:"where"` // in words
}

// Rename is one VidMmRename of the resource's allocation before the event.
type Rename struct {
	Seq   uint64 `json:"seq"`
	Fence uint64 `json:"fence"` // what the instance it left waits for
	Msg   string `json:"msg"`
}

// Texture is a texture's texels.
type Texture struct {
	Format   string     `json:"format"`
	Channels []string   `json:"channels"`
	Number   string     `json:"number"` // unorm, snorm, float, uint, sint, srgb
	Depth    bool       `json:"depth,omitempty"`
	Stencil  bool       `json:"stencil,omitempty"`
	Region   [4]int     `json:"region"` // x, y, w, h listed in Texels
	Texels   [][]Texel  `json:"texels"` // rows of the region
	Min      [4]float64 `json:"min"`    // per channel over the whole subresource
	Max      [4]float64 `json:"max"`
}

// Texel is one texel in the resource's own format.
type Texel struct {
	X      int       `json:"x"`
	Y      int       `json:"y"`
	Values []float64 `json:"values"` // per channel
	Text   string    `json:"text"`   // as the format has it: 0.5, 255, 0x1f
	Hex    string    `json:"hex"`    // the texel's bytes
}

// Buffer is a buffer's bytes as a table.
type Buffer struct {
	Layout  string     `json:"layout"`
	Stride  int        `json:"stride"`
	Columns []string   `json:"columns"`
	Rows    [][]string `json:"rows"`
	First   int        `json:"first"` // the first row listed
	Total   int        `json:"total"` // rows in the buffer
	Note    string     `json:"note,omitempty"`
}

// Resource reads resource name as it was at event seq (j: a journal of the
// whole run, to place the event).
func (s *Session) Resource(j *Journal, seq uint64, name string, o ResourceOptions) (*Resource, error) {
	a, err := s.ResourceQuery(j, seq, name, o).Run()
	if err != nil {
		return nil, err
	}
	return a.(*Resource), nil
}

// ResourceQuery is Resource as a query the page runs a slice at a time.
func (s *Session) ResourceQuery(j *Journal, seq uint64, name string, o ResourceOptions) *Query {
	k, err := s.at(j, seq)
	if err != nil {
		return failed(err)
	}
	return s.query(k, nil, func(r *scenario.Run, rj *Journal) (any, error) {
		return readResource(r, rj, k, seq, name, o)
	})
}

func readResource(r *scenario.Run, j *Journal, k int, seq uint64, name string, o ResourceOptions) (*Resource, error) {
	res, err := resourceOf(r, name)
	if err != nil {
		return nil, err
	}
	m := r.Machine()
	out := &Resource{Name: name, Event: seq, Call: j.callRef(k), Width: int(res.Desc.Width), Height: int(res.Desc.Height),
		Format: formatName(res.Desc.Format), Usage: enumName("Usage", uint32(res.Desc.Usage)),
		BindFlags: flagNames("BindFlags", uint32(res.Desc.BindFlags)), Mips: 1, Slices: 1}
	if res.Name() != name {
		out.Name = res.Name()
	}
	switch res.Desc.Dimension {
	case ddi.DimBuffer:
		out.Kind = "Buffer"
	case ddi.DimTexture1D:
		out.Kind = "Texture1D"
	case ddi.DimTexture3D:
		out.Kind = "Texture3D"
	default:
		out.Kind = "Texture2D"
	}
	if out.Kind != "Buffer" {
		out.Mips, out.Slices = subresourceCount(res, o.Mip)
		if n := res.Desc.SampleCount; n > 1 {
			out.Samples = int(n)
		}
	}
	if err := subresourceExists(res, Subresource{o.Mip, o.Slice}); err != nil {
		return nil, err
	}
	out.Mip, out.Slice = o.Mip, o.Slice
	if !res.Alive() {
		return nil, fmt.Errorf("inspect: %s was released before event %d", out.Name, seq)
	}
	if !o.GPUNow {
		if err := r.Settle(); err != nil {
			return nil, fmt.Errorf("inspect: the GPU cannot finish the work before event %d: %v", seq, err)
		}
		out.Settled = true
	}
	allocs := m.Allocations(res)
	for i, h := range allocs {
		in, ok := m.Allocation(h)
		if !ok {
			continue
		}
		cur := i == len(allocs)-1
		out.Instances = append(out.Instances, instanceOf(in, cur))
		for _, old := range in.Instances {
			ins := Instance{Allocation: old.Handle.String(), Segment: "aperture", Address: fmt.Sprintf("%#x", old.Address),
				Size: in.Size, Fence: old.Fence, Idle: old.Idle}
			if old.Context != 0 {
				ins.Context = "kc" + strconv.FormatUint(uint64(old.Context), 10)
			}
			ins.Where = fmt.Sprintf("an earlier instance on the renaming list: its system pages, through the aperture; the GPU may still use it until fence %d of %s", old.Fence, ins.Context)
			if old.Idle {
				ins.Where = fmt.Sprintf("an earlier instance on the renaming list, idle (fence %d of %s has signalled): the next rename may hand it out again", old.Fence, ins.Context)
			}
			out.Instances = append(out.Instances, ins)
		}
		out.Renames = append(out.Renames, renames(r.Recorder(), in)...)
	}
	if len(allocs) == 0 {
		return nil, fmt.Errorf("inspect: %s has no memory", out.Name)
	}
	if o.GPUNow {
		in, _ := m.Allocation(allocs[len(allocs)-1])
		data, ok := m.Peek(in.Address, in.Size)
		if !ok {
			return nil, fmt.Errorf("inspect: %s's memory is not committed", out.Name)
		}
		out.data = data
	} else {
		data, err := m.ReadBack(res)
		if err != nil {
			return nil, fmt.Errorf("inspect: cannot read %s: %v", out.Name, err)
		}
		out.data = data
	}
	out.Bytes = len(out.data)
	if out.Kind == "Buffer" {
		b, err := readBuffer(j, k, res, out.data, o)
		if err != nil {
			return nil, err
		}
		out.Buffer = b
		return out, nil
	}
	return out, out.readTexture(res, o)
}

// instanceOf describes the current instance of an allocation.
func instanceOf(in machine.AllocationInfo, cur bool) Instance {
	name := in.Handle
	if in.Current != 0 {
		name = in.Current
	}
	i := Instance{Allocation: name.String(), Current: cur, Segment: in.Segment.String(),
		Address: fmt.Sprintf("%#x", in.Address), Resident: in.Resident, Size: in.Size, Fence: max(in.LastRead, in.LastWrite)}
	if in.Context != 0 {
		i.Context = "kc" + strconv.FormatUint(uint64(in.Context), 10)
	}
	switch {
	case in.Resident:
		i.Where = "resident in VRAM (the memory segment)"
	case in.InAperture:
		i.Where = "paged into the aperture segment: its system pages, mapped for want of VRAM"
	default:
		i.Where = "not resident: in its system-memory backing store (evicted, or never used by the GPU)"
	}
	if in.Destroyed {
		i.Where += "; destroyed, freed once the GPU is done with it"
	}
	return i
}

// renames are the VidMmRename events of allocation in the trace holds:
// each names the handle the lock got, the allocation's first handle, its
// current one or one of its renaming list's ("D3DDDICB_LOCK structure":
// a Discard lock returns a new handle for the new instance).
func renames(rec *trace.Recorder, in machine.AllocationInfo) []Rename {
	var out []Rename
	names := map[string]bool{in.Handle.String(): true, in.Current.String(): true}
	for _, old := range in.Instances {
		names[old.Handle.String()] = true
	}
	for _, e := range rec.Events() {
		if e.Name == "VidMmRename" && names[e.Handle] {
			out = append(out, Rename{Seq: e.Seq, Fence: e.Fence, Msg: e.Msg})
		}
	}
	return out
}

// formatName is a format's DXGI name (UNKNOWN for a buffer's none).
func formatName(f d3d11.Format) string {
	if f == 0 {
		return "UNKNOWN"
	}
	return d3d11.FormatName(f)
}

// flagNames is a flags value by its names.
func flagNames(kind string, v uint32) string {
	var names []string
	for n, x := range ddi.Enums[kind] {
		if x != 0 && v&x == x {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	if len(names) == 0 {
		return "0"
	}
	return strings.Join(names, "|")
}

// readTexture decodes the texture's texels.
func (out *Resource) readTexture(res *d3d11.Resource, o ResourceOptions) error {
	f := res.Desc.Format
	if o.As != "" {
		as, ok := d3d11.Enum("Format")[o.As]
		if !ok {
			return fmt.Errorf("inspect: %q is not a format", o.As)
		}
		if machine.GPUFormat(d3d11.Format(as)).Info().Bytes != machine.GPUFormat(f).Info().Bytes {
			return fmt.Errorf("inspect: %s has %d-byte texels, %s is not of its size", out.Name, machine.GPUFormat(f).Info().Bytes, o.As)
		}
		f = d3d11.Format(as)
	}
	g := machine.GPUFormat(f)
	if !g.Known() {
		return fmt.Errorf("inspect: the GPU has no texels of format %s", d3d11.FormatName(f))
	}
	info := g.Info()
	out.gpu, out.number = g, info.Number
	// The subresource, where the UMD placed it (isa.Subresources: slice
	// by slice, each slice's levels from the most detailed).
	mips, slices := uint32(out.Mips), uint32(max(res.Desc.ArraySize, 1))
	// (A multisampled texture's samples side by side: a surface SampleCount
	// times as wide, whose texel x*N+s is sample s of pixel x.)
	subs, size, err := isa.Subresources(g, res.Desc.Width*max(res.Desc.SampleCount, 1), max(res.Desc.Height, 1), max(res.Desc.Depth, 1), mips, slices)
	if err != nil {
		return fmt.Errorf("inspect: %s: %v", out.Name, err)
	}
	if uint64(len(out.data)) < size {
		return fmt.Errorf("inspect: %s holds %d bytes, a %dx%dx%d %s of %d levels and %d slices needs %d", out.Name, len(out.data), res.Desc.Width, res.Desc.Height, max(res.Desc.Depth, 1), d3d11.FormatName(f), mips, slices, size)
	}
	sub, off := subs[0], uint64(0)
	if out.Kind == "Texture3D" {
		sub = subs[out.Mip]
		off = sub.Offset + uint64(out.Slice)*uint64(sub.DepthPitch)
	} else {
		sub = subs[out.Mip+out.Slice*out.Mips]
		off = sub.Offset
	}
	out.data = out.data[off : off+uint64(sub.DepthPitch)]
	out.Width, out.Height = int(sub.W), int(sub.H)
	out.pitch = int(sub.RowPitch)
	t := &Texture{Format: d3d11.FormatName(f), Number: numberName(info.Number), Depth: info.Depth, Stencil: info.Stencil}
	t.Channels = channelNames(g)
	out.Texture = t
	// The range of each channel, for remapping float and depth pictures.
	for c := range t.Min {
		t.Min[c], t.Max[c] = math.Inf(1), math.Inf(-1)
	}
	for y := range out.Height {
		for x := range out.Width {
			v := out.values(x, y)
			for c := range v {
				if !math.IsNaN(v[c]) && !math.IsInf(v[c], 0) {
					t.Min[c], t.Max[c] = min(t.Min[c], v[c]), max(t.Max[c], v[c])
				}
			}
		}
	}
	for c := range t.Min {
		if t.Min[c] > t.Max[c] {
			t.Min[c], t.Max[c] = 0, 0
		}
	}
	w, h := o.W, o.H
	if w <= 0 {
		w = 16
	}
	if h <= 0 {
		h = 16
	}
	x0, y0 := max(o.X, 0), max(o.Y, 0)
	x1, y1 := min(x0+w, out.Width), min(y0+h, out.Height)
	t.Region = [4]int{x0, y0, max(x1-x0, 0), max(y1-y0, 0)}
	for y := y0; y < y1; y++ {
		var row []Texel
		for x := x0; x < x1; x++ {
			tx, _ := out.Texel(x, y)
			row = append(row, tx)
		}
		t.Texels = append(t.Texels, row)
	}
	return nil
}

func numberName(n isa.Number) string {
	switch n {
	case isa.NumUNorm:
		return "unorm"
	case isa.NumSNorm:
		return "snorm"
	case isa.NumFloat:
		return "float"
	case isa.NumUInt:
		return "uint"
	case isa.NumSInt:
		return "sint"
	case isa.NumSRGB:
		return "srgb"
	}
	return "?"
}

// channelNames are the channels a format has, as a shader reads them.
func channelNames(g isa.Format) []string {
	info := g.Info()
	switch {
	case info.Depth && info.Stencil:
		return []string{"depth", "stencil"}
	case info.Depth:
		return []string{"depth"}
	case g == isa.FmtA8UN:
		return []string{"A"}
	}
	return []string{"R", "G", "B", "A"}[:max(1, min(int(info.Channels), 4))]
}

// values decodes texel (x, y): one value per channel.
func (out *Resource) values(x, y int) []float64 {
	g := out.gpu
	info := g.Info()
	if info.Depth {
		o := y*out.pitch + x*int(info.Bytes)
		px := out.data[o : o+int(info.Bytes)]
		var d float64
		switch g {
		case isa.FmtD32F, isa.FmtD32FS8:
			d = float64(math.Float32frombits(binary.LittleEndian.Uint32(px)))
		case isa.FmtD16:
			d = float64(binary.LittleEndian.Uint16(px)) / 0xFFFF
		default:
			d = float64(binary.LittleEndian.Uint32(px)&0xFFFFFF) / 0xFFFFFF
		}
		if !info.Stencil {
			return []float64{d}
		}
		s := px[3]
		if g == isa.FmtD32FS8 {
			s = px[4]
		}
		return []float64{d, float64(s)}
	}
	bits := texel.Load(g, out.data, out.pitch, x, y)
	n := len(channelNames(g))
	v := make([]float64, n)
	for c := range n {
		ch := c
		if g == isa.FmtA8UN {
			ch = 3
		}
		switch info.Number {
		case isa.NumUInt:
			v[c] = float64(bits[ch])
		case isa.NumSInt:
			v[c] = float64(int32(bits[ch]))
		default:
			v[c] = float64(math.Float32frombits(bits[ch]))
		}
	}
	return v
}

// Texel is texel (x, y) of the texture in its format (false: outside it,
// or not a texture).
func (out *Resource) Texel(x, y int) (Texel, bool) {
	if out.Texture == nil || x < 0 || y < 0 || x >= out.Width || y >= out.Height {
		return Texel{}, false
	}
	v := out.values(x, y)
	t := Texel{X: x, Y: y, Values: v}
	info := out.gpu.Info()
	var parts []string
	for c, x := range v {
		switch {
		case info.Stencil && c == 1, info.Number == isa.NumUInt || info.Number == isa.NumSInt:
			parts = append(parts, strconv.FormatFloat(x, 'f', -1, 64))
		default:
			parts = append(parts, strconv.FormatFloat(x, 'g', 6, 64))
		}
	}
	t.Text = strings.Join(parts, " ")
	bpp := int(info.Bytes)
	if info.Block == 4 {
		t.Hex = "(block-compressed)"
	} else {
		o := y*out.pitch + x*bpp
		t.Hex = fmt.Sprintf("%x", out.data[o:o+bpp])
	}
	return t, true
}

// ImageOptions say how to draw a texture as a picture.
type ImageOptions struct {
	// Channels is a mask of the channels shown (bit 0 R ... bit 3 A; 0:
	// all): one channel alone shows as grey.
	Channels uint8
	// Lo and Hi map values to black and white (both 0: the format's own
	// range, 0..1 for normalized formats, the texture's min..max for the
	// others).
	Lo, Hi float64
}

// Image draws the texture as RGBA8 pixels, row by row: values remapped
// from [Lo, Hi], the stencil as colours, alpha shown as opaque unless it
// is the one channel chosen.
func (out *Resource) Image(o ImageOptions) []byte {
	t := out.Texture
	if t == nil {
		return nil
	}
	lo, hi := o.Lo, o.Hi
	if lo == 0 && hi == 0 {
		lo, hi = 0, 1
		if n := out.number; n == isa.NumFloat || n == isa.NumUInt || n == isa.NumSInt || t.Depth {
			lo, hi = t.Min[0], t.Max[0]
			for c := 1; c < len(t.Channels) && !t.Stencil; c++ {
				if t.Channels[c] != "A" {
					lo, hi = min(lo, t.Min[c]), max(hi, t.Max[c])
				}
			}
			if lo == hi {
				hi = lo + 1
			}
		}
	}
	mask := o.Channels & 0xF
	if mask == 0 {
		mask = 0xF
	}
	one := mask&(mask-1) == 0
	px := make([]byte, 4*out.Width*out.Height)
	norm := func(v float64) byte {
		f := (v - lo) / (hi - lo)
		if !(f > 0) {
			return 0
		}
		return byte(min(f, 1)*255 + 0.5)
	}
	for y := range out.Height {
		for x := range out.Width {
			v := out.values(x, y)
			p := px[4*(y*out.Width+x):]
			p[3] = 255
			switch {
			case t.Stencil && mask == 2:
				c := stencilColour(byte(v[1]))
				copy(p, c[:])
			case t.Depth:
				d := norm(v[0])
				p[0], p[1], p[2] = d, d, d
			case one:
				c := 0
				for mask>>c&1 == 0 {
					c++
				}
				var g byte
				if idx := channelIndex(t.Channels, c); idx >= 0 {
					g = norm(v[idx])
				} else if c == 3 {
					g = 255
				}
				p[0], p[1], p[2] = g, g, g
			default:
				for c := range 3 {
					if mask>>c&1 != 0 {
						if idx := channelIndex(t.Channels, c); idx >= 0 {
							p[c] = norm(v[idx])
						}
					}
				}
			}
		}
	}
	return px
}

// channelIndex is where channel c (0 R .. 3 A) is among the names.
func channelIndex(names []string, c int) int {
	want := "RGBA"[c : c+1]
	for i, n := range names {
		if n == want {
			return i
		}
	}
	return -1
}

// stencilColour gives each stencil value its own colour (0 black).
func stencilColour(s byte) [3]byte {
	if s == 0 {
		return [3]byte{0, 0, 0}
	}
	h := uint32(s) * 2654435761
	return [3]byte{byte(64 + h>>24%192), byte(64 + h>>16%192), byte(64 + h>>8%192)}
}

// plural is n things, "1 slice" or "2 slices".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// subresourceCount is a texture's levels and its slices at level mip: its
// array slices, a Texture3D's depth slices of the level (1 and 1 for a
// buffer).
func subresourceCount(res *d3d11.Resource, mip int) (mips, slices int) {
	d := &res.Desc
	if d.Dimension == ddi.DimBuffer {
		return 1, 1
	}
	mips, slices = int(max(d.MipLevels, 1)), int(max(d.ArraySize, 1))
	if d.Dimension == ddi.DimTexture3D && mip >= 0 && mip < mips {
		slices = int(isa.MipSize(max(d.Depth, 1), uint32(mip)))
	}
	return mips, slices
}

// subresourceExists says, in an error naming the resource's levels and
// slices, that sub is not one of its subresources.
func subresourceExists(res *d3d11.Resource, sub Subresource) error {
	mips, slices := subresourceCount(res, sub.Mip)
	if sub.Mip < 0 || sub.Mip >= mips || sub.Slice < 0 || sub.Slice >= slices {
		return fmt.Errorf("inspect: %s has %s and %s: mip %d slice %d does not exist", res.Name(), plural(mips, "mip level"), plural(slices, "slice"), sub.Mip, sub.Slice)
	}
	return nil
}
