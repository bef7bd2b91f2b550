package write

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/filestate"
	"reins/internal/tool"
)

func setup(t *testing.T) (string, *filestate.State, *Tool) {
	t.Helper()
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	fs := filestate.New()
	return dir, fs, New(fs)
}

func markRead(t *testing.T, fs *filestate.State, p string) {
	t.Helper()
	b, _ := os.ReadFile(p)
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	fs.Record(filestate.EntryFor(p, b, info))
}

func write(t *testing.T, w *Tool, p, content string) (*tool.Result, error) {
	t.Helper()
	raw, _ := json.Marshal(map[string]string{"file_path": p, "content": content})
	c := &tool.Call{Cwd: "/proj"}
	if err := w.Validate(context.Background(), c, raw); err != nil {
		return nil, err
	}
	return w.Call(context.Background(), c, raw, nil)
}

func TestWriteCreates(t *testing.T) {
	dir, _, w := setup(t)
	p := filepath.Join(dir, "a", "b", "new.txt")
	res, err := write(t, w, p, "line 1\nline 2\n")
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "line 1\nline 2\n" {
		t.Errorf("file = %q", b)
	}
	if got := res.Content[0].Text; got != "Created "+p+" (2 lines)." {
		t.Errorf("text = %q", got)
	}
	d := res.Data.(*Data)
	if d.Type != "create" || d.OriginalFile != nil || d.FilePath != p || len(d.StructuredPatch) != 1 || d.StructuredPatch[0].NewLines != 2 {
		t.Errorf("data = %+v", d)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o644 {
		t.Errorf("new file mode = %v", fi.Mode().Perm())
	}
	// The write counts as a read: writing again needs no Read.
	if _, err := write(t, w, p, "again\n"); err != nil {
		t.Errorf("second write: %v", err)
	}
	if js, _ := json.Marshal(d); !strings.Contains(string(js), `"originalFile":null`) {
		t.Errorf("JSON = %s", js)
	}
}

func TestWriteUpdates(t *testing.T) {
	tests := []struct {
		name    string
		initial []byte
		content string
		want    []byte
	}{
		{"plain", []byte("old\n"), "new\ncontent\n", []byte("new\ncontent\n")},
		{"crlf kept", []byte("a\r\nb\r\n"), "x\ny\n", []byte("x\r\ny\r\n")},
		{"crlf given for a crlf file", []byte("a\r\nb\r\n"), "x\r\ny\n", []byte("x\r\ny\r\n")},
		{"bom kept", []byte("\xEF\xBB\xBFold\n"), "new\n", []byte("\xEF\xBB\xBFnew\n")},
		{"utf-16be kept", []byte{0xFE, 0xFF, 0, 'a'}, "b", []byte{0xFE, 0xFF, 0, 'b'}},
		{"emptied", []byte("old\n"), "", []byte("")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, fs, w := setup(t)
			p := filepath.Join(dir, "f")
			os.WriteFile(p, tt.initial, 0o600)
			markRead(t, fs, p)
			res, err := write(t, w, p, tt.content)
			if err != nil {
				t.Fatal(err)
			}
			if b, _ := os.ReadFile(p); string(b) != string(tt.want) {
				t.Errorf("bytes = %q, want %q", b, tt.want)
			}
			if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
				t.Errorf("mode = %v, want 0600 kept", fi.Mode().Perm())
			}
			d := res.Data.(*Data)
			if d.Type != "update" || d.OriginalFile == nil {
				t.Errorf("data = %+v", d)
			}
		})
	}
}

func TestWriteErrors(t *testing.T) {
	dir, fs, w := setup(t)
	unread := filepath.Join(dir, "unread.txt")
	os.WriteFile(unread, []byte("precious\n"), 0o644)
	stale := filepath.Join(dir, "stale.txt")
	os.WriteFile(stale, []byte("v1\n"), 0o644)
	markRead(t, fs, stale)
	os.WriteFile(stale, []byte("v2 from the user\n"), 0o644)
	bin := filepath.Join(dir, "blob.bin")
	os.WriteFile(bin, []byte("\x00\x01"), 0o644)
	tests := []struct {
		path, want string
	}{
		{"rel/x.txt", `file_path must be an absolute path, but "rel/x.txt" is relative (did you mean "/proj/rel/x.txt"?)`},
		{"", "file_path is empty"},
		{unread, "has not been read in this session. Read it first"},
		{stale, "has changed on disk since you last read it"},
		{dir, "is a directory, not a file"},
		{bin, "is a binary file that has not been read"},
	}
	for _, tt := range tests {
		_, err := write(t, w, tt.path, "overwritten\n")
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Write(%q) = %v, want %q", tt.path, err, tt.want)
		}
	}
	if b, _ := os.ReadFile(unread); string(b) != "precious\n" {
		t.Error("an unread file was overwritten")
	}
	if b, _ := os.ReadFile(stale); string(b) != "v2 from the user\n" {
		t.Error("a stale file was overwritten")
	}
}

func TestWriteThroughSymlink(t *testing.T) {
	dir, fs, w := setup(t)
	target := filepath.Join(dir, "real.txt")
	os.WriteFile(target, []byte("a\n"), 0o644)
	markRead(t, fs, target)
	link := filepath.Join(dir, "link.txt")
	os.Symlink(target, link)
	if _, err := write(t, w, link, "b\n"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(target); string(b) != "b\n" {
		t.Errorf("target = %q", b)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Error("link replaced")
	}
}

func TestSchema(t *testing.T) {
	var s tool.Schemas
	w := New(filestate.New())
	for in, ok := range map[string]bool{`{"file_path":"/a","content":""}`: true, `{"file_path":"/a"}`: false, `{"content":"x"}`: false} {
		if err := s.Validate(w.InputSchema(), json.RawMessage(in)); (err == nil) != ok {
			t.Errorf("schema on %s: %v", in, err)
		}
	}
}
