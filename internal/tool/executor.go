package tool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"reins/internal/llm"
)

// DefaultMaxConcurrency is how many safe calls run at once by default.
const DefaultMaxConcurrency = 10

// ErrInterrupted is the cause given when the user interrupts a turn.
var ErrInterrupted = errors.New("interrupted by user")

// InterruptedText is the result text of a call stopped by an interrupt.
const InterruptedText = "The user interrupted this tool call before it finished; it was stopped and its result is not available."

// ExecConfig configures an Executor.
type ExecConfig struct {
	Lookup  Lookup
	Gate    Gate     // nil means AllowAll
	Schemas *Schemas // nil means a private cache
	Store   *ResultStore
	// MaxConcurrency caps concurrent safe calls; 0 means the default.
	MaxConcurrency int
	// NewCall returns the Call for a tool_use block.
	NewCall func(block llm.ContentBlock) *Call
	// CascadeTools names tools whose failure cancels their running
	// siblings (Bash by default when nil).
	CascadeTools map[string]bool
	// Deferred, when set, reports a deferred tool whose schema was not
	// sent, so a direct call gets a hint to load it first: the hint is the
	// whole answer when Lookup does not know the name, and is added to a
	// schema validation error when it does.
	Deferred func(name string) (hint string, deferred bool)
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

type status int

const (
	queued status = iota
	executing
	completed
	yielded
)

type tracked struct {
	block    llm.ContentBlock
	inputErr error
	tool     Tool
	safe     bool
	status   status
	cancel   context.CancelCauseFunc
	out      *Outcome
	started  time.Time
	behavior Interrupt
	finished bool // its outcome was handed out by Finished
}

// Outcome is the answer to one call.
type Outcome struct {
	ID   string
	Name string // the tool that ran: a proxied call names its target
	// Via is the proxy the model called (ExecuteExtraTool), "" for a
	// direct call.
	Via   string
	Input json.RawMessage // the input the tool ran with (after any update)
	// Block is the tool_result block for the model.
	Block   llm.ContentBlock
	IsError bool
	Data    any
	// Messages is extra content to append after the results.
	Messages []llm.ContentBlock
	// Denied is set when permission refused the call.
	Denied     bool
	DenyReason string
	// DeniedBy is the gate's Verdict.DeniedBy.
	DeniedBy string
	// Permission is the gate's Verdict.Permission.
	Permission *PermissionDecision
	// Interrupt ends the turn after this result (a deny with interrupt).
	Interrupt bool
	// StopTurn ends the turn after the results (a hook's continue:false).
	StopTurn   bool
	StopReason string
	Duration   time.Duration
}

// OutputKind distinguishes the executor's outputs.
type OutputKind int

// Output kinds.
const (
	OutStarted OutputKind = iota
	OutProgress
	OutResult
)

// Output is something a front end should hear about: a call started,
// progressed, or was answered.
type Output struct {
	Kind     OutputKind
	ID, Name string
	Input    json.RawMessage // OutStarted: the input the call runs with
	Progress Progress        // OutProgress
	Outcome  *Outcome        // OutResult
}

// Executor runs the tool calls of one assistant message. Use it from one
// goroutine (the engine's turn loop): Add calls as they complete, receive
// on Ready, Take what is ready, until Done. Call Wait before discarding it.
type Executor struct {
	cfg     ExecConfig
	ctx     context.Context // parent of every call's context
	stop    context.CancelCauseFunc
	sibling context.Context // cancelled when a cascading tool fails
	sibStop context.CancelCauseFunc
	wg      sync.WaitGroup
	ready   chan struct{}

	mu       sync.Mutex // guards the fields below
	calls    []*tracked
	progress []Output
	closed   bool // no more Adds
	errored  string
	notRun   string // set by Drain: the answer of calls not started
	hardStop error
}

// NewExecutor returns an executor whose calls run under ctx.
func NewExecutor(ctx context.Context, cfg ExecConfig) *Executor {
	if cfg.Gate == nil {
		cfg.Gate = AllowAll{}
	}
	if cfg.Schemas == nil {
		cfg.Schemas = &Schemas{}
	}
	if cfg.MaxConcurrency <= 0 {
		cfg.MaxConcurrency = DefaultMaxConcurrency
	}
	if cfg.CascadeTools == nil {
		cfg.CascadeTools = map[string]bool{"Bash": true}
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.NewCall == nil {
		cfg.NewCall = func(b llm.ContentBlock) *Call { return &Call{ID: b.ID, Name: b.Name} }
	}
	e := &Executor{cfg: cfg, ready: make(chan struct{}, 1)}
	e.ctx, e.stop = context.WithCancelCause(ctx)
	e.sibling, e.sibStop = context.WithCancelCause(e.ctx)
	return e
}

// Ready is signalled whenever Take has something new.
func (e *Executor) Ready() <-chan struct{} { return e.ready }

func (e *Executor) signal() {
	select {
	case e.ready <- struct{}{}:
	default:
	}
}

// Add queues a complete tool_use block. inputErr is set when its streamed
// input could not be parsed; the call is then answered with that error.
func (e *Executor) Add(block llm.ContentBlock, inputErr error) {
	t := &tracked{block: block, inputErr: inputErr}
	if inputErr == nil {
		if tl, ok := e.cfg.Lookup(block.Name); ok {
			t.tool = tl
			// A proxied call is scheduled as its target would be.
			// Inputs are coerced as the pipeline will coerce them, so a
			// Read with "offset": "2" is as concurrency-safe as any.
			sched, in := tl, e.cfg.Schemas.Coerce(tl.InputSchema(), integralNumbers(block.Input))
			if e.cfg.Schemas.Validate(tl.InputSchema(), in) == nil {
				sched, in = proxyTarget(tl, in)
				in = e.cfg.Schemas.Coerce(sched.InputSchema(), in)
			}
			t.behavior = safeBehavior(sched)
			if e.cfg.Schemas.Validate(sched.InputSchema(), in) == nil {
				t.safe = safeConcurrency(sched, in)
			}
		}
	}
	e.mu.Lock()
	e.calls = append(e.calls, t)
	e.processLocked()
	e.mu.Unlock()
	e.signal()
}

// Close says no more calls will be added.
func (e *Executor) Close() {
	e.mu.Lock()
	e.closed = true
	e.mu.Unlock()
	e.signal()
}

// Len is the number of calls added.
func (e *Executor) Len() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.calls)
}

