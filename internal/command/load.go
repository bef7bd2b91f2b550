package command

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"reins/internal/confdirs"
	"reins/internal/frontmatter"
	"reins/internal/fsutil"
)

// Roots are the configuration folders custom commands and skills are read from, each
// list in rising precedence. A folder that appears twice is read once.
type Roots = confdirs.Roots

// StandardRoots returns the usual roots (see confdirs.Standard).
func StandardRoots(home, configDir, cwd string) Roots { return confdirs.Standard(home, configDir, cwd) }

// Load reads the custom commands and skills under roots:
//
//   - every <root>/commands/**/*.md is a prompt command named by its path,
//     sub-folders joined with ':' (commands/frontend/component.md is
//     "frontend:component");
//   - a folder holding SKILL.md, under <root>/skills/ or inside
//     commands/, is a skill named by its folder (path);
//   - later roots override earlier ones of the same name (project over
//     user, .reins over .claude, managed over all), and at one root a skill
//     overrides a command.
//
// Files that cannot be read or parsed are skipped and reported in the
// returned errors (each names the file and line); a bad field is reported
// and ignored. The commands come back sorted by name.
func Load(roots Roots) ([]*Command, []error) {
	l := &loader{byName: map[string]*Command{}, seenRoot: map[string]bool{}}
	for _, r := range roots.User {
		l.root(r, SourceUser)
	}
	for _, r := range roots.Project {
		l.root(r, SourceProject)
	}
	for _, r := range roots.Managed {
		l.root(r, SourceManaged)
	}
	out := make([]*Command, 0, len(l.byName))
	for _, c := range l.byName {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, l.errs
}

type loader struct {
	byName   map[string]*Command
	seenRoot map[string]bool
	errs     []error
}

func (l *loader) root(root string, src Source) {
	real := realPath(root)
	if l.seenRoot[real] {
		return
	}
	l.seenRoot[real] = true
	l.commandsDir(filepath.Join(root, "commands"), src)
	l.skillsDir(filepath.Join(root, "skills"), src)
}

func (l *loader) add(c *Command) {
	if !ValidName(c.Name) {
		l.errs = append(l.errs, fmt.Errorf("load %s: %q cannot be typed as a command name (use letters, digits, '-', '_')", c.Path, c.Name))
		return
	}
	l.byName[c.Name] = c
}

// commandsDir walks a commands folder, following symbolic links to
// folders once each.
func (l *loader) commandsDir(dir string, src Source) { l.commandsUnder(dir, "", src) }

// commandsUnder walks a commands folder, naming what it finds with prefix
// first ("" or "name:").
func (l *loader) commandsUnder(dir, top string, src Source) {
	visited := map[string]bool{}
	var walk func(dir, prefix string)
	walk = func(dir, prefix string) {
		real := realPath(dir)
		if visited[real] {
			return
		}
		visited[real] = true
		entries, err := os.ReadDir(dir)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				l.errs = append(l.errs, fmt.Errorf("load commands %s: %w", dir, err))
			}
			return
		}
		if prefix != top && hasSkill(dir) {
			l.skill(dir, strings.TrimSuffix(prefix, ":"), src)
			return
		}
		for _, en := range entries {
			name := en.Name()
			if strings.HasPrefix(name, ".") {
				continue
			}
			p := filepath.Join(dir, name)
			isDir := en.IsDir()
			if en.Type()&fs.ModeSymlink != 0 {
				fi, err := os.Stat(p)
				if err != nil {
					continue // a dangling link
				}
				isDir = fi.IsDir()
			}
			switch {
			case isDir:
				walk(p, prefix+name+":")
			case strings.HasSuffix(name, ".md"):
				l.commandFile(p, prefix+strings.TrimSuffix(name, ".md"), src)
			}
		}
	}
	walk(dir, top)
}

func hasSkill(dir string) bool {
	fi, err := os.Stat(filepath.Join(dir, "SKILL.md"))
	return err == nil && !fi.IsDir()
}

func (l *loader) skillsDir(dir string, src Source) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			l.errs = append(l.errs, fmt.Errorf("load skills %s: %w", dir, err))
		}
		return
	}
	for _, en := range entries {
		p := filepath.Join(dir, en.Name())
		if strings.HasPrefix(en.Name(), ".") || !hasSkill(p) {
			continue
		}
		l.skill(p, en.Name(), src)
	}
}

