package gen

import "testing"

// TestLeadIn pins how a schema description becomes the rest of a doc
// comment that starts with the declaration's name, and which descriptions
// are left to the lead-in that says what the declaration is.
func TestLeadIn(t *testing.T) {
	cases := []struct {
		desc, want string
		ok         bool
	}{
		{"A tool the server offers.", "is a tool the server offers.", true},
		{"Describes a message.", "describes a message.", true},
		{"Sent from the client to list tools.", "is sent from the client to list tools.", true},
		{"This notification is sent by the client.", "is sent by the client.", true},
		{"This request can be sent by either side.", "can be sent by either side.", true},
		{"Whether the client supports tools.", "says whether the client supports tools.", true},
		{"Parameters for a `tools/call` request.", "holds parameters for a `tools/call` request.", true},
		{"Common result fields.", "holds common result fields.", true},
		{"Schema for an enumeration.", "is a schema for an enumeration.", true},
		{"Optional specifier for the theme.", "is an optional specifier for the theme.", true},
		{"Text provided to or from an LLM.", "is text provided to or from an LLM.", true},
		{"Another protocol's ping.", "is another protocol's ping.", true},
		{"JSONRPCNotification of a log message.", "is a JSONRPCNotification of a log message.", true},
		{"After receiving an initialize request, the server answers.", "", false},
		{"See [General fields: `_meta`](/spec) for notes.", "", false},
		{"This is it.", "", false},
		{"`x` is the member.", "", false},
	}
	for _, c := range cases {
		got, ok := leadIn(c.desc)
		if got != c.want || ok != c.ok {
			t.Errorf("leadIn(%q) = %q, %v; want %q, %v", c.desc, got, ok, c.want, c.ok)
		}
	}
}
