package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"reins/internal/llm"
	"reins/internal/session"
	"reins/internal/tool"
)

// Input is what the user sends to start a turn.
type Input struct {
	// Content is the prompt: text and image blocks. Empty content runs a
	// turn on the history as it is (after queued messages, if any).
	Content []llm.ContentBlock
	// UUID identifies the message (generated when empty).
	UUID string
	// Meta marks content not typed by the user (an expanded command body).
	Meta bool
	// TokenBudget, when positive, keeps the model working until it has
	// produced about this many output tokens (a "+500k" prompt).
	TokenBudget int
	// Extra is recorded with the user entry (for example the prompt source).
	Extra func(*session.Entry)
	// Model, when set, is the model for this turn only (a custom
	// command's model); the session's model applies again afterwards.
	Model string
	// AllowedTools are permission rules allowed for this turn only (a
	// custom command's allowed-tools), when the gate is a Granter.
	AllowedTools []string
	// MinEffort, when set, is the least effort level this turn's requests
	// ask for ("high" for a prompt that says "ultrathink"); a higher
	// session level stays.
	MinEffort string
}

// MaxStopHookContinuations is how many times in a row stop hooks may send
// the model on within one turn (Claude Code's cap); past it the turn ends.
const MaxStopHookContinuations = 8

// ErrMaxOutputTokens ends a turn whose answer stayed truncated after every
// recovery.
var ErrMaxOutputTokens = errors.New("the response hit the output token limit and could not be completed")

// ErrRefusal ends a turn the model declined to answer (stop_reason
// "refusal"): the answer stops there, and the request needs to change.
var ErrRefusal = errors.New("the model declined to respond to this request (stop_reason \"refusal\"); rephrase the request or start a new session")

// ErrContextWindow ends a turn whose answer was cut off because the
// conversation filled the model's context window (stop_reason
// "model_context_window_exceeded") and compaction could not make room.
var ErrContextWindow = errors.New("the answer was cut off because the conversation filled the model's context window; run /compact or start a new session")

// ErrPausedTooOften ends a turn whose responses the API kept pausing.
var ErrPausedTooOften = fmt.Errorf("the API paused the response (stop_reason \"pause_turn\") %d times in a row", MaxPauseResumes+1)

// ContinuationPrompt is the meta message sent after a truncated answer.
const ContinuationPrompt = "Your previous answer was cut off at the output limit. Continue exactly where it stopped, without repeating or summarising what you already wrote. If a lot remains, split the rest into smaller steps."

// InterruptedText and InterruptedToolUseText are the user messages an
// interrupted turn leaves in the history, so that the model knows on the
// next turn that its last answer, or the calls it made, were cut short by
// the user (Claude Code's transcripts carry the same two texts).
const (
	InterruptedText        = "[Request interrupted by user]"
	InterruptedToolUseText = "[Request interrupted by user for tool use]"
)

// IsInterruptMarker reports whether m is one of the messages an
// interrupted turn leaves (InterruptedText, InterruptedToolUseText).
func IsInterruptMarker(m *llm.Message) bool {
	if m == nil || m.Role != llm.RoleUser || len(m.Content) != 1 || m.Content[0].Type != llm.BlockText {
		return false
	}
	t := m.Content[0].Text
	return t == InterruptedText || t == InterruptedToolUseText
}

// BudgetPrompt nudges the model to keep working under a token budget.
const BudgetPrompt = "You still have output budget left for this task (%d of %d tokens used). Keep working on it; do not stop to summarise."

// Run runs one turn and returns its events. The last event is a *TurnEnd.
// Cancelling ctx interrupts the turn (running tools are stopped and every
// call is answered); stopping the iteration early does the same.
func (s *Session) Run(ctx context.Context, in Input) iter.Seq[Event] {
	return func(yield func(Event) bool) {
		ctx, cancel := context.WithCancelCause(ctx)
		defer cancel(nil)
		t := &turn{s: s, yield: yield, cancel: cancel, start: s.cfg.Now(), budget: in.TokenBudget, minEffort: in.MinEffort}
		s.mu.Lock()
		s.running = true
		s.mu.Unlock()
		defer func() {
			s.mu.Lock()
			s.running = false
			s.exec = nil
			s.mu.Unlock()
		}()
		defer t.undoScopes()
		t.scope(in.Model, in.AllowedTools)
		t.run(ctx, in)
	}
}

type turn struct {
	s      *Session
	yield  func(Event) bool
	cancel context.CancelCauseFunc
	gone   bool // the consumer stopped iterating

	start     time.Time
	responses int
	usage     llm.Usage
	cost      float64
	apiTime   time.Duration
	denials   []Denial

	outputCap     int
	escalated     bool
	continuations int
	reactiveTried bool
	overloads     int
	pauses        int // responses paused by the API in a row (pause_turn)
	stopHookOn    bool
	stopContinues int // times stop hooks sent the model on in this turn

	budget       int
	budgetRounds int
	minEffort    string // the turn's least effort level (Input.MinEffort)
	lastOutputs  [2]int

	lastStop      string
	lastText      string
	early         map[string]string // tool_use id → uuid its result was recorded under as it came in
	assistantUUID string            // of the last assistant message recorded
	streamUUID    string            // of the assistant message being streamed; it is recorded under it
	sentCtx       *llm.Message      // the UserContext message of the request being sent

	undos []func() // undo the turn's scoped model and allowed tools
}

