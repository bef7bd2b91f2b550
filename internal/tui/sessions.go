package tui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"reins/internal/engine"
	"reins/internal/llm"
	"reins/internal/session"
)

// resumeShown is how many items of a resumed conversation are printed;
// the rest stay in the transcript view.
const resumeShown = 60

// cmdClear starts over with an empty conversation.
func (m *Model) cmdClear(string) tea.Cmd {
	if m.o.NewSession != nil {
		s, err := m.o.NewSession()
		if err != nil {
			m.commandOutput("/clear", err.Error(), true)
			return nil
		}
		m.switchSession(s)
	} else {
		m.o.Session.SetHistory(nil)
	}
	m.conv.todos = nil
	m.conv.add(&item{kind: kCompact, text: "Conversation cleared", done: true})
	return m.refreshStatus()
}

// cmdRename records a title for the session (/rename NAME): the /resume
// list shows it and reins --resume NAME finds the session by it.
func (m *Model) cmdRename(args string) tea.Cmd {
	typed := strings.TrimSpace("/rename " + args)
	title := strings.Join(strings.Fields(args), " ")
	s := m.o.Session
	switch {
	case title == "":
		m.commandOutput(typed, "Usage: /rename <name>", true)
	case s.Config().Recorder == nil:
		m.commandOutput(typed, "This session is not saved (--no-session-persistence), so it cannot be named.", true)
	default:
		s.Record(&session.Entry{Type: session.TypeCustomTitle, CustomTitle: title})
		m.commandOutput(typed, "Session renamed to: "+title, false)
	}
	return nil
}

// switchSession makes s the conversation the UI runs. The model chosen
// with /model and the effort chosen with /effort stay: they are the
// user's choices for this run of reins, not part of the conversation
// left (Claude Code keeps them across /clear and /resume); the new
// session started on the configured ones.
func (m *Model) switchSession(s *engine.Session) {
	if old := m.o.Session; old != nil && old.Model() != s.Model() {
		s.SetModel(old.Model())
	}
	if old := m.o.Session; old != nil && old.Effort() != s.Effort() {
		s.SetEffort(old.Effort())
	}
	m.o.Session = s
}

// cmdResume lists earlier sessions of the project.
func (m *Model) cmdResume(args string) tea.Cmd {
	if m.o.Sessions == nil {
		return notAvailable("resume")(m, args)
	}
	infos, err := m.o.Sessions.List()
	if err != nil {
		m.commandOutput("/resume", err.Error(), true)
		return nil
	}
	cur := m.o.Session.ID()
	var items []pickItem
	var idx []int
	var search []string
	for i, in := range infos {
		if in.ID == cur {
			continue
		}
		name := strings.TrimSpace(in.Name())
		if name == "" {
			name = "(no prompt)"
		}
		desc := ago(m.o.Now().Sub(in.Modified))
		if in.GitBranch != "" {
			desc += " · " + in.GitBranch
		}
		if in.Foreign {
			desc += " · Claude Code"
		}
		// Typing in the list finds a session by words of its first
		// prompt, its name or its id too, not only by the line shown
		// (the last prompt, when it has no name).
		items = append(items, pickItem{label: oneLine(name), desc: desc})
		search = append(search, strings.Join([]string{in.FirstPrompt, in.CustomTitle, in.Title, in.ID}, " "))
		idx = append(idx, i)
	}
	if len(items) == 0 {
		m.commandOutput("/resume", "No earlier conversations in this folder.", false)
		return nil
	}
	if args = strings.TrimSpace(args); args != "" {
		// /resume <id, its start, or the name given with /rename>, as
		// claude --resume takes; other words open the list filtered by
		// them.
		pick := -1
		for j, i := range idx {
			if infos[i].CustomTitle == args || infos[i].ID == args {
				pick = j
				break
			}
			if strings.HasPrefix(infos[i].ID, args) {
				if pick >= 0 {
					pick = -2 // the start of several ids: let the list show them
				} else if pick == -1 {
					pick = j
				}
			}
		}
		if pick >= 0 {
			i := idx[pick]
			return m.resumeInfo(infos[i].ID, items[pick].label, infos, i)
		}
	}
	p := newPicker("Resume a conversation", items, func(m *Model, j int) tea.Cmd {
		i := idx[j]
		return m.resumeInfo(infos[i].ID, items[j].label, infos, i)
	})
	p.search = search
	if args != "" {
		p.paste(args)
	}
	m.dialog = p
	return nil
}

