package cli

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"reins/internal/command"
	"reins/internal/filestate"
	"reins/internal/fsutil"
	"reins/internal/llm"
	"reins/internal/mcp"
	"reins/internal/outputstyle"
	"reins/internal/permission"
	"reins/internal/sdk"
	"reins/internal/session"
	"reins/internal/settings"
)

// sdkSettings is an SDK session's settings as its client changes them
// (apply_flag_settings, update_settings). The app's own settings stay as
// they were read at start.
type sdkSettings struct {
	// overlay is every key the client set in the flag layer (a null
	// removes the key from --settings too).
	overlay map[string]json.RawMessage
	// current are the merged settings now (nil: the app's).
	current *settings.Settings
}

// currentSettings are the session's merged settings now.
func (f *sdkFront) currentSettings() *settings.Settings {
	f.setMu.Lock()
	defer f.setMu.Unlock()
	if f.set.current != nil {
		return f.set.current
	}
	return f.a.settings
}

// loadSettings reads every settings source again, with the flag layer
// changed by overlay.
func (f *sdkFront) loadSettings(overlay map[string]json.RawMessage) (*settings.Settings, error) {
	opts, err := f.a.settingsOptions()
	if err != nil {
		return nil, err
	}
	opts.FlagOverlay = overlay
	s, _, err := settings.Load(context.Background(), opts)
	return s, err
}

// applyFlagSettings merges the client's overlay into the flag settings
// layer (apply_flag_settings) and applies to the running session what
// can change while it runs: the flag layer's permission rules, working
// folders and hooks, the settings environment, the model when the
// overlay names one (a null model goes back to the session's default),
// and the effort level (effortLevel; null goes back to the model's default),
// and the output style (outputStyle, which must name one; null goes back to
// the one the other settings name).
// The permission mode stays as it is (set_permission_mode changes it). An overlay whose values
// have the wrong shape, or whose rules do not parse, is refused and
// changes nothing.
func (f *sdkFront) applyFlagSettings(over map[string]json.RawMessage) error {
	if err := settings.CheckOverlay(over); err != nil {
		return err
	}
	var model *string
	if raw, ok := over["model"]; ok {
		m := ""
		if string(raw) != "null" {
			if err := json.Unmarshal(raw, &m); err != nil {
				return fmt.Errorf("setting model: %v", err)
			}
		}
		m = strings.TrimSpace(m)
		if m == "default" {
			m = ""
		}
		model = &m
	}
	var effort *string
	if raw, ok := over["effortLevel"]; ok {
		e := ""
		if string(raw) != "null" {
			if err := json.Unmarshal(raw, &e); err != nil {
				return fmt.Errorf("setting effortLevel: %v", err)
			}
			if _, err := llm.ParseEffort(e); err != nil {
				return fmt.Errorf("setting effortLevel: %v", err)
			}
		}
		effort = &e
	}
	f.setMu.Lock()
	defer f.setMu.Unlock()
	next := make(map[string]json.RawMessage, len(f.set.overlay)+len(over))
	for k, v := range f.set.overlay {
		next[k] = v
	}
	for k, v := range over {
		next[k] = v
	}
	s, err := f.loadSettings(next)
	if err != nil {
		return err
	}
	// An outputStyle the overlay sets (or, null, takes back) must name a
	// style; it applies from the next request.
	var style *outputstyle.Style
	if _, ok := over["outputStyle"]; ok {
		name := settingsOutputStyle(s)
		st, found, _ := outputstyle.Find(f.a.styleRoots(), name)
		if !found && string(over["outputStyle"]) == "null" {
			st, found = outputstyle.Default(), true // the other layers' name was reported at start-up
		}
		if !found {
			return fmt.Errorf("setting outputStyle: no output style named %q", name)
		}
		style = &st
	}
	// The one step that can fail goes first: nothing is changed yet.
	if err := f.a.checker.SetSourceRules(settings.SourceFlag, s.Rules); err != nil {
		return err
	}
	f.a.hookRun.SetCommandHooks(settings.SourceFlag, s.Hooks)
	prev := f.set.current
	if prev == nil {
		prev = f.a.settings
	}
	f.syncFlagDirs(prev, s)
	f.a.setSettingsEnv(s.Env)
	if model != nil {
		f.session().SetModel(*model)
	}
	if effort != nil {
		// Checked above; a level the environment fixes stays.
		f.a.setEffort(f.session(), *effort) //nolint:errcheck
	}
	if style != nil {
		// The prompt is built as at start-up: bounded waits only.
		f.a.useOutputStyle(context.Background(), f.session(), *style)
	}
	f.set.overlay, f.set.current = next, s
	return nil
}

