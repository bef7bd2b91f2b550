package webfetch

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"reins/internal/llm"
	"reins/internal/tool"
)

// fakeProvider answers every request with a fixed text and records the
// requests.
type fakeProvider struct {
	answer string
	err    error
	mu     sync.Mutex
	reqs   []*llm.Request
}

func (f *fakeProvider) Stream(ctx context.Context, req *llm.Request) (llm.Stream, error) {
	f.mu.Lock()
	f.reqs = append(f.reqs, req)
	f.mu.Unlock()
	if f.err != nil {
		return nil, f.err
	}
	return textStream(f.answer), nil
}

// textStream replays the events of an assistant message holding text.
func textStream(text string) llm.Stream {
	evs := []llm.Event{
		{Type: llm.EventMessageStart, Message: &llm.Message{ID: "msg_1", Model: "small"}},
		{Type: llm.EventContentBlockStart, Index: 0, Block: &llm.ContentBlock{Type: llm.BlockText}},
	}
	for _, part := range strings.SplitAfter(text, " ") {
		evs = append(evs, llm.Event{Type: llm.EventContentBlockDelta, Index: 0, DeltaType: llm.DeltaText, Delta: part})
	}
	evs = append(evs,
		llm.Event{Type: llm.EventContentBlockStop, Index: 0},
		llm.Event{Type: llm.EventMessageDelta, StopReason: "end_turn"},
		llm.Event{Type: llm.EventMessageStop})
	return &sliceStream{evs: evs}
}

type sliceStream struct{ evs []llm.Event }

func (s *sliceStream) Next() (llm.Event, error) {
	if len(s.evs) == 0 {
		return llm.Event{}, io.EOF
	}
	ev := s.evs[0]
	s.evs = s.evs[1:]
	return ev, nil
}

func (s *sliceStream) Close() error { return nil }

// clock is a settable time source.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

const tablePage = `<!doctype html><html><head><title>T</title><script>alert(1)</script></head><body>
<h1>Release notes</h1><p>Version <b>2.1</b> is out. See <a href="/docs">the docs</a>.</p>
<table><thead><tr><th>Flag</th><th>Default</th></tr></thead>
<tbody><tr><td>--fast</td><td>off</td></tr><tr><td>--color</td><td>auto</td></tr></tbody></table>
</body></html>`

// site serves the pages the tests fetch and counts requests per path.
type site struct {
	srv   *httptest.Server
	other *httptest.Server
	hits  sync.Map // path -> *atomic.Int64
}

func newSite(t *testing.T) *site {
	s := &site{}
	s.other = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "elsewhere")
	}))
	t.Cleanup(s.other.Close)
	mux := http.NewServeMux()
	mux.HandleFunc("/page", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, tablePage)
	})
	mux.HandleFunc("/plain", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "just *text*")
	})
	mux.HandleFunc("/latin1", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=iso-8859-1")
		w.Write([]byte("<p>caf\xe9</p>"))
	})
	mux.HandleFunc("/same", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/hop", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/hop", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/page", http.StatusFound)
	})
	mux.HandleFunc("/cross", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, s.other.URL+"/landing", http.StatusFound)
	})
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/loop", http.StatusFound)
	})
	mux.HandleFunc("/missing", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no", http.StatusNotFound)
	})
	mux.HandleFunc("/image", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Write([]byte("\x89PNG\r\n"))
	})
	mux.HandleFunc("/huge", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		chunk := strings.Repeat("x", 1<<20)
		for range 11 {
			if _, err := io.WriteString(w, chunk); err != nil {
				return
			}
		}
	})
	mux.HandleFunc("/long", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, strings.Repeat("word ", 30_000))
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	})
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := s.hits.LoadOrStore(r.URL.Path, new(atomic.Int64))
		n.(*atomic.Int64).Add(1)
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *site) count(path string) int64 {
	n, ok := s.hits.Load(path)
	if !ok {
		return 0
	}
	return n.(*atomic.Int64).Load()
}

