package llm

import "encoding/json"

// EventType names a streamed event; the values are the SSE event names of
// the Messages API.
type EventType string

// The events of a streamed Messages API response.
const (
	EventMessageStart      EventType = "message_start"
	EventContentBlockStart EventType = "content_block_start"
	EventContentBlockDelta EventType = "content_block_delta"
	EventContentBlockStop  EventType = "content_block_stop"
	EventMessageDelta      EventType = "message_delta"
	EventMessageStop       EventType = "message_stop"
	EventPing              EventType = "ping"
)

// DeltaType names the kind of a content_block_delta.
type DeltaType string

// Delta kinds.
const (
	DeltaText      DeltaType = "text_delta"
	DeltaInputJSON DeltaType = "input_json_delta"
	DeltaThinking  DeltaType = "thinking_delta"
	DeltaSignature DeltaType = "signature_delta"
	DeltaCitations DeltaType = "citations_delta"
)

// Event is one streamed event. Which fields are set depends on Type.
type Event struct {
	Type  EventType
	Index int // content block index, for content_block_* events

	// message_start: the message shell (id, model, usage).
	Message *Message
	// content_block_start: the block as first announced.
	Block *ContentBlock
	// content_block_delta
	DeltaType DeltaType
	Delta     string          // text, partial JSON, thinking text or signature
	DeltaRaw  json.RawMessage // the delta object, for kinds not listed above
	// message_delta
	StopReason   string
	StopSequence string
	Usage        *Usage

	// Raw is the event's JSON data as received, for front ends that pass
	// stream events through (stream-json --include-partial-messages).
	Raw json.RawMessage
}
