package todo

import (
	"strings"
	"testing"

	"reins/internal/llm"
)

// chat is a history of n exchanges: a user message, then a model reply.
func chat(n int) []*llm.Message {
	var h []*llm.Message
	for range n {
		h = append(h, &llm.Message{Role: llm.RoleUser, Content: []llm.ContentBlock{llm.TextBlock("go on")}},
			&llm.Message{Role: llm.RoleAssistant, Content: []llm.ContentBlock{llm.TextBlock("working")}})
	}
	return h
}

func TestQA4ReminderComesAfterTenRepliesWithoutTodoWrite(t *testing.T) {
	items := []Item{{Content: "Write the parser", Status: InProgress, ActiveForm: "Writing the parser"}}
	if r := Reminder(chat(ReminderTurns-1), items); r != "" {
		t.Errorf("reminder after %d replies: %q", ReminderTurns-1, r)
	}
	r := Reminder(chat(ReminderTurns), items)
	if !strings.HasPrefix(r, "<system-reminder>\n") || !strings.HasSuffix(r, "</system-reminder>") ||
		!strings.Contains(r, "1. [in_progress] Write the parser") {
		t.Errorf("reminder after %d replies = %q", ReminderTurns, r)
	}
}

func TestQA4ReminderWaitsAfterATodoWriteCallOrAnEarlierReminder(t *testing.T) {
	h := chat(3)
	h = append(h, &llm.Message{Role: llm.RoleAssistant, Content: []llm.ContentBlock{
		{Type: llm.BlockToolUse, ID: "toolu_t", Name: Name, Input: []byte(`{"todos":[]}`)}}})
	h = append(h, chat(ReminderTurns-1)...)
	if r := Reminder(h, nil); r != "" {
		t.Errorf("reminder %d replies after a TodoWrite call: %q", ReminderTurns-1, r)
	}
	h = append(h, chat(1)...)
	r := Reminder(h, nil)
	if r == "" {
		t.Fatalf("no reminder %d replies after the TodoWrite call", ReminderTurns)
	}
	h = append(h, &llm.Message{Role: llm.RoleUser, Content: []llm.ContentBlock{llm.TextBlock(r)}})
	h = append(h, chat(ReminderTurns-1)...)
	if again := Reminder(h, nil); again != "" {
		t.Errorf("reminder again %d replies after the last: %q", ReminderTurns-1, again)
	}
	h = append(h, chat(1)...)
	if again := Reminder(h, nil); again == "" {
		t.Errorf("no second reminder %d replies after the first", ReminderTurns)
	}
}
