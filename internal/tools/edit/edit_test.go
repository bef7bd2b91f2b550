package edit

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"reins/internal/filestate"
	"reins/internal/tool"
)

type env struct {
	dir   string
	files *filestate.State
}

func newEnv(t *testing.T) *env {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return &env{dir: dir, files: filestate.New()}
}

// file writes a file and, when read is true, records it as read.
func (e *env) file(t *testing.T, name string, content []byte, read bool) string {
	t.Helper()
	p := filepath.Join(e.dir, name)
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, content, 0o644); err != nil {
		t.Fatal(err)
	}
	if read {
		e.markRead(t, p)
	}
	return p
}

func (e *env) markRead(t *testing.T, p string) {
	t.Helper()
	b, _ := os.ReadFile(p)
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	e.files.Record(filestate.EntryFor(p, b, info))
}

func call(t *testing.T, tl tool.Tool, in any) (*tool.Result, error) {
	t.Helper()
	raw, _ := json.Marshal(in)
	c := &tool.Call{Cwd: "/work"}
	if err := tl.Validate(context.Background(), c, raw); err != nil {
		return nil, err
	}
	return tl.Call(context.Background(), c, raw, nil)
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestEdit(t *testing.T) {
	tests := []struct {
		name    string
		initial string
		old     string
		new     string
		all     bool
		want    string // file afterwards
		text    string // start of the result text
	}{
		{"unique replacement", "a\nb\nc\n", "b", "B", false, "a\nB\nc\n", "Updated %s. The changed lines, numbered as Read shows them:\n     1\ta\n     2\tB\n     3\tc"},
		{"replace all", "x = 1\nx = 2\ny = x\n", "x", "z", true, "z = 1\nz = 2\ny = z\n", "Updated %s: replaced 3 occurrences."},
		{"multi-line old string", "func a() {\n\treturn 1\n}\n", "\treturn 1\n}", "\treturn 2\n}", false, "func a() {\n\treturn 2\n}\n", "Updated %s."},
		{"deleting a line takes its ending", "keep\ndrop me\nkeep too\n", "drop me", "", false, "keep\nkeep too\n", "Updated %s."},
		{"curly quotes in the file", "say “hello” and ‘bye’\n", `"hello"`, `"hi there"`, false, "say “hi there” and ‘bye’\n", "Updated %s."},
		{"apostrophe", "it’s fine\n", "it's fine", "it's great", false, "it’s great\n", "Updated %s."},
		{"mixed line endings", "one\r\ntwo\nthree\r\n", "one\ntwo", "1\n2", false, "1\r\n2\nthree\r\n", "Updated %s."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			p := e.file(t, "f.txt", []byte(tt.initial), true)
			res, err := call(t, New(e.files), map[string]any{"file_path": p, "old_string": tt.old, "new_string": tt.new, "replace_all": tt.all})
			if err != nil {
				t.Fatalf("Edit: %v", err)
			}
			if got := readFile(t, p); got != tt.want {
				t.Errorf("file = %q, want %q", got, tt.want)
			}
			if want := strings.ReplaceAll(tt.text, "%s", p); !strings.HasPrefix(res.Content[0].Text, want) {
				t.Errorf("text = %q, want prefix %q", res.Content[0].Text, want)
			}
			d := res.Data.(*Data)
			if d.FilePath != p || d.OldString != tt.old || d.NewString != tt.new || d.ReplaceAll != tt.all || d.UserModified || len(d.StructuredPatch) == 0 {
				t.Errorf("data = %+v", d)
			}
		})
	}
}

