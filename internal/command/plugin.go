package command

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// PluginSource is what one plugin offers as commands and skills. Every
// command it yields is named "<Name>:<command>" and has SourcePlugin.
type PluginSource struct {
	// Name is the plugin's name, the commands' namespace.
	Name string
	// Commands are command files (.md), folders of them (walked as a
	// commands/ folder is), or skill folders (holding SKILL.md).
	Commands []string
	// Skills are folders of skill folders (as skills/ is), or skill
	// folders.
	Skills []string
	// Inline are commands the manifest defines by name.
	Inline []PluginCommand
	// Expand substitutes the plugin's variables (${CLAUDE_PLUGIN_ROOT})
	// in the commands' bodies; nil leaves them.
	Expand func(string) string
}

// PluginCommand is a command a plugin's manifest defines by name: its
// Markdown is in the file Path or is Content; the other fields, when set,
// override its frontmatter.
type PluginCommand struct {
	Name         string
	Path         string
	Content      string
	Description  string
	ArgumentHint string
	Model        string
	AllowedTools []string
}

// LoadPlugin reads a plugin's commands and skills. At one name a skill
// overrides a command, and an inline command overrides both. Problems are
// returned as errors that name the file; the commands come back sorted by
// name.
func LoadPlugin(p PluginSource) ([]*Command, []error) {
	l := &loader{byName: map[string]*Command{}, seenRoot: map[string]bool{}}
	top := p.Name + ":"
	for _, path := range p.Commands {
		fi, err := os.Stat(path)
		switch {
		case err != nil:
			l.errs = append(l.errs, fmt.Errorf("load commands of plugin %s: %w", p.Name, err))
		case fi.IsDir() && hasSkill(path):
			l.skill(path, top+filepath.Base(path), SourcePlugin)
		case fi.IsDir():
			l.commandsUnder(path, top, SourcePlugin)
		case strings.HasSuffix(path, ".md"):
			l.commandFile(path, top+strings.TrimSuffix(filepath.Base(path), ".md"), SourcePlugin)
		default:
			l.errs = append(l.errs, fmt.Errorf("load commands of plugin %s: %s is not a .md file or a folder", p.Name, path))
		}
	}
	for _, dir := range p.Skills {
		if hasSkill(dir) {
			l.skill(dir, top+filepath.Base(dir), SourcePlugin)
			continue
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			l.errs = append(l.errs, fmt.Errorf("load skills of plugin %s: %w", p.Name, err))
			continue
		}
		for _, en := range entries {
			sub := filepath.Join(dir, en.Name())
			if !strings.HasPrefix(en.Name(), ".") && hasSkill(sub) {
				l.skill(sub, top+en.Name(), SourcePlugin)
			}
		}
	}
	for _, ic := range p.Inline {
		l.inline(ic, top)
	}
	out := make([]*Command, 0, len(l.byName))
	for _, c := range l.byName {
		if p.Expand != nil {
			c.Body = p.Expand(c.Body)
		}
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, l.errs
}

// inline adds a command a plugin's manifest defines by name.
func (l *loader) inline(ic PluginCommand, top string) {
	var (
		c   *Command
		err error
	)
	name := top + ic.Name
	if ic.Path != "" {
		if fi, serr := os.Stat(ic.Path); serr == nil && fi.IsDir() && hasSkill(ic.Path) {
			c, err = l.parse(filepath.Join(ic.Path, "SKILL.md"), name, SourcePlugin)
			if c != nil {
				c.Skill, c.Dir = true, ic.Path
			}
		} else {
			c, err = l.parse(ic.Path, name, SourcePlugin)
		}
	} else {
		c, err = l.parseData([]byte(ic.Content), "the manifest's commands."+ic.Name, name, SourcePlugin)
	}
	if err != nil {
		l.errs = append(l.errs, err)
		return
	}
	if ic.Description != "" {
		c.Description, c.HasDescription = ic.Description, true
	}
	if ic.ArgumentHint != "" {
		c.ArgumentHint = ic.ArgumentHint
	}
	if ic.Model != "" && ic.Model != "inherit" {
		c.Model = ic.Model
	}
	if len(ic.AllowedTools) > 0 {
		c.AllowedTools = ic.AllowedTools
	}
	l.add(c)
}
