package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"reins/internal/command"
	"reins/internal/compact"
	"reins/internal/engine"
	"reins/internal/hooks"
	"reins/internal/llm"
	"reins/internal/prompt"
	"reins/internal/settings"
	"reins/internal/tools/plan"
	"reins/internal/tools/todo"
	"reins/internal/trust"
)

// loadMemory finds the memory files (CLAUDE.md, AGENTS.md, rules).
func (a *app) loadMemory() {
	a.memory = prompt.LoadMemory(a.memoryOptions())
	a.memoryShown.Store(a.memory)
	for _, w := range a.memory.Warnings() {
		a.note("memory: " + w)
	}
}

// memoryOptions says where the memory files are. The --add-dir folders'
// own memory files load only with CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD
// set (in the environment or the settings' env), as in Claude Code.
func (a *app) memoryOptions() prompt.MemoryOptions {
	return prompt.MemoryOptions{Cwd: a.cwd, Home: a.home,
		ClaudeDir: a.claudeDir, ConfigDir: a.configDir, AddDirs: a.opts.AddDirs,
		AddDirMemory:    envTrue(a.getenv("CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD")),
		Excludes:        a.memoryExcludes(),
		ExternalImports: a.externalImportsApproved(), Kinds: a.memoryKinds()}
}

// memoryExcludes are the claudeMdExcludes globs of every settings file
// (the lists are joined). A value that is not a list of strings is
// reported and ignored.
func (a *app) memoryExcludes() []string {
	if a.settings == nil {
		return nil
	}
	raw, ok := a.settings.Raw["claudeMdExcludes"]
	if !ok {
		return nil
	}
	var globs []string
	if err := json.Unmarshal(raw, &globs); err != nil {
		a.note("settings: claudeMdExcludes must be a list of glob strings; ignored")
		return nil
	}
	return globs
}

// freshUserContext reads the memory files again (the terminal UI wrote
// one) and returns the context userContext gives from now on, to
// sub-agents started later too. The memory the tools attach nested files
// to stays as it is.
func (a *app) freshUserContext() string {
	if a.memory == nil {
		return a.dynamicContext()
	}
	m := prompt.LoadMemory(a.memoryOptions())
	text := m.UserContext(a.sessionDate())
	a.memoryShown.Store(m)
	a.memoryNow.Store(&text)
	return joinContext(a.dynamicContext(), text)
}

// newConversation readies the app for another conversation of the
// session (/clear, /resume): the memory files are read again, so that
// changes made since reach the model, the nested files and rules the last
// conversation was given are given again when the model reads where they
// apply, and its approved plan is forgotten. It returns the memory
// context for the new conversation.
func (a *app) newConversation() string {
	a.lastPlan.Store(nil)
	if a.memory == nil {
		return a.dynamicContext()
	}
	a.memory.ForgetNested()
	return a.freshUserContext()
}

// memoryKinds are the kinds of memory --setting-sources lets load, as in
// Claude Code: user memory with "user", the project's files (and those of
// --add-dir folders) with "project", CLAUDE.local.md with "local"; nil
// (all) without the flag. A list that does not parse is reported by
// loadSettings.
func (a *app) memoryKinds() []prompt.Kind {
	if a.bare() {
		return bareMemoryKinds()
	}
	if !a.opts.SourcesSet {
		return nil
	}
	srcs, err := settings.ParseSources(a.opts.SettingSources)
	if err != nil {
		return nil
	}
	kinds := []prompt.Kind{}
	for _, s := range srcs {
		switch s {
		case settings.SourceUser:
			kinds = append(kinds, prompt.KindUser)
		case settings.SourceProject:
			kinds = append(kinds, prompt.KindProject, prompt.KindAdditional)
		case settings.SourceLocal:
			kinds = append(kinds, prompt.KindLocal)
		}
	}
	return kinds
}

// externalImportsApproved reports whether the project's memory files may
// import files outside the project: the user approved it in Claude Code
// (hasClaudeMdExternalIncludesApproved for this folder or one above it in
// ~/.claude.json), or, short of an answer there, trusted the folder.
func (a *app) externalImportsApproved() bool {
	if data, err := os.ReadFile(trust.ClaudeJSONPath(a.env.Getenv, a.home)); err == nil {
		var cfg struct {
			Projects map[string]struct {
				Approved *bool `json:"hasClaudeMdExternalIncludesApproved"`
				Shown    bool  `json:"hasClaudeMdExternalIncludesWarningShown"`
			} `json:"projects"`
		}
		if json.Unmarshal(data, &cfg) == nil {
			best := ""
			for p, v := range cfg.Projects {
				if v.Approved == nil || (!*v.Approved && !v.Shown) {
					continue // no answer recorded
				}
				rel, err := filepath.Rel(filepath.Clean(p), a.cwd)
				if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || len(p) <= len(best) {
					continue
				}
				best = p
			}
			if best != "" {
				return *cfg.Projects[best].Approved
			}
		}
	}
	trusted, _ := a.trust.IsTrusted(a.cwd)
	return trusted
}

