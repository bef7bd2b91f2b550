#include "textflag.h"

// _reins_rt0 is the process entry point when the binary is linked with
// -ldflags=-E=_reins_rt0 (see EntrySymbol in entry.go). The kernel starts
// it with the stack pointer at argc, followed by the argv pointers. It
// scans argv[1:] as Answer does, without touching the stack: at the first
// "--version" or "-v" it writes the version line to standard output and
// exits, so the answer costs no more than starting the process; at "--"
// or the end of the arguments it jumps to the Go runtime's entry with
// every register it reads untouched.
TEXT _reins_rt0(SB),NOSPLIT|NOFRAME,$0
	MOVQ	0(SP), CX	// argc
	LEAQ	16(SP), BX	// &argv[1]

next:
	DECQ	CX
	JLE	runtime	// no argument left
	MOVQ	(BX), SI	// the argument, NUL-terminated
	ADDQ	$8, BX
	CMPB	(SI), $'-'
	JNE	next
	MOVB	1(SI), AX
	CMPB	AX, $'v'
	JEQ	short
	CMPB	AX, $'-'
	JNE	next
	CMPB	2(SI), $0
	JEQ	runtime	// "--": the rest are not flags
	ADDQ	$2, SI
	LEAQ	versionRest<>(SB), DI

long:	// compare the rest with "version" and its NUL, byte by byte
	MOVB	(SI), AX
	CMPB	AX, (DI)
	JNE	next
	INCQ	SI
	INCQ	DI
	TESTB	AX, AX
	JNE	long
	MOVQ	·versionOut+0(SB), SI
	MOVQ	·versionOut+8(SB), DX
	JMP	write

short:	// "-v" and nothing more
	CMPB	2(SI), $0
	JNE	next
	MOVQ	·sdkVersionOut+0(SB), SI
	MOVQ	·sdkVersionOut+8(SB), DX

write:	// write(1, SI, DX) until all is written
	MOVQ	$1, AX	// SYS_write
	MOVQ	$1, DI
	SYSCALL
	CMPQ	AX, $-4	// EINTR: try again
	JEQ	write
	CMPQ	AX, $-4096
	JHI	fail	// -errno
	TESTQ	AX, AX
	JEQ	fail
	ADDQ	AX, SI
	SUBQ	AX, DX
	JGT	write
	XORQ	DI, DI
	JMP	exit

fail:
	MOVQ	$1, DI

exit:
	MOVQ	$231, AX	// SYS_exit_group
	SYSCALL
	HLT

runtime:
	JMP	_rt0_amd64_linux(SB)

DATA versionRest<>+0(SB)/8, $"version"
GLOBL versionRest<>(SB), RODATA|NOPTR, $8
