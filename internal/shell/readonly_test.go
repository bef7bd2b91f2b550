package shell

import "testing"

func TestIsReadOnly(t *testing.T) {
	tests := []struct {
		cmd  string
		want bool
	}{
		// Plain readers.
		{"ls", true},
		{"ls -la /tmp", true},
		{"cat README.md", true},
		{"head -n 20 main.go", true},
		{"tail -f log.txt", true},
		{"wc -l *.go", true},
		{"grep -rn 'func main' .", true},
		{"rg -n TODO internal/", true},
		{"pwd", true},
		{"echo hello", true},
		{"which go", true},
		{"file /bin/ls", true},
		{"stat go.mod", true},
		{"du -sh .", true},
		{"df -h", true},
		{"tree -L 2", true},
		{"sort -u names.txt", true},
		{"uniq -c counts.txt", true},
		{"cut -d: -f1 /etc/passwd", true},
		{"tr a-z A-Z", true},
		{"jq .name package.json", true},
		{"/usr/bin/ls -l", true},
		{"cat $HOME/notes.txt", true},
		{"echo \"$(pwd)\"", true},
		{"diff a.txt b.txt", true},
		{"sed -n '1,20p' file.go", true},
		{"sed 's/foo/bar/g' input.txt", true},
		{"date +%Y-%m-%d", true},
		{"go version", true},
		{"go env GOPATH", true},
		{"go list -json ./...", true},
		// git.
		{"git status", true},
		{"git log --oneline -5", true},
		{"git diff HEAD~1 -- main.go", true},
		{"git show HEAD:go.mod", true},
		{"git branch", true},
		{"git branch -a -vv", true},
		{"git branch --list 'feat*'", true},
		{"git rev-parse --show-toplevel", true},
		{"git ls-files", true},
		{"git blame -L 1,10 main.go", true},
		{"git -C sub --no-pager log", true},
		{"git config user.name", true},
		{"git tag -l", true},
		{"git stash list", true},
		// find.
		{"find . -name '*.go'", true},
		{"find . -type f -newer go.mod -print", true},
		// Compound and wrapped.
		{"ls && echo --- && ls", true},
		{"cat go.mod | grep module | head -1", true},
		{"git status; git diff", true},
		{"ls || true", true},
		{"FOO=bar ls", true},
		{"timeout 5 git status", true},
		{"nice -n 10 cat x", true},
		{"env LC_ALL=C sort file", true},
		{"time ls", true},
		{"nohup cat x", true},
		{"stdbuf -oL grep x file", true},
		{"ls 2>/dev/null", true},
		{"ls > /dev/null 2>&1", true},
		{"grep x file >&2", true},
		{"cat <<EOF\nhello\nEOF", true},
		{"grep x <<< 'text'", true},
		{"wc -l < input.txt", true},
		{"(cd sub && ls)", true},
		{"{ ls; pwd; }", true},
		{"for f in a b; do wc -l $f; done", true},
		{"if [ -f x ]; then cat x; fi", true},
		{"[[ -d .git ]] && git status", true},
		{"diff <(sort a) <(sort b)", true},
		{"echo $(git rev-parse HEAD)", true},
		{"bash -c 'ls -la'", true},
		{"sh -c \"git status && git diff\"", true},
		{"eval 'ls -l'", true},
		{"env", true},
		{"command -v git", true},
		{"tee", true},
		{"ls | tee", true},
		// Not read-only: writers and unknown programs.
		{"rm -rf build", false},
		{"touch x", false},
		{"mkdir -p a/b", false},
		{"cp a b", false},
		{"mv a b", false},
		{"npm install", false},
		{"make", false},
		{"./ls", false},
		{"python3 script.py", false},
		{"xargs rm < list", false},
		{"find . | xargs grep x", false},
		{"awk '{print $1}' f", false},
		{"tee out.txt", false},
		{"ls | tee out.txt", false},
		// Output redirection.
		{"echo hi > out.txt", false},
		{"cat a >> b", false},
		{"ls &> listing", false},
		{"echo x >&out", false},
		{"cat <> f", false},
		{"{ ls; } > out", false},
		{"ls > $OUT", false},
		{"cat < /dev/tcp/example.com/80", false},
		// Writing options.
		{"sort -o out.txt in.txt", false},
		{"sort --output=out.txt in.txt", false},
		{"sed -i 's/a/b/' f", false},
		{"sed -n 'w out.txt' f", false},
		{"sed 's/a/b/w out' f", false},
		{"sed 's/a/date/e' f", false},
		{"sed -f script.sed f", false},
		{"uniq in.txt out.txt", false},
		{"tree -o out.txt", false},
		{"date -s '2020-01-01'", false},
		{"date 010112002020", false},
		{"rg --pre cat x", false},
		{"file -C -m magic", false},
		{"printf -v x %s y", false},
		{"go env -w GOFLAGS=-x", false},
		{"go build ./...", false},
		// find actions.
		{"find . -delete", false},
		{"find . -exec rm {} \\;", false},
		{"find . -execdir ls \\;", false},
		{"find . -ok rm {} \\;", false},
		{"find . -fprint out", false},
		{"find . $ACTION", false},
		// git writes.
		{"git push", false},
		{"git commit -m x", false},
		{"git checkout main", false},
		{"git branch new-feature", false},
		{"git branch -D old", false},
		{"git tag v1.0", false},
		{"git stash", false},
		{"git config user.name bob", false},
		{"git config --unset user.name", false},
		{"git -c core.pager=evil log", false},
		{"git diff --output=patch.txt", false},
		{"git grep -O vim foo", false},
		{"git reset --hard", false},
		{"git $SUB", false},
		// State changes.
		{"cd /tmp", false},
		{"cd /tmp && ls", false},
		{"export FOO=1", false},
		{"FOO=1", false},
		{"unset FOO", false},
		{"source env.sh", false},
		{". ./env.sh", false},
		{"alias ll='ls -l'", false},
		{"declare -x A=1", false},
		{"read line", false},
		{"for PATH in a; do ls; done", false},
		// Dynamic and risky constructs.
		{"$CMD", false},
		{"$(echo rm) -rf x", false},
		{"echo $(rm -rf x)", false},
		{"echo `touch x`", false},
		{"cat <(touch x)", false},
		{"eval \"$CMD\"", false},
		{"eval 'rm x'", false},
		{"bash -c 'rm x'", false},
		{"bash -c \"$X\"", false},
		{"bash script.sh", false},
		{"sh -c 'bash -c \"sh -c \\\"bash -c ls\\\"\"'", false},
		{"ls &", false},
		{"f() { ls; }; f", false},
		{"echo ${X:=1}", false},
		{"echo $((i++))", false},
		{"((x = 1))", false},
		{"PAGER=evil git log", false},
		{"LD_PRELOAD=/tmp/x.so ls", false},
		{"env -S 'rm x'", false},
		{"time -o out ls", false},
		{"exec > out", false},
		{"sudo ls", false},
		{"coproc cat", false},
		// Unparsable.
		{"echo 'unterminated", false},
		{"ls &&", false},
		{"if then", false},
	}
	for _, tt := range tests {
		if got := IsReadOnly(tt.cmd); got != tt.want {
			s, _ := Parse(tt.cmd)
			why := ""
			if s != nil {
				_, why = s.ReadOnly()
			}
			t.Errorf("IsReadOnly(%q) = %v, want %v (reason: %q)", tt.cmd, got, tt.want, why)
		}
	}
	if len(tests) < 60 {
		t.Fatalf("table has %d commands, want at least 60", len(tests))
	}
}

