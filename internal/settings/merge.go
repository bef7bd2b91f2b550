package settings

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// decodeAny decodes raw keeping numbers exact.
func decodeAny(raw json.RawMessage) any {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil
	}
	return v
}

// mergeValue merges a higher-precedence value over a lower one: objects key
// by key, arrays concatenated (higher first) without duplicates, anything
// else replaced. A null never replaces what a lower source set.
func mergeValue(low, high any) any {
	switch h := high.(type) {
	case nil:
		return low
	case map[string]any:
		l, ok := low.(map[string]any)
		if !ok {
			return h
		}
		out := make(map[string]any, len(l)+len(h))
		for k, v := range l {
			out[k] = v
		}
		for k, v := range h {
			out[k] = mergeValue(l[k], v)
		}
		return out
	case []any:
		l, ok := low.([]any)
		if !ok {
			return h
		}
		out := make([]any, 0, len(h)+len(l))
		seen := map[string]bool{}
		for _, v := range append(append([]any{}, h...), l...) {
			k := string(mustMarshal(v))
			if seen[k] {
				continue
			}
			seen[k] = true
			out = append(out, v)
		}
		return out
	}
	return high
}

// merge combines the parsed files (highest first) into Settings.
func merge(files []loaded, o Options) (*Settings, []Warning) {
	s := &Settings{IncludeCoAuthoredBy: true, Raw: map[string]json.RawMessage{}, Env: map[string]string{}}
	var warns []Warning
	warned := map[string]bool{}
	warnOnce := func(key string, w Warning) {
		if !warned[key] {
			warned[key] = true
			warns = append(warns, w)
		}
	}
	merged := map[string]any{}
	for i := len(files) - 1; i >= 0; i-- {
		f := files[i]
		for _, key := range f.data.order {
			raw, ok := f.data.values[key]
			if !ok {
				continue
			}
			merged[key] = mergeValue(merged[key], decodeAny(raw))
		}
	}
	for _, f := range files {
		s.Files = append(s.Files, LoadedFile{Path: f.path, Source: f.source, Root: f.root, Values: f.data.values})
		for _, key := range f.data.order {
			if _, ok := f.data.values[key]; ok && !knownKeys[key] {
				// Claude Code has many settings reins has no use for, and
				// its users' files hold them; only a key that reads as a
				// misspelling of one reins uses is worth a word.
				if near := nearKnownKey(key); near != "" {
					line, col := position(f.data.src, f.data.pos[key])
					warnOnce("key:"+key, Warning{File: f.path, Line: line, Column: col,
						Message: fmt.Sprintf("unknown setting %q (did you mean %q?)", key, near)})
				}
			}
		}
	}
	for k, v := range merged {
		s.Raw[k] = mustMarshal(v)
	}

	managedRulesOnly, managedHooksOnly := false, false
	for _, f := range files {
		if f.source == SourcePolicy {
			managedRulesOnly = managedRulesOnly || boolKey(f.data, "allowManagedPermissionRulesOnly")
			managedHooksOnly = managedHooksOnly || boolKey(f.data, "allowManagedHooksOnly")
			continue
		}
		for _, key := range []string{"allowManagedPermissionRulesOnly", "allowManagedHooksOnly"} {
			if boolKey(f.data, key) {
				line, col := position(f.data.src, f.data.pos[key])
				warns = append(warns, Warning{File: f.path, Line: line, Column: col,
					Message: fmt.Sprintf("%s counts in managed settings only (/etc/claude-code/managed-settings.json); here it has no effect", key)})
			}
		}
	}
	s.ManagedRulesOnly = managedRulesOnly
	s.Rules = collectRules(files, managedRulesOnly)
	s.AdditionalDirectories = collectDirs(files, o)
	for _, f := range files {
		var p permissionsShape
		if raw, ok := f.data.values["permissions"]; ok && json.Unmarshal(raw, &p) == nil {
			if off, _ := modeDisabled(p.DisableBypassPermissionsMode); off && !s.DisableBypassPermissions {
				s.DisableBypassPermissions, s.DisableBypassPermissionsFile = true, f.path
			}
		}
		top, _ := modeDisabled(f.data.values["disableAutoMode"])
		nested, _ := modeDisabled(p.DisableAutoMode)
		if (top || nested) && !s.DisableAutoMode {
			s.DisableAutoMode, s.DisableAutoModeFile = true, f.path
		}
	}
	mode, modeWarns := defaultMode(files)
	s.DefaultMode = mode
	warns = append(warns, modeWarns...)
	auto, autoWarns := collectAutoMode(files)
	s.AutoMode = auto
	warns = append(warns, autoWarns...)
	hooks, hw := collectHooks(files, managedHooksOnly, merged)
	s.Hooks = hooks
	for _, w := range hw {
		warnOnce("hook:"+w.Message, w)
	}
	if env, ok := merged["env"].(map[string]any); ok {
		for k, v := range env {
			s.Env[k] = envString(v)
		}
	}
	_, _ = s.Get("model", &s.Model)
	_, _ = s.Get("cleanupPeriodDays", &s.CleanupPeriodDays)
	_, _ = s.Get("includeCoAuthoredBy", &s.IncludeCoAuthoredBy)
	_, _ = s.Get("attribution", &s.Attribution)
	_, _ = s.Get("models", &s.Models)
	if _, err := s.Get("sandbox", &s.Sandbox); err == nil && s.Sandbox.Enabled {
		s.Sandbox.File = firstFileWith(files, "sandbox")
	}
	for _, f := range files {
		if raw, ok := f.data.values["apiKeyHelper"]; ok {
			var cmd string
			if json.Unmarshal(raw, &cmd) == nil && strings.TrimSpace(cmd) != "" {
				s.APIKeyHelper = &KeyHelper{Command: cmd, Source: f.source, File: f.path, Dir: o.Cwd}
			}
			break
		}
	}
	return s, warns
}