func (m *Model) resumeInfo(id, name string, infos []session.Info, i int) tea.Cmd {
	s, err := m.o.Sessions.Resume(m.ctx, infos[i])
	if err != nil {
		m.commandOutput("/resume", err.Error(), true)
		return nil
	}
	m.switchSession(s)
	m.conv.add(&item{kind: kCompact, text: "Resumed: " + cut(name, 60), done: true})
	m.showHistory(s.History())
	return m.refreshStatus()
}

// showHistory adds a loaded history to the conversation, printing only
// its last part.
func (m *Model) showHistory(h []engine.HistoryItem) {
	items := historyItems(h)
	c := m.conv
	if n := len(items) - resumeShown; n > 0 {
		// The earlier part goes straight to the transcript, unprinted.
		c.items = append(c.items[:c.printed], items[:n]...)
		c.printed = len(c.items)
		c.add(&item{kind: kNotice, text: fmt.Sprintf("%d earlier messages (ctrl+o to see them)", n), done: true})
		items = items[n:]
	}
	for _, it := range items {
		c.add(it)
	}
}

func ago(d time.Duration) string {
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%d min ago", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%d h ago", int(d.Hours()))
	}
	return fmt.Sprintf("%d days ago", int(d.Hours()/24))
}

// openRewind lists the earlier prompts to go back to.
func (m *Model) openRewind() {
	hist := m.o.Session.History()
	var items []pickItem
	var at []int
	for i := len(hist) - 1; i >= 0; i-- {
		h := hist[i]
		if h.Meta || h.Summary || h.Message.Role != llm.RoleUser || onlyResults(h.Message) || isShellOutput(h.Message) || engine.IsInterruptMarker(h.Message) {
			continue
		}
		text := displayPrompt(h.Message)
		if strings.TrimSpace(text) == "" {
			continue
		}
		desc := ""
		if m.o.Checkpoints != nil {
			if n := len(m.o.Checkpoints.Since(h.UUID)); n > 0 {
				desc = plural(n, "file") + " changed since"
			}
		}
		items = append(items, pickItem{label: oneLine(text), desc: desc})
		at = append(at, i)
	}
	if len(items) == 0 {
		m.setHint("Nothing to rewind to yet", 2*time.Second)
		return
	}
	m.dialog = newPicker("Rewind: go back to before which prompt?", items, func(m *Model, j int) tea.Cmd {
		i := at[j]
		h := hist[i]
		var files []string
		if m.o.Checkpoints != nil {
			files = m.o.Checkpoints.Since(h.UUID)
		}
		if len(files) == 0 {
			return m.rewind(hist, i, false)
		}
		choices := []pickItem{
			{label: "Restore the conversation and the files", desc: strings.Join(files, ", ")},
			{label: "Restore the conversation only"},
		}
		m.dialog = newPicker("Rewind "+plural(len(files), "file")+" too?", choices, func(m *Model, k int) tea.Cmd {
			return m.rewind(hist, i, k == 0)
		})
		return nil
	})
}

// rewind cuts the history before hist[i], optionally restoring files,
// and puts that prompt back in the editor.
func (m *Model) rewind(hist []engine.HistoryItem, i int, files bool) tea.Cmd {
	h := hist[i]
	m.o.Session.SetHistory(hist[:i])
	note := "Rewound the conversation"
	if files && m.o.Checkpoints != nil {
		restored, err := m.o.Checkpoints.Restore(h.UUID)
		if err != nil {
			m.say(kError, err.Error())
		}
		note += " and " + plural(len(restored), "file")
	}
	m.conv.add(&item{kind: kCompact, text: note, done: true})
	m.ed.set(displayPrompt(h.Message))
	return nil
}
