package edit

import (
	"path/filepath"
	"strings"
	"testing"
)

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

// One edit is "1 edit", not "1 edits".
func TestMultiEditOneEditSaysOneEdit(t *testing.T) {
	e := newEnv(t)
	p := e.file(t, "one.txt", []byte("a\n"), true)
	res, err := call(t, NewMulti(e.files), map[string]any{"file_path": p, "edits": []any{map[string]any{"old_string": "a", "new_string": "b"}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Content[0].Text; !strings.HasPrefix(got, "Applied 1 edit to "+p+".") {
		t.Errorf("result = %q", got)
	}
}

// A file created by one edit is "with 1 edit".
func TestMultiEditCreatingWithOneEditSaysOneEdit(t *testing.T) {
	e := newEnv(t)
	p := filepath.Join(e.dir, "new.txt")
	res, err := call(t, NewMulti(e.files), map[string]any{"file_path": p, "edits": []any{map[string]any{"old_string": "", "new_string": "b\n"}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Content[0].Text; !strings.HasPrefix(got, "Created "+p+" with 1 edit.") {
		t.Errorf("result = %q", got)
	}
}
