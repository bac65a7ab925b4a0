package channel

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func sources(flags, env, file map[string]string) Sources {
	return Sources{Flag: func(n string) string { return flags[n] }, Env: func(n string) string { return env[n] },
		File: file, FilePath: "/home/me/.config/askuser/channels.env"}
}

func TestSettingFlagNames(t *testing.T) {
	slack, _ := Lookup("slack")
	got := []string{slack.Dest.Flag(), slack.Users.Flag(), slack.API.Flag()}
	if strings.Join(got, " ") != "slack-channel slack-users slack-api-url" {
		t.Errorf("flags %v", got)
	}
}

// Flags win over the environment, which wins over the file; a secret is
// never taken from a flag.
func TestReadTakesEachSettingFromItsPlace(t *testing.T) {
	tg, _ := Lookup("telegram")
	c, err := tg.Read(sources(
		map[string]string{"telegram-chat": "-100", "bot-token": "from-a-flag", "telegram-bot-token": "from-a-flag"},
		map[string]string{"ASKUSER_TELEGRAM_CHAT": "-200", "ASKUSER_TELEGRAM_USERS": "11, 22"},
		map[string]string{"TELEGRAM_BOT_TOKEN": "123456:file-token", "ASKUSER_TELEGRAM_USERS": "99"}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Dest != "-100" || !c.Allow.Allows("11") || c.Allow.Allows("99") || c.Secret("TELEGRAM_BOT_TOKEN") != "123456:file-token" || c.API != "https://api.telegram.org" {
		t.Errorf("config %+v", c)
	}
}

// A channel with no allow-list refuses to start and names the variable;
// no message quotes a secret.
func TestReadNamesWhatIsMissing(t *testing.T) {
	slack, _ := Lookup("slack")
	_, err := slack.Read(sources(nil, map[string]string{"ASKUSER_SLACK_CHANNEL": "C1", "SLACK_BOT_TOKEN": "xoxb-secret-1"}, nil))
	if err == nil {
		t.Fatal("a channel without an allow-list and an app token was configured")
	}
	for _, want := range []string{"ASKUSER_SLACK_USERS (or --slack-users) is empty", "SLACK_APP_TOKEN is not set", "/home/me/.config/askuser/channels.env (mode 0600)"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if strings.Contains(err.Error(), "xoxb-secret") {
		t.Errorf("the error quotes a token: %v", err)
	}
	wa, _ := Lookup("whatsapp")
	c, err := wa.Read(sources(nil, map[string]string{"ASKUSER_WHATSAPP_TO": "+46700000001", "WHATSAPP_TOKEN": "t",
		"WHATSAPP_APP_SECRET": "s", "WHATSAPP_PHONE_NUMBER_ID": "1", "WHATSAPP_VERIFY_TOKEN": "v"}, nil))
	if err != nil || !c.Allow.Allows("+46700000001") {
		t.Errorf("WhatsApp's allow-list does not default to the recipient: %+v, %v", c.Allow, err)
	}
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "channels.env")
	write := func(text string, mode os.FileMode) {
		t.Helper()
		if err := os.WriteFile(path, []byte(text), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(path, mode); err != nil {
			t.Fatal(err)
		}
	}
	write("# tokens\nexport SLACK_BOT_TOKEN='xoxb-1'\n\nASKUSER_SLACK_USERS = U1,U2\nSLACK_APP_TOKEN=\"xapp-2\"\n", 0o600)
	got, err := ReadFile(path, false)
	if err != nil || got["SLACK_BOT_TOKEN"] != "xoxb-1" || got["ASKUSER_SLACK_USERS"] != "U1,U2" || got["SLACK_APP_TOKEN"] != "xapp-2" {
		t.Fatalf("ReadFile = %v, %v", got, err)
	}
	write("SLACK_BOT_TOKEN=xoxb-1\n", 0o644)
	if _, err := ReadFile(path, false); err == nil || !strings.Contains(err.Error(), "chmod 600 "+path) {
		t.Errorf("a file others can read: %v", err)
	}
	write("SLACK_BOT_TOKEN=xoxb-1\nSLAK_APP_TOKEN=xapp-secret\n", 0o600)
	if _, err := ReadFile(path, false); err == nil || !strings.Contains(err.Error(), path+":2: \"SLAK_APP_TOKEN\" is not a channel setting") || strings.Contains(err.Error(), "xapp-secret") {
		t.Errorf("a misspelt key: %v", err)
	}
	write("xoxb-1234-5678-abcd\n", 0o600)
	if _, err := ReadFile(path, false); err == nil || strings.Contains(err.Error(), "xoxb") {
		t.Errorf("a line without =: %v", err)
	}
	if got, err := ReadFile(filepath.Join(dir, "none"), true); err != nil || len(got) != 0 {
		t.Errorf("an optional file that does not exist: %v, %v", got, err)
	}
	if _, err := ReadFile(filepath.Join(dir, "none"), false); err == nil {
		t.Error("a file given by name that does not exist was taken as empty")
	}
	os.Remove(path)
	os.Symlink(filepath.Join(dir, "elsewhere"), path)
	if _, err := ReadFile(path, true); err == nil {
		t.Error("a symbolic link was followed")
	}
}

type nopChannel struct{ Channel }

func TestRegisterLinksABuiltInChannel(t *testing.T) {
	if s, _ := Lookup("whatsapp"); s.New != nil {
		t.Skip("the WhatsApp channel is linked into this test")
	}
	s, ok := Lookup("whatsapp")
	if !ok || s.NotLinked().Error() != "the WhatsApp channel is not built into this askuser yet" {
		t.Fatalf("Lookup = %+v, %v", s, ok)
	}
	if _, ok := Lookup("carrier-pigeon"); ok {
		t.Error("an unknown channel was found")
	}
	Register(Spec{Name: "testonly", New: func(Config) (Channel, error) { return nopChannel{}, nil }})
	t.Cleanup(func() { // -count=2 registers it again
		specsMu.Lock()
		defer specsMu.Unlock()
		specs = slices.DeleteFunc(specs, func(s Spec) bool { return s.Name == "testonly" })
	})
	if s, ok := Lookup("testonly"); !ok || s.New == nil {
		t.Errorf("a registered channel: %+v", s)
	}
}
