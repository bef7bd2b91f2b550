package session

import "testing"

// BlockUUID keeps the message's uuid for its first block and gives every
// later block a different, stable uuid, also for a recorded uuid that is
// not a UUID.
func TestQA3BlockUUIDIsTheMessagesFirstAndDistinctAfter(t *testing.T) {
	for _, msg := range []string{"2f0c8d2e-7a61-4b39-9c3e-2d8e4f6a1b70", "not-a-uuid"} {
		if got := BlockUUID(msg, 0); got != msg {
			t.Errorf("BlockUUID(%q, 0) = %q", msg, got)
		}
		seen := map[string]bool{msg: true}
		for i := 1; i < 4; i++ {
			id := BlockUUID(msg, i)
			if seen[id] || len(id) != 36 || BlockUUID(msg, i) != id {
				t.Errorf("BlockUUID(%q, %d) = %q: repeated, not a UUID, or not stable", msg, i, id)
			}
			seen[id] = true
		}
	}
}
