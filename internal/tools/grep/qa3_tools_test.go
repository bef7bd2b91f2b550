package grep

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// In a minified file the match may lie far into one huge line; content
// mode must show the text around the match, not only the line's start.
func TestContentShowsTheMatchInALongLine(t *testing.T) {
	dir := t.TempDir()
	line := strings.Repeat("var a=1;", 5000) + "findMeHere(42)" + strings.Repeat(";b=2", 500)
	if err := os.WriteFile(filepath.Join(dir, "app.min.js"), []byte(line+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := run(t, dir, `{"pattern":"findMe\\w+\\(\\d+\\)","output_mode":"content"}`)
	if err != nil {
		t.Fatal(err)
	}
	got := text(res)
	if !strings.Contains(got, "findMeHere(42)") {
		t.Errorf("the match is not shown: %.200q…", got)
	}
	if len(got) > 2*MaxLineChars {
		t.Errorf("result is %d bytes; the line should be cut to about %d", len(got), MaxLineChars)
	}
	if !strings.HasPrefix(got, "app.min.js:1:[line cut: ") || !strings.Contains(got, "bytes before] … ") || !strings.HasSuffix(got, " more bytes]") {
		t.Errorf("cut not marked on both sides: %q", got)
	}
	// A match near the start keeps the line's start, as before.
	res, err = run(t, dir, `{"pattern":"var a=1","output_mode":"content"}`)
	if err != nil {
		t.Fatal(err)
	}
	if got := text(res); !strings.HasPrefix(got, "app.min.js:1:var a=1;") {
		t.Errorf("match at the start: %.100q", got)
	}
}

// A match that runs over most of a huge line is cut like any long line.
func TestContentCutsALongMatch(t *testing.T) {
	dir := t.TempDir()
	line := strings.Repeat("x", 3000) + "start" + strings.Repeat("y", 100000) + "end"
	if err := os.WriteFile(filepath.Join(dir, "long.txt"), []byte(line+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, pattern := range []string{"start.*end", "x+start"} {
		res, err := run(t, dir, `{"pattern":"`+pattern+`","output_mode":"content"}`)
		if err != nil {
			t.Fatal(err)
		}
		if got := text(res); len(got) > 2*MaxLineChars {
			t.Errorf("%s: result is %d bytes", pattern, len(got))
		}
	}
}

// A glob written with a leading "./" filters as it would without it.
func TestGlobFilterWithDotSlash(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"src/a/x.ts", "test/y.ts", "z.ts"} {
		p := filepath.Join(dir, filepath.FromSlash(f))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("foo\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res, err := run(t, dir, `{"pattern":"foo","glob":"./src/**/*.ts"}`)
	if err != nil {
		t.Fatal(err)
	}
	if got := text(res); got != "Found 1 file\nsrc/a/x.ts" {
		t.Errorf("glob ./src/**/*.ts = %q", got)
	}
	res, err = run(t, dir, `{"pattern":"foo","glob":"!./test/**"}`)
	if err != nil {
		t.Fatal(err)
	}
	if got := text(res); !strings.HasPrefix(got, "Found 2 files") || strings.Contains(got, "test/y.ts") {
		t.Errorf("glob !./test/** = %q", got)
	}
}
