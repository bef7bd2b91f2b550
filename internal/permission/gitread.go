package permission

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"reins/internal/shell"
)

// gitTimeout bounds one git command ResolveTrees runs to list a
// repository's tracked files.
const gitTimeout = 10 * time.Second

// gitRead is what a read-only git command prints of the repository's
// files (git grep, log -p, diff, show, cat-file -p), for ResolveTrees to
// judge against Read deny and ask rules: the files it reads are in the
// repository's history, not named on the command line.
type gitRead struct {
	// dir is the folder git runs in (after -C).
	dir string
	// globals are the command's --git-dir and --work-tree options, made
	// absolute, for the git commands that list its files.
	globals []string
	// revPaths are the path parts of REV:path operands (show, cat-file):
	// relative to the top of the work tree, or to dir when they start
	// with ./ or ../.
	revPaths []string
	// whole is set when the command prints the content of the tracked
	// files under its pathspecs (all of them without one).
	whole bool
	// scopeDir is set when the files read without a pathspec are those
	// under dir (git grep) rather than the whole work tree.
	scopeDir bool
	// walk is set when the files read are those on disk, tracked or not
	// (git grep --untracked or --no-index).
	walk bool
	// specs are the operands after "--" (pathspecs, absolute); maybe are
	// those before it, which git takes as pathspecs when they name a
	// file on disk and as revisions otherwise.
	specs, maybe []string
	// history is set when the command prints files of past commits
	// (log -p, show of a commit), which may hold files since removed;
	// an operand before "--" that names no file on disk is a revision
	// and sets it too.
	history bool
	// changed is set for a git diff without revisions, which prints
	// only the changed files: the option that lists them, "--cached" for
	// the index or "--no-relative" for the work tree.
	changed string
	// shows are the objects git show prints the patch of; when every one
	// is a commit, the files read are those the commits change.
	shows []string
	// objects are the objects git cat-file prints: a commit prints no
	// file, anything else (a blob id) may be any file.
	objects []string
	// submodules is set when the command reads the submodules' files too
	// (git grep --recurse-submodules).
	submodules bool
	// topSpec is set when a pathspec uses magic (":/", ":(top)…"): it
	// counts as the whole work tree.
	topSpec bool
}

// gitValueOptions are options of git log, diff, show and archive given
// their value as the next word; the value is not an operand. Taking a
// flag for one only widens what is judged.
const gitValueOptions = " -n -S -G -L -O -o --prefix --output --remote --exec --max-count --skip --since --until --after --before --author --committer --grep --format --pretty --date --abbrev --encoding --max-depth --threads --exclude --branches --tags --remotes --glob --diff-filter --relative --src-prefix --dst-prefix --word-diff-regex --anchored --find-object "

// gitGrepValueOptions are git grep's options given their value as the
// next word (-n is a flag there).
const gitGrepValueOptions = " -e -f -A -B -C -m -O --max-count --max-depth --threads --regexp --file --context --after-context --before-context --open-files-in-pager "

// gitNoPatch are the options of diff and show that print names or
// counts instead of the patch.
const gitNoPatch = " --stat --numstat --shortstat --name-only --name-status --summary -s --no-patch --raw --dirstat --check --quiet "

// gitPatch are the options of log and friends that print the patch.
const gitPatch = " -p -u --patch --patch-with-stat --patch-with-raw --cc -c --dd -m --diff-merges --remerge-diff --word-diff --color-words -L --full-diff -U --unified -W --function-context --binary "

// gitCommandRead returns what the git command words (its arguments, the
// program left out) print of the repository's files, run in dir; nil when
// it prints no file content.
func gitCommandRead(words []shell.Word, dir, home string) *gitRead {
	var globals []string
	i := 0
	for ; i < len(words); i++ {
		v := words[i].Value
		switch {
		case v == "-C" && i+1 < len(words):
			i++
			dir, _ = tildePath(words[i].Raw, words[i].Value, dir, home)
			if dir == "" {
				return nil
			}
		case (v == "--git-dir" || v == "--work-tree") && i+1 < len(words):
			i++
			globals = append(globals, v+"="+absPath(words[i].Value, dir, home))
		case strings.HasPrefix(v, "--git-dir=") || strings.HasPrefix(v, "--work-tree="):
			name, val, _ := strings.Cut(v, "=")
			globals = append(globals, name+"="+absPath(val, dir, home))
		case v == "-c" || v == "--namespace":
			i++
		case strings.HasPrefix(v, "-"):
		default:
			g := gitSubRead(v, words[i+1:], dir, home)
			if g != nil {
				g.globals = globals
			}
			return g
		}
	}
	return nil
}

// gitEnvGlobals turns a command's GIT_DIR and GIT_WORK_TREE assignments
// into the options that say the same, made absolute against dir.
func gitEnvGlobals(assigns []shell.Assign, dir, home string) []string {
	var out []string
	for _, a := range assigns {
		opt := map[string]string{"GIT_DIR": "--git-dir", "GIT_WORK_TREE": "--work-tree"}[a.Name]
		if opt != "" && a.Value.Static && a.Value.Value != "" {
			out = append(out, opt+"="+absPath(a.Value.Value, dir, home))
		}
	}
	return out
}

func gitSubRead(sub string, rest []shell.Word, dir, home string) *gitRead {
	if sub == "stash" {
		if len(rest) == 0 || rest[0].Value != "show" {
			return nil
		}
		sub, rest = "stash show", rest[1:]
	}
	g := &gitRead{dir: dir}
	valued := gitValueOptions
	if sub == "grep" {
		valued = gitGrepValueOptions
	}
	var ops []string
	dashes := false
	for i := 0; i < len(rest); i++ {
		v := rest[i].Value
		switch {
		case dashes:
			if strings.HasPrefix(v, ":") {
				g.topSpec = true // pathspec magic (:/x, :(top)x, :!x)
			} else {
				g.specs = append(g.specs, absPath(v, dir, home))
			}
		case v == "--":
			dashes = true
		case strings.HasPrefix(v, "-") && len(v) > 1:
			if !strings.Contains(v, "=") && strings.Contains(valued, " "+v+" ") {
				i++
			}
		default:
			ops = append(ops, v)
		}
	}
	has := func(opts string) bool { return hasAnyOption(rest, opts) }
	switch sub {
	case "grep":
		if len(ops) > 0 && !has(" -e -f --regexp --file ") {
			ops = ops[1:] // the pattern
		}
		g.whole, g.scopeDir = true, true
		g.walk = has(" --untracked --no-index ")
		g.submodules = has(" --recurse-submodules ")
	case "log", "whatchanged", "diff-tree", "diff-files", "diff-index", "range-diff":
		g.whole = has(gitPatch)
		g.history = sub != "diff-files" && sub != "diff-index"
	case "diff":
		g.whole = has(" -p -u --patch ") || !has(gitNoPatch)
		g.walk = has(" --no-index ")
		if len(ops) == 0 {
			// no revision: the changes of the work tree or index only
			g.changed = "--no-relative"
			if has(" --cached --staged ") {
				g.changed = "--cached"
			}
		}
	case "show":
		g.whole = has(" -p -u --patch ") || !has(gitNoPatch)
		var commits []string
		for _, o := range ops {
			if p, ok := revPath(o); ok {
				g.revPaths = append(g.revPaths, p)
			} else {
				commits = append(commits, o)
			}
		}
		if len(ops) == 0 {
			commits = []string{"HEAD"}
		}
		g.whole = g.whole && len(commits) > 0
		g.history = g.whole
		if g.whole {
			g.shows = commits
		}
		ops = nil
	case "cat-file":
		if !has(" -p --batch --batch-command ") && (len(ops) < 2 || !gitObjectType(ops[0])) {
			return nil // -t, -s, -e print no content
		}
		if has(" --batch --batch-command ") {
			g.whole, g.history = true, true // the objects come on stdin
		}
		if len(ops) > 1 && gitObjectType(ops[0]) {
			ops = ops[1:]
		}
		for _, o := range ops {
			if p, ok := revPath(o); ok {
				g.revPaths = append(g.revPaths, p)
			} else {
				g.objects = append(g.objects, o)
			}
		}
		ops = nil
	case "stash show":
		// Its default, a diffstat, may be the patch (stash.showPatch); a
		// stash holds files since removed, and untracked ones with -u.
		g.whole, g.history = !has(gitNoPatch) || has(" -p --patch "), true
		g.walk = has(" -u --include-untracked --only-untracked ")
	case "archive":
		g.whole = true // the tracked files of a tree, under its pathspecs
	case "blame", "annotate":
		g.whole = len(ops)+len(g.specs) > 0
	default:
		return nil
	}
	for _, o := range ops {
		if strings.Contains(o, ":") {
			if p, ok := revPath(o); ok {
				g.revPaths = append(g.revPaths, p)
			}
			continue
		}
		g.maybe = append(g.maybe, absPath(o, dir, home))
	}
	if !g.whole && len(g.revPaths) == 0 && len(g.objects) == 0 {
		return nil
	}
	return g
}