func fetch(t *testing.T, wf *Tool, url, prompt string) (*tool.Result, error) {
	t.Helper()
	raw, _ := json.Marshal(Input{URL: url, Prompt: prompt})
	c := &tool.Call{ID: "toolu_1", Name: Name}
	if err := (&tool.Schemas{}).Validate(wf.InputSchema(), raw); err != nil {
		return nil, err
	}
	if err := wf.Validate(context.Background(), c, raw); err != nil {
		return nil, err
	}
	return wf.Call(context.Background(), c, raw, nil)
}

func TestFetchWithoutModelReturnsMarkdown(t *testing.T) {
	s := newSite(t)
	wf := New(nil, "", s.srv.Client(), nil)
	tests := []struct {
		path  string
		wants []string
		not   []string
	}{
		{"/page", []string{"# Release notes", "Version **2.1** is out", "[the docs](" + s.srv.URL + "/docs)",
			"| Flag | Default |", "| --fast | off |", "| --color | auto |"}, []string{"alert(1)"}},
		{"/same", []string{"# Release notes"}, nil},
		{"/plain", []string{"just *text*"}, nil},
		{"/latin1", []string{"café"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			r, err := fetch(t, wf, s.srv.URL+tt.path, "what is new?")
			if err != nil {
				t.Fatal(err)
			}
			got := squeeze(r.Content[0].Text)
			for _, w := range tt.wants {
				if !strings.Contains(got, w) {
					t.Errorf("result lacks %q:\n%s", w, got)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(got, n) {
					t.Errorf("result holds %q:\n%s", n, got)
				}
			}
			out := r.Data.(*Output)
			if out.Code != 200 || out.CodeText != "OK" || out.Bytes == 0 || out.Result != r.Content[0].Text {
				t.Errorf("data = %+v", out)
			}
		})
	}
	if got := s.count("/hop"); got != 1 {
		t.Errorf("same-host redirect chain: /hop fetched %d times, want 1", got)
	}
}

func TestFetchReportsCrossHostRedirect(t *testing.T) {
	s := newSite(t)
	wf := New(nil, "", s.srv.Client(), nil)
	r, err := fetch(t, wf, s.srv.URL+"/cross", "x")
	if err != nil {
		t.Fatal(err)
	}
	want := s.other.URL + "/landing"
	if got := r.Content[0].Text; !strings.Contains(got, "redirects (HTTP 302 Found) to a different host") || !strings.Contains(got, fmt.Sprintf("url %q", want)) {
		t.Errorf("result = %q", got)
	}
	if r.IsError {
		t.Error("a cross-host redirect is an answer, not an error")
	}
	if out := r.Data.(*Output); out.Code != 302 {
		t.Errorf("data = %+v", out)
	}
}

func TestFetchAsksTheSmallModel(t *testing.T) {
	s := newSite(t)
	p := &fakeProvider{answer: "The --fast flag is off by default."}
	wf := New(p, "small-model", s.srv.Client(), nil)
	r, err := fetch(t, wf, s.srv.URL+"/page", "What is the default of --fast?")
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Content[0].Text; got != p.answer {
		t.Errorf("result = %q, want the model's answer", got)
	}
	if len(p.reqs) != 1 {
		t.Fatalf("%d model requests, want 1", len(p.reqs))
	}
	req := p.reqs[0]
	msg := squeeze(req.Messages[0].Text())
	if req.Model != "small-model" || !strings.Contains(msg, "What is the default of --fast?") ||
		!strings.Contains(msg, "| --fast | off |") || !strings.Contains(msg, s.srv.URL+"/page") {
		t.Errorf("request model %q, message:\n%s", req.Model, msg)
	}
}

// squeeze collapses runs of spaces, which the Markdown tables pad with.
func squeeze(s string) string {
	for strings.Contains(s, "  ") {
		s = strings.ReplaceAll(s, "  ", " ")
	}
	return s
}

func TestFetchModelFailure(t *testing.T) {
	s := newSite(t)
	wf := New(&fakeProvider{err: &llm.APIError{Status: 529, Message: "overloaded"}}, "small", s.srv.Client(), nil)
	if _, err := fetch(t, wf, s.srv.URL+"/page", "x"); err == nil || !strings.Contains(err.Error(), "with small") {
		t.Errorf("err = %v", err)
	}
}

func TestFetchCachesFor15Minutes(t *testing.T) {
	s := newSite(t)
	clk := &clock{t: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)}
	wf := New(nil, "", s.srv.Client(), clk.now)
	for i, step := range []struct {
		advance time.Duration
		want    int64
	}{{0, 1}, {time.Minute, 1}, {14 * time.Minute, 2}, {5 * time.Minute, 2}} {
		clk.add(step.advance)
		if _, err := fetch(t, wf, s.srv.URL+"/page", fmt.Sprint("prompt ", i)); err != nil {
			t.Fatal(err)
		}
		if got := s.count("/page"); got != step.want {
			t.Errorf("step %d: server hit %d times, want %d", i, got, step.want)
		}
	}
}