// syncFlagDirs adds the working folders the new flag layer names
// (permissions.additionalDirectories) and drops those only the old one
// named.
func (f *sdkFront) syncFlagDirs(old, cur *settings.Settings) {
	fromFlag := func(s *settings.Settings) (flag, other map[string]bool) {
		flag, other = map[string]bool{}, map[string]bool{}
		for _, d := range s.AdditionalDirectories {
			if d.Source == settings.SourceFlag {
				flag[d.Path] = true
			} else {
				other[d.Path] = true
			}
		}
		return flag, other
	}
	was, _ := fromFlag(old)
	now, others := fromFlag(cur)
	var add, drop []string
	for d := range now {
		if !was[d] {
			add = append(add, d)
		}
	}
	for d := range was {
		if !now[d] && !others[d] && d != f.a.cwd && !slices.Contains(f.a.opts.AddDirs, d) {
			drop = append(drop, d)
		}
	}
	var ups []permission.Update
	if len(add) > 0 {
		ups = append(ups, permission.Update{Type: permission.UpdateAddDirectories, Directories: add, Destination: permission.DestSession})
	}
	if len(drop) > 0 {
		ups = append(ups, permission.Update{Type: permission.UpdateRemoveDirectories, Directories: drop, Destination: permission.DestSession})
	}
	// Folder updates are not written anywhere and do not fail.
	f.a.checker.Apply(ups) //nolint:errcheck
}

// updateSettings writes keys into a settings file (update_settings) with
// Claude Code's allowlist: outputStyle for localSettings (which must name
// a style; it applies from the next request); effortLevel for
// userSettings, saved for the session's model under modelSettings
// ("max" is for a session only and is not written). Values are strings.
func (f *sdkFront) updateSettings(source string, values map[string]json.RawMessage) error {
	a := f.a
	src := settings.Source(source)
	allowed := map[settings.Source]string{settings.SourceLocal: "outputStyle", settings.SourceUser: "effortLevel"}[src]
	if len(values) == 0 {
		return errors.New("no settings given")
	}
	if a.opts.SourcesSet {
		srcs, _ := settings.ParseSources(a.opts.SettingSources)
		if !slices.Contains(srcs, src) {
			return fmt.Errorf("%s are not read in this session (--setting-sources %q)", src.Label(), a.opts.SettingSources)
		}
	}
	for k := range values {
		if k != allowed {
			return fmt.Errorf("%q cannot be written to %s; only %s can", k, source, allowed)
		}
	}
	// One key is allowed per file: values holds just that one.
	raw := values[allowed]
	var v string
	if err := json.Unmarshal(raw, &v); err != nil {
		return fmt.Errorf("%s must be a string, not %s", allowed, raw)
	}
	if err := settings.CheckOverlay(map[string]json.RawMessage{allowed: raw}); err != nil {
		return err
	}
	var style *outputstyle.Style
	if allowed == "outputStyle" {
		st, found, _ := outputstyle.Find(a.styleRoots(), v)
		if !found {
			return fmt.Errorf("outputStyle: no output style named %q", v)
		}
		style = &st
	}
	var err error
	switch {
	case allowed == "outputStyle":
		err = settings.SetValue(filepath.Join(a.projDir, ".claude", "settings.local.json"), []string{allowed}, v)
	case v != "max":
		model := f.a.models.Resolve(f.session().Model())
		err = settings.SetValue(filepath.Join(a.configDir, "settings.json"), []string{"modelSettings", model, allowed}, v)
	}
	if err != nil {
		return err
	}
	f.setMu.Lock()
	defer f.setMu.Unlock()
	s, err := f.loadSettings(f.set.overlay)
	if err != nil {
		return fmt.Errorf("written, but the settings no longer load: %w", err)
	}
	f.set.current = s
	if style != nil && strings.EqualFold(settingsOutputStyle(s), style.Name) {
		// In force unless a higher layer (--settings, policy) names another.
		a.useOutputStyle(context.Background(), f.session(), *style)
	}
	return nil
}