func (l *loader) commandFile(path, name string, src Source) {
	c, err := l.parse(path, name, src)
	if err != nil {
		l.errs = append(l.errs, err)
		return
	}
	l.add(c)
}

func (l *loader) skill(dir, name string, src Source) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	c, err := l.parse(filepath.Join(abs, "SKILL.md"), name, src)
	if err != nil {
		l.errs = append(l.errs, err)
		return
	}
	c.Skill, c.Dir = true, abs
	l.add(c)
}

// MaxFileSize is the largest command or SKILL.md file read: a larger one
// (a log or a data dump left among the commands) is left out with a
// warning instead of being read whole at every start.
const MaxFileSize = 4 << 20

// parse reads one command or SKILL.md file.
func (l *loader) parse(path, name string, src Source) (*Command, error) {
	data, err := fsutil.ReadRegularFileMax(path, MaxFileSize)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w; the command is left out", path, err)
	}
	return l.parseData(data, path, name, src)
}

// parseData reads a command's Markdown; path names it in errors.
func (l *loader) parseData(data []byte, path, name string, src Source) (*Command, error) {
	doc, err := frontmatter.Parse(data)
	fmBroken := err != nil
	if fmBroken {
		// As Claude Code does, the command stays, with its frontmatter
		// ignored: its body after the block, or the whole text when the
		// block is never closed. What the frontmatter would have held back
		// is unknown, so the model may not invoke it; the user still can.
		l.errs = append(l.errs, fmt.Errorf("load %s: %w; the frontmatter is ignored, and only typing /%s runs it", path, err, name))
		_, _, body, _, serr := frontmatter.Split(data)
		if serr != nil {
			body = strings.TrimPrefix(strings.ReplaceAll(string(data), "\r\n", "\n"), "\ufeff")
		}
		doc = &frontmatter.Document{Body: body}
	}
	f := doc.Fields
	c := &Command{
		Name:           name,
		Kind:           Prompt,
		Source:         src,
		Path:           path,
		Body:           strings.TrimSpace(doc.Body),
		Description:    f.String("description"),
		HasDescription: strings.TrimSpace(f.String("description")) != "",
		ArgumentHint:   f.String("argument-hint"),
		WhenToUse:      firstString(f, "when_to_use", "when-to-use"),
		AllowedTools:   f.List("allowed-tools"),
		Model:          f.String("model"),
		Agent:          f.String("agent"),
		Fork:           f.String("context") == "fork",
	}
	if c.Model == "inherit" {
		c.Model = ""
	}
	if fmBroken {
		c.DisableModelInvocation = true
		if !c.HasDescription {
			c.Description = frontmatter.FirstLine(c.Body)
		}
		return c, nil
	}
	if !c.HasDescription {
		c.Description = frontmatter.FirstLine(c.Body)
	}
	bad := func(err error) { l.errs = append(l.errs, fmt.Errorf("load %s: %w (ignored)", path, err)) }
	for _, n := range f.List("arguments") {
		if !validArgumentName(n) {
			bad(fmt.Errorf("arguments: %q cannot be written as $%s in the body (use a letter or '_' first, then letters, digits, '_' or '-')", n, n))
			continue
		}
		c.ArgumentNames = append(c.ArgumentNames, n)
	}
	if c.DisableModelInvocation, err = f.Bool("disable-model-invocation"); err != nil {
		bad(err)
	}
	if f.Has("hooks") {
		var v any
		if err := f.Decode("hooks", &v); err != nil {
			bad(err)
		} else if b, err := json.Marshal(v); err != nil {
			bad(fmt.Errorf("hooks: %w", err))
		} else if v != nil {
			c.Hooks = b
		}
	}
	if f.Has("user-invocable") {
		ui, err := f.Bool("user-invocable")
		if err != nil {
			bad(err)
		} else {
			c.ModelOnly = !ui
		}
	}
	return c, nil
}

// validArgumentName reports whether a declared argument name can appear
// after a "$" in a template: a letter or '_' first, then letters, digits,
// '_' and '-'.
func validArgumentName(n string) bool {
	if n == "" || (n[0] >= '0' && n[0] <= '9') || n[0] == '-' {
		return false
	}
	for i := 0; i < len(n); i++ {
		if !isWordByte(n[i]) && n[i] != '-' {
			return false
		}
	}
	return true
}

func firstString(f frontmatter.Fields, keys ...string) string {
	for _, k := range keys {
		if s := f.String(k); s != "" {
			return s
		}
	}
	return ""
}
