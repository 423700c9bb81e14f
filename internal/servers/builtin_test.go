package servers

import (
	"reflect"
	"testing"
)

// The built-in profile a suite without servers.yaml gets must be the one
// the shipped servers.yaml describes.
func TestBuiltinMatchesServersFile(t *testing.T) {
	set, err := Load("../../benchmarks/servers.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want, err := set.Get("builtin")
	if err != nil {
		t.Fatal(err)
	}
	got := Builtin()
	if got.Name() != "builtin" || !reflect.DeepEqual(got.Allow(), want.Allow()) ||
		!reflect.DeepEqual(got.PageTools(), want.PageTools()) || !reflect.DeepEqual(got.command, want.command) ||
		!reflect.DeepEqual(got.UnsafeTools(), want.UnsafeTools()) {
		t.Errorf("Builtin() differs from benchmarks/servers.yaml's builtin entry:\n got %+v\nwant %+v", got, want)
	}
	for _, a := range []Action{ActNavigate, ActRead, ActClick, ActType, ActPressKey, ActBack} {
		if got.Tool(a) != want.Tool(a) {
			t.Errorf("action %v: Builtin() uses %s, servers.yaml %s", a, got.Tool(a), want.Tool(a))
		}
	}
}
