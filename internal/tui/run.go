package tui

import (
	"context"
	"errors"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"reins/internal/engine"
)

// Run shows the UI until the user exits or ctx ends. It returns once
// every turn it started has finished. The session in Options may be
// replaced during the run (/clear, /resume); Run returns the one in use
// at the end.
func Run(ctx context.Context, o Options) (*Result, error) {
	if o.Session == nil {
		return nil, errors.New("tui.Run: Options.Session is required")
	}
	if o.Asker == nil {
		o.Asker = NewAsker()
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	br := &bridge{}
	m := newModel(ctx, o, br)
	// 30 frames a second keeps a keypress on screen within ~33 ms while
	// halving the idle redraw ticks of the default 60.
	opts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithFPS(30), tea.WithFilter(rewrapFilter(terminalRewraps(m.o.Getenv)))}
	if o.Input != nil {
		opts = append(opts, tea.WithInput(o.Input))
	}
	m.frameLog = &frameLog{}
	opts = append(opts, tea.WithOutput(programOutput(o.Output, m.frameLog)))
	if o.Width > 0 && o.Height > 0 {
		opts = append(opts, tea.WithWindowSize(o.Width, o.Height))
	}
	if o.ColorProfile != nil {
		opts = append(opts, tea.WithColorProfile(o.ColorProfile()))
	}
	p := tea.NewProgram(m, opts...)
	br.send = p.Send
	o.Asker.attach(p.Send)
	if o.BackgroundDone != nil {
		go func() {
			for {
				select {
				case <-o.BackgroundDone:
					p.Send(backgroundMsg{})
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	_, err := p.Run()
	o.Asker.detach()
	m.interrupt()
	cancel()
	br.wait()
	// "!" runs held back during the last turn still reach the history.
	m.running = false
	m.releaseShell()
	res := &Result{Session: m.o.Session}
	if err != nil && !errors.Is(err, tea.ErrProgramKilled) {
		return res, fmt.Errorf("terminal UI: %w", err)
	}
	return res, nil
}

// Result is what Run leaves behind.
type Result struct {
	// Session is the session in use when the UI ended.
	Session *engine.Session
}
