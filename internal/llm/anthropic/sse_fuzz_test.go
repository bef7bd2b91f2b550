package anthropic

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

func TestSSEReaderParsesEventsAcrossLineEndings(t *testing.T) {
	in := "event: a\r\ndata: {\"x\":1}\r\n\r\n: comment\n\nevent: b\ndata: line1\ndata: line2\n\n"
	r := newSSEReader(bytes.NewBufferString(in))
	ev, err := r.next()
	if err != nil || ev.name != "a" || string(ev.data) != `{"x":1}` {
		t.Fatalf("first = %+v %v", ev, err)
	}
	ev, err = r.next()
	if err != nil || ev.name != "b" || string(ev.data) != "line1\nline2" {
		t.Fatalf("second = %+v %v", ev, err)
	}
	if _, err = r.next(); err != io.EOF {
		t.Fatalf("end = %v, want EOF", err)
	}
}

func TestSSEReaderReportsTruncatedEvent(t *testing.T) {
	r := newSSEReader(bytes.NewBufferString("event: a\ndata: {\"x\""))
	if _, err := r.next(); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("err = %v, want ErrUnexpectedEOF", err)
	}
}

func TestSSEReaderHandlesHugeLines(t *testing.T) {
	big := bytes.Repeat([]byte("x"), 1<<20)
	in := append(append([]byte("data: "), big...), "\n\n"...)
	ev, err := newSSEReader(bytes.NewReader(in)).next()
	if err != nil || len(ev.data) != len(big) {
		t.Fatalf("len %d err %v", len(ev.data), err)
	}
}

// FuzzSSE feeds arbitrary bytes to the reader and decoder: they must never
// panic, and must always make progress to an end.
func FuzzSSE(f *testing.F) {
	f.Add([]byte("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"role\":\"assistant\"}}\n\n"))
	f.Add([]byte("event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"delta\":{\"type\":\"text_delta\",\"text\":\"hi\"}}\n\n"))
	f.Add([]byte("data: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\"}}\n\n"))
	f.Add([]byte("data: \xff\xfe\n\n\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := newSSEReader(bytes.NewReader(data))
		for i := 0; i < len(data)+2; i++ {
			ev, err := r.next()
			if err != nil {
				return
			}
			decodeEvent(ev)
		}
		t.Fatalf("reader did not reach the end of %d bytes", len(data))
	})
}
