package tui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// TrustOptions configure ConfirmTrust.
type TrustOptions struct {
	// Dir is the folder to trust.
	Dir string
	// Home marks Dir as the home folder, trusted for this session only.
	Home bool
	// Input and Output default to the terminal.
	Input   io.Reader
	Output  io.Writer
	NoColor bool
	// ColorProfile, when set, gives the terminal's colour profile
	// (DetectColors) instead of the prompt detecting it as it starts.
	ColorProfile Colors
}

// ConfirmTrust asks whether the files of a folder may be trusted before
// reins reads its project settings, hooks and MCP servers. It reports the
// answer; Esc, Ctrl+C or "No" mean false.
func ConfirmTrust(ctx context.Context, o TrustOptions) (bool, error) {
	m := &trustModel{o: o, st: newStyles(!o.NoColor), width: 80}
	m.menu.items = []string{"Yes, proceed", "No, exit"}
	if err := runPrompt(ctx, m, o.Input, o.Output, o.ColorProfile); err != nil {
		return false, fmt.Errorf("trust prompt: %w", err)
	}
	return m.yes, nil
}

// runPrompt runs a start-up question (before the terminal UI starts) on
// the terminal, or on input and output when they are set.
func runPrompt(ctx context.Context, m tea.Model, input io.Reader, output io.Writer, colors Colors) error {
	opts := []tea.ProgramOption{tea.WithContext(ctx)}
	if input != nil {
		opts = append(opts, tea.WithInput(input))
	}
	if output != nil {
		opts = append(opts, tea.WithOutput(output))
	}
	if colors != nil {
		opts = append(opts, tea.WithColorProfile(colors()))
	}
	_, err := tea.NewProgram(m, opts...).Run()
	if err != nil && !errors.Is(err, tea.ErrProgramKilled) {
		return err
	}
	return nil
}

type trustModel struct {
	o     TrustOptions
	st    styles
	menu  menu
	width int
	yes   bool
	done  bool
}

func (m *trustModel) Init() tea.Cmd { return nil }

func (m *trustModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width = max(20, msg.Width)
	case tea.KeyPressMsg:
		switch msg.String() {
		case "esc", "ctrl+c", "n":
			m.done = true
			return m, tea.Quit
		case "y":
			m.yes, m.done = true, true
			return m, tea.Quit
		}
		if i := m.menu.key(msg); i >= 0 {
			m.yes, m.done = i == 0, true
			return m, tea.Quit
		}
	}
	return m, nil
}

func (m *trustModel) View() tea.View {
	if m.done {
		if m.yes {
			return tea.NewView(m.st.dim.Render(cut("Trusted "+m.o.Dir, m.width)))
		}
		return tea.NewView(m.st.dim.Render(cut("Not trusted: "+m.o.Dir, m.width)))
	}
	w := m.width
	var b strings.Builder
	b.WriteString(m.st.bold.Render("Do you trust the files in this folder?") + "\n\n")
	b.WriteString(hang("  ", m.o.Dir, w) + "\n\n")
	b.WriteString(m.st.dim.Render(hang("", "reins may read, edit and run files here. Project settings, hooks and MCP servers from this folder can run commands, so only trust a folder whose contents you know.", w)) + "\n")
	if m.o.Home {
		b.WriteString(m.st.warn.Render(hang("", "This is your home folder: it is trusted for this session only.", w)) + "\n")
	}
	b.WriteString("\n" + m.menu.view(&m.st, w) + "\n")
	b.WriteString(m.st.dim.Render("enter to confirm · esc to exit"))
	return tea.NewView(frame(&m.st, "Trust this folder", b.String(), w))
}
