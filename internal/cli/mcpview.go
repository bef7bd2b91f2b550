package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"reins/internal/command"
	"reins/internal/mcp"
	"reins/internal/settings"
	"reins/internal/tui"
)

// viewMCP shows the MCP servers (/mcp), reconnects one ("/mcp reconnect
// NAME"), authorizes one with OAuth ("/mcp login NAME"), or turns one on
// or off ("/mcp enable|disable NAME").
func (a *app) viewMCP(_ context.Context, args string) (string, error) {
	if a.mcpm() == nil {
		return "No MCP servers are configured. Add one with: reins mcp add NAME -- COMMAND [ARGS...]", nil
	}
	if f := strings.Fields(args); len(f) == 2 && (f[0] == "enable" || f[0] == "disable") {
		return a.toggleMCP(f[1], f[0] == "enable")
	}
	if f := strings.Fields(args); len(f) == 2 && f[0] == "reconnect" {
		if !a.mcpm().Reconnect(f[1]) {
			return "", fmt.Errorf("no MCP server named %q", f[1])
		}
		return fmt.Sprintf("Reconnecting %s…", f[1]), nil
	}
	if f := strings.Fields(args); len(f) == 2 && f[0] == "login" {
		// The flow waits for the browser: it runs in the background and
		// reports through notices (the address first).
		name := f[1]
		go func() {
			err := a.mcpm().Login(context.Background(), name, mcp.LoginOptions{Open: a.browserOpener(),
				Address: func(u string) {
					a.notify("info", fmt.Sprintf("Open this address to authorize reins for %s: %s", name, u))
				}})
			if err != nil {
				a.notify("warning", err.Error())
				return
			}
			a.notify("info", fmt.Sprintf("Logged in to %s.", name))
		}()
		return fmt.Sprintf("Authorizing %s: a browser opens on its sign-in page; the address also appears below.", name), nil
	}
	var b strings.Builder
	for _, s := range a.mcpm().Status() {
		fmt.Fprintf(&b, "%s (%s, %s scope): %s", s.Name, s.Transport, s.Scope, s.State)
		if s.Err != "" {
			fmt.Fprintf(&b, " — %s", s.Err)
		}
		b.WriteByte('\n')
		if len(s.Tools) > 0 {
			fmt.Fprintf(&b, "  tools: %s\n", strings.Join(s.Tools, ", "))
		}
		if len(s.Prompts) > 0 {
			fmt.Fprintf(&b, "  prompts: %s\n", strings.Join(s.Prompts, ", "))
		}
	}
	b.WriteString("Reconnect a server with /mcp reconnect NAME; authorize one that needs authentication with /mcp login NAME; " +
		"approve a .mcp.json server (or turn one back on) with /mcp enable NAME, turn one off for this session with /mcp disable NAME.")
	return b.String(), nil
}

// toggleMCP turns a server on or off. Turning on a .mcp.json server that
// waits for approval (or that settings disable) also records the approval
// in .claude/settings.local.json, as Claude Code's approval does, so later
// sessions start it too; turning one off lasts for this session.
func (a *app) toggleMCP(name string, on bool) (string, error) {
	var st *mcp.ServerStatus
	for _, s := range a.mcpm().Status() {
		if s.Name == name {
			st = &s
		}
	}
	if st == nil {
		return "", fmt.Errorf("no MCP server named %q", name)
	}
	if !on {
		if err := a.mcpm().SetEnabled(name, false); err != nil {
			return "", err
		}
		return fmt.Sprintf("Disabled %s for this session.", name), nil
	}
	if st.State != mcp.StateDisabled {
		return fmt.Sprintf("%s is already enabled (%s).", name, st.State), nil
	}
	saved := ""
	if st.Scope == mcp.ScopeProject {
		path := filepath.Join(a.projDir, ".claude", "settings.local.json")
		if err := recordMCPChoice(path, name, tui.MCPUse); err != nil {
			return "", fmt.Errorf("approve MCP server %q: %w", name, err)
		}
		saved = " (approval saved in .claude/settings.local.json)"
	}
	if err := a.mcpm().SetEnabled(name, true); err != nil {
		return "", err
	}
	return fmt.Sprintf("Enabled %s%s; it is connecting.", name, saved), nil
}

