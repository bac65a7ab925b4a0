package inbox

// keptCookieAge is how long, in seconds, the cookie of a page whose token
// is kept across restarts (Options.Token) lasts after the last page
// loaded with it: a phone's bookmark of the page keeps working for 90
// days of not being opened, through restarts of the browser and of
// askuser serve. A new token ends it at once.
const keptCookieAge = 90 * 24 * 60 * 60

// NewToken returns a new random token for a page's URL, as a Server makes
// for itself when Options.Token is empty.
func NewToken() string { return randomToken() }

// ValidToken reports whether s is a token as NewToken makes it: 32
// lower-case hexadecimal digits.
func ValidToken(s string) bool {
	if len(s) != 32 {
		return false
	}
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