func TestEditErrors(t *testing.T) {
	e := newEnv(t)
	read := e.file(t, "read.txt", []byte("dup\ndup\ndup\nunique\n"), true)
	unread := e.file(t, "unread.txt", []byte("x\n"), false)
	bin := e.file(t, "bin.dat", []byte("a\x00b"), false)
	sub := filepath.Join(e.dir, "folder")
	os.Mkdir(sub, 0o755)
	tests := []struct {
		name string
		in   map[string]any
		want string
	}{
		{"relative path", map[string]any{"file_path": "f.txt", "old_string": "a", "new_string": "b"}, `file_path must be an absolute path, but "f.txt" is relative (did you mean "/work/f.txt"?)`},
		{"identical strings", map[string]any{"file_path": read, "old_string": "a", "new_string": "a"}, "old_string and new_string are identical"},
		{"not unique", map[string]any{"file_path": read, "old_string": "dup", "new_string": "x"}, "old_string occurs 3 times in " + read + ", but it must occur exactly once"},
		{"not found", map[string]any{"file_path": read, "old_string": "absent", "new_string": "x"}, "old_string was not found in " + read},
		{"line numbers copied", map[string]any{"file_path": read, "old_string": "     4\tunique", "new_string": "x"}, "includes line numbers from Read's output"},
		{"not read", map[string]any{"file_path": unread, "old_string": "x", "new_string": "y"}, "has not been read in this session. Read it first"},
		{"binary", map[string]any{"file_path": bin, "old_string": "a", "new_string": "b"}, "is a binary file"},
		{"missing file", map[string]any{"file_path": filepath.Join(e.dir, "nope.txt"), "old_string": "a", "new_string": "b"}, "does not exist. To create it, give an empty old_string"},
		{"directory", map[string]any{"file_path": sub, "old_string": "a", "new_string": "b"}, "is a directory, not a file"},
		{"empty old on a full file", map[string]any{"file_path": read, "old_string": "", "new_string": "b"}, "old_string is empty, but " + read + " already has content"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before, _ := os.ReadFile(read)
			_, err := call(t, New(e.files), tt.in)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want %q", err, tt.want)
			}
			if after, _ := os.ReadFile(read); string(after) != string(before) {
				t.Error("a failed edit changed the file")
			}
		})
	}
}

func TestEditNeedsAFreshRead(t *testing.T) {
	e := newEnv(t)
	p := e.file(t, "f.txt", []byte("one\n"), true)
	ed := New(e.files)

	// Touched without a content change: still fine.
	later := time.Now().Add(time.Hour)
	os.Chtimes(p, later, later)
	if _, err := call(t, ed, map[string]any{"file_path": p, "old_string": "one", "new_string": "two"}); err != nil {
		t.Fatalf("edit after a touch: %v", err)
	}
	// The edit itself updated the record: a second edit needs no read.
	if _, err := call(t, ed, map[string]any{"file_path": p, "old_string": "two", "new_string": "three"}); err != nil {
		t.Fatalf("second edit: %v", err)
	}
	// Someone else changes it: refused until read again.
	os.WriteFile(p, []byte("changed by the user\n"), 0o644)
	_, err := call(t, ed, map[string]any{"file_path": p, "old_string": "user", "new_string": "model"})
	if err == nil || !strings.Contains(err.Error(), "has changed on disk since you last read it") {
		t.Fatalf("edit after an outside change = %v", err)
	}
	e.markRead(t, p)
	if _, err := call(t, ed, map[string]any{"file_path": p, "old_string": "user", "new_string": "model"}); err != nil {
		t.Fatalf("edit after reading again: %v", err)
	}
	if got := readFile(t, p); got != "changed by the model\n" {
		t.Errorf("file = %q", got)
	}
}

func TestEditKeepsFormatAndMode(t *testing.T) {
	tests := []struct {
		name        string
		raw, wanted []byte
	}{
		{"crlf", []byte("a\r\nb\r\n"), []byte("a\r\nB\r\nextra\r\n")},
		{"utf-8 bom", []byte("\xEF\xBB\xBFa\nb\n"), []byte("\xEF\xBB\xBFa\nB\nextra\n")},
		{"utf-16le", []byte{0xFF, 0xFE, 'a', 0, '\n', 0, 'b', 0, '\n', 0}, []byte{0xFF, 0xFE, 'a', 0, '\n', 0, 'B', 0, '\n', 0, 'e', 0, 'x', 0, 't', 0, 'r', 0, 'a', 0, '\n', 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			p := e.file(t, "f", tt.raw, false)
			os.Chmod(p, 0o751)
			e.markRead(t, p)
			if _, err := call(t, New(e.files), map[string]any{"file_path": p, "old_string": "b\n", "new_string": "B\nextra\n"}); err != nil {
				t.Fatal(err)
			}
			if got := readFile(t, p); got != string(tt.wanted) {
				t.Errorf("bytes = %q, want %q", got, tt.wanted)
			}
			if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o751 {
				t.Errorf("mode = %v, want 0751", fi.Mode().Perm())
			}
		})
	}
}

