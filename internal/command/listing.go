package command

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"unicode/utf8"

	"reins/internal/llm"
)

// Listing budget figures (spec seed004 Ch.8, Ch.15 pattern 4).
const (
	// ListingShare is the part of the context window the skill listing may
	// take.
	ListingShare = 0.01
	// CharsPerToken converts the token budget to characters.
	CharsPerToken = 4
	// DefaultListingBudget is used when the context window is unknown
	// (1% of 200,000 tokens, in characters).
	DefaultListingBudget = 8_000
	// MaxEntryChars caps one entry's description.
	MaxEntryChars = 250
	// MinDescChars is the shortest description worth keeping when the
	// budget forces descriptions to be cut; below it entries show names
	// only.
	MinDescChars = 20
)

// listingHead opens every skill listing; SkillReminder finds earlier
// listings in the history by it, so it must not change.
const listingHead = "<system-reminder>\nThese skills can be loaded with the Skill tool. Load one when the task matches its description:\n\n"

// SkillReminder returns the skill listing for the engine's reminder hook:
// the text of SkillListing when it differs from the last listing in
// history (none yet, or the skills changed), and "" when the model already
// has it. After a compaction that dropped it, it is sent again.
func SkillReminder(history []*llm.Message, cmds []*Command, budget int) string {
	text, _ := SkillListing(cmds, budget)
	if text == "" || lastWithPrefix(history, listingHead) == text {
		return ""
	}
	return text
}

// lastWithPrefix returns the last text block of a user message in history
// that starts with prefix, or "".
func lastWithPrefix(history []*llm.Message, prefix string) string {
	for i := len(history) - 1; i >= 0; i-- {
		m := history[i]
		if m == nil || m.Role != llm.RoleUser {
			continue
		}
		for j := len(m.Content) - 1; j >= 0; j-- {
			if b := m.Content[j]; b.Type == llm.BlockText && strings.HasPrefix(b.Text, prefix) {
				return b.Text
			}
		}
	}
	return ""
}

// ListingBudget returns the listing's budget in characters for a context
// window of the given size in tokens (0: unknown).
func ListingBudget(contextWindow int) int {
	if contextWindow <= 0 {
		return DefaultListingBudget
	}
	return int(float64(contextWindow) * CharsPerToken * ListingShare)
}

// SkillListing returns the <system-reminder> text that tells the model
// which commands it can load with the Skill tool, and a key that changes
// exactly when the text does. Send the text again only when the key
// differs from the last one sent. cmds are usually
// Registry.ModelInvocable(); others are left out. An empty listing gives
// "" and "".
//
// Each entry is "- name: description", the description followed by
// " - when_to_use" when there is one and cut to MaxEntryChars. Plain
// commands (not skills) are listed only when their author wrote a
// description or when_to_use. When the entries exceed budget characters,
// bundled entries stay whole, the others' descriptions are cut to an equal
// share of what remains, or, when that share is under MinDescChars, the
// others show their names only; entries that still do not fit are left
// out from the end.
func SkillListing(cmds []*Command, budget int) (text, key string) {
	type entry struct {
		name, desc string
		bundled    bool
	}
	var es []entry
	for _, c := range cmds {
		if !c.ModelInvocable() || (!c.Skill && !c.HasDescription && c.WhenToUse == "" && c.Source != SourceBundled && c.Source != SourceMCP) {
			continue
		}
		d := c.Description
		if c.WhenToUse != "" {
			d += " - " + c.WhenToUse
		}
		es = append(es, entry{name: c.Name, desc: cut(oneLine(d), MaxEntryChars), bundled: c.Source == SourceBundled})
	}
	if len(es) == 0 {
		return "", ""
	}
	full := func(e entry) string {
		if e.desc == "" {
			return "- " + e.name
		}
		return "- " + e.name + ": " + e.desc
	}
	lines := make([]string, len(es))
	total := len(es) - 1
	for i, e := range es {
		lines[i] = full(e)
		total += utf8.RuneCountInString(lines[i])
	}
	if total > budget {
		// Bundled entries stay whole; the rest share what is left.
		used, rest, restNames := len(es)-1, 0, 0
		for _, e := range es {
			if e.bundled {
				used += utf8.RuneCountInString(full(e))
			} else {
				rest++
				restNames += utf8.RuneCountInString("- " + e.name + ": ")
			}
		}
		share := 0
		if rest > 0 {
			share = (budget - used - restNames) / rest
		}
		for i, e := range es {
			switch {
			case e.bundled:
			case share >= MinDescChars:
				e.desc = cut(e.desc, share)
				lines[i] = full(e)
			default:
				lines[i] = "- " + e.name
			}
		}
		lines = fit(lines, budget)
	}
	text = listingHead + strings.Join(lines, "\n") + "\n</system-reminder>"
	sum := sha256.Sum256([]byte(text))
	return text, hex.EncodeToString(sum[:8])
}

// fit drops lines from the end until the joined lines fit the budget.
func fit(lines []string, budget int) []string {
	total := len(lines) - 1
	for _, l := range lines {
		total += utf8.RuneCountInString(l)
	}
	for len(lines) > 0 && total > budget {
		total -= utf8.RuneCountInString(lines[len(lines)-1]) + 1
		lines = lines[:len(lines)-1]
	}
	return lines
}

// cut shortens s to n characters, the last being "…".
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	if n <= 0 {
		return ""
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
