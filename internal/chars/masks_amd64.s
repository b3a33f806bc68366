//go:build !purego

#include "textflag.h"

// func masks64(p *byte, n int, tab *[128]byte, m *[8]uint64)
TEXT ·masks64(SB), NOSPLIT, $0-32
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ tab+16(FP), DX
	MOVQ m+24(FP), DI
	// K1: the first n bytes (BZHI keeps all 64 bits when n is 64).
	MOVQ $-1, AX
	BZHIQ CX, AX, AX
	KMOVQ AX, K1
	// The bytes, zero past n: the masked load does not fault there.
	VMOVDQU8.Z (SI), K1, Z0
	VMOVDQU64 (DX), Z1
	VMOVDQU64 64(DX), Z2
	// K3: the ASCII bytes of the n.
	VPMOVB2M Z0, K2
	KANDNQ K1, K2, K3
	// Z0 = tab[b] for each ASCII byte b, 0 for the others.
	VPERMI2B.Z Z2, Z1, K3, Z0
	// m[k]: the bytes whose class bit k is set, k = 0..7.
	MOVL $0x01010101, AX
	VPBROADCASTD AX, Z3
	VPTESTMB Z3, Z0, K4
	KMOVQ K4, 0(DI)
	VPADDB Z3, Z3, Z3
	VPTESTMB Z3, Z0, K4
	KMOVQ K4, 8(DI)
	VPADDB Z3, Z3, Z3
	VPTESTMB Z3, Z0, K4
	KMOVQ K4, 16(DI)
	VPADDB Z3, Z3, Z3
	VPTESTMB Z3, Z0, K4
	KMOVQ K4, 24(DI)
	VPADDB Z3, Z3, Z3
	VPTESTMB Z3, Z0, K4
	KMOVQ K4, 32(DI)
	VPADDB Z3, Z3, Z3
	VPTESTMB Z3, Z0, K4
	KMOVQ K4, 40(DI)
	VPADDB Z3, Z3, Z3
	VPTESTMB Z3, Z0, K4
	KMOVQ K4, 48(DI)
	VPADDB Z3, Z3, Z3
	VPTESTMB Z3, Z0, K4
	KMOVQ K4, 56(DI)
	VZEROUPPER
	RET