func TestChangesState(t *testing.T) {
	tests := []struct {
		cmd  string
		want bool
	}{
		{"ls", false},
		{"git status && git diff", false},
		{"rm -rf build", false}, // writes files, but not shell state
		{"cd /tmp", true},
		{"cd /tmp && ls", true},
		{"ls; cd ..", true},
		{"pushd x", true},
		{"popd", true},
		{"export PATH=$PATH:/x", true},
		{"unset HOME", true},
		{"source ~/.bashrc", true},
		{". env.sh", true},
		{"FOO=bar", true},
		{"FOO=bar ls", false},
		{"declare -x FOO=1", true},
		{"local x=1", true},
		{"alias g=git", true},
		{"read -r name", true},
		{"printf -v v %d 1", true},
		{"echo ${X:=default}", true},
		{"((n++))", true},
		{"f() { :; }", true},
		{"$CMD", true},
		{"eval 'cd /tmp'", true},
		{"for HOME in /; do :; done", true},
		{"(cd /tmp && ls)", false},
		{"(export A=1; env)", false},
		{"bash -c 'cd /tmp'", false},
		{"echo $(cd /tmp; pwd)", false},
		{"cd /tmp | cat", false},
		{"cd /tmp &", false},
		{"echo 'oops", true},
	}
	for _, tt := range tests {
		if got := ChangesState(tt.cmd); got != tt.want {
			t.Errorf("ChangesState(%q) = %v, want %v", tt.cmd, got, tt.want)
		}
	}
}

func TestSedScriptSafe(t *testing.T) {
	tests := []struct {
		script string
		want   bool
	}{
		{"p", true},
		{"1,20p", true},
		{"$p", true},
		{"/start/,/end/p", true},
		{"s/a/b/g", true},
		{"s|a/b|c|2", true},
		{"s/x/y/;s/z/w/p", true},
		{"/^#/d", true},
		{"y/abc/xyz/", true},
		{"1~2d", true},
		{"$a\\\nend", true},
		{"/x/{p;q}", true},
		{"w out", false},
		{"1,5w out", false},
		{"s/a/b/w out", false},
		{"s/a/b/e", false},
		{"e ls", false},
		{"W out", false},
		{"s/unterminated", false},
		{"v", false},
	}
	for _, tt := range tests {
		if got := sedScriptSafe(tt.script); got != tt.want {
			t.Errorf("sedScriptSafe(%q) = %v, want %v", tt.script, got, tt.want)
		}
	}
}
