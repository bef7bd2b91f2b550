package frontmatter

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseSplitsBlockAndBody(t *testing.T) {
	tests := []struct {
		name     string
		src      string
		present  bool
		keys     []string
		body     string
		bodyLine int
	}{
		{"no frontmatter", "# Title\ntext\n", false, nil, "# Title\ntext\n", 1},
		{"plain block", "---\ndescription: hi\n---\nBody\n", true, []string{"description"}, "Body\n", 4},
		{"crlf", "---\r\ndescription: hi\r\nmodel: haiku\r\n---\r\nBody\r\nmore\r\n", true, []string{"description", "model"}, "Body\nmore\n", 5},
		{"bom", "\ufeff---\ndescription: hi\n---\nBody", true, []string{"description"}, "Body", 4},
		{"closing fence at end of file", "---\na: 1\n---", true, []string{"a"}, "", 4},
		{"empty block", "---\n---\nBody\n", true, nil, "Body\n", 3},
		{"only comments", "---\n# nothing\n---\nx", true, nil, "x", 4},
		{"fences with trailing spaces", "---  \na: 1\n--- \t\nx", true, []string{"a"}, "x", 4},
		{"four dashes do not open", "----\na: 1\n---\n", false, nil, "----\na: 1\n---\n", 1},
		{"leading blank line means no frontmatter", "\n---\na: 1\n---\n", false, nil, "\n---\na: 1\n---\n", 1},
		{"dashes inside body are kept", "---\na: 1\n---\nx\n---\ny\n", true, []string{"a"}, "x\n---\ny\n", 4},
		{"duplicate key keeps first position", "---\na: 1\nb: 2\na: 3\n---\n", true, []string{"a", "b"}, "", 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := Parse([]byte(tt.src))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if doc.Present != tt.present {
				t.Errorf("Present = %v, want %v", doc.Present, tt.present)
			}
			if diff := cmp.Diff(tt.keys, doc.Fields.Keys()); diff != "" {
				t.Errorf("keys (-want +got):\n%s", diff)
			}
			if doc.Body != tt.body {
				t.Errorf("Body = %q, want %q", doc.Body, tt.body)
			}
			if doc.BodyLine != tt.bodyLine {
				t.Errorf("BodyLine = %d, want %d", doc.BodyLine, tt.bodyLine)
			}
		})
	}
}

func TestParseErrorsNameTheLine(t *testing.T) {
	tests := []struct {
		name string
		src  string
		line int
		msg  string
	}{
		{"never closed", "---\ndescription: x\nbody\n", 1, "never closed"},
		{"only an opening fence", "---", 1, "never closed"},
		{"list instead of mapping", "---\n- a\n- b\n---\n", 2, "mapping of keys to values, not a list"},
		{"scalar instead of mapping", "---\njust text\n---\n", 2, "not a single value"},
		{"unclosed flow list", "---\nname: x\ntools: [Read, Grep\nmodel: y\n---\n", -1, "did not find expected ',' or ']'"},
		{"tab indentation", "---\na: 1\n\tb: 2\n---\n", 3, "tab character"},
		{"mapping in a value after a fine line", "---\na: 1\nb:\n  c: d: e\n---\n", 4, "mapping values are not allowed"},
		{"bad indentation", "---\nname: x\n  description: y\n---\n", 3, "invalid YAML"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.src))
			var fe *Error
			if !errors.As(err, &fe) {
				t.Fatalf("Parse error = %v, want *Error", err)
			}
			if tt.line < 0 { // the YAML library reports where it gave up; any line of the block will do
				if fe.Line < 2 {
					t.Errorf("Line = %d, want a line of the block", fe.Line)
				}
			} else if fe.Line != tt.line {
				t.Errorf("Line = %d, want %d (%v)", fe.Line, tt.line, err)
			}
			if !strings.Contains(fe.Msg, tt.msg) {
				t.Errorf("Msg = %q, want it to contain %q", fe.Msg, tt.msg)
			}
		})
	}
}

func TestStringReadsLooseValues(t *testing.T) {
	src := `---
description: Fix: the bug in the parser
argument-hint: [pr-number] [priority]
single-hint: [message]
star: *
quoted: "a: b"
list:
  - one
  - two
empty:
tagged: !important thing
folded: >
  line one
  line two
number: 12
---
`
	doc, err := Parse([]byte(src))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	tests := []struct{ key, want string }{
		{"description", "Fix: the bug in the parser"},
		{"argument-hint", "[pr-number] [priority]"},
		{"single-hint", "[message]"},
		{"star", "*"},
		{"quoted", "a: b"},
		{"list", "one, two"},
		{"empty", ""},
		{"missing", ""},
		{"tagged", "!important thing"},
		{"folded", "line one line two\n"},
		{"number", "12"},
	}
	for _, tt := range tests {
		if got := doc.Fields.String(tt.key); got != tt.want {
			t.Errorf("String(%q) = %q, want %q", tt.key, got, tt.want)
		}
	}
}

