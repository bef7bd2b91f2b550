package compact

import (
	"sort"
	"strings"

	"reins/internal/engine"
	"reins/internal/llm"
)

// Limits of the skills restored after a compaction (seed004 Ch.10.3):
// each skill's text is cut to MaxTokensPerSkill, and skills are restored,
// most recently invoked first, while they fit in RestoredSkillsBudget.
const (
	MaxTokensPerSkill    = 5_000
	RestoredSkillsBudget = 25_000
)

// restoredSkillHead starts the first block of a restored skill's message;
// the skill's name follows it, then a line break.
const restoredSkillHead = "<system-reminder>\nRestored skill: /"

// skillCutNote ends a skill text cut to MaxTokensPerSkill.
const skillCutNote = "\n\n[The rest of this skill's text was cut when the conversation was compacted; read the skill's file for all of it.]"

// invoked is a skill or prompt command whose text was given to the model.
type invoked struct {
	name, text string
	at         int // position of its latest invocation
}

// invokedSkills finds the prompt commands invoked in items: a text block
// holding the <command-name> header of an invocation, followed by the
// text block of the expanded prompt, or a skill restored by an earlier
// compaction. keep, when set, says which names count (skills and custom
// commands, not builtins). Each name is reported once, with its latest
// text, most recent first.
func invokedSkills(items []engine.HistoryItem, keep func(name string) bool) []invoked {
	byName := map[string]*invoked{}
	pending, pos := "", 0
	for _, it := range items {
		for _, b := range it.Message.Content {
			pos++
			if b.Type != llm.BlockText {
				pending = ""
				continue
			}
			if name, ok := invocationName(b.Text); ok {
				pending = name
				continue
			}
			if pending != "" && (keep == nil || keep(pending)) {
				byName[pending] = &invoked{name: pending, text: b.Text, at: pos}
			}
			pending = ""
		}
	}
	out := make([]invoked, 0, len(byName))
	for _, s := range byName {
		out = append(out, *s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].at > out[j].at })
	return out
}

// invocationName reads the command name from an invocation header
// ("<command-message>…<command-name>/name</command-name>…") or from the
// head of a restored skill.
func invocationName(text string) (string, bool) {
	if rest, ok := strings.CutPrefix(text, restoredSkillHead); ok {
		name, _, found := strings.Cut(rest, "\n")
		return name, found && name != ""
	}
	if !strings.HasPrefix(text, "<command-message>") {
		return "", false
	}
	_, rest, ok := strings.Cut(text, "<command-name>/")
	if !ok {
		return "", false
	}
	name, _, ok := strings.Cut(rest, "</command-name>")
	return name, ok && name != ""
}

// restoreSkills renders the skills invoked in the compacted part of the
// conversation, each as a meta message of two text blocks (a head naming
// it, then its text), within the limits above. Skills invoked again in
// the kept tail are there already and left out.
func restoreSkills(skills []invoked, tail []*llm.Message) []*llm.Message {
	again := map[string]bool{}
	tailItems := make([]engine.HistoryItem, len(tail))
	for i, m := range tail {
		tailItems[i].Message = m
	}
	for _, s := range invokedSkills(tailItems, nil) {
		again[s.name] = true
	}
	var out []*llm.Message
	used := 0
	for _, s := range skills {
		if again[s.name] {
			continue
		}
		text := s.text
		if limit := MaxTokensPerSkill * charsPerToken; len(text) > limit {
			cut := limit
			for cut > 0 && !utf8Start(text[cut]) {
				cut--
			}
			text = text[:cut] + skillCutNote
		}
		head := restoredSkillHead + s.name + "\n" + mustText("restored-skill.md") + "\n</system-reminder>"
		msg := &llm.Message{Role: llm.RoleUser, Content: []llm.ContentBlock{llm.TextBlock(head), llm.TextBlock(text)}}
		t := EstimateMessage(msg)
		if used+t > RestoredSkillsBudget {
			continue // a smaller skill after it may still fit
		}
		used += t
		out = append(out, msg)
	}
	return out
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }
