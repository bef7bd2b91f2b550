package tui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"reins/internal/engine"
)

// ElicitationQuestion is the ToolName of a question that carries an MCP
// server's request for input (ElicitationInput as its Input). The answer
// is Allow with the form's values as UpdatedInput (accept), a denial
// (decline), or a denial with Interrupt (cancel).
const ElicitationQuestion = "mcp elicitation"

// ElicitationInput is what an MCP server asks of the user.
type ElicitationInput struct {
	Server  string `json:"server"`
	Message string `json:"message"`
	// Mode is "form" (fill in Schema) or "url" (visit URL).
	Mode   string          `json:"mode,omitempty"`
	URL    string          `json:"url,omitempty"`
	Schema json.RawMessage `json:"schema,omitempty"`
}

// elicitField is one field of an elicitation form.
type elicitField struct {
	name, title, desc string
	kind              string // string, number, integer, boolean, array
	choices           []string
	labels            []string // shown for choices
	def               any
	required          bool
}

// elicitDialog asks the fields of an MCP server's form one at a time.
type elicitDialog struct {
	a      askMsg
	in     ElicitationInput
	fields []elicitField
	fi     int
	menu   *menu      // a choice field, a yes/no field, or accept/decline
	text   *lineInput // a typed field
	note   string     // why the last value was refused
	values map[string]any
}

func newElicitDialog(a askMsg) *elicitDialog {
	var in ElicitationInput
	if json.Unmarshal(a.q.Input, &in) != nil {
		return nil
	}
	d := &elicitDialog{a: a, in: in, values: map[string]any{}}
	if in.Mode != "url" {
		d.fields = parseElicitFields(in.Schema)
	}
	d.load()
	return d
}

func (d *elicitDialog) ask() askMsg { return d.a }

// parseElicitFields reads the flat object schema of a form, its
// properties in the order the server gave them.
func parseElicitFields(schema json.RawMessage) []elicitField {
	var s struct {
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
	}
	if json.Unmarshal(schema, &s) != nil || len(s.Properties) == 0 {
		return nil
	}
	var props map[string]struct {
		Type        string   `json:"type"`
		Title       string   `json:"title"`
		Description string   `json:"description"`
		Enum        []any    `json:"enum"`
		EnumNames   []string `json:"enumNames"`
		OneOf       []struct {
			Const any    `json:"const"`
			Title string `json:"title"`
		} `json:"oneOf"`
		Items struct {
			Enum  []any `json:"enum"`
			AnyOf []struct {
				Const any    `json:"const"`
				Title string `json:"title"`
			} `json:"anyOf"`
		} `json:"items"`
		Default any `json:"default"`
	}
	if json.Unmarshal(s.Properties, &props) != nil {
		return nil
	}
	var out []elicitField
	for _, name := range objectKeys(s.Properties) {
		p, ok := props[name]
		if !ok {
			continue
		}
		f := elicitField{name: name, title: p.Title, desc: p.Description, kind: p.Type, def: p.Default, required: slices.Contains(s.Required, name)}
		if f.title == "" {
			f.title = name
		}
		add := func(v any, label string) {
			c := fmt.Sprint(v)
			if label == "" {
				label = c
			}
			f.choices, f.labels = append(f.choices, c), append(f.labels, label)
		}
		for i, v := range p.Enum {
			label := ""
			if i < len(p.EnumNames) {
				label = p.EnumNames[i]
			}
			add(v, label)
		}
		for _, o := range p.OneOf {
			add(o.Const, o.Title)
		}
		for _, v := range p.Items.Enum {
			add(v, "")
		}
		for _, o := range p.Items.AnyOf {
			add(o.Const, o.Title)
		}
		out = append(out, f)
	}
	return out
}

// objectKeys lists the keys of a JSON object in their order.
func objectKeys(obj json.RawMessage) []string {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var keys []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return keys
		}
		k, _ := t.(string)
		keys = append(keys, k)
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return keys
		}
	}
	return keys
}

// load prepares the current field, or the accept/decline choice when
// there are no fields (a URL to visit, a confirmation).
func (d *elicitDialog) load() {
	d.menu, d.text = nil, nil
	if d.fi >= len(d.fields) {
		d.menu = &menu{items: []string{"Accept", "Decline"}}
		if d.in.Mode == "url" {
			d.menu.items[0] = "Open the page"
		}
		return
	}
	f := d.fields[d.fi]
	switch {
	case f.kind == "boolean":
		d.menu = &menu{items: []string{"Yes", "No"}}
		if f.def == false {
			d.menu.sel = 1
		}
	case len(f.choices) > 0 && f.kind != "array":
		d.menu = &menu{items: f.labels}
		if i := slices.Index(f.choices, fmt.Sprint(f.def)); i >= 0 {
			d.menu.sel = i
		}
	default:
		d.text = &lineInput{}
	}
}

