package protocol

import (
	"strings"
	"testing"
)

func TestOneOption(t *testing.T) {
	type opts struct{ N int }
	if o, err := OneOption[opts]("Connect", nil); err != nil || o != (opts{}) {
		t.Errorf("none: %v, %v", o, err)
	}
	if o, err := OneOption("Connect", []opts{{N: 3}}); err != nil || o.N != 3 {
		t.Errorf("one: %v, %v", o, err)
	}
	_, err := OneOption("Connect", []opts{{N: 1}, {N: 2}})
	if err == nil || !strings.Contains(err.Error(), "mcp: Connect: 2 options values given, at most one") {
		t.Errorf("two: %v", err)
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(error).Error(), "NewHTTPHandler") {
			t.Errorf("MustOneOption with two: recovered %v", r)
		}
	}()
	MustOneOption("NewHTTPHandler", []opts{{}, {}})
}
