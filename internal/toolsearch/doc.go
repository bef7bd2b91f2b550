// Package toolsearch keeps the schemas of rarely used tools out of the
// model's request until the model looks for them.
package toolsearch
