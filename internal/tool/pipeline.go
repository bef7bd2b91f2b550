package tool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"reins/internal/llm"
)

// Proxy is implemented by a tool that runs another tool on the model's
// behalf (ExecuteExtraTool runs a deferred tool whose schema was never
// sent). The pipeline validates the proxy's own input, then resolves the
// target and runs it through every step under the target's name: schema
// validation, the target's Validate, the Gate (hooks, permission rules,
// the SDK's can_use_tool), Call, Gate.After and the result policy. The
// proxy's own Call is never used, and a proxy may not target a proxy.
type Proxy interface {
	// Target returns the tool to run and its input. It must not block and
	// its error is shown to the model.
	Target(input json.RawMessage) (Tool, json.RawMessage, error)
}

// Pipeline runs one call through the steps every call passes: schema
// validation → the tool's own validation → Gate.Before → Call →
// Gate.After → the result size policy. The Executor runs each of its calls
// through one; other callers (a tool server, tests) may use it alone. The
// zero value allows every call and keeps results inline.
type Pipeline struct {
	Gate    Gate     // nil means AllowAll
	Schemas *Schemas // nil means no cache (compiled per call)
	Store   *ResultStore
	// Deferred, when set, reports a deferred tool whose schema was not
	// sent; its hint is added to a schema validation error.
	Deferred func(name string) (hint string, deferred bool)
	// Emit, when set, hears the call start (OutStarted, with the input
	// it runs with) and its progress. It may be called from any goroutine.
	Emit func(Output)

	// stopped reports that the executor hard-stopped the turn.
	stopped func() bool
}

// Run runs call c of tool t with the model's input and returns its
// outcome, whose Block answers c.ID. It never panics: a panicking tool
// becomes an error outcome. When t is a Proxy the outcome's Name is the
// target's and Via the proxy's.
func (p *Pipeline) Run(ctx context.Context, c *Call, t Tool, input json.RawMessage) (out *Outcome) {
	out = &Outcome{ID: c.ID, Name: c.Name, Input: input}
	input = integralNumbers(input) // "offset": 1.0 is an integer to the schema, and must be to the tool
	defer func() {
		if r := recover(); r != nil {
			out = failOutcome(out, fmt.Sprintf("The %s tool failed unexpectedly: %v", out.Name, r))
		}
	}()
	schemas := p.Schemas
	if schemas == nil {
		schemas = &Schemas{}
	}
	input = schemas.Coerce(t.InputSchema(), input) // "limit": "50" is a number, as Claude Code takes it
	if err := schemas.Validate(t.InputSchema(), input); err != nil {
		msg := fmt.Sprintf("InputValidationError: %s input is invalid: %v", c.Name, err)
		if p.Deferred != nil {
			if hint, ok := p.Deferred(c.Name); ok {
				msg += "\n" + hint
			}
		}
		return failOutcome(out, msg)
	}
	if err := t.Validate(ctx, c, input); err != nil {
		return failOutcome(out, err.Error())
	}
	px, ok := t.(Proxy)
	if !ok {
		return p.gated(ctx, c, t, input, out)
	}
	target, tin, err := px.Target(input)
	if err != nil {
		return failOutcome(out, err.Error())
	}
	if _, nested := target.(Proxy); nested {
		return failOutcome(out, fmt.Sprintf("%s cannot run %s: a proxy tool cannot run another proxy.", c.Name, target.Name()))
	}
	tc := *c
	tc.Name = target.Name()
	tin = schemas.Coerce(target.InputSchema(), tin)
	out.Name, out.Via, out.Input = tc.Name, c.Name, tin
	if err := schemas.Validate(target.InputSchema(), tin); err != nil {
		return failOutcome(out, fmt.Sprintf("InputValidationError: %s input is invalid: %v", tc.Name, err))
	}
	if err := target.Validate(ctx, &tc, tin); err != nil {
		return failOutcome(out, err.Error())
	}
	return p.gated(ctx, &tc, target, tin, out)
}

