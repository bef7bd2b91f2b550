package sdk

import (
	"errors"
	"strings"
	"testing"

	"reins/internal/llm"
)

// A user message whose text is empty or only white space is refused with
// an error the client sees, instead of reaching the API (which refuses
// blank text blocks, and would go on refusing every later turn of the
// conversation that holds one). Blank text next to other content is left
// out.
func TestQA3DecodeRefusesBlankUserMessages(t *testing.T) {
	for _, line := range []string{
		`{"type":"user","message":{"role":"user","content":""}}`,
		`{"type":"user","message":{"role":"user","content":" \n\t "}}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"text","text":""},{"type":"text","text":"  "}]}}`,
	} {
		_, err := Decode([]byte(line), 5)
		var le *LineError
		if !errors.As(err, &le) || !le.User || !strings.Contains(le.Error(), "input line 5") || !strings.Contains(le.Error(), "blank") {
			t.Errorf("Decode(%s) = %v, want a user-message error saying the content is blank", line, err)
		}
	}
	m, err := Decode([]byte(`{"type":"user","message":{"role":"user","content":[{"type":"text","text":" "},`+
		`{"type":"image","source":{"type":"base64","media_type":"image/png","data":"AAAA"}},{"type":"text","text":"what is this?"}]}}`), 1)
	if err != nil {
		t.Fatal(err)
	}
	c := m.User.Content
	if len(c) != 2 || c[0].Type != llm.BlockImage || c[1].Text != "what is this?" {
		t.Errorf("content = %+v, want the image and the question", c)
	}
}

// cache_control on a user message's blocks is dropped: reins places the
// prompt-cache breakpoints, and the client's on top of them would pass the
// API's limit of four breakpoints and fail every request.
func TestQA3DecodeDropsTheClientsCacheControl(t *testing.T) {
	m, err := Decode([]byte(`{"type":"user","message":{"role":"user","content":[{"type":"text","text":"a","cache_control":{"type":"ephemeral"}},`+
		`{"type":"image","source":{"type":"base64","media_type":"image/png","data":"AAAA"},"cache_control":{"type":"ephemeral","ttl":"1h"}}]}}`), 1)
	if err != nil {
		t.Fatal(err)
	}
	for i, b := range m.User.Content {
		if b.CacheControl != nil {
			t.Errorf("block %d keeps cache_control %+v", i, b.CacheControl)
		}
	}
	if len(m.User.Content) != 2 || m.User.Content[0].Text != "a" || m.User.Content[1].Source == nil {
		t.Errorf("content %+v", m.User.Content)
	}
}