func safeConcurrency(t Tool, input json.RawMessage) (safe bool) {
	defer func() {
		if recover() != nil {
			safe = false
		}
	}()
	return t.IsConcurrencySafe(input)
}

// proxyTarget returns the target of a Proxy and its input, or t and input
// themselves when t is no proxy or its input names no usable target.
func proxyTarget(t Tool, input json.RawMessage) (tt Tool, in json.RawMessage) {
	px, ok := t.(Proxy)
	if !ok {
		return t, input
	}
	defer func() {
		if recover() != nil {
			tt, in = t, input
		}
	}()
	target, tin, err := px.Target(input)
	if err != nil || target == nil {
		return t, input
	}
	if _, nested := target.(Proxy); nested {
		return t, input
	}
	return target, tin
}

func safeBehavior(t Tool) (b Interrupt) {
	defer func() {
		if recover() != nil {
			b = Block
		}
	}()
	return t.InterruptBehavior()
}

// processLocked starts whatever queued calls may start now.
func (e *Executor) processLocked() {
	running, allSafe := 0, true
	for _, c := range e.calls {
		if c.status == executing {
			running++
			allSafe = allSafe && c.safe
		}
	}
	for _, c := range e.calls {
		if c.status != queued {
			continue
		}
		if e.hardStop != nil {
			e.finishLocked(c, e.synthetic(c, InterruptedText, true))
			continue
		}
		if e.notRun != "" {
			e.finishLocked(c, e.synthetic(c, e.notRun, true))
			continue
		}
		if e.errored != "" {
			e.finishLocked(c, e.synthetic(c, fmt.Sprintf("Not run: a parallel call failed first (%s).", e.errored), true))
			continue
		}
		can := running == 0 || (c.safe && allSafe && running < e.cfg.MaxConcurrency)
		if !can {
			if !c.safe || running >= e.cfg.MaxConcurrency {
				break
			}
			continue
		}
		running++
		allSafe = allSafe && c.safe
		e.startLocked(c)
	}
}

