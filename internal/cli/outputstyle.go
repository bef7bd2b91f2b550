package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"reins/internal/confdirs"
	"reins/internal/engine"
	"reins/internal/outputstyle"
	"reins/internal/prompt"
	"reins/internal/settings"
)

// styleState is the session's output style. The zero value is the
// default style.
type styleState struct {
	style outputstyle.Style
	// custom is set once the SDK client replaced the system prompt
	// (initialize's systemPrompt): the style is not part of it, and
	// switching styles leaves it alone.
	custom bool
	// sdkAppend is the SDK client's appendSystemPrompt, added to the
	// default prompt when a switch of style rebuilds it.
	sdkAppend string
}

// styleRoots are where the session's custom output styles live: the
// user's folders (Claude Code's config folder, CLAUDE_CONFIG_DIR honoured,
// then reins's), the project's .claude and .reins folders, and the loaded
// plugins'.
func (a *app) styleRoots() outputstyle.Roots {
	r := outputstyle.Roots{User: []string{a.claudeDir}, Project: confdirs.Standard(a.home, a.configDir, a.projDir).Project}
	if a.configDir != "" && a.configDir != a.claudeDir {
		r.User = append(r.User, a.configDir)
	}
	ps, _ := a.loadedPlugins()
	for _, p := range ps {
		if len(p.OutputStyles) > 0 {
			r.Plugins = append(r.Plugins, outputstyle.PluginStyles{Plugin: p.Name, Paths: p.OutputStyles})
		}
	}
	return r
}

// settingsOutputStyle is the outputStyle the merged settings name ("" for
// none).
func settingsOutputStyle(s *settings.Settings) string {
	if s == nil {
		return ""
	}
	var name string
	json.Unmarshal(s.Raw["outputStyle"], &name) //nolint:errcheck // checked when the settings loaded
	return strings.TrimSpace(name)
}

// resolveOutputStyle takes the output style the settings name. The
// default style reads nothing; a name no style has falls back to the
// default with a warning (on stderr in print and SDK modes, a notice in
// the terminal UI).
func (a *app) resolveOutputStyle() {
	name := settingsOutputStyle(a.settings)
	if outputstyle.IsDefault(name) || a.bare() {
		return
	}
	all, errs := outputstyle.Load(a.styleRoots())
	for _, err := range errs {
		a.warn(err.Error())
	}
	s, ok := outputstyle.Match(all, name)
	if !ok {
		a.warn(fmt.Sprintf("outputStyle %q (settings): no output style has this name; using the default style. Available: %s",
			name, strings.Join(outputstyle.Names(all), ", ")))
		return
	}
	a.styleMu.Lock()
	a.outStyle.style = s
	a.styleMu.Unlock()
}

// activeStyle is the output style in force.
func (a *app) activeStyle() outputstyle.Style {
	a.styleMu.Lock()
	defer a.styleMu.Unlock()
	if a.outStyle.style.Name == "" {
		return outputstyle.Default()
	}
	return a.outStyle.style
}

// promptStyle is the active style as prompt.Build takes it: nil for the
// default style.
func (a *app) promptStyle() *prompt.Style {
	s := a.activeStyle()
	if s.IsDefault() {
		return nil
	}
	return &prompt.Style{Name: s.Name, Prompt: s.Prompt, KeepCodingInstructions: s.KeepCodingInstructions}
}

// styleReminder is the note each prompt carries while a style other than
// the default is in force, as Claude Code reminds the model of the style
// every turn: "" under the default style, or when the session's prompt
// replaces the default one (the style is not in it).
func (a *app) styleReminder() string {
	s := a.activeStyle()
	a.styleMu.Lock()
	custom := a.outStyle.custom
	a.styleMu.Unlock()
	if s.IsDefault() || custom || a.customPrompt() {
		return ""
	}
	return "<system-reminder>\nThe " + s.Name + " output style is active: answer as its instructions in the system prompt say.\n</system-reminder>"
}

// outputStyles reads the styles there are. Problems with style files are
// logged: listing them is no time to warn.
func (a *app) outputStyles() []outputstyle.Style {
	all, errs := outputstyle.Load(a.styleRoots())
	for _, err := range errs {
		a.logger.Warn("output styles", "error", err)
	}
	return all
}

// styleNames are the names of the styles there are, and the active one's.
func (a *app) styleNames() (active string, available []string) {
	return a.activeStyle().Name, outputstyle.Names(a.outputStyles())
}

// setOutputStyle switches s (and the sessions /clear starts later) to the
// style named name from the next request on, and saves the choice as
// outputStyle in the project's .claude/settings.local.json, as Claude
// Code does. It returns what to tell the user.
func (a *app) setOutputStyle(ctx context.Context, s *engine.Session, name string) (string, error) {
	all := a.outputStyles()
	st, ok := outputstyle.Match(all, name)
	if !ok {
		return "", fmt.Errorf("no output style named %q; available: %s", strings.TrimSpace(name), strings.Join(outputstyle.Names(all), ", "))
	}
	path := filepath.Join(a.projDir, ".claude", "settings.local.json")
	if err := settings.SetValue(path, []string{"outputStyle"}, st.Name); err != nil {
		return "", fmt.Errorf("save the output style: %w", err)
	}
	msg := "Output style set to " + st.Name + " (saved in " + path + ")"
	if !a.useOutputStyle(ctx, s, st) {
		return msg + ". This session's system prompt is replaced (--system-prompt, an agent, or the SDK client's), so the style applies where it is not.", nil
	}
	return msg + "; it applies from the next message.", nil
}

// useOutputStyle makes st the session's style and rebuilds s's system
// prompt with it, from the next request on. It reports false when the
// session's prompt replaces reins's default (the style is not part of
// it), which is then left as it is.
func (a *app) useOutputStyle(ctx context.Context, s *engine.Session, st outputstyle.Style) bool {
	a.styleMu.Lock()
	a.outStyle.style = st
	custom := a.outStyle.custom
	a.styleMu.Unlock()
	if custom || a.customPrompt() {
		return false
	}
	if s != nil {
		s.SetSystem(a.systemPrompt(ctx))
	}
	return true
}

// customPrompt reports whether the session's system prompt replaces
// reins's default (--system-prompt, --system-prompt-file, an agent's),
// which the output style is part of.
func (a *app) customPrompt() bool {
	return strings.TrimSpace(a.opts.SystemPrompt) != "" || a.opts.SystemFile != "" || a.mainAgentPrompt() != ""
}

// describeOutputStyles lists the styles for people, the active one
// marked.
func (a *app) describeOutputStyles() string {
	active := a.activeStyle().Name
	var b strings.Builder
	b.WriteString("Output styles (the active one is marked *):\n")
	for _, s := range a.outputStyles() {
		mark := " "
		if s.Name == active {
			mark = "*"
		}
		line := fmt.Sprintf(" %s %s", mark, s.Name)
		if s.Source != outputstyle.SourceBuiltin {
			line += " (" + string(s.Source) + ")"
		}
		if s.Description != "" {
			line += ": " + s.Description
		}
		b.WriteString(line + "\n")
	}
	b.WriteString("Switch with /output-style NAME; the choice is saved in .claude/settings.local.json.")
	return b.String()
}

// cmdOutputStyle is /output-style in print and SDK modes: the list of
// styles, or with a name a switch to it.
func (a *app) cmdOutputStyle(ctx context.Context, args string) (string, error) {
	if strings.TrimSpace(args) == "" {
		return a.describeOutputStyles(), nil
	}
	return a.setOutputStyle(ctx, a.current(), args)
}