// revPath splits a REV:path operand (HEAD:a/b, :a/b, :0:a/b) and returns
// its path part.
func revPath(o string) (string, bool) {
	rev, p, ok := strings.Cut(o, ":")
	if !ok {
		return "", false
	}
	if rev == "" && len(p) > 1 && p[0] >= '0' && p[0] <= '3' && p[1] == ':' {
		p = p[2:] // a stage number
	}
	if p == "" || strings.HasPrefix(p, "/") {
		return "", false // :/message searches commit messages
	}
	return p, true
}

func gitObjectType(v string) bool {
	return v == "blob" || v == "tree" || v == "commit" || v == "tag"
}

// hexName reports whether v reads as an abbreviated or full object id.
func hexName(v string) bool {
	if len(v) < 4 || len(v) > 64 {
		return false
	}
	for _, c := range v {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// gitCovered returns the first file the git command g reads that covered
// reports, or "": the paths of its REV:path operands and the tracked
// files under them (a tree), and the tracked files (files on disk, for
// walk) under its pathspecs. It runs git in the repository; a folder
// outside one gives nothing.
func gitCovered(g *gitRead, covered func(abs string) bool) string {
	top := strings.TrimRight(g.output(g.dir, "rev-parse", "--show-toplevel"), "\n")
	if top == "" && !g.walk {
		return ""
	}
	var trees []string // folders whose tracked files count
	whole, history := g.whole, g.history
	if len(g.objects) > 0 && !allCommits(g, top, g.objects) {
		whole, history = true, true // a blob or tree: any file
	}
	for _, p := range g.revPaths {
		base := top
		if strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") || base == "" {
			base = g.dir
		}
		abs := filepath.Join(base, p)
		if covered(abs) {
			return abs
		}
		trees = append(trees, abs)
	}
	if whole {
		scopes := append([]string{}, g.specs...)
		for _, m := range g.maybe {
			if _, err := os.Lstat(m); err == nil {
				scopes = append(scopes, m)
			} else {
				history = true // a revision
			}
		}
		for i, s := range scopes {
			if b := globBase(s); b != s {
				scopes[i] = b // a pathspec glob: the folder it starts in
			}
		}
		switch {
		case g.topSpec && top != "":
			scopes = append(scopes, top)
		case len(scopes) > 0 || len(trees) > 0:
			// pathspecs, or REV:path trees (git grep KEY HEAD:src)
		case g.scopeDir || top == "":
			scopes = []string{g.dir}
		default:
			scopes = []string{top}
		}
		if g.walk {
			for _, s := range scopes {
				if covered(s) {
					return s
				}
				if f := findCovered(s, true, covered); f != "" {
					return f
				}
			}
		} else {
			trees = append(trees, scopes...)
		}
	}
	if len(trees) == 0 || top == "" {
		return ""
	}
	var out string
	switch {
	case g.changed != "":
		out = g.output(top, "--no-optional-locks", "diff", "--no-relative", "--no-renames", "--name-only", "-z", g.changed)
	case len(g.revPaths) == 0 && allCommits(g, top, g.shows):
		// The files the commits change (those they remove included).
		args := append([]string{"show", "--name-only", "--format=", "--no-renames", "--no-relative", "-z"}, g.shows...)
		out, history = g.output(top, append(args, "--")...), false
	default:
		args := []string{"ls-files", "-z", "--full-name"}
		if g.submodules {
			args = append(args, "--recurse-submodules")
		}
		out = g.output(top, args...)
	}
	if history {
		// Files removed from the index since: a commit that adds them
		// prints them whole.
		out += "\x00" + g.output(top, "log", "--all", "--no-renames", "--diff-filter=D", "--name-only", "--format=", "-z")
	}
	for _, rel := range strings.FieldsFunc(out, func(r rune) bool { return r == 0 || r == '\n' }) {
		abs := filepath.Join(top, rel)
		for _, s := range trees {
			if (abs == s || strings.HasPrefix(abs, s+"/") || s == "/") && covered(abs) {
				return abs
			}
		}
	}
	return ""
}

// allCommits reports whether names are a few revisions that each name a
// commit (not a blob or tree, whose content git show prints whole).
func allCommits(g *gitRead, top string, names []string) bool {
	if len(names) == 0 || len(names) > 8 {
		return false
	}
	for _, n := range names {
		if strings.HasPrefix(n, "-") || g.output(top, "cat-file", "-t", n) != "commit\n" {
			return false
		}
	}
	return true
}

// output runs git with args in dir, with the command's --git-dir and
// --work-tree, and returns what it prints, or "" when it fails.
func (g *gitRead) output(dir string, args ...string) string {
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	all := append(append([]string{"-C", dir}, g.globals...), args...)
	cmd := exec.CommandContext(ctx, "git", all...)
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		return ""
	}
	return out.String()
}
