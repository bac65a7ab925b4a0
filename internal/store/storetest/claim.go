package storetest

import (
	"testing"

	"github.com/askuser/askuser/internal/channel"
)

// claimCase: a set claimed by one process (an asking outside a session) is
// claimed by no other, nor again by the same process, until released; a
// Hold of it still says it is waited on. It is how two askings of one id
// at once (two CI runners, on one machine or on several sharing a team
// store) learn of each other and ask under names of their own.
var claimCase = Case{"registry/a set is claimed by one asking at a time", func(t *testing.T, procs Procs) {
	first, second := procs(), procs()
	key := channel.Key("", "deploy")
	release, ok, err := first.Registry().Claim(key)
	if err != nil || !ok {
		t.Fatalf("the first claim: %v, %v", ok, err)
	}
	for name, st := range map[string]interface {
		Claim(string) (func(), bool, error)
	}{"another process": second.Registry(), "the same process": first.Registry()} {
		if _, ok, err := st.Claim(key); err != nil || ok {
			t.Errorf("%s claimed a set claimed already: %v, %v", name, ok, err)
		}
	}
	if !second.Registry().Held(key) {
		t.Error("a claimed set is not seen as waited on")
	}
	release()
	again, ok, err := second.Registry().Claim(key)
	if err != nil || !ok {
		t.Fatalf("a claim after the release: %v, %v", ok, err)
	}
	again()
}}

func init() { registryCases = append(registryCases, claimCase) }
