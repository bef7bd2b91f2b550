package tui

import (
	"maps"
	"strings"
	"time"
	"unicode"
)

// queuedMsg is a message typed while a turn runs, queued in the engine
// and shown under the conversation until the turn takes it.
type queuedMsg struct {
	uuid    string // the engine's id for it (engine.Session.Queue)
	display string // one line for the "(queued)" list
	raw     draft  // what the editor held, for taking it back
}

// draft is the editor's text with its placeholders, and the pastes and
// images they stand for.
type draft struct {
	text   string
	pastes map[int]string
	images map[int]pastedImage
	// pastedHead: text starts with pasted text, which is a prompt
	// whatever its first character (see editor.pastedHead).
	pastedHead bool
}

// snapshot returns what the editor holds.
func (e *editor) snapshot() draft {
	return draft{text: e.value(), pastes: maps.Clone(e.pastes), images: maps.Clone(e.images), pastedHead: e.pastedHead}
}

// restore puts drafts in front of what the editor holds, one per line,
// with the pastes and images their placeholders stand for (their numbers
// are never reused, so they cannot clash with the editor's own), and
// leaves the cursor at the end.
func (e *editor) restore(ds []draft) {
	var parts []string
	for _, d := range ds {
		parts = append(parts, strings.TrimRightFunc(d.text, unicode.IsSpace))
		maps.Copy(e.pastes, d.pastes)
		maps.Copy(e.images, d.images)
	}
	if cur := e.value(); strings.TrimSpace(cur) != "" {
		parts = append(parts, cur)
	}
	e.pushUndo(editState{e.value(), e.pos})
	e.typing, e.yank = false, nil
	e.set(strings.Join(parts, "\n"))
	e.pastedHead = len(ds) > 0 && ds[0].pastedHead
	e.histIdx = -1
}

// onTopRow reports whether Up would leave the text for the history: the
// cursor is on its first drawn row.
func (e *editor) onTopRow() bool {
	if e.width <= 0 {
		return e.lineStart() == 0
	}
	row := 0
	e.layout(e.width, func(i, r, _ int) {
		if i == e.pos {
			row = r
		}
	})
	return row == 0
}

// editQueued takes the queued messages the engine has not yet delivered
// back into the editor, in front of what it holds, so they can be edited
// and sent again: nothing is sent twice. Messages the turn already took
// stay listed until their event arrives. It reports whether any came
// back.
func (m *Model) editQueued() bool {
	return m.takeQueuedIntoInput("Queued messages are back in the input; enter sends them")
}

// takeQueuedIntoInput is editQueued with the hint to show.
func (m *Model) takeQueuedIntoInput(hint string) bool {
	back := m.takeBackQueued()
	if len(back) == 0 {
		return false
	}
	m.ed.restore(back)
	m.comp = nil
	m.setHint(hint, 3*time.Second)
	return true
}

// takeBackQueued takes the queued messages not yet delivered out of the
// engine's queue and the list, and returns what the editor held for
// each, in order.
func (m *Model) takeBackQueued() []draft {
	if len(m.queued) == 0 {
		return nil
	}
	taken := map[string]bool{}
	for _, q := range m.o.Session.Unqueue() {
		taken[q.UUID] = true
	}
	var back []draft
	kept := m.queued[:0]
	for _, q := range m.queued {
		if taken[q.uuid] {
			back = append(back, q.raw)
		} else {
			kept = append(kept, q)
		}
	}
	m.queued = kept
	return back
}
