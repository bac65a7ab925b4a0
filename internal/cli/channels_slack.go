package cli

// The Slack channel is built into askuser: its package registers the
// slack frontend (internal/channel/slack).
import _ "github.com/askuser/askuser/internal/channel/slack"
