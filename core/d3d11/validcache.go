package d3d11

import (
	"crypto/sha256"
	"sync"

	"d3dsim/core/dxbc"
)

// validated remembers the bytecode the runtime validated lately, by its
// hash and stage, with the signatures it found: the same bytecode is valid
// the same way, and a loop that creates one shader 10,000 times validated
// (decoded) it 10,000 times. At most maxValidated entries, the oldest
// going first; the signatures are shared and never written.
type validated struct {
	mu    sync.Mutex
	m     map[validKey]validSigs
	order []validKey
}

type validKey struct {
	sum   [32]byte
	stage dxbc.ProgramType
}

type validSigs struct {
	in, out *dxbc.Signature
	ms      []msDecl            // (mscount.go)
	feat    dxbc.ShaderFeatures // the SFI0 chunk (shaderfeatures.go)
}

const maxValidated = 64

// validate is dxbc.Validate through the cache: the input and output
// signatures of valid bytecode, its multisampled textures' declared
// counts and its SFI0 features.
func (v *validated) validate(code []byte, stage dxbc.ProgramType) (validSigs, error) {
	k := validKey{sum: sha256.Sum256(code), stage: stage}
	v.mu.Lock()
	s, ok := v.m[k]
	v.mu.Unlock()
	if ok {
		return s, nil
	}
	sh, err := dxbc.Validate(code, stage)
	if err != nil {
		return validSigs{}, err
	}
	s = validSigs{sh.Inputs, sh.Outputs, msDecls(sh.Program), sh.Features}
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.m == nil {
		v.m = map[validKey]validSigs{}
	}
	if _, ok := v.m[k]; !ok {
		v.m[k] = s
		v.order = append(v.order, k)
		if len(v.order) > maxValidated {
			delete(v.m, v.order[0])
			v.order = v.order[1:]
		}
	}
	return s, nil
}
