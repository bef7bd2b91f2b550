// Package jsonkind words what encoding/json expected when a value of the
// wrong type arrived, in the terms of the JSON a user writes ("a string",
// "true or false", "an array of strings") rather than the Go type the
// value would have filled. Configuration readers (MCP server entries,
// hook output, SDK requests) use it to say what a field needs.
package jsonkind

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// Want names the JSON a value of Go type t is written as. Pointers stand
// for what they point to.
func Want(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.String {
			return "an array of strings"
		}
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return "a value of another type"
}

// FieldProblem words a decode error for a field of the wrong type as
// "<field> must be <Want>, not a JSON <value>", prefixing the field with
// prefix. Any other error, or one with no field name, gives its own text
// without encoding/json's "json: " prefix, and ok false.
func FieldProblem(err error, prefix string) (msg string, ok bool) {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) || te.Field == "" {
		return strings.TrimPrefix(err.Error(), "json: "), false
	}
	return fmt.Sprintf("%s%s must be %s, not a JSON %s", prefix, te.Field, Want(te.Type), te.Value), true
}
