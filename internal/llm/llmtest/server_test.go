package llmtest

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

func post(t *testing.T, url, body string) int {
	t.Helper()
	resp, err := http.Post(url+"/v1/messages", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// TestMalformedMessageIsReportedWhenFoundAfterAnswering: a request that
// any turn would take is answered before its messages are decoded; a
// message that then fails to decode is still a protocol violation, and
// Requests and Violations wait for that decoding.
func TestMalformedMessageIsReportedWhenFoundAfterAnswering(t *testing.T) {
	srv, err := Start(Reply("one"), Reply("two"))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	if code := post(t, srv.URL, `{"model":"m","messages":[{"role":"user","content":"hi"}]}`); code != 200 {
		t.Fatalf("good request: status %d", code)
	}
	if code := post(t, srv.URL, `{"model":"m","messages":[{"role":"user","content":5}]}`); code != 200 {
		t.Fatalf("request answered before decoding: status %d, want 200", code)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || len(reqs[0].Messages) != 1 || reqs[0].Messages[0].Text() != "hi" {
		t.Fatalf("requests = %+v, want the first one decoded", reqs)
	}
	v := srv.Violations()
	if len(v) != 1 || !strings.Contains(v[0], "request 1: malformed body") {
		t.Errorf("violations = %q, want one naming request 1's malformed body", v)
	}
}

// TestSelectiveTurnDecodesBeforeAnswering: a turn that matches on content
// needs the request decoded first, so a malformed one is refused with 400
// and leaves the turn for a later request.
func TestSelectiveTurnDecodesBeforeAnswering(t *testing.T) {
	srv, err := Start(Turn{MatchText: "hello", Blocks: []Block{Text("matched")}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	if code := post(t, srv.URL, `{"model":"m","messages":[{"role":"user","content":5}]}`); code != 400 {
		t.Errorf("malformed request: status %d, want 400", code)
	}
	if code := post(t, srv.URL, `{"model":"m","messages":[{"role":"user","content":"hello"}]}`); code != 200 {
		t.Errorf("matching request: status %d, want 200", code)
	}
	if n := srv.Remaining(); n != 0 {
		t.Errorf("%d turns left, want the matching request to take the turn", n)
	}
}
