package llmtest

// A request body's top level is split by hand: the fake server needs the
// raw bytes of each message and tool (it compares them with the previous
// request's and parses only new ones), and decoding the whole body with
// encoding/json first validated and then skipped every byte of a history
// that is mostly repeated. Anything this splitter does not accept goes
// through encoding/json, which reports the error.

// splitObject returns the raw value of each member of the JSON object b.
// It checks the structure (strings, brackets, separators), not the
// scalars, which the caller decodes one by one. ok is false for anything
// else, including a key that is not plain ASCII.
func splitObject(b []byte) (members map[string][]byte, ok bool) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil, false
	}
	members = map[string][]byte{}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return members, skipSpace(b, i+1) == len(b)
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return nil, false
		}
		end := skipString(b, i)
		if end < 0 {
			return nil, false
		}
		key := b[i+1 : end-1]
		for _, c := range key {
			if c == '\\' || c < 0x20 || c >= 0x80 {
				return nil, false // escapes or non-ASCII: encoding/json decodes it
			}
		}
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return nil, false
		}
		start := skipSpace(b, i+1)
		end = valueEnd(b, start)
		if end < 0 {
			return nil, false
		}
		members[string(key)] = b[start:end]
		i = skipSpace(b, end)
		if i >= len(b) {
			return nil, false
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case '}':
			return members, skipSpace(b, i+1) == len(b)
		default:
			return nil, false
		}
	}
}

// splitArray returns the raw elements of the JSON array b.
func splitArray(b []byte) (elems [][]byte, ok bool) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '[' {
		return nil, false
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return [][]byte{}, skipSpace(b, i+1) == len(b)
	}
	for {
		end := valueEnd(b, i)
		if end < 0 {
			return nil, false
		}
		elems = append(elems, b[i:end])
		i = skipSpace(b, end)
		if i >= len(b) {
			return nil, false
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case ']':
			return elems, skipSpace(b, i+1) == len(b)
		default:
			return nil, false
		}
	}
}

// skipString returns the index after the string starting at b[i] ('"'),
// or -1 when it does not end.
func skipString(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return -1
}

// valueEnd returns the index after the value starting at b[i], or -1. It
// is stricter than skipValue: an unbalanced or unterminated value is an
// error, not the end of the input.
// Objects and arrays are matched bracket for bracket (strings skipped);
// a scalar runs to the next separator.
func valueEnd(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		var stack []byte
		for j := i; j < len(b); j++ {
			switch c := b[j]; c {
			case '"':
				end := skipString(b, j)
				if end < 0 {
					return -1
				}
				j = end - 1
			case '{', '[':
				stack = append(stack, c)
			case '}', ']':
				if len(stack) == 0 || (c == '}') != (stack[len(stack)-1] == '{') {
					return -1
				}
				stack = stack[:len(stack)-1]
				if len(stack) == 0 {
					return j + 1
				}
			}
		}
		return -1
	case ',', ':', '}', ']':
		return -1
	}
	j := i
	for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && !isSpace(b[j]) {
		j++
	}
	return j
}