// recordMCPChoice records an answer about the .mcp.json server name in
// the settings file at path, keeping every other key: "use" adds it to
// enabledMcpjsonServers (and drops it from disabledMcpjsonServers),
// "refuse" the other way round, "use all" also sets
// enableAllProjectMcpServers. A file that is not a JSON object is left
// alone and reported.
func recordMCPChoice(path, name string, choice tui.MCPChoice) error {
	return updateSettingsObject(path, func(root map[string]json.RawMessage) (bool, error) {
		list := func(key string) ([]string, error) {
			var l []string
			if raw, ok := root[key]; ok && string(raw) != "null" {
				if err := json.Unmarshal(raw, &l); err != nil {
					return nil, fmt.Errorf("%s in %s is not a list of names, not changed: %w", key, path, err)
				}
			}
			return l, nil
		}
		enabled, err := list("enabledMcpjsonServers")
		if err != nil {
			return false, err
		}
		disabled, err := list("disabledMcpjsonServers")
		if err != nil {
			return false, err
		}
		add, drop, addKey, dropKey := enabled, disabled, "enabledMcpjsonServers", "disabledMcpjsonServers"
		if choice == tui.MCPRefuse {
			add, drop, addKey, dropKey = disabled, enabled, dropKey, addKey
		}
		if !slices.Contains(add, name) {
			add = append(add, name)
		}
		root[addKey], _ = json.Marshal(add)
		if _, ok := root[dropKey]; ok {
			root[dropKey], _ = json.Marshal(slices.DeleteFunc(drop, func(s string) bool { return s == name }))
		}
		if choice == tui.MCPUseAll {
			root["enableAllProjectMcpServers"] = json.RawMessage("true")
		}
		return true, nil
	})
}

// updateSettingsObject changes the top-level keys of the settings file at
// path through fn (which reports whether it changed any), keeping the
// others. A file that is not a JSON object is left alone and reported.
func updateSettingsObject(path string, fn func(root map[string]json.RawMessage) (bool, error)) error {
	return settings.UpdateFile(path, 0o644, func(old []byte) ([]byte, error) {
		root := map[string]json.RawMessage{}
		if trimmed := bytes.TrimPrefix(old, []byte("\xef\xbb\xbf")); len(bytes.TrimSpace(trimmed)) > 0 {
			if err := json.Unmarshal(trimmed, &root); err != nil {
				return nil, fmt.Errorf("%s is not a JSON object, not changed: %w", path, err)
			}
		}
		changed, err := fn(root)
		if err != nil || !changed {
			return old, err
		}
		out, err := json.MarshalIndent(root, "", "  ")
		if err != nil {
			return nil, err
		}
		return append(out, '\n'), nil
	})
}

// askMCPApprovals asks about the .mcp.json servers waiting for approval
// (ApproveMCP, before the terminal UI starts), records each answer in
// .claude/settings.local.json and applies it to cfg for this session. A
// server left for later keeps waiting (/mcp enable NAME).
func (a *app) askMCPApprovals(ctx context.Context, cfg *mcp.Config) {
	pending := cfg.NeedsApproval()
	if len(pending) == 0 {
		return
	}
	var infos []tui.MCPServerInfo
	for _, s := range cfg.Servers {
		if slices.Contains(pending, s.Name) {
			infos = append(infos, tui.MCPServerInfo{Name: s.Name, Detail: s.Config.Target()})
		}
	}
	answers, err := a.hooks.ApproveMCP(ctx, infos)
	if err != nil {
		a.warn(err.Error())
	}
	path := filepath.Join(a.projDir, ".claude", "settings.local.json")
	var use []string
	for _, info := range infos {
		c := answers[info.Name]
		if c == tui.MCPNotNow {
			continue
		}
		if err := recordMCPChoice(path, info.Name, c); err != nil {
			a.warn(fmt.Sprintf("record the answer about MCP server %q: %v", info.Name, err))
		}
		if c == tui.MCPRefuse {
			for i := range cfg.Servers {
				if cfg.Servers[i].Name == info.Name {
					cfg.Servers[i].Disabled = "you chose not to use it (disabledMcpjsonServers; /mcp enable " + info.Name + " to use it)"
				}
			}
			continue
		}
		use = append(use, info.Name)
	}
	cfg.Approve(use...)
}

