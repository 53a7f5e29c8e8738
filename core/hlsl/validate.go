package hlsl

import "fmt"

// operandCounts gives each opcode's destination and source counts, as the
// SM4 token stream lays them out.
func operandCounts(o Op) (dst, src int) {
	switch o {
	case OpMov, OpFrc, OpRsq, OpSqrt, OpExp, OpLog, OpRoundNI, OpRoundPI, OpRoundZ, OpItof, OpFtoi, OpUtof,
		OpFtou, OpNot, OpIneg, OpRoundNE, OpCountbits, OpFirstbitHi, OpFirstbitLo, OpFirstbitShi, OpBfrev, OpF32tof16,
		OpF16tof32, OpDerivRtx, OpDerivRty, OpDerivRtxCoarse, OpDerivRtxFine, OpDerivRtyCoarse, OpDerivRtyFine, OpRcp:
		return 1, 1
	case OpMad, OpMovc, OpDfma:
		return 1, 3
	case OpDmov, OpDtof, OpFtod:
		return 1, 1
	case OpImul, OpUdiv:
		return 2, 2
	case OpSincos:
		return 2, 1
	case OpIf, OpBreakc, OpDiscard, OpSwitch, OpCase:
		return 0, 1
	case OpElse, OpEndif, OpLoop, OpEndloop, OpBreak, OpContinue, OpRet, OpNop, OpDefault, OpEndswitch:
		return 0, 0
	case OpSample, OpGather4, OpLod, OpLdMS:
		return 1, 3
	case OpSampleL, OpSampleB, OpSampleC, OpSampleCLz, OpGather4C, OpGather4Po:
		return 1, 4
	case OpSampleD, OpGather4PoC:
		return 1, 5
	case OpLd, OpResinfo:
		return 1, 2
	case OpBufinfo, OpSampleInfo:
		return 1, 1
	case OpSamplePos:
		return 1, 2
	case OpLdUAVTyped, OpStoreUAVTyped:
		return 1, 2
	case OpAtomicCmpStore:
		return 1, 3
	case OpImmAtomicCmpExch:
		return 2, 3
	case OpLdRaw, OpStoreRaw:
		return 1, 2
	case OpLdStructured, OpStoreStructured:
		return 1, 3
	case OpSync, OpEmit, OpCut:
		return 0, 0
	case OpImmAtomicAlloc, OpImmAtomicConsume:
		return 1, 1
	}
	if o >= OpImmAtomicIadd && o <= OpImmAtomicExch {
		return 2, 2
	}
	return 1, 2
}

