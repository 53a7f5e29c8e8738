package main

import (
	"encoding/json"
	"fmt"
	"strconv"

	"d3dsim/core/scenario"
)

// The Shaders view's model: every shader the run created (its API object,
// stage, where its code came from and how many draws ran it), per shader
// the draws that ran it, and its three texts — the HLSL, the DXBC listing
// in fxc's /Fc form and the GPU program the UMD made of it. The run notes
// the shaders as it goes (core/scenario ShaderInfo); the texts are made
// once per shader per load, when the page first asks for them, never per
// poll. The list leaves the draws out: it is sent again whenever a draw
// is added, and the page asks for one shader's draws when it shows them.

// shaderList is what shadersJSON answers.
type shaderList struct {
	Version string      `json:"version"` // changes when a shader or a draw is added
	Shaders []shaderRow `json:"shaders"`
	Dropped int         `json:"dropped"` // created past scenario.MaxShaderInfos: not listed
}

// shaderRow is one shader of the list.
type shaderRow struct {
	Index     int    `json:"index"` // shaderCode's argument
	Obj       string `json:"obj"`
	Stage     string `json:"stage"`  // vs, ps
	Source    string `json:"source"` // hlsl, bytecode, builtin
	Builtin   string `json:"builtin,omitempty"`
	Block     string `json:"block,omitempty"`
	Entry     string `json:"entry,omitempty"`
	Target    string `json:"target,omitempty"`
	Seq       uint64 `json:"seq"`
	Line      int    `json:"line"`
	DrawCount int    `json:"drawCount"` // draws that ran it (shaderDraws has the first scenario.MaxShaderDraws)
}

// shaderUse is one draw that ran a shader.
type shaderUse struct {
	Seq  uint64 `json:"seq"`
	Name string `json:"name"`
	Ctx  string `json:"ctx"`
	Line int    `json:"line"`
}

// shaderTexts are one shader's three columns; a column that is empty says
// why in its note.
type shaderTexts struct {
	HLSL        string `json:"hlsl"`
	HLSLLine    int    `json:"hlslLine"`
	HLSLNote    string `json:"hlslNote,omitempty"`
	Listing     string `json:"listing"`
	ListingNote string `json:"listingNote,omitempty"`
	ISA         string `json:"isa"`
	ISANote     string `json:"isaNote,omitempty"`
	// Translation is the ISA under the DXBC instruction each came from
	// ("" when the driver did not say).
	Translation string `json:"translation,omitempty"`
}

// shaderCache holds a load's answers.
type shaderCache struct {
	loads     uint64 // the load they belong to
	version   string
	list      []byte
	texts     map[int][]byte
	textBytes int // held in texts, at most maxShaderTextBytes
}

// maxShaderTextBytes bounds the shaders' texts a load keeps: past it they
// are made again when asked (a run of 1,000 distinct long shaders, each
// listed, held their listings all).
const maxShaderTextBytes = 32 << 20

// shaderCacheLocked is the shader cache of the loaded run (a new load starts a
// new one).
func (a *app) shaderCacheLocked() *shaderCache {
	if a.shv == nil || a.shv.loads != a.loads {
		a.shv = &shaderCache{loads: a.loads, texts: map[int][]byte{}}
	}
	return a.shv
}

// shadersJSON is the list of shaders as JSON, or nil when its version is
// still have (the page polls it cheaply: nothing is encoded then).
func (a *app) shadersJSON(have string) []byte {
	a.mu.Lock()
	defer a.mu.Unlock()
	c := a.shaderCacheLocked()
	n, draws := 0, 0
	if a.run != nil {
		n, draws = a.run.ShaderCount()
	}
	version := strconv.FormatUint(a.loads, 10) + ":" + strconv.Itoa(n) + ":" + strconv.Itoa(draws)
	if version == have {
		return nil
	}
	if c.version != version || c.list == nil {
		l := shaderList{Version: version, Shaders: []shaderRow{}}
		if a.run != nil {
			var infos []scenario.ShaderInfo
			infos, l.Dropped = a.run.Shaders()
			for i := range infos {
				l.Shaders = append(l.Shaders, rowOf(i, &infos[i]))
			}
		}
		b, err := json.Marshal(l)
		if err != nil {
			b = []byte(`{"version":"","shaders":[],"dropped":0}`)
		}
		c.version, c.list = version, b
	}
	return c.list
}

func rowOf(i int, s *scenario.ShaderInfo) shaderRow {
	return shaderRow{Index: i, Obj: s.Obj, Stage: s.Stage, Source: s.Source, Builtin: s.Builtin, Block: s.Block, Entry: s.Entry,
		Target: s.Target, Seq: s.Seq, Line: s.Line, DrawCount: s.DrawCount}
}

// shaderDraws is the draws that ran shader i as a JSON array ("null"
// when there is no such shader).
func (a *app) shaderDraws(i int) []byte {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.run == nil {
		return []byte("null")
	}
	infos, _ := a.run.Shaders()
	if i < 0 || i >= len(infos) {
		return []byte("null")
	}
	uses := make([]shaderUse, len(infos[i].Draws))
	for k, d := range infos[i].Draws {
		uses[k] = shaderUse{Seq: d.Seq, Name: d.Name, Ctx: d.Ctx, Line: d.Line}
	}
	b, err := json.Marshal(uses)
	if err != nil {
		return []byte("null")
	}
	return b
}

// shaderCode is shader i's three texts as JSON ("null" when there is no
// such shader), made the first time they are asked for in a load.
func (a *app) shaderCode(i int) []byte {
	a.mu.Lock()
	defer a.mu.Unlock()
	c := a.shaderCacheLocked()
	if b, ok := c.texts[i]; ok {
		return b
	}
	if a.run == nil {
		return []byte("null")
	}
	infos, _ := a.run.Shaders()
	if i < 0 || i >= len(infos) {
		return []byte("null")
	}
	b, err := json.Marshal(textsOf(&infos[i]))
	if err != nil {
		return []byte("null")
	}
	if c.textBytes+len(b) > maxShaderTextBytes {
		c.texts, c.textBytes = map[int][]byte{}, 0
	}
	c.texts[i] = b
	c.textBytes += len(b)
	return b
}

// textsOf makes a shader's columns, each with a note when it is empty.
func textsOf(s *scenario.ShaderInfo) shaderTexts {
	t := shaderTexts{HLSL: s.HLSL, HLSLLine: s.HLSLLine}
	if t.HLSL == "" {
		switch s.Source {
		case scenario.ShaderBytecode:
			t.HLSLNote = "compiled elsewhere: the scenario gives bytecode, no HLSL"
		default:
			t.HLSLNote = "no HLSL"
		}
	}
	listing, err := s.Listing()
	t.Listing = listing
	switch {
	case err != nil:
		t.ListingNote = "the bytecode does not list: " + err.Error()
	case listing == "":
		t.ListingNote = "no DXBC"
	}
	isa, err := s.ISA()
	t.ISA, t.Translation = isa, s.Translation()
	switch {
	case err != nil:
		t.ISANote = "the driver's program does not disassemble: " + err.Error()
	case isa == "" && s.CodeDropped:
		t.ISANote = fmt.Sprintf("not kept: the run keeps what the driver made of %d distinct shaders, and this is one more", scenario.MaxShaderCodes)
	case isa == "" && !s.Driver:
		t.ISANote = "the driver did not say what it made of this shader"
	case isa == "":
		t.ISANote = "no GPU program"
	}
	return t
}
