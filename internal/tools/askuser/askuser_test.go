package askuser

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

const twoQuestions = `{"questions":[
 {"question":"Which database?","header":"Database","multiSelect":false,
  "options":[{"label":"Postgres","description":"relational"},{"label":"SQLite","description":"embedded"}]},
 {"question":"Which features?","header":"Scope","multiSelect":true,
  "options":[{"label":"Auth","description":"login"},{"label":"Search","description":"full text"}]}]}`

func TestCallReportsEachAnswer(t *testing.T) {
	raw, err := WithAnswers(json.RawMessage(twoQuestions), map[string]string{
		"Which database?": "SQLite", "Which features?": "Auth, Search"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := New().Call(context.Background(), nil, raw, nil)
	if err != nil {
		t.Fatal(err)
	}
	text := res.Content[0].Text
	for _, want := range []string{"Which database? → SQLite", "Which features? → Auth, Search"} {
		if !strings.Contains(text, want) {
			t.Errorf("result %q lacks %q", text, want)
		}
	}
	out := res.Data.(Output)
	if out.Answers["Which database?"] != "SQLite" || len(out.Questions) != 2 {
		t.Errorf("data = %+v", out)
	}
}

func TestCallWithoutAnswersIsAnError(t *testing.T) {
	_, err := New().Call(context.Background(), nil, json.RawMessage(twoQuestions), nil)
	if !errors.Is(err, ErrNotAnswered) {
		t.Fatalf("err = %v, want ErrNotAnswered", err)
	}
}

func TestValidateNamesTheBadField(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"no questions", `{"questions":[]}`, "questions: expected 1 to 4"},
		{"one option", `{"questions":[{"question":"Q?","header":"h","multiSelect":false,"options":[{"label":"a","description":""}]}]}`, "questions[0].options: expected 2 to 4"},
		{"duplicate label", `{"questions":[{"question":"Q?","header":"h","multiSelect":false,"options":[{"label":"a","description":""},{"label":"a","description":""}]}]}`, `questions[0].options[1].label: "a" appears twice`},
		{"duplicate question", `{"questions":[{"question":"Q?","header":"h","multiSelect":false,"options":[{"label":"a","description":""},{"label":"b","description":""}]},{"question":"Q?","header":"h","multiSelect":false,"options":[{"label":"a","description":""},{"label":"b","description":""}]}]}`, "questions[1].question"},
		{"empty question", `{"questions":[{"question":" ","header":"h","multiSelect":false,"options":[{"label":"a","description":""},{"label":"b","description":""}]}]}`, "questions[0].question: must not be empty"},
		{"not json", `[`, "input is not valid"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := New().Validate(context.Background(), nil, json.RawMessage(tc.in))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestSchemaIsValidJSONWithRequiredQuestions(t *testing.T) {
	var s struct {
		Required []string `json:"required"`
	}
	if err := json.Unmarshal(New().InputSchema(), &s); err != nil {
		t.Fatal(err)
	}
	if len(s.Required) != 1 || s.Required[0] != "questions" {
		t.Fatalf("required = %v", s.Required)
	}
}