func (t *turn) emit(ev Event) {
	if t.gone {
		return
	}
	o := ev.origin()
	if o.ParentToolUseID == "" && o.AgentID == "" {
		o.ParentToolUseID, o.AgentID = t.s.cfg.ParentToolUseID, t.s.cfg.AgentID
	}
	if !t.yield(ev) {
		t.gone = true
		t.cancel(tool.ErrInterrupted)
	}
}

// stopFailure tells the stop hooks that can hear it (StopFailure) that
// the turn ends on err.
func (t *turn) stopFailure(ctx context.Context, err error, last *llm.Message) {
	if h, ok := t.s.cfg.StopHooks.(StopFailureHooks); ok && ctx.Err() == nil {
		h.StopFailure(ctx, err, last)
	}
}

func (t *turn) end(reason Reason, err error, hookReason string) {
	s := t.s
	s.mu.Lock()
	recErr := s.recErr
	tell := recErr != nil && !s.recTold
	s.recTold = s.recTold || tell
	s.mu.Unlock()
	if tell {
		t.emit(&Notice{Level: "warning", Text: fmt.Sprintf("This conversation could not be recorded, so it cannot be resumed: %v", recErr)})
	}
	switch reason {
	case ReasonAborted:
		t.markInterrupted(InterruptedText)
	case ReasonAbortedTools:
		t.markInterrupted(InterruptedToolUseText)
	}
	total := s.Totals()
	t.emit(&TurnEnd{Reason: reason, Err: err, Result: t.lastText, StopReason: t.lastStop,
		NumTurns: t.responses, Duration: s.cfg.Now().Sub(t.start), APITime: t.apiTime,
		Usage: t.usage, Cost: t.cost, Total: total, Denials: t.denials, HookReason: hookReason})
}

func (t *turn) run(ctx context.Context, in Input) {
	s := t.s
	if len(in.Content) > 0 {
		id := in.UUID
		if id == "" {
			id = uuid.NewString()
		}
		n := node{uuid: id, msg: &llm.Message{Role: llm.RoleUser, Content: in.Content}, meta: in.Meta}
		s.append(n, in.Extra)
		t.emit(&UserMessage{UUID: id, Message: n.msg, Meta: in.Meta})
		if !in.Meta {
			text := n.msg.Text()
			s.record(&session.Entry{Type: session.TypeLastPrompt, LastPrompt: text, LeafUUID: id})
		}
	}
	t.addQueued()
	for {
		if ctx.Err() != nil {
			t.end(ReasonAborted, context.Cause(ctx), "")
			return
		}
		var ts ToolSet
		if s.cfg.Tools != nil {
			ts = s.cfg.Tools(ctx)
		}
		if s.cfg.Compactor != nil {
			if err := s.cfg.Compactor.Prepare(ctx, s, t.emit); err != nil {
				if errors.Is(err, ErrBlockingLimit) {
					t.end(ReasonBlockingLimit, err, "")
					return
				}
				t.emit(&Notice{Level: "warning", Text: "Compaction failed: " + err.Error()})
			}
		}
		if ts.Reminders != nil {
			for _, r := range ts.Reminders(ctx, s.Messages()) {
				t.addMeta(r)
			}
		}
		msg, ex, err := t.sample(ctx, ts)
		if retry, done := t.recover(ctx, msg, ex, err); done {
			return
		} else if retry {
			continue
		}
		uses := msg.ToolUses()
		if len(uses) == 0 {
			if t.afterAnswer(ctx, msg) {
				return
			}
			continue
		}
		outs := t.collect(ctx, ex)
		interrupted, stop, stopReason := t.addResults(msg, outs)
		if !interrupted && !stop && ctx.Err() == nil {
			stop, stopReason = t.postToolBatch(ctx, msg, outs)
		}
		t.addQueued()
		switch {
		case ctx.Err() != nil || interrupted:
			t.end(ReasonAbortedTools, context.Cause(ctx), "")
			return
		case stop:
			t.end(ReasonStopHook, nil, stopReason)
			return
		case s.cfg.MaxTurns > 0 && t.responses >= s.cfg.MaxTurns:
			t.end(ReasonMaxTurns, fmt.Errorf("reached the maximum number of turns (%d)", s.cfg.MaxTurns), "")
			return
		case s.cfg.MaxBudgetUSD > 0 && s.Totals().Cost >= s.cfg.MaxBudgetUSD:
			t.end(ReasonBudget, fmt.Errorf("reached the maximum budget ($%.2f)", s.cfg.MaxBudgetUSD), "")
			return
		}
	}
}

