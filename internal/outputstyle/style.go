package outputstyle

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"reins/internal/frontmatter"
)

//go:embed text
var texts embed.FS

// DefaultName is the name of the default style, which changes nothing.
const DefaultName = "default"

// Source says where a style comes from.
type Source string

// The sources of styles, in rising precedence: at one name a later one
// replaces an earlier one.
const (
	SourceBuiltin Source = "built-in"
	SourcePlugin  Source = "plugin"
	SourceUser    Source = "user"
	SourceProject Source = "project"
)

// Style is one output style.
type Style struct {
	// Name is how settings (outputStyle) and /output-style name it: the
	// frontmatter's name, else the file name without .md; a plugin's
	// styles are named plugin:name.
	Name        string
	Description string
	// Prompt is the text added to the system prompt ("" for default).
	Prompt string
	// KeepCodingInstructions keeps reins's instructions about software
	// engineering work in the system prompt (frontmatter
	// keep-coding-instructions; true for the built-in styles).
	KeepCodingInstructions bool
	Source                 Source
	// Path is the file the style was read from ("" for built-ins).
	Path string
}

// IsDefault reports whether s is the default style.
func (s Style) IsDefault() bool { return s.Source == SourceBuiltin && s.Name == DefaultName }

// IsDefault reports whether name names the default style: empty, or
// "default" in any case.
func IsDefault(name string) bool {
	name = strings.TrimSpace(name)
	return name == "" || strings.EqualFold(name, DefaultName)
}

// Default returns the default style.
func Default() Style {
	return Style{Name: DefaultName, Source: SourceBuiltin,
		Description: "reins's usual way of working: complete software engineering tasks efficiently"}
}

// Builtins returns the built-in styles, default first.
func Builtins() []Style {
	return []Style{
		Default(),
		{Name: "Explanatory", Source: SourceBuiltin, KeepCodingInstructions: true,
			Description: "Explains its implementation choices and the code base's patterns as it works",
			Prompt:      mustText("explanatory.md")},
		{Name: "Learning", Source: SourceBuiltin, KeepCodingInstructions: true,
			Description: "Learn by doing: asks you to write small pieces of code yourself (marked TODO(human)) and explains as it works",
			Prompt:      mustText("learning.md")},
	}
}

func mustText(name string) string {
	b, err := texts.ReadFile("text/" + name)
	if err != nil {
		panic("outputstyle: missing embedded text " + name) // a build defect, caught by every test
	}
	return strings.TrimSpace(string(b))
}

// PluginStyles are the output style files, or folders of them, of one
// loaded plugin (plugin.Plugin.OutputStyles).
type PluginStyles struct {
	Plugin string
	Paths  []string
}

// Roots say where custom styles are read from. User and Project are
// configuration folders (~/.claude, <project>/.claude ...), each list in
// rising precedence; their output-styles/ subfolders hold the styles.
type Roots struct {
	User    []string
	Project []string
	Plugins []PluginStyles
}

// Load reads every style: the built-ins, then the plugins', the user's
// and the project's, where at one name (compared without case) a later
// source replaces an earlier one. The list is sorted: default first, then
// the other built-ins, then the rest by name. A file that cannot be read
// or parsed is left out and reported in the errors, which name it.
func Load(r Roots) ([]Style, []error) {
	l := &loader{seen: map[string]bool{}}
	l.styles = Builtins()
	for _, p := range r.Plugins {
		for _, path := range p.Paths {
			l.walk(path, SourcePlugin, p.Plugin)
		}
	}
	for _, root := range r.User {
		l.walk(filepath.Join(root, "output-styles"), SourceUser, "")
	}
	for _, root := range r.Project {
		l.walk(filepath.Join(root, "output-styles"), SourceProject, "")
	}
	out := l.styles
	sort.SliceStable(out, func(i, j int) bool {
		bi, bj := out[i].Source == SourceBuiltin, out[j].Source == SourceBuiltin
		if bi != bj {
			return bi
		}
		if bi {
			return false // built-ins keep their order
		}
		return strings.ToLower(out[i].Name) < strings.ToLower(out[j].Name)
	})
	return out, l.errs
}

