package main

import (
	"bytes"
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"d3dsim/core/machine"
)

// The speed peer (`d3dsim bench --peer`): Mesa's llvmpipe, the software
// rasterizer of every Linux desktop without a GPU, draws the bench's GPU
// scenes with the same vertices and the same pixel shaders written in GLSL,
// on one rasterizer thread and on two (LP_NUM_THREADS), so the ratios come
// from one run on one machine. It goes through OSMesa (Debian's
// libosmesa6-dev), a C program built here with cc; without them the bench
// says why and goes on.

//go:embed peer/llvmpipe.c
var peerSource []byte

// peerFigure is one scene drawn by the peer.
type peerFigure struct {
	frames       int
	seconds      float64
	samples      uint64 // pixels a frame shades (an occlusion query)
	renderer     string
	mpix, mtri   float64 // per wall-clock second
	framesPerSec float64
}

// buildPeer compiles the peer into dir; the error says what is missing.
func buildPeer(dir string) (string, error) {
	cc, err := exec.LookPath("cc")
	if err != nil {
		return "", errors.New("no C compiler (cc): apt-get install gcc libosmesa6-dev")
	}
	src := filepath.Join(dir, "llvmpipe.c")
	if err := os.WriteFile(src, peerSource, 0o644); err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "llvmpipe-peer")
	out, err := exec.Command(cc, "-O2", "-o", bin, src, "-lOSMesa").CombinedOutput()
	if err != nil {
		first, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
		return "", fmt.Errorf("cc could not build the OSMesa program (apt-get install libosmesa6-dev): %s", first)
	}
	return bin, nil
}

// peerInput is what the peer reads: the scene's header line and vertices.
func peerInput(sc machine.BenchScene) []byte {
	kind := "vertexcolor"
	switch {
	case sc.Texture > 0:
		kind = "texcolor"
	case sc.PS == machine.PhongPS:
		kind = "phong"
	case sc.PS == machine.LoopPS:
		kind = "loop"
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "%d %d %d %d %d %s %d\n", sc.Width, sc.Height, sc.Draws, sc.Count, sc.Texture, kind, len(sc.Vertices))
	var w [4]byte
	for _, f := range sc.Vertices {
		binary.LittleEndian.PutUint32(w[:], math.Float32bits(f))
		b.Write(w[:])
	}
	return b.Bytes()
}

// runPeer draws sc with the peer on threads rasterizer threads for at
// least atLeast; pixels, if not "", is a file the peer writes the first
// frame's pixels to.
func runPeer(bin string, sc machine.BenchScene, threads int, atLeast time.Duration, pixels string) (peerFigure, error) {
	argv := []string{strconv.FormatInt(atLeast.Milliseconds(), 10)}
	if pixels != "" {
		argv = append(argv, pixels)
	}
	cmd := exec.Command(bin, argv...)
	cmd.Env = append(os.Environ(), "LP_NUM_THREADS="+strconv.Itoa(threads))
	cmd.Stdin = bytes.NewReader(peerInput(sc))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return peerFigure{}, fmt.Errorf("the llvmpipe peer on %s: %v: %s", sc.Name, err, strings.TrimSpace(stderr.String()))
	}
	return parsePeer(string(out), sc)
}

// parsePeer reads the peer's line "frames=N seconds=S samples=P renderer=NAME".
func parsePeer(line string, sc machine.BenchScene) (peerFigure, error) {
	var f peerFigure
	line = strings.TrimSpace(line)
	head, renderer, ok := strings.Cut(line, " renderer=")
	if !ok {
		return f, fmt.Errorf("the llvmpipe peer said %q", line)
	}
	f.renderer = renderer
	for _, kv := range strings.Fields(head) {
		k, v, _ := strings.Cut(kv, "=")
		var err error
		switch k {
		case "frames":
			f.frames, err = strconv.Atoi(v)
		case "seconds":
			f.seconds, err = strconv.ParseFloat(v, 64)
		case "samples":
			f.samples, err = strconv.ParseUint(v, 10, 64)
		}
		if err != nil {
			return f, fmt.Errorf("the llvmpipe peer said %q", line)
		}
	}
	if f.frames <= 0 || f.seconds <= 0 {
		return f, fmt.Errorf("the llvmpipe peer said %q", line)
	}
	f.framesPerSec = float64(f.frames) / f.seconds
	f.mpix = f.framesPerSec * float64(f.samples) / 1e6
	f.mtri = f.framesPerSec * float64(sc.Triangles) / 1e6
	return f, nil
}

