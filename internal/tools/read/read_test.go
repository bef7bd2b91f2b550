package read

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/filestate"
	"reins/internal/llm"
	"reins/internal/tool"
)

type env struct {
	dir   string
	files *filestate.State
	tool  *Tool
}

func newEnv(t *testing.T) *env {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	fs := filestate.New()
	return &env{dir: dir, files: fs, tool: New(fs)}
}

func (e *env) write(t *testing.T, name string, content []byte) string {
	t.Helper()
	p := filepath.Join(e.dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, content, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func (e *env) read(t *testing.T, in map[string]any) (*tool.Result, error) {
	t.Helper()
	raw, _ := json.Marshal(in)
	c := &tool.Call{Cwd: e.dir}
	if err := e.tool.Validate(context.Background(), c, raw); err != nil {
		return nil, err
	}
	return e.tool.Call(context.Background(), c, raw, nil)
}

func lines(n int, format string) string {
	var sb strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&sb, format+"\n", i)
	}
	return sb.String()
}

func TestReadText(t *testing.T) {
	e := newEnv(t)
	small := e.write(t, "small.go", []byte("package main\n\nfunc main() {}\n"))
	crlf := e.write(t, "win.txt", []byte("one\r\ntwo\r\n"))
	utf16 := e.write(t, "u16.txt", []byte{0xFF, 0xFE, 'h', 0, 'i', 0, '\n', 0, 'x', 0})
	long := e.write(t, "long.txt", []byte(lines(2500, "line %d")))
	wide := e.write(t, "wide.txt", []byte(strings.Repeat("é", 2100)+"\nshort\n"))
	empty := e.write(t, "empty.txt", nil)
	noEOL := e.write(t, "noeol.txt", []byte("a\nb"))

	tests := []struct {
		name       string
		in         map[string]any
		text       string // exact, or a prefix when it ends with "…"
		start      int
		num, total int
	}{
		{"numbered cat -n style", map[string]any{"file_path": small}, "     1\tpackage main\n     2\t\n     3\tfunc main() {}", 1, 3, 3},
		{"crlf endings removed", map[string]any{"file_path": crlf}, "     1\tone\n     2\ttwo", 1, 2, 2},
		{"utf-16 decoded", map[string]any{"file_path": utf16}, "     1\thi\n     2\tx", 1, 2, 2},
		{"no final newline", map[string]any{"file_path": noEOL}, "     1\ta\n     2\tb", 1, 2, 2},
		{"offset and limit", map[string]any{"file_path": long, "offset": 10, "limit": 2}, "    10\tline 10\n    11\tline 11\n\n(Showing lines 10-11 of 2500. Read on with offset 12.)", 10, 2, 2500},
		{"offset 0 is the first line", map[string]any{"file_path": small, "offset": 0, "limit": 1}, "     1\tpackage main\n\n(Showing lines 1-1 of 3. Read on with offset 2.)", 1, 1, 3},
		{"default 2000 lines", map[string]any{"file_path": long}, "     1\tline 1\n…", 1, 2000, 2500},
		{"offset past the end", map[string]any{"file_path": small, "offset": 9}, "The file has only 3 lines, fewer than offset 9; nothing to show. Read from an offset of 3 or less.", 9, 0, 3},
		{"empty file", map[string]any{"file_path": empty}, "The file exists but is empty.", 1, 0, 0},
		{"long line cut", map[string]any{"file_path": wide}, "     1\t" + strings.Repeat("é", 2000) + " … [line cut at 2000 characters]\n     2\tshort", 1, 2, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := e.read(t, tt.in)
			if err != nil {
				t.Fatalf("Read: %v", err)
			}
			got := res.Content[0].Text
			if prefix, ok := strings.CutSuffix(tt.text, "…"); ok {
				if !strings.HasPrefix(got, prefix) {
					t.Errorf("text starts %q, want %q", got[:min(len(got), 60)], prefix)
				}
			} else if got != tt.text {
				t.Errorf("text = %q, want %q", got, tt.text)
			}
			d := res.Data.(*TextData)
			if d.Type != "text" || d.File.FilePath != tt.in["file_path"] || d.File.StartLine != tt.start || d.File.NumLines != tt.num || d.File.TotalLines != tt.total {
				t.Errorf("data = %+v", d.File)
			}
		})
	}
}

func TestReadDefaultStopsAt2000Lines(t *testing.T) {
	e := newEnv(t)
	p := e.write(t, "long.txt", []byte(lines(2500, "line %d")))
	res, _ := e.read(t, map[string]any{"file_path": p})
	got := res.Content[0].Text
	if !strings.Contains(got, "  2000\tline 2000\n\n(Showing lines 1-2000 of 2500. Read on with offset 2001.)") || strings.Contains(got, "line 2001") {
		t.Errorf("default read does not stop at line 2000: ends %q", got[len(got)-80:])
	}
	if c := res.Data.(*TextData).File.Content; !strings.HasPrefix(c, "line 1\nline 2\n") || strings.Contains(c, "\t") {
		t.Errorf("Data content should be the raw lines: %q", c[:30])
	}
}

