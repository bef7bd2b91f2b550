package tui

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"reins/internal/engine"
)

// askElicitation puts an MCP server's request for input to the UI, as
// the session does, and returns the channel its answer comes on.
func askElicitation(t *testing.T, h *harness, in ElicitationInput) <-chan engine.Answer {
	t.Helper()
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	out := make(chan engine.Answer, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		ans, err := h.asker.Ask(ctx, engine.Question{ToolName: ElicitationQuestion, Input: b})
		if err != nil {
			ans = engine.Answer{Message: "error: " + err.Error()}
		}
		out <- ans
	}()
	return out
}

// An MCP server's request for input opens a form: the server and its
// message are shown, each field asked in turn (a typed text, a choice, a
// yes/no; a number that is not one is refused), and the values go back
// typed as the schema says.
func TestElicitationDialogFillsTheForm(t *testing.T) {
	h := newHarness(t, nil, harnessOpts{})
	schema := `{"type":"object","properties":{
		"name":{"type":"string","title":"Your name"},
		"size":{"type":"string","title":"Size","enum":["s","m","l"],"enumNames":["Small","Medium","Large"]},
		"count":{"type":"integer","title":"How many","default":3},
		"gift":{"type":"boolean","title":"Gift wrap"}},"required":["name"]}`
	got := askElicitation(t, h, ElicitationInput{Server: "shop", Message: "Details for your order", Mode: "form", Schema: json.RawMessage(schema)})
	h.waitFor("MCP server shop asks:", "Details for your order", "Your name *")
	h.key("enter") // required: refused when empty
	h.waitFor("Your name is required")
	h.typeText("Ada")
	h.key("enter")
	h.waitFor("Medium")
	h.key("2")
	h.waitFor("How many")
	h.typeText("two")
	h.key("enter")
	h.waitFor("How many must be a whole number")
	h.key("ctrl+u")
	h.key("enter") // the default
	h.waitFor("Gift wrap")
	h.key("1")
	ans := <-got
	var content map[string]any
	if err := json.Unmarshal(ans.UpdatedInput, &content); err != nil || !ans.Allow {
		t.Fatalf("answer %+v (%v); want accept with the values", ans, err)
	}
	want := map[string]any{"name": "Ada", "size": "m", "count": float64(3), "gift": true}
	for k, v := range want {
		if content[k] != v {
			t.Errorf("%s = %#v; want %#v (all: %v)", k, content[k], v, content)
		}
	}
}

// Esc declines the request and ctrl+c cancels it.
func TestElicitationDialogDeclinesAndCancels(t *testing.T) {
	h := newHarness(t, nil, harnessOpts{})
	got := askElicitation(t, h, ElicitationInput{Server: "s", Message: "Continue?", Mode: "form"})
	h.waitFor("Continue?", "Accept", "Decline")
	h.key("esc")
	if ans := <-got; ans.Allow || ans.Interrupt {
		t.Errorf("esc: %+v; want a decline", ans)
	}
	got = askElicitation(t, h, ElicitationInput{Server: "s", Message: "Open the page", Mode: "url", URL: "https://example.com/auth"})
	h.waitFor("https://example.com/auth")
	h.key("ctrl+c")
	if ans := <-got; ans.Allow || !ans.Interrupt {
		t.Errorf("ctrl+c: %+v; want a cancel", ans)
	}
}

// A server's form schema is untrusted: whatever it holds, reading its
// fields and going through the form with Enter (Esc when a value is
// refused) neither panics nor loops, and ends with one answer.
func FuzzElicitationForm(f *testing.F) {
	f.Add(`{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"boolean"},"c":{"type":"integer","default":2}},"required":["a"]}`)
	f.Add(`{"properties":{"e":{"type":"string","enum":[1,"x",null],"enumNames":["one"]},"m":{"type":"array","items":{"anyOf":[{"const":"p","title":"P"}]}}}}`)
	f.Add(`{"properties":{"o":{"oneOf":[{"const":{"x":1}}]},"n":{"type":"number","default":"nan"}}}`)
	f.Add(`{"properties":[]}`)
	f.Add(`null`)
	f.Fuzz(func(t *testing.T, schema string) {
		in, _ := json.Marshal(ElicitationInput{Server: "s", Message: "m", Mode: "form", Schema: json.RawMessage(schema)})
		if !json.Valid([]byte(schema)) {
			in, _ = json.Marshal(ElicitationInput{Server: "s", Message: "m", Mode: "form"})
		}
		a := askMsg{q: engine.Question{ToolName: ElicitationQuestion, Input: in}, reply: make(chan engine.Answer, 1)}
		d := newElicitDialog(a)
		if d == nil {
			t.Fatal("no dialog for a valid input")
		}
		done := false
		for i := 0; i < 3*len(d.fields)+3 && !done; i++ {
			if d.text != nil {
				d.text.paste("1")
			}
			done, _ = d.key(nil, keyMsg("enter"))
		}
		if !done {
			done, _ = d.key(nil, keyMsg("esc"))
		}
		if !done {
			t.Fatalf("the form did not end (%d fields)", len(d.fields))
		}
		select {
		case <-a.reply:
		default:
			t.Fatal("the form ended without an answer")
		}
	})
}
