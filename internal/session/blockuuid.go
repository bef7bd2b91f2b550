package session

import (
	"strconv"

	"github.com/google/uuid"

	"reins/internal/llm"
)

// BlockUUID is the uuid stream-json shows on the line of content block
// index of the assistant message recorded under messageUUID: the
// message's own for the first block, and for each later one a name-based
// UUID derived from it, so every line has a uuid of its own (clients key
// messages by it, as Claude Code gives each block line its own) and
// --resume-session-at can still name any of them.
func BlockUUID(messageUUID string, index int) string {
	if index == 0 {
		return messageUUID
	}
	space, err := uuid.Parse(messageUUID)
	name := strconv.Itoa(index)
	if err != nil {
		space, name = uuid.NameSpaceOID, messageUUID+"/"+name
	}
	return uuid.NewSHA1(space, []byte(name)).String()
}

// blockNode finds the assistant message a later block's line was shown
// under id for (see BlockUUID).
func (ld *loader) blockNode(id string) (int, bool) {
	for i, nd := range ld.nodes {
		if nd.msg == nil || nd.msg.Role != llm.RoleAssistant {
			continue
		}
		for b := 1; b < len(nd.msg.Content); b++ {
			if BlockUUID(nd.uuid, b) == id {
				return i, true
			}
		}
	}
	return 0, false
}