func (d *elicitDialog) paste(s string) {
	if d.text != nil {
		d.text.paste(s)
	}
}

func (d *elicitDialog) key(_ *Model, k tea.KeyPressMsg) (bool, tea.Cmd) {
	switch k.String() {
	case "esc":
		answer(d.a, engine.Answer{Allow: false})
		return true, nil
	case "ctrl+c":
		answer(d.a, engine.Answer{Allow: false, Interrupt: true})
		return true, nil
	}
	if d.text != nil {
		if k.String() != "enter" {
			d.text.key(k)
			return false, nil
		}
		return d.typed(d.text.value()), nil
	}
	i := d.menu.key(k)
	if i < 0 {
		return false, nil
	}
	if d.fi >= len(d.fields) {
		if i == 1 {
			answer(d.a, engine.Answer{Allow: false})
			return true, nil
		}
		return d.finish(), nil
	}
	f := d.fields[d.fi]
	if f.kind == "boolean" {
		d.values[f.name] = i == 0
	} else {
		d.values[f.name] = f.choices[i]
	}
	return d.next(), nil
}

// typed takes the typed value of the current field; an empty one takes
// the default, or leaves an optional field out.
func (d *elicitDialog) typed(s string) bool {
	f := d.fields[d.fi]
	if s == "" {
		switch {
		case f.def != nil:
			d.values[f.name] = f.def
		case f.required:
			d.note = f.title + " is required"
			return false
		}
		return d.next()
	}
	switch f.kind {
	case "number", "integer":
		n, err := strconv.ParseFloat(s, 64)
		if err != nil || f.kind == "integer" && n != float64(int64(n)) {
			d.note = fmt.Sprintf("%s must be a%s number", f.title, map[bool]string{true: " whole", false: ""}[f.kind == "integer"])
			return false
		}
		d.values[f.name] = n
	case "array":
		var items []string
		for _, p := range strings.Split(s, ",") {
			if p = strings.TrimSpace(p); p == "" {
				continue
			}
			if len(f.choices) > 0 && !slices.Contains(f.choices, p) {
				d.note = fmt.Sprintf("%q is not one of %s", p, strings.Join(f.choices, ", "))
				return false
			}
			items = append(items, p)
		}
		d.values[f.name] = items
	default:
		d.values[f.name] = s
	}
	return d.next()
}

// next moves to the next field; after the last, the form is sent.
func (d *elicitDialog) next() bool {
	d.note = ""
	d.fi++
	if d.fi < len(d.fields) {
		d.load()
		return false
	}
	return d.finish()
}

// finish sends the values (accept).
func (d *elicitDialog) finish() bool {
	b, err := json.Marshal(d.values)
	if err != nil {
		answer(d.a, engine.Answer{Allow: false, Interrupt: true})
		return true
	}
	answer(d.a, engine.Answer{Allow: true, UpdatedInput: b})
	return true
}

func (d *elicitDialog) view(m *Model, width int) string {
	st := &m.st
	var b strings.Builder
	b.WriteString(st.dim.Render(cut("MCP server "+d.in.Server+" asks:", width)) + "\n")
	b.WriteString(st.bold.Render(hang("", d.in.Message, width)) + "\n")
	if d.in.URL != "" {
		b.WriteString(hang("", d.in.URL, width) + "\n")
	}
	if d.fi < len(d.fields) {
		f := d.fields[d.fi]
		head := f.title
		if f.required {
			head += " *"
		}
		if len(d.fields) > 1 {
			head = fmt.Sprintf("(%d of %d) %s", d.fi+1, len(d.fields), head)
		}
		b.WriteString("\n" + hang("", head, width) + "\n")
		if f.desc != "" {
			b.WriteString(st.dim.Render(hang("", f.desc, width)) + "\n")
		}
	}
	if d.menu != nil {
		b.WriteString(d.menu.view(st, width) + "\n")
	}
	if d.text != nil {
		f := d.fields[d.fi]
		hint := "type a value, enter to go on"
		switch {
		case f.kind == "array" && len(f.choices) > 0:
			hint = "comma-separated, from: " + strings.Join(f.choices, ", ")
		case f.def != nil:
			hint = fmt.Sprintf("enter for %v", f.def)
		case !f.required:
			hint = "optional: enter to leave out"
		}
		b.WriteString(d.text.view(st, width, hint) + "\n")
	}
	if d.note != "" {
		b.WriteString(st.warn.Render(cut(d.note, width)) + "\n")
	}
	b.WriteString(st.dim.Render(cut("enter to go on · esc to decline · ctrl+c to cancel", width)))
	return frame(st, "MCP server request", b.String(), width)
}
