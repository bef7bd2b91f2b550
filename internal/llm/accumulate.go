package llm

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Accumulator folds streamed events into the assistant Message.
// The zero value is ready to use.
type Accumulator struct {
	msg      Message
	partial  map[int]*partialBlock // blocks started and not yet stopped
	order    []int                 // block indexes in start order
	done     map[int]ContentBlock
	started  bool
	finished bool
}

type partialBlock struct {
	block ContentBlock
	json  strings.Builder // input_json_delta fragments
	text  strings.Builder
	think strings.Builder
	sig   strings.Builder
}

// Add folds ev into the message. When ev completes a content block, Add
// returns it (with tool_use input fully assembled) and ok is true.
func (a *Accumulator) Add(ev Event) (block ContentBlock, ok bool, err error) {
	if a.partial == nil {
		a.partial = map[int]*partialBlock{}
		a.done = map[int]ContentBlock{}
	}
	switch ev.Type {
	case EventMessageStart:
		a.started = true
		if ev.Message != nil {
			a.msg.ID, a.msg.Model, a.msg.RequestID = ev.Message.ID, ev.Message.Model, ev.Message.RequestID
			if ev.Message.Usage != nil {
				u := *ev.Message.Usage
				a.msg.Usage = &u
			}
		}
		a.msg.Role = RoleAssistant
	case EventContentBlockStart:
		if ev.Block == nil {
			return block, false, fmt.Errorf("content_block_start %d: no block", ev.Index)
		}
		if _, dup := a.partial[ev.Index]; dup {
			return block, false, fmt.Errorf("content_block_start %d: block already started", ev.Index)
		}
		p := &partialBlock{block: *ev.Block}
		p.text.WriteString(ev.Block.Text)
		p.think.WriteString(ev.Block.Thinking)
		p.sig.WriteString(ev.Block.Signature)
		a.partial[ev.Index] = p
		a.order = append(a.order, ev.Index)
	case EventContentBlockDelta:
		p := a.partial[ev.Index]
		if p == nil {
			return block, false, fmt.Errorf("content_block_delta %d: block not started", ev.Index)
		}
		switch ev.DeltaType {
		case DeltaText:
			p.text.WriteString(ev.Delta)
		case DeltaInputJSON:
			p.json.WriteString(ev.Delta)
		case DeltaThinking:
			p.think.WriteString(ev.Delta)
		case DeltaSignature:
			p.sig.WriteString(ev.Delta)
		case DeltaCitations:
			p.block.Citations = appendCitation(p.block.Citations, ev.DeltaRaw)
		}
	case EventContentBlockStop:
		p := a.partial[ev.Index]
		if p == nil {
			return block, false, fmt.Errorf("content_block_stop %d: block not started", ev.Index)
		}
		delete(a.partial, ev.Index)
		if p.block.Type == BlockText && strings.TrimSpace(p.text.String()) == "" {
			// The API refuses an empty or whitespace-only text block in
			// a later request ("text content blocks must be non-empty"),
			// and such a block says nothing: it is left out of the
			// message, so the next request does not fail.
			return block, false, nil
		}
		// A block whose input is not valid JSON is still complete: it is
		// kept, so its call can be answered, and returned with the error.
		b, err := p.finish()
		a.done[ev.Index] = b
		return b, true, err
	case EventMessageDelta:
		if ev.StopReason != "" {
			a.msg.StopReason = ev.StopReason
		}
		a.msg.StopSequence = ev.StopSequence
		if ev.Usage != nil {
			if a.msg.Usage == nil {
				a.msg.Usage = &Usage{}
			}
			a.msg.Usage.Merge(*ev.Usage)
		}
	case EventMessageStop:
		a.finished = true
	}
	return block, false, nil
}

func appendCitation(list json.RawMessage, delta json.RawMessage) json.RawMessage {
	var d struct {
		Citation json.RawMessage `json:"citation"`
	}
	if json.Unmarshal(delta, &d) != nil || d.Citation == nil {
		return list
	}
	if len(list) == 0 {
		return append(append(json.RawMessage("["), d.Citation...), ']')
	}
	return append(append(append(list[:len(list)-1:len(list)-1], ','), d.Citation...), ']')
}

func (p *partialBlock) finish() (ContentBlock, error) {
	b := p.block
	if b.Raw != nil && p.json.Len() > 0 {
		// A server tool block (server_tool_use) streams its input like a
		// tool_use does: put the assembled input into its raw JSON.
		var obj map[string]json.RawMessage
		raw := p.json.String()
		if json.Unmarshal(b.Raw, &obj) == nil && json.Valid([]byte(raw)) {
			obj["input"] = compactJSON(json.RawMessage(raw))
			if out, err := json.Marshal(obj); err == nil {
				b.Raw = out
			}
		}
		return b, nil
	}
	switch b.Type {
	case BlockText:
		b.Text = p.text.String()
	case BlockThinking:
		b.Thinking, b.Signature = p.think.String(), p.sig.String()
	case BlockToolUse:
		raw := p.json.String()
		if strings.TrimSpace(raw) == "" {
			if len(b.Input) == 0 || string(b.Input) == "null" {
				b.Input = json.RawMessage("{}")
			}
			break
		}
		if !json.Valid([]byte(raw)) {
			// Keep the call so it can be answered with an error result;
			// the executor reports the invalid input to the model. The
			// history holds an empty object, which the API accepts back.
			b.Input = json.RawMessage("{}")
			return b, &InvalidInputError{ToolUseID: b.ID, Name: b.Name, Partial: raw}
		}
		b.Input = compactJSON(json.RawMessage(raw))
	}
	return b, nil
}

// InvalidInputError reports a tool_use block whose streamed input is not
// valid JSON (for example when the stream was cut). The block is still
// recorded so it can be answered.
type InvalidInputError struct {
	ToolUseID, Name, Partial string
}

func (e *InvalidInputError) Error() string {
	return fmt.Sprintf("tool_use %s (%s): streamed input is not valid JSON", e.ToolUseID, e.Name)
}

// Started reports whether message_start was seen.
func (a *Accumulator) Started() bool { return a.started }

// Finished reports whether message_stop was seen.
func (a *Accumulator) Finished() bool { return a.finished }

// Message returns the message assembled so far: completed blocks in index
// order. Blocks still streaming, and text blocks with nothing but white
// space, are left out.
func (a *Accumulator) Message() *Message {
	m := &Message{Role: RoleAssistant, ID: a.msg.ID, Model: a.msg.Model, RequestID: a.msg.RequestID,
		StopReason: a.msg.StopReason, StopSequence: a.msg.StopSequence}
	if a.msg.Usage != nil {
		u := *a.msg.Usage
		m.Usage = &u
	}
	for _, i := range a.order {
		if b, ok := a.done[i]; ok {
			m.Content = append(m.Content, b)
		}
	}
	return m
}
