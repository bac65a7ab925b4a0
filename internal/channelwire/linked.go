package channelwire

// The chat channels linked into askuser. Each channel's package registers
// its constructor when imported (channel.Register, in its init), and is
// linked by one blank import here. A channel not linked is still known
// (its settings, its name for --frontend), and askuser says that it is
// not built in. docs/writing-a-channel.md says what a channel package implements.
import (
	_ "github.com/askuser/askuser/internal/channel/slack"
	// Telegram: --frontend telegram, askuser serve holding it, askuser
	// channels test telegram.
	_ "github.com/askuser/askuser/internal/channel/telegram"
	// WhatsApp registers itself as "whatsapp".
	_ "github.com/askuser/askuser/internal/channel/whatsapp"
)