// recover handles what a sample returned. It reports retry when the loop
// should sample again and done when the turn has ended.
func (t *turn) recover(ctx context.Context, msg *llm.Message, ex *tool.Executor, err error) (retry, done bool) {
	s := t.s
	if err != nil {
		// Whatever was completed is kept, and every call is answered.
		hadTools := msg != nil && len(msg.ToolUses()) > 0
		if hadTools {
			t.addAssistant(msg)
			t.addResults(msg, t.collect(ctx, ex))
		} else if msg != nil && len(msg.Content) > 0 && ctx.Err() != nil {
			t.addAssistant(msg)
		}
		switch {
		case ctx.Err() != nil:
			if hadTools {
				t.end(ReasonAbortedTools, context.Cause(ctx), "")
			} else {
				t.end(ReasonAborted, context.Cause(ctx), "")
			}
			return false, true
		case !hadTools && llm.IsPromptTooLong(err) && !t.reactiveTried && s.cfg.Compactor != nil:
			t.reactiveTried = true
			ok, cerr := s.cfg.Compactor.Reactive(ctx, s, t.emit)
			if ok {
				return true, false
			}
			switch {
			case cerr != nil && llm.IsPromptTooLong(cerr):
				err = fmt.Errorf("%w (compaction could not make room: the conversation is too long even to summarise)", err)
			case cerr != nil:
				err = fmt.Errorf("%w (compaction failed: %v)", err, cerr)
			}
			err = t.withdrawPrompt(err)
		case llm.IsPromptTooLong(err) && t.reactiveTried:
			// Compacted once for this turn already and still refused: say
			// what the user can do rather than end on the bare API error.
			err = t.withdrawPrompt(fmt.Errorf("%w (still too long after the conversation was compacted)", err))
		case llm.IsPromptTooLong(err):
			err = t.withdrawPrompt(err)
		case !hadTools && llm.IsOverloaded(err) && s.cfg.FallbackModel != "" && t.switchToFallback():
			t.emit(&StreamReset{Reason: "fallback"})
			t.emit(&Notice{Level: "warning", Text: fmt.Sprintf("%s is overloaded; switched to %s.", s.cfg.Models.Resolve(s.cfg.Model), s.Model())})
			return true, false
		}
		t.stopFailure(ctx, err, msg)
		t.end(ReasonError, err, "")
		return false, true
	}
	switch msg.StopReason {
	case "refusal":
		// The model stopped on purpose: nothing more comes from asking
		// again. Calls it made before it stopped have started; they are
		// answered as they finish, and the turn ends there.
		t.addAssistant(msg)
		if len(msg.ToolUses()) > 0 {
			t.addResults(msg, t.collect(ctx, ex))
		}
		t.end(ReasonError, ErrRefusal, "")
		return false, true
	case "pause_turn":
		// The API paused a long turn (server tools at work); sending the
		// response back as it is lets the model go on with it.
		if len(msg.ToolUses()) == 0 {
			t.addAssistant(msg)
			if t.pauses >= MaxPauseResumes {
				t.end(ReasonError, ErrPausedTooOften, "")
				return false, true
			}
			t.pauses++
			return true, false
		}
	case "model_context_window_exceeded":
		// The answer was cut off because the context is full: make room,
		// then ask for the rest, as after an output cap.
		if len(msg.ToolUses()) == 0 {
			t.addAssistant(msg)
			if s.cfg.Compactor != nil && !t.reactiveTried {
				t.reactiveTried = true
				ok, cerr := s.cfg.Compactor.Reactive(ctx, s, t.emit)
				if ok {
					t.addMeta(ContinuationPrompt)
					return true, false
				}
				if cerr != nil {
					t.end(ReasonError, fmt.Errorf("%w (compaction failed: %v)", ErrContextWindow, cerr), "")
					return false, true
				}
			}
			t.end(ReasonError, ErrContextWindow, "")
			return false, true
		}
	}
	if msg.StopReason != "pause_turn" {
		t.pauses = 0
	}
	if msg.StopReason == "max_tokens" && len(msg.ToolUses()) > 0 {
		// A call cut off at the output cap is answered with an error and
		// asked for again: give the next responses room for it, as a cut
		// answer gets.
		t.escalate()
	}
	if msg.StopReason == "max_tokens" && len(msg.ToolUses()) == 0 {
		if t.escalate() {
			t.emit(&StreamReset{Reason: "max_tokens"})
			return true, false
		}
		t.addAssistant(msg)
		if t.continuations < MaxContinuations {
			t.continuations++
			t.addMeta(ContinuationPrompt)
			return true, false
		}
		t.stopFailure(ctx, ErrMaxOutputTokens, msg)
		t.end(ReasonError, ErrMaxOutputTokens, "")
		return false, true
	}
	t.addAssistant(msg)
	return false, false
}

// withdrawPrompt takes the prompt the API refused as too long out of the
// conversation, with the reminders and hook context that followed it, once
// nothing could make it fit: left in, every later request would carry it
// and be refused as well, and the session could not go on. The prompt
// stays in the transcript; the notice recorded after it continues the
// chain from what came before the prompt, so a resumed session leaves it
// out too. It returns err with what the user can do; a turn with no
// prompt of its own left (the refusal came after tool calls) keeps its
// history and gets the same advice.
func (t *turn) withdrawPrompt(err error) error {
	s := t.s
	items := s.History()
	p := pendingPrompt(items)
	if p < 0 {
		return fmt.Errorf("%w; run /compact with instructions to keep less, or /clear to start over", err)
	}
	err = fmt.Errorf("%w; the prompt was left out of the conversation so that the session can go on: shorten it (or save long content to a file and ask for the file to be read), run /compact with instructions to keep less, or /clear to start over", err)
	s.SetHistory(items[:p])
	s.record(&session.Entry{Type: session.TypeSystem, Subtype: session.SubtypeNotice, UUID: uuid.NewString(),
		Level: "error", Content: err.Error()})
	return err
}

