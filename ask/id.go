package ask

import (
	"crypto/rand"
	"encoding/hex"
)

// NewID names a question set asked outside a model's tool call (askuser
// ask, an MCP client's form, a hook's event): prefix, "_", and 12 random
// hex digits.
func NewID(prefix string) string {
	var b [6]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand)
	return prefix + "_" + hex.EncodeToString(b[:])
}
