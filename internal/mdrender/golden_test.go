package mdrender

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
)

var update = flag.Bool("update", false, "rewrite testdata/golden from the current output")

var goldenWidths = []int{20, 40, 80}

func goldenInputs(t testing.TB) []string {
	t.Helper()
	names, err := filepath.Glob("testdata/*.md")
	if err != nil || len(names) == 0 {
		t.Fatalf("no inputs in testdata: %v", err)
	}
	for i, n := range names {
		names[i] = filepath.Base(n)
	}
	return names
}

func readInput(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestGolden renders every testdata/*.md at several widths in both modes
// and compares with testdata/golden (run with -update to rewrite; the
// colour files show their styles with `cat`).
func TestGolden(t *testing.T) {
	for _, name := range goldenInputs(t) {
		src := readInput(t, name)
		for _, w := range goldenWidths {
			for _, color := range []bool{false, true} {
				mode := "plain"
				if color {
					mode = "color"
				}
				file := filepath.Join("testdata", "golden", fmt.Sprintf("%s.w%d.%s.txt", strings.TrimSuffix(name, ".md"), w, mode))
				got := Render(src, Options{Width: w, Color: color}) + "\n"
				if *update {
					if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want, err := os.ReadFile(file)
				if err != nil {
					t.Fatalf("%v (run go test -update to create it)", err)
				}
				if got != string(want) {
					t.Errorf("%s differs from the golden file:\n%s", file, firstDiff(string(want), got))
				}
			}
		}
	}
}

func firstDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(wl), len(gl)); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return fmt.Sprintf("line %d:\nwant %q\n got %q", i+1, w, g)
		}
	}
	return "same lines"
}

// checkLayout asserts the layout rules every output keeps: no line wider
// than width (a single cluster wider than what is left may overflow), no
// trailing spaces, no blank first or last line.
func checkLayout(t testing.TB, src, out string, width int) {
	t.Helper()
	if out == "" {
		return
	}
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		plain := stripANSI(l)
		if w := textWidth(plain); w > width {
			t.Errorf("line %d is %d columns wide, more than %d: %q\ninput: %q", i+1, w, width, plain, src)
		}
		if strings.HasSuffix(plain, " ") {
			t.Errorf("line %d ends in a space: %q\ninput: %q", i+1, plain, src)
		}
	}
	if strings.TrimSpace(stripANSI(lines[0])) == "" || strings.TrimSpace(stripANSI(lines[len(lines)-1])) == "" {
		t.Errorf("output starts or ends with a blank line: %q\ninput: %q", out, src)
	}
}

// stripANSI removes SGR and OSC 8 sequences.
func stripANSI(s string) string {
	if strings.IndexByte(s, 0x1b) < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != 0x1b || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		switch s[i+1] {
		case '[':
			j := i + 2
			for j < len(s) && !(s[j] >= 0x40 && s[j] <= 0x7e) {
				j++
			}
			i = j
		case ']':
			end := strings.Index(s[i:], "\x1b\\")
			if end < 0 {
				return b.String()
			}
			i += end + 1
		}
	}
	return b.String()
}

func TestLayoutRulesHoldForAllInputsAndWidths(t *testing.T) {
	for _, name := range goldenInputs(t) {
		src := readInput(t, name)
		for w := MinWidth; w <= 100; w += 3 {
			for _, color := range []bool{false, true} {
				checkLayout(t, name, Render(src, Options{Width: w, Color: color, Hyperlinks: true}), w)
			}
		}
	}
}

// The colour and plain outputs carry the same words: colour changes
// styles, not content (bar the marks plain mode adds: '#', backticks, ~~).
func TestColorAndPlainShowTheSameWords(t *testing.T) {
	marks := func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune("#`~✓x─", r) }
	for _, name := range goldenInputs(t) {
		src := readInput(t, name)
		plain := strings.Join(strings.FieldsFunc(Render(src, Options{Width: 1000}), marks), "")
		color := strings.Join(strings.FieldsFunc(stripANSI(Render(src, Options{Width: 1000, Color: true})), marks), "")
		if plain != color {
			t.Errorf("%s: plain and colour text differ:\n%s", name, firstDiff(plain, color))
		}
	}
}
