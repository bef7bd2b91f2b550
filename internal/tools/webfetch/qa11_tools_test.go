package webfetch

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A PDF, an image or any other content that is not text is saved to a
// file named for its type, and the result gives the path for Read,
// without asking the small model about bytes it cannot read; the saved
// file is fetched again once removed. A body typed
// application/octet-stream that is plain text is still read as text.
func TestQA11BinaryContentIsSavedForRead(t *testing.T) {
	pdf := "%PDF-1.4\n\x00\x01\x02binary\xff\xfe\n%%EOF\n"
	hits := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/doc.pdf":
			hits++
			w.Header().Set("Content-Type", "application/pdf")
			fmt.Fprint(w, pdf)
		case "/raw":
			w.Header().Set("Content-Type", "application/octet-stream")
			fmt.Fprint(w, "plain words served as bytes")
		}
	}))
	defer srv.Close()
	p := &fakeProvider{answer: "summary"}
	wf := New(p, "small-model", srv.Client(), nil)
	wf.SaveDir = t.TempDir()

	r, err := fetch(t, wf, srv.URL+"/doc.pdf", "what does it say?")
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(wf.SaveDir, "*.pdf"))
	if len(files) != 1 {
		t.Fatalf("saved files = %v, want one .pdf", files)
	}
	if b, _ := os.ReadFile(files[0]); string(b) != pdf {
		t.Errorf("saved file holds %q, want the response body", b)
	}
	text := r.Content[0].Text
	if !strings.Contains(text, files[0]) || !strings.Contains(text, "application/pdf") || !strings.Contains(text, "Read") || r.IsError {
		t.Errorf("result = %q (error %v), want the saved path, the type and a pointer to Read", text, r.IsError)
	}
	if out := r.Data.(*Output); out.Code != 200 || out.Bytes != len(pdf) || out.Result != text {
		t.Errorf("data = %+v", out)
	}
	if len(p.reqs) != 0 {
		t.Errorf("the small model was asked %d times about a PDF", len(p.reqs))
	}

	os.Remove(files[0])
	if r, err = fetch(t, wf, srv.URL+"/doc.pdf", "again"); err != nil || hits != 2 {
		t.Fatalf("fetch after the saved file was removed: %v, %d fetches, want 2", err, hits)
	}
	if files, _ = filepath.Glob(filepath.Join(wf.SaveDir, "*.pdf")); len(files) != 1 || !strings.Contains(r.Content[0].Text, files[0]) {
		t.Errorf("after a refetch: files %v, result %q", files, r.Content[0].Text)
	}

	if r, err = fetch(t, wf, srv.URL+"/raw", "read it"); err != nil {
		t.Fatalf("octet-stream text: %v", err)
	}
	if r.Content[0].Text != "summary" || len(p.reqs) != 1 {
		t.Errorf("octet-stream text: %q, %d model requests; want it read by the model", r.Content[0].Text, len(p.reqs))
	}
}

// Redirects that change the scheme (https to http, or the other way) or
// carry a user name and password are reported, not followed, as Claude
// Code does; a same-host, same-scheme redirect is still followed.
func TestQA11RedirectsThatChangeSchemeOrAddCredentialsAreReported(t *testing.T) {
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := strings.TrimPrefix(srv.URL, "http://")
		switch r.URL.Path {
		case "/to-https":
			http.Redirect(w, r, "https://"+host+"/page", http.StatusMovedPermanently)
		case "/creds":
			http.Redirect(w, r, "http://user:secret@"+host+"/page", http.StatusFound)
		case "/same":
			http.Redirect(w, r, "/page", http.StatusFound)
		case "/page":
			fmt.Fprint(w, "the page")
		}
	}))
	defer srv.Close()
	wf := New(nil, "", srv.Client(), nil)
	host := strings.TrimPrefix(srv.URL, "http://")
	for path, want := range map[string]string{
		"/to-https": "https://" + host + "/page",
		"/creds":    "http://user:secret@" + host + "/page",
	} {
		r, err := fetch(t, wf, srv.URL+path, "x")
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if got := r.Content[0].Text; !strings.Contains(got, "redirects (HTTP") || !strings.Contains(got, want) {
			t.Errorf("%s: result %q, want the redirect to %s reported", path, got, want)
		}
	}
	if r, err := fetch(t, wf, srv.URL+"/same", "x"); err != nil || r.Content[0].Text != "the page" {
		t.Errorf("same-host redirect: %v, %q", err, r.Content[0].Text)
	}
}

// CLAUDE_CODE_WEBFETCH_CACHE_TTL_MS sets how long a page is reused and
// CLAUDE_CODE_WEBFETCH_DEADLINE_MS how long one fetch may take (0: no
// limit); values that are not plain digits keep the defaults.
func TestQA11WebFetchLimitsFromTheEnvironment(t *testing.T) {
	env := func(kv ...string) func(string) string {
		m := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	for _, tt := range []struct {
		get      func(string) string
		deadline time.Duration
		ttl      time.Duration
	}{
		{env(), Timeout, CacheTTL},
		{env(DeadlineEnv, "300000", CacheTTLEnv, "60000"), 5 * time.Minute, time.Minute},
		{env(DeadlineEnv, "0", CacheTTLEnv, "0"), 0, CacheTTL},
		{env(DeadlineEnv, "1.5", CacheTTLEnv, "-5"), Timeout, CacheTTL},
		{env(DeadlineEnv, "5s", CacheTTLEnv, "99999999999999999999999"), Timeout, CacheTTL},
	} {
		wf := New(nil, "", nil, nil).Limited(EnvLimits(tt.get))
		if d, ttl := wf.limits(); d != tt.deadline || ttl != tt.ttl {
			t.Errorf("%+v: deadline %v, cache %v; want %v, %v", wf.Limits, d, ttl, tt.deadline, tt.ttl)
		}
	}

	s := newSite(t)
	clk := &clock{t: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)}
	wf := New(nil, "", s.srv.Client(), clk.now).Limited(EnvLimits(env(CacheTTLEnv, "60000")))
	for i, step := range []struct {
		advance time.Duration
		want    int64
	}{{0, 1}, {30 * time.Second, 1}, {31 * time.Second, 2}} {
		clk.add(step.advance)
		if _, err := fetch(t, wf, s.srv.URL+"/page", fmt.Sprint("prompt ", i)); err != nil {
			t.Fatal(err)
		}
		if got := s.count("/page"); got != step.want {
			t.Errorf("step %d: server hit %d times, want %d", i, got, step.want)
		}
	}

	wf = New(nil, "", s.srv.Client(), nil).Limited(Limits{Deadline: 50 * time.Millisecond})
	if _, err := fetch(t, wf, s.srv.URL+"/slow", "x"); err == nil || !strings.Contains(err.Error(), "no complete answer within 50ms") {
		t.Errorf("a fetch past its deadline: %v", err)
	}
}
