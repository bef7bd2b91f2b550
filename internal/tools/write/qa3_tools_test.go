package write

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"reins/internal/filestate"
)

// A one-line file is "1 line", not "1 lines".
func TestCreatedOneLineFileSaysOneLine(t *testing.T) {
	p := filepath.Join(t.TempDir(), "one.txt")
	raw, _ := json.Marshal(map[string]any{"file_path": p, "content": "only\n"})
	res, err := New(filestate.New()).Call(t.Context(), nil, raw, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := res.Content[0].Text, "Created "+p+" (1 line)."; got != want {
		t.Errorf("result = %q, want %q", got, want)
	}
}
