#include "textflag.h"

// _reins_rt0 is the process entry point when the binary is linked with
// -ldflags=-E=_reins_rt0; see entry_linux_amd64.s, which this follows
// step for step.
TEXT _reins_rt0(SB),NOSPLIT|NOFRAME,$0
	MOVD	0(RSP), R2	// argc
	ADD	$16, RSP, R3	// &argv[1]

next:
	SUBS	$1, R2, R2
	BLE	runtime	// no argument left
	MOVD.P	8(R3), R4	// the argument, NUL-terminated
	MOVBU	(R4), R5
	CMP	$'-', R5
	BNE	next
	MOVBU	1(R4), R5
	CMP	$'v', R5
	BEQ	short
	CMP	$'-', R5
	BNE	next
	MOVBU	2(R4), R5
	CBZ	R5, runtime	// "--": the rest are not flags
	ADD	$2, R4
	MOVD	$versionRest<>(SB), R6

long:	// compare the rest with "version" and its NUL, byte by byte
	MOVBU.P	1(R4), R5
	MOVBU.P	1(R6), R7
	CMP	R5, R7
	BNE	next
	CBNZ	R5, long
	MOVD	$·versionOut(SB), R6
	B	load

short:	// "-v" and nothing more
	MOVBU	2(R4), R5
	CBNZ	R5, next
	MOVD	$·sdkVersionOut(SB), R6

load:
	MOVD	0(R6), R1	// string data
	MOVD	8(R6), R2	// string length

write:	// write(1, R1, R2) until all is written
	MOVD	$1, R0
	MOVD	$64, R8	// SYS_write
	SVC
	CMN	$4, R0	// EINTR: try again
	BEQ	write
	CMN	$4095, R0
	BHS	fail	// -errno
	CBZ	R0, fail
	ADD	R0, R1
	SUBS	R0, R2
	BGT	write
	MOVD	$0, R0
	B	exit

fail:
	MOVD	$1, R0

exit:
	MOVD	$94, R8	// SYS_exit_group
	SVC
	B	exit

runtime:
	JMP	_rt0_arm64_linux(SB)

DATA versionRest<>+0(SB)/8, $"version"
GLOBL versionRest<>(SB), RODATA|NOPTR, $8