func TestFetchErrors(t *testing.T) {
	s := newSite(t)
	wf := New(nil, "", s.srv.Client(), nil)
	tests := []struct{ url, prompt, want string }{
		{s.srv.URL + "/missing", "x", "HTTP 404"},
		{s.srv.URL + "/huge", "x", "over the 10 MB limit"},
		{s.srv.URL + "/loop", "x", "more than 10 redirects"},
		{"ftp://example.com/x", "x", "must start with http"},
		{"https:///nohost", "x", "has no host"},
		{"https://user:pw@example.com/", "x", "user name or password"},
		{"https://example.com/" + strings.Repeat("a", MaxURLLength), "x", "longer than"},
		{s.srv.URL + "/page", "  ", "prompt: must not be empty"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			_, err := fetch(t, wf, tt.url, tt.prompt)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestFetchTruncatesLongPagesWithoutModel(t *testing.T) {
	s := newSite(t)
	wf := New(nil, "", s.srv.Client(), nil)
	r, err := fetch(t, wf, s.srv.URL+"/long", "x")
	if err != nil {
		t.Fatal(err)
	}
	got := r.Content[0].Text
	if len(got) > MaxResultChars || !strings.Contains(got, "[The page continues: ") {
		t.Errorf("result is %d bytes, ends %q", len(got), got[len(got)-80:])
	}
}

func TestFetchStopsWhenCancelled(t *testing.T) {
	s := newSite(t)
	wf := New(nil, "", s.srv.Client(), nil)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	raw, _ := json.Marshal(Input{URL: s.srv.URL + "/slow", Prompt: "x"})
	start := time.Now()
	_, err := wf.Call(ctx, &tool.Call{}, raw, nil)
	if err == nil || time.Since(start) > 5*time.Second {
		t.Errorf("err = %v after %v", err, time.Since(start))
	}
}

func TestCheckURLUpgradesToHTTPS(t *testing.T) {
	tests := []struct{ in, want string }{
		{"http://example.com/a?b=1#frag", "https://example.com/a?b=1"},
		{"https://example.com/", "https://example.com/"},
		{"http://localhost:8080/x", "http://localhost:8080/x"},
		{"http://127.0.0.1:9/x", "http://127.0.0.1:9/x"},
		{"http://[::1]:9/x", "http://[::1]:9/x"},
		{"http://app.localhost/", "http://app.localhost/"},
	}
	for _, tt := range tests {
		u, err := checkURL(tt.in)
		if err != nil {
			t.Fatalf("%s: %v", tt.in, err)
		}
		if u.String() != tt.want {
			t.Errorf("checkURL(%q) = %q, want %q", tt.in, u, tt.want)
		}
	}
}

func TestSameHost(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"https://example.com/a", "https://example.com/b", true},
		{"https://example.com/a", "https://www.example.com/b", true},
		{"http://example.com/a", "https://example.com/a", true},
		{"https://example.com/a", "https://docs.example.com/a", false},
		{"http://127.0.0.1:1/a", "http://127.0.0.1:2/a", false},
		{"https://example.com:443/a", "https://example.com/a", true},
	}
	for _, tt := range tests {
		a, _ := checkURL(tt.a)
		b, _ := checkURL(tt.b)
		if got := sameHost(a, b); got != tt.want {
			t.Errorf("sameHost(%s, %s) = %v", tt.a, tt.b, got)
		}
	}
}
