//go:build !unix

package prompt

import "os"

// notifyResize has no signal to listen to here: the prompt looks at the
// size on every tick.
func notifyResize() (<-chan os.Signal, func()) { return nil, func() {} }
