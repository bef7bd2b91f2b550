package sdk

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// DefaultMaxLine bounds one input line (a user message with images can be
// large; anything past this is refused, not buffered without end).
const DefaultMaxLine = 256 << 20

// Reader reads the client's newline-delimited JSON input. Blank and
// whitespace-only lines are skipped, a CR before the LF is dropped, a
// UTF-8 byte order mark at the very start is ignored, and a last line
// without a line end still counts. Lines are split on bytes, so a UTF-8
// sequence divided across reads arrives whole.
type Reader struct {
	r       *bufio.Reader
	line    int
	maxLine int
	buf     []byte
}

// NewReader returns a Reader over r.
func NewReader(r io.Reader) *Reader {
	return &Reader{r: bufio.NewReaderSize(r, 64<<10), maxLine: DefaultMaxLine}
}

// SetMaxLine changes the longest line accepted (for tests).
func (r *Reader) SetMaxLine(n int) { r.maxLine = n }

// Next returns the next message. A line that cannot be used yields a
// *LineError, after which Next goes on with the following line. At the
// end of input it returns io.EOF; other read errors are returned wrapped
// and end the input.
func (r *Reader) Next() (*Message, error) {
	for {
		data, err := r.readLine()
		if err != nil {
			return nil, err
		}
		if r.line == 1 {
			data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
		}
		if len(bytes.TrimSpace(data)) == 0 {
			continue
		}
		return Decode(data, r.line)
	}
}

// errTooLong marks a line past maxLine; the rest of it has been skipped.
var errTooLong = errors.New("line too long")

// readLine returns the next line without its line end. A line longer than
// maxLine is skipped to its end and reported as a *LineError.
func (r *Reader) readLine() ([]byte, error) {
	r.buf = r.buf[:0]
	tooLong := false
	for {
		chunk, err := r.r.ReadSlice('\n')
		if !tooLong {
			if len(r.buf)+len(chunk) > r.maxLine+2 {
				tooLong = true
				r.buf = r.buf[:0]
			} else {
				r.buf = append(r.buf, chunk...)
			}
		}
		switch {
		case err == nil:
			r.line++
			if tooLong {
				return nil, &LineError{Line: r.line, Err: fmt.Errorf("%w: longer than %d bytes", errTooLong, r.maxLine)}
			}
			return bytes.TrimRight(r.buf, "\r\n"), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == io.EOF:
			if tooLong {
				r.line++
				return nil, &LineError{Line: r.line, Err: fmt.Errorf("%w: longer than %d bytes", errTooLong, r.maxLine)}
			}
			if len(r.buf) == 0 {
				return nil, io.EOF
			}
			r.line++
			line := bytes.TrimRight(r.buf, "\r")
			return line, nil
		default:
			return nil, fmt.Errorf("read input: %w", err)
		}
	}
}
