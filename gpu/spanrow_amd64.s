#include "textflag.h"

// func spanRowSSE(out []uint32, w1, w2, s1, s2 int64, inv float64, k *rowKernel, or uint32)
//
// spanRow with the channels in the lanes of SSE2 registers: per pixel
// b1 = float64(w1)*inv and b2 = float64(w2)*inv (scalar, as Go does them),
// then for the four channels at once a0 + b1*d1, that + b2*d2 (MULPD and
// ADDPD round each lane as MULSD and ADDSD do; no fused multiply-add),
// float32 (CVTPD2PS, the MXCSR's round to nearest like CVTSD2SS), *255 and
// +0.5 in float32, truncated to int32 (CVTTPS2DQ like CVTTSS2SI), the four
// bytes packed and or'ed with or.
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

loop:
	CVTSQ2SD SI, X0
	MULSD X14, X0 // b1
	CVTSQ2SD DI, X1
	MULSD X14, X1 // b2
	UNPCKLPD X0, X0
	UNPCKLPD X1, X1
	MOVAPD X0, X2
	MULPD X10, X0 // b1*d1
	MULPD X11, X2
	ADDPD X8, X0  // a0 + b1*d1
	ADDPD X9, X2
	MOVAPD X1, X3
	MULPD X12, X1 // b2*d2
	MULPD X13, X3
	ADDPD X1, X0  // (a0 + b1*d1) + b2*d2
	ADDPD X3, X2
	CVTPD2PS X0, X0
	CVTPD2PS X2, X2
	MOVLHPS X2, X0
	MULPS X7, X0
	ADDPS X6, X0
	CVTTPS2PL X0, X0
	PACKSSLW X0, X0
	PACKUSWB X0, X0
	MOVL X0, AX
	ORL R9, AX
	MOVL AX, (DX)
	ADDQ $4, DX
	ADDQ R10, SI
	ADDQ R11, DI
	DECQ CX
	JNZ loop

done:
	RET