// settingsAnswer is get_settings's answer.
type settingsAnswer struct {
	Effective map[string]json.RawMessage `json:"effective"`
	Sources   []settingsSource           `json:"sources"`
	Applied   map[string]any             `json:"applied"`
}

// settingsSource is one loaded settings file in get_settings's answer.
type settingsSource struct {
	Source   settings.Source            `json:"source"`
	Settings map[string]json.RawMessage `json:"settings"`
	Path     string                     `json:"path,omitempty"`
}

// getSettings answers get_settings: the merged settings, each loaded
// file's from the lowest precedence up, and the model in use.
func (f *sdkFront) getSettings() (any, error) {
	s := f.currentSettings()
	out := settingsAnswer{Effective: s.Raw, Sources: []settingsSource{},
		Applied: map[string]any{"model": f.session().Model()}}
	if out.Effective == nil {
		out.Effective = map[string]json.RawMessage{}
	}
	for i := len(s.Files) - 1; i >= 0; i-- {
		lf := s.Files[i]
		src := settingsSource{Source: lf.Source, Settings: lf.Values}
		if filepath.IsAbs(lf.Path) {
			src.Path = lf.Path
		}
		if src.Settings == nil {
			src.Settings = map[string]json.RawMessage{}
		}
		out.Sources = append(out.Sources, src)
	}
	return out, nil
}

// permissionRule is one rule in list_permission_rules's answer.
type permissionRule struct {
	Behavior    permission.Behavior `json:"behavior"`
	Source      settings.Source     `json:"source"`
	Rule        string              `json:"rule"`
	Editability string              `json:"editability"`
}

// workspaceDir is one working folder in list_permission_rules's answer.
type workspaceDir struct {
	Path   string `json:"path"`
	Source string `json:"source"`
}

// permissionRules answers list_permission_rules from the checker's live
// policy: every rule with its source, and the working folders.
func (f *sdkFront) permissionRules() any {
	p := f.a.checker.Policy()
	rules := []permissionRule{}
	for _, r := range p.Rules {
		edit := "readonly"
		switch r.Source {
		case settings.SourceUser, settings.SourceProject, settings.SourceLocal:
			edit = "persistent"
		case settings.SourceCLI, settings.SourceSession:
			edit = "session"
		}
		text := r.Text
		if text == "" {
			text = permission.FormatRule(r.Tool, r.Content)
		}
		rules = append(rules, permissionRule{Behavior: r.Behavior, Source: r.Source, Rule: text, Editability: edit})
	}
	dirs := []workspaceDir{}
	for _, d := range f.currentSettings().AdditionalDirectories {
		dirs = append(dirs, workspaceDir{Path: d.Path, Source: string(d.Source)})
	}
	for _, d := range f.a.opts.AddDirs {
		dirs = append(dirs, workspaceDir{Path: d, Source: string(settings.SourceCLI)})
	}
	return map[string]any{"rules": rules, "workspaceDirectories": dirs, "originalCwd": f.a.cwd,
		"managedOnly": p.IgnoreAllow}
}

// resolvePath makes a client's path absolute against the session's
// folder.
func (f *sdkFront) resolvePath(p string) string {
	if strings.HasPrefix(p, "~/") {
		p = filepath.Join(f.a.home, p[2:])
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(f.a.cwd, p)
	}
	return filepath.Clean(p)
}

