package cli

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"reins/internal/llm"
	"reins/internal/prompt"
)

// loadMemory finds the memory files (CLAUDE.md, AGENTS.md, rules).
func (a *app) loadMemory() {
	a.memory = prompt.LoadMemory(prompt.MemoryOptions{Cwd: a.cwd, Home: a.home,
		ClaudeDir: a.claudeDir, ConfigDir: a.configDir, AddDirs: a.opts.AddDirs})
	for _, w := range a.memory.Warnings() {
		a.warnings = append(a.warnings, "memory: "+w)
	}
}

// sessionDate is the date fixed at session start.
func (a *app) sessionDate() string { return prompt.SessionDate(time.Now(), a.getenv) }

// userContext is the memory reminder sent at the front of every request.
func (a *app) userContext() string {
	if a.memory == nil {
		return ""
	}
	return a.memory.UserContext(a.sessionDate())
}

// systemPrompt builds the system prompt blocks: reins's own prompt (or
// --system-prompt), the environment, MCP server instructions, appended
// text and the git snapshot.
func (a *app) systemPrompt(ctx context.Context) []llm.SystemBlock {
	o := a.opts
	custom := o.SystemPrompt
	if o.SystemFile != "" {
		b, err := os.ReadFile(o.SystemFile)
		if err != nil {
			a.warn(fmt.Sprintf("--system-prompt-file: %v", err))
		} else {
			custom = string(b)
		}
	}
	appendText := o.AppendSystem
	if o.AppendFile != "" {
		b, err := os.ReadFile(o.AppendFile)
		if err != nil {
			a.warn(fmt.Sprintf("--append-system-prompt-file: %v", err))
		} else {
			appendText = strings.TrimSpace(appendText + "\n\n" + string(b))
		}
	}
	platform, version := prompt.Host(ctx)
	var sections []string
	if a.mcp != nil {
		a.waitMCP(ctx)
		for name, text := range a.mcp.Snapshot().Instructions {
			if strings.TrimSpace(text) != "" {
				sections = append(sections, "Instructions from the MCP server "+name+":\n"+text)
			}
		}
	}
	return prompt.Build(prompt.Options{
		Cwd: a.cwd, AddDirs: o.AddDirs, Platform: platform, OSVersion: version,
		Date: a.sessionDate(), Model: a.model, Git: a.git.Wait(),
		Sections: sections, Custom: custom, Append: appendText,
	})
}