func TestReadErrors(t *testing.T) {
	e := newEnv(t)
	big := e.write(t, "big.txt", []byte(lines(30000, "a fairly ordinary line of text number %d")))
	dense := e.write(t, "dense.txt", []byte(strings.Repeat(strings.Repeat("x", 1000)+"\n", 200)))
	bin := e.write(t, "data.txt", []byte("abc\x00def"))
	e.write(t, "notes.md", []byte("x"))
	exe := e.write(t, "tool.exe", []byte("MZ"))
	fakeImg := e.write(t, "fake.png", []byte("not an image at all"))
	bad := e.write(t, "broken.ipynb", []byte("{not json"))

	tests := []struct {
		name string
		in   map[string]any
		want string
	}{
		{"relative path", map[string]any{"file_path": "notes.md"}, `file_path must be an absolute path, but "notes.md" is relative (did you mean "` + filepath.Join(e.dir, "notes.md") + `"?)`},
		{"missing file suggests a sibling", map[string]any{"file_path": filepath.Join(e.dir, "notes.txt")}, "does not exist. Did you mean " + filepath.Join(e.dir, "notes.md") + "?"},
		{"directory", map[string]any{"file_path": e.dir}, "is a directory, not a file"},
		{"over 256 KB without a range", map[string]any{"file_path": big}, "more than the 256 KB that can be read at once. Read it in parts with offset and limit"},
		{"too many tokens", map[string]any{"file_path": dense}, "more than the 25000 allowed in one read"},
		{"binary content", map[string]any{"file_path": bin}, "binary data and cannot be shown as text"},
		{"binary extension", map[string]any{"file_path": exe}, "is a binary file (.exe)"},
		{"image extension, other content", map[string]any{"file_path": fakeImg}, "its content is not PNG, JPEG, GIF or WebP"},
		{"negative offset", map[string]any{"file_path": big, "offset": -1}, "offset must be 0 or more"},
		{"zero limit", map[string]any{"file_path": big, "limit": 0}, "limit must be at least 1"},
		{"pages on a text file", map[string]any{"file_path": big, "pages": "1"}, "pages applies only to PDF files"},
		{"broken notebook", map[string]any{"file_path": bad}, "is not a valid Jupyter notebook"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := e.read(t, tt.in)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want it to contain %q", err, tt.want)
			}
		})
	}
	if e.files.Len() != 0 {
		t.Errorf("failed reads were recorded: %d entries", e.files.Len())
	}
}

func TestReadLargeFileInParts(t *testing.T) {
	e := newEnv(t)
	p := e.write(t, "big.txt", []byte(lines(30000, "row %d")))
	for _, stream := range []bool{false, true} {
		if stream {
			e.tool.streamAbove = 1
		}
		res, err := e.read(t, map[string]any{"file_path": p, "offset": 29999, "limit": 5})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Content[0].Text; got != " 29999\trow 29999\n 30000\trow 30000" {
			t.Errorf("stream=%v: text = %q", stream, got)
		}
		entry, _ := e.files.Get(p)
		b, _ := os.ReadFile(p)
		if entry.Hash != filestate.Hash(b) || entry.Full || entry.Offset != 29999 || entry.Limit != 5 {
			t.Errorf("stream=%v: recorded %+v", stream, entry)
		}
	}
}

func TestReadRecordsFileState(t *testing.T) {
	e := newEnv(t)
	p := e.write(t, "a.txt", []byte("one\ntwo\n"))
	link := filepath.Join(e.dir, "link.txt")
	os.Symlink(p, link)
	if _, err := e.read(t, map[string]any{"file_path": link}); err != nil {
		t.Fatal(err)
	}
	entry, ok := e.files.Get(p)
	if !ok || !entry.Full || entry.Hash != filestate.Hash([]byte("one\ntwo\n")) || entry.Size != 8 {
		t.Errorf("entry for the link's target = %+v, %v", entry, ok)
	}
	if _, ok := e.files.Get(link); ok {
		t.Error("entry recorded under the link's own path")
	}
}

func pngBytes(t *testing.T, w, h int, noisy bool) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	r := rand.New(rand.NewPCG(1, 2))
	for y := range h {
		for x := range w {
			c := color.RGBA{uint8(x), uint8(y), 100, 255}
			if noisy {
				c = color.RGBA{uint8(r.IntN(256)), uint8(r.IntN(256)), uint8(r.IntN(256)), 255}
			}
			img.Set(x, y, c)
		}
	}
	var buf bytes.Buffer
	png.Encode(&buf, img)
	return buf.Bytes()
}