func (e *Executor) synthetic(c *tracked, text string, isErr bool) *Outcome {
	return &Outcome{ID: c.block.ID, Name: c.block.Name, Input: c.block.Input,
		Block: llm.ToolResultBlock(c.block.ID, []llm.ContentBlock{llm.TextBlock(text)}, isErr), IsError: isErr}
}

func (e *Executor) finishLocked(c *tracked, out *Outcome) {
	if c.status == completed || c.status == yielded {
		return
	}
	if !c.started.IsZero() {
		out.Duration = e.cfg.Now().Sub(c.started)
	}
	c.out = out
	c.status = completed
}

func (e *Executor) startLocked(c *tracked) {
	c.status = executing
	c.started = e.cfg.Now()
	// Every call hears a sibling's failure; the failing call itself has
	// already finished when it cancels the others.
	ctx, cancel := context.WithCancelCause(e.sibling)
	c.cancel = cancel
	e.wg.Add(1)
	go func() {
		defer e.wg.Done()
		defer cancel(nil)
		out := e.run(ctx, c)
		e.mu.Lock()
		if c.status == executing {
			if !out.IsError && e.hardStop == nil && e.sibling.Err() != nil {
				// The tool answered after a sibling's failure stopped it
				// (Bash reports what it had): say so, as an error.
				markCancelled(out, context.Cause(e.sibling))
			}
			e.finishLocked(c, out)
			if out.IsError && !out.Denied && e.cfg.CascadeTools[c.block.Name] && e.errored == "" && ctx.Err() == nil {
				e.errored = describe(c.block)
				e.sibStop(fmt.Errorf("the parallel call %s failed", e.errored))
			}
		}
		e.processLocked()
		e.mu.Unlock()
		e.signal()
	}()
}

// markCancelled turns a result given after a sibling's failure cancelled
// its call into an error result that keeps the content and says why.
func markCancelled(out *Outcome, cause error) {
	out.IsError = true
	if out.Block.Type != llm.BlockToolResult {
		out.Block = llm.ToolResultBlock(out.ID, nil, true)
	}
	out.Block.IsError = true
	out.Block.Content = append(out.Block.Content, llm.TextBlock(fmt.Sprintf("Cancelled: %v, so this call was stopped before it finished.", cause)))
}

func describe(b llm.ContentBlock) string {
	var in struct {
		Command string `json:"command"`
	}
	if json.Unmarshal(b.Input, &in) == nil && in.Command != "" {
		cmd := in.Command
		if len(cmd) > 60 {
			cmd = cmd[:60] + "…"
		}
		return b.Name + "(" + cmd + ")"
	}
	return b.Name
}

func (e *Executor) emitProgress(o Output) {
	e.mu.Lock()
	e.progress = append(e.progress, o)
	e.mu.Unlock()
	e.signal()
}

// earlier returns the blocks of the calls added before c (of the same
// response).
func (e *Executor) earlier(c *tracked) []llm.ContentBlock {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []llm.ContentBlock
	for _, t := range e.calls {
		if t == c {
			break
		}
		out = append(out, t.block)
	}
	return out
}

// run executes one call through the whole pipeline.
func (e *Executor) run(ctx context.Context, c *tracked) *Outcome {
	b := c.block
	out := &Outcome{ID: b.ID, Name: b.Name, Input: b.Input}
	if c.inputErr != nil {
		return failOutcome(out, fmt.Sprintf("InputValidationError: the input of this %s call is not complete JSON (%v), so the call did not run. The response was most likely cut off at the output token limit while writing it. Send the call again; if its input is large, split the work into several smaller calls.", b.Name, c.inputErr))
	}
	if c.tool == nil {
		if e.cfg.Deferred != nil {
			if hint, ok := e.cfg.Deferred(b.Name); ok {
				return failOutcome(out, hint)
			}
		}
		return failOutcome(out, fmt.Sprintf("Error: no tool named %q is available. Use one of the tools listed in this conversation.", b.Name))
	}
	p := Pipeline{Gate: e.cfg.Gate, Schemas: e.cfg.Schemas, Store: e.cfg.Store, Deferred: e.cfg.Deferred,
		Emit: e.emitProgress, stopped: e.hardStopped}
	call := e.cfg.NewCall(b)
	if call.Earlier == nil {
		call.Earlier = e.earlier(c)
	}
	if call.ID == "" {
		call.ID = b.ID
	}
	if call.Name == "" {
		call.Name = b.Name
	}
	if aliasOf(c.tool, call.Name) {
		call.Name = c.tool.Name() // KillShell runs as TaskStop
	}
	return p.Run(ctx, call, c.tool, b.Input)
}