// sessionDate is the date fixed at session start.
func (a *app) sessionDate() string {
	if a.date == "" {
		a.date = prompt.SessionDate(time.Now(), a.getenv)
	}
	return a.date
}

// userContext is the memory reminder sent at the front of every request
// (after the environment, when the system prompt leaves it out).
func (a *app) userContext() string {
	if a.memory == nil {
		return a.dynamicContext()
	}
	if now := a.memoryNow.Load(); now != nil {
		return joinContext(a.dynamicContext(), *now)
	}
	return joinContext(a.dynamicContext(), a.memory.UserContext(a.sessionDate()))
}

// dynamicContext is the environment the system prompt leaves out with
// the Agent SDK's excludeDynamicSections (working folders, date, git
// snapshot), sent at the front of the conversation instead; "" without
// it, or when a custom system prompt replaces the default one.
func (a *app) dynamicContext() string {
	if !a.excludeDynamic.Load() || a.bare() || strings.TrimSpace(a.customSystemPrompt()) != "" {
		return ""
	}
	return prompt.DynamicContext(prompt.Options{Cwd: a.cwd, AddDirs: a.promptDirs(), Date: a.sessionDate(),
		Git: a.git.Wait(), NoGitInstructions: !a.gitInstructions()})
}

// joinContext joins the non-empty context reminders.
func joinContext(parts ...string) string {
	var kept []string
	for _, p := range parts {
		if p != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, "\n")
}

// customSystemPrompt is the prompt that replaces reins's own: the
// --system-prompt text or file, else the main agent's prompt ("" for
// none).
func (a *app) customSystemPrompt() string {
	o := a.opts
	custom := o.SystemPrompt
	if o.SystemFile != "" {
		custom = a.promptFiles.system
	}
	if p := a.mainAgentPrompt(); p != "" && strings.TrimSpace(custom) == "" {
		custom = p
	}
	return custom
}

// systemPrompt builds the system prompt blocks: reins's own prompt (or
// --system-prompt), the environment, MCP server instructions, appended
// text and the git snapshot.
func (a *app) systemPrompt(ctx context.Context) []llm.SystemBlock {
	o := a.opts
	custom := a.customSystemPrompt()
	appendText := o.AppendSystem
	if o.AppendFile != "" {
		appendText = strings.TrimSpace(appendText + "\n\n" + a.promptFiles.appended)
	}
	a.styleMu.Lock()
	if extra := strings.TrimSpace(a.outStyle.sdkAppend); extra != "" {
		appendText = strings.TrimSpace(appendText + "\n\n" + extra)
	}
	a.styleMu.Unlock()
	platform, version := prompt.Host(ctx)
	if a.bare() {
		return prompt.Build(prompt.Options{Cwd: a.cwd, AddDirs: a.promptDirs(), Date: a.sessionDate(),
			Custom: custom, Append: appendText, Simple: true})
	}
	var sections []string
	if a.mcpm() != nil {
		// Print and SDK modes wait (bounded) for the servers; the terminal
		// UI starts at once, with the instructions of those connected.
		if a.front != frontTUI {
			a.waitMCP(ctx)
		}
		ins := a.mcpm().Snapshot().Instructions
		a.mcpInstrMu.Lock()
		a.mcpInstrSent = ins
		a.mcpInstrMu.Unlock()
		names := make([]string, 0, len(ins))
		for name := range ins {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			if text := ins[name]; strings.TrimSpace(text) != "" {
				sections = append(sections, "Instructions from the MCP server "+name+":\n"+text)
			}
		}
	}
	// The attribution setting: the commit trailers and pull request text
	// the user wants (reins adds none of its own).
	sections = append(sections, prompt.Attribution(a.settings.Attribution.Commit, a.settings.Attribution.PR))
	var language string
	_, _ = a.settings.Get("language", &language)
	sections = append(sections, prompt.Language(language))
	return prompt.Build(prompt.Options{
		Cwd: a.cwd, AddDirs: a.promptDirs(), Platform: platform, OSVersion: version,
		Date: a.sessionDate(), Model: a.model, Git: a.git.Wait(),
		Sections: sections, Custom: custom, Append: appendText, Style: a.promptStyle(),
		NoGitInstructions: !a.gitInstructions(), ExcludeDynamic: a.excludeDynamic.Load(),
	})
}

// gitInstructions reports whether the system prompt carries the git
// section and snapshot: the includeGitInstructions setting (default
// true), unless CLAUDE_CODE_DISABLE_GIT_INSTRUCTIONS is set.
func (a *app) gitInstructions() bool {
	if envTrue(a.getenv("CLAUDE_CODE_DISABLE_GIT_INSTRUCTIONS")) {
		return false
	}
	include := true
	_, _ = a.settings.Get("includeGitInstructions", &include)
	return include
}

// autoCompactOff reports whether the settings turn autocompaction off
// (autoCompactEnabled false), for the session and its sub-agents alike.
func (a *app) autoCompactOff() bool {
	auto := true
	if raw, ok := a.settings.Raw["autoCompactEnabled"]; ok {
		json.Unmarshal(raw, &auto)
	}
	return !auto
}

