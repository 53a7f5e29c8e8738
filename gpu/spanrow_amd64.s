#include "textflag.h"

// PIXEL leaves in out the four channels of the pixel whose edge values are
// SI and DI, as float32: a0 + b1*d1 + b2*d2 rounded. X1, X2 and X3 are
// scratch.
#define PIXEL(out) \
	CVTSQ2SD SI, out; \
	MULSD X14, out; \
	CVTSQ2SD DI, X1; \
	MULSD X14, X1; \
	UNPCKLPD out, out; \
	UNPCKLPD X1, X1; \
	MOVAPD out, X2; \
	MULPD X10, out; \
	MULPD X11, X2; \
	ADDPD X8, out; \
	ADDPD X9, X2; \
	MOVAPD X1, X3; \
	MULPD X12, X1; \
	MULPD X13, X3; \
	ADDPD X1, out; \
	ADDPD X3, X2; \
	CVTPD2PS out, out; \
	CVTPD2PS X2, X2; \
	MOVLHPS X2, out

// func spanRowSSE(out []uint32, w1, w2, s1, s2 int64, inv float64, k *rowKernel, or uint32)
//
// spanRow with the channels in the lanes of SSE2 registers: per pixel
// b1 = float64(w1)*inv and b2 = float64(w2)*inv (scalar, as Go does them),
// then for the four channels at once a0 + b1*d1, that + b2*d2 (MULPD and
// ADDPD round each lane as MULSD and ADDSD do; no fused multiply-add),
// float32 (CVTPD2PS, the MXCSR's round to nearest like CVTSD2SS), *255 and
// +0.5 in float32, truncated to int32 (CVTTPS2DQ like CVTTSS2SI), the four
// bytes packed and or'ed with or. Two pixels a pass, packed together.
TEXT ·spanRowSSE(SB), NOSPLIT, $0-76
	MOVQ out_base+0(FP), DX
	MOVQ out_len+8(FP), CX
	MOVQ w1+24(FP), SI
	MOVQ w2+32(FP), DI
	MOVQ s1+40(FP), R10
	MOVQ s2+48(FP), R11
	MOVSD inv+56(FP), X14
	MOVQ k+64(FP), BX
	MOVL or+72(FP), R9
	TESTQ CX, CX
	JEQ done
	MOVUPD 0(BX), X8   // a0: channels 0, 1
	MOVUPD 16(BX), X9  // a0: channels 2, 3
	MOVUPD 32(BX), X10 // d1
	MOVUPD 48(BX), X11
	MOVUPD 64(BX), X12 // d2
	MOVUPD 80(BX), X13
	MOVL $0x437f0000, AX // float32 255
	MOVL AX, X7
	SHUFPS $0, X7, X7
	MOVL $0x3f000000, AX // float32 0.5
	MOVL AX, X6
	SHUFPS $0, X6, X6

	MOVQ R9, R12 // or for two pixels
	SHLQ $32, R12
	ORQ R9, R12

pair:
	CMPQ CX, $2
	JLT one
	PIXEL(X0)
	ADDQ R10, SI
	ADDQ R11, DI
	PIXEL(X4)
	MULPS X7, X0
	ADDPS X6, X0
	CVTTPS2PL X0, X0
	MULPS X7, X4
	ADDPS X6, X4
	CVTTPS2PL X4, X4
	PACKSSLW X4, X0 // the two pixels' words, the first low
	PACKUSWB X0, X0
	MOVQ X0, AX
	ORQ R12, AX
	MOVQ AX, (DX)
	ADDQ $8, DX
	ADDQ R10, SI
	ADDQ R11, DI
	SUBQ $2, CX
	JMP pair

one:
	TESTQ CX, CX
	JEQ done
	PIXEL(X0)
	MULPS X7, X0
	ADDPS X6, X0
	CVTTPS2PL X0, X0
	PACKSSLW X0, X0
	PACKUSWB X0, X0
	MOVL X0, AX
	ORL R9, AX
	MOVL AX, (DX)

done:
	RET
