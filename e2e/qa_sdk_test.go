package e2e

import (
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// An SDK client resuming a session (options.resume, which spawns reins
// with --resume=<id> and sends initialize with a system prompt) must talk
// to a model that still has the conversation.
func TestQASDKResumeKeepsHistoryAfterInitialize(t *testing.T) {
	srv := server(t, llmtest.Reply("the first answer is 42"), llmtest.Reply("still here"), llmtest.Reply("and here"))
	sb := e2etest.NewSandbox(t, srv.URL)
	if r := sb.Run(t, "", "-p", "remember 42"); r.Code != 0 {
		t.Fatalf("first run: code %d: %s", r.Code, r.Stderr)
	}
	ids := sessionIDs(t, sb)
	if len(ids) != 1 {
		t.Fatalf("sessions %v", ids)
	}
	for i, initReq := range []string{
		`{"type":"control_request","request_id":"i1","request":{"subtype":"initialize","systemPrompt":[""]}}`,
		`{"type":"control_request","request_id":"i1","request":{"subtype":"initialize","appendSystemPrompt":"Be brief."}}`,
	} {
		stdin := initReq + "\n" +
			`{"type":"user","session_id":"","message":{"role":"user","content":"what was it?"},"parent_tool_use_id":null}` + "\n"
		r := sb.Run(t, stdin, "--output-format", "stream-json", "--verbose", "--input-format", "stream-json", "--resume="+ids[0])
		if r.Code != 0 {
			t.Fatalf("resume %d: code %d: %s", i, r.Code, r.Stderr)
		}
		req := srv.Requests()[len(srv.Requests())-1]
		if !carries(req, "remember 42") || !carries(req, "the first answer is 42") {
			t.Errorf("resume %d: the request lost the resumed conversation: %q", i, historyTexts(req))
		}
		var res map[string]any
		lines := decodeLines(t, r.Stdout)
		for _, l := range lines {
			if l["type"] == "result" {
				res = l
			}
		}
		if res == nil || res["session_id"] != ids[0] {
			t.Errorf("resume %d: result %v, want session %s", i, res, ids[0])
		}
	}
}
