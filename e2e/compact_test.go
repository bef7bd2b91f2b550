package e2e

import (
	"os"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// smallWindow makes the model's window small so a short session crosses
// the autocompaction threshold.
const smallWindow = `{"models":{"claude-sonnet-4-5":{"contextWindow":60000,"maxOutputTokens":8000}}}`

func TestAutocompactSummarisesAndContinuesWithRestoredFiles(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/settings.json", smallWindow)
	f := sb.Write(t, "notes.txt", "the launch code is tangerine\n")
	srv.Add(
		llmtest.Turn{Blocks: []llmtest.Block{llmtest.ToolUse("toolu_1", "Read", map[string]any{"file_path": f})},
			Usage: &llmtest.UsageSpec{InputTokens: 45000, OutputTokens: 100}},
		llmtest.Turn{Blocks: []llmtest.Block{llmtest.Text("<analysis>scratch</analysis><summary>The user asked about notes.txt; it was read.</summary>")}, Side: true},
		llmtest.Reply("Continuing after the summary."))
	r := sb.Run(t, "", "-p", "what is in notes.txt?", "--model", "sonnet")
	if r.Code != 0 || strings.TrimSpace(r.Stdout) != "Continuing after the summary." {
		t.Fatalf("code %d out %q err %q", r.Code, r.Stdout, r.Stderr)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3 (tool turn, summary, continuation)", len(reqs))
	}
	summaryReq, next := reqs[1], reqs[2]
	if string(summaryReq.Body[:strings.Index(string(summaryReq.Body), `"messages"`)]) != string(reqs[0].Body[:strings.Index(string(reqs[0].Body), `"messages"`)]) {
		t.Error("the summary request does not reuse the conversation's system prompt and tools")
	}
	var all []string
	for _, m := range next.Messages {
		all = append(all, m.Text())
		for _, b := range m.Content {
			all = append(all, b.ResultText())
		}
	}
	joined := strings.Join(all, "\n")
	if !strings.Contains(joined, "The user asked about notes.txt") {
		t.Error("the continuation lacks the summary")
	}
	if strings.Contains(joined, "scratch") {
		t.Error("the <analysis> scratch text was kept")
	}
	if !strings.Contains(joined, "tangerine") {
		t.Error("the file read before the compaction was not restored")
	}
	data, _ := os.ReadFile(sb.Transcripts(t)[0])
	if !strings.Contains(string(data), `"compact_boundary"`) {
		t.Error("no compaction boundary in the transcript")
	}
}
