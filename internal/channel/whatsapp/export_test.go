package whatsapp

// Served reports whether a relay's Serve has given the channel its Host,
// so a test knows the webhook takes messages rather than asking WhatsApp
// to deliver them again.
func (c *Channel) Served() bool { return c.currentHost() != nil }