// pendingPrompt returns the index of the newest user prompt no response
// has followed yet, or -1; the meta messages after it (reminders, hook
// context) belong to it.
func pendingPrompt(items []HistoryItem) int {
	for i := len(items) - 1; i >= 0; i-- {
		m := items[i].Message
		if m.Role == llm.RoleAssistant {
			return -1
		}
		if items[i].Meta || items[i].Summary || slices.ContainsFunc(m.Content, func(b llm.ContentBlock) bool { return b.Type == llm.BlockToolResult }) {
			continue
		}
		return i
	}
	return -1
}

// postToolBatch runs PostToolBatch hooks on a batch whose calls all have
// their results: their context goes to the model, and they may stop the
// turn before the next request.
func (t *turn) postToolBatch(ctx context.Context, msg *llm.Message, outs []*tool.Outcome) (stop bool, reason string) {
	h, ok := t.s.cfg.StopHooks.(BatchHooks)
	if !ok {
		return false, ""
	}
	byID := map[string]*tool.Outcome{}
	for _, o := range outs {
		byID[o.ID] = o
	}
	var calls []*tool.Outcome
	for _, u := range msg.ToolUses() {
		if o := byID[u.ID]; o != nil {
			calls = append(calls, o)
		}
	}
	d := h.PostToolBatch(ctx, calls)
	for _, m := range d.Messages {
		t.emit(&Notice{Level: "info", Text: m})
	}
	for _, c := range d.Context {
		t.addMeta("<system-reminder>\nPostToolBatch hook context:\n" + strings.TrimSpace(c) + "\n</system-reminder>")
	}
	return d.Stop, d.StopReason
}

// afterAnswer runs when a response has no tool calls: stop hooks, then the
// token budget. It reports whether the turn ended.
func (t *turn) afterAnswer(ctx context.Context, msg *llm.Message) bool {
	s := t.s
	if s.cfg.StopHooks != nil {
		d := s.cfg.StopHooks.Stop(ctx, StopInput{Active: t.stopHookOn, LastAssistant: msg})
		for _, m := range d.Messages {
			t.emit(&Notice{Level: "info", Text: m})
		}
		if d.Prevent {
			t.end(ReasonStopHook, nil, d.StopReason)
			return true
		}
		if d.Block && t.stopContinues >= MaxStopHookContinuations {
			t.emit(&Notice{Level: "warning", Text: fmt.Sprintf("Stop hooks sent the model on %d times in a row; the turn ends here (feedback not followed: %s)", MaxStopHookContinuations, d.Reason)})
		} else if d.Block {
			t.stopHookOn = true
			t.stopContinues++
			t.addMeta("Stop hook feedback:\n" + d.Reason)
			return false
		}
	}
	if t.budget > 0 && t.continueForBudget() {
		t.addMeta(fmt.Sprintf(BudgetPrompt, t.usage.OutputTokens, t.budget))
		return false
	}
	t.end(ReasonCompleted, nil, "")
	return true
}

// continueForBudget applies the token-budget rule: go on below 90% of the
// budget, unless three continuations in a row each added under 500 tokens.
func (t *turn) continueForBudget() bool {
	out := t.usage.OutputTokens
	if out >= t.budget*9/10 {
		return false
	}
	delta := out - t.lastOutputs[1]
	if t.budgetRounds >= 3 && delta < 500 && t.lastOutputs[1]-t.lastOutputs[0] < 500 {
		return false
	}
	t.lastOutputs = [2]int{t.lastOutputs[1], out}
	t.budgetRounds++
	return true
}

func (t *turn) switchToFallback() bool {
	s := t.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fallback {
		return false
	}
	s.fallback = true
	s.model = s.cfg.Models.Resolve(s.cfg.FallbackModel)
	return true
}

func (t *turn) addAssistant(msg *llm.Message) {
	if msg == nil || len(msg.Content) == 0 {
		return
	}
	id := t.streamUUID
	if id == "" {
		id = uuid.NewString()
	}
	t.streamUUID = ""
	n := node{uuid: id, msg: msg}
	t.s.append(n, nil)
	t.assistantUUID = n.uuid
	t.lastStop = msg.StopReason
	if txt := msg.Text(); txt != "" {
		t.lastText = txt
	}
	t.emit(&AssistantMessage{UUID: n.uuid, Message: msg})
}

func (t *turn) addMeta(text string) {
	n := node{uuid: uuid.NewString(), msg: llm.NewUserText(text), meta: true}
	t.s.append(n, nil)
	t.emit(&UserMessage{UUID: n.uuid, Message: n.msg, Meta: true})
}

// markInterrupted records that the user stopped the turn: a plain user
// message, kept in the history the next request sends and in the
// transcript. Front ends show the interruption from the TurnEnd, so no
// UserMessage event goes with it.
func (t *turn) markInterrupted(text string) {
	t.s.append(node{uuid: uuid.NewString(), msg: llm.NewUserText(text)}, nil)
}

// addQueued adds messages the user sent while the turn ran.
func (t *turn) addQueued() {
	for _, q := range t.s.takeQueue() {
		n := node{uuid: q.uuid, msg: &llm.Message{Role: llm.RoleUser, Content: q.content}}
		t.s.append(n, nil)
		t.emit(&UserMessage{UUID: n.uuid, Message: n.msg})
	}
}

