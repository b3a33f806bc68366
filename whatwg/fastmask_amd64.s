//go:build !purego

#include "textflag.h"

// func classify64(s string, m *fastMasks)
//
// Z16 holds the bytes of s (zeros past its end), Z17 and Z18 the 128
// bytes of fastByte for ASCII; VPERMI2B looks each byte up (a byte with
// its high bit set gets 0, as in fastByte), and VPMOVB2M turns the
// high bit of each byte into a mask, for each flag bit shifted there.
// The registers Z16 and above leave the upper halves of Y0-Y15 alone,
// so that no VZEROUPPER is needed.
TEXT ·classify64(SB), NOSPLIT, $0-24
	MOVQ s_base+0(FP), SI
	MOVQ s_len+8(FP), CX
	MOVQ m+16(FP), DI
	MOVQ $-1, AX
	BZHIQ CX, AX, AX
	KMOVQ AX, K1
	VMOVDQU8.Z (SI), K1, Z16
	VMOVDQU64 ·fastByte+0(SB), Z17
	VMOVDQU64 ·fastByte+64(SB), Z18
	MOVL $0x25, AX // '%'
	VPBROADCASTB AX, Z19
	VPCMPEQB Z19, Z16, K2
	KMOVQ K2, 64(DI)
	VPMOVB2M Z16, K3
	KNOTQ K3, K3
	VPERMI2B.Z Z18, Z17, K3, Z16
	VPMOVB2M Z16, K2
	KMOVQ K2, 56(DI)
	VPSLLW $1, Z16, Z20
	VPMOVB2M Z20, K2
	KMOVQ K2, 48(DI)
	VPSLLW $2, Z16, Z20
	VPMOVB2M Z20, K2
	KMOVQ K2, 40(DI)
	VPSLLW $3, Z16, Z20
	VPMOVB2M Z20, K2
	KMOVQ K2, 32(DI)
	VPSLLW $4, Z16, Z20
	VPMOVB2M Z20, K2
	KMOVQ K2, 24(DI)
	VPSLLW $5, Z16, Z20
	VPMOVB2M Z20, K2
	KMOVQ K2, 16(DI)
	VPSLLW $6, Z16, Z20
	VPMOVB2M Z20, K2
	KMOVQ K2, 8(DI)
	VPSLLW $7, Z16, Z20
	VPMOVB2M Z20, K2
	KMOVQ K2, 0(DI)
	RET

// func hasAVX512VBMI() bool
TEXT ·hasAVX512VBMI(SB), NOSPLIT, $0-1
	MOVL $0, AX
	CPUID
	CMPL AX, $7
	JLT  no
	MOVL $1, AX
	MOVL $0, CX
	CPUID
	BTL  $27, CX // OSXSAVE
	JCC  no
	MOVL $0, CX
	XGETBV
	ANDL $0xe6, AX // the OS saves XMM, YMM, the mask registers and ZMM
	CMPL AX, $0xe6
	JNE  no
	MOVL $7, AX
	MOVL $0, CX
	CPUID
	ANDL $0x40010100, BX // AVX512F, AVX512BW, BMI2
	CMPL BX, $0x40010100
	JNE  no
	BTL  $1, CX // AVX512VBMI
	JCC  no
	MOVB $1, ret+0(FP)
	RET
no:
	MOVB $0, ret+0(FP)
	RET