// mcpChoiceKeys are the settings that answer for .mcp.json servers.
var mcpChoiceKeys = []string{"enabledMcpjsonServers", "disabledMcpjsonServers", "enableAllProjectMcpServers"}

// resetMCPChoices forgets the answers about the project's .mcp.json
// servers that reins records (in .claude/settings.local.json, where
// /mcp enable writes them, and in its .reins/ twin, which is read too),
// keeping every other key, and says what it did. Answers in Claude
// Code's file, which reins never writes, are pointed out.
func resetMCPChoices(cwd, claudeJSON string) (string, error) {
	var done []string
	for _, rel := range []string{filepath.Join(".claude", "settings.local.json"), filepath.Join(".reins", "settings.local.json")} {
		path := filepath.Join(cwd, rel)
		if _, err := os.Stat(path); err != nil {
			continue
		}
		var removed []string
		err := updateSettingsObject(path, func(root map[string]json.RawMessage) (bool, error) {
			for _, k := range mcpChoiceKeys {
				if _, ok := root[k]; ok {
					delete(root, k)
					removed = append(removed, k)
				}
			}
			return len(removed) > 0, nil
		})
		if err != nil {
			return "", fmt.Errorf("reset MCP project choices: %w", err)
		}
		if len(removed) > 0 {
			done = append(done, fmt.Sprintf("%s from %s", strings.Join(removed, ", "), filepath.ToSlash(rel)))
		}
	}
	msg := "No choices about this project's .mcp.json servers were recorded in .claude/settings.local.json."
	if len(done) > 0 {
		msg = fmt.Sprintf("Removed %s: this project's .mcp.json servers wait for approval again.", strings.Join(done, " and "))
	}
	if appr, err := mcp.ProjectChoices(claudeJSON, cwd); err == nil && (appr.EnableAll || len(appr.Enabled) > 0 || len(appr.Disabled) > 0) {
		msg += fmt.Sprintf("\n%s still records choices for this project (reins does not change Claude Code's file); `claude mcp reset-project-choices` resets those.", claudeJSON)
	}
	return msg, nil
}

// syncMCPPrompts makes the connected servers' prompts slash commands
// (/mcp__server__prompt), replacing those of an earlier snapshot.
func (a *app) syncMCPPrompts() {
	if a.mcpm() == nil || a.commands == nil {
		return
	}
	prompts := a.mcpm().Snapshot().Prompts
	a.commands.Remove(func(c *command.Command) bool { return c.Source == command.SourceMCP })
	for _, p := range prompts {
		p := p
		hint := ""
		for _, arg := range p.Arguments {
			hint += " <" + arg.Name + ">"
		}
		a.commands.Add(&command.Command{
			Name: p.Name, Description: firstNonEmpty(p.Description, "MCP prompt from "+p.Server),
			ArgumentHint: strings.TrimSpace(hint), Kind: command.Prompt, Source: command.SourceMCP,
			Prompt: func(ctx context.Context, args string) (string, error) { return mcpPromptText(ctx, p, args) },
		})
	}
}

// mcpPromptText expands a server prompt into text for the model.
func mcpPromptText(ctx context.Context, p mcp.Prompt, args string) (string, error) {
	msgs, err := p.Get(ctx, p.ArgumentNames(command.SplitArgs(args)))
	if err != nil {
		return "", err
	}
	var parts []string
	for _, m := range msgs {
		if t := strings.TrimSpace(m.Text()); t != "" {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, "\n\n"), nil
}
