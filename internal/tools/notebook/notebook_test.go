package notebook

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"reins/internal/filestate"
	"reins/internal/tool"
)

// setup copies a testdata notebook to a temporary folder and records it
// as read.
func setup(t *testing.T, name string) (string, *Tool) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	p := filepath.Join(dir, name)
	os.WriteFile(p, b, 0o640)
	fs := filestate.New()
	info, _ := os.Stat(p)
	fs.Record(filestate.EntryFor(p, b, info))
	tl := New(fs)
	tl.NewID = func() string { return "abcd1234" }
	return p, tl
}

func call(t *testing.T, tl *Tool, in map[string]any) (*tool.Result, error) {
	t.Helper()
	raw, _ := json.Marshal(in)
	c := &tool.Call{Cwd: "/proj"}
	if err := tl.Validate(context.Background(), c, raw); err != nil {
		return nil, err
	}
	return tl.Call(context.Background(), c, raw, nil)
}

// TestEditsMatchJupyterFormatting compares each edit with the file
// Python's json module writes for the same notebook (as Jupyter does):
// sorted keys, the file's indentation, escaping and final newline.
func TestEditsMatchJupyterFormatting(t *testing.T) {
	tests := []struct {
		file, golden string
		in           map[string]any
		text         string
	}{
		{"ids.ipynb", "ids_replace.golden", map[string]any{"cell_id": "c1", "new_source": "y = 2\nprint(y)\n"}, "Updated cell c1 of %s."},
		{"ids.ipynb", "ids_insert.golden", map[string]any{"cell_id": "intro", "new_source": "## Part <b>&</b>", "cell_type": "markdown", "edit_mode": "insert"}, "Inserted a new markdown cell (abcd1234) after cell intro in %s."},
		{"ids.ipynb", "ids_delete.golden", map[string]any{"cell_id": "intro", "new_source": "", "edit_mode": "delete"}, "Deleted cell intro from %s."},
		{"ids.ipynb", "ids_tomarkdown.golden", map[string]any{"cell_id": "c1", "new_source": "now *text*", "cell_type": "markdown"}, "Updated cell c1 of %s."},
		{"noids.ipynb", "noids_replace.golden", map[string]any{"cell_id": "cell-1", "new_source": "héllo 😀"}, "Updated cell cell-1 of %s."},
		{"noids.ipynb", "noids_insert_top.golden", map[string]any{"new_source": "import os", "cell_type": "code", "edit_mode": "insert"}, "Inserted a new code cell (cell-0) at the top of %s."},
		{"noids.ipynb", "noids_replace_past_end.golden", map[string]any{"cell_id": "cell-2", "new_source": "end()"}, "Inserted a new code cell (cell-2) at the end of %s."},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			p, tl := setup(t, tt.file)
			tt.in["notebook_path"] = p
			res, err := call(t, tl, tt.in)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(p)
			want, _ := os.ReadFile(filepath.Join("testdata", tt.golden))
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("notebook (-jupyter +ours):\n%s", diff)
			}
			if text := strings.ReplaceAll(tt.text, "%s", p); res.Content[0].Text != text {
				t.Errorf("text = %q, want %q", res.Content[0].Text, text)
			}
			d := res.Data.(*Data)
			if d.NotebookPath != p || d.UpdatedFile != string(got) || d.Language != "python" || d.OriginalFile == d.UpdatedFile {
				t.Errorf("data = %+v", d)
			}
			if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o640 {
				t.Errorf("mode = %v, want 0640 kept", fi.Mode().Perm())
			}
		})
	}
}

func TestSequentialEditsNeedNoReread(t *testing.T) {
	p, tl := setup(t, "ids.ipynb")
	if _, err := call(t, tl, map[string]any{"notebook_path": p, "cell_id": "c1", "new_source": "a"}); err != nil {
		t.Fatal(err)
	}
	if _, err := call(t, tl, map[string]any{"notebook_path": p, "cell_id": "c1", "new_source": "b"}); err != nil {
		t.Fatalf("second edit: %v", err)
	}
}