// readFile answers read_file: the file, up to the request's size, when
// the Read tool could read it without asking: inside the working folders
// (or allowed by a rule or the mode) and not denied. There is no one to
// ask here, so a read that would be asked about is refused. Both the path
// and, for a symbolic link, the file it leads to must pass.
func (f *sdkFront) readFile(req sdk.ReadFileRequest) (*sdk.ReadFileResult, error) {
	abs := f.resolvePath(req.Path)
	real, info, err := fsutil.StatFile("path", abs)
	if err != nil {
		return nil, err
	}
	for _, p := range []string{abs, real} {
		in, _ := json.Marshal(map[string]string{"file_path": p})
		switch d := f.a.checker.Check("Read", in, true); d.Behavior {
		case permission.Allow:
		case permission.Deny:
			return nil, fmt.Errorf("reading %s is denied by the session's permission rules", req.Path)
		default:
			return nil, fmt.Errorf("reading %s needs permission: it is outside the session's working folders or an ask rule covers it", req.Path)
		}
	}
	fh, err := os.Open(real)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", req.Path, err)
	}
	defer fh.Close()
	data, err := io.ReadAll(io.LimitReader(fh, int64(req.MaxBytes)))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", req.Path, err)
	}
	res := &sdk.ReadFileResult{AbsPath: abs, Truncated: info.Size() > int64(len(data))}
	if req.Base64 {
		res.Contents, res.Encoding = base64.StdEncoding.EncodeToString(data), "base64"
		return res, nil
	}
	lossy := !utf8.Valid(data)
	res.Contents, res.Lossy = strings.ToValidUTF8(string(data), "\uFFFD"), &lossy
	return res, nil
}

// seedReadState records a file as read (seed_read_state) when it is
// unchanged since the modification time the client saw, so Edit and
// Write take it without a Read first. A file changed since is left
// unrecorded: it must be read again.
func (f *sdkFront) seedReadState(path string, mtimeMS int64) error {
	real, info, err := fsutil.StatFile("path", f.resolvePath(path))
	if err != nil {
		return err
	}
	if info.ModTime().UnixMilli() != mtimeMS {
		return nil
	}
	data, err := os.ReadFile(real)
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	f.a.files.Record(filestate.EntryFor(real, data, info))
	return nil
}

// commandInfos describes the user-invocable commands (skills too).
func (f *sdkFront) commandInfos(skillsOnly bool) []sdk.CommandInfo {
	var out []sdk.CommandInfo
	if f.a.commands == nil {
		return out
	}
	for _, c := range f.a.commands.All() {
		if c.UserInvocable() && (!skillsOnly || c.Skill) {
			out = append(out, sdk.CommandInfo{Name: c.Name, Description: c.Description,
				ArgumentHint: c.ArgumentHint, Aliases: c.Aliases, Builtin: c.Source == command.SourceBuiltin})
		}
	}
	return out
}

// agentInfos describes the agent types.
func (f *sdkFront) agentInfos() []sdk.AgentInfo {
	var out []sdk.AgentInfo
	if cat := f.a.agentCatalog(); cat != nil {
		for _, ag := range cat.Infos() {
			out = append(out, sdk.AgentInfo{Name: ag.Name, Description: ag.Description, Model: ag.Model})
		}
	}
	return out
}

// reload reads the custom commands, skills and agents from disk again
// (reload_skills, reload_plugins). Built-in commands, MCP prompts and the
// agents of --agents and of the client stay.
func (f *sdkFront) reload() sdk.Reloaded {
	f.a.rereadCommands()
	return sdk.Reloaded{Commands: f.commandInfos(false), Skills: f.commandInfos(true), Agents: f.agentInfos()}
}

