package anthropic

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"

	"reins/internal/llm"
)

// FuzzUnexpectedAnswers feeds arbitrary bodies and content types to the
// readers of what a server answered: a successful answer that must be an
// event stream, and an error answer. Neither panics; an answer refused
// as no event stream is quoted shortly and as valid text; one that reads
// as events is passed on whole; an error answer is an *llm.APIError with
// a readable message.
func FuzzUnexpectedAnswers(f *testing.F) {
	for _, s := range []struct{ ct, body string }{
		{"text/html", "<html><head><title>Login</title></head><body>x</body></html>"},
		{"text/html", "<title></title><p>a<b>b</b></p>"},
		{"application/json", `{"type":"error","error":{"type":"x","message":"m"}}`},
		{"", "event: message_start\ndata: {}\n\n"},
		{"text/plain", "\n\n: ping\n\ndata: {}\n\n"},
		{"text/event-stream; charset=utf-8", "garbage"},
		{"text/plain", "\xff\xfe<html>\x00"},
		{"a/b; =", strings.Repeat("é", 300)},
	} {
		f.Add(s.ct, []byte(s.body), uint16(200))
		f.Add(s.ct, []byte(s.body), uint16(502))
	}
	f.Fuzz(func(t *testing.T, ct string, body []byte, status uint16) {
		resp := func() *http.Response {
			h := http.Header{}
			h.Set("Content-Type", ct)
			return &http.Response{StatusCode: int(status), Header: h, Body: io.NopCloser(bytes.NewReader(body))}
		}
		rc, err := eventStreamBody(resp())
		if err != nil {
			msg := err.Error()
			if !utf8.ValidString(msg) || utf8.RuneCountInString(msg) > 500 {
				t.Errorf("refusal %q is not short valid text", msg)
			}
		} else {
			got, _ := io.ReadAll(rc)
			if !bytes.Equal(got, body) {
				t.Errorf("an accepted body was changed: %q became %q", body, got)
			}
		}
		var ae *llm.APIError
		if e := apiError(resp()); !errors.As(e, &ae) || ae.Message == "" || !utf8.ValidString(ae.Message) {
			t.Errorf("apiError = %#v", e)
		}
	})
}
