package tool

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestIntegralNumbersRewritesWholeFloats(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"offset":1.0,"limit":2e2}`, `{"offset":1,"limit":200}`},
		{`{"timeout":1.5,"n":-3.00}`, `{"timeout":1.5,"n":-3}`},
		{`{"s":"1.0 stays","a":[1.0, 2.5, 3E0]}`, `{"s":"1.0 stays","a":[1, 2.5, 3]}`},
		{`{"q":"say \"2.0\"","z":-0.0}`, `{"q":"say \"2.0\"","z":0}`},
		{`{"big":1e300,"plain":12}`, `{"big":1e300,"plain":12}`},
		{`not json 1.0`, `not json 1`},
	}
	for _, c := range cases {
		if got := string(integralNumbers([]byte(c.in))); got != c.want {
			t.Errorf("integralNumbers(%s) = %s, want %s", c.in, got, c.want)
		}
	}
	in := []byte(`{"a":1,"b":"x"}`)
	if got := integralNumbers(in); &got[0] != &in[0] {
		t.Error("input without such numbers was copied")
	}
}

// FuzzIntegralNumbers checks that the rewrite never panics, keeps valid
// JSON valid, and changes no value beyond the spelling of whole numbers.
func FuzzIntegralNumbers(f *testing.F) {
	f.Add([]byte(`{"offset":1.0,"s":"2.0","a":[1e2,-0.5]}`))
	f.Add([]byte(`[1.0e1, "\"3.0\"", {"x": 4.000}]`))
	f.Fuzz(func(t *testing.T, b []byte) {
		got := integralNumbers(b)
		var before, after any
		if json.Unmarshal(b, &before) != nil {
			return
		}
		if err := json.Unmarshal(got, &after); err != nil {
			t.Fatalf("integralNumbers(%s) = %s: %v", b, got, err)
		}
		if !reflect.DeepEqual(before, after) {
			t.Fatalf("integralNumbers(%s) = %s changes values", b, got)
		}
	})
}
