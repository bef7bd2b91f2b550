package search

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
)

// verdict is the outcome of matching a path against a set of rules.
type verdict uint8

const (
	noVerdict verdict = iota
	ignored
	whitelisted
)

// ruleSet is the patterns of one ignore file, in file order; the last
// pattern that matches decides.
type ruleSet struct {
	globs []*glob
}

// parseRules reads gitignore syntax. Lines that do not compile are
// skipped, as git and ripgrep do.
func parseRules(data []byte) *ruleSet {
	rs := &ruleSet{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	first := true
	for sc.Scan() {
		line := sc.Text()
		if first {
			line = strings.TrimPrefix(line, "\uFEFF")
			first = false
		}
		g, ok, err := parseGlob(line)
		if err != nil || !ok {
			continue
		}
		rs.globs = append(rs.globs, g)
	}
	if len(rs.globs) == 0 {
		return nil
	}
	return rs
}

func (rs *ruleSet) match(rel, name string, isDir bool) verdict {
	if rs == nil {
		return noVerdict
	}
	for i := len(rs.globs) - 1; i >= 0; i-- {
		if g := rs.globs[i]; g.match(rel, name, isDir) {
			if g.negate {
				return whitelisted
			}
			return ignored
		}
	}
	return noVerdict
}

// Names of the files and folders the walker treats specially.
const (
	gitignoreName = ".gitignore"
	ignoreName    = ".ignore"
	rgignoreName  = ".rgignore"
	gitDirName    = ".git"
)

// ignoreNode holds the ignore rules of one directory and links to its
// parent's. Directories without rules of their own share their parent's
// node.
type ignoreNode struct {
	parent *ignoreNode
	dir    string // absolute, cleaned

	custom  *ruleSet // .rgignore
	ignore  *ruleSet // .ignore
	git     *ruleSet // .gitignore
	exclude *ruleSet // .git/info/exclude
	hasGit  bool     // dir holds a .git entry
	anyGit  bool     // dir or an ancestor holds a .git entry
	any     bool     // this node or an ancestor has rules
}

// newIgnoreNode reads the ignore files of dir, whose entry names are
// known (so absent files cost nothing). It returns parent itself when dir
// adds nothing.
func newIgnoreNode(parent *ignoreNode, dir string, has func(name string) bool) *ignoreNode {
	n := &ignoreNode{parent: parent, dir: dir}
	if parent != nil {
		n.anyGit, n.any = parent.anyGit, parent.any
	}
	changed := false
	if has(gitDirName) {
		n.hasGit, n.anyGit, changed = true, true, true
		if data, err := os.ReadFile(filepath.Join(dir, gitDirName, "info", "exclude")); err == nil {
			n.exclude = parseRules(data)
		}
	}
	load := func(name string) *ruleSet {
		if !has(name) {
			return nil
		}
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil
		}
		return parseRules(data)
	}
	n.custom, n.ignore, n.git = load(rgignoreName), load(ignoreName), load(gitignoreName)
	if n.custom != nil || n.ignore != nil || n.git != nil || n.exclude != nil {
		n.any, changed = true, true
	}
	if !changed && parent != nil {
		return parent
	}
	return n
}

// parentNodes builds the chain of ignore nodes for the ancestors of dir
// (not dir itself), from the file system root down.
func parentNodes(dir string) *ignoreNode {
	var chain []string
	for d := filepath.Dir(dir); ; d = filepath.Dir(d) {
		chain = append(chain, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	var node *ignoreNode
	for i := len(chain) - 1; i >= 0; i-- {
		d := chain[i]
		if d == dir {
			continue
		}
		node = newIgnoreNode(node, d, func(name string) bool {
			_, err := os.Lstat(filepath.Join(d, name))
			return err == nil
		})
	}
	return node
}

// match applies the rules of this node and its ancestors to the entry at
// path (absolute) with base name name, with ripgrep's precedence: the
// deepest matching .rgignore rule, else the deepest .ignore rule, else the
// deepest .gitignore, else .git/info/exclude. Git rules count only inside
// a git repository and only up to its top.
func (n *ignoreNode) match(path, name string, isDir bool) verdict {
	if n == nil || !n.any {
		return noVerdict
	}
	var custom, ign, git, excl verdict
	sawGit := false
	for a := n; a != nil; a = a.parent {
		if !a.any {
			break
		}
		rel := relTo(a.dir, path)
		if custom == noVerdict {
			custom = a.custom.match(rel, name, isDir)
		}
		if ign == noVerdict {
			ign = a.ignore.match(rel, name, isDir)
		}
		if n.anyGit && !sawGit {
			if git == noVerdict {
				git = a.git.match(rel, name, isDir)
			}
			if excl == noVerdict {
				excl = a.exclude.match(rel, name, isDir)
			}
		}
		sawGit = sawGit || a.hasGit
	}
	for _, v := range [...]verdict{custom, ign, git, excl} {
		if v != noVerdict {
			return v
		}
	}
	return noVerdict
}

// relTo returns path relative to dir, both absolute and cleaned, with
// forward slashes.
func relTo(dir, path string) string {
	var rel string
	switch {
	case dir == string(filepath.Separator):
		rel = path[1:]
	case len(path) > len(dir):
		rel = path[len(dir)+1:]
	}
	if filepath.Separator != '/' {
		rel = filepath.ToSlash(rel)
	}
	return rel
}
