package cli

// askuser links the WhatsApp channel in: the package registers itself
// (channel.Register) as "whatsapp".
import _ "github.com/askuser/askuser/internal/channel/whatsapp"