func TestEditCreatesFiles(t *testing.T) {
	e := newEnv(t)
	p := filepath.Join(e.dir, "new", "deep", "f.go")
	res, err := call(t, New(e.files), map[string]any{"file_path": p, "old_string": "", "new_string": "package f\n"})
	if err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, p); got != "package f\n" {
		t.Errorf("file = %q", got)
	}
	if !strings.HasPrefix(res.Content[0].Text, "Created "+p+".") {
		t.Errorf("text = %q", res.Content[0].Text)
	}
	// An empty existing file can be filled the same way (after a read).
	empty := e.file(t, "empty.txt", nil, true)
	if _, err := call(t, New(e.files), map[string]any{"file_path": empty, "old_string": "", "new_string": "now full\n"}); err != nil {
		t.Fatal(err)
	}
}

func TestEditThroughSymlink(t *testing.T) {
	e := newEnv(t)
	target := e.file(t, "target.txt", []byte("old\n"), true)
	link := filepath.Join(e.dir, "link.txt")
	os.Symlink(target, link)
	if _, err := call(t, New(e.files), map[string]any{"file_path": link, "old_string": "old", "new_string": "new"}); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, target); got != "new\n" {
		t.Errorf("target = %q", got)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the link was replaced by a file")
	}
}

func TestMultiEdit(t *testing.T) {
	e := newEnv(t)
	p := e.file(t, "m.go", []byte("func a() {}\nfunc b() {}\nfunc c() {}\n"), true)
	res, err := call(t, NewMulti(e.files), map[string]any{"file_path": p, "edits": []map[string]any{
		{"old_string": "func", "new_string": "fn", "replace_all": true},
		{"old_string": "fn a", "new_string": "fn alpha"},
		{"old_string": "c() {}", "new_string": "c() { return }"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, p); got != "fn alpha() {}\nfn b() {}\nfn c() { return }\n" {
		t.Errorf("file = %q", got)
	}
	d := res.Data.(*MultiData)
	if len(d.Edits) != 3 || d.OriginalFile != "func a() {}\nfunc b() {}\nfunc c() {}\n" || len(d.StructuredPatch) != 1 {
		t.Errorf("data = %+v", d)
	}
	if !strings.HasPrefix(res.Content[0].Text, "Applied 3 edits to "+p) {
		t.Errorf("text = %q", res.Content[0].Text)
	}
}

func TestMultiEditIsAllOrNothing(t *testing.T) {
	e := newEnv(t)
	original := "one\ntwo\nthree\n"
	p := e.file(t, "m.txt", []byte(original), true)
	tests := []struct {
		edits []map[string]any
		want  string
	}{
		{[]map[string]any{{"old_string": "one", "new_string": "1"}, {"old_string": "missing", "new_string": "x"}}, "edits[1].old_string was not found in " + p},
		{[]map[string]any{{"old_string": "one", "new_string": "1"}, {"old_string": "e", "new_string": "E"}}, "edits[1].old_string occurs 2 times"},
		{[]map[string]any{{"old_string": "one", "new_string": "two"}, {"old_string": "two", "new_string": "2"}}, "edits[1].old_string is found in the new_string of edits[0]"},
		{[]map[string]any{{"old_string": "one", "new_string": "uno dos"}, {"old_string": "dos", "new_string": "x"}}, "edits[1].old_string is found in the new_string of edits[0]"},
		{[]map[string]any{{"old_string": "one", "new_string": "1"}, {"old_string": "two", "new_string": "two"}}, "edits[1]: old_string and new_string are identical"},
		{[]map[string]any{}, "edits is empty"},
		{[]map[string]any{{"old_string": "one", "new_string": "1"}, {"old_string": "", "new_string": "x"}}, "edits[1].old_string is empty"},
	}
	for _, tt := range tests {
		_, err := call(t, NewMulti(e.files), map[string]any{"file_path": p, "edits": tt.edits})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: error %v, want %q", tt.edits, err, tt.want)
		}
		if got := readFile(t, p); got != original {
			t.Fatalf("a failed MultiEdit changed the file to %q", got)
		}
	}
}

func TestMultiEditCreates(t *testing.T) {
	e := newEnv(t)
	p := filepath.Join(e.dir, "sub", "new.txt")
	_, err := call(t, NewMulti(e.files), map[string]any{"file_path": p, "edits": []map[string]any{
		{"old_string": "", "new_string": "hello world\n"},
		{"old_string": "world", "new_string": "there"},
	}})
	if err == nil || !strings.Contains(err.Error(), "found in the new_string of edits[0]") {
		t.Fatalf("editing just-inserted text = %v", err)
	}
	_, err = call(t, NewMulti(e.files), map[string]any{"file_path": p, "edits": []map[string]any{{"old_string": "", "new_string": "hello\n"}}})
	if err != nil || readFile(t, p) != "hello\n" {
		t.Fatalf("create: %v", err)
	}
}

func TestStructuredPatch(t *testing.T) {
	old := "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"
	newText := "1\n2\n3\n4\nfive\n6\n7\n8\n9\n10\n11\n"
	got := StructuredPatch(old, newText)
	// Changes six lines apart share one hunk (three lines of context).
	want := []Hunk{{OldStart: 2, OldLines: 9, NewStart: 2, NewLines: 10,
		Lines: []string{" 2", " 3", " 4", "-5", "+five", " 6", " 7", " 8", " 9", " 10", "+11"}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("StructuredPatch (-want +got):\n%s", diff)
	}
	// The hunks must reproduce the change: apply them line by line.
	if applied := applyHunks(old, got); applied != newText {
		t.Errorf("applying the patch gives %q, want %q (hunks %+v)", applied, newText, got)
	}
	for _, h := range got {
		var o, n int
		for _, l := range h.Lines {
			switch l[0] {
			case ' ':
				o, n = o+1, n+1
			case '-':
				o++
			case '+':
				n++
			}
		}
		if o != h.OldLines || n != h.NewLines {
			t.Errorf("hunk counts %d/%d do not match its lines (%d/%d)", h.OldLines, h.NewLines, o, n)
		}
	}
	if StructuredPatch("same\n", "same\n") == nil || len(StructuredPatch("same\n", "same\n")) != 0 {
		t.Error("no change must give an empty patch")
	}
}

// applyHunks applies hunks to text (which ends with a newline).
func applyHunks(text string, hunks []Hunk) string {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	var out []string
	next := 1
	for _, h := range hunks {
		for ; next < h.OldStart; next++ {
			out = append(out, lines[next-1])
		}
		for _, l := range h.Lines {
			switch l[0] {
			case ' ':
				out = append(out, l[1:])
				next++
			case '-':
				next++
			case '+':
				out = append(out, l[1:])
			}
		}
	}
	for ; next <= len(lines); next++ {
		out = append(out, lines[next-1])
	}
	return strings.Join(out, "\n") + "\n"
}

func TestSnippet(t *testing.T) {
	text := "a\nb\nc\nd\ne\nf\ng\n"
	if got := Snippet(text, 4, 4, 1, 10); got != "     3\tc\n     4\td\n     5\te" {
		t.Errorf("Snippet = %q", got)
	}
	if got := Snippet(text, 1, 7, 0, 3); !strings.HasSuffix(got, "… (4 more changed lines not shown)") {
		t.Errorf("cut Snippet = %q", got)
	}
}

func TestCurlQuotes(t *testing.T) {
	if diff := cmp.Diff(`“hi,” she said, ‘it’s (‘x’)’`, curlQuotes(`"hi," she said, 'it's ('x')'`)); diff != "" {
		t.Error(diff)
	}
}

func TestSchemas(t *testing.T) {
	var s tool.Schemas
	fs := filestate.New()
	for _, c := range []struct {
		tl tool.Tool
		in string
		ok bool
	}{
		{New(fs), `{"file_path":"/a","old_string":"x","new_string":"y","replace_all":true}`, true},
		{New(fs), `{"file_path":"/a","old_string":"x"}`, false},
		{NewMulti(fs), `{"file_path":"/a","edits":[{"old_string":"x","new_string":"y"}]}`, true},
		{NewMulti(fs), `{"file_path":"/a","edits":[]}`, false},
		{NewMulti(fs), `{"file_path":"/a","edits":[{"old_string":"x"}]}`, false},
	} {
		if err := s.Validate(c.tl.InputSchema(), json.RawMessage(c.in)); (err == nil) != c.ok {
			t.Errorf("%s schema on %s: %v", c.tl.Name(), c.in, err)
		}
	}
}
