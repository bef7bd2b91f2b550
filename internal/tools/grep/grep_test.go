package grep

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"reins/internal/llm"
	"reins/internal/tool"
)

// fixture builds a small project and returns its folder. Files get
// modification times one minute apart in the order listed, the last one
// newest.
func fixture(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := []struct{ name, content string }{
		{".git/HEAD", "ref: refs/heads/main\n"},
		{".gitignore", "dist/\n"},
		{"old.go", "package main\n\nfunc NewReader() {}\n"},
		{"lib/util.go", "package lib\n\n// helper\nfunc helper() int {\n\treturn 1\n}\n\nfunc other() {}\n"},
		{"lib/util_test.go", "package lib\n\nfunc TestHelper() { helper() }\n"},
		{"web/app.ts", "const x = helper();\n"},
		{"web/app.js", "var HELPER = 1;\n"},
		{"dist/bundle.js", "helper()\n"},
		{".env", "HELPER=1\n"},
		{"data.bin", "helper\x00\x01\x02"},
		{"new.go", "package main\n\nfunc main() { helper() }\n"},
	}
	base := time.Now().Add(-time.Hour)
	for i, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f.content), 0o644); err != nil {
			t.Fatal(err)
		}
		mt := base.Add(time.Duration(i) * time.Minute)
		if err := os.Chtimes(p, mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func run(t *testing.T, dir string, input string) (*tool.Result, error) {
	t.Helper()
	g := New()
	c := &tool.Call{ID: "toolu_1", Name: Name, Cwd: dir}
	if err := (&tool.Schemas{}).Validate(g.InputSchema(), json.RawMessage(input)); err != nil {
		return nil, err
	}
	if err := g.Validate(context.Background(), c, json.RawMessage(input)); err != nil {
		return nil, err
	}
	return g.Call(context.Background(), c, json.RawMessage(input), nil)
}

func text(r *tool.Result) string {
	var sb strings.Builder
	for _, b := range r.Content {
		if b.Type == llm.BlockText {
			sb.WriteString(b.Text)
		}
	}
	return sb.String()
}

func TestGrep(t *testing.T) {
	dir := fixture(t)
	tests := []struct {
		name  string
		input string
		want  string
	}{
		{
			name:  "files with matches, newest first, ignoring dist, hidden and binary files",
			input: `{"pattern":"helper"}`,
			want:  "Found 4 files\nnew.go\nweb/app.ts\nlib/util_test.go\nlib/util.go",
		},
		{
			name:  "case-insensitive",
			input: `{"pattern":"helper","-i":true,"type":"js"}`,
			want:  "Found 1 file\nweb/app.js",
		},
		{
			name:  "content with line numbers",
			input: `{"pattern":"func \\w+\\(\\)","output_mode":"content","path":"lib"}`,
			want:  "lib/util.go:4:func helper() int {\nlib/util.go:8:func other() {}\nlib/util_test.go:3:func TestHelper() { helper() }",
		},
		{
			name:  "content without line numbers",
			input: `{"pattern":"NewReader","output_mode":"content","-n":false}`,
			want:  "old.go:func NewReader() {}",
		},
		{
			name:  "context lines and separators",
			input: `{"pattern":"func","output_mode":"content","-B":1,"glob":"lib/*.go"}`,
			want: "lib/util.go-3-// helper\nlib/util.go:4:func helper() int {\n--\nlib/util.go-7-\nlib/util.go:8:func other() {}\n--\n" +
				"lib/util_test.go-2-\nlib/util_test.go:3:func TestHelper() { helper() }",
		},
		{
			name:  "-C sets both sides",
			input: `{"pattern":"return","output_mode":"content","-C":1}`,
			want:  "lib/util.go-4-func helper() int {\nlib/util.go:5:\treturn 1\nlib/util.go-6-}",
		},
		{
			name:  "count",
			input: `{"pattern":"helper","output_mode":"count"}`,
			want:  "lib/util.go:2\nlib/util_test.go:1\nnew.go:1\nweb/app.ts:1\n\n5 matching lines in 4 files",
		},
		{
			name:  "glob list with exclusion",
			input: `{"pattern":"helper","glob":"*.go !*_test.go"}`,
			want:  "Found 2 files\nnew.go\nlib/util.go",
		},
		{
			name:  "head limit and offset page the files",
			input: `{"pattern":"helper","head_limit":2,"offset":1}`,
			want:  "Found 2 files [results paged: limit 2, offset 1; raise offset for more]\nweb/app.ts\nlib/util_test.go",
		},
		{
			name:  "head limit 0 means everything",
			input: `{"pattern":"helper","head_limit":0}`,
			want:  "Found 4 files\nnew.go\nweb/app.ts\nlib/util_test.go\nlib/util.go",
		},
		{
			name:  "multiline",
			input: `{"pattern":"helper\\(\\) int \\{\\s+return","multiline":true,"output_mode":"content"}`,
			want:  "lib/util.go:4:func helper() int {\nlib/util.go:5:\treturn 1",
		},
		{
			name:  "a single file named as path",
			input: `{"pattern":"HELPER","path":".env","output_mode":"content"}`,
			want:  ".env:1:HELPER=1",
		},
		{
			name:  "nothing found",
			input: `{"pattern":"no such text anywhere"}`,
			want:  "No files found",
		},
		{
			name:  "nothing found in content mode",
			input: `{"pattern":"no such text anywhere","output_mode":"content"}`,
			want:  "No matches found",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := run(t, dir, tt.input)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, text(r)); diff != "" {
				t.Errorf("text (-want +got):\n%s", diff)
			}
		})
	}
}

