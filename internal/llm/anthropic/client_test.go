package anthropic_test

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"reins/internal/llm"
	"reins/internal/llm/anthropic"
	"reins/internal/llm/llmtest"
)

func start(t *testing.T, turns ...llmtest.Turn) (*llmtest.Server, *anthropic.Client) {
	t.Helper()
	srv, err := llmtest.Start(turns...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	c := anthropic.New(anthropic.Config{BaseURL: srv.URL, APIKey: "sk-test", RetryBase: time.Millisecond, IdleTimeout: 300 * time.Millisecond})
	return srv, c
}

func request(text string) *llm.Request {
	return &llm.Request{Model: "claude-sonnet-4-5", MaxTokens: 100,
		System:   []llm.SystemBlock{{Text: "sys", Cache: true}},
		Tools:    []llm.ToolSpec{{Name: "Read", Description: "reads", InputSchema: []byte(`{"type":"object"}`)}},
		Messages: []*llm.Message{llm.NewUserText(text)}}
}

// collect reads a whole response into a message.
func collect(t *testing.T, st llm.Stream) (*llm.Message, error) {
	t.Helper()
	var acc llm.Accumulator
	for {
		ev, err := st.Next()
		if err == io.EOF {
			return acc.Message(), nil
		}
		if err != nil {
			return acc.Message(), err
		}
		if _, _, err := acc.Add(ev); err != nil {
			return nil, err
		}
	}
}

func TestStreamAssemblesTextToolUseAndThinking(t *testing.T) {
	srv, c := start(t, llmtest.Calls(
		llmtest.Thinking("let me think", "sig-1"),
		llmtest.Text("Reading both files."),
		llmtest.ToolUse("toolu_1", "Read", map[string]any{"file_path": "/a.go"}),
		llmtest.ToolUse("toolu_2", "Read", map[string]any{"file_path": "/b.go", "limit": 5}),
	))
	st, err := c.Stream(context.Background(), request("hi"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	msg, err := collect(t, st)
	if err != nil {
		t.Fatal(err)
	}
	if msg.StopReason != "tool_use" || len(msg.Content) != 4 {
		t.Fatalf("stop %q, %d blocks", msg.StopReason, len(msg.Content))
	}
	if b := msg.Content[0]; b.Thinking != "let me think" || b.Signature != "sig-1" {
		t.Errorf("thinking block = %+v", b)
	}
	if got := string(msg.Content[3].Input); got != `{"file_path":"/b.go","limit":5}` {
		t.Errorf("tool input = %s", got)
	}
	r := srv.Requests()[0]
	if r.Header.Get("x-api-key") != "sk-test" || r.Header.Get("anthropic-version") != "2023-06-01" {
		t.Errorf("headers = %v", r.Header)
	}
	if n := strings.Count(string(r.Body), `"cache_control"`); n != 3 {
		t.Errorf("breakpoints = %d, want 3 (system, last tool, last message)", n)
	}
	srv.AssertClean(t)
}

func TestRetriesHonourRetryAfterAndStatus(t *testing.T) {
	srv, c := start(t,
		llmtest.RateLimited("0"),
		llmtest.Overloaded(),
		llmtest.Turn{Fault: &llmtest.Fault{Status: 500, Message: "boom"}},
		llmtest.Reply("ok"))
	var retries []llm.RetryInfo
	req := request("hi")
	req.OnRetry = func(ri llm.RetryInfo) { retries = append(retries, ri) }
	st, err := c.Stream(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	msg, err := collect(t, st)
	if err != nil || msg.Text() != "ok" {
		t.Fatalf("msg %q err %v", msg.Text(), err)
	}
	if len(retries) != 3 {
		t.Errorf("retries = %d, want 3", len(retries))
	}
	if got := len(srv.Requests()); got != 4 {
		t.Errorf("requests = %d, want 4", got)
	}
}

func TestNoRetryOnBadRequestOrShouldRetryFalse(t *testing.T) {
	_, c := start(t,
		llmtest.Turn{Fault: &llmtest.Fault{Status: 503, ShouldRetry: "false"}},
		llmtest.PromptTooLong())
	_, err := c.Stream(context.Background(), request("a"))
	var ae *llm.APIError
	if !errors.As(err, &ae) || ae.Status != 503 {
		t.Fatalf("err = %v, want 503 unretried", err)
	}
	_, err = c.Stream(context.Background(), request("b"))
	if !llm.IsPromptTooLong(err) {
		t.Fatalf("err = %v, want prompt too long", err)
	}
}

func TestMidStreamFaultsSurfaceAsErrors(t *testing.T) {
	cases := []struct {
		name  string
		fault llmtest.Fault
	}{
		{"reset", llmtest.Fault{After: 4, Reset: true}},
		{"stall", llmtest.Fault{After: 4, Stall: true}},
		{"malformed", llmtest.Fault{After: 4, Malformed: true}},
		{"error event", llmtest.Fault{After: 4, ErrorEvent: true}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := tc.fault
			_, c := start(t, llmtest.Turn{Blocks: []llmtest.Block{llmtest.Text(strings.Repeat("x", 200))}, Fault: &f})
			st, err := c.Stream(context.Background(), request("hi"))
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			_, err = collect(t, st)
			if err == nil {
				t.Fatal("want an error")
			}
			if !llm.IsRetryable(err) {
				t.Errorf("err %v should be retryable (connection-level)", err)
			}
		})
	}
}

func TestErrorEventBeforeContentIsRetried(t *testing.T) {
	srv, c := start(t,
		llmtest.Turn{Blocks: []llmtest.Block{llmtest.Text("x")}, Fault: &llmtest.Fault{After: 0, ErrorEvent: true}},
		llmtest.Reply("second"))
	st, err := c.Stream(context.Background(), request("hi"))
	if err != nil {
		t.Fatal(err)
	}
	msg, err := collect(t, st)
	if err != nil || msg.Text() != "second" {
		t.Fatalf("got %q, %v", msg.Text(), err)
	}
	if len(srv.Requests()) != 2 {
		t.Errorf("requests = %d", len(srv.Requests()))
	}
}

func TestAdjacentSameRoleMessagesAreMerged(t *testing.T) {
	req := request("reminder")
	req.Messages = append(req.Messages, llm.NewUserText("prompt"))
	body, err := anthropic.EncodeRequest(req)
	if err != nil {
		t.Fatal(err)
	}
	want := `"messages":[{"role":"user","content":[{"type":"text","text":"reminder"},{"type":"text","text":"prompt","cache_control":{"type":"ephemeral"}}]}]`
	if !strings.Contains(string(body), want) {
		t.Errorf("body = %s\nwant it to contain %s", body, want)
	}
}

func TestRefreshKeyAfter401(t *testing.T) {
	srv, _ := start(t, llmtest.Turn{Fault: &llmtest.Fault{Status: 401, ErrorType: "authentication_error", Message: "invalid x-api-key"}}, llmtest.Reply("ok"))
	c := anthropic.New(anthropic.Config{BaseURL: srv.URL, APIKey: "old", RetryBase: time.Millisecond,
		RefreshKey: func(context.Context) (string, error) { return "new", nil }})
	st, err := c.Stream(context.Background(), request("hi"))
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	rs := srv.Requests()
	if rs[0].Header.Get("x-api-key") != "old" || rs[1].Header.Get("x-api-key") != "new" {
		t.Errorf("keys = %q, %q", rs[0].Header.Get("x-api-key"), rs[1].Header.Get("x-api-key"))
	}
}

// TestPreconnectWarmsTheConnectionTheFirstRequestUses: the HEAD request
// carries no key, is not a model request, and leaves an open connection
// that the first Stream reuses (one TCP connection in all).
func TestPreconnectWarmsTheConnectionTheFirstRequestUses(t *testing.T) {
	fake, err := llmtest.Start(llmtest.Reply("hi"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fake.Close() })
	var conns atomic.Int32
	var heads []http.Header
	var mu sync.Mutex
	hs := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodHead {
			mu.Lock()
			heads = append(heads, r.Header.Clone())
			mu.Unlock()
		}
		fake.ServeHTTP(w, r)
	}))
	hs.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			conns.Add(1)
		}
	}
	hs.Start()
	t.Cleanup(hs.Close)
	c := anthropic.New(anthropic.Config{BaseURL: hs.URL, APIKey: "sk-secret", UserAgent: "reins/test"})

	c.Preconnect(context.Background())
	mu.Lock()
	if len(heads) != 1 || heads[0].Get("x-api-key") != "" || heads[0].Get("Authorization") != "" || heads[0].Get("User-Agent") != "reins/test" {
		t.Errorf("preconnect requests: %v; want one HEAD without credentials", heads)
	}
	mu.Unlock()
	if n := len(fake.Requests()); n != 0 {
		t.Errorf("the preconnect counted as %d model requests", n)
	}
	st, err := c.Stream(context.Background(), request("hi"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := collect(t, st); err != nil {
		t.Fatal(err)
	}
	st.Close()
	if n := conns.Load(); n != 1 {
		t.Errorf("%d connections opened, want 1 (the warmed one reused)", n)
	}
	fake.AssertClean(t)
}
