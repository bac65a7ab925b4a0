package cli

// The Telegram channel registers itself (channel.Register) when linked:
// --frontend telegram, askuser serve holding it, askuser channels test
// telegram.
import _ "github.com/askuser/askuser/internal/channel/telegram"
