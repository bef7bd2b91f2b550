package search

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// matchingLines returns the 1-based numbers of the lines m reports.
func matchingLines(m *Matcher, text string) []int {
	data := []byte(text)
	var got []int
	m.eachLine(data, func(start, end int) bool {
		got = append(got, strings.Count(text[:start], "\n")+1)
		return true
	})
	return got
}

// naiveLines matches each line on its own with the standard library.
func naiveLines(t testing.TB, pattern string, opts MatchOptions, text string) []int {
	prefix := "(?m"
	if opts.IgnoreCase {
		prefix += "i"
	}
	re := regexp.MustCompile(prefix + ")(?:" + pattern + ")")
	if text == "" {
		return nil // an empty file has no lines
	}
	lines := strings.Split(text, "\n")
	if strings.HasSuffix(text, "\n") {
		lines = lines[:len(lines)-1]
	}
	var out []int
	for i, l := range lines {
		if re.MatchString(l) {
			out = append(out, i+1)
		}
	}
	return out
}

func TestMatcherFindsTheSameLinesAsPerLineRegexp(t *testing.T) {
	text := "package main\n" +
		"func NewReader() {}\n" +
		"func NewBufReader(r io.Reader) *Reader {\n" +
		"\treturn ErrUnexpectedEOF\n" +
		"Content-Length: 12\n" +
		"CONTENT-LENGTH: 13\n" +
		"x content_length\n" +
		"type T struct{} // MarshalJSON UnmarshalJSON marshalJSON\n" +
		"func (t marshalJSONv1) MarshalJSON() {}\n" +
		"the Kelvin sign \u212a is a k, long \u017f is an s\n" +
		"mmm Mmm\n" +
		"\n" +
		"colour color colr\n" +
		"last line without newline"
	tests := []struct {
		name    string
		pattern string
		opts    MatchOptions
		want    []int
	}{
		{"plain literal", "ErrUnexpectedEOF", MatchOptions{}, []int{4}},
		{"literal absent", "NoSuchThing", MatchOptions{}, nil},
		{"case-insensitive literal", "content-length", MatchOptions{IgnoreCase: true}, []int{5, 6}},
		{"case-sensitive literal", "Content-Length", MatchOptions{}, []int{5}},
		{"class then word run", `func New[A-Z]\w*Reader`, MatchOptions{}, []int{3}},
		{"alternation of literals", `(Marshal|Unmarshal)JSON`, MatchOptions{}, []int{8, 9}},
		{"second hit on a line after a near miss", `MarshalJSON\(\)`, MatchOptions{}, []int{9}},
		{"kelvin sign folds to k", `kelvin sign \x{212a}`, MatchOptions{IgnoreCase: true}, []int{10}},
		{"folded k matches the kelvin sign", `sign k is`, MatchOptions{IgnoreCase: true}, []int{10}},
		{"folded s matches long s", `long s is`, MatchOptions{IgnoreCase: true}, []int{10}},
		{"two-case class", `[Mm]mm`, MatchOptions{}, []int{11}},
		{"optional letter", `colou?r`, MatchOptions{}, []int{13}},
		{"anchored start", `^func`, MatchOptions{}, []int{2, 3, 9}},
		{"anchored end", `\{\}$`, MatchOptions{}, []int{2, 9}},
		{"empty line", `^$`, MatchOptions{}, []int{12}},
		{"word boundary", `\bcolor\b`, MatchOptions{}, []int{13}},
		{"no literal at all", `[0-9]{2}`, MatchOptions{}, []int{5, 6}},
		{"last line without newline", `newline$`, MatchOptions{}, []int{14}},
		{"negated class does not cross lines", `Reader[^x]*ErrUnexpected`, MatchOptions{}, nil},
		{"empty pattern matches every line", ``, MatchOptions{}, []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14}},
		{"repeated literal", `m{3}`, MatchOptions{}, []int{11}},
		{"unicode literal", "\u212a", MatchOptions{}, []int{10}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Compile(tt.pattern, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			got := matchingLines(m, text)
			if !slices.Equal(got, tt.want) {
				t.Errorf("lines = %v, want %v", got, tt.want)
			}
			if naive := naiveLines(t, tt.pattern, tt.opts, text); !slices.Equal(got, naive) {
				t.Errorf("lines = %v, but matching each line alone gives %v", got, naive)
			}
		})
	}
}