func TestReadImage(t *testing.T) {
	e := newEnv(t)
	b := pngBytes(t, 40, 30, false)
	p := e.write(t, "pic.png", b)
	res, err := e.read(t, map[string]any{"file_path": p})
	if err != nil {
		t.Fatal(err)
	}
	blk := res.Content[0]
	if len(res.Content) != 1 || blk.Type != llm.BlockImage || blk.Source.MediaType != "image/png" || blk.Source.Type != "base64" {
		t.Fatalf("content = %+v", res.Content)
	}
	d := res.Data.(*ImageData)
	if d.Type != "image" || d.File.Type != "image/png" || d.File.OriginalSize != int64(len(b)) || *d.File.Dimensions != (Dimensions{40, 30, 40, 30}) || d.File.Base64 != blk.Source.Data {
		t.Errorf("data = %+v", d.File.Dimensions)
	}
	if _, ok := e.files.Get(p); !ok {
		t.Error("image read not recorded")
	}
}

func TestReadLargeImageIsScaledDown(t *testing.T) {
	e := newEnv(t)
	e.tool.maxImageBytes = 20_000
	p := e.write(t, "noise.png", pngBytes(t, 300, 200, true))
	res, err := e.read(t, map[string]any{"file_path": p})
	if err != nil {
		t.Fatal(err)
	}
	d := res.Data.(*ImageData)
	if d.File.Type != "image/jpeg" || len(res.Content[0].Source.Data)*3/4 > 20_000 {
		t.Errorf("scaled image: type %s, %d base64 bytes", d.File.Type, len(res.Content[0].Source.Data))
	}
	dm := d.File.Dimensions
	if dm.OriginalWidth != 300 || dm.DisplayWidth >= 300 || dm.DisplayHeight*300 != dm.DisplayWidth*200 && abs(dm.DisplayHeight*3-dm.DisplayWidth*2) > 3 {
		t.Errorf("dimensions = %+v", dm)
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func TestReadNotebook(t *testing.T) {
	e := newEnv(t)
	img := base64.StdEncoding.EncodeToString(pngBytes(t, 2, 2, false))
	nb := `{"cells":[
 {"cell_type":"markdown","id":"intro","metadata":{},"source":["# Title\n","text"]},
 {"cell_type":"code","execution_count":3,"metadata":{},"outputs":[
   {"output_type":"stream","name":"stdout","text":["hello\n"]},
   {"output_type":"display_data","data":{"image/png":"` + img + `","text/plain":["<Figure>"]},"metadata":{}},
   {"output_type":"error","ename":"ValueError","evalue":"bad","traceback":["\u001b[31mTraceback\u001b[0m","line 1"]}
 ],"source":"print('hello')"}
],"metadata":{"language_info":{"name":"python"}},"nbformat":4,"nbformat_minor":4}`
	p := e.write(t, "nb.ipynb", []byte(nb))
	res, err := e.read(t, map[string]any{"file_path": p})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Content) != 3 || res.Content[1].Type != llm.BlockImage || res.Content[1].Source.Data != img {
		t.Fatalf("content blocks = %+v", res.Content)
	}
	first, last := res.Content[0].Text, res.Content[2].Text
	wantFirst := "<cell id=\"intro\" cell_type=\"markdown\">\n# Title\ntext\n</cell>\n<cell id=\"cell-1\" cell_type=\"code\">\nprint('hello')\n</cell>\n<output cell=\"cell-1\" type=\"stream\">\nhello\n</output>\n<output cell=\"cell-1\" type=\"display_data\">\n<Figure>\n</output>"
	if first != wantFirst {
		t.Errorf("text before the image =\n%s\nwant\n%s", first, wantFirst)
	}
	if last != "<output cell=\"cell-1\" type=\"error\">\nValueError: bad\nTraceback\nline 1\n</output>" {
		t.Errorf("text after the image = %q", last)
	}
	d := res.Data.(*NotebookData)
	if d.Type != "notebook" || len(d.File.Cells) != 2 || d.File.Cells[1].CellID != "cell-1" || d.File.Cells[1].Language != "python" || *d.File.Cells[1].ExecutionCount != 3 || len(d.File.Cells[1].Outputs) != 3 {
		t.Errorf("data = %+v", d)
	}
	if _, ok := e.files.Get(p); !ok {
		t.Error("notebook read not recorded")
	}
}

// fakePDFToText installs a pdftotext stand-in that prints n pages (or the
// requested range of them) separated by form feeds.
func fakePDFToText(t *testing.T, e *env, n int) {
	t.Helper()
	script := fmt.Sprintf(`#!/bin/sh
first=1; last=%d
while [ $# -gt 0 ]; do
  case "$1" in -f) first=$2; shift;; -l) last=$2; shift;; esac
  shift
done
[ $last -gt %d ] && last=%d
i=$first
while [ $i -le $last ]; do printf 'text of page %%d\n\f' $i; i=$((i+1)); done
`, n, n, n)
	p := filepath.Join(t.TempDir(), "pdftotext")
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	e.tool.LookPath = func(name string) (string, error) {
		if name == "pdftotext" {
			return p, nil
		}
		return "", fmt.Errorf("%s not found", name)
	}
}

func TestReadPDF(t *testing.T) {
	e := newEnv(t)
	p := e.write(t, "doc.pdf", []byte("%PDF-1.4 fake"))
	fakePDFToText(t, e, 3)
	res, err := e.read(t, map[string]any{"file_path": p})
	if err != nil {
		t.Fatal(err)
	}
	want := "--- Page 1 ---\ntext of page 1\n--- Page 2 ---\ntext of page 2\n--- Page 3 ---\ntext of page 3"
	if got := res.Content[0].Text; got != want {
		t.Errorf("text = %q", got)
	}
	res, _ = e.read(t, map[string]any{"file_path": p, "pages": "2-3"})
	if got := res.Content[0].Text; got != "--- Page 2 ---\ntext of page 2\n--- Page 3 ---\ntext of page 3" {
		t.Errorf("pages 2-3 text = %q", got)
	}
}

func TestReadPDFErrors(t *testing.T) {
	e := newEnv(t)
	p := e.write(t, "doc.pdf", []byte("%PDF-1.4 fake"))
	e.tool.LookPath = func(string) (string, error) { return "", fmt.Errorf("not found") }
	if _, err := e.read(t, map[string]any{"file_path": p}); err == nil || !strings.Contains(err.Error(), "needs the pdftotext program") {
		t.Errorf("without pdftotext: %v", err)
	}
	fakePDFToText(t, e, 30)
	tests := []struct {
		pages string
		want  string
	}{
		{"", "has more than 10 pages; pass pages"},
		{"1-21", "asks for 21 pages; at most 20"},
		{"5-2", "must not run backwards"},
		{"0", "pages count from 1"},
		{"abc", `pages must be a page number or a range such as "1-5", got "abc"`},
	}
	for _, tt := range tests {
		in := map[string]any{"file_path": p}
		if tt.pages != "" {
			in["pages"] = tt.pages
		}
		if _, err := e.read(t, in); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("pages %q: %v, want %q", tt.pages, err, tt.want)
		}
	}
	if _, err := e.read(t, map[string]any{"file_path": p, "pages": "11-30"}); err != nil {
		t.Errorf("20 pages of a 30-page PDF: %v", err)
	}
}

