package session

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// readBufSize is the read buffer of the line reader. Longer lines are
// gathered into a separate, reused buffer.
const readBufSize = 64 << 10

// eachLine calls fn with every line of r (without its newline), numbered
// from 1. complete is false only for a last line that has no newline. The
// line's bytes are valid only during the call. Reading stops at the first
// error fn returns.
func eachLine(r io.Reader, fn func(line []byte, n int, complete bool) error) error {
	br := bufio.NewReaderSize(r, readBufSize)
	var long []byte
	for n := 1; ; n++ {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			long = append(long[:0], line...)
			for errors.Is(err, bufio.ErrBufferFull) {
				line, err = br.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		switch {
		case err == nil:
			if ferr := fn(line[:len(line)-1], n, true); ferr != nil {
				return ferr
			}
		case err == io.EOF:
			if len(line) > 0 {
				return fn(line, n, false)
			}
			return nil
		default:
			return fmt.Errorf("read line %d: %w", n, err)
		}
	}
}

// Warning is a problem found while reading a transcript that did not stop
// the read: the line is skipped.
type Warning struct {
	Line int    // 1-based line number, 0 when not tied to a line
	Msg  string // what was wrong
}

// String is "line N: message", or the message alone.
func (w Warning) String() string {
	if w.Line == 0 {
		return w.Msg
	}
	return fmt.Sprintf("line %d: %s", w.Line, w.Msg)
}
