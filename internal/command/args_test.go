package command

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSplitArgsFollowsShellQuoting(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"   \t\n ", nil},
		{"one two  three", []string{"one", "two", "three"}},
		{`'a b' c`, []string{"a b", "c"}},
		{`"a b" c`, []string{"a b", "c"}},
		{`a"b c"d`, []string{"ab cd"}},
		{`'it''s'`, []string{"its"}},
		{`"say \"hi\""`, []string{`say "hi"`}},
		{`"keep \n and \\"`, []string{`keep \n and \`}},
		{`'no \escape'`, []string{`no \escape`}},
		{`a\ b c`, []string{"a b", "c"}},
		{"a\\\nb", []string{"ab"}},
		{`trailing\`, []string{`trailing\`}},
		{`"" x ''`, []string{"", "x", ""}},
		{`"unclosed rest`, []string{"unclosed rest"}},
		{`'unclosed rest`, []string{"unclosed rest"}},
		{`$HOME "$x" 'ü'`, []string{"$HOME", "$x", "ü"}},
		{"123 high --flag=x", []string{"123", "high", "--flag=x"}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, SplitArgs(tt.in)); diff != "" {
			t.Errorf("SplitArgs(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

// shellQuote quotes a word so that SplitArgs reads it back unchanged.
func shellQuote(w string) string {
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}

func FuzzSplitArgs(f *testing.F) {
	for _, s := range []string{"a b", "it's\x00\"q\"", "\\\x00 \t", "", "x\x00\x00y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_ = SplitArgs(s) // any text splits without panicking
		words := strings.Split(s, "\x00")
		quoted := make([]string, len(words))
		for i, w := range words {
			quoted[i] = shellQuote(w)
		}
		got := SplitArgs(strings.Join(quoted, " "))
		if diff := cmp.Diff(words, got); diff != "" {
			t.Fatalf("quoted words did not round-trip (-want +got):\n%s", diff)
		}
	})
}