func TestErrors(t *testing.T) {
	p, tl := setup(t, "ids.ipynb")
	dir := filepath.Dir(p)
	unread := filepath.Join(dir, "unread.ipynb")
	os.WriteFile(unread, []byte(`{"cells":[]}`), 0o644)
	broken := filepath.Join(dir, "broken.ipynb")
	os.WriteFile(broken, []byte(`{"cells": [`), 0o644)
	tl.files.Record(filestate.Entry{Path: broken, Hash: filestate.Hash([]byte(`{"cells": [`))})
	nocells := filepath.Join(dir, "nocells.ipynb")
	os.WriteFile(nocells, []byte(`{"metadata":{}}`), 0o644)
	tl.files.Record(filestate.Entry{Path: nocells, Hash: filestate.Hash([]byte(`{"metadata":{}}`))})
	tests := []struct {
		in   map[string]any
		want string
	}{
		{map[string]any{"notebook_path": "nb.ipynb", "cell_id": "c1", "new_source": "x"}, `notebook_path must be an absolute path, but "nb.ipynb" is relative (did you mean "/proj/nb.ipynb"?)`},
		{map[string]any{"notebook_path": "/x/file.py", "cell_id": "c1", "new_source": "x"}, "notebook_path must be a Jupyter notebook (.ipynb)"},
		{map[string]any{"notebook_path": p, "new_source": "x"}, "cell_id is required when edit_mode is replace"},
		{map[string]any{"notebook_path": p, "new_source": "x", "edit_mode": "delete"}, "cell_id is required when edit_mode is delete"},
		{map[string]any{"notebook_path": p, "new_source": "x", "edit_mode": "insert"}, "cell_type is required when edit_mode is insert"},
		{map[string]any{"notebook_path": p, "new_source": "x", "edit_mode": "append", "cell_id": "c1"}, `edit_mode must be replace, insert or delete, got "append"`},
		{map[string]any{"notebook_path": p, "cell_id": "zzz", "new_source": "x"}, `cell_id "zzz" does not match any cell in ` + p + "; its cells are: intro, c1"},
		{map[string]any{"notebook_path": p, "cell_id": "cell-7", "new_source": "x"}, `cell_id "cell-7" does not match any cell`},
		{map[string]any{"notebook_path": filepath.Join(dir, "missing.ipynb"), "cell_id": "c1", "new_source": "x"}, "does not exist"},
		{map[string]any{"notebook_path": unread, "cell_id": "cell-0", "new_source": "x"}, "has not been read in this session"},
		{map[string]any{"notebook_path": broken, "cell_id": "cell-0", "new_source": "x"}, "is not valid notebook JSON"},
		{map[string]any{"notebook_path": nocells, "cell_id": "cell-0", "new_source": "x"}, "has no cells array"},
	}
	before, _ := os.ReadFile(p)
	for _, tt := range tests {
		_, err := call(t, tl, tt.in)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: error %v, want %q", tt.in, err, tt.want)
		}
	}
	if after, _ := os.ReadFile(p); string(after) != string(before) {
		t.Error("a failed edit changed the notebook")
	}
}

func TestCompactNotebookStaysCompact(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "c.ipynb")
	src := `{"cells":[{"cell_type":"code","source":"a","metadata":{},"outputs":[],"execution_count":3}],"nbformat":4}`
	os.WriteFile(p, []byte(src), 0o644)
	fs := filestate.New()
	info, _ := os.Stat(p)
	fs.Record(filestate.EntryFor(p, []byte(src), info))
	if _, err := call(t, New(fs), map[string]any{"notebook_path": p, "cell_id": "cell-0", "new_source": "b"}); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(p)
	want := `{"cells":[{"cell_type":"code","source":"b","metadata":{},"outputs":[],"execution_count":null}],"nbformat":4}`
	if string(got) != want {
		t.Errorf("compact notebook = %s\nwant %s", got, want)
	}
}

func TestSchema(t *testing.T) {
	var s tool.Schemas
	tl := New(filestate.New())
	for in, ok := range map[string]bool{
		`{"notebook_path":"/a.ipynb","new_source":"x"}`:                                                           true,
		`{"notebook_path":"/a.ipynb","new_source":"x","cell_id":"c","cell_type":"markdown","edit_mode":"insert"}`: true,
		`{"notebook_path":"/a.ipynb","new_source":"x","cell_type":"raw"}`:                                         false,
		`{"notebook_path":"/a.ipynb"}`:                                                                            false,
	} {
		if err := s.Validate(tl.InputSchema(), json.RawMessage(in)); (err == nil) != ok {
			t.Errorf("schema on %s: %v", in, err)
		}
	}
}

func FuzzDecodeObject(f *testing.F) {
	for _, s := range []string{`{"a":1,"b":[1,2],"c":{"d":null}}`, `{}`, `{"a":`, `[1]`, `{"a":"\u00e9"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		o, err := decodeObject([]byte(s))
		if err != nil {
			return
		}
		b, err := o.compact()
		if err != nil {
			return
		}
		var a, c any
		if json.Unmarshal([]byte(s), &a) == nil && json.Unmarshal(b, &c) == nil && !cmp.Equal(a, c) {
			t.Fatalf("round trip of %q changed it to %q", s, b)
		}
	})
}
