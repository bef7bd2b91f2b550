package agent

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	agentdef "reins/internal/agent"
	"reins/internal/llm"
	"reins/internal/task"
	"reins/internal/tool"
)

// Name is the tool's name. Rules, hook matchers and transcripts written
// for the older name "Task" reach it too (the engine's lookup and the
// permission and hook matchers map that name).
const Name = "Agent"

// MaxResultChars is the size past which a report is stored on disk.
const MaxResultChars = 100_000

var (
	//go:embed description.md
	description string
	//go:embed schema.json
	schema []byte
)

// Input is the tool's input.
type Input struct {
	Description     string `json:"description"`
	Prompt          string `json:"prompt"`
	SubagentType    string `json:"subagent_type,omitempty"`
	Model           string `json:"model,omitempty"`
	RunInBackground bool   `json:"run_in_background,omitempty"`
	Effort          string `json:"effort,omitempty"`
	Isolation       string `json:"isolation,omitempty"`

	// backgroundGiven is set when the call gave run_in_background at
	// all (true or false).
	backgroundGiven bool
}

// Data is the structured result of a foreground run, with Claude Code's
// field names.
type Data struct {
	// Status is "completed", "failed" or "interrupted".
	Status    string             `json:"status"`
	Prompt    string             `json:"prompt"`
	AgentID   string             `json:"agentId"`
	AgentType string             `json:"agentType"`
	Content   []llm.ContentBlock `json:"content"`
	// TotalDurationMs is the wall time of the run.
	TotalDurationMs int64 `json:"totalDurationMs"`
	// TotalTokens is the final response's tokens, cache included: how
	// much context the agent ended with.
	TotalTokens       int `json:"totalTokens"`
	TotalToolUseCount int `json:"totalToolUseCount"`
	// Usage is the final response's usage.
	Usage llm.Usage `json:"usage"`
	// WorktreePath and WorktreeBranch name the worktree an isolated
	// agent left its changes in.
	WorktreePath   string `json:"worktreePath,omitempty"`
	WorktreeBranch string `json:"worktreeBranch,omitempty"`
}

// LaunchData is the structured result of run_in_background.
type LaunchData struct {
	IsAsync     bool   `json:"isAsync"`
	Status      string `json:"status"` // "async_launched"
	AgentID     string `json:"agentId"`
	AgentType   string `json:"agentType"`
	Description string `json:"description"`
	Prompt      string `json:"prompt"`
	// OutputFile holds the agent's answer once it finished.
	OutputFile string `json:"outputFile,omitempty"`
}

// Config is what the tool needs. Catalog and Spawner are required.
type Config struct {
	// Catalog returns the current agent catalog, which resolves
	// subagent_type (it may change between calls, when the SDK client
	// adds agents).
	Catalog func() *agentdef.Catalog
	// Spawner starts the sub-agents.
	Spawner agentdef.Spawner
	// Tasks receives run_in_background agents; nil refuses them.
	Tasks *task.Registry
	// NoBackground turns background agents off, as
	// CLAUDE_CODE_DISABLE_BACKGROUND_TASKS does: the schema has no
	// run_in_background, a definition's "background: true" runs in the
	// foreground, and a running agent cannot be moved to the background.
	NoBackground bool
	// ParentTools returns the names of the tools of the conversation this
	// tool serves, at call time; a sub-agent never gets another tool.
	ParentTools func() []string
	// Depth is the nesting level of the conversation this tool serves: 0
	// for the main conversation.
	Depth int
	// MaxDepth is how deep sub-agents nest (0 means
	// agent.DefaultMaxDepth): a sub-agent at depth d gets an Agent tool
	// of its own only when d < MaxDepth.
	MaxDepth int
	// AllowedTypes, when not nil, are the only agent types this tool may
	// start (a definition's "Agent(a, b)" tools entry).
	AllowedTypes []string
	// Resolve maps a model alias to a model id (nil keeps it as given).
	Resolve func(string) string
	// Now is the clock (nil: time.Now).
	Now func() time.Time
	// NewID makes agent ids (nil: agent.NewID).
	NewID func() string
}

// Tool is the Agent tool. Construct it with New.
type Tool struct {
	tool.Defaults
	cfg Config
	// foregroundSchema is the input schema under NoBackground.
	foregroundSchema json.RawMessage
}

var _ tool.Tool = (*Tool)(nil)

