package cli

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"reins/internal/agent"
	"reins/internal/plugin"
	"reins/internal/tool"
)

// selectMainAgent makes the main conversation run as the named agent
// (--agent, the SDK's agent option): the agent's prompt becomes the
// system prompt, its tools bound the session's, and its model, unless it
// inherits, is the session's. Call it before the session is built (or
// rebuild it after).
func (a *app) selectMainAgent(name string) error {
	cat := a.agentCatalog()
	var def *agent.Definition
	if cat != nil {
		def, _ = cat.Lookup(name)
	}
	if def == nil {
		return a.unknownAgent(name)
	}
	a.mu.Lock()
	a.mainAgent = def
	a.mu.Unlock()
	a.model = def.ModelFor(a.model, a.models.Resolve)
	return nil
}

// selectDefaultAgent runs the main conversation as the agent settings
// name ("agent"), else as the one a plugin's settings.json names (the
// first plugin that names one). An agent that is not defined is a
// warning, and a plugin's is also among its plugin_errors: the session
// runs as itself.
func (a *app) selectDefaultAgent() {
	var name string
	if json.Unmarshal(a.settings.Raw["agent"], &name) == nil && strings.TrimSpace(name) != "" {
		if err := a.selectMainAgent(strings.TrimSpace(name)); err != nil {
			a.warn(fmt.Sprintf("settings \"agent\": %v; the session runs without it", err))
		}
		return
	}
	ps, _ := a.loadedPlugins()
	for _, p := range ps {
		if p.Agent == "" {
			continue
		}
		if err := a.selectMainAgent(p.Agent); err != nil {
			e := plugin.Error{Plugin: p.ID, Type: plugin.ErrGeneric,
				Message: fmt.Sprintf("%s: \"agent\" names %q, which is not one of the session's agents; the session runs without it", filepath.Join(p.Root, "settings.json"), p.Agent)}
			a.warn(e.Error())
			a.mu.Lock()
			a.pluginErrors = append(a.pluginErrors, e)
			a.mu.Unlock()
		}
		return
	}
}

// unknownAgent is the error for an --agent no definition has.
func (a *app) unknownAgent(name string) error {
	var names []string
	if cat := a.agentCatalog(); cat != nil {
		names = cat.Names()
	}
	return fmt.Errorf("--agent: no agent named %q (the agents are: %s)", name, strings.Join(names, ", "))
}

// mainAgentPrompt is the system prompt text of the agent the main
// conversation runs as, or "" when it runs as itself.
func (a *app) mainAgentPrompt() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.mainAgent == nil {
		return ""
	}
	return strings.TrimSpace(a.mainAgent.Prompt)
}

// mainAgentTools keeps the tools the main conversation's agent may use:
// those its definition grants (sub-agent starts included), and the tools
// only a main conversation has.
func (a *app) mainAgentTools(ts []tool.Tool) []tool.Tool {
	a.mu.Lock()
	def := a.mainAgent
	a.mu.Unlock()
	if def == nil {
		return ts
	}
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = t.Name()
	}
	keep := def.FilterTools(names, agent.FilterOptions{AllowAgent: true})
	mainOnly := agent.MainOnlyTools()
	var out []tool.Tool
	for _, t := range ts {
		if slices.Contains(keep, t.Name()) || slices.Contains(mainOnly, t.Name()) {
			out = append(out, t)
		}
	}
	return out
}

// withInitialPrompt puts the initialPrompt of the agent the main
// conversation runs as ahead of the user's first prompt (alone when the
// user gave none), as Claude Code submits it as the session's first turn.
// A resumed session already had its first turn, so it gets prompt back
// unchanged.
func (a *app) withInitialPrompt(prompt string) string {
	a.mu.Lock()
	def := a.mainAgent
	a.mu.Unlock()
	if def == nil || def.InitialPrompt == "" || a.opts.Resume != "" || a.opts.Continue {
		return prompt
	}
	if strings.TrimSpace(prompt) == "" {
		return def.InitialPrompt
	}
	return def.InitialPrompt + "\n\n" + prompt
}