// newCompactor builds the compaction pipeline of the session.
func (a *app) newCompactor() *compact.Compactor {
	return compact.New(compact.Config{
		Getenv:       a.getenv,
		AutoDisabled: a.autoCompactOff(),
		Files:        a.files,
		Todos:        a.todoText,
		Plan:         a.planText,
		Skill:        a.restoresSkill,
		Restore:      a.afterCompact,
		PreCompact:   a.preCompact,
		PostCompact:  a.postCompact,
		OnCompact:    a.afterCompactMemory,
		Logger:       a.logger,
	})
}

// afterCompactMemory readies the memory after a compaction, as Claude
// Code clears its memory caches then: the nested files and rules already
// given are forgotten (the summary replaced the messages that carried
// them), and the memory files are read again, so a CLAUDE.md changed
// since reaches the model from the next request on.
func (a *app) afterCompactMemory(s *engine.Session) {
	if a.memory == nil {
		return
	}
	a.memory.ForgetNested()
	s.SetUserContext(a.freshUserContext())
}

// restoresSkill reports whether the text of an invoked prompt command is
// given back after a compaction: skills and custom commands are, builtins
// are not.
func (a *app) restoresSkill(name string) bool {
	c, ok := a.commands.Lookup(name)
	return !ok || c.Source != command.SourceBuiltin
}

// planText is the plan the user approved last in history, the main
// conversation (an ExitPlanMode call that ran), given back after a
// compaction as
// Claude Code gives back its plan file. It is remembered, so a later
// compaction, after the call was summarised away, gives it again.
func (a *app) planText(history []engine.HistoryItem) string {
	ran := map[string]bool{}
	for _, it := range history {
		for _, b := range it.Message.Content {
			if b.Type == llm.BlockToolResult && !b.IsError {
				ran[b.ToolUseID] = true
			}
		}
	}
	text := ""
	for _, it := range history {
		for _, b := range it.Message.Content {
			if b.Type != llm.BlockToolUse || b.Name != plan.ExitName || !ran[b.ID] {
				continue
			}
			if in, err := plan.ParseExit(b.Input); err == nil && strings.TrimSpace(in.Plan) != "" {
				text = in.Plan
			}
		}
	}
	if text != "" {
		a.lastPlan.Store(&text)
		return text
	}
	if p := a.lastPlan.Load(); p != nil {
		return *p
	}
	return ""
}

// todoText renders the main thread's todo list for after a compaction.
func (a *app) todoText() string { return todoListText(a.todos.Items("")) }

// todoListText is a todo list as given back after a compaction ("" for
// none).
func todoListText(items []todo.Item) string {
	if len(items) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("The todo list so far:\n")
	for _, it := range items {
		fmt.Fprintf(&b, "- [%s] %s\n", it.Status, it.Content)
	}
	return b.String()
}

// preCompact runs PreCompact hooks; a blocking hook cancels the
// compaction, and hook context is added to the summary instructions.
func (a *app) preCompact(ctx context.Context, trigger, instructions string) (string, error) {
	if !a.hookRun.Has(hooks.PreCompact) {
		return instructions, nil
	}
	r := a.hookRun.Run(ctx, a.hookInput(hooks.PreCompact, func(h *hooks.Input) {
		h.Trigger, h.CustomInstructions = trigger, instructions
	}))
	a.reportHooks(r)
	if r.Block || r.Stop {
		return "", errors.New(firstNonEmpty(r.Reason, r.StopReason, "blocked"))
	}
	for _, c := range r.AdditionalContext {
		instructions = strings.TrimSpace(instructions + "\n\n" + c)
	}
	return instructions, nil
}

// postCompact runs PostCompact hooks once a compaction is done; they are
// told its trigger and summary, and can only report.
func (a *app) postCompact(ctx context.Context, trigger, summary string) {
	if !a.hookRun.Has(hooks.PostCompact) {
		return
	}
	a.reportObserved(a.hookRun.Run(ctx, a.hookInput(hooks.PostCompact, func(h *hooks.Input) {
		h.Trigger, h.CompactSummary = trigger, summary
	})))
}

// promptFiles holds the contents of --system-prompt-file and
// --append-system-prompt-file, read once at start.
type promptFiles struct {
	system, appended string
}

// readPromptFiles reads the system prompt files the flags name. A file
// that cannot be read stops the run: going on with another prompt than
// the one asked for would be worse.
func (a *app) readPromptFiles() error {
	for _, f := range []struct {
		flag, path string
		to         *string
	}{
		{"--system-prompt-file", a.opts.SystemFile, &a.promptFiles.system},
		{"--append-system-prompt-file", a.opts.AppendFile, &a.promptFiles.appended},
	} {
		if f.path == "" {
			continue
		}
		b, err := os.ReadFile(f.path)
		if err != nil {
			return fmt.Errorf("%s: %w", f.flag, err)
		}
		*f.to = string(b)
	}
	return nil
}