// peerResults are the peer's figures in `d3dsim bench --json`; Note says
// why they are missing when they are.
type peerResults struct {
	Renderer        string  `json:"llvmpipe_renderer,omitempty"`
	Note            string  `json:"llvmpipe_note,omitempty"`
	Fill1           float64 `json:"llvmpipe_fill_mpix_s_1t,omitempty"`
	Fill2           float64 `json:"llvmpipe_fill_mpix_s_2t,omitempty"`
	FillRotated1    float64 `json:"llvmpipe_fill_rotated_mpix_s_1t,omitempty"`
	FillTextured1   float64 `json:"llvmpipe_fill_textured_mpix_s_1t,omitempty"`
	FillTextured2   float64 `json:"llvmpipe_fill_textured_mpix_s_2t,omitempty"`
	FillPhong1      float64 `json:"llvmpipe_fill_phong_mpix_s_1t,omitempty"`
	FillPhong2      float64 `json:"llvmpipe_fill_phong_mpix_s_2t,omitempty"`
	FillLoop1       float64 `json:"llvmpipe_fill_loop_mpix_s_1t,omitempty"`
	FillLoop2       float64 `json:"llvmpipe_fill_loop_mpix_s_2t,omitempty"`
	Tris1           float64 `json:"llvmpipe_tris_mtri_s_1t,omitempty"`
	Tris2           float64 `json:"llvmpipe_tris_mtri_s_2t,omitempty"`
	RotatedSamples  uint64  `json:"llvmpipe_fill_rotated_pixels_per_frame,omitempty"`
	RotatedSamplesD uint64  `json:"fill_rotated_pixels_per_frame,omitempty"` // d3dsim's count, for the same scene
}

// benchPeer runs the peer on the bench's scenes that want names (texture ×
// colour, Phong and the loop with the same tenth of fill's quads d3dsim
// draws: tenth).
func benchPeer(tenth func(machine.BenchScene) machine.BenchScene, atLeast time.Duration, want map[string]bool) peerResults {
	texScene := tenth(machine.FillTexturedISAScene())
	var res peerResults
	dir, err := os.MkdirTemp("", "d3dsim-peer-")
	if err != nil {
		res.Note = "skipped: " + err.Error()
		return res
	}
	defer os.RemoveAll(dir)
	bin, err := buildPeer(dir)
	if err != nil {
		res.Note = "skipped: " + err.Error()
		return res
	}
	runs := []struct {
		scene   string // --scene's name
		sc      machine.BenchScene
		threads int
		mpix    *float64
		mtri    *float64
	}{
		{"fill", machine.FillScene(), 1, &res.Fill1, nil},
		{"fill", machine.FillScene(), 2, &res.Fill2, nil},
		{"fill_rotated", machine.FillRotatedScene(), 1, &res.FillRotated1, nil},
		{"fill_textured", texScene, 1, &res.FillTextured1, nil},
		{"fill_textured", texScene, 2, &res.FillTextured2, nil},
		{"fill_phong", tenth(machine.FillPhongScene()), 1, &res.FillPhong1, nil},
		{"fill_phong", tenth(machine.FillPhongScene()), 2, &res.FillPhong2, nil},
		{"fill_loop", tenth(machine.FillLoopScene()), 1, &res.FillLoop1, nil},
		{"fill_loop", tenth(machine.FillLoopScene()), 2, &res.FillLoop2, nil},
		{"tris", machine.TrisScene(), 1, nil, &res.Tris1},
		{"tris", machine.TrisScene(), 2, nil, &res.Tris2},
	}
	for _, r := range runs {
		if !want[r.scene] {
			continue
		}
		f, err := runPeer(bin, r.sc, r.threads, atLeast, "")
		if err != nil {
			res = peerResults{Note: "failed: " + err.Error()}
			return res
		}
		res.Renderer = f.renderer
		if r.mpix != nil {
			*r.mpix = f.mpix
		}
		if r.mtri != nil {
			*r.mtri = f.mtri
		}
		if r.sc.Name == "fill-rotated" {
			res.RotatedSamples = f.samples
		}
	}
	return res
}