// Find returns the style named name: an exact match first, else one whose
// name differs only in case. The default style ("" or "default") is
// found without reading anything. ok is false when no style has the name;
// errs are the problems met reading the styles (see Load).
func Find(r Roots, name string) (s Style, ok bool, errs []error) {
	if IsDefault(name) {
		return Default(), true, nil
	}
	name = strings.TrimSpace(name)
	all, errs := Load(r)
	if s, ok := Match(all, name); ok {
		return s, true, errs
	}
	return Style{}, false, errs
}

// Match picks the style named name from styles: an exact match first,
// else one whose name differs only in case.
func Match(styles []Style, name string) (Style, bool) {
	name = strings.TrimSpace(name)
	for _, s := range styles {
		if s.Name == name {
			return s, true
		}
	}
	for _, s := range styles {
		if strings.EqualFold(s.Name, name) {
			return s, true
		}
	}
	return Style{}, false
}

// Names returns the names of styles, in order.
func Names(styles []Style) []string {
	out := make([]string, len(styles))
	for i, s := range styles {
		out[i] = s.Name
	}
	return out
}

type loader struct {
	styles []Style
	errs   []error
	seen   map[string]bool // real paths of the files read
}

// walk reads the .md files at path (a file, or a folder searched with its
// subfolders). A folder that does not exist holds no styles.
func (l *loader) walk(path string, src Source, plugin string) {
	fi, err := os.Stat(path)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			l.errs = append(l.errs, fmt.Errorf("read output styles %s: %w", path, err))
		}
		return
	}
	if !fi.IsDir() {
		if !strings.HasSuffix(path, ".md") || !fi.Mode().IsRegular() {
			l.errs = append(l.errs, fmt.Errorf("output style %s: not a .md file or a folder", path))
			return
		}
		l.file(path, src, plugin)
		return
	}
	err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			l.errs = append(l.errs, fmt.Errorf("read output styles %s: %w", p, err))
			return nil
		}
		if p != path && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), ".md") {
			// A named pipe or device would block the read: only regular
			// files (or links to them) are styles.
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
				l.file(p, src, plugin)
			}
		}
		return nil
	})
	if err != nil {
		l.errs = append(l.errs, fmt.Errorf("read output styles %s: %w", path, err))
	}
}

// file reads one style file and adds it, replacing a style of the same
// name from an earlier source.
func (l *loader) file(path string, src Source, plugin string) {
	real := path
	if r, err := filepath.EvalSymlinks(path); err == nil {
		real = r
	}
	if l.seen[real] {
		return
	}
	l.seen[real] = true
	data, err := os.ReadFile(path)
	if err != nil {
		l.errs = append(l.errs, fmt.Errorf("read output style %s: %w", path, err))
		return
	}
	doc, err := frontmatter.Parse(data)
	if err != nil {
		l.errs = append(l.errs, fmt.Errorf("output style %s: %w", path, err))
		return
	}
	name := strings.TrimSpace(doc.Fields.String("name"))
	if name == "" {
		name = strings.TrimSuffix(filepath.Base(path), ".md")
	}
	if plugin != "" {
		name = plugin + ":" + name
	}
	if IsDefault(name) {
		l.errs = append(l.errs, fmt.Errorf("output style %s: the name %q is the default style's; the file is ignored", path, name))
		return
	}
	keep, err := doc.Fields.Bool("keep-coding-instructions")
	if err != nil {
		l.errs = append(l.errs, fmt.Errorf("output style %s: %w (taken as false)", path, err))
	}
	body := strings.TrimSpace(doc.Body)
	desc := strings.TrimSpace(doc.Fields.String("description"))
	if desc == "" {
		desc = frontmatter.FirstLine(body)
	}
	s := Style{Name: name, Description: desc, Prompt: body, KeepCodingInstructions: keep, Source: src, Path: path}
	for i, old := range l.styles {
		if strings.EqualFold(old.Name, name) {
			l.styles[i] = s
			return
		}
	}
	l.styles = append(l.styles, s)
}
