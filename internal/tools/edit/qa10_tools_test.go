package edit

import (
	"strings"
	"testing"
)

// The usual reason an old_string is not found is its whitespace: a Go
// file indents with tabs and the model gave spaces. The error names the
// lines that match but for whitespace, so the model can fix its
// old_string instead of guessing.
func TestQA10NotFoundNamesTheLinesThatDifferOnlyInWhitespace(t *testing.T) {
	e := newEnv(t)
	p := e.file(t, "x.go", []byte("package x\n\nfunc f() int {\n\tif true {\n\t\treturn 1\n\t}\n\treturn 0\n}\n"), true)
	_, err := call(t, New(e.files), map[string]any{"file_path": p,
		"old_string": "    if true {\n        return 1\n    }", "new_string": "\tif true {\n\t\treturn 2\n\t}"})
	if err == nil {
		t.Fatal("the edit succeeded; the spaces do not match the file's tabs")
	}
	for _, want := range []string{"Lines 4-6", "tabs"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	_, err = call(t, New(e.files), map[string]any{"file_path": p, "old_string": "return 7", "new_string": "return 8"})
	if err == nil || strings.Contains(err.Error(), "match it except") {
		t.Errorf("for text not in the file at all, error = %v; want a plain not-found error", err)
	}
}
