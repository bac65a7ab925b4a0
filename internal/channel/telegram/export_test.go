package telegram

// NewWithTimings builds the channel with timings of a test's choosing.
var NewWithTimings = newChannel

// ParseTimings is parseTimings, for its test.
var ParseTimings = parseTimings