// collect drains the executor until every call is answered, emitting
// progress and results. A cancelled ctx stops the remaining calls.
func (t *turn) collect(ctx context.Context, ex *tool.Executor) []*tool.Outcome {
	if ex == nil {
		return nil
	}
	ex.Close()
	var outs []*tool.Outcome
	for {
		for _, o := range ex.Finished() {
			t.recordEarly(o)
		}
		outs = append(outs, t.forward(ex.Take())...)
		if ex.Done() {
			break
		}
		select {
		case <-ex.Ready():
		case <-ctx.Done():
			ex.Stop(context.Cause(ctx))
		}
	}
	t.waitExec(ex)
	return outs
}

// waitExec waits for the executor's goroutines, bounded so a tool that
// ignores cancellation cannot hang the session.
func (t *turn) waitExec(ex *tool.Executor) {
	done := make(chan struct{})
	go func() {
		ex.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		ex.Stop(errors.New("tool did not stop"))
		t.s.cfg.Logger.Warn("a tool call did not return 10s after being stopped")
	}
	t.s.mu.Lock()
	if t.s.exec == ex {
		t.s.exec = nil
	}
	t.s.mu.Unlock()
}

// forward turns executor outputs into events and returns the outcomes.
func (t *turn) forward(outs []tool.Output) []*tool.Outcome {
	var res []*tool.Outcome
	for _, o := range outs {
		switch o.Kind {
		case tool.OutStarted:
			t.emit(&ToolStart{ID: o.ID, Name: o.Name, Input: o.Input})
		case tool.OutProgress:
			if ev, ok := o.Progress.Data.(Event); ok {
				// A sub-agent's event, passed up as it is.
				t.emit(ev)
				continue
			}
			t.emit(&ToolProgress{ID: o.ID, Name: o.Name, Progress: o.Progress})
		case tool.OutResult:
			res = append(res, o.Outcome)
			if o.Outcome.Denied {
				t.denials = append(t.denials, Denial{ToolName: o.Name, ToolUseID: o.ID, ToolInput: o.Outcome.Input})
				if by := o.Outcome.DeniedBy; by != "" {
					t.emit(&PermissionDenied{ToolName: o.Name, ToolUseID: o.ID, DeniedBy: by, Reason: o.Outcome.DenyReason})
				}
			}
		}
	}
	return res
}

// recordEarly records a call's result in the transcript as soon as it is
// in, as it came, so that a process killed while other calls of the batch
// still run keeps it: resumed, the session knows the call finished and
// what it returned. addResults puts it in the history under the same uuid
// once the batch is complete, and records the budget's replacement of its
// text if the batch needs one (session.TypeReplacement).
func (t *turn) recordEarly(o *tool.Outcome) {
	s := t.s
	if s.cfg.Recorder == nil || o == nil || o.Block.Type != llm.BlockToolResult {
		return
	}
	if t.early == nil {
		t.early = map[string]string{}
	}
	id := uuid.NewString()
	src := t.assistantUUID
	s.record(&session.Entry{Type: session.TypeUser, UUID: id,
		Message:       &llm.Message{Role: llm.RoleUser, Content: []llm.ContentBlock{o.Block}},
		ToolUseResult: o.Data, SourceToolAssistantUUID: src})
	t.early[o.ID] = id
}

// addResults records the answers to msg's calls, in call order, each as
// its own user message (the API sees them as one), applying the
// per-message budget. Results recorded as they came in (recordEarly) join
// the history under the uuids they were recorded with. It reports whether
// a result asked to interrupt or stop the turn.
func (t *turn) addResults(msg *llm.Message, outs []*tool.Outcome) (interrupted, stop bool, stopReason string) {
	s := t.s
	early := t.early
	t.early = nil
	byID := map[string]*tool.Outcome{}
	for _, o := range outs {
		byID[o.ID] = o
	}
	// Every tool_use gets exactly one result, whatever the executor did.
	var blocks []llm.ContentBlock
	var ordered []*tool.Outcome
	for _, u := range msg.ToolUses() {
		o := byID[u.ID]
		if o == nil {
			o = &tool.Outcome{ID: u.ID, Name: u.Name, Input: u.Input, IsError: true,
				Block: llm.ToolResultBlock(u.ID, []llm.ContentBlock{llm.TextBlock(tool.InterruptedText)}, true)}
		}
		ordered = append(ordered, o)
		blocks = append(blocks, o.Block)
	}
	budget := tool.Budget{Store: s.cfg.Store}
	applied, decided := budget.Apply(&llm.Message{Role: llm.RoleUser, Content: blocks})
	var replaced []session.Replacement
	for _, r := range decided {
		if early[r.ToolUseID] != "" {
			replaced = append(replaced, session.Replacement{ToolUseID: r.ToolUseID, Text: r.Text})
		}
	}
	if len(replaced) > 0 {
		// Recorded as they came, before the budget: a resume applies the
		// replacements, as this history has them.
		s.record(&session.Entry{Type: session.TypeReplacement, Replacements: replaced})
	}
	var extra []llm.ContentBlock
	for i, o := range ordered {
		blk := applied.Content[i]
		m := &llm.Message{Role: llm.RoleUser, Content: []llm.ContentBlock{blk}}
		n := node{uuid: uuid.NewString(), msg: m}
		if id := early[o.ID]; id != "" {
			n.uuid = id
			s.history = append(s.history, n) // recorded already
		} else {
			src := t.assistantUUID
			s.append(n, func(e *session.Entry) {
				e.ToolUseResult = o.Data
				e.SourceToolAssistantUUID = src
			})
		}
		t.emit(&ToolResult{UUID: n.uuid, ID: o.ID, Name: o.Name, Input: o.Input, Block: blk,
			IsError: o.IsError, Data: o.Data, Denied: o.Denied, Duration: o.Duration, Permission: o.Permission})
		interrupted = interrupted || o.Interrupt
		if sc, ok := o.Data.(TurnScoped); ok && !o.IsError {
			t.scope(sc.TurnScope())
		}
		if o.StopTurn {
			stop = true
			if stopReason == "" {
				stopReason = o.StopReason
			}
		}
		extra = append(extra, o.Messages...)
	}
	if len(extra) > 0 {
		n := node{uuid: uuid.NewString(), msg: &llm.Message{Role: llm.RoleUser, Content: extra}, meta: true}
		s.append(n, nil)
		t.emit(&UserMessage{UUID: n.uuid, Message: n.msg, Meta: true})
	}
	return interrupted, stop, stopReason
}

