package command

import (
	"strings"
	"testing"

	"reins/internal/llm"
)

func TestListingBudgetIsOnePercentOfTheWindow(t *testing.T) {
	for window, want := range map[int]int{200_000: 8_000, 1_000_000: 40_000, 0: 8_000, -5: 8_000} {
		if got := ListingBudget(window); got != want {
			t.Errorf("ListingBudget(%d) = %d, want %d", window, got, want)
		}
	}
}

func skill(name, desc string) *Command {
	return &Command{Name: name, Description: desc, HasDescription: true, Kind: Prompt, Source: SourceProject, Skill: true}
}

func listingLines(text string) []string {
	body := strings.TrimSuffix(text, "\n</system-reminder>")
	_, entries, _ := strings.Cut(body, "\n\n")
	return strings.Split(entries, "\n")
}

func TestSkillListingSelectsModelInvocableEntries(t *testing.T) {
	cmds := []*Command{
		skill("pdf", "Read PDFs"),
		{Name: "review", Description: "Review code", HasDescription: true, WhenToUse: "after edits", Kind: Prompt, Source: SourceProject},
		{Name: "plain", Description: "first line of body", Kind: Prompt, Source: SourceProject},
		{Name: "deploy", Description: "Deploy", HasDescription: true, Kind: Prompt, Source: SourceProject, DisableModelInvocation: true},
		{Name: "init", Description: "builtin", Kind: Prompt, Source: SourceBuiltin},
		{Name: "clear", Description: "local", Kind: Local, Source: SourceBuiltin},
		{Name: "mcp__srv__p", Description: "an MCP prompt", Kind: Prompt, Source: SourceMCP},
		skill("long", strings.Repeat("x", 300)),
		skill("multi", "line one\n  line two"),
	}
	text, key := SkillListing(cmds, 100_000)
	if !strings.HasPrefix(text, "<system-reminder>\n") || !strings.HasSuffix(text, "\n</system-reminder>") {
		t.Fatalf("not a system reminder:\n%s", text)
	}
	want := []string{
		"- pdf: Read PDFs",
		"- review: Review code - after edits",
		"- mcp__srv__p: an MCP prompt",
		"- long: " + strings.Repeat("x", 249) + "…",
		"- multi: line one line two",
	}
	if got := listingLines(text); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("entries:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(key) != 16 {
		t.Errorf("key = %q, want 16 hex digits", key)
	}
	if text2, key2 := SkillListing(cmds, 100_000); text2 != text || key2 != key {
		t.Errorf("same input gave a different listing or key")
	}
	if _, key3 := SkillListing(append(cmds, skill("new", "New one")), 100_000); key3 == key {
		t.Errorf("key did not change when a skill was added")
	}
	if text, key := SkillListing(cmds[3:6], 100_000); text != "" || key != "" {
		t.Errorf("listing of nothing model-invocable = %q, %q", text, key)
	}
}

func TestSkillListingShrinksToTheBudget(t *testing.T) {
	bundled := &Command{Name: "verify", Description: strings.Repeat("b", 60), Kind: Prompt, Source: SourceBundled}
	cmds := []*Command{bundled, skill("alpha", strings.Repeat("a", 100)), skill("beta", strings.Repeat("c", 100))}
	full := "- verify: " + strings.Repeat("b", 60)
	tests := []struct {
		name   string
		budget int
		want   []string
	}{
		{"everything fits", 1000, []string{full, "- alpha: " + strings.Repeat("a", 100), "- beta: " + strings.Repeat("c", 100)}},
		// 70 for verify, 2 newlines, 9+8 for the other names: (150-70-2-17)/2 = 30 each.
		{"descriptions cut to an equal share", 150, []string{full, "- alpha: " + strings.Repeat("a", 29) + "…", "- beta: " + strings.Repeat("c", 29) + "…"}},
		// (110-70-2-17)/2 = 10 < 20: names only.
		{"names only below the minimum", 110, []string{full, "- alpha", "- beta"}},
		// names only need 70+1+7+1+6 = 85; at 80 the last entry is dropped.
		{"entries dropped from the end", 80, []string{full, "- alpha"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, _ := SkillListing(cmds, tt.budget)
			got := listingLines(text)
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("entries:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestSkillReminderIsSentOnceAndAgainOnChange(t *testing.T) {
	cmds := []*Command{skill("pdf", "Read PDFs")}
	var history []*llm.Message
	first := SkillReminder(history, cmds, 8000)
	if first == "" {
		t.Fatal("first reminder is empty")
	}
	history = append(history, llm.NewUserText("hello"), llm.NewUserText(first), llm.NewUserText("more"))
	if got := SkillReminder(history, cmds, 8000); got != "" {
		t.Errorf("listing sent again unchanged: %q", got)
	}
	cmds = append(cmds, skill("zip", "Zip files"))
	second := SkillReminder(history, cmds, 8000)
	if second == "" || !strings.Contains(second, "- zip: Zip files") {
		t.Fatalf("changed listing not sent: %q", second)
	}
	history = append(history, llm.NewUserText(second))
	if got := SkillReminder(history, cmds, 8000); got != "" {
		t.Errorf("latest listing sent again: %q", got)
	}
	if got := SkillReminder(history, cmds[:1], 8000); got != first {
		t.Errorf("after a removal the listing must be re-sent, got %q", got)
	}
	if got := SkillReminder(nil, nil, 8000); got != "" {
		t.Errorf("no skills gave %q", got)
	}
}