func TestMatcherPlansAPrefilter(t *testing.T) {
	tests := []struct {
		pattern   string
		opts      MatchOptions
		finders   []string
		exact     bool
		multiline bool
	}{
		{"ErrUnexpectedEOF", MatchOptions{}, []string{"ErrUnexpectedEOF"}, true, false},
		{"content-length", MatchOptions{IgnoreCase: true}, []string{"content-length"}, true, false},
		{`(Marshal|Unmarshal)JSON`, MatchOptions{}, []string{"arshalJSON"}, true, false},
		{`func New[A-Z]\w*Reader`, MatchOptions{}, []string{"func New"}, false, false},
		{`^package`, MatchOptions{}, []string{"package"}, false, false},
		{`(foo|bar)`, MatchOptions{}, []string{"bar", "foo"}, true, false},
		{`[a-z]+`, MatchOptions{}, nil, false, false},
		{`kind`, MatchOptions{IgnoreCase: true}, []string{"ind"}, false, false},
		{`a.*b`, MatchOptions{Multiline: true}, []string{"a"}, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.pattern, func(t *testing.T) {
			m, err := Compile(tt.pattern, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range m.finders {
				got = append(got, string(f.needle))
			}
			if tt.pattern == `a.*b` {
				// Either literal will do; the choice depends on byte ranks.
				if len(got) != 1 {
					t.Fatalf("finders = %q, want one", got)
				}
				return
			}
			if !slices.Equal(got, tt.finders) {
				t.Errorf("finders = %q, want %q", got, tt.finders)
			}
			if (m.exact != nil) != tt.exact {
				t.Errorf("exact = %v, want %v", m.exact != nil, tt.exact)
			}
		})
	}
}

func TestCompileRejectsBadPatterns(t *testing.T) {
	tests := []struct {
		pattern string
		opts    MatchOptions
		want    string
	}{
		{`func(`, MatchOptions{}, "missing closing )"},
		{`a{2,1}`, MatchOptions{}, "invalid repeat count"},
		{`(?<name>x`, MatchOptions{}, "missing closing )"},
		{"a\\nb", MatchOptions{}, "multiline"},
		{`[z-a]`, MatchOptions{}, "invalid character class range"},
	}
	for _, tt := range tests {
		t.Run(tt.pattern, func(t *testing.T) {
			_, err := Compile(tt.pattern, tt.opts)
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("err = %v, want a *SyntaxError", err)
			}
			if !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), fmt.Sprintf("%q", tt.pattern)) {
				t.Errorf("err = %q, want it to name the pattern and say %q", err, tt.want)
			}
		})
	}
	if _, err := Compile("a\\nb", MatchOptions{Multiline: true}); err != nil {
		t.Errorf("a newline in multiline mode: %v", err)
	}
}

func TestMultilineMatchesSpanLines(t *testing.T) {
	text := "type T struct {\n\ta int\n\tfield string\n}\nstruct {\n}\n"
	tests := []struct {
		pattern string
		want    [][2]int // start, end offsets
	}{
		{`struct \{.*?field`, [][2]int{{7, 29}}},
		{`a int\n\tfield`, [][2]int{{17, 29}}},
		{`\}\nstruct`, [][2]int{{37, 45}}},
		{`^$`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.pattern, func(t *testing.T) {
			m, err := Compile(tt.pattern, MatchOptions{Multiline: true})
			if err != nil {
				t.Fatal(err)
			}
			var got [][2]int
			m.eachMatch([]byte(text), false, func(s, e int) bool {
				got = append(got, [2]int{s, e})
				return true
			})
			if !slices.Equal(got, tt.want) {
				t.Errorf("matches = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestFinderFindsEveryOccurrence(t *testing.T) {
	hay := []byte("aXbxAXBXabxaxB ax axb AXB")
	tests := []struct {
		needle string
		fold   bool
		want   []int
	}{
		{"axb", true, []int{0, 4, 11, 18, 22}},
		{"axb", false, []int{18}},
		{"AXB", false, []int{4, 22}},
		{" ", false, []int{14, 17, 21}},
		{"zz", true, nil},
	}
	for _, tt := range tests {
		f := newFinder([]byte(tt.needle), tt.fold)
		c := f.cursor(hay)
		var got []int
		for p := c.next(0); p >= 0; p = c.next(p + 1) {
			got = append(got, p)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%q fold=%v: %v, want %v", tt.needle, tt.fold, got, tt.want)
		}
	}
}

func FuzzMatcherAgreesWithPerLineRegexp(f *testing.F) {
	f.Add("ErrUnexpectedEOF", "a\nErrUnexpectedEOF x\n", false)
	f.Add("(Marshal|Unmarshal)JSON", "marshalJSONv1) MarshalJSON()\nUnmarshalJSON", false)
	f.Add("content-length", "Content-Length: 1\nCONTENT-length", true)
	f.Add(`func New[A-Z]\w*Reader`, "func NewBufReader\nfunc Newreader", false)
	f.Add(`^\s*$`, "\n \n\t\nx", false)
	f.Add(`k|s`, "\u212a\n\u017f\n", true)
	f.Add(`[Mm]a(b|c)?d\b`, "Mad mabd Macdx", false)
	f.Fuzz(func(t *testing.T, pattern, text string, fold bool) {
		opts := MatchOptions{IgnoreCase: fold}
		m, err := Compile(pattern, opts)
		if err != nil {
			return
		}
		re, err := regexp.Compile("(?m" + map[bool]string{true: "i"}[fold] + ")(?:" + pattern + ")")
		if err != nil {
			t.Fatalf("Compile accepted %q but regexp refuses it: %v", pattern, err)
		}
		_ = re
		got := matchingLines(m, text)
		want := naiveLines(t, pattern, opts, text)
		if !slices.Equal(got, want) {
			t.Fatalf("pattern %q fold=%v on %q: lines %v, want %v", pattern, fold, text, got, want)
		}
	})
}

func TestSyntaxErrorNamesUnsupportedFeatures(t *testing.T) {
	tests := []struct{ pattern, want string }{
		{`(?<=a)b`, "look-behind"},
		{`a(?!b)`, "look-ahead"},
		{`(a)\1`, "back-references"},
		{`\\1(`, ""},
		{`(unclosed`, ""},
	}
	for _, tt := range tests {
		_, err := Compile(tt.pattern, MatchOptions{})
		if err == nil {
			t.Fatalf("Compile(%q) succeeded", tt.pattern)
		}
		msg := err.Error()
		if tt.want != "" && !strings.Contains(msg, tt.want) {
			t.Errorf("Compile(%q) error %q lacks %q", tt.pattern, msg, tt.want)
		}
		if tt.want == "" && (strings.Contains(msg, "look-") || strings.Contains(msg, "back-references")) {
			t.Errorf("Compile(%q) error %q names a feature the pattern does not use", tt.pattern, msg)
		}
	}
}