// reloadPlugins finds the plugins again, with the folders add names
// joining the session's --plugin-dir ones, then re-reads commands,
// skills, agents and the plugins' hooks (reload_plugins), and gives the
// plugins' MCP servers for the SDK front end to start those that do not
// run yet.
func (f *sdkFront) reloadPlugins(add []sdk.PluginDir) (sdk.Reloaded, error) {
	a := f.a
	a.mu.Lock()
	for _, d := range add {
		if d.NoMCP {
			a.opts.PluginDirsNoMCP = append(a.opts.PluginDirsNoMCP, d.Path)
		} else {
			a.opts.PluginDirs = append(a.opts.PluginDirs, d.Path)
		}
	}
	a.mu.Unlock()
	a.reloadPluginSet()
	r := f.reload()
	_, errs := a.loadedPlugins()
	r.Plugins, r.PluginErrors = a.pluginInfos(), len(errs)
	if !a.opts.StrictMCP {
		r.PluginServers = a.pluginServers()
	}
	return r, nil
}

// mcpReadResource reads a resource of a configured server.
func (f *sdkFront) mcpReadResource(ctx context.Context, server, uri string) (any, error) {
	if f.a.mcpm() == nil {
		return nil, fmt.Errorf("no MCP server named %q", server)
	}
	return f.a.mcpm().ReadResource(ctx, server, uri)
}

// mcpTakeOver turns off the configured server of that name, if it is on.
func (f *sdkFront) mcpTakeOver(name string) bool {
	if f.a.mcpm() == nil {
		return false
	}
	for _, st := range f.a.mcpm().Status() {
		if st.Name == name && st.State != mcp.StateDisabled {
			return f.a.mcpm().SetEnabled(name, false) == nil
		}
	}
	return false
}

// mcpClientServers names the configured servers, turned on, that the
// client hosts.
func (f *sdkFront) mcpClientServers() []string {
	var out []string
	if f.a.mcpm() == nil {
		return out
	}
	for _, st := range f.a.mcpm().Status() {
		if st.Transport == mcp.TransportSDK && st.State != mcp.StateDisabled {
			out = append(out, st.Name)
		}
	}
	sort.Strings(out)
	return out
}

// renameSession saves a title for the session in its transcript, as
// Claude Code's /rename does.
func (f *sdkFront) renameSession(title string) error {
	sess := f.session()
	rec := sess.Config().Recorder
	if rec == nil {
		return errors.New("this session is not saved (--no-session-persistence), so it has no title to set")
	}
	return rec.Append(&session.Entry{Type: session.TypeCustomTitle, CustomTitle: title, SessionID: sess.Config().SessionID})
}

// titleInstructions is the system prompt of generate_session_title.
const titleInstructions = "You name coding sessions. Reply with a title of three to seven words that says what " +
	"the session described by the user is about: plain words in sentence case, no quotes, no final full stop, nothing else."

// generateTitle asks the small model for a session title
// (generate_session_title).
func (f *sdkFront) generateTitle(ctx context.Context, description string) (string, error) {
	req := &llm.Request{Model: f.a.smallModel(), MaxTokens: 64,
		System:   []llm.SystemBlock{{Text: titleInstructions}},
		Messages: []*llm.Message{llm.NewUserText(description)}}
	msg, err := llm.Complete(ctx, f.a.provider, req)
	if err != nil {
		return "", fmt.Errorf("ask %s for a title: %w", req.Model, err)
	}
	title := cleanTitle(msg.Text())
	if title == "" {
		return "", fmt.Errorf("%s gave no title", req.Model)
	}
	return title, nil
}

// cleanTitle keeps the first line of a model's answer, without the
// quotes, markup and final full stop models add, at most 80 characters.
func cleanTitle(s string) string {
	for _, line := range strings.Split(s, "\n") {
		line = strings.Trim(strings.TrimSpace(line), "\"'`*#_ ")
		line = strings.TrimSpace(strings.TrimSuffix(line, "."))
		if line == "" {
			continue
		}
		if r := []rune(line); len(r) > 80 {
			line = strings.TrimSpace(string(r[:80]))
		}
		return line
	}
	return ""
}
