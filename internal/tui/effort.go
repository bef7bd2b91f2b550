package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"reins/internal/engine"
	"reins/internal/llm"
)

// EffortCommand runs "/effort [level]" on s and returns what to show:
// with no level it says which effort the next request carries and why;
// with a level (or "auto", the model's default) it sets it from the next
// request on. lockedBy, when not empty, names the environment setting that
// fixes the level (CLAUDE_CODE_EFFORT_LEVEL=max): a change is refused. The
// error is for a level that is none.
func EffortCommand(s *engine.Session, lockedBy, args string) (string, error) {
	args = strings.TrimSpace(args)
	if args == "" {
		return describeEffort(s, lockedBy), nil
	}
	level, err := llm.ParseEffort(args)
	if err != nil {
		return "", err
	}
	if lockedBy != "" {
		return "", fmt.Errorf("%s is set and wins over /effort; unset it to choose the level here", lockedBy)
	}
	if level == llm.EffortAuto {
		level = ""
	}
	s.SetEffort(level)
	info := s.Config().Models.Info(s.Model())
	sent := info.EffortFor(level)
	switch {
	case !info.SupportsEffort():
		return fmt.Sprintf("Effort set to %s. %s takes no effort level, so it applies after a switch to a model that does.", orDefault(level), s.Model()), nil
	case level == "":
		return "Effort set to the model's default (" + orAPIDefault(sent) + ").", nil
	case sent != level:
		return fmt.Sprintf("Effort set to %s; %s runs it as %s, the highest level it takes below that.", level, s.Model(), sent), nil
	}
	return "Effort set to " + level + ".", nil
}

// describeEffort says which effort s's next request carries.
func describeEffort(s *engine.Session, lockedBy string) string {
	level := s.Effort()
	info := s.Config().Models.Info(s.Model())
	var b strings.Builder
	switch sent := info.EffortFor(level); {
	case !info.SupportsEffort() && (level == "" || level == llm.EffortAuto):
		fmt.Fprintf(&b, "Effort: none; %s takes no effort level.", s.Model())
	case !info.SupportsEffort():
		fmt.Fprintf(&b, "Effort: %s, not sent: %s takes no effort level.", level, s.Model())
	case level == "" || level == llm.EffortAuto:
		fmt.Fprintf(&b, "Effort: %s, the model's default.", orAPIDefault(sent))
	case sent != level:
		fmt.Fprintf(&b, "Effort: %s, sent as %s (the highest level %s takes below it).", level, sent, s.Model())
	default:
		fmt.Fprintf(&b, "Effort: %s.", level)
	}
	if info.SupportsEffort() {
		fmt.Fprintf(&b, "\n%s takes: %s.", s.Model(), strings.Join(info.Efforts, ", "))
	}
	if lockedBy != "" {
		fmt.Fprintf(&b, "\nFixed by %s.", lockedBy)
	} else {
		b.WriteString("\nChange it with /effort low|medium|high|xhigh|max, or /effort auto for the model's default.")
	}
	return b.String()
}

func orDefault(level string) string {
	if level == "" {
		return "the model's default"
	}
	return level
}

func orAPIDefault(sent string) string {
	if sent == "" {
		return "the API's own"
	}
	return sent
}

// cmdEffort is /effort [level].
func (m *Model) cmdEffort(args string) tea.Cmd {
	out, err := EffortCommand(m.o.Session, m.o.EffortLockedBy, args)
	input := strings.TrimSpace("/effort " + args)
	if err != nil {
		m.commandOutput(input, err.Error(), true)
		return nil
	}
	m.commandOutput(input, out, false)
	return m.refreshStatus()
}

// sentEffort is the effort level s's next request carries, "" when it
// carries none (the model takes none, or has no default of its own).
func sentEffort(s *engine.Session) string {
	return s.Config().Models.Info(s.Model()).EffortFor(s.Effort())
}

// effortNote is ", effort <level>" for a model that takes effort levels,
// with the level its next request carries; "" otherwise.
func effortNote(s *engine.Session) string {
	info := s.Config().Models.Info(s.Model())
	if !info.SupportsEffort() {
		return ""
	}
	if sent := sentEffort(s); sent != "" {
		return ", effort " + sent
	}
	return ", its default effort"
}
