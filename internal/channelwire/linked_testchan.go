//go:build askuser_testchan

package channelwire

// The end-to-end tests build askuser with the test channel, a fake chat
// platform on loopback, linked in as "testchan"; the released binary
// does not have it.
import _ "github.com/askuser/askuser/internal/channel/channeltest"
