package search

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestContentLinesWithContext(t *testing.T) {
	text := "1\n2 hit\n3\n4\n5\n6\n7 hit\n8 hit\n9\n10\n11\n12 hit"
	tests := []struct {
		name          string
		before, after int
		want          []Line
	}{
		{"matches only", 0, 0, []Line{{2, "2 hit", false}, {7, "7 hit", false}, {8, "8 hit", false}, {12, "12 hit", false}}},
		{"after", 1, 0, []Line{
			{1, "1", true}, {2, "2 hit", false}, {6, "6", true}, {7, "7 hit", false}, {8, "8 hit", false},
			{11, "11", true}, {12, "12 hit", false}}},
		{"before and after merge", 2, 2, []Line{
			{1, "1", true}, {2, "2 hit", false}, {3, "3", true}, {4, "4", true}, {5, "5", true}, {6, "6", true},
			{7, "7 hit", false}, {8, "8 hit", false}, {9, "9", true}, {10, "10", true}, {11, "11", true}, {12, "12 hit", false}}},
		{"after only", 0, 1, []Line{
			{2, "2 hit", false}, {3, "3", true}, {7, "7 hit", false}, {8, "8 hit", false}, {9, "9", true}, {12, "12 hit", false}}},
	}
	m, err := Compile("hit", MatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &searcher{m: m, opts: Options{Mode: Content, Before: tt.before, After: tt.after}}
			fm := s.match([]byte(text), false)
			if diff := cmp.Diff(tt.want, fm.Lines); diff != "" {
				t.Errorf("lines (-want +got):\n%s", diff)
			}
			if fm.Count != 4 {
				t.Errorf("count = %d, want 4", fm.Count)
			}
		})
	}
}

func TestMultilineContentReportsEveryLineOfAMatch(t *testing.T) {
	text := "type T struct {\n\ta int\n\tfield string\n}\nx\n"
	m, err := Compile(`struct \{.*?field`, MatchOptions{Multiline: true})
	if err != nil {
		t.Fatal(err)
	}
	s := &searcher{m: m, opts: Options{Mode: Content, After: 1}}
	fm := s.match([]byte(text), false)
	want := []Line{{1, "type T struct {", false}, {2, "\ta int", false}, {3, "\tfield string", false}, {4, "}", true}}
	if diff := cmp.Diff(want, fm.Lines); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
	s.opts.Mode = Count
	if got := s.match([]byte("a\nb\na\nb\n"), false).Count; got != 0 {
		t.Errorf("count of a pattern that does not match = %d", got)
	}
	m2, _ := Compile(`a\nb`, MatchOptions{Multiline: true})
	s2 := &searcher{m: m2, opts: Options{Mode: Count}}
	if got := s2.match([]byte("a\nb\na\nb\nxx a\nb yy a\nb\n"), false).Count; got != 4 {
		t.Errorf("multiline count = %d, want 4 (one per match, as ripgrep)", got)
	}
}

func TestSearchModes(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"a.go": "x\nneedle\nneedle again\n",
		"b.go": "needle\n",
		"c.go": "nothing\n",
	})
	m, _ := Compile("needle", MatchOptions{})
	ctx := context.Background()

	res, err := Search(ctx, dir, m, Options{Mode: Count, ModTime: true})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range res.Files {
		got = append(got, filepath.Base(f.Path)+":"+string(rune('0'+f.Count)))
		if f.ModTime.IsZero() || time.Since(f.ModTime) > time.Hour {
			t.Errorf("%s: ModTime = %v", f.Path, f.ModTime)
		}
	}
	if want := "a.go:2 b.go:1"; strings.Join(got, " ") != want {
		t.Errorf("count mode = %q, want %q", strings.Join(got, " "), want)
	}

	res, err = Search(ctx, dir, m, Options{Mode: FilesWithMatches})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Files) != 2 || res.Files[0].Count != 1 || res.Files[0].Lines != nil {
		t.Errorf("files mode = %+v", res.Files)
	}
}

func TestBinaryDetectionFollowsRipgrepBuffers(t *testing.T) {
	line := strings.Repeat("x", 99) + "\n" // 100 bytes
	big := strings.Repeat(line, 1000)      // 100,000 bytes: past the first 64 KiB buffer
	tests := []struct {
		name string
		text string
		want int // matching lines reported
	}{
		{"NUL in the first buffer hides everything", "needle\n" + "\x00" + big, 0},
		{"NUL after the first buffer keeps earlier lines", "needle\n" + big + "\x00needle\n", 1},
		{"text file", "needle\n" + big + "needle\n", 2},
	}
	m, _ := Compile("needle", MatchOptions{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, map[string]string{"f": tt.text})
			res, err := Search(context.Background(), dir, m, Options{Mode: Content})
			if err != nil {
				t.Fatal(err)
			}
			got := 0
			if len(res.Files) == 1 {
				got = len(res.Files[0].Lines)
			}
			if got != tt.want {
				t.Errorf("lines reported = %d, want %d", got, tt.want)
			}
			// Count mode leaves out a file whose search stopped at binary
			// data, as ripgrep does.
			res, err = Search(context.Background(), dir, m, Options{Mode: Count})
			if err != nil {
				t.Fatal(err)
			}
			if wantFiles := map[bool]int{true: 1, false: 0}[tt.name == "text file"]; len(res.Files) != wantFiles {
				t.Errorf("count mode reports %d files, want %d", len(res.Files), wantFiles)
			}
		})
	}
}

func TestByteOrderMarks(t *testing.T) {
	utf16le := []byte{0xFF, 0xFE}
	for _, r := range "hello\nneedle\n" {
		utf16le = append(utf16le, byte(r), 0)
	}
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"utf8.txt":  "\xEF\xBB\xBFneedle at the start\n",
		"utf16.txt": string(utf16le),
	})
	m, _ := Compile("^needle", MatchOptions{})
	res, err := Search(context.Background(), dir, m, Options{Mode: Content})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range res.Files {
		for _, l := range f.Lines {
			got = append(got, filepath.Base(f.Path)+":"+l.Text)
		}
	}
	want := []string{"utf16.txt:needle", "utf8.txt:needle at the start"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
}

func TestReadAllReadsSmallGrownAndMappedFiles(t *testing.T) {
	dir := t.TempDir()
	for _, size := range []int{0, 10, 256 << 10, 300 << 10, 1 << 20} {
		want := strings.Repeat("0123456789abcdef", size/16+1)[:size]
		p := filepath.Join(dir, "f")
		writeTree(t, dir, map[string]string{"f": want})
		fh, err := openFilePath(p)
		if err != nil {
			t.Fatal(err)
		}
		wk := &worker{mmapMin: 512 << 10}
		data, release, err := wk.readAll(fh)
		if err != nil {
			t.Fatal(err)
		}
		if string(data) != want {
			t.Errorf("size %d: read %d bytes that differ", size, len(data))
		}
		if mapped := release != nil; mapped != (size > 512<<10) {
			t.Errorf("size %d: mapped = %v", size, mapped)
		}
		if release != nil {
			release()
		}
		fh.close()
	}
}
