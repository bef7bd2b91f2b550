package shell

import (
	"strings"
	"testing"
)

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"ls -la", "a && b || c; d | e |& f &", "(cd x && ls) > out 2>&1",
		"echo $(cat <(sort a)) `date`", "cat <<EOF\n$HOME\nEOF\n", "eval 'bash -c \"ls\"'",
		"for i in *; do echo \"$i\"; done", "f() { x=1; }; f", "echo ${a:=b} $((c++))",
		"A=1 env -u B timeout 5 nice git status", "sed -n '1,5p;s/a/b/w x' f", "echo $'\\x41\\u00e9'",
		"case $x in a|b) ;; esac", "[[ $a == b* ]] && ((n=1))", "coproc cat", "declare -A m=([k]=v)",
		"\\", "'", "$(", "<<", "${", "a\\\nb",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		s, err := Parse(src)
		ro := IsReadOnly(src)
		state := ChangesState(src)
		if err != nil {
			if ro || !state {
				t.Fatalf("unparsable %q: IsReadOnly=%v ChangesState=%v, want false/true", src, ro, state)
			}
			return
		}
		for i, c := range s.Commands {
			if c.Program != "" && (len(c.Args) == 0 || c.Args[0] != c.Program && !c.Decl) {
				t.Fatalf("%q: command %d has Program %q but Args %q", src, i, c.Program, c.Args)
			}
			if c.Parent >= i {
				t.Fatalf("%q: command %d has parent %d, not an earlier command", src, i, c.Parent)
			}
			if c.Depth == 0 && c.Origin != OriginTop {
				t.Fatalf("%q: command %d at depth 0 has origin %v", src, i, c.Origin)
			}
			if c.Depth == 0 && c.Text != "" && !strings.Contains(src, c.Text) {
				t.Fatalf("%q: top-level command text %q is not in the source", src, c.Text)
			}
		}
	})
}
