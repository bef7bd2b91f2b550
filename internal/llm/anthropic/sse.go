package anthropic

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// sseEvent is one server-sent event.
type sseEvent struct {
	name string
	data []byte
}

// sseReader reads server-sent events. It has no line-length limit.
type sseReader struct {
	r    *bufio.Reader
	data bytes.Buffer
}

func newSSEReader(r io.Reader) *sseReader {
	return &sseReader{r: bufio.NewReaderSize(r, 64<<10)}
}

// next returns the next event with data, io.EOF at a clean end, or
// io.ErrUnexpectedEOF when the stream ends inside an event.
func (s *sseReader) next() (sseEvent, error) {
	var ev sseEvent
	s.data.Reset()
	hasData := false
	for {
		line, err := s.r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// A long line: gather the rest.
			long := append([]byte(nil), line...)
			for errors.Is(err, bufio.ErrBufferFull) {
				line, err = s.r.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		if err != nil && len(line) == 0 {
			if err == io.EOF {
				if hasData || ev.name != "" {
					return ev, io.ErrUnexpectedEOF
				}
				return ev, io.EOF
			}
			return ev, err
		}
		line = bytes.TrimRight(line, "\r\n")
		if len(line) == 0 {
			if hasData {
				ev.data = append([]byte(nil), s.data.Bytes()...)
				return ev, nil
			}
			ev.name = ""
			if err != nil {
				return ev, err
			}
			continue
		}
		if line[0] == ':' {
			continue // comment
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		switch string(field) {
		case "event":
			ev.name = string(value)
		case "data":
			if hasData {
				s.data.WriteByte('\n')
			}
			s.data.Write(value)
			hasData = true
		}
		if err != nil {
			if err == io.EOF {
				if hasData {
					return ev, io.ErrUnexpectedEOF
				}
				return ev, io.EOF
			}
			return ev, err
		}
	}
}