// New returns the Agent tool. It panics without a Catalog or Spawner.
func New(cfg Config) *Tool {
	if cfg.Catalog == nil || cfg.Spawner == nil {
		panic("agent.New: Catalog and Spawner are required")
	}
	if cfg.MaxDepth <= 0 {
		cfg.MaxDepth = agentdef.DefaultMaxDepth
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.NewID == nil {
		cfg.NewID = agentdef.NewID
	}
	if cfg.NoBackground {
		cfg.Tasks = nil
		return &Tool{cfg: cfg, foregroundSchema: tool.WithoutProperty(schema, "run_in_background")}
	}
	return &Tool{cfg: cfg}
}

// Name implements tool.Tool.
func (*Tool) Name() string { return Name }

// Description implements tool.Tool. It never lists the agent types, so
// that it stays byte-stable; the listing goes in a reminder message.
func (*Tool) Description() string { return strings.TrimSpace(description) }

// InputSchema implements tool.Tool.
func (t *Tool) InputSchema() json.RawMessage {
	if t.cfg.NoBackground {
		return t.foregroundSchema
	}
	return schema
}

// IsReadOnly reports true: starting an agent changes nothing by itself,
// and each of the agent's own calls is checked as it is made.
func (*Tool) IsReadOnly(json.RawMessage) bool { return true }

// IsConcurrencySafe reports true: several agents run side by side.
func (*Tool) IsConcurrencySafe(json.RawMessage) bool { return true }

// MaxResultChars implements tool.Tool.
func (*Tool) MaxResultChars() int { return MaxResultChars }

// Depth is the nesting level of the conversation the tool serves.
func (t *Tool) Depth() int { return t.cfg.Depth }

func parse(raw json.RawMessage) (Input, error) {
	var in Input
	if err := json.Unmarshal(raw, &in); err != nil {
		return in, fmt.Errorf("Agent input: %w", err)
	}
	var keys map[string]json.RawMessage
	if json.Unmarshal(raw, &keys) == nil {
		_, in.backgroundGiven = keys["run_in_background"]
	}
	return in, nil
}

// Validate checks the input against the catalog and the nesting limits.
func (t *Tool) Validate(_ context.Context, _ *tool.Call, raw json.RawMessage) error {
	in, err := parse(raw)
	if err != nil {
		return err
	}
	_, err = t.check(in)
	return err
}

// check finds the definition and applies the limits; its errors are for
// the model.
func (t *Tool) check(in Input) (*agentdef.Definition, error) {
	switch {
	case strings.TrimSpace(in.Prompt) == "":
		return nil, errors.New("prompt is empty: give the agent its whole task")
	case strings.TrimSpace(in.Description) == "":
		return nil, errors.New("description is empty: give the task a three-to-five word label")
	case t.cfg.Depth >= t.cfg.MaxDepth:
		return nil, fmt.Errorf("this agent may not start agents of its own (sub-agents nest at most %d level deep); do the work yourself", t.cfg.MaxDepth)
	case in.RunInBackground && t.cfg.Tasks == nil:
		return nil, errors.New("background agents are not available here; run it without run_in_background")
	case in.Isolation != "" && in.Isolation != agentdef.IsolationWorktree:
		return nil, fmt.Errorf("isolation %q is not available; the only isolation is %q", in.Isolation, agentdef.IsolationWorktree)
	}
	if lvl, err := llm.ParseEffort(in.Effort); err != nil || lvl == llm.EffortAuto {
		return nil, fmt.Errorf("effort: %q is not one of %s", in.Effort, strings.Join(llm.EffortLevels(), ", "))
	}
	name := strings.TrimSpace(in.SubagentType)
	if name == "" {
		name = agentdef.GeneralPurpose
	}
	def, ok := t.cfg.Catalog().Lookup(name)
	if !ok {
		return nil, fmt.Errorf("there is no agent type %q; the types are: %s", name, strings.Join(t.types(), ", "))
	}
	if t.cfg.AllowedTypes != nil && !slices.ContainsFunc(t.cfg.AllowedTypes, func(a string) bool { return strings.EqualFold(a, def.Name) }) {
		return nil, fmt.Errorf("this agent may start only these agent types: %s", strings.Join(t.cfg.AllowedTypes, ", "))
	}
	return def, nil
}

// types lists the agent types this tool may start.
func (t *Tool) types() []string {
	var out []string
	for _, n := range t.cfg.Catalog().Names() {
		if t.cfg.AllowedTypes == nil || slices.ContainsFunc(t.cfg.AllowedTypes, func(a string) bool { return strings.EqualFold(a, n) }) {
			out = append(out, n)
		}
	}
	return out
}

// spec builds the narrowed run for a call.
func (t *Tool) spec(c *tool.Call, in Input, def *agentdef.Definition) agentdef.Spec {
	model := def.ModelFor(c.Model, t.cfg.Resolve)
	if in.Model != "" {
		model = in.Model
		if t.cfg.Resolve != nil {
			model = t.cfg.Resolve(model)
		}
	}
	var parent []string
	if t.cfg.ParentTools != nil {
		parent = t.cfg.ParentTools()
	}
	depth := t.cfg.Depth + 1
	effort := strings.ToLower(strings.TrimSpace(in.Effort))
	if effort == "" {
		effort = def.Effort
	}
	if effort == "" {
		effort = c.Effort
	}
	isolation := in.Isolation
	if isolation == "" {
		isolation = def.Isolation
	}
	return agentdef.Spec{
		Definition:       def,
		AgentID:          t.cfg.NewID(),
		Description:      strings.TrimSpace(in.Description),
		Prompt:           in.Prompt,
		Model:            model,
		ParentToolUseID:  c.ID,
		ParentTranscript: c.Transcript,
		ParentNotUser:    c.NotUser,
		Depth:            depth,
		Background:       in.RunInBackground,
		BackgroundAsked:  backgroundAsked(in),
		Tools:            def.FilterTools(parent, agentdef.FilterOptions{AllowAgent: depth < t.cfg.MaxDepth}),
		Effort:           effort,
		Isolation:        isolation,
	}
}

// backgroundAsked is the call's run_in_background, nil when it gave none.
func backgroundAsked(in Input) *bool {
	if !in.backgroundGiven {
		return nil
	}
	b := in.RunInBackground
	return &b
}

// Call starts the agent: in the foreground it runs to the end, passing
// the agent's events up as progress, and returns its report; in the
// background it is registered as a task and the call returns at once.
func (t *Tool) Call(ctx context.Context, c *tool.Call, raw json.RawMessage, progress func(tool.Progress)) (*tool.Result, error) {
	in, err := parse(raw)
	if err != nil {
		return nil, err
	}
	def, err := t.check(in)
	if err != nil {
		return nil, err
	}
	if def.Background && t.cfg.Tasks != nil {
		// The definition asks to run in the background every time.
		in.RunInBackground = true
	}
	spec := t.spec(c, in, def)
	if in.RunInBackground {
		return t.background(ctx, spec)
	}
	return t.foreground(ctx, spec, progress)
}

func (t *Tool) foreground(ctx context.Context, spec agentdef.Spec, progress func(tool.Progress)) (*tool.Result, error) {
	start := t.cfg.Now()
	conv, err := t.cfg.Spawner.Spawn(ctx, spec)
	if err != nil {
		return nil, fmt.Errorf("start the %s agent: %w", spec.Definition.Name, err)
	}
	run := t.launch(ctx, conv, progress)
	remove := func() {}
	if t.cfg.Tasks != nil && spec.ParentToolUseID != "" {
		remove = t.cfg.Tasks.AddMovable(spec.ParentToolUseID, func() bool { return t.moveToTask(ctx, run, spec) })
	}
	select {
	case <-run.done:
	case <-run.moved:
	case <-ctx.Done():
	}
	moved := run.settle()
	remove()
	if moved {
		return movedResult(spec, run.task), nil
	}
	if ctx.Err() != nil {
		run.cancel(context.Cause(ctx)) // it returns what it had
	}
	<-run.done
	defer conv.Close()
	if run.err != nil {
		return nil, fmt.Errorf("run the %s agent: %w", spec.Definition.Name, run.err)
	}
	return report(spec, run.res, t.cfg.Now().Sub(start)), nil
}

// status maps the engine's terminal reason to the result status.
func status(res *agentdef.Result) string {
	switch res.Reason {
	case "completed", "max_turns", "stop_hook_prevented":
		return "completed"
	case "aborted_streaming", "aborted_tools":
		return "interrupted"
	}
	return "failed"
}

// report turns a finished run into the tool result.
func report(spec agentdef.Spec, res *agentdef.Result, d time.Duration) *tool.Result {
	st := status(res)
	answer := strings.TrimSpace(res.Text)
	var notes []string
	switch {
	case res.Reason == "max_turns":
		notes = append(notes, fmt.Sprintf("(The agent stopped at its turn limit before it finished; %s)", errText(res.Err)))
	case st == "failed":
		notes = append(notes, fmt.Sprintf("(The %s agent failed: %s)", spec.Definition.Name, errText(res.Err)))
	case st == "interrupted":
		notes = append(notes, "(The agent was interrupted before it finished.)")
	}
	if answer == "" && st == "completed" && res.Reason != "max_turns" {
		answer = "(The agent finished without a final message.)"
	}
	if res.WorktreePath != "" {
		notes = append(notes, worktreeNote(res))
	}
	text := strings.TrimSpace(strings.Join(append([]string{answer}, notes...), "\n\n"))
	tokens := res.LastUsage.InputTokens + res.LastUsage.OutputTokens + res.LastUsage.CacheCreationInputTokens + res.LastUsage.CacheReadInputTokens
	content := []llm.ContentBlock{llm.TextBlock(text)}
	trailer := fmt.Sprintf("agentId: %s\n<usage>total_tokens: %d\ntool_uses: %d\nduration_ms: %d</usage>",
		spec.AgentID, tokens, res.ToolUses, d.Milliseconds())
	return &tool.Result{
		Content: append(content, llm.TextBlock(trailer)),
		IsError: st != "completed",
		Data: &Data{Status: st, Prompt: spec.Prompt, AgentID: spec.AgentID, AgentType: spec.Definition.Name,
			Content: content, TotalDurationMs: d.Milliseconds(), TotalTokens: tokens,
			TotalToolUseCount: res.ToolUses, Usage: res.LastUsage,
			WorktreePath: res.WorktreePath, WorktreeBranch: res.WorktreeBranch},
	}
}

// worktreeNote tells the caller where an isolated agent's changes are.
func worktreeNote(res *agentdef.Result) string {
	if res.WorktreeBranch == "" {
		// A WorktreeCreate hook made it: no git branch to name.
		return fmt.Sprintf("(The agent worked in its own worktree; its changes are kept there, not in your checkout: %s. Review them there, then copy what you want.)", res.WorktreePath)
	}
	return fmt.Sprintf("(The agent worked in its own git worktree; its changes are kept there, not in your checkout: worktree %s, branch %s. Review them there, then merge the branch or copy what you want.)",
		res.WorktreePath, res.WorktreeBranch)
}

func errText(err error) string {
	if err == nil {
		return "no reason given"
	}
	return err.Error()
}

func (t *Tool) background(ctx context.Context, spec agentdef.Spec) (*tool.Result, error) {
	conv, err := t.cfg.Spawner.Spawn(ctx, spec)
	if err != nil {
		return nil, fmt.Errorf("start the %s agent: %w", spec.Definition.Name, err)
	}
	tk, err := t.cfg.Tasks.Start(task.Spec{ID: spec.AgentID, Kind: task.KindAgent, Description: spec.Description,
		ToolUseID: spec.ParentToolUseID, AgentType: spec.Definition.Name, Prompt: spec.Prompt,
		Run: func(ctx context.Context, out io.Writer) (int, error) {
			defer conv.Close()
			var report func(any)
			if tk, ok := out.(*task.Task); ok {
				report = func(v any) { reportProgress(tk, v) }
			}
			res, err := conv.Run(ctx, report)
			return finishTask(out, res, err)
		}})
	if err != nil {
		conv.Close()
		return nil, fmt.Errorf("start the %s agent in the background: %w", spec.Definition.Name, err)
	}
	info := tk.Info()
	msg := fmt.Sprintf("The %s agent is working in the background as task %s. You will be told when it finishes, with its answer; carry on meanwhile and do not poll. TaskOutput (task_id %q) reads its output early and TaskStop ends it.",
		spec.Definition.Name, tk.ID(), tk.ID())
	return &tool.Result{
		Content: []llm.ContentBlock{llm.TextBlock(msg)},
		Data: &LaunchData{IsAsync: true, Status: "async_launched", AgentID: spec.AgentID, AgentType: spec.Definition.Name,
			Description: spec.Description, Prompt: spec.Prompt, OutputFile: info.OutputPath},
	}, nil
}
