package clitool

// Exit codes of the commands.
const (
	ExitClean    = 0 // no finding reaches --fail-on
	ExitFindings = 1 // findings reach --fail-on
	ExitUsage    = 2 // bad flags, bad config, an input that cannot be read at all, or nothing to read
)

// Binary is the name the commands go by in usage texts.
const Binary = "terraform-provider-karpenter"
