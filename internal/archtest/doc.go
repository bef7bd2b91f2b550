// Package archtest holds tests of the project's architecture: every
// package documents itself, and dependencies point down the layers of
// DESIGN.md. It has no code of its own.
package archtest
