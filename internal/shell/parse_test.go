package shell

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// brief is the part of a Command the structure tests compare.
type brief struct {
	Program  string
	Args     []string
	Origin   Origin
	Subshell bool
	Wrappers []string
}

func briefs(s *Script) []brief {
	var out []brief
	for _, c := range s.Commands {
		out = append(out, brief{c.Program, c.Args, c.Origin, c.Subshell, c.Wrappers})
	}
	return out
}

func TestParseSplitsCompoundCommands(t *testing.T) {
	tests := []struct {
		name string
		cmd  string
		want []brief
	}{
		{"and or semicolon newline", "a 1 && b || c; d\ne", []brief{
			{"a", []string{"a", "1"}, OriginTop, false, nil},
			{"b", []string{"b"}, OriginTop, false, nil},
			{"c", []string{"c"}, OriginTop, false, nil},
			{"d", []string{"d"}, OriginTop, false, nil},
			{"e", []string{"e"}, OriginTop, false, nil},
		}},
		{"pipes", "a | b |& c", []brief{
			{"a", []string{"a"}, OriginTop, true, nil},
			{"b", []string{"b"}, OriginTop, true, nil},
			{"c", []string{"c"}, OriginTop, true, nil},
		}},
		{"background", "a & b", []brief{
			{"a", []string{"a"}, OriginTop, true, nil},
			{"b", []string{"b"}, OriginTop, false, nil},
		}},
		{"subshell and group", "(a; b) && { c; }", []brief{
			{"a", []string{"a"}, OriginSubshell, true, nil},
			{"b", []string{"b"}, OriginSubshell, true, nil},
			{"c", []string{"c"}, OriginGroup, false, nil},
		}},
		{"control flow", "if a; then b; elif c; then d; else e; fi; while f; do g; done; for x in y; do h; done; case $z in q) i;; esac", []brief{
			{"a", []string{"a"}, OriginControl, false, nil},
			{"b", []string{"b"}, OriginControl, false, nil},
			{"c", []string{"c"}, OriginControl, false, nil},
			{"d", []string{"d"}, OriginControl, false, nil},
			{"e", []string{"e"}, OriginControl, false, nil},
			{"f", []string{"f"}, OriginControl, false, nil},
			{"g", []string{"g"}, OriginControl, false, nil},
			{"h", []string{"h"}, OriginControl, false, nil},
			{"i", []string{"i"}, OriginControl, false, nil},
		}},
		{"command and process substitution", "a $(b) `c` <(d) >(e)", []brief{
			{"a", []string{"a", "$(b)", "`c`", "<(d)", ">(e)"}, OriginTop, false, nil},
			{"b", []string{"b"}, OriginCmdSubst, true, nil},
			{"c", []string{"c"}, OriginCmdSubst, true, nil},
			{"d", []string{"d"}, OriginProcSubst, true, nil},
			{"e", []string{"e"}, OriginProcSubst, true, nil},
		}},
		{"quotes removed", `echo 'a b' "c $HOME" d\ e $'t\tx'`, []brief{
			{"echo", []string{"echo", "a b", `"c $HOME"`, "d e", "t\tx"}, OriginTop, false, nil},
		}},
		{"assignments and wrappers", "A=1 B=2 timeout -s KILL 5 nice -n 3 env -u X C=3 git status", []brief{
			{"git", []string{"git", "status"}, OriginTop, false, []string{"timeout", "nice", "env"}},
		}},
		{"wrappers alone", "env; nohup", []brief{
			{"", nil, OriginTop, false, []string{"env"}},
			{"", nil, OriginTop, false, []string{"nohup"}},
		}},
		{"command -v is not a wrapper", "command -v ls", []brief{
			{"command", []string{"command", "-v", "ls"}, OriginTop, false, nil},
		}},
		{"eval payload", "eval 'a && b'", []brief{
			{"eval", []string{"eval", "a && b"}, OriginTop, false, nil},
			{"a", []string{"a"}, OriginPayload, false, nil},
			{"b", []string{"b"}, OriginPayload, false, nil},
		}},
		{"bash -c payload", "bash -lc 'a | b' name", []brief{
			{"bash", []string{"bash", "-lc", "a | b", "name"}, OriginTop, false, nil},
			{"a", []string{"a"}, OriginPayload, true, nil},
			{"b", []string{"b"}, OriginPayload, true, nil},
		}},
		{"declaration builtins", "export A=1 B; local -r c=2", []brief{
			{"export", []string{"export", "A=1", "B"}, OriginTop, false, nil},
			{"local", []string{"local", "-r", "c=2"}, OriginTop, false, nil},
		}},
		{"function body", "f() { a; }", []brief{
			{"a", []string{"a"}, OriginFunction, false, nil},
		}},
		{"heredoc substitution", "cat <<EOF\n$(a)\nEOF", []brief{
			{"cat", []string{"cat"}, OriginTop, false, nil},
			{"a", []string{"a"}, OriginCmdSubst, true, nil},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Parse(tt.cmd)
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.cmd, err)
			}
			if diff := cmp.Diff(tt.want, briefs(s)); diff != "" {
				t.Errorf("Parse(%q) commands (-want +got):\n%s", tt.cmd, diff)
			}
		})
	}
}

