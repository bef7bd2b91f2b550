package tool

import (
	"math"
	"strconv"
)

// integralNumbers rewrites numbers written with a fraction or an exponent
// whose value is a whole number ("1.0", "2e2") as plain integers ("1",
// "200"). Models send such numbers for integer fields, JSON Schema counts
// them as integers, and encoding/json refuses them for Go int fields, so
// a valid call would fail in the tool's own decoding. Strings are left
// alone, as is every other number; input that is not JSON comes back
// unchanged.
func integralNumbers(input []byte) []byte {
	var out []byte // nil until something changes
	last := 0      // input[last:] is not yet copied to out
	for i := 0; i < len(input); {
		c := input[i]
		switch {
		case c == '"':
			i++
			for i < len(input) && input[i] != '"' {
				if input[i] == '\\' {
					i++
				}
				i++
			}
			i++
		case c == '-' || (c >= '0' && c <= '9'):
			j := i + 1
			for j < len(input) && isNumberByte(input[j]) {
				j++
			}
			if rep, ok := wholeNumber(input[i:j]); ok {
				out = append(append(out, input[last:i]...), rep...)
				last = j
			}
			i = j
		default:
			i++
		}
	}
	if out == nil {
		return input
	}
	return append(out, input[last:]...)
}

func isNumberByte(c byte) bool {
	return (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'
}

// wholeNumber returns the integer spelling of tok when tok has a fraction
// or exponent and its value is a whole number small enough to be exact.
func wholeNumber(tok []byte) (string, bool) {
	plain := true
	for _, c := range tok {
		if c == '.' || c == 'e' || c == 'E' {
			plain = false
		}
	}
	if plain {
		return "", false
	}
	f, err := strconv.ParseFloat(string(tok), 64)
	if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return "", false
	}
	if f == 0 {
		return "0", true // also for -0.0
	}
	return strconv.FormatInt(int64(f), 10), true
}