// gated runs the steps after validation: the Gate, the call and the result
// policy.
func (p *Pipeline) gated(ctx context.Context, c *Call, t Tool, input json.RawMessage, out *Outcome) *Outcome {
	gate := p.Gate
	if gate == nil {
		gate = AllowAll{}
	}
	v := gate.Before(ctx, c, t, input)
	out.Permission = v.Permission
	if !v.Allow {
		if ctx.Err() != nil {
			return failOutcome(out, InterruptedText)
		}
		reason := v.Reason
		if reason == "" {
			reason = fmt.Sprintf("Permission to use %s was denied.", c.Name)
		}
		out.Denied, out.DenyReason, out.DeniedBy, out.Interrupt = v.Denied, reason, v.DeniedBy, v.Interrupt
		out.StopTurn, out.StopReason = v.StopTurn, v.StopReason
		return failOutcome(out, reason)
	}
	if v.Input != nil {
		schemas := p.Schemas
		if schemas == nil {
			schemas = &Schemas{}
		}
		if err := schemas.Validate(t.InputSchema(), v.Input); err != nil {
			return failOutcome(out, fmt.Sprintf("InputValidationError: the updated input for %s is invalid: %v", c.Name, err))
		}
		input = v.Input
	}
	out.Input = input
	out.StopTurn, out.StopReason = v.StopTurn, v.StopReason
	p.emit(Output{Kind: OutStarted, ID: c.ID, Name: c.Name, Input: input})
	started := time.Now()
	res, err := t.Call(ctx, c, input, func(pr Progress) {
		p.emit(Output{Kind: OutProgress, ID: c.ID, Name: c.Name, Progress: pr})
	})
	if ctx.Err() != nil && (err != nil || res == nil) {
		cause := context.Cause(ctx)
		if errors.Is(cause, ErrInterrupted) || (p.stopped != nil && p.stopped()) {
			return failOutcome(out, InterruptedText)
		}
		return failOutcome(out, fmt.Sprintf("Cancelled: %v.", cause))
	}
	if err != nil {
		res = &Result{Content: []llm.ContentBlock{llm.TextBlock(err.Error())}, IsError: true, Data: res.dataOrNil()}
	}
	if res == nil {
		res = &Result{}
	}
	empty := emptyContent(res.Content)
	res.Elapsed = time.Since(started)
	gate.After(ctx, c, t, input, res)
	if res.StopTurn && !out.StopTurn {
		out.StopTurn, out.StopReason = true, res.StopReason
	}
	for _, s := range v.Context {
		res.Content = append(res.Content, llm.TextBlock(s))
	}
	if empty && !emptyContent(res.Content) {
		// Hooks added context to a result without output: the
		// placeholder still says so, or their text would read as the
		// tool's output.
		res.Content = withEmptyPlaceholder(t.Name(), res.Content)
	}
	out.Data, out.IsError, out.Messages = res.Data, res.IsError, res.Messages
	out.Block = llm.ToolResultBlock(c.ID, limitResult(p.Store, t, c.ID, res.Content), res.IsError)
	return out
}

func (p *Pipeline) emit(o Output) {
	if p.Emit != nil {
		p.Emit(o)
	}
}

// failOutcome makes out an error answer with text.
func failOutcome(out *Outcome, text string) *Outcome {
	out.Block = llm.ToolResultBlock(out.ID, []llm.ContentBlock{llm.TextBlock(text)}, true)
	out.IsError = true
	return out
}

func (r *Result) dataOrNil() any {
	if r == nil {
		return nil
	}
	return r.Data
}

// emptyContent reports whether a result's content says nothing: no
// blocks, or only empty text.
func emptyContent(content []llm.ContentBlock) bool {
	return len(content) == 0 || (textSize(content) == 0 && onlyText(content))
}

// withEmptyPlaceholder puts the empty-result placeholder first and drops
// empty text blocks.
func withEmptyPlaceholder(toolName string, content []llm.ContentBlock) []llm.ContentBlock {
	out := []llm.ContentBlock{llm.TextBlock(EmptyResult(toolName))}
	for _, b := range content {
		if b.Type != llm.BlockText || b.Text != "" {
			out = append(out, b)
		}
	}
	return out
}

// limitResult applies the empty-result placeholder and the size threshold.
func limitResult(store *ResultStore, t Tool, id string, content []llm.ContentBlock) []llm.ContentBlock {
	if emptyContent(content) {
		return []llm.ContentBlock{llm.TextBlock(EmptyResult(t.Name()))}
	}
	th := Threshold(t)
	if th < 0 || textSize(content) <= th || !onlyText(content) {
		return content
	}
	text := joinText(content)
	repl, err := store.Persist(id, text)
	if err != nil {
		pv := Preview(text, th)
		repl = pv + fmt.Sprintf("\n… [output cut: showing %d of %d bytes]", len(pv), len(text))
	}
	if u, ok := t.(UserLimited); ok {
		if note := u.OverLimitNote(len(text)); note != "" {
			repl += "\n" + note
		}
	}
	return []llm.ContentBlock{llm.TextBlock(repl)}
}
