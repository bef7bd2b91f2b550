package permission

import (
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"reins/internal/shell"
)

// bashMatch reports whether a Bash rule specifier matches one simple
// command: exact text, legacy "prefix:*" (the prefix alone or followed by
// a space), or a wildcard pattern where * matches anything (a trailing
// " *" also matches the command without arguments).
func bashMatch(content, cmd string) bool {
	cmd = strings.TrimSpace(cmd)
	if cmd == "" {
		return false
	}
	if prefix, ok := strings.CutSuffix(content, ":*"); ok && !strings.HasSuffix(prefix, `\`) {
		prefix = strings.TrimSpace(prefix)
		return cmd == prefix || strings.HasPrefix(cmd, prefix+" ")
	}
	if !hasWildcard(content) {
		return cmd == strings.ReplaceAll(content, `\*`, "*")
	}
	if base, ok := strings.CutSuffix(content, " *"); ok && !hasWildcard(base) && cmd == strings.ReplaceAll(base, `\*`, "*") {
		return true
	}
	return wildcardRegexp(content).MatchString(cmd)
}

// codeRunners are the programs (and program-and-subcommand pairs) that
// run whatever code they are given: a wildcard rule on one of them allows
// any action at all.
var codeRunners = map[string]bool{
	"python": true, "python2": true, "python3": true, "node": true, "deno": true, "bun": true, "tsx": true, "ts-node": true,
	"ruby": true, "perl": true, "php": true, "lua": true, "Rscript": true, "osascript": true, "pwsh": true, "powershell": true,
	"bash": true, "sh": true, "zsh": true, "dash": true, "ksh": true, "fish": true,
	"eval": true, "exec": true, "env": true, "xargs": true, "sudo": true, "doas": true, "ssh": true, "nohup": true, "timeout": true, "nice": true, "command": true, "builtin": true,
	"npx": true, "bunx": true, "pnpx": true, "npm run": true, "npm exec": true, "yarn run": true, "yarn exec": true, "yarn dlx": true,
	"pnpm run": true, "pnpm exec": true, "pnpm dlx": true, "bun run": true, "bun x": true, "uv run": true, "uvx": true, "poetry run": true,
	"pipx run": true, "go run": true, "cargo run": true, "docker run": true, "docker exec": true, "kubectl exec": true,
	"git -c": true,
}

// runsAnyCode reports whether a Bash allow rule's specifier ("" for the
// whole tool) lets any code run: no specifier, "*", or a wildcard right
// after a program of codeRunners (and its options), as in python:*,
// "node *", "npm run *" or "bash -c *". Auto mode sets such rules aside.
func runsAnyCode(content string) bool {
	content = strings.TrimSpace(content)
	if content == "" || content == "*" {
		return true
	}
	if !hasWildcard(content) {
		return false
	}
	fixed := content
	for i := 0; i < len(content); i++ {
		if content[i] == '\\' {
			i++
			continue
		}
		if content[i] == '*' {
			fixed = content[:i]
			break
		}
	}
	words := strings.Fields(strings.TrimSuffix(strings.TrimSpace(fixed), ":"))
	if len(words) == 0 {
		return true
	}
	n := 1
	if len(words) > 1 && codeRunners[words[0]+" "+words[1]] {
		n = 2
	} else if !codeRunners[path.Base(words[0])] {
		return false
	}
	for _, w := range words[n:] {
		if !strings.HasPrefix(w, "-") {
			return false
		}
	}
	return true
}

func hasWildcard(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' {
			i++
			continue
		}
		if s[i] == '*' {
			return true
		}
	}
	return false
}

func wildcardRegexp(p string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString(`(?s)^`)
	for i := 0; i < len(p); i++ {
		switch {
		case p[i] == '\\' && i+1 < len(p) && p[i+1] == '*':
			b.WriteString(`\*`)
			i++
		case p[i] == '*':
			b.WriteString(`.*`)
		default:
			b.WriteString(regexp.QuoteMeta(p[i : i+1]))
		}
	}
	b.WriteString(`$`)
	return regexp.MustCompile(b.String())
}

// access is a file a command reads or writes.
type access struct {
	path  string // absolute; "" when the name is computed
	raw   string // as written
	write bool
	// known is set when the word is a file for sure (a redirection, an
	// operand of a file command), not only path-looking.
	known bool
	cmd   string // the command text, for reasons
	// glob is the absolute pattern of a glob word; path is then the
	// folder it expands in. Request.Resolve lists what it matches.
	glob string
	// tree is set when the command reads every file under path (grep
	// -r, rg, cp -r): Request.ResolveTrees finds a file in it that a
	// Read deny or ask rule covers.
	tree bool
	// hidden is set for a tree read that takes hidden files too (rg
	// leaves them out unless told).
	hidden bool
	// git is set, with tree, for a git command that prints the content
	// of files in the repository (git grep, log -p, show REV:path):
	// ResolveTrees finds one a Read deny or ask rule covers.
	git *gitRead
}

// cmdInfo is what the analysis knows about one simple command.
type cmdInfo struct {
	c *shell.Command
	// forms are the texts rules are matched against.
	forms []string
	// runs are the command lines it runs from its arguments.
	runs [][]string
	// files are the files it reads or writes.
	files []access
}

// bashPlan is the analysis of a command line.
type bashPlan struct {
	script *shell.Script
	cmds   []cmdInfo
	// redirects are the files redirections read or write.
	redirects []access
}

// planBash analyses a command line against the working folder cwd.
func planBash(command, cwd, home string) (*bashPlan, error) {
	s, err := shell.Parse(command)
	if err != nil {
		return nil, err
	}
	bp := &bashPlan{script: s}
	dir := cwd
	for _, c := range s.Commands {
		ci := cmdInfo{c: c, forms: commandForms(c)}
		for _, run := range c.Runs() {
			ci.runs = append(ci.runs, run.Args)
		}
		for _, r := range c.Redirects {
			if a, ok := redirectAccess(r, dir, home, c.Text); ok {
				bp.redirects = append(bp.redirects, a)
			}
		}
		ci.files = commandFiles(c, dir, home)
		if c.Program == "cd" || c.Program == "pushd" {
			var a *access
			dir, a = changeDir(c, dir, home)
			if a != nil {
				ci.files = append(ci.files, *a)
			}
		}
		bp.cmds = append(bp.cmds, ci)
	}
	return bp, nil
}

// changeDir returns the folder cd or pushd c moves the shell to from dir,
// and an access to add when the command itself does not show it: bare
// cd goes to the home folder; cd -, pushd without a folder, and ~- or
// ~user go where the words do not say, which counts as a computed name
// (the later commands' relative paths cannot be judged).
func changeDir(c *shell.Command, dir, home string) (string, *access) {
	if len(c.ArgWords) == 1 {
		if c.Program == "cd" {
			return home, &access{path: home, raw: "cd", known: true, cmd: c.Text}
		}
		return dir, &access{raw: c.Text, known: true, cmd: c.Text}
	}
	w := c.ArgWords[1]
	if !w.Static {
		return dir, nil // commandFiles names it as computed
	}
	if w.Value == "-" {
		return dir, &access{raw: "-", known: true, cmd: c.Text}
	}
	p, ok := tildePath(w.Raw, w.Value, dir, home)
	if !ok {
		return dir, &access{raw: w.Raw, known: true, cmd: c.Text}
	}
	return p, nil
}

// tildePath resolves a word as bash does its tilde prefix: ~ and ~/… are
// the home folder, ~+ the current folder. ~- (the previous folder) and
// ~user cannot be known from the words: ok is false, and the name counts
// as computed. A word without an unquoted leading ~ is made absolute.
func tildePath(raw, v, dir, home string) (string, bool) {
	if !strings.HasPrefix(raw, "~") || !strings.HasPrefix(v, "~") {
		return absPath(v, dir, home), true
	}
	prefix, rest, _ := strings.Cut(v, "/")
	switch prefix {
	case "~":
		return absPath(v, dir, home), true
	case "~+":
		return filepath.Clean(filepath.Join(dir, rest)), true
	}
	return "", false
}

// commandForms are the texts of a command that rules match: as written
// from the program on, and as its argument values (quotes removed, system
// folders dropped from the program).
func commandForms(c *shell.Command) []string {
	var forms []string
	add := func(s string) {
		s = strings.TrimSpace(s)
		for _, f := range forms {
			if f == s {
				return
			}
		}
		if s != "" {
			forms = append(forms, s)
		}
	}
	add(c.Core)
	if len(c.Args) > 0 {
		args := append([]string{c.Name()}, c.Args[1:]...)
		add(strings.Join(args, " "))
		add(strings.Join(c.Args, " "))
	}
	return forms
}

func redirectAccess(r shell.Redirect, dir, home, text string) (access, bool) {
	switch r.Kind {
	case shell.RedirRead, shell.RedirWrite, shell.RedirReadWrite:
	default:
		return access{}, false
	}
	a := access{raw: r.Target.Raw, write: r.Writes(), known: true, cmd: text}
	if r.Target.Static {
		v := r.Target.Value
		if strings.HasPrefix(v, "/dev/") && (v == "/dev/stdout" || v == "/dev/stderr" || v == "/dev/tty" || v == "/dev/stdin" || strings.HasPrefix(v, "/dev/fd/")) {
			return access{}, false
		}
		a.path, _ = tildePath(r.Target.Raw, v, dir, home)
		if r.Target.Pattern && a.path != "" {
			// bash expands a glob that names one file; a glob that
			// matches nothing is used as written.
			a.glob = a.path
		}
	}
	return a, true
}

// fileCommands are programs whose operands are files: read, or written
// when the value is true.
var fileCommands = map[string]bool{
	"cat": false, "head": false, "tail": false, "less": false, "more": false, "wc": false,
	"sort": false, "uniq": false, "diff": false, "cmp": false, "comm": false, "cut": false,
	"nl": false, "tac": false, "rev": false, "strings": false, "od": false, "xxd": false,
	"hexdump": false, "file": false, "stat": false, "du": false, "ls": false, "tree": false,
	"find": false, "base64": false, "md5sum": false, "sha1sum": false, "sha256sum": false,
	"sha512sum": false, "cksum": false, "source": false, ".": false, "bat": false, "cd": false,
	"pushd": false, "grep": false, "egrep": false, "fgrep": false, "rg": false, "awk": false,
	"jq": false, "yq": false, "realpath": false, "readlink": false,
	"tee": true, "touch": true, "mkdir": true, "rm": true, "rmdir": true, "unlink": true,
	"shred": true, "truncate": true, "mv": true, "chmod": true, "chown": true, "chgrp": true,
}

// patternFirst are readers whose first operand is a pattern or script,
// not a file, unless given with an option.
var patternFirst = map[string]string{
	"grep": " -e --regexp -f --file ", "egrep": " -e --regexp -f --file ", "fgrep": " -e --regexp -f --file ",
	"rg": " -e --regexp -f --file ", "awk": " -f --file ", "jq": " -f --from-file ", "yq": " ",
}

// wholeRemovers are the file commands that remove or move a folder with
// everything in it: one naming a working folder (or a folder above it)
// takes the whole project, protected folders included.
var wholeRemovers = map[string]bool{"rm": true, "rmdir": true, "mv": true, "shred": true, "unlink": true}

// copyCommands write their last operand and read the others.
var copyCommands = map[string]bool{"cp": true, "ln": true, "install": true}

// commandFiles lists the files a command reads or writes, as far as its
// words show: operands of known file commands, and path-looking operands
// of any command.
func commandFiles(c *shell.Command, dir, home string) []access {
	if len(c.ArgWords) == 0 {
		return nil
	}
	name := c.Name()
	words := c.ArgWords[1:]
	write, known := fileCommands[name]
	var ops []shell.Word
	for i := 0; i < len(words); i++ {
		w := words[i]
		v := w.Value
		if !w.Static {
			v = w.Raw
		}
		if v == "--" {
			ops = append(ops, words[i+1:]...)
			break
		}
		if strings.HasPrefix(v, "-") && len(v) > 1 {
			if _, val, ok := strings.Cut(v, "="); ok && looksLikePath(val) {
				ops = append(ops, shell.Word{Raw: val, Value: val, Static: w.Static})
			}
			continue
		}
		ops = append(ops, w)
	}
	if opts, ok := patternFirst[name]; ok && len(ops) > 0 && !hasAnyOption(words, opts) {
		ops = ops[1:]
	}
	switch name {
	case "chmod", "chown", "chgrp":
		if len(ops) > 0 {
			ops = ops[1:]
		}
	case "sed":
		known, write = true, hasAnyOption(words, " -i --in-place ")
		if len(ops) > 0 && !hasAnyOption(words, " -e --expression -f --file ") {
			ops = ops[1:]
		}
	case "dd":
		known = true
		var out []access
		for _, w := range words {
			if k, v, ok := strings.Cut(w.Value, "="); ok && (k == "if" || k == "of") {
				out = append(out, fileAccess(shell.Word{Raw: v, Value: v, Static: w.Static}, k == "of", true, dir, home, c.Text))
			}
		}
		return out
	}
	tree, hidden := treeRead(name, words)
	var out []access
	if name == "git" {
		if g := gitCommandRead(words, dir, home); g != nil {
			g.globals = append(gitEnvGlobals(c.Assigns, dir, home), g.globals...)
			out = append(out, access{path: g.dir, raw: c.Text, cmd: c.Text, tree: true, hidden: true, git: g})
		}
	}
	for i, w := range ops {
		v := w.Value
		if !w.Static {
			v = w.Raw
		}
		switch {
		case copyCommands[name]:
			a := fileAccess(w, i == len(ops)-1, true, dir, home, c.Text)
			a.tree, a.hidden = tree && !a.write, hidden
			out = append(out, a)
		case known:
			a := fileAccess(w, write, true, dir, home, c.Text)
			a.tree, a.hidden = tree, hidden
			out = append(out, a)
		case looksLikePath(v):
			out = append(out, fileAccess(w, false, false, dir, home, c.Text))
		}
	}
	if tree && len(ops) == 0 && name != "cp" {
		// grep -r and rg with no file search the current folder.
		out = append(out, access{path: dir, raw: ".", known: true, cmd: c.Text, tree: true, hidden: hidden})
	}
	return out
}

// treeRead reports whether the command named name, given words, reads
// every file under the folders it names (grep -r, rg, cp -r), and whether
// it takes hidden files too.
func treeRead(name string, words []shell.Word) (tree, hidden bool) {
	switch name {
	case "grep", "egrep", "fgrep":
		if hasAnyOption(words, " -r -R --recursive --dereference-recursive ") {
			return true, true
		}
		for i, w := range words {
			if w.Value == "--directories=recurse" || w.Value == "-drecurse" ||
				w.Value == "-d" && i+1 < len(words) && words[i+1].Value == "recurse" {
				return true, true
			}
		}
	case "rg":
		return true, hasAnyOption(words, " --hidden -. -uu -uuu ") || hasUnrestricted(words)
	case "cp":
		return hasAnyOption(words, " -r -R -a --recursive --archive "), true
	}
	return false, false
}

// hasUnrestricted reports whether rg is given -u twice or more (-uu,
// -u -u), which searches hidden files.
func hasUnrestricted(words []shell.Word) bool {
	n := 0
	for _, w := range words {
		v := w.Value
		if v == "--" {
			break
		}
		if v == "--unrestricted" {
			n++
		}
		if strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") {
			n += strings.Count(v, "u")
		}
	}
	return n >= 2
}

func fileAccess(w shell.Word, write, known bool, dir, home, text string) access {
	a := access{raw: w.Raw, write: write, known: known, cmd: text}
	if w.Static && !w.Pattern {
		a.path, _ = tildePath(w.Raw, w.Value, dir, home)
	} else if w.Static && !braceExpansion(w.Value) {
		// A glob: judge the folder it expands in, and the files it
		// matches (Request.Globs).
		base, ok := tildePath(w.Raw, globBase(w.Value), dir, home)
		glob, _ := tildePath(w.Raw, w.Value, dir, home)
		if ok {
			a.path, a.glob = base, glob
		}
	}
	return a
}

// braceExpansion reports whether an unquoted word holds a brace
// expansion ({a,b} or {1..3}): its files are not the word's folder or
// its glob matches (src/{..,x}, {~,x}/.bashrc), so its name counts as
// computed.
func braceExpansion(v string) bool {
	i := strings.IndexByte(v, '{')
	if i < 0 {
		return false
	}
	j := strings.IndexByte(v[i:], '}')
	if j < 0 {
		return false
	}
	in := v[i : i+j]
	return strings.Contains(in, ",") || strings.Contains(in, "..")
}

// globBase is the part of a glob before its first wildcard, cut at a
// slash.
func globBase(v string) string {
	i := strings.IndexAny(v, "*?[{")
	if i < 0 {
		return v
	}
	j := strings.LastIndexByte(v[:i], '/')
	if j < 0 {
		return "."
	}
	if j == 0 {
		return "/"
	}
	return v[:j]
}

func looksLikePath(v string) bool {
	return strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~") || strings.HasPrefix(v, ".") || strings.Contains(v, "/")
}

func hasAnyOption(words []shell.Word, opts string) bool {
	for _, w := range words {
		v := w.Value
		if v == "--" {
			return false
		}
		name, _, _ := strings.Cut(v, "=")
		if strings.HasPrefix(v, "-") && strings.Contains(opts, " "+name+" ") {
			return true
		}
		if strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && len(v) > 2 {
			for _, ch := range v[1:] {
				if strings.Contains(opts, " -"+string(ch)+" ") {
					return true
				}
			}
		}
	}
	return false
}

// acceptEditsCommands change files only; acceptEdits mode allows them
// inside the working folders.
var acceptEditsCommands = map[string]bool{"mkdir": true, "touch": true, "mv": true, "cp": true, "rm": true, "rmdir": true, "ln": true, "sed": true}

// shortCmd trims a command for reasons.
func shortCmd(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	return s
}

// decideBash decides a Bash call.
func decideBash(p *Policy, r Request) Decision {
	forms := r.accessForms
	dir := r.Dir
	if dir == "" {
		dir = p.Cwd
	}
	bp, err := planBash(r.Command, dir, p.Home)
	if err != nil {
		return decideUnparsed(p, r.Command, err)
	}
	if d, ok := bashRules(p, bp, Deny, forms); ok {
		return d
	}
	if rule := p.whole(Ask, "Bash"); rule != nil {
		return byRule(Ask, rule, fmt.Sprintf("The command `%s` needs approval: the %s covers every command.", shortCmd(r.Command), rule.Describe()))
	}
	if d, ok := bashRules(p, bp, Ask, forms); ok {
		return d
	}
	if d, ok := protectedWrites(p, bp, forms); ok {
		return d
	}
	if rule := p.whole(Allow, "Bash"); rule != nil {
		return byRule(Allow, rule, fmt.Sprintf("The %s allows every command.", rule.Describe()))
	}
	if p.Mode == ModeBypass {
		return Decision{Behavior: Allow, Reason: "bypassPermissions mode allows it."}
	}
	if ch, bad := suspicious(r.Command); bad {
		return Decision{Behavior: Ask, Safety: true, Reason: fmt.Sprintf("The command needs approval: it holds the invisible or control character U+%04X, so what runs may differ from what it looks like.", ch)}
	}
	if why := dynamicReason(bp.script); why != "" {
		return Decision{Behavior: Ask, Reason: fmt.Sprintf("The command `%s` needs approval: it %s, which cannot be checked before it runs.", shortCmd(r.Command), why)}
	}
	if p.Mode == ModePlan {
		if ro, why := bp.script.ReadOnly(); !ro {
			return Decision{Behavior: Deny, Reason: fmt.Sprintf("Plan mode allows read-only commands only; `%s` is not (%s). Present the plan with ExitPlanMode first.", shortCmd(r.Command), why)}
		}
	}
	if p.Mode == ModeAuto && p.ClassifyAllShell {
		return Decision{Behavior: Ask, Reason: fmt.Sprintf("The command `%s` needs approval: autoMode.classifyAllShell sends every command to auto mode's classifier.", shortCmd(r.Command))}
	}
	return bashAllow(p, bp, r.Command, forms)
}

// decideUnparsed handles a command the shell parser rejects: deny rules
// are matched against the whole text, and it is never allowed by
// analysis.
func decideUnparsed(p *Policy, command string, err error) Decision {
	for _, b := range []Behavior{Deny, Ask} {
		for _, rule := range p.rules(b, "Bash") {
			if rule.Content != "" && bashMatch(rule.Content, command) {
				return byRule(b, &rule, fmt.Sprintf("The command %s by the %s.", verb(b), rule.Describe()))
			}
		}
	}
	if rule := p.whole(Ask, "Bash"); rule != nil {
		return byRule(Ask, rule, fmt.Sprintf("The command needs approval: the %s covers every command.", rule.Describe()))
	}
	if rule := p.whole(Allow, "Bash"); rule != nil {
		return byRule(Allow, rule, fmt.Sprintf("The %s allows every command.", rule.Describe()))
	}
	if p.Mode == ModeBypass {
		return Decision{Behavior: Allow, Reason: "bypassPermissions mode allows it."}
	}
	if p.Mode == ModePlan {
		return Decision{Behavior: Deny, Reason: fmt.Sprintf("Plan mode allows read-only commands only, and this command could not be analysed (%v).", err)}
	}
	return Decision{Behavior: Ask, Reason: fmt.Sprintf("The command needs approval: it could not be analysed (%v).", err)}
}

// bashRules looks for a rule with behaviour b that matches any part of
// the command: a simple command, a command it runs, or a file it reads
// or writes (each in the forms forms gives).
func bashRules(p *Policy, bp *bashPlan, b Behavior, forms func(access) []string) (Decision, bool) {
	rules := p.rules(b, "Bash")
	for _, ci := range bp.cmds {
		for _, rule := range rules {
			if rule.Content == "" {
				continue
			}
			for _, f := range ci.forms {
				if bashMatch(rule.Content, f) {
					return byRule(b, &rule, fmt.Sprintf("The command `%s` %s by the %s.", shortCmd(ci.c.Text), verb(b), rule.Describe())), true
				}
			}
			for _, run := range ci.runs {
				if len(run) > 0 && bashMatch(rule.Content, strings.Join(run, " ")) {
					return byRule(b, &rule, fmt.Sprintf("The command `%s` runs `%s`, which %s by the %s.", shortCmd(ci.c.Text), strings.Join(run, " "), verb(b), rule.Describe())), true
				}
			}
		}
	}
	all := append([]access{}, bp.redirects...)
	for _, ci := range bp.cmds {
		all = append(all, ci.files...)
	}
	for _, a := range all {
		if a.path == "" {
			continue
		}
		tool := "Read"
		if a.write {
			tool = "Edit"
		}
		for _, f := range forms(a) {
			if rule := p.firstPathRule(p.pathRules(b, tool, a.write), f); rule != nil {
				act := "reads"
				if a.write {
					act = "writes"
				}
				return byRule(b, rule, fmt.Sprintf("The command `%s` %s %s, which %s by the %s.", shortCmd(a.cmd), act, f, verb(b), rule.Describe())), true
			}
		}
	}
	return Decision{}, false
}

// protectedWrites asks when a command writes a protected file.
func protectedWrites(p *Policy, bp *bashPlan, forms func(access) []string) (Decision, bool) {
	for _, ci := range bp.cmds {
		if !wholeRemovers[ci.c.Name()] {
			continue
		}
		files := ci.files
		if ci.c.Name() == "mv" && len(files) > 1 {
			files = files[:len(files)-1] // mv src . moves into the folder
		}
		for _, a := range files {
			if !a.write || a.path == "" {
				continue
			}
			fs := forms(a)
			if a.glob != "" {
				fs = fs[2:] // a glob removes what it matches, not its folder
			}
			for _, f := range fs {
				if wd := p.workDirWithin(f); wd != "" {
					return Decision{Behavior: Ask, Safety: true, Reason: fmt.Sprintf("The command `%s` removes or moves %s, which holds the working folder %s itself (its .git and settings included); that needs approval.", shortCmd(a.cmd), f, wd)}, true
				}
			}
		}
	}
	all := append([]access{}, bp.redirects...)
	for _, ci := range bp.cmds {
		all = append(all, ci.files...)
	}
	for _, a := range all {
		if !a.write || a.path == "" {
			continue
		}
		for _, f := range forms(a) {
			if prot, why := protectedPath(f); prot {
				return Decision{Behavior: Ask, Safety: true, Reason: fmt.Sprintf("The command `%s` writes %s, which needs approval: %s.", shortCmd(a.cmd), f, why)}, true
			}
		}
	}
	return Decision{}, false
}

// dynamicReason says what makes a script impossible to check statically.
func dynamicReason(s *shell.Script) string {
	f := s.Features
	switch {
	case f.CmdSubst:
		return "uses command substitution"
	case f.ProcSubst:
		return "uses process substitution"
	case f.DynamicProg:
		return "runs a program named by a variable"
	case f.DynamicPayload:
		return "runs computed text with eval or a shell's -c"
	case f.ParamAssign:
		return "assigns variables inside an expansion"
	}
	for _, c := range s.Commands {
		if c.Program == "eval" {
			return "uses eval"
		}
	}
	return ""
}

// bashAllow decides a command no deny or ask rule stopped: every simple
// command must be allowed by a rule, be read-only, or be a file command
// acceptEdits allows; every file it touches must be inside the working
// folders.
func bashAllow(p *Policy, bp *bashPlan, command string, forms func(access) []string) Decision {
	allows := p.rules(Allow, "Bash")
	matched := func(text string) *Rule {
		for _, rule := range allows {
			if rule.Content != "" && bashMatch(rule.Content, text) {
				return &rule
			}
		}
		return nil
	}
	var unmatched []*shell.Command
	var firstRule *Rule
	byMode := false
	for _, ci := range bp.cmds {
		c := ci.c
		if c.Payload != "" {
			continue // its commands are judged one by one
		}
		var rule *Rule
		for _, f := range ci.forms {
			if rule = matched(f); rule != nil {
				break
			}
		}
		runsOK := true
		for _, run := range ci.runs {
			if len(run) == 0 || matched(strings.Join(run, " ")) == nil {
				runsOK = false
			}
		}
		switch {
		case dangerousAssign(c):
			unmatched = append(unmatched, c)
		case rule != nil && runsOK:
			if firstRule == nil {
				firstRule = rule
			}
		case bareAssignment(c):
		case len(ci.runs) == 0 && readOnlyCommand(c):
		case len(ci.runs) == 0 && p.Mode.acceptsEdits() && acceptEditsCommands[c.Name()] && (c.Name() != "sed" || hasAnyOption(c.ArgWords, " -i --in-place ")):
			byMode = true
		default:
			unmatched = append(unmatched, c)
		}
	}
	if len(unmatched) > 0 {
		parts := make([]string, len(unmatched))
		for i, c := range unmatched {
			parts[i] = "`" + shortCmd(c.Text) + "`"
		}
		return Decision{Behavior: Ask, Suggestions: bashSuggestions(unmatched),
			Reason: fmt.Sprintf("The command needs approval: no allow rule matches %s.", strings.Join(parts, ", "))}
	}
	if d, ok := bashFilesOutside(p, bp, forms); ok {
		return d
	}
	switch {
	case firstRule != nil:
		return byRule(Allow, firstRule, fmt.Sprintf("The command is allowed by the %s.", firstRule.Describe()))
	case byMode:
		return Decision{Behavior: Allow, Reason: fmt.Sprintf("%s mode allows file commands inside the working folders.", p.Mode)}
	}
	return Decision{Behavior: Allow, Reason: "The command only reads inside the working folders."}
}

// dangerousAssign reports an assignment that can change what a command
// runs (PATH=…, LD_PRELOAD=…), which no rule may allow unseen.
func dangerousAssign(c *shell.Command) bool {
	for _, a := range c.Assigns {
		if shell.DangerousEnv(a.Name) {
			return true
		}
	}
	return false
}

// bareAssignment is VAR=value with no program, of a harmless variable.
func bareAssignment(c *shell.Command) bool {
	if c.Program != "" || len(c.Wrappers) > 0 || len(c.Assigns) == 0 {
		return false
	}
	for _, a := range c.Assigns {
		if shell.DangerousEnv(a.Name) || !a.Value.Static {
			return false
		}
	}
	return true
}

// readOnlyCommand reports whether c is read-only by itself; cd within the
// working folders counts, since it only changes where later commands run.
func readOnlyCommand(c *shell.Command) bool {
	if c.Program == "cd" || c.Program == "pushd" || c.Program == "popd" {
		for _, a := range c.Assigns {
			if shell.DangerousEnv(a.Name) {
				return false
			}
		}
		return len(c.Redirects) == 0
	}
	ok, _ := c.ReadOnly()
	return ok
}

// bashFilesOutside asks when a command reads or writes outside the
// working folders, or a file whose name is computed.
func bashFilesOutside(p *Policy, bp *bashPlan, forms func(access) []string) (Decision, bool) {
	all := append([]access{}, bp.redirects...)
	for _, ci := range bp.cmds {
		all = append(all, ci.files...)
	}
	for _, a := range all {
		if a.path == "" {
			if a.write || a.known {
				return Decision{Behavior: Ask, Reason: fmt.Sprintf("The command `%s` needs approval: it uses the computed file name %s.", shortCmd(a.cmd), a.raw)}, true
			}
			continue
		}
		for _, f := range forms(a) {
			ok := p.readable(f)
			if a.write {
				ok = p.inWorkDirs(f)
			}
			if !ok {
				act := "reads"
				if a.write {
					act = "writes"
				}
				return Decision{Behavior: Ask, BlockedPath: f, Reason: fmt.Sprintf("The command `%s` %s %s, outside the working folders; that needs approval.", shortCmd(a.cmd), act, f),
					Suggestions: []Update{{Type: UpdateAddDirectories, Directories: []string{dirOf(f)}, Destination: DestSession}}}, true
			}
		}
	}
	return Decision{}, false
}

func dirOf(f string) string {
	if i := strings.LastIndexByte(f, '/'); i > 0 {
		return f[:i]
	}
	return "/"
}

// bashSuggestions offers "Bash(program sub *)" rules for the commands
// that need approval, at most five.
func bashSuggestions(cmds []*shell.Command) []Update {
	var rules []string
	seen := map[string]bool{}
	for _, c := range cmds {
		if c.DynamicProgram || len(c.Args) == 0 {
			continue
		}
		words := []string{c.Name()}
		if len(c.ArgWords) > 1 && c.ArgWords[1].Static && subcommandLike(c.ArgWords[1].Value) {
			words = append(words, c.ArgWords[1].Value)
		}
		rule := FormatRule("Bash", strings.Join(words, " ")+" *")
		if !seen[rule] && len(rules) < 5 {
			seen[rule] = true
			rules = append(rules, rule)
		}
	}
	if len(rules) == 0 {
		return nil
	}
	return []Update{{Type: UpdateAddRules, Rules: rules, Behavior: Allow, Destination: DestLocal}}
}

// subcommandLike reports whether a command's first argument reads as a
// subcommand (git log, npm run, go test) that a suggested rule should keep,
// rather than an option or an operand such as a file name (touch a.txt,
// cat ./x, cp ~/y): a word of letters, digits, '-', '_' and ':' that does
// not start with '-'.
func subcommandLike(w string) bool {
	if w == "" || w[0] == '-' {
		return false
	}
	for _, r := range w {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == ':':
		default:
			return false
		}
	}
	return true
}

// accessForms are the paths an access stands for: its path as given and
// resolved, and for a glob every file it matches, as given and resolved.
func (r *Request) accessForms(a access) []string {
	real := func(x string) string {
		if y := r.Real[x]; y != "" {
			return y
		}
		return x
	}
	out := []string{a.path, real(a.path)}
	if a.glob != "" {
		for _, m := range r.Globs[a.glob] {
			out = append(out, m, real(m))
		}
	}
	if a.tree {
		if f := r.Trees[treeKey(a)]; f != "" {
			out = append(out, f)
		}
	}
	return out
}
