package tui

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
)

// defaultStatus is "model · ctx N% · $cost".
func (m *Model) defaultStatus() string {
	s := m.o.Session
	model := s.Model()
	parts := []string{model}
	if e := sentEffort(s); e != "" {
		parts = append(parts, e+" effort")
	}
	if pct, ok := m.contextUsed(); ok {
		parts = append(parts, fmt.Sprintf("ctx %d%%", pct))
	}
	t := s.Totals()
	if t.Cost > 0 || t.Usage.OutputTokens > 0 {
		c := fmt.Sprintf("$%.4f", t.Cost)
		if t.CostUnknown {
			c += "+"
		}
		parts = append(parts, c)
	}
	return strings.Join(parts, " · ")
}

// contextUsed is the share of the context window the last request
// filled.
func (m *Model) contextUsed() (int, bool) {
	s := m.o.Session
	u := s.LastUsage()
	used := u.InputTokens + u.CacheReadInputTokens + u.CacheCreationInputTokens + u.OutputTokens
	if used == 0 {
		return 0, false
	}
	cfg := s.Config()
	win := cfg.Models.Info(s.Model()).ContextWindow
	if win <= 0 {
		return 0, false
	}
	return min(100, used*100/win), true
}

// statusInput is what a statusLine command reads on stdin (Claude Code's
// field names).
type statusInput struct {
	HookEventName  string `json:"hook_event_name"`
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	Cwd            string `json:"cwd"`
	Model          struct {
		ID          string `json:"id"`
		DisplayName string `json:"display_name"`
	} `json:"model"`
	Workspace struct {
		CurrentDir string `json:"current_dir"`
		ProjectDir string `json:"project_dir"`
	} `json:"workspace"`
	Version     string `json:"version"`
	OutputStyle struct {
		Name string `json:"name"`
	} `json:"output_style"`
	PermissionMode string `json:"permission_mode"`
	Cost           struct {
		TotalCostUSD      float64 `json:"total_cost_usd"`
		TotalDuration     int64   `json:"total_duration_ms"`
		TotalAPIDuration  int64   `json:"total_api_duration_ms"`
		ContextUsedPct    int     `json:"context_used_percent"`
		TotalInputTokens  int     `json:"total_input_tokens"`
		TotalOutputTokens int     `json:"total_output_tokens"`
	} `json:"cost"`
	Exceeds200kTokens bool `json:"exceeds_200k_tokens"`
	// Effort is the level the next request carries; absent for a model
	// that takes none.
	Effort *statusEffort `json:"effort,omitempty"`
}

type statusEffort struct {
	Level string `json:"level"`
}

// refreshStatus runs the statusLine command, when there is one, and
// shows its first line.
func (m *Model) refreshStatus() tea.Cmd {
	if m.o.StatusLine == "" {
		return nil
	}
	s := m.o.Session
	var in statusInput
	in.HookEventName, in.OutputStyle.Name = "Status", m.outputStyle()
	in.SessionID, in.Cwd, in.Version = s.ID(), m.o.Cwd, m.o.Version
	if m.o.TranscriptPath != nil {
		in.TranscriptPath = m.o.TranscriptPath(s.ID())
	}
	in.Model.ID, in.Model.DisplayName = s.Model(), s.Model()
	in.Workspace.CurrentDir, in.Workspace.ProjectDir = m.o.Cwd, m.o.Cwd
	in.PermissionMode = m.mode()
	t := s.Totals()
	in.Cost.TotalCostUSD, in.Cost.TotalAPIDuration = t.Cost, t.APITime.Milliseconds()
	in.Cost.TotalInputTokens, in.Cost.TotalOutputTokens = t.Usage.InputTokens, t.Usage.OutputTokens
	in.Cost.ContextUsedPct, _ = m.contextUsed()
	in.Cost.TotalDuration = m.o.Now().Sub(m.turnStart0()).Milliseconds()
	u := s.LastUsage()
	in.Exceeds200kTokens = u.InputTokens+u.CacheReadInputTokens+u.CacheCreationInputTokens > 200_000
	if e := sentEffort(s); e != "" {
		in.Effort = &statusEffort{Level: e}
	}
	data, _ := json.Marshal(in)
	command, cwd, parent, log := m.o.StatusLine, m.o.Cwd, m.ctx, m.o.Logger
	return func() tea.Msg {
		text, err := runStatusLine(parent, command, cwd, data)
		if err != nil {
			log.Warn("statusLine command failed", "command", command, "err", err)
		}
		return asyncMsg{apply: func(m *Model) tea.Cmd {
			m.statusText = text
			return nil
		}}
	}
}

// runStatusLine runs command with data on stdin and returns its first
// output line ("" on failure, with the error), with its colours, as
// Claude Code shows them, and no other escape sequences.
func runStatusLine(parent context.Context, command, cwd string, data []byte) (string, error) {
	ctx, cancel := context.WithTimeout(parent, 5*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", command)
	cmd.Dir = cwd
	cmd.Stdin = bytes.NewReader(data)
	cmd.WaitDelay = time.Second
	out, err := cmd.Output()
	if err != nil && len(out) == 0 {
		return "", fmt.Errorf("statusLine %q: %w", command, err)
	}
	line, _, _ := strings.Cut(string(out), "\n")
	return strings.TrimSpace(keepColours(strings.TrimRight(line, "\r"))), nil
}
