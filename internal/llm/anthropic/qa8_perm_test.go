package anthropic_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"reins/internal/llm/anthropic"
	"reins/internal/llm/llmtest"
)

// With KeyTTL, a request made once the key is older than the TTL first
// asks RefreshKey for a new one; a refresh that fails keeps the old key
// (the request still goes out, and a 401 would ask again).
func TestQA8StaleKeyIsRefreshedBeforeTheRequest(t *testing.T) {
	srv, _ := start(t, llmtest.Reply("one"), llmtest.Reply("two"), llmtest.Reply("three"))
	keys := []string{"k1", "", "k3"}
	calls := 0
	c := anthropic.New(anthropic.Config{BaseURL: srv.URL, APIKey: "k0", KeyTTL: time.Nanosecond,
		RefreshKey: func(context.Context) (string, error) {
			k := keys[calls]
			calls++
			if k == "" {
				return "", errors.New("vault unreachable")
			}
			return k, nil
		}})
	for range 3 {
		time.Sleep(time.Millisecond) // older than the TTL
		st, err := c.Stream(context.Background(), request("hi"))
		if err != nil {
			t.Fatal(err)
		}
		st.Close()
	}
	var got []string
	for _, r := range srv.Requests() {
		got = append(got, r.Header.Get("x-api-key"))
	}
	if len(got) != 3 || got[0] != "k1" || got[1] != "k1" || got[2] != "k3" {
		t.Errorf("keys sent = %q, want k1 (refreshed), k1 (refresh failed, old kept), k3", got)
	}
}

// KeyAsBearer sends the API key in Authorization: Bearer as well as
// x-api-key (an apiKeyHelper's key, as Claude Code sends it).
func TestQA8KeyAsBearerSendsBothHeaders(t *testing.T) {
	srv, _ := start(t, llmtest.Reply("one"))
	c := anthropic.New(anthropic.Config{BaseURL: srv.URL, APIKey: "k0", KeyAsBearer: true})
	st, err := c.Stream(context.Background(), request("hi"))
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	h := srv.Requests()[0].Header
	if h.Get("x-api-key") != "k0" || h.Get("Authorization") != "Bearer k0" {
		t.Errorf("x-api-key %q, Authorization %q; want k0 in both", h.Get("x-api-key"), h.Get("Authorization"))
	}
}
