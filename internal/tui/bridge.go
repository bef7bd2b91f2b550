package tui

import (
	"context"
	"errors"
	"sync"

	tea "charm.land/bubbletea/v2"

	"reins/internal/engine"
)

// eventMsg carries one engine event of turn gen into the program.
type eventMsg struct {
	gen int
	ev  engine.Event
}

// turnDoneMsg: the goroutine running turn gen has returned.
type turnDoneMsg struct{ gen int }

// askMsg is a question waiting for a dialog.
type askMsg struct {
	q     engine.Question
	reply chan engine.Answer // buffered(1); the dialog sends exactly once
	done  <-chan struct{}    // closed when the asker stopped waiting
}

// bridge is the one way engine events and questions enter the program:
// it owns the turn goroutines and sends every message with send.
type bridge struct {
	send func(tea.Msg)
	wg   sync.WaitGroup // the turn goroutines
}

// runTurn runs one turn in a goroutine, forwarding its events.
func (b *bridge) runTurn(ctx context.Context, s *engine.Session, gen int, in engine.Input) {
	b.wg.Go(func() {
		for ev := range s.Run(ctx, in) {
			b.send(eventMsg{gen: gen, ev: ev})
		}
		b.send(turnDoneMsg{gen: gen})
	})
}

// wait waits for every turn goroutine.
func (b *bridge) wait() { b.wg.Wait() }

// noticeMsg is a message for the user from outside a turn (a hook's
// systemMessage, a warning).
type noticeMsg struct{ level, text string }

// Asker answers the engine's questions with the UI's dialogs. Create it
// with NewAsker before the session's gate, pass it in Options.Asker; Ask
// waits until the UI is running. It is safe for concurrent use.
type Asker struct {
	mu      sync.Mutex
	send    func(tea.Msg) // set while the UI runs; guarded by mu
	started chan struct{} // closed when send is set
	stopped chan struct{} // closed when the UI ended
	once    sync.Once
	early   []noticeMsg // notices sent before the UI started; guarded by mu
}

// NewAsker returns an Asker not yet attached to a UI.
func NewAsker() *Asker {
	return &Asker{started: make(chan struct{}), stopped: make(chan struct{})}
}

// ErrUIClosed is returned by Ask once the UI has ended.
var ErrUIClosed = errors.New("the terminal UI has closed")

func (a *Asker) attach(send func(tea.Msg)) {
	a.mu.Lock()
	a.send = send
	early := a.early
	a.early = nil
	a.mu.Unlock()
	close(a.started)
	if len(early) > 0 {
		// attach runs before the program reads messages, and Send waits
		// for it to read: deliver the early notices once it does.
		go func() {
			for _, n := range early {
				send(n)
			}
		}()
	}
}

// Notice shows a message for the user (level "info", "warning" or
// "error"); before the UI starts it is kept until it does, after the UI
// ended it is dropped.
func (a *Asker) Notice(level, text string) {
	a.mu.Lock()
	send := a.send
	if send == nil {
		a.early = append(a.early, noticeMsg{level, text})
	}
	a.mu.Unlock()
	if send != nil && !closed(a.stopped) {
		send(noticeMsg{level, text})
	}
}

func (a *Asker) detach() { a.once.Do(func() { close(a.stopped) }) }

// Ask shows q in a dialog and waits for the user's answer, ctx's end or
// the UI's end.
func (a *Asker) Ask(ctx context.Context, q engine.Question) (engine.Answer, error) {
	select {
	case <-a.started:
	case <-a.stopped:
		return engine.Answer{}, ErrUIClosed
	case <-ctx.Done():
		return engine.Answer{}, context.Cause(ctx)
	}
	a.mu.Lock()
	send := a.send
	a.mu.Unlock()
	done := make(chan struct{})
	defer close(done)
	m := askMsg{q: q, reply: make(chan engine.Answer, 1), done: done}
	send(m)
	select {
	case ans := <-m.reply:
		return ans, nil
	case <-a.stopped:
		return engine.Answer{}, ErrUIClosed
	case <-ctx.Done():
		return engine.Answer{}, context.Cause(ctx)
	}
}
