package sdk

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"reins/internal/engine"
	"reins/internal/llm"
	"reins/internal/streamjson"
)

// turn runs one queued user message and writes its lines, ending with the
// result line. It returns an error only when output can no longer be
// written.
func (s *Server) turn(ctx context.Context, it item) error {
	w := s.cfg.Out
	if it.err != nil {
		w.Line(s.errorResult(it.err))
		return w.Err()
	}
	if it.in.Hold {
		s.held = append(s.held, it.in.Content...)
		return nil
	}
	if s.cfg.BeforeTurn != nil {
		s.cfg.BeforeTurn(ctx)
	}
	s.waitSDKServers(ctx)
	sess := s.cfg.Session()
	s.setState(streamjson.StateRunning)
	tctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	if !s.startTurn(it, cancel) {
		cancel(errInterruptedQueued)
	}
	defer s.endTurn()

	s.mu.Lock()
	out := s.out
	s.mu.Unlock()
	if out != nil {
		out.reset()
	}
	var end *engine.TurnEnd
	var turns streamjson.Turns
	turns.Clock = streamjson.NewTurnClock(nil)
	ran := false // a model turn ran (not a local command or a refusal)
	if b := s.cfg.MaxBudgetUSD; b > 0 && sess.Totals().Cost >= b {
		s.writeInit()
		end = &engine.TurnEnd{Reason: engine.ReasonBudget, Total: sess.Totals(),
			Err: fmt.Errorf("the session already reached its maximum budget ($%s)", strconv.FormatFloat(b, 'f', -1, 64))}
	} else if it.notice {
		s.writeInit()
		end, ran = s.run(tctx, sess, engine.Input{Content: it.in.Content, Meta: true}, &turns), true
	} else {
		end, ran = s.prepareAndRun(tctx, sess, engine.Input{Content: it.in.Content, UUID: it.in.UUID}, &turns)
	}
	var structured any
	if out != nil && ran {
		v, ok := out.take()
		for retry := 0; !ok && end.Reason == engine.ReasonCompleted && retry < s.cfg.MaxStructuredRetries; retry++ {
			turns.Reminder()
			more := s.run(tctx, sess, engine.Input{Content: []llm.ContentBlock{llm.TextBlock(strings.TrimSpace(structuredReminder))}, Meta: true}, &turns)
			end = mergeEnds(end, more)
			v, ok = out.take()
		}
		end = finishStructured(end, v, ok)
		if ok {
			structured = v
		}
	}
	res := streamjson.NewResult(w.SessionID(), end, s.cfg.Models)
	if id := it.in.UUID; id != "" && !it.notice {
		res.UserMessageUUID, res.UserMessageUUIDs = id, []string{id}
	}
	turns.Apply(res)
	if s.cfg.SubagentStats != nil {
		res.SubagentStats = s.cfg.SubagentStats()
	}
	if structured != nil {
		res.StructuredOutput = structured
	} else if out != nil && ran && end.Reason == engine.ReasonCompleted {
		res.Subtype, res.IsError, res.Result = streamjson.SubtypeStructuredFail, true, nil
		res.Errors = []string{fmt.Sprintf("the model did not give structured output after %d reminders", s.cfg.MaxStructuredRetries)}
	}
	res.QueuedTurnCount = s.queued()
	if end.Reason == engine.ReasonError {
		if line := streamjson.APIErrorAssistant(w.SessionID(), end.Err); line != nil {
			w.Line(line)
		}
	}
	w.Line(res)
	s.setState(streamjson.StateIdle)
	return w.Err()
}

// writeInit writes the session's init line.
func (s *Server) writeInit() {
	if s.cfg.Init == nil {
		return
	}
	in := s.cfg.Init()
	// The servers the client gave at run time take the place of
	// configured ones of the same name, and those it left out go.
	dyn := s.sdkServerStatus()
	in.MCPServers = slices.DeleteFunc(in.MCPServers, func(m streamjson.MCPStatus) bool {
		return s.released(m.Name) || slices.ContainsFunc(dyn, func(d MCPServerStatus) bool { return d.Name == m.Name })
	})
	for _, st := range dyn {
		in.MCPServers = append(in.MCPServers, streamjson.MCPStatus{Name: st.Name, Status: st.Status, Error: st.Error})
	}
	s.cfg.Out.Line(in)
}

// errInterruptedQueued is the cause of a turn cancelled by an interrupt
// sent while its message was still waiting in the queue.
var errInterruptedQueued = fmt.Errorf("interrupted before it started")