// defaultMode is permissions.defaultMode of the highest source that sets
// it. Shared project settings may not start a session in auto mode (a
// repository must not switch its users into it): that value is ignored
// with a warning and the next source's value applies.
func defaultMode(files []loaded) (string, []Warning) {
	var warns []Warning
	for _, f := range files {
		raw, ok := f.data.values["permissions"]
		if !ok {
			continue
		}
		var p permissionsShape
		if json.Unmarshal(raw, &p) != nil || p.DefaultMode == "" {
			continue
		}
		if p.DefaultMode == "auto" && f.source == SourceProject {
			line, col := position(f.data.src, f.data.pos["permissions"])
			warns = append(warns, Warning{File: f.path, Line: line, Column: col,
				Message: `permissions.defaultMode "auto" is ignored in shared project settings: a repository cannot switch you into auto mode; set it in ~/.claude/settings.json or .claude/settings.local.json, or pass --permission-mode auto`})
			continue
		}
		return p.DefaultMode, warns
	}
	return "", warns
}

// collectAutoMode merges the autoMode objects of every source but shared
// project settings, whose autoMode is ignored with a warning.
func collectAutoMode(files []loaded) (AutoMode, []Warning) {
	var warns []Warning
	var merged any
	for i := len(files) - 1; i >= 0; i-- {
		f := files[i]
		raw, ok := f.data.values["autoMode"]
		if !ok {
			continue
		}
		if f.source == SourceProject {
			line, col := position(f.data.src, f.data.pos["autoMode"])
			warns = append(warns, Warning{File: f.path, Line: line, Column: col,
				Message: "autoMode is ignored in shared project settings: a repository cannot change what auto mode allows; put it in ~/.claude/settings.json or .claude/settings.local.json"})
			continue
		}
		merged = mergeValue(merged, decodeAny(raw))
	}
	var a AutoMode
	if merged != nil {
		_ = json.Unmarshal(mustMarshal(merged), &a)
	}
	return a, warns
}

func boolKey(fd *fileData, key string) bool {
	var b bool
	raw, ok := fd.values[key]
	return ok && json.Unmarshal(raw, &b) == nil && b
}

func firstFileWith(files []loaded, key string) string {
	for _, f := range files {
		if _, ok := f.data.values[key]; ok {
			return f.path
		}
	}
	return ""
}

func envString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return x.String()
	case bool:
		if x {
			return "true"
		}
		return "false"
	}
	return ""
}

// collectRules gathers permission rules, highest source first, dropping
// duplicates (same behaviour, text and root). With managedOnly, allow rules
// from other sources are dropped; deny and ask rules only narrow and stay.
func collectRules(files []loaded, managedOnly bool) []Rule {
	var out []Rule
	seen := map[string]bool{}
	for _, f := range files {
		raw, ok := f.data.values["permissions"]
		if !ok {
			continue
		}
		var p permissionsShape
		if json.Unmarshal(raw, &p) != nil {
			continue
		}
		at := rulePositions(f.data)
		for _, list := range []struct {
			b     Behavior
			rules []string
		}{{Deny, p.Deny}, {Ask, p.Ask}, {Allow, p.Allow}} {
			if managedOnly && list.b == Allow && f.source != SourcePolicy {
				continue
			}
			for _, text := range list.rules {
				text = strings.TrimSpace(text)
				key := string(list.b) + "\x00" + text + "\x00" + f.root
				if text == "" || seen[key] {
					continue
				}
				seen[key] = true
				pos := at[string(list.b)+"\x00"+text]
				out = append(out, Rule{Behavior: list.b, Text: text, Source: f.source, File: f.path, Root: f.root, Line: pos[0], Column: pos[1]})
			}
		}
	}
	return out
}