func TestParseClassifiesRedirects(t *testing.T) {
	tests := []struct {
		cmd    string
		kinds  []RedirKind
		writes bool
	}{
		{"a > f", []RedirKind{RedirWrite}, true},
		{"a >> f", []RedirKind{RedirWrite}, true},
		{"a >| f", []RedirKind{RedirWrite}, true},
		{"a &> f", []RedirKind{RedirWrite}, true},
		{"a &>> f", []RedirKind{RedirWrite}, true},
		{"a >&f", []RedirKind{RedirWrite}, true},
		{"a <> f", []RedirKind{RedirReadWrite}, true},
		{"a < f", []RedirKind{RedirRead}, false},
		{"a > /dev/null 2>&1", []RedirKind{RedirNull, RedirDup}, false},
		{"a &>/dev/null", []RedirKind{RedirNull}, false},
		{"a >&2 <&0 3>&-", []RedirKind{RedirDup, RedirDup, RedirDup}, false},
		{"a <<EOF\nx\nEOF", []RedirKind{RedirHeredoc}, false},
		{"a <<-'EOF'\n\tx\n\tEOF", []RedirKind{RedirHeredoc}, false},
		{"a <<< word", []RedirKind{RedirHereString}, false},
	}
	for _, tt := range tests {
		s, err := Parse(tt.cmd)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tt.cmd, err)
		}
		var kinds []RedirKind
		writes := false
		for _, r := range s.Redirects {
			kinds = append(kinds, r.Kind)
			writes = writes || r.Writes()
		}
		if !cmp.Equal(kinds, tt.kinds) || writes != tt.writes {
			t.Errorf("Parse(%q) redirects = %v (writes %v), want %v (writes %v)", tt.cmd, kinds, writes, tt.kinds, tt.writes)
		}
		if len(s.Commands) != 1 || len(s.Commands[0].Redirects) != len(tt.kinds) {
			t.Errorf("Parse(%q): redirects not attached to the command", tt.cmd)
		}
	}
}

func TestParseReportsFeatures(t *testing.T) {
	tests := []struct {
		cmd  string
		want Features
	}{
		{"ls", Features{}},
		{"echo $(date)", Features{CmdSubst: true}},
		{"diff <(a) <(b)", Features{ProcSubst: true}},
		{"echo $HOME", Features{ParamExp: true}},
		{"$EDITOR file", Features{ParamExp: true, DynamicProg: true}},
		{"echo ${X:=1}", Features{ParamExp: true, ParamAssign: true}},
		{"echo $((x+=1))", Features{ArithAssign: true}},
		{"eval ls", Features{Eval: true}},
		{"eval $X", Features{Eval: true, ParamExp: true, DynamicPayload: true}},
		{"sh -c ls", Features{ShellPayload: true}},
		{"cat <<EOF\nx\nEOF", Features{Heredoc: true}},
		{"sleep 1 &", Features{Background: true}},
		{"f() { :; }", Features{FuncDecl: true}},
		{"(ls)", Features{Subshell: true}},
		{"[[ -f x ]]", Features{Test: true}},
	}
	for _, tt := range tests {
		s, err := Parse(tt.cmd)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tt.cmd, err)
		}
		if s.Features != tt.want {
			t.Errorf("Parse(%q).Features = %+v, want %+v", tt.cmd, s.Features, tt.want)
		}
	}
}

func TestParseKeepsSourceText(t *testing.T) {
	s, err := Parse(`A=1 timeout 5 git log --format='%h %s' > /dev/null; ls`)
	if err != nil {
		t.Fatal(err)
	}
	c := s.Commands[0]
	if c.Text != `A=1 timeout 5 git log --format='%h %s' > /dev/null` {
		t.Errorf("Text = %q", c.Text)
	}
	if c.Core != `git log --format='%h %s'` {
		t.Errorf("Core = %q", c.Core)
	}
	if c.Args[2] != "--format=%h %s" {
		t.Errorf("Args[2] = %q, want quotes removed", c.Args[2])
	}
	if s.Commands[1].Text != "ls" {
		t.Errorf("second Text = %q", s.Commands[1].Text)
	}
}

func TestParseNestedPayloadDepthIsBounded(t *testing.T) {
	cmd := "ls"
	for range MaxPayloadDepth + 1 {
		cmd = "bash -c " + quote(cmd)
	}
	s, err := Parse(cmd)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Features.DynamicPayload {
		t.Errorf("payload nested %d deep was followed to the end; want it reported as dynamic", MaxPayloadDepth+1)
	}
	if IsReadOnly(cmd) {
		t.Errorf("IsReadOnly(%q) = true for a payload too deep to read", cmd)
	}
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func TestParseErrorNamesPosition(t *testing.T) {
	_, err := Parse("echo 'open")
	if err == nil || !strings.Contains(err.Error(), "1:6") {
		t.Errorf("Parse error = %v, want one naming line 1 column 6", err)
	}
}

func TestCommandName(t *testing.T) {
	for in, want := range map[string]string{"/usr/bin/git": "git", "/bin/ls": "ls", "./ls": "./ls", "/opt/x/ls": "/opt/x/ls", "git": "git"} {
		if got := (&Command{Program: in}).Name(); got != want {
			t.Errorf("Name(%q) = %q, want %q", in, got, want)
		}
	}
}