func (e *Executor) hardStopped() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.hardStop != nil
}

func onlyText(c []llm.ContentBlock) bool {
	for _, b := range c {
		if b.Type != llm.BlockText {
			return false
		}
	}
	return true
}

func joinText(c []llm.ContentBlock) string {
	if len(c) == 1 {
		return c[0].Text
	}
	r := llm.ContentBlock{Content: c}
	return r.ResultText()
}

// Take returns what is ready: progress in arrival order, then results of
// completed calls in call order up to the first call not yet complete.
func (e *Executor) Take() []Output {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := e.progress
	e.progress = nil
	for _, c := range e.calls {
		if c.status == yielded {
			continue
		}
		if c.status != completed {
			break
		}
		c.status = yielded
		out = append(out, Output{Kind: OutResult, ID: c.block.ID, Name: c.out.Name, Outcome: c.out})
	}
	return out
}

// Finished returns the outcomes of the calls that completed since the
// last Finished, in call order, including those Take does not yield yet
// because a call before them is still running. The outcomes are still
// yielded by Take; Finished lets a caller record each as soon as it is in.
func (e *Executor) Finished() []*Outcome {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []*Outcome
	for _, c := range e.calls {
		if (c.status == completed || c.status == yielded) && !c.finished {
			c.finished = true
			out = append(out, c.out)
		}
	}
	return out
}

// TakeProgress returns starts and progress only, leaving results for Take.
func (e *Executor) TakeProgress() []Output {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := e.progress
	e.progress = nil
	return out
}

// Done reports whether Close was called and every call was yielded.
func (e *Executor) Done() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.closed {
		return false
	}
	for _, c := range e.calls {
		if c.status != yielded {
			return false
		}
	}
	return len(e.progress) == 0
}

// Stop hard-stops the turn's calls: running calls are cancelled with cause
// and every unanswered call (running or queued) is answered at once with an
// interrupted error. It is safe to call more than once.
func (e *Executor) Stop(cause error) {
	if cause == nil {
		cause = ErrInterrupted
	}
	e.mu.Lock()
	if e.hardStop == nil {
		e.hardStop = cause
	}
	for _, c := range e.calls {
		if c.status == queued || c.status == executing {
			e.finishLocked(c, e.synthetic(c, InterruptedText, true))
		}
	}
	e.mu.Unlock()
	e.stop(cause)
	e.signal()
}

// Drain ends the batch without stopping what runs: calls already
// running go on to their results, and calls not started yet are answered
// with reason (an error result) instead of being run.
func (e *Executor) Drain(reason string) {
	e.mu.Lock()
	if e.notRun == "" {
		e.notRun = reason
	}
	e.processLocked()
	e.mu.Unlock()
	e.signal()
}

// InterruptSoft handles a user message sent mid-turn: running calls whose
// behaviour is Cancel are stopped and answered as interrupted; Block calls
// go on. It reports whether any call was stopped.
func (e *Executor) InterruptSoft() bool {
	e.mu.Lock()
	stopped := false
	for _, c := range e.calls {
		if c.status == executing && c.behavior == Cancel {
			e.finishLocked(c, e.synthetic(c, InterruptedText, true))
			c.cancel(ErrInterrupted)
			stopped = true
		}
	}
	e.processLocked()
	e.mu.Unlock()
	e.signal()
	return stopped
}

// Running lists the calls executing now.
func (e *Executor) Running() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var ids []string
	for _, c := range e.calls {
		if c.status == executing {
			ids = append(ids, c.block.ID)
		}
	}
	return ids
}

// Wait waits until every call's goroutine has returned. Calls are expected
// to honour their context; Stop first to make them return promptly.
func (e *Executor) Wait() {
	e.wg.Wait()
	e.stop(context.Canceled)
}
