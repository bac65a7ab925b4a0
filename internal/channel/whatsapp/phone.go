package whatsapp

import (
	"errors"
	"strconv"
	"strings"

	"github.com/askuser/askuser/ask"
)

// E.164 bounds: a country code and a subscriber number, at most 15
// digits; the shortest numbers in use have 8.
const (
	minDigits = 8
	maxDigits = 15
)

// Normalise puts a phone number in the form WhatsApp's webhooks give it
// (E.164 digits without the "+": "16505551234"), which is the form the
// allow-list holds and compares whole. It accepts "+1 650-555-1234",
// "(+1) 650 555 1234" and "0016505551234"; a number in national form
// ("0650…") is refused, since its country cannot be known.
func Normalise(s string) (string, error) {
	in := strings.TrimSpace(s)
	var b strings.Builder
	plus := false
	for _, r := range in {
		switch {
		case r >= '0' && r <= '9':
			b.WriteRune(r)
		case r == '+' && b.Len() == 0 && !plus:
			plus = true
		case r == ' ' || r == '-' || r == '.' || r == '(' || r == ')' || r == '\u00a0':
		default:
			return "", errors.New(bad(in, "it has "+strconv.QuoteRune(r)+" in it"))
		}
	}
	d := b.String()
	if !plus && strings.HasPrefix(d, "00") {
		d = d[2:] // the international prefix most countries dial
	}
	switch {
	case d == "":
		return "", errors.New(bad(in, "it has no digits"))
	case d[0] == '0':
		return "", errors.New(bad(in, "it is in national form"))
	case len(d) < minDigits || len(d) > maxDigits:
		return "", errors.New(bad(in, "E.164 numbers have 8 to 15 digits"))
	}
	return d, nil
}

// E164 shows a normalised number as a person reads it: "+16505551234".
func E164(digits string) string { return "+" + digits }

func bad(s, why string) string {
	return ask.Excerpt(ask.Display(s)) + " is not a phone number in international form (" + why +
		"): write it as + and the country code, e.g. +16505551234"
}