func TestGrepStructuredResult(t *testing.T) {
	dir := fixture(t)
	r, err := run(t, dir, `{"pattern":"helper","head_limit":1}`)
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(r.Data)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"mode":"files_with_matches","numFiles":1,"filenames":["new.go"],"appliedLimit":1}`
	if string(got) != want {
		t.Errorf("data = %s, want %s", got, want)
	}

	r, err = run(t, dir, `{"pattern":"helper","output_mode":"count"}`)
	if err != nil {
		t.Fatal(err)
	}
	out := r.Data.(*Output)
	if out.Mode != ModeCount || out.NumFiles != 4 || out.NumMatches != 5 {
		t.Errorf("count data = %+v", out)
	}

	r, err = run(t, dir, `{"pattern":"helper","output_mode":"content","head_limit":2}`)
	if err != nil {
		t.Fatal(err)
	}
	out = r.Data.(*Output)
	if out.Mode != ModeContent || out.NumLines != 2 || out.AppliedLimit == nil || *out.AppliedLimit != 2 {
		t.Errorf("content data = %+v", out)
	}
}

func TestGrepLongLinesAreCut(t *testing.T) {
	dir := t.TempDir()
	long := "needle " + strings.Repeat("é", 400)
	if err := os.WriteFile(filepath.Join(dir, "min.js"), []byte(long+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := run(t, dir, `{"pattern":"needle","output_mode":"content"}`)
	if err != nil {
		t.Fatal(err)
	}
	got := text(r)
	if !strings.Contains(got, "[line cut: ") || len(got) > MaxLineChars+60 {
		t.Errorf("long line shown as %d bytes: %.80q...", len(got), got)
	}
}

func TestGrepErrors(t *testing.T) {
	dir := fixture(t)
	tests := []struct {
		name  string
		input string
		want  string
	}{
		{"invalid regex", `{"pattern":"func("}`, "pattern: invalid regular expression"},
		{"missing path", `{"pattern":"x","path":"nope"}`, "does not exist"},
		{"unknown type", `{"pattern":"x","type":"klingon"}`, `unknown file type "klingon"`},
		{"invalid glob", `{"pattern":"x","glob":"*.[ch"}`, `invalid glob "*.[ch"`},
		{"bad mode", `{"pattern":"x","output_mode":"lines"}`, "output_mode"},
		{"negative context", `{"pattern":"x","-A":-1}`, "-A must be a whole number"},
		{"fractional limit", `{"pattern":"x","head_limit":2.5}`, "head_limit must be a whole number"},
		{"missing pattern", `{"path":"."}`, "pattern"},
		{"unknown field", `{"pattern":"x","recursive":true}`, "recursive"},
		{"newline without multiline", `{"pattern":"a\\nb"}`, "multiline"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := run(t, dir, tt.input)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestGrepIsReadOnlyAndConcurrencySafe(t *testing.T) {
	g := New()
	in := json.RawMessage(`{"pattern":"x"}`)
	if !g.IsReadOnly(in) || !g.IsConcurrencySafe(in) {
		t.Error("Grep must be read-only and concurrency-safe")
	}
	if g.MaxResultChars() != 20_000 {
		t.Errorf("MaxResultChars = %d", g.MaxResultChars())
	}
	if g.Name() != "Grep" || !strings.Contains(g.Description(), "ripgrep") {
		t.Error("name or description")
	}
}

// FuzzGrepInput feeds arbitrary input objects to the tool's own parsing:
// it must answer with a query or an error naming a field, never panic.
func FuzzGrepInput(f *testing.F) {
	f.Add(`{"pattern":"x","glob":"*.{go,ts} !*_test.go","type":"go","-C":2,"head_limit":0}`)
	f.Add(`{"pattern":"(","output_mode":"count"}`)
	f.Add(`{"pattern":"a","-A":1e300,"offset":-3}`)
	f.Add(`{"pattern":"a","path":"../../../../etc","type":"py,make,klingon"}`)
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, input string) {
		q, err := parse(&tool.Call{Cwd: dir}, json.RawMessage(input))
		if err == nil && (q.matcher == nil || q.limit < 0 || q.offset < 0 || q.before < 0 || q.after < 0) {
			t.Fatalf("accepted %s as %+v", input, q)
		}
	})
}
