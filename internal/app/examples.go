package app

// examples are the commands each help page ends with, by command name
// ("" is the app's own page): two or three that work as shown.
var examples = map[string][]string{
	"": {
		"askuser demo                                   # try it: an agent asks you two questions, no API key",
		"askuser run \"Add authentication to my app\"     # with ANTHROPIC_API_KEY or OPENAI_API_KEY set",
		"askuser help run",
	},
	"ask": {
		"askuser ask questions.json > result.txt        # asked at the terminal, the tool result in the file",
		"askuser ask --answers answers.yaml questions.json",
		"echo '{\"answers\":{\"Database\":\"PostgreSQL\"}}' | askuser ask questions.json",
	},
	"run": {
		"askuser run \"Add authentication to my app\"",
		"askuser run -p --answers ci/answers.yaml \"Add authentication\"",
		"askuser run --ask-timeout 10m --on-timeout auto \"Set up CI\"",
	},
	"resume": {
		"askuser resume                                 # the most recent session",
		"askuser resume 3f2a --answers answers.yaml     # a session by the start of its id",
		"askuser resume 3f2a --frontend auto            # take the recommended options",
	},
	"sessions": {
		"askuser sessions --waiting                     # what waits, in every directory",
		"askuser sessions --dir . --json",
		"askuser sessions prune --older-than 7d --finished",
	},
	"sessions rm": {
		"askuser sessions rm 3f2a9c1e",
	},
	"sessions prune": {
		"askuser sessions prune --older-than 7d --finished",
		"askuser sessions prune --older-than 30d --dry-run",
	},
	"cancel": {
		"askuser cancel 3f2a9c1e --reason \"no longer needed\"",
		"askuser cancel 3f2a9c1e",
	},
	"serve": {
		"askuser serve                                  # the inbox of waiting questions, on 127.0.0.1",
		"askuser serve --listen 0.0.0.0:8080            # reachable from a phone; the token is still needed",
		"askuser serve --new-token                      # a new token: URLs and bookmarks from before stop working",
	},
	"channels": {
		"askuser channels                               # which chat channels are built in and set up",
		"askuser channels test slack                    # check Slack's settings, send a sample question",
	},
	"channels test": {
		"askuser channels test slack",
		"ASKUSER_TELEGRAM_CHAT=-1001234 askuser channels test telegram",
	},
	"mcp": {
		"claude mcp add --scope user askuser -- askuser mcp",
		"askuser mcp --answers ci/answers.yaml          # as an MCP server for CI",
	},
	"hook": {
		"askuser hook < event.json                      # one Claude Code hook event",
		"askuser hook --answers ci/answers.yaml --timeout 5m",
	},
	"schema": {
		"askuser schema",
		"askuser schema > askuserquestion.schema.json",
	},
	"demo": {
		"askuser demo",
		"askuser demo --plain                           # numbered lines, no escape sequences",
		"askuser demo --frontend auto                   # the recommended options, no prompt",
	},
	"completion": {
		"source <(askuser completion bash)              # add this line to ~/.bashrc to keep it",
		"askuser completion zsh > \"${fpath[1]}/_askuser\"",
		"askuser completion fish > ~/.config/fish/completions/askuser.fish",
	},
	"help": {
		"askuser help",
		"askuser help run",
		"askuser help sessions rm",
	},
}
