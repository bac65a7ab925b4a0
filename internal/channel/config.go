package channel

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Configuration is one contract for every channel, so the same setup works
// in a shell, in CI and in tests: secrets come from the environment or a
// config file that only its owner can read, never from flags (a flag's
// value is in the process list); the destination, the allow-list and the
// API base come from flags, the environment or the file, in that order.
// A channel's package adds its constructor with Register; askuser knows
// every channel's settings before that, so it can say that a channel is
// not built in, rather than that it does not exist.

// Setting is one variable of a channel's configuration.
type Setting struct {
	// Env is the environment variable, and the config file's key:
	// ASKUSER_SLACK_CHANNEL.
	Env string
	// Usage says what it holds, for --help.
	Usage string
}

// Flag is the setting's flag: the variable without ASKUSER_, in lower
// case, with dashes ("slack-channel").
func (s Setting) Flag() string {
	return strings.ReplaceAll(strings.ToLower(strings.TrimPrefix(s.Env, "ASKUSER_")), "_", "-")
}

// Spec is a channel as askuser knows it: its name, its configuration, and,
// once its package is linked, how to build it.
type Spec struct {
	// Name is the frontend name: "slack".
	Name string
	// Secrets are read from the environment or the config file only.
	// Every one is required.
	Secrets []Setting
	// Dest is where questions go; a channel is configured when it is set.
	Dest Setting
	// Users is the allow-list: who may answer.
	Users Setting
	// API is the API base; DefaultAPI when unset.
	API        Setting
	DefaultAPI string
	// UsersDefaultToDest makes the destination the allow-list when none
	// is given (WhatsApp: the recipient).
	UsersDefaultToDest bool
	// Normalise puts a user id in the form the channel compares (a phone
	// number in E.164 digits); nil keeps ids as written.
	Normalise func(string) (string, error)
	// New builds the channel; nil until its package is linked.
	New func(Config) (Channel, error)
}

// Settings are every variable of the spec, secrets first.
func (s Spec) Settings() []Setting {
	return append(slices.Clone(s.Secrets), s.Dest, s.Users, s.API)
}

// builtin is issue 25's table: the three platforms, whatever is linked.
var builtin = []Spec{
	{
		Name: "slack",
		Secrets: []Setting{
			{Env: "SLACK_BOT_TOKEN", Usage: "the bot token (xoxb-…)"},
			{Env: "SLACK_APP_TOKEN", Usage: "the app-level token for Socket Mode (xapp-…, with connections:write)"},
		},
		Dest:       Setting{Env: "ASKUSER_SLACK_CHANNEL", Usage: "the Slack channel id to ask in, or a user id for a DM"},
		Users:      Setting{Env: "ASKUSER_SLACK_USERS", Usage: "the Slack user ids who may answer, comma-separated"},
		API:        Setting{Env: "ASKUSER_SLACK_API_URL", Usage: "the Slack Web API base, ending in /api/ (tests, proxies)"},
		DefaultAPI: "https://slack.com/api/",
	},
	{
		Name:       "telegram",
		Secrets:    []Setting{{Env: "TELEGRAM_BOT_TOKEN", Usage: "the bot token from @BotFather"}},
		Dest:       Setting{Env: "ASKUSER_TELEGRAM_CHAT", Usage: "the Telegram chat id to ask in"},
		Users:      Setting{Env: "ASKUSER_TELEGRAM_USERS", Usage: "the Telegram user ids (not chat ids) who may answer, comma-separated"},
		API:        Setting{Env: "ASKUSER_TELEGRAM_API_URL", Usage: "the Bot API server (tests, proxies)"},
		DefaultAPI: "https://api.telegram.org",
	},
	{
		Name: "whatsapp",
		Secrets: []Setting{
			{Env: "WHATSAPP_TOKEN", Usage: "the Cloud API access token"},
			{Env: "WHATSAPP_APP_SECRET", Usage: "the app secret that signs webhook posts"},
			{Env: "WHATSAPP_PHONE_NUMBER_ID", Usage: "the sending number's id"},
			{Env: "WHATSAPP_VERIFY_TOKEN", Usage: "the webhook's verify token"},
		},
		Dest:               Setting{Env: "ASKUSER_WHATSAPP_TO", Usage: "the phone number to ask"},
		Users:              Setting{Env: "ASKUSER_WHATSAPP_USERS", Usage: "the phone numbers who may answer, comma-separated (default: the recipient)"},
		API:                Setting{Env: "ASKUSER_WHATSAPP_API_URL", Usage: "the Graph API root, without a version (tests, proxies)"},
		DefaultAPI:         "https://graph.facebook.com",
		UsersDefaultToDest: true,
	},
}

var (
	specsMu sync.Mutex
	specs   = slices.Clone(builtin)
)

// Register links a channel's constructor in. A name of the built-in
// table keeps the table's settings and takes New and Normalise from s;
// another name (a test channel) is added whole. Registering a name twice
// is a programming error and panics, at start-up.
func Register(s Spec) {
	specsMu.Lock()
	defer specsMu.Unlock()
	if s.New == nil {
		panic("channel.Register: " + s.Name + " without New")
	}
	for i := range specs {
		if specs[i].Name != s.Name {
			continue
		}
		if specs[i].New != nil {
			panic("channel.Register: " + s.Name + " registered twice")
		}
		specs[i].New, specs[i].Normalise = s.New, s.Normalise
		return
	}
	specs = append(specs, s)
}

// Specs returns every channel askuser knows, linked or not.
func Specs() []Spec {
	specsMu.Lock()
	defer specsMu.Unlock()
	return slices.Clone(specs)
}

// Lookup returns the channel named name.
func Lookup(name string) (Spec, bool) {
	for _, s := range Specs() {
		if s.Name == name {
			return s, true
		}
	}
	return Spec{}, false
}

// NotLinked is the error for a channel askuser knows but was built
// without.
func (s Spec) NotLinked() error {
	return fmt.Errorf("the %s channel is not built into this askuser yet", Title(s.Name))
}
