package read

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Asking for pages past a PDF's end gets a plain answer that the PDF has
// no such page, not pdftotext's command-line complaint.
func TestReadPDFPagesPastTheEnd(t *testing.T) {
	e := newEnv(t)
	p := e.write(t, "doc.pdf", []byte("%PDF-1.4 fake"))
	// poppler's pdftotext refuses a first page past the last one so.
	prog := filepath.Join(t.TempDir(), "pdftotext")
	script := "#!/bin/sh\necho 'Command Line Error: Wrong page range given: the first page (3) can not be after the last page (2).' >&2\nexit 99\n"
	if err := os.WriteFile(prog, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	e.tool.LookPath = func(name string) (string, error) {
		if name == "pdftotext" {
			return prog, nil
		}
		return "", fmt.Errorf("%s not found", name)
	}
	_, err := e.read(t, map[string]any{"file_path": p, "pages": "3-4"})
	if err == nil || !strings.Contains(err.Error(), "has no page 3") || strings.Contains(err.Error(), "Command Line Error") {
		t.Errorf("pages past the end: %v", err)
	}
}

// An offset past a one-line file says "only 1 line".
func TestOffsetPastAOneLineFileSaysOneLine(t *testing.T) {
	e := newEnv(t)
	p := e.write(t, "one.txt", []byte("only\n"))
	res, err := e.read(t, map[string]any{"file_path": p, "offset": 5})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Content[0].Text; !strings.HasPrefix(got, "The file has only 1 line, fewer than offset 5") {
		t.Errorf("result = %q", got)
	}
}
