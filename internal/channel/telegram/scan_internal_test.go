package telegram

import (
	"strings"
	"testing"
)

// The first update's id is found whatever the order of its members and
// whatever its strings hold; an answer cut before it, or with no update,
// gives none.
func TestFirstUpdateID(t *testing.T) {
	for _, c := range []struct {
		answer string
		id     int64
		ok     bool
	}{
		{`{"ok":true,"result":[{"update_id":7,"message":{"text":"hi"}}]}`, 7, true},
		{`{"ok":true,"result":[{"message":{"text":"a}]\"b,{:","n":[1,-2.5e3,{"x":null,"y":true}]},"update_id":9},{"update_id":10}]}`, 9, true},
		{` { "result" : [ { "callback_query" : { "data" : "x" } , "update_id" : 12 } ] , "ok" : true } `, 12, true},
		{`{"description":"` + strings.Repeat("é\\\"", 1000) + `","ok":true,"result":[{"update_id":3}]}`, 3, true},
		{`{"ok":true,"result":[{"message":{"text":"` + strings.Repeat("a", 5000), 0, false},
		{`{"ok":true,"result":[]}`, 0, false},
		{`{"ok":true,"result":[{"message":{}}]}`, 0, false},
		{`<html>502 Bad Gateway</html>`, 0, false},
	} {
		id, ok := firstUpdateID(strings.NewReader(c.answer))
		if id != c.id || ok != c.ok {
			t.Errorf("%.60s…: %d, %v; want %d, %v", c.answer, id, ok, c.id, c.ok)
		}
	}
}
