package channelwire

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/cmdutil"
	"github.com/askuser/askuser/internal/relay"
)

// Inbox is the frontend that asks wherever askuser serve answers: its page
// and its channels.
const Inbox = relay.Inbox

// IsRelayName reports whether a frontend name asks through the registry:
// the inbox, or a chat channel askuser knows (linked or not).
func IsRelayName(name string) bool {
	if name == Inbox {
		return true
	}
	_, ok := channel.Lookup(name)
	return ok
}

// Members reports whether names include the inbox or a channel.
func Members(names []string) bool { return slices.ContainsFunc(names, IsRelayName) }

// Names are the chat channels this askuser has linked in.
func Names() []string {
	var out []string
	for _, s := range channel.Specs() {
		if s.New != nil {
			out = append(out, s.Name)
		}
	}
	return out
}

// Known are the chat channels askuser knows, linked in or not.
func Known() []string {
	var out []string
	for _, s := range channel.Specs() {
		out = append(out, s.Name)
	}
	return out
}

// Flags are every channel's flags, made from issue 25's table: the
// destination, the allow-list and the API base. Secrets have none: a
// flag's value shows in the process list.
func Flags() []cli.Flag {
	var flags []cli.Flag
	for _, s := range channel.Specs() {
		for _, set := range []channel.Setting{s.Dest, s.Users, s.API} {
			flags = append(flags, &cli.StringFlag{Name: set.Flag(), Category: cmdutil.CatChannels,
				Usage: set.Usage + " (env " + set.Env + ")"})
		}
	}
	return flags
}

// ReadFlags reads the channels' flags (Flags) from c, by name.
func ReadFlags(c *cli.Context) map[string]string {
	out := map[string]string{}
	for _, s := range channel.Specs() {
		for _, set := range []channel.Setting{s.Dest, s.Users, s.API} {
			if v := c.String(set.Flag()); v != "" {
				out[set.Flag()] = v
			}
		}
	}
	return out
}

// channelsFile is the config file channels read their settings from:
// ASKUSER_CHANNELS_FILE, else channels.env in askuser's config directory.
// explicit says it was named, so it must exist.
func channelsFile(f *cmdutil.Factory) (path string, explicit bool) {
	if p := f.Getenv("ASKUSER_CHANNELS_FILE"); p != "" {
		return p, true
	}
	dir := f.Getenv("XDG_CONFIG_HOME")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", false
		}
		dir = filepath.Join(home, ".config")
	}
	return filepath.Join(dir, "askuser", "channels.env"), false
}

// Sources are where the channels' settings are read from: the command's
// channel flags (ReadFlags; nil for a command without them), the
// environment, the config file.
func Sources(f *cmdutil.Factory, flags map[string]string) (channel.Sources, error) {
	path, explicit := channelsFile(f)
	src := channel.Sources{Env: f.Getenv, FilePath: path, File: map[string]string{}}
	if flags != nil {
		src.Flag = func(name string) string { return flags[name] }
	}
	if path == "" {
		return src, nil
	}
	file, err := channel.ReadFile(path, !explicit)
	if err != nil {
		return src, cmdutil.WithCode(cmdutil.ExitUsage, err)
	}
	src.File = file
	return src, nil
}

// Build builds channel name from its configuration. A channel that is not
// linked, or not configured, is a usage error naming what to set.
func Build(name string, src channel.Sources) (relay.Served, error) {
	spec, ok := channel.Lookup(name)
	if !ok {
		return relay.Served{}, cmdutil.UsageErrorf("%s is not a chat channel; askuser knows %s", ask.Excerpt(name), strings.Join(Known(), ", "))
	}
	if spec.New == nil {
		return relay.Served{}, cmdutil.WithCode(cmdutil.ExitUsage, spec.NotLinked())
	}
	cfg, err := spec.Read(src)
	if err != nil {
		return relay.Served{}, cmdutil.WithCode(cmdutil.ExitUsage, err)
	}
	ch, err := spec.New(cfg)
	if err != nil {
		return relay.Served{}, cmdutil.WithCode(cmdutil.ExitUsage, fmt.Errorf("%s: %w", name, err))
	}
	return relay.Served{Channel: ch, Allow: cfg.Allow}, nil
}

// The hidden flags of askuser serve's background resume: register the
// sets the session asks next and stop at once (serve sends them), under
// the messages of the set answered.
const (
	FlagRelayDefer  = "relay-defer"
	FlagRelayThread = "relay-thread"
)

// ResumeFlags are the hidden flags of askuser serve's background resume.
func ResumeFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: FlagRelayDefer, Hidden: true},
		&cli.StringFlag{Name: FlagRelayThread, Hidden: true},
	}
}