// escalate raises the output cap for the rest of the turn from the
// default to the escalated cap, once, unless the user set a cap. It
// reports whether it did.
func (t *turn) escalate() bool {
	if t.escalated || t.s.cfg.MaxOutputTokens != 0 || t.currentCap() >= t.escalatedCap() {
		return false
	}
	t.escalated = true
	t.outputCap = t.escalatedCap()
	return true
}

func (t *turn) currentCap() int {
	s := t.s
	info := s.cfg.Models.Info(s.Model())
	c := t.outputCap
	if s.cfg.MaxOutputTokens > 0 {
		c = s.cfg.MaxOutputTokens
	}
	if c == 0 {
		c = DefaultOutputCap
	}
	if info.MaxOutput > 0 && c > info.MaxOutput {
		c = info.MaxOutput
	}
	return c
}

func (t *turn) escalatedCap() int {
	info := t.s.cfg.Models.Info(t.s.Model())
	if info.MaxOutput > 0 && info.MaxOutput < EscalatedOutputCap {
		return info.MaxOutput
	}
	return EscalatedOutputCap
}

// metaMessages returns the messages of the history that reins added
// (meta entries: reminders, notifications, summaries), nil when there
// are none. User-role messages go to the model as they are, so the set
// holds the request's own messages.
func (s *Session) metaMessages() map[*llm.Message]bool {
	var out map[*llm.Message]bool
	for _, n := range s.history {
		if n.meta {
			if out == nil {
				out = map[*llm.Message]bool{}
			}
			out[n.msg] = true
		}
	}
	return out
}

// buildRequest assembles the request for the current history.
func (t *turn) buildRequest(ts ToolSet) *llm.Request {
	s := t.s
	model := s.Model()
	s.mu.Lock()
	thinkBudget := s.cfg.MaxThinkingTokens
	effort := s.cfg.Effort
	display := s.cfg.ThinkingDisplay
	ctxMsg := s.ctxMsg
	system := s.cfg.System
	s.mu.Unlock()
	req := &llm.Request{
		Model:    model,
		System:   system,
		Betas:    s.cfg.Betas,
		CacheTTL: s.cfg.CacheTTL,
		NoCache:  s.cfg.NoCache,
		Extra:    s.cfg.Extra,
	}
	req.Tools = ts.Specs
	if req.Tools == nil {
		for _, tl := range ts.Tools {
			req.Tools = append(req.Tools, llm.ToolSpec{Name: tl.Name(), Description: tl.Description(), InputSchema: tl.InputSchema()})
		}
	}
	t.sentCtx = ctxMsg
	msgs := make([]*llm.Message, 0, len(s.history)+1)
	if ctxMsg != nil {
		msgs = append(msgs, ctxMsg)
	}
	for _, n := range s.history {
		if m := s.forModel(n.msg, model); m != nil {
			msgs = append(msgs, m)
		}
	}
	req.Messages = msgs
	// The thinking field takes the form the model accepts: newer models
	// refuse budgets and "disabled", older ones refuse "adaptive".
	req.Thinking, req.MaxTokens = s.cfg.Models.Info(model).ThinkingFor(s.cfg.Thinking, thinkBudget, t.currentCap())
	if display != "" && req.Thinking != nil && req.Thinking.Type != "disabled" {
		th := *req.Thinking
		th.Display = display
		req.Thinking = &th
	}
	info := s.cfg.Models.Info(model)
	info.ApplyEffort(req, llm.AtLeastEffort(effort, t.minEffort, info))
	return req
}

