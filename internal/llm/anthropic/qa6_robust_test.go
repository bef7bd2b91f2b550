package anthropic_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"reins/internal/llm"
	"reins/internal/llm/anthropic"
	"reins/internal/llm/llmtest"
)

// odd starts a server that answers every request with h and counts them.
func odd(t *testing.T, h http.HandlerFunc) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		h(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func oddClient(url string) *anthropic.Client {
	return anthropic.New(anthropic.Config{BaseURL: url, APIKey: "sk-test", RetryBase: time.Millisecond, IdleTimeout: time.Second, MaxRetries: 3})
}

func TestAnswerThatIsNotAnEventStreamFailsAtOnceQuotingIt(t *testing.T) {
	cases := []struct {
		name, ctype, body, want string
	}{
		{"captive portal page", "text/html; charset=utf-8",
			"<html><head><title>Corporate proxy login</title></head><body>Sign in</body></html>", `"Corporate proxy login"`},
		{"gateway JSON", "application/json", `{"hello":1}`, `{\"hello\":1}`},
		{"empty body", "text/plain", "", "is empty"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, n := odd(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", tc.ctype)
				fmt.Fprint(w, tc.body)
			})
			_, err := oddClient(srv.URL).Stream(context.Background(), request("hi"))
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			for _, want := range []string{tc.want, "not an event stream", srv.URL + "/v1/messages", "ANTHROPIC_BASE_URL"} {
				if !strings.Contains(msg, want) && !(want == "not an event stream" && strings.Contains(msg, "is empty")) {
					t.Errorf("error %q does not contain %q", msg, want)
				}
			}
			if got := n.Load(); got != 1 {
				t.Errorf("the server was asked %d times; the same page comes back each time, so once is enough", got)
			}
		})
	}
}

func TestEventStreamWithAnotherContentTypeIsStillRead(t *testing.T) {
	srv, err := llmtest.Start(llmtest.Reply("fine"))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	// A proxy that rewrites the content type of the fake's stream.
	proxy, _ := odd(t, func(w http.ResponseWriter, r *http.Request) {
		req, _ := http.NewRequestWithContext(r.Context(), r.Method, srv.URL+r.URL.String(), r.Body)
		req.Header = r.Header.Clone()
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			http.Error(w, err.Error(), 502)
			return
		}
		defer resp.Body.Close()
		w.Header().Set("Content-Type", "text/plain")
		buf := make([]byte, 4096)
		for {
			k, err := resp.Body.Read(buf)
			w.Write(buf[:k])
			if err != nil {
				return
			}
		}
	})
	st, err := oddClient(proxy.URL).Stream(context.Background(), request("hi"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	msg, err := collect(t, st)
	if err != nil {
		t.Fatal(err)
	}
	if len(msg.Content) != 1 || msg.Content[0].Text != "fine" {
		t.Fatalf("content = %+v", msg.Content)
	}
}

func TestNotFoundNamesTheModelAndAddress(t *testing.T) {
	srv, _ := odd(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(404)
		fmt.Fprint(w, `{"type":"error","error":{"type":"not_found_error","message":"Not Found"}}`)
	})
	_, err := oddClient(srv.URL).Stream(context.Background(), request("hi"))
	var ae *llm.APIError
	if !errors.As(err, &ae) || ae.Status != 404 {
		t.Fatalf("err = %v, want a wrapped 404 APIError", err)
	}
	for _, want := range []string{`"claude-sonnet-4-5"`, srv.URL + "/v1/messages", "--model"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %s", err, want)
		}
	}
}

func TestHTMLErrorPageIsShownByItsTitle(t *testing.T) {
	srv, _ := odd(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(400)
		fmt.Fprint(w, "<html><head><title>400 Bad Request</title><style>body{}</style></head><body><h1>Request header or cookie too large</h1><hr>nginx</body></html>")
	})
	_, err := oddClient(srv.URL).Stream(context.Background(), request("hi"))
	var ae *llm.APIError
	if !errors.As(err, &ae) {
		t.Fatalf("err = %v", err)
	}
	if ae.Message != "400 Bad Request" {
		t.Errorf("message = %q, want the page's title", ae.Message)
	}
}