func TestListAcceptsStringsAndLists(t *testing.T) {
	src := `---
comma: Read, Grep, Glob
spaces: Read Grep
parens: Bash(git add:*), Bash(git commit: *), Read
agents: Agent(worker, researcher), Read
flow: [Read, "Bash(npm run test)"]
block:
  - Read
  - Bash(git status)
  - Grep, Glob
star: "*"
empty:
blank: ""
---
`
	doc, err := Parse([]byte(src))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	tests := []struct {
		key  string
		want []string
	}{
		{"comma", []string{"Read", "Grep", "Glob"}},
		{"spaces", []string{"Read", "Grep"}},
		{"parens", []string{"Bash(git add:*)", "Bash(git commit: *)", "Read"}},
		{"agents", []string{"Agent(worker, researcher)", "Read"}},
		{"flow", []string{"Read", "Bash(npm run test)"}},
		{"block", []string{"Read", "Bash(git status)", "Grep", "Glob"}},
		{"star", []string{"*"}},
		{"empty", nil},
		{"blank", nil},
		{"missing", nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, doc.Fields.List(tt.key)); diff != "" {
			t.Errorf("List(%q) (-want +got):\n%s", tt.key, diff)
		}
	}
}

func TestBoolAndInt(t *testing.T) {
	src := "---\na: true\nb: No\nc: on\nd: 1\ne: maybe\nf:\nn: 7\nbad: seven\nlist: [1]\n---\n"
	doc, err := Parse([]byte(src))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	f := doc.Fields
	for key, want := range map[string]bool{"a": true, "b": false, "c": true, "d": true, "f": false, "missing": false} {
		got, err := f.Bool(key)
		if err != nil || got != want {
			t.Errorf("Bool(%q) = %v, %v; want %v, nil", key, got, err, want)
		}
	}
	if _, err := f.Bool("e"); err == nil || !strings.Contains(err.Error(), `line 6: e: want true or false, got "maybe"`) {
		t.Errorf("Bool(e) error = %v", err)
	}
	if n, ok, err := f.Int("n"); n != 7 || !ok || err != nil {
		t.Errorf("Int(n) = %d, %v, %v", n, ok, err)
	}
	if _, ok, err := f.Int("missing"); ok || err != nil {
		t.Errorf("Int(missing) ok=%v err=%v", ok, err)
	}
	if _, _, err := f.Int("bad"); err == nil || !strings.Contains(err.Error(), `line 9: bad: want a whole number, got "seven"`) {
		t.Errorf("Int(bad) error = %v", err)
	}
	if _, _, err := f.Int("list"); err == nil || !strings.Contains(err.Error(), "got a list") {
		t.Errorf("Int(list) error = %v", err)
	}
}

func TestDecodeNestedValue(t *testing.T) {
	src := "---\nhooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: ./check.sh\n---\n"
	doc, err := Parse([]byte(src))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	var v map[string]any
	if err := doc.Fields.Decode("hooks", &v); err != nil {
		t.Fatalf("Decode: %v", err)
	}
	want := map[string]any{"PreToolUse": []any{map[string]any{"matcher": "Bash", "hooks": []any{map[string]any{"type": "command", "command": "./check.sh"}}}}}
	if diff := cmp.Diff(want, v); diff != "" {
		t.Errorf("hooks (-want +got):\n%s", diff)
	}
	var n int
	if err := doc.Fields.Decode("hooks", &n); err == nil || !strings.Contains(err.Error(), "line 2: hooks:") {
		t.Errorf("Decode into int error = %v", err)
	}
	if got := doc.Fields.Line("hooks"); got != 2 {
		t.Errorf("Line(hooks) = %d, want 2", got)
	}
}

func TestSplitListKeepsParentheses(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{" , ,", nil},
		{"Read,Grep", []string{"Read", "Grep"}},
		{"Bash(a, b) Read", []string{"Bash(a, b)", "Read"}},
		{"Bash(a (b) c), X", []string{"Bash(a (b) c)", "X"}},
		{"Bash(unclosed, x", []string{"Bash(unclosed, x"}},
		{"a) b", []string{"a)", "b"}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, SplitList(tt.in)); diff != "" {
			t.Errorf("SplitList(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}