// forModel returns msg as it is sent to model. A thinking block's
// signature is bound to the model that wrote it, and another model
// refuses the request that carries it ("Invalid signature in thinking
// block"): an assistant message another model wrote in this session
// (before a fallback, /model or set_model switch) is sent without its
// thinking blocks. It returns nil when nothing is left.
func (s *Session) forModel(msg *llm.Message, model string) *llm.Message {
	if msg.Role != llm.RoleAssistant {
		return msg
	}
	s.mu.Lock()
	wrote, known := s.wroteBy[msg]
	s.mu.Unlock()
	// The model asked, not the id the response names: a proxy may name
	// the same model otherwise. A message of unknown origin (resumed) is
	// sent as it is.
	if !known || wrote == model {
		return msg
	}
	thinks := false
	for _, b := range msg.Content {
		thinks = thinks || b.Type == llm.BlockThinking || b.Type == llm.BlockRedactedThinking
	}
	if !thinks {
		return msg
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if m, ok := s.unthought[msg]; ok {
		return m
	}
	cp := &llm.Message{Role: msg.Role, ID: msg.ID, Model: msg.Model, RequestID: msg.RequestID, StopReason: msg.StopReason,
		StopSequence: msg.StopSequence, Usage: msg.Usage}
	for _, b := range msg.Content {
		if b.Type != llm.BlockThinking && b.Type != llm.BlockRedactedThinking {
			cp.Content = append(cp.Content, b)
		}
	}
	if len(cp.Content) == 0 {
		cp = nil
	}
	if s.unthought == nil {
		s.unthought = map[*llm.Message]*llm.Message{}
	}
	s.unthought[msg] = cp
	return cp
}

// noteModel records which model a response was asked of (see forModel).
func (s *Session) noteModel(msg *llm.Message, model string) {
	if msg == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.wroteBy == nil {
		s.wroteBy = map[*llm.Message]string{}
	}
	s.wroteBy[msg] = model
}

// ForModel returns msgs as a request to model sends them: assistant
// messages another model wrote lose their thinking blocks, whose
// signatures only the model that wrote them accepts. Side requests that
// reuse the history (a compaction summary) send it through this.
func (s *Session) ForModel(msgs []*llm.Message, model string) []*llm.Message {
	out := make([]*llm.Message, 0, len(msgs))
	for _, m := range msgs {
		if m = s.forModel(m, model); m != nil {
			out = append(out, m)
		}
	}
	return out
}

type streamItem struct {
	ev  llm.Event
	err error
}

// sample sends one request and streams the response, starting tool calls
// as their blocks complete. It returns the assistant message (the blocks
// completed, even on error) and the executor holding the calls.
func (t *turn) sample(ctx context.Context, ts ToolSet) (*llm.Message, *tool.Executor, error) {
	s := t.s
	const maxStreamRetries = 10
	for attempt := 0; ; attempt++ {
		req := t.buildRequest(ts)
		req.OnRetry = func(ri llm.RetryInfo) {
			// Called from the provider while this goroutine waits in Stream.
			t.emit(&Retry{Attempt: ri.Attempt, Max: ri.Max, Delay: ri.Delay, Err: ri.Err})
		}
		t.emit(&RequestStart{Model: req.Model, Attempt: attempt})
		sentAt := s.cfg.Now()
		convo := req.Messages
		if t.sentCtx != nil && len(convo) > 0 && convo[0] == t.sentCtx {
			convo = convo[1:]
		}
		effort := s.Effort()
		notUser := s.metaMessages()
		ex := tool.NewExecutor(ctx, tool.ExecConfig{
			Lookup:         lookup(ts.Tools),
			Gate:           s.cfg.Gate,
			Schemas:        &s.schemas,
			Store:          s.cfg.Store,
			MaxConcurrency: s.cfg.MaxToolConcurrency,
			Deferred:       ts.Deferred,
			NewCall: func(b llm.ContentBlock) *tool.Call {
				return &tool.Call{ID: b.ID, Name: b.Name, SessionID: s.cfg.SessionID, AgentID: s.cfg.AgentID,
					Cwd: s.cfg.Cwd, Model: req.Model, Effort: effort, ParentToolUseID: s.cfg.ParentToolUseID, Transcript: convo, NotUser: notUser}
			},
		})
		s.mu.Lock()
		s.exec = ex
		s.mu.Unlock()
		if s.cfg.FallbackModel != "" && !s.onFallback() {
			req.MaxOverloadRetries = max(s.cfg.FallbackAfter-1, 1)
		}
		s.warm.Do(func() { go s.schemas.Warm(firstUsed(ts.Tools)...) })
		msg, started, err := t.stream(ctx, req, ex)
		s.noteModel(msg, req.Model)
		elapsed := s.cfg.Now().Sub(sentAt)
		t.apiTime += elapsed
		t.logResponse(req.Model, msg, elapsed, err)
		if msg != nil && msg.Usage != nil {
			t.account(req.Model, *msg.Usage, elapsed)
		}
		if err == nil {
			t.overloads = 0
			t.responses++
			return msg, ex, nil
		}
		if llm.IsOverloaded(err) {
			t.overloads++
			if !started {
				// The provider already retried it as often as allowed.
				t.overloads = max(t.overloads, s.cfg.FallbackAfter)
			}
		}
		// A stream that broke after it started, before any tool started,
		// is sent again; one that broke after a tool started is not
		// replayed. Failures before the stream started were already
		// retried by the provider.
		if started && ctx.Err() == nil && ex.Len() == 0 && llm.IsRetryable(err) && attempt < maxStreamRetries &&
			!(llm.IsOverloaded(err) && s.cfg.FallbackModel != "" && t.overloads >= s.cfg.FallbackAfter) {
			delay := llm.BackoffFrom(s.cfg.RetryBaseDelay, attempt+1, llm.RetryAfter(err))
			t.emit(&StreamReset{Reason: "retry"})
			t.emit(&Retry{Attempt: attempt + 1, Max: maxStreamRetries, Delay: delay, Err: err})
			t.waitExec(ex)
			select {
			case <-time.After(delay):
				continue
			case <-ctx.Done():
				return nil, nil, context.Cause(ctx)
			}
		}
		if ex.Len() > 0 {
			if ctx.Err() != nil {
				ex.Stop(context.Cause(ctx))
			} else {
				// Calls that started run to their end: stopping one
				// half-way (a command, a write) for a network failure
				// would leave its work half done. The rest are not run.
				ex.Drain(fmt.Sprintf("Not run: the response stream failed before this call could start (%v).", err))
			}
		}
		if msg != nil {
			t.responses++
		}
		return msg, ex, err
	}
}

// logResponse writes one response's outcome to the debug log: stop
// reason, usage and time, or the error.
func (t *turn) logResponse(model string, msg *llm.Message, elapsed time.Duration, err error) {
	log := t.s.cfg.Logger
	if err != nil {
		log.Debug("model response failed", "model", model, "elapsed", elapsed, "partial", msg != nil, "err", err)
		return
	}
	var u llm.Usage
	if msg.Usage != nil {
		u = *msg.Usage
	}
	log.Debug("model response", "model", model, "id", msg.ID, "stop_reason", msg.StopReason, "blocks", len(msg.Content),
		"input_tokens", u.InputTokens, "cache_read", u.CacheReadInputTokens, "cache_write", u.CacheCreationInputTokens,
		"output_tokens", u.OutputTokens, "elapsed", elapsed)
}

func (t *turn) account(model string, u llm.Usage, apiTime time.Duration) {
	cost, total := t.s.addUsage(model, u, apiTime)
	t.usage.Add(u)
	t.cost += cost
	t.emit(&Usage{Model: model, Response: u, Cost: cost, Total: total})
}

// stream reads one response. started reports whether the response began
// (the provider returned a stream).
func (t *turn) stream(ctx context.Context, req *llm.Request, ex *tool.Executor) (msg *llm.Message, started bool, err error) {
	// The message's blocks are reported under the uuid it is recorded
	// with, so a client can name it later (--resume-session-at).
	t.streamUUID = uuid.NewString()
	st, err := t.s.cfg.Provider.Stream(ctx, req)
	if err != nil {
		return nil, false, err
	}
	defer st.Close()
	items := make(chan streamItem)
	readerDone := make(chan struct{})
	go func() {
		defer close(readerDone)
		for {
			ev, err := st.Next()
			select {
			case items <- streamItem{ev, err}:
			case <-ctx.Done():
				return
			}
			if err != nil {
				return
			}
		}
	}()
	defer func() {
		st.Close()
		<-readerDone
	}()
	var acc llm.Accumulator
	for {
		select {
		case it := <-items:
			if it.err == io.EOF {
				if !acc.Started() {
					return nil, true, &llm.ConnError{Op: "read stream", Err: io.ErrUnexpectedEOF}
				}
				return acc.Message(), true, nil
			}
			if it.err != nil {
				m := acc.Message()
				if len(m.Content) == 0 {
					m = nil
				}
				return m, true, it.err
			}
			t.handle(&acc, it.ev, ex)
		case <-ex.Ready():
			t.forwardLive(ex)
		case <-ctx.Done():
			ex.Stop(context.Cause(ctx))
			m := acc.Message()
			if len(m.Content) == 0 {
				m = nil
			}
			return m, true, context.Cause(ctx)
		}
	}
}

// forwardLive passes on what the executor has while the stream is still
// running. Results are held back until the assistant message is recorded;
// only starts and progress go out now.
func (t *turn) forwardLive(ex *tool.Executor) {
	t.forward(ex.TakeProgress())
}

func (t *turn) handle(acc *llm.Accumulator, ev llm.Event, ex *tool.Executor) {
	t.emit(&StreamEvent{Event: ev})
	if ev.Type == llm.EventContentBlockDelta {
		switch ev.DeltaType {
		case llm.DeltaText:
			t.emit(&TextDelta{Index: ev.Index, Text: ev.Delta})
		case llm.DeltaThinking:
			t.emit(&ThinkingDelta{Index: ev.Index, Text: ev.Delta})
		}
	}
	blk, done, err := acc.Add(ev)
	if !done {
		if err != nil {
			t.s.cfg.Logger.Warn("stream event out of order", "err", err)
		}
		return
	}
	t.emit(&AssistantBlock{UUID: t.streamUUID, Message: acc.Message(), Block: blk})
	if blk.Type == llm.BlockToolUse {
		ex.Add(blk, err)
	}
}

func lookup(tools []tool.Tool) tool.Lookup {
	byName := tool.NewLookup(tools)
	return func(name string) (tool.Tool, bool) {
		tl, ok := byName(name)
		if !ok {
			// Rules and transcripts written for the older name of the
			// Agent tool still reach it.
			if strings.EqualFold(name, "Task") {
				tl, ok = byName("Agent")
			}
		}
		return tl, ok
	}
}

// ErrBlockingLimit is returned by a Compactor when the context is full and
// nothing can make room.
var ErrBlockingLimit = errors.New("the conversation is too long for the model's context window; run /compact or start a new session")

// firstUsed returns the input schemas of the tools a model most often
// calls first (readers and the shell), to compile while the first request
// is out. The rest compile on first use.
func firstUsed(tools []tool.Tool) []json.RawMessage {
	var out []json.RawMessage
	for _, t := range tools {
		switch t.Name() {
		case "Read", "Grep", "Glob", "Bash", "Edit", "Write":
			out = append(out, t.InputSchema())
		}
	}
	return out
}
