package telegram

// NewWithTimings builds the channel with timings of a test's choosing.
var NewWithTimings = newChannel

// ParseTimings is parseTimings, for its test.
var ParseTimings = parseTimings

// SetMaxUpdates bounds the channel's getUpdates answers at n bytes, so a
// test need not send 16 MiB to go past the bound.
func (c *Channel) SetMaxUpdates(n int64) { c.maxUpdates = n }
