package edit

import "testing"

// In a CRLF file an old_string written with \r\n endings (as a terminal
// dump shows the file) matches, and the file keeps its CRLF endings.
func TestEditMatchesCRLFOldStringInCRLFFile(t *testing.T) {
	e := newEnv(t)
	p := e.file(t, "win.txt", []byte("one\r\ntwo\r\nthree\r\n"), true)
	if _, err := call(t, New(e.files), map[string]any{"file_path": p, "old_string": "one\r\ntwo\r\n", "new_string": "uno\r\ndos\r\n"}); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, p); got != "uno\r\ndos\r\nthree\r\n" {
		t.Errorf("bytes = %q", got)
	}
}
