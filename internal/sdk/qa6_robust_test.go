package sdk

import (
	"errors"
	"strings"
	"testing"
)

// An image or document the API cannot read is refused when the SDK
// client sends it, saying which block and why. Sent on, it stayed in the
// conversation and every later request of the session failed with it.
func TestDecodeRefusesImageSourcesTheAPIWouldRefuse(t *testing.T) {
	user := func(block string) string {
		return `{"type":"user","message":{"role":"user","content":[{"type":"text","text":"look"},` + block + `]}}`
	}
	cases := []struct{ name, block, want string }{
		{"bad base64", `{"type":"image","source":{"type":"base64","media_type":"image/png","data":"!!!not base64"}}`, "content block 1 (image): the source's data is not valid base64"},
		{"no media type", `{"type":"image","source":{"type":"base64","data":"aGVsbG8="}}`, "content block 1 (image): the source has no media_type"},
		{"image as pdf", `{"type":"image","source":{"type":"base64","media_type":"application/pdf","data":"aGVsbG8="}}`, `media_type "application/pdf" is not one the API takes for images`},
		{"no data", `{"type":"document","source":{"type":"base64","media_type":"application/pdf"}}`, "content block 1 (document): the source has no data"},
		{"url without url", `{"type":"image","source":{"type":"url"}}`, "the url source has no url"},
		{"source without type", `{"type":"image","source":{"data":"aGVsbG8="}}`, "the source has no type"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Decode([]byte(user(c.block)), 5)
			var le *LineError
			if !errors.As(err, &le) || !le.User || !strings.Contains(le.Error(), c.want) || !strings.Contains(le.Error(), "input line 5") {
				t.Errorf("err = %v, want a user-message error on line 5 saying %q", err, c.want)
			}
		})
	}
	for _, ok := range []string{
		`{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgo="}}`,
		`{"type":"image","source":{"type":"url","url":"https://example.com/a.png"}}`,
		`{"type":"document","source":{"type":"text","media_type":"text/plain","data":"plain words"}}`,
	} {
		if _, err := Decode([]byte(user(ok)), 1); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
}

// An initialize request with a member of the wrong type is answered with
// the member and the JSON it needs, not a Go type.
func TestInitializeOfTheWrongShapeNamesTheMember(t *testing.T) {
	for req, want := range map[string]string{
		`{"subtype":"initialize","hooks":{"PreToolUse":"x"}}`:                        `initialize: hooks must be an array, not a JSON string`,
		`{"subtype":"initialize","hooks":{"PreToolUse":[{"hookCallbackIds":"h1"}]}}`: `hookCallbackIds must be an array of strings, not a JSON string`,
		`{"subtype":"initialize","hooks":[1]}`:                                       `initialize: hooks must be an object, not a JSON array`,
	} {
		_, err := (&Server{}).initialize([]byte(req))
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "Go ") || strings.Contains(err.Error(), "sdk.") {
			t.Errorf("%s: err = %v, want %q", req, err, want)
		}
	}
}