func TestSchema(t *testing.T) {
	var s tool.Schemas
	tl := New(filestate.New())
	for in, ok := range map[string]bool{
		`{"file_path":"/a"}`: true,
		`{"file_path":"/a","offset":0,"limit":5,"pages":"1"}`: true,
		`{"file_path":"/a","limit":0}`:                        false,
		`{"file_path":"/a","offset":-1}`:                      false,
		`{"offset":1}`:                                        false,
		`{"file_path":"/a","extra":true}`:                     false,
	} {
		if err := s.Validate(tl.InputSchema(), json.RawMessage(in)); (err == nil) != ok {
			t.Errorf("schema on %s: %v", in, err)
		}
	}
	if !tl.IsReadOnly(nil) || !tl.IsConcurrencySafe(nil) || tl.MaxResultChars() != tool.NoLimit {
		t.Error("Read must be read-only, concurrency-safe and exempt from persistence")
	}
}

// FuzzLineWindowAgreesWithSplitLines: the window is exactly the slice of
// splitLines it stands for, and the count is splitLines's length.
func FuzzLineWindowAgreesWithSplitLines(f *testing.F) {
	f.Add("a\nb\r\nc\n", 1, 2)
	f.Add("", 1, 5)
	f.Add("\n\n\n", 2, 1)
	f.Add("only", 3, 10)
	f.Add("x\ny", 2, 0)
	f.Fuzz(func(t *testing.T, s string, start, limit int) {
		if start < 1 || limit < 0 || start > 1<<16 || limit > 1<<16 {
			return
		}
		all := splitLines(s)
		got, total := lineWindow(s, start, limit)
		if total != len(all) {
			t.Fatalf("lineWindow(%q, %d, %d) total %d, want %d", s, start, limit, total, len(all))
		}
		var want []string
		if start <= len(all) {
			want = all[start-1 : min(len(all), start-1+limit)]
		}
		if len(got) != len(want) {
			t.Fatalf("lineWindow(%q, %d, %d) = %q, want %q", s, start, limit, got, want)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("lineWindow(%q, %d, %d) = %q, want %q", s, start, limit, got, want)
			}
		}
	})
}