// Validate checks the program's shape: operand counts per opcode,
// register files and indices in range, write masks, balanced if/loop. The
// DXBC encoder can rely on a program that passes.
func (p *Program) Validate() error {
	depth := []Op{}
	for i, in := range p.Code {
		if in.Op >= numOps {
			return fmt.Errorf("hlsl: instruction %d: bad opcode %d", i, in.Op)
		}
		nd, ns := operandCounts(in.Op)
		if len(in.Dst) != nd || len(in.Src) != ns {
			return fmt.Errorf("hlsl: instruction %d (%s): %d destinations and %d sources, want %d and %d", i, in.Op, len(in.Dst), len(in.Src), nd, ns)
		}
		for _, d := range in.Dst {
			switch d.File {
			case FileNull:
			case FileUAV, FileTGSM:
				if !writesUAV(in.Op) || d.Mask == 0 || d.Mask > 15 || d.File == FileTGSM && in.Op == OpStoreUAVTyped {
					return fmt.Errorf("hlsl: instruction %d (%s): %s as a destination", i, in.Op, d.srcString(4))
				}
			case FileTemp, FileOutput, FileIndexable:
				if d.Mask == 0 || d.Mask > 15 {
					return fmt.Errorf("hlsl: instruction %d (%s): write mask %#x", i, in.Op, d.Mask)
				}
				if err := p.checkX(d); err != nil {
					return fmt.Errorf("hlsl: instruction %d (%s): %v", i, in.Op, err)
				}
				if d.File == FileTemp && (d.Index < 0 || d.Index >= p.Temps) {
					return fmt.Errorf("hlsl: instruction %d (%s): r%d outside dcl_temps %d", i, in.Op, d.Index, p.Temps)
				}
			default:
				return fmt.Errorf("hlsl: instruction %d (%s): cannot write register file %d", i, in.Op, d.File)
			}
		}
		for k, s := range in.Src {
			switch s.File {
			case FileTemp:
				if s.Index < 0 || s.Index >= p.Temps {
					return fmt.Errorf("hlsl: instruction %d (%s): r%d outside dcl_temps %d", i, in.Op, s.Index, p.Temps)
				}
			case FileUAV, FileTGSM:
				if viewPos(in.Op) != k || s.File == FileTGSM && (in.Op == OpLdUAVTyped || in.Op == OpImmAtomicAlloc || in.Op == OpImmAtomicConsume) {
					return fmt.Errorf("hlsl: instruction %d (%s): %s in place %d", i, in.Op, s.srcString(4), k)
				}
			case FileTex:
				if bufLoad(in.Op) {
					if viewPos(in.Op) != k {
						return fmt.Errorf("hlsl: instruction %d (%s): resource operand in place %d", i, in.Op, k)
					}
					break
				}
				if tp, _ := resPos(in.Op); k != tp {
					return fmt.Errorf("hlsl: instruction %d (%s): resource operand in place %d", i, in.Op, k)
				}
			case FileRasterizer:
				if k != 0 || in.Op != OpSampleInfo && in.Op != OpSamplePos {
					return fmt.Errorf("hlsl: instruction %d (%s): rasterizer in place %d", i, in.Op, k)
				}
			case FileSamp:
				if _, sp := resPos(in.Op); k != sp {
					return fmt.Errorf("hlsl: instruction %d (%s): resource operand in place %d", i, in.Op, k)
				}
			case FileInput, FileOutput, FileImm, FileCB, FileIndexable:
				if s.Rel != nil && (s.File != FileCB && s.File != FileIndexable && !(s.File == FileInput && s.Index >= dsICPBase) || s.Rel.File != FileTemp) {
					return fmt.Errorf("hlsl: instruction %d (%s): bad relative index", i, in.Op)
				}
				if err := p.checkX(s); err != nil {
					return fmt.Errorf("hlsl: instruction %d (%s): %v", i, in.Op, err)
				}
			default:
				return fmt.Errorf("hlsl: instruction %d (%s): cannot read register file %d", i, in.Op, s.File)
			}
		}
		switch in.Op {
		case OpIf, OpLoop:
			depth = append(depth, in.Op)
		case OpElse:
			if len(depth) == 0 || depth[len(depth)-1] != OpIf {
				return fmt.Errorf("hlsl: instruction %d: else without if", i)
			}
			depth[len(depth)-1] = OpElse
		case OpEndif:
			if len(depth) == 0 || depth[len(depth)-1] == OpLoop {
				return fmt.Errorf("hlsl: instruction %d: endif without if", i)
			}
			depth = depth[:len(depth)-1]
		case OpEndloop:
			if len(depth) == 0 || depth[len(depth)-1] != OpLoop {
				return fmt.Errorf("hlsl: instruction %d: endloop without loop", i)
			}
			depth = depth[:len(depth)-1]
		case OpSwitch:
			depth = append(depth, OpSwitch)
		case OpCase, OpDefault:
			if len(depth) == 0 || depth[len(depth)-1] != OpSwitch {
				return fmt.Errorf("hlsl: instruction %d: %s outside a switch", i, in.Op)
			}
			if in.Op == OpCase && in.Src[0].File != FileImm {
				return fmt.Errorf("hlsl: instruction %d: case takes an immediate", i)
			}
		case OpEndswitch:
			if len(depth) == 0 || depth[len(depth)-1] != OpSwitch {
				return fmt.Errorf("hlsl: instruction %d: endswitch without switch", i)
			}
			depth = depth[:len(depth)-1]
		case OpBreak, OpBreakc, OpContinue:
			ok := false
			for _, d := range depth {
				ok = ok || d == OpLoop || d == OpSwitch && in.Op != OpContinue
			}
			if !ok {
				return fmt.Errorf("hlsl: instruction %d: %s outside a loop", i, in.Op)
			}
		}
	}
	if len(depth) != 0 {
		return fmt.Errorf("hlsl: %d unterminated if/loop blocks", len(depth))
	}
	return nil
}

// checkX checks an x# operand: a declared array, an element inside it
// when the index is constant, a temp as a dynamic index.
func (p *Program) checkX(o Operand) error {
	if o.File != FileIndexable {
		if o.Rel != nil && o.File != FileCB && !(o.File == FileInput && o.Index >= dsICPBase) {
			return fmt.Errorf("a relative index on register file %d", o.File)
		}
		return nil
	}
	if o.Index < 0 || o.Index >= len(p.Indexables) {
		return fmt.Errorf("x%d is not declared", o.Index)
	}
	if o.Elem < 0 || o.Rel == nil && o.Elem >= p.Indexables[o.Index] {
		return fmt.Errorf("x%d[%d] outside its %d elements", o.Index, o.Elem, p.Indexables[o.Index])
	}
	if o.Rel != nil && (o.Rel.File != FileTemp || o.Rel.Index < 0 || o.Rel.Index >= p.Temps) {
		return fmt.Errorf("x%d indexed by something other than a temp", o.Index)
	}
	return nil
}
