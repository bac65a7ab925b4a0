// Package archtest holds the tests of askuser's import rules: which
// package may import what, checked over `go list -deps` and the files'
// own import lists, so a broken rule fails CI instead of waiting for a
// reader to notice. It has no code of its own.
package archtest