// collectDirs gathers permissions.additionalDirectories as absolute paths.
// Relative entries are relative to the file's project folder (project and
// local files) or the working folder.
func collectDirs(files []loaded, o Options) []Dir {
	var out []Dir
	seen := map[string]bool{}
	for _, f := range files {
		raw, ok := f.data.values["permissions"]
		if !ok {
			continue
		}
		var p permissionsShape
		if json.Unmarshal(raw, &p) != nil {
			continue
		}
		base := o.Cwd
		if f.source == SourceProject || f.source == SourceLocal {
			base = o.ProjectDir
		}
		for _, d := range p.AdditionalDirectories {
			if strings.TrimSpace(d) == "" {
				continue
			}
			d = expandHome(d, o.Home)
			if !filepath.IsAbs(d) {
				d = filepath.Join(base, d)
			}
			d = filepath.Clean(d)
			if seen[d] {
				continue
			}
			seen[d] = true
			out = append(out, Dir{Path: d, Source: f.source, File: f.path})
		}
	}
	return out
}

// collectHooks gathers hook matchers per event, highest source first.
// disableAllHooks from a non-managed source keeps managed hooks only; from
// managed policy it drops every hook. managedOnly keeps managed hooks only.
func collectHooks(files []loaded, managedOnly bool, merged map[string]any) (map[string][]HookMatcher, []Warning) {
	disabled, _ := merged["disableAllHooks"].(bool)
	policyDisabled := false
	for _, f := range files {
		if f.source == SourcePolicy && boolKey(f.data, "disableAllHooks") {
			policyDisabled = true
		}
	}
	if policyDisabled {
		return nil, nil
	}
	known := map[string]bool{}
	for _, e := range KnownHookEvents {
		known[e] = true
	}
	out := map[string][]HookMatcher{}
	var warns []Warning
	seen := map[string]bool{}
	for _, f := range files {
		if (disabled || managedOnly) && f.source != SourcePolicy {
			continue
		}
		raw, ok := f.data.values["hooks"]
		if !ok {
			continue
		}
		line, col := position(f.data.src, f.data.pos["hooks"])
		var events map[string][]HookMatcher
		if json.Unmarshal(raw, &events) != nil {
			continue
		}
		for _, ev := range sortedKeys(events) {
			ms := events[ev]
			if !known[ev] {
				msg := fmt.Sprintf("hook event %q is not one reins fires; its hooks never run", ev)
				if slices.Contains(unfiredHookEvents, ev) {
					// No typo: an event of Claude Code's that reins has no
					// counterpart for.
					msg = fmt.Sprintf("hook event %q is a Claude Code event reins does not fire; its hooks never run", ev)
				} else if near := nearHookEvent(ev); near != "" {
					msg = fmt.Sprintf("hook event %q is not one reins fires (did you mean %q?); its hooks never run", ev, near)
				}
				warns = append(warns, Warning{File: f.path, Line: line, Column: col, Message: msg})
				continue
			}
			for i, m := range ms {
				m.Source, m.File = f.source, f.path
				if len(m.Hooks) == 0 {
					warns = append(warns, Warning{File: f.path, Line: line, Column: col,
						Message: fmt.Sprintf(`a %s entry has no "hooks" list, so it runs nothing; write {"matcher": "...", "hooks": [{"type": "command", "command": "..."}]}`, ev)})
					continue
				}
				var kept []HookSpec
				for j, h := range m.Hooks {
					if msg := h.Problem(ev); msg != "" {
						warns = append(warns, Warning{File: f.path, Line: line, Column: col,
							Message: fmt.Sprintf("hooks.%s[%d].hooks[%d]: %s; that hook is skipped", ev, i, j, msg)})
						continue
					}
					kept = append(kept, h)
				}
				if len(kept) == 0 {
					continue
				}
				if msg := badMatcher(ev, m.Matcher); msg != "" {
					warns = append(warns, Warning{File: f.path, Line: line, Column: col, Message: msg})
				}
				m.Hooks = kept
				key := ev + "\x00" + string(mustMarshal(m))
				if seen[key] {
					continue
				}
				seen[key] = true
				out[ev] = append(out[ev], m)
			}
		}
	}
	return out, warns
}

// nearHookEvent returns the hook event that name most likely misspells
// (the same but for case, or at most two edits away), or "".
func nearHookEvent(name string) string {
	best, bestDist := "", 3
	for _, e := range KnownHookEvents {
		if strings.EqualFold(e, name) {
			return e
		}
		if d := editDistance(strings.ToLower(e), strings.ToLower(name), bestDist); d < bestDist {
			best, bestDist = e, d
		}
	}
	return best
}

// badMatcher says why a hook entry's matcher can select nothing: it is
// read as a regular expression (it has characters other than letters,
// digits, '_', '-' and '|') and Go's syntax refuses it, as it refuses the
// look-around that JavaScript's allows. Events that ignore the matcher
// have nothing to say.
func badMatcher(event, matcher string) string {
	m := strings.TrimSpace(matcher)
	if m == "" || m == "*" || event == "UserPromptSubmit" || event == "Stop" || event == "FileChanged" {
		return ""
	}
	plain := true
	for _, r := range m {
		if !(r == '|' || r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			plain = false
			break
		}
	}
	if plain {
		return ""
	}
	if _, err := regexp.Compile(m); err != nil {
		return fmt.Sprintf("%s matcher %q is not a regular expression reins can read (%v); the hooks of that entry never run", event, matcher, err)
	}
	return ""
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
