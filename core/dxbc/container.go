package dxbc

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// headerSize is the fixed part of a container: "DXBC", the checksum, the
// version, the total size and the chunk count.
const headerSize = 32

// MaxSize bounds the containers Parse accepts, so hostile input cannot make
// the decoder allocate without limit. fxc's largest shaders are well under it.
const MaxSize = 16 << 20

// ErrChecksum is wrapped by the error Parse returns when the stored checksum
// is not the one the bytes give, for errors.Is.
var ErrChecksum = errors.New("DXBC checksum mismatch")

// Chunk is one part of a container, named by its four-character code (RDEF,
// ISGN, OSGN, SHDR, SHEX, STAT ...), its data kept as read.
type Chunk struct {
	FourCC string
	Data   []byte
}

// Container is a parsed DXBC blob: what fxc writes and what
// CreateVertexShader and CreatePixelShader take.
type Container struct {
	Checksum [16]byte
	Version  uint32 // 1 in every container fxc writes
	Chunks   []Chunk
}

// Parse reads a container, checking every offset and size against the
// buffer and the checksum against the bytes. The chunks' data alias b.
func Parse(b []byte) (*Container, error) {
	c, err := parse(b)
	if err != nil {
		return nil, err
	}
	if sum := Checksum(b); sum != c.Checksum {
		return nil, fmt.Errorf("dxbc: %w: stored %x, computed %x", ErrChecksum, c.Checksum[:], sum[:])
	}
	return c, nil
}

// ParseNoChecksum is Parse without the checksum check, for tools that read
// hand-edited or truncated-and-repaired blobs.
func ParseNoChecksum(b []byte) (*Container, error) { return parse(b) }

func parse(b []byte) (*Container, error) {
	if len(b) < headerSize {
		return nil, fmt.Errorf("dxbc: %d bytes is shorter than the %d-byte DXBC header", len(b), headerSize)
	}
	if string(b[:4]) != "DXBC" {
		return nil, fmt.Errorf("dxbc: magic is %q, want \"DXBC\"", b[:4])
	}
	if len(b) > MaxSize {
		return nil, fmt.Errorf("dxbc: %d bytes is over the %d-byte limit", len(b), MaxSize)
	}
	c := &Container{}
	copy(c.Checksum[:], b[4:20])
	c.Version = binary.LittleEndian.Uint32(b[20:])
	if c.Version != 1 {
		return nil, fmt.Errorf("dxbc: container version %d, want 1", c.Version)
	}
	total := binary.LittleEndian.Uint32(b[24:])
	if uint64(total) != uint64(len(b)) {
		return nil, fmt.Errorf("dxbc: header says %d bytes, the buffer holds %d", total, len(b))
	}
	count := binary.LittleEndian.Uint32(b[28:])
	if uint64(count) > uint64(len(b)-headerSize)/4 {
		return nil, fmt.Errorf("dxbc: %d chunks do not fit their offset table in %d bytes", count, len(b))
	}
	tableEnd := headerSize + 4*int(count)
	c.Chunks = make([]Chunk, 0, count)
	for i := 0; i < int(count); i++ {
		off := binary.LittleEndian.Uint32(b[headerSize+4*i:])
		if off < uint32(tableEnd) || uint64(off)+8 > uint64(len(b)) {
			return nil, fmt.Errorf("dxbc: chunk %d offset %d is outside %d..%d", i, off, tableEnd, len(b)-8)
		}
		fourcc := string(b[off : off+4])
		size := binary.LittleEndian.Uint32(b[off+4:])
		if uint64(off)+8+uint64(size) > uint64(len(b)) {
			return nil, fmt.Errorf("dxbc: chunk %d (%s) extends past the end: offset %d, size %d, container %d bytes", i, printable(fourcc), off, size, len(b))
		}
		c.Chunks = append(c.Chunks, Chunk{FourCC: fourcc, Data: b[off+8 : off+8+size]})
	}
	return c, nil
}

// printable shows a four-character code, escaping bytes that are not text.
func printable(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return fmt.Sprintf("%q", s)
		}
	}
	return s
}

// Chunk returns the first chunk with the four-character code, or nil.
func (c *Container) Chunk(fourcc string) *Chunk {
	for i := range c.Chunks {
		if c.Chunks[i].FourCC == fourcc {
			return &c.Chunks[i]
		}
	}
	return nil
}

// Build lays the chunks out as fxc does (offset table, then each chunk
// 4-byte aligned) and writes the checksum; it also stores that checksum and
// version 1 in c.
func (c *Container) Build() ([]byte, error) {
	size := headerSize + 4*len(c.Chunks)
	for i, ch := range c.Chunks {
		if len(ch.FourCC) != 4 {
			return nil, fmt.Errorf("dxbc: chunk %d name %q is not four characters", i, ch.FourCC)
		}
		size += 8 + (len(ch.Data)+3)&^3
		if size > MaxSize {
			return nil, fmt.Errorf("dxbc: container would be over the %d-byte limit", MaxSize)
		}
	}
	b := make([]byte, size)
	copy(b, "DXBC")
	binary.LittleEndian.PutUint32(b[20:], 1)
	binary.LittleEndian.PutUint32(b[24:], uint32(size))
	binary.LittleEndian.PutUint32(b[28:], uint32(len(c.Chunks)))
	off := headerSize + 4*len(c.Chunks)
	for i, ch := range c.Chunks {
		binary.LittleEndian.PutUint32(b[headerSize+4*i:], uint32(off))
		copy(b[off:], ch.FourCC)
		binary.LittleEndian.PutUint32(b[off+4:], uint32((len(ch.Data)+3)&^3))
		copy(b[off+8:], ch.Data)
		off += 8 + (len(ch.Data)+3)&^3
	}
	c.Checksum = Checksum(b)
	c.Version = 1
	copy(b[4:20], c.Checksum[:])
	return b, nil
}
