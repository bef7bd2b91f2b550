package permission

import (
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// maxGlobMatches bounds the files of one glob that Resolve lists.
const maxGlobMatches = 10000

// maxTreeEntries bounds the entries ResolveTrees looks at in one folder
// tree, shallowest first.
const maxTreeEntries = 50000

// NewRequest builds the request for a call of tool with input: the Bash
// command, the paths file tools read or write (absolute against cwd), or
// the specifier of WebFetch, Agent and Skill calls. readOnly is the tool's
// own judgement (tool.Tool.IsReadOnly).
func NewRequest(tool string, input json.RawMessage, readOnly bool, cwd, home string) Request {
	r := Request{Tool: tool, Input: input, ReadOnly: readOnly, Dir: cwd}
	var in map[string]json.RawMessage
	_ = json.Unmarshal(input, &in)
	str := func(key string) string {
		var s string
		_ = json.Unmarshal(in[key], &s)
		return s
	}
	addPath := func(p string) {
		if p != "" {
			r.Paths = append(r.Paths, absPath(p, cwd, home))
		}
	}
	switch canonical(tool) {
	case "Bash":
		r.Command = str("command")
	case "Edit", "MultiEdit", "Write":
		r.Edit = true
		addPath(str("file_path"))
	case "NotebookEdit":
		r.Edit = true
		addPath(str("notebook_path"))
	case "Read":
		addPath(str("file_path"))
	case "NotebookRead":
		addPath(str("notebook_path"))
	case "Grep", "LS":
		addPath(orDot(str("path")))
	case "Glob":
		addPath(orDot(str("path")))
		if pat := str("pattern"); strings.HasPrefix(pat, "/") || strings.HasPrefix(pat, "~") || strings.Contains(pat, "..") {
			base := absPath(str("path"), cwd, home)
			addPath(absPath(globBase(pat), base, home))
		}
	case "WebFetch":
		if u, err := url.Parse(str("url")); err == nil && u.Hostname() != "" {
			r.Specifier = "domain:" + strings.ToLower(u.Hostname())
		}
	case "Agent":
		r.Specifier = str("subagent_type")
	case "Skill":
		r.Specifier = str("skill")
	default:
		for _, key := range []string{"file_path", "notebook_path", "path"} {
			addPath(str(key))
		}
		r.Edit = len(r.Paths) > 0 && !readOnly
	}
	return r
}

func orDot(p string) string {
	if p == "" {
		return "."
	}
	return p
}

// Resolve records the symlink-resolved form of every path the request
// names, the files of a Bash command included (relative to r.Dir, else
// cwd). It reads the file system; Decide does not.
func (r *Request) Resolve(cwd, home string) {
	if r.Dir != "" {
		cwd = r.Dir
	}
	if r.Real == nil {
		r.Real = map[string]string{}
	}
	add := func(p string) {
		if p == "" {
			return
		}
		if _, ok := r.Real[p]; !ok {
			r.Real[p] = realPath(p)
		}
	}
	for _, p := range r.Paths {
		add(p)
	}
	if canonical(r.Tool) == "Bash" && r.Command != "" {
		bp, err := planBash(r.Command, cwd, home)
		if err != nil {
			return
		}
		all := append([]access{}, bp.redirects...)
		for _, ci := range bp.cmds {
			all = append(all, ci.files...)
		}
		for _, a := range all {
			add(a.path)
			if a.glob == "" {
				continue
			}
			if r.Globs == nil {
				r.Globs = map[string][]string{}
			}
			if _, done := r.Globs[a.glob]; done {
				continue
			}
			matches := bashGlob(a.glob)
			if len(matches) > maxGlobMatches {
				matches = matches[:maxGlobMatches]
			}
			r.Globs[a.glob] = matches
			for _, m := range matches {
				add(m)
			}
		}
	}
}

// bashGlob expands an absolute glob as bash does by default: a wildcard
// does not match a leading dot unless the pattern's segment starts with
// one.
func bashGlob(pattern string) []string {
	matches, err := filepath.Glob(pattern)
	if err != nil {
		return nil
	}
	segs := strings.Split(pattern, "/")
	out := matches[:0]
	for _, m := range matches {
		ms := strings.Split(m, "/")
		hidden := false
		for i := 0; i < len(segs) && i < len(ms); i++ {
			if strings.HasPrefix(ms[i], ".") && !strings.HasPrefix(segs[i], ".") {
				hidden = true
				break
			}
		}
		if !hidden {
			out = append(out, m)
		}
	}
	return out
}

// treeKey names a whole-folder read in Request.Trees: its folder, and
// whether hidden files count.
func treeKey(a access) string {
	if a.git != nil {
		return "git\x00" + a.path + "\x00" + a.cmd
	}
	if a.hidden {
		return a.path
	}
	return a.path + "\x00visible"
}

// ResolveTrees looks, for each folder a Bash command reads whole (grep
// -r, rg, cp -r), for a file under it that one of p's Read deny or ask
// rules covers, and records the first found in r.Trees: the command then
// counts as reading that file, as a Grep of the folder would leave it
// out. It reads the file system (at most maxTreeEntries entries per
// folder, shallowest first); nothing is looked for when p has no such
// rule.
func (r *Request) ResolveTrees(p *Policy, cwd, home string) {
	if canonical(r.Tool) != "Bash" || r.Command == "" {
		return
	}
	var pats []pathPattern
	for _, b := range []Behavior{Deny, Ask} {
		for _, rule := range p.pathRules(b, "Read", false) {
			if pp, err := compilePath(rule.Content, rule.Root, p.Cwd, p.Home); err == nil {
				pats = append(pats, pp)
			}
		}
	}
	if len(pats) == 0 {
		return
	}
	if r.Dir != "" {
		cwd = r.Dir
	}
	bp, err := planBash(r.Command, cwd, home)
	if err != nil {
		return
	}
	covered := func(abs string) bool {
		for _, pp := range pats {
			if pp.match(abs) {
				return true
			}
		}
		return false
	}
	for _, ci := range bp.cmds {
		for _, a := range ci.files {
			if !a.tree || a.path == "" {
				continue
			}
			key := treeKey(a)
			if _, done := r.Trees[key]; done {
				continue
			}
			if r.Trees == nil {
				r.Trees = map[string]string{}
			}
			if a.git != nil {
				r.Trees[key] = gitCovered(a.git, covered)
				continue
			}
			r.Trees[key] = findCovered(a.path, a.hidden, covered)
		}
	}
}

// findCovered walks the folder dir breadth first, without following
// symbolic links, and returns the first path under it that covered
// reports, or "". Hidden entries are skipped unless hidden is set.
func findCovered(dir string, hidden bool, covered func(abs string) bool) string {
	queue := []string{dir}
	seen := 0
	for len(queue) > 0 && seen < maxTreeEntries {
		d := queue[0]
		queue = queue[1:]
		ents, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		for _, e := range ents {
			if !hidden && strings.HasPrefix(e.Name(), ".") {
				continue
			}
			seen++
			abs := filepath.Join(d, e.Name())
			if covered(abs) {
				return abs
			}
			if e.IsDir() {
				queue = append(queue, abs)
			}
		}
	}
	return ""
}
