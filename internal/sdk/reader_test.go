package sdk

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// readAll reads every message, describing each as its type or "error@N".
func readAll(t *testing.T, r *Reader) []string {
	t.Helper()
	var out []string
	for {
		m, err := r.Next()
		if err == io.EOF {
			return out
		}
		var le *LineError
		if errors.As(err, &le) {
			out = append(out, fmt.Sprintf("error@%02d", le.Line))
			continue
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		out = append(out, fmt.Sprintf("%s@%02d", m.Type, m.Line))
	}
}

const userLine = `{"type":"user","message":{"role":"user","content":"hi"}}`

func TestReaderSkipsBlankLinesAndReadsEveryOther(t *testing.T) {
	cases := []struct {
		name, in string
		want     []string
	}{
		{"plain", userLine + "\n" + userLine + "\n", []string{"user@01", "user@02"}},
		{"crlf", userLine + "\r\n" + userLine + "\r\n", []string{"user@01", "user@02"}},
		{"blank and whitespace lines", "\n   \n\t\r\n" + userLine + "\n\n", []string{"user@04"}},
		{"last line without a newline", userLine + "\n" + userLine, []string{"user@01", "user@02"}},
		{"byte order mark", "\xef\xbb\xbf" + userLine + "\n", []string{"user@01"}},
		{"bad line between good ones", userLine + "\n{oops\n" + userLine + "\n", []string{"user@01", "error@02", "user@03"}},
		{"keep_alive and control lines", `{"type":"keep_alive"}` + "\n" + `{"type":"control_cancel_request","request_id":"x"}` + "\n",
			[]string{"keep_alive@01", "control_cancel_request@02"}},
		{"empty input", "", nil},
		{"only blanks", "\n\r\n  ", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := readAll(t, NewReader(strings.NewReader(c.in)))
			if strings.Join(got, " ") != strings.Join(c.want, " ") {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}
}

func TestReaderJoinsUTF8SplitAcrossReads(t *testing.T) {
	text := "héllo — 世界 🎉"
	in := `{"type":"user","message":{"role":"user","content":"` + text + `"}}` + "\n"
	r := NewReader(iotest.OneByteReader(strings.NewReader(in)))
	m, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	if got := m.User.Content[0].Text; got != text {
		t.Errorf("text = %q, want %q", got, text)
	}
}

func TestReaderSkipsOverlongLineAndKeepsTheNext(t *testing.T) {
	long := `{"type":"user","message":{"role":"user","content":"` + strings.Repeat("x", 5000) + `"}}`
	r := NewReader(iotest.HalfReader(strings.NewReader(long + "\n" + userLine + "\n" + long)))
	r.SetMaxLine(1000)
	got := readAll(t, r)
	if want := "error@01 user@02 error@03"; strings.Join(got, " ") != want {
		t.Errorf("got %v, want %s", got, want)
	}
}

func TestReaderReportsReadErrors(t *testing.T) {
	boom := errors.New("boom")
	r := NewReader(io.MultiReader(strings.NewReader(userLine+"\n"), iotest.ErrReader(boom)))
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Next(); !errors.Is(err, boom) {
		t.Errorf("err = %v, want the read error", err)
	}
}

// chunkReader returns its data in reads of the given sizes, cycling.
type chunkReader struct {
	data  []byte
	sizes []byte
	i     int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	n := 1
	if len(c.sizes) > 0 {
		n = int(c.sizes[c.i%len(c.sizes)])%64 + 1
		c.i++
	}
	n = min(n, len(p), len(c.data))
	copy(p, c.data[:n])
	c.data = c.data[n:]
	return n, nil
}

// FuzzReader: whatever bytes surround it, a valid line on its own line is
// read intact, and nothing panics.
func FuzzReader(f *testing.F) {
	f.Add([]byte("{oops"), []byte("\r\n\t"), []byte{1, 7, 3})
	f.Add([]byte("\xef\xbb\xbf"), []byte(`{"type":"user"}`), []byte{0})
	f.Add([]byte(`{"type":"control_request","request_id":5}`), []byte("\x00\xff\xfe"), []byte{63, 2})
	f.Add([]byte(strings.Repeat("é", 40)), []byte("\n\n\n"), []byte{5})
	f.Fuzz(func(t *testing.T, before, after, sizes []byte) {
		const marker = "fuzz-marker-✓"
		valid := `{"type":"user","message":{"role":"user","content":"` + marker + `"}}`
		var in bytes.Buffer
		in.Write(before)
		in.WriteString("\n" + valid + "\n")
		in.Write(after)
		r := NewReader(&chunkReader{data: in.Bytes(), sizes: sizes})
		found := 0
		for i := 0; ; i++ {
			if i > in.Len()+10 {
				t.Fatal("the reader does not advance")
			}
			m, err := r.Next()
			if err == io.EOF {
				break
			}
			var le *LineError
			if errors.As(err, &le) {
				if le.Err == nil || le.Line <= 0 {
					t.Fatalf("bad LineError %+v", le)
				}
				continue
			}
			if err != nil {
				t.Fatalf("Next: %v", err)
			}
			if m.Type == KindUser && len(m.User.Content) == 1 && m.User.Content[0].Text == marker {
				found++
			}
		}
		if found == 0 {
			t.Fatalf("the valid line was lost; input %q", in.Bytes())
		}
	})
}