func TestRedirectThatWouldDropTheRequestIsReportedNotFollowed(t *testing.T) {
	for _, status := range []int{301, 302, 303} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			var gets atomic.Int32
			srv, n := odd(t, func(w http.ResponseWriter, r *http.Request) {
				if r.Method != http.MethodPost {
					gets.Add(1)
					http.NotFound(w, r)
					return
				}
				http.Redirect(w, r, "/elsewhere/v1/messages", status)
			})
			_, err := oddClient(srv.URL).Stream(context.Background(), request("hi"))
			if err == nil {
				t.Fatal("no error")
			}
			for _, want := range []string{"redirects", "/elsewhere/v1/messages", "ANTHROPIC_BASE_URL"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not contain %q", err, want)
				}
			}
			if gets.Load() != 0 || n.Load() != 1 {
				t.Errorf("requests: %d in all, %d GETs; want the one POST, not retried or followed", n.Load(), gets.Load())
			}
		})
	}
}

func TestRedirectToAnotherHostDoesNotCarryTheKey(t *testing.T) {
	var leaked atomic.Bool
	other, _ := odd(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("x-api-key") != "" {
			leaked.Store(true)
		}
		http.NotFound(w, r)
	})
	srv, _ := odd(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, strings.Replace(other.URL, "127.0.0.1", "localhost", 1)+"/v1/messages", http.StatusTemporaryRedirect)
	})
	_, err := oddClient(srv.URL).Stream(context.Background(), request("hi"))
	if err == nil || !strings.Contains(err.Error(), "redirects") {
		t.Fatalf("err = %v, want the redirect reported", err)
	}
	if leaked.Load() {
		t.Error("the API key was sent to the other host")
	}
}

func TestRedirectKeepingTheRequestIsFollowed(t *testing.T) {
	srv, err := llmtest.Start(llmtest.Reply("moved"))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	mux := http.NewServeMux()
	mux.HandleFunc("/old/v1/messages", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/v1/messages?beta=true", http.StatusPermanentRedirect)
	})
	mux.HandleFunc("/v1/messages", func(w http.ResponseWriter, r *http.Request) {
		req, _ := http.NewRequestWithContext(r.Context(), r.Method, srv.URL+r.URL.String(), r.Body)
		req.Header = r.Header.Clone()
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			http.Error(w, err.Error(), 502)
			return
		}
		defer resp.Body.Close()
		w.Header().Set("Content-Type", resp.Header.Get("Content-Type"))
		buf := make([]byte, 4096)
		for {
			k, err := resp.Body.Read(buf)
			w.Write(buf[:k])
			if err != nil {
				return
			}
		}
	})
	front := httptest.NewServer(mux)
	defer front.Close()
	st, err := oddClient(front.URL+"/old").Stream(context.Background(), request("hi"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	msg, err := collect(t, st)
	if err != nil || len(msg.Content) != 1 || msg.Content[0].Text != "moved" {
		t.Fatalf("msg = %+v, err = %v", msg, err)
	}
}

// An event stream sent with another Content-Type whose first event is
// short and whose next waits (the model thinking) is passed on at its
// first event: telling it from a page must not wait for more bytes.
func TestEventStreamWithAnotherContentTypeIsNotHeldUpByASlowSecondEvent(t *testing.T) {
	release := make(chan struct{})
	srv, _ := odd(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"x\",\"content\":[],\"usage\":{\"input_tokens\":1,\"output_tokens\":0}}}\n\n")
		w.(http.Flusher).Flush()
		select {
		case <-release: // the client has the first event
		case <-r.Context().Done():
			return
		}
		fmt.Fprint(w, "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"+
			"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"late\"}}\n\n"+
			"event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n"+
			"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":1}}\n\n"+
			"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n")
	})
	type result struct {
		st  llm.Stream
		err error
	}
	done := make(chan result, 1)
	go func() {
		st, err := oddClient(srv.URL).Stream(context.Background(), request("hi"))
		done <- result{st, err}
	}()
	var res result
	select {
	case res = <-done:
	case <-time.After(20 * time.Second):
		close(release)
		t.Fatal("Stream waited for the second event before passing on the first")
	}
	close(release)
	if res.err != nil {
		t.Fatal(res.err)
	}
	defer res.st.Close()
	msg, err := collect(t, res.st)
	if err != nil || len(msg.Content) != 1 || msg.Content[0].Text != "late" {
		t.Fatalf("msg = %+v, err = %v", msg, err)
	}
}
