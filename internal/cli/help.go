package cli

// Flag categories: help groups a command's flags under these, in this
// order; a flag without one is listed last.
const (
	catAsking   = "Asking"
	catTimeouts = "Timeouts and notices"
	catOutput   = "Output"
	catModel    = "Model"
	catTools    = "Tools and approvals"
	catSession  = "Session"
)