// prepareAndRun runs Config.Prepare on a user message, then its turn, or
// answers it without one; ran reports whether a model turn ran. The init
// line goes after Prepare, as Claude Code writes it once the input is
// processed: a "/clear" gets one init line, under the new session id,
// after a conversation_reset line.
func (s *Server) prepareAndRun(ctx context.Context, sess *engine.Session, in engine.Input, turns *streamjson.Turns) (end *engine.TurnEnd, ran bool) {
	if s.cfg.Prepare == nil {
		s.writeInit()
		return s.run(ctx, sess, s.withHeld(in), turns), true
	}
	p, err := s.cfg.Prepare(ctx, in)
	if err == nil && p.Reset {
		s.cfg.Out.Line(streamjson.NewConversationReset(s.cfg.Out.SessionID(), in.UUID))
	}
	s.writeInit()
	if err == nil && !p.Run {
		for _, ev := range p.Events {
			s.cfg.Out.Event(ev)
		}
	}
	switch {
	case err != nil:
		return &engine.TurnEnd{Reason: engine.ReasonError, Err: err, Total: sess.Totals()}, false
	case !p.Run && p.IsError:
		return &engine.TurnEnd{Reason: engine.ReasonError, Err: errors.New(p.Output), Total: sess.Totals()}, false
	case p.Reset:
		return &engine.TurnEnd{Reason: engine.ReasonCompleted, Result: p.Output, Total: s.cfg.Session().Totals()}, false
	case !p.Run:
		return &engine.TurnEnd{Reason: engine.ReasonCompleted, Result: p.Output, Total: sess.Totals()}, false
	}
	return s.run(ctx, sess, s.withHeld(p.Input), turns), true
}

// withHeld puts the content of the messages held by "shouldQuery": false
// before in's, and empties the hold.
func (s *Server) withHeld(in engine.Input) engine.Input {
	if len(s.held) == 0 {
		return in
	}
	in.Content = append(s.held, in.Content...)
	s.held = nil
	return in
}

// run runs one engine turn, writing its events and counting them in
// turns, and returns its end.
func (s *Server) run(ctx context.Context, sess *engine.Session, in engine.Input, turns *streamjson.Turns) *engine.TurnEnd {
	var end *engine.TurnEnd
	for ev := range sess.Run(ctx, in) {
		turns.Add(ev)
		switch e := ev.(type) {
		case *engine.TurnEnd:
			end = e
			continue
		}
		// Sub-agents' usage is in the session's totals already (the CLI's
		// spawner accounts each sub-agent's run there when it ends).
		s.cfg.Out.Event(ev)
	}
	if end == nil {
		end = &engine.TurnEnd{Reason: engine.ReasonError, Err: fmt.Errorf("the turn ended without a result"), Total: sess.Totals()}
	}
	if end.Reason == engine.ReasonAborted || end.Reason == engine.ReasonAbortedTools {
		// Claude Code writes the message an interrupted turn leaves in
		// the conversation ("[Request interrupted by user]") as a user
		// line before the result.
		if msgs := sess.Messages(); len(msgs) > 0 && engine.IsInterruptMarker(msgs[len(msgs)-1]) {
			id := sess.LastUUID()
			if id == "" {
				id = uuid.NewString()
			}
			s.cfg.Out.UserLine(id, msgs[len(msgs)-1])
		}
	}
	return end
}

// mergeEnds accounts two consecutive engine turns as one: the later one's
// outcome with both turns' counts.
func mergeEnds(a, b *engine.TurnEnd) *engine.TurnEnd {
	m := *b
	m.NumTurns = a.NumTurns + b.NumTurns
	m.Duration = a.Duration + b.Duration
	m.APITime = a.APITime + b.APITime
	m.Usage = a.Usage
	m.Usage.Add(b.Usage)
	m.Cost = a.Cost + b.Cost
	m.Denials = append(append([]engine.Denial(nil), a.Denials...), b.Denials...)
	if m.Result == "" {
		m.Result = a.Result
	}
	return &m
}

// errorResult is the result line answering a user line that could not be
// used.
func (s *Server) errorResult(err error) *streamjson.Result {
	sess := s.cfg.Session()
	end := &engine.TurnEnd{Reason: engine.ReasonError, Err: err, Total: sess.Totals(), Duration: time.Duration(0)}
	return streamjson.NewResult(s.cfg.Out.SessionID(), end, s.cfg.Models)
}
