package codec

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/reference"
	"github.com/santhosh-tekuri/jsonschema/v5"
)

// formatTestChecker pairs one of our checkers with its reference.
type formatTestChecker struct {
	name   string
	ours   func(string) bool
	ref    func(string) bool
	allocs bool // may allocate
}

func formatTestRef(name string) func(string) bool {
	f := jsonschema.Formats[name]
	if f == nil {
		panic("no reference format " + name)
	}
	return func(s string) bool { return f(s) }
}

func formatTestRefByte(s string) bool {
	_, err := base64.StdEncoding.DecodeString(s)
	return err == nil
}

func formatTestCheckers() []formatTestChecker {
	return []formatTestChecker{
		{"uri", FormatURI, formatTestRef("uri"), false},
		{"iri", FormatURI, formatTestRef("iri"), false},
		{"uri-reference", FormatURIReference, formatTestRef("uri-reference"), false},
		{"uriref", FormatURIReference, formatTestRef("uriref"), false},
		{"iri-reference", FormatURIReference, formatTestRef("iri-reference"), false},
		{"uri-template", FormatURITemplate, func(s string) bool { return reference.IsURITemplate(s) }, false},
		{"byte", FormatByte, formatTestRefByte, false},
		{"date-time", FormatDateTime, formatTestRef("date-time"), false},
		{"date", FormatDate, formatTestRef("date"), false},
		{"time", FormatTime, formatTestRef("time"), false},
		{"duration", FormatDuration, formatTestRef("duration"), false},
		{"period", FormatPeriod, formatTestRef("period"), false},
		{"hostname", FormatHostname, formatTestRef("hostname"), false},
		{"ipv4", FormatIPv4, formatTestRef("ipv4"), false},
		{"ip-address", FormatIPv4, formatTestRef("ip-address"), false},
		{"ipv6", FormatIPv6, formatTestRef("ipv6"), false},
		{"uuid", FormatUUID, formatTestRef("uuid"), false},
		{"json-pointer", FormatJSONPointer, formatTestRef("json-pointer"), false},
		{"relative-json-pointer", FormatRelativeJSONPointer, formatTestRef("relative-json-pointer"), false},
		{"email", FormatEmail, formatTestRef("email"), false},
		{"regex", FormatRegex, formatTestRef("regex"), true},
	}
}

func formatTestChecker1(t testing.TB, name string) formatTestChecker {
	for _, c := range formatTestCheckers() {
		if c.name == name {
			return c
		}
	}
	t.Fatalf("unknown format %q", name)
	return formatTestChecker{}
}

// formatTestCase is one input for one format; want is "" when only
// agreement with the reference is asserted, else "T" or "F".
type formatTestCase struct {
	format string
	in     string
	want   string
}

var formatTestURIInputs = []string{
	"", " ", "*", "*#x", "#", "#frag", "?", "?q", "/", "//", "///", "////", ".", "..", "./a:b", "a:b", "a:", ":", ":a", "::",
	"http://example.com", "http://example.com/", "HTTP://EXAMPLE.COM/a?b#c", "http://example.com:8080/p", "http://example.com:/",
	"http://example.com:80a/", "http://example.com:8:8/", "ftp://a:1:2/", "ftp://a::/", "foo://a:b:c", "mongodb://h1:1,h2:2/db",
	"http://user@host/", "http://user:pass@host/", "http://us er@host/", "http://user:p@ss@host/", "http://user%zz@host/",
	"http://user%41@host/", "http://@host/", "http://:@host/", "http://u\u00e9@host/", "http://u/s@host/", "http://u[@host/",
	"http://[::1]/", "http://[::1]:80/", "http://[::1]:/", "http://[::1]x/", "http://[::1]:8x/", "http://::1/", "http://[::1/",
	"http://::1]/", "http://a[::1]/", "http://[[::1]]/", "http://[1.2.3.4]/", "http://[::ffff:1.2.3.4]/", "http://[fe80::1%25en0]/",
	"http://[fe80::1%en0]/", "http://[fe80::1%25]/", "http://[fe80::1%eb]/", "http://[::1%2541]/", "http://[2001:db8::1:0:0:1]/",
	"http://[1:2:3:4:5:6:7:8]/", "http://[1:2:3:4:5:6:7:8:9]/", "http://[1::2::3]/", "http://[:::]/", "http://[]/", "http://[v1.x]/",
	"http://[::1]]/", "http://[::]:65536/", "http://[0:0:0:0:0:0:1.2.3.4]/", "http://[::1.2.3]/", "http://[::01.2.3.4]/",
	"http://ex%41mple.com/", "http://ex%C3%A9mple.com/", "http://ex%25mple.com/", "http://ex%zzmple.com/", "http://ex%2/",
	"http://exam ple.com/", "http://exámple.com/", "http://a<b>/", "http://a\"b/", "http://a{b}/", "http://a|b/", "http://a]b/",
	"http://a^b/", "http://a`b/", "http://a%b/", "http://a_b~c!$&'()*+,;=/",
	"http://example.com/%zz", "http://example.com/%2", "http://example.com/%", "http://example.com/%41", "http://example.com/%2f",
	"http://example.com/a b", "http://example.com/a\tb", "http://example.com/a\x7fb", "http://example.com/\x00", "http://x/\u00e9",
	"http://example.com/?%zz", "http://example.com/?a b", "http://example.com/#%zz", "http://example.com/#%2", "http://example.com/#a b",
	"http://example.com/#\x00", "http://example.com/#a#b", "http://example.com/?q#f%41", "http://x/\\", "http://x/#\\",
	"mailto:x", "mailto:x@y.com", "urn:a:b", "urn:isbn:0451450523", "news:comp.lang.go", "tel:+1-816-555-1212", "a:%zz", "a:b c",
	"a:\x01", "a:b#%", "a:b?%", "1a:b", "+a:b", "a+b-c.d:e", "a_b:c", "a%3Ab:c", "é:b", "a/b:c", "a?b:c", "a#b:c", "//host",
	"//host/p", "//host:80", "//u@h", "//[::1]", "///host", "\\\\host\\share", "C:\\path", "c:/x", "/a/b/../c", "a/b", "a/b:c",
	"ab:c/d", "./a", "../a", "a b", "%zz", "%41", "http:", "http:/", "http:/x", "http://", "http:///x", "http:////x", "x://", "x:///",
	"http://a/b/{c}", "http://a/{b}/{c}", "http://a/{b{c}}", "http://a/{b/c}", "http://a/}b{", "http://a/{", "http://a/}",
	"http://a/b?{c}", "http://a/b#{c}", "http://{a}/b", "/{a}/{b}", "{a}", "{a}/b", "a{b}c", "/a%7Bb%7D", "/{a}%zz", "/{a}%41",
	"/{}", "/{{}}", "mailto:{x}", "http://a/{b}?", "*{", "http://a/{b}:{c}", "{/x}", "/x{y}z/w{v}", "/%7b", "/%7B{", "/ {x}",
	"http://[::1]/{x}", "//x/{y}", "x:/{y}", "http://ex.com/a%20b", "http://ex.com/a%2Fb{c}", "HTTPS://a:1:2/", "Http://a:1:2/",
	"http://\u00e9\u00e9/", "http://%e9/", "http://%E9/", "http://%7e/", "http://h%253A/", "http://[%3A%3A1]/",
	"http://[::1%25%65n0]/", "http://a@b@c/", "http://a%40b@c/", "http://h/p?q#f#g", "http://h/p?#", "http://h?/p", "http://h#/p",
	"s://h:1:/", "s://h::1/", "s://[::1]:1:2/", "s://[::1]1/", "s://h:/", "s://h:", "s://:", "s://:1", "s://@", "s://u@", "s://[", "s://]",
}

var formatTestByteInputs = []string{
	"", "\n", "\r\n", "=", "==", "A", "AA", "AAA", "AAAA", "AA==", "AAA=", "A===", "AA=", "AA=A", "AAA=A", "AA==A", "AA==\n",
	"AA=\n=", "AA=\r\n=\r\n", "AAAA\r\nAAAA", "AA\nAA", "A\nA\nA\nA", "QUJD", "QUJDRA==", "QUJDRA", "QUJDRA=", "QUJDRA===",
	"QUJD RA==", "QUJD\tRA==", "QUJD-A==", "QUJD_A==", "QUJD+/==", "Zm9vYmFy", "Zm9vYmE=", "Zm9vYg==", "Zm9vYh==", "Zm9vYmF=",
	"Zm9vYmFyZm9vYmFy", "Zm9vYmFyZm9vYmF", "Zm9vYmFyZm9vYmE=", "Zm9vYmFyZm9vYg==\n\n", "Zm9vYmFyZm9vYg==\nx", "====", "AAAA====",
	"AAAAAAAA=", "\x00", "Zm9v\x00", "Zm9vYmFyZm9vYmFyZm9vYmFy\r", "é", "AAAA\n=", "AAA\n=", "AA\n==", "A\n=\n=",
}

var formatTestTimeInputs = []string{
	"", "12:00:00Z", "12:00:00z", "12:00:00", "12:00:00+01:00", "12:00:00-01:00", "12:00:00+0100", "12:00:00.5Z", "12:00:00.Z",
	"12:00:00.123456789Z", "24:00:00Z", "23:60:00Z", "23:59:60Z", "23:59:60+00:00", "23:59:60+01:00", "00:59:60+01:00",
	"22:59:60-01:00", "23:59:61Z", "+1:00:00Z", "-0:00:00Z", "-1:00:00Z", "1:00:00Z", "01:00:00+-0:00", "01:00:00++1:00",
	"01:00:00+24:00", "01:00:00+23:60", "01:00:00+23:59", "01:00:00Zx", "01:00:00ZZ", "01:00:00 Z", "01:00:00.1.1Z", "0a:00:00Z",
	"01:00:00.1+01:00", "01:00:00+01:00x", "12:00:00Z\n", "١٢:00:00Z", "12:00:00+01:0", "12:00:00.+01:00", "00:00:60-23:59",
	"23:59:60.999Z", "00:00:00+00:00", "12:00:00 ", "12:00:00#01:00",
}

var formatTestDateInputs = []string{
	"", "2020-01-01", "2020-02-29", "2019-02-29", "1900-02-29", "2000-02-29", "0000-02-29", "2020-13-01", "2020-00-01", "2020-01-00",
	"2020-01-32", "2020-04-31", "2020-04-30", "2020-1-01", "2020-01-1", "20200101", "+020-01-01", "-020-01-01", "2020/01/01",
	"2020-01-01T", "2020-01-01 ", " 2020-01-01", "9999-12-31", "2020-0a-01", "2020-01-0a", "2020-01-+1", "202a-01-01",
}

var formatTestDateTimeInputs = []string{
	"", "2020-01-01T00:00:00Z", "2020-01-01t00:00:00z", "2020-01-01 00:00:00Z", "2020-01-01T00:00:00", "2020-01-01T00:00:00+01:00",
	"2020-02-30T00:00:00Z", "2016-12-31T23:59:60Z", "2016-12-31T23:59:60+01:00", "2016-12-31T22:59:60-01:00",
	"2020-01-01T00:00:00.123Z", "2020-01-01T24:00:00Z", "2020-01-01T+1:00:00Z", "2020-01-01X00:00:00Z", "2020-01-01T00:00:00ZZ",
	"2020-01-01T00:00:0Z", "2020-01-01T00:00Z", "1985-04-12T23:20:50.52Z", "1996-12-19T16:39:57-08:00",
}

var formatTestDurationInputs = []string{
	"", "P", "PT", "P1Y", "P1M", "P1D", "P1W", "P1Y2M3D", "P1Y3D", "P1D2M", "P1Y1Y", "P1W1D", "P1DT", "PT1H", "PT1M", "PT1S",
	"PT1H2M3S", "PT1H3S", "PT1S1H", "P1YT1H", "P1Y2M3DT4H5M6S", "P1", "PT1", "P1T1H", "PT1T", "P1.5Y", "P-1Y", "p1Y", "P1y",
	"P1WT1H", "P1Y2W", "PT1H1H", "P0D", "P1X", "PT1X", "P1Y2M3D4", "P1YT", "P1é", "PT1HT", "P1Y ", "P12345678901234567890Y", "PTT",
}

var formatTestPeriodInputs = []string{
	"", "/", "2020-01-01T00:00:00Z/2020-01-02T00:00:00Z", "2020-01-01T00:00:00Z/P1D", "P1D/2020-01-01T00:00:00Z", "P1D/P1D",
	"2020-01-01T00:00:00Z/", "/2020-01-01T00:00:00Z", "2020-01-01/2020-01-02", "2020-01-01T00:00:00Z/P1D/P1D",
	"P1D/2020-01-01T00:00:00Z/x", "2020-01-01T00:00:00Z", "P1D",
}

var formatTestHostnameInputs = []string{
	"", ".", "..", "a", "a.", "a..", "a.b", "a.b.", ".a", "-a", "a-", "a.-b", "a.b-", "a-b", "a_b", "1", "1.2.3.4", "xn--bcher-kva.example",
	"exa mple.com", "exämple.com", "a.b\x00", strings.Repeat("a", 63), strings.Repeat("a", 64), strings.Repeat("a", 63) + "." + strings.Repeat("b", 63),
	strings.Repeat("a.", 126) + "a", strings.Repeat("a.", 126) + "ab", strings.Repeat("a.", 127), strings.Repeat("a.", 127) + ".", "A-Z.COM",
	"-", "a.-", "a.b.-", "*.example.com", "a:b",
}

var formatTestIPv4Inputs = []string{
	"", "1.2.3.4", "0.0.0.0", "255.255.255.255", "256.1.1.1", "1.2.3", "1.2.3.4.5", "1.2.3.4.", ".1.2.3", "01.2.3.4", "00.0.0.0",
	"+1.2.3.4", "-0.0.0.0", "-1.2.3.4", "+01.2.3.4", "0x1.2.3.4", "1..2.3", "1.2.3.a", " 1.2.3.4", "1.2.3.4 ", "+.1.2.3", "-.1.2.3",
	"1.2.3.000", "1.2.3.0000000000000000000001", "1.2.3.00000000000000000000", "1.2.3.99999999999999999999999", "1.2.3.+255", "١.2.3.4",
	"1.2.3.-0000000000000000000000000", "1.2.3.4\n",
}

var formatTestIPv6Inputs = []string{
	"", ":", "::", ":::", "::1", "1::", "1::1", "1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7", "1:2:3:4:5:6:7::",
	"::1:2:3:4:5:6:7", "::1:2:3:4:5:6:7:8", "1::2::3", "12345::", "fffff::", "FFFF::", "g::", "::ffff:1.2.3.4", "::1.2.3.4",
	"1:2:3:4:5:6:1.2.3.4", "1:2:3:4:5:6:7:1.2.3.4", "1:2:3:4:5:1.2.3.4", "::1.2.3", "::1.2.3.4.5", "::01.2.3.4", "::256.1.1.1",
	"::1.2.3.4%eth0", "fe80::1%eth0", "fe80::1%", "%1", "1.2.3.4", "1.2.3.4:", "1.2::", "::1 ", " ::1", "[::1]", "1:", ":1", "1::2:",
	":1::2", "::1:", "0:0:0:0:0:0:0:0", "::0:0:0:0:0:0:0", "0:0:0:0:0:0:0::", "a:b:c:d:e:f:1.2.3.4", "::a:1.2.3.4", "::1234.1.1.1",
	"::ab.1.1.1", "1:2:3:4:5:6:7:8%x", "::ffff:1.2.3.04", "::ffff:0.0.0.0", "1::1.2.3.4", "::1.2.3.", "::.1.2.3",
}

var formatTestUUIDInputs = []string{
	"", "123e4567-e89b-12d3-a456-426614174000", "123E4567-E89B-12D3-A456-426614174000", "123e4567e89b12d3a456426614174000",
	"123e4567-e89b-12d3-a456-42661417400", "123e4567-e89b-12d3-a456-4266141740000", "123e4567-e89b-12d3-a456_426614174000",
	"g23e4567-e89b-12d3-a456-426614174000", "{123e4567-e89b-12d3-a456-426614174000}", "123e4567-e89b-12d3-a4564-26614174000",
	"00000000-0000-0000-0000-000000000000",
}

var formatTestPointerInputs = []string{
	"", "/", "//", "/a", "a", "#", "#/a", "/a~0", "/a~1", "/a~2", "/a~", "/~/", "/~1/~0", "/a/b~", "/a b", "/é", "~0", "/~01",
	"0", "1", "01", "10", "0#", "1#", "0/a", "12/a~1", "0/a~", "#/", "-1", "1a", "1/", "1#/", "00", "0 ", " 0", "0##", "99999999999999999999/a",
}

var formatTestEmailInputs = []string{
	"", "@", "a@", "@b", "a@b", "a@b.com", "a.b@c.com", "a..b@c.com", ".a@c.com", "a.@c.com", "a@b.com.", "a@b..com", "a@-b.com",
	"a@b-.com", "a@b_c.com", "\"a\"@b.com", "\"\"@b.com", "\"a b\"@b.com", "\"a@b\"@c.com", "\"a\\\"b\"@c.com", "\"a\\\"@c.com",
	"\"a\"b\"@c.com", "a\"b@c.com", " a@b.com", "\ta@b.com", "a @b.com", "a@ b.com", "a@b.com ", "(c)a@b.com", "a(c)@b.com",
	"a@[1.2.3.4]", "a@[IPv6:::1]", "a@[::1]", "a@[IPv6:1.2.3.4]", "a@[300.1.1.1]", "[a]@[1.2.3.4]", "a b@[1.2.3.4]", "@[1.2.3.4]",
	"a@[]", "a@[", "a@]", "Name <a@b.com>", "<a@b.com>", "a@b@c.com", "a,b@c.com", "a;b@c.com", "a<b@c.com", "é@b.com",
	"\xff@b.com", "a\xff@b.com", "\"\xff\"@b.com", "\"é\"@b.com", "\"a\tb\"@c.com", "\"a\\\tb\"@c.com", "\"a\x01b\"@c.com",
	"!#$%&'*+-/=?^_`{|}~@b.com", "a\\b@c.com", "a:b@c.com", "g: a@b.com;", strings.Repeat("a", 64) + "@b.com",
	strings.Repeat("a", 65) + "@b.com", "a@" + strings.Repeat("b", 63) + "." + strings.Repeat("c", 63) + "." + strings.Repeat("d", 63) + "." + strings.Repeat("e", 61),
	"a@" + strings.Repeat("b.", 126) + "cc", "=?utf-8?q?a?=@b.com", "a@b.com(comment)", "a@1.2.3.4", "a@\xef\xbf\xbd.com",
	"\xef\xbf\xbd@b.com", "\"\\\xff\"@b.com",
}

var formatTestRegexInputs = []string{
	"", "a", "a(", "a)", "[a-", "[a-z]", "\\", "\\d+", "(?P<n>x)", "(?<n>x)", "x{1001}", "x{1000}", "(?i)a", "(?z)a", "a**", "a++",
	"\\p{Greek}", "\\p{Nope}", "[[:alpha:]]", "[[:nope:]]", "\xff", "^$", "a|", "|", "(?:", "\\Q(\\E", "x{2,1}", "\\8", "(?=a)",
}

func formatTestCases() []formatTestCase {
	var cases []formatTestCase
	add := func(formats []string, inputs []string) {
		for _, f := range formats {
			for _, in := range inputs {
				cases = append(cases, formatTestCase{f, in, ""})
			}
		}
	}
	add([]string{"uri", "uri-reference", "uri-template"}, formatTestURIInputs)
	add([]string{"byte"}, formatTestByteInputs)
	add([]string{"time"}, formatTestTimeInputs)
	add([]string{"date"}, formatTestDateInputs)
	add([]string{"date-time", "period"}, formatTestDateTimeInputs)
	add([]string{"duration", "period"}, formatTestDurationInputs)
	add([]string{"period"}, formatTestPeriodInputs)
	add([]string{"hostname", "email"}, formatTestHostnameInputs)
	add([]string{"ipv4"}, formatTestIPv4Inputs)
	add([]string{"ipv6", "uri"}, formatTestIPv6Inputs)
	add([]string{"uuid"}, formatTestUUIDInputs)
	add([]string{"json-pointer", "relative-json-pointer"}, formatTestPointerInputs)
	add([]string{"email"}, formatTestEmailInputs)
	add([]string{"regex"}, formatTestRegexInputs)

	// Literal expectations, so that the test cannot pass vacuously.
	lit := []formatTestCase{
		{"uri", "http://example.com/a?b#c", "T"},
		{"uri", "mailto:x", "T"},
		{"uri", "urn:a:b", "T"},
		{"uri", "/relative/path", "F"},
		{"uri", "http://example.com/%zz", "F"},
		{"uri", "http://example.com/%2", "F"},
		{"uri", "http://::1/", "F"},
		{"uri", "http://[::1]:80/", "T"},
		{"uri", "http://[fe80::1%25en0]/", "F"},
		{"uri", "http://a b/", "F"},
		{"uri", "http://example.com/#\x00", "T"},
		{"uri-reference", "/relative/path", "T"},
		{"uri-reference", "a\\b", "F"},
		{"uri-reference", "a:b", "T"},
		{"uri-reference", "1a:b", "F"},
		{"uri-template", "http://a/{b}/{c}", "T"},
		{"uri-template", "http://a/{b{c}}", "F"},
		{"uri-template", "http://a/{b/c}", "F"},
		{"uri-template", "http://a/b?{c", "F"},
		{"uri-template", "http://{a}/b", "T"},
		{"uri-template", "users://{userId}/profile", "T"},
		{"uri-template", "x://a{/b,c*}{?q,n:3}{&m}", "T"},
		{"uri-template", "{+path}/here{#frag}{.ext}{;p}", "T"},
		{"uri-template", "{a.b.c}{a%20b}", "T"},
		{"uri-template", "{}", "F"},
		{"uri-template", "{a..b}", "F"},
		{"uri-template", "{a.}", "F"},
		{"uri-template", "{.a}", "T"},
		{"uri-template", "{a:0}", "F"},
		{"uri-template", "{a:9999}", "T"},
		{"uri-template", "{a:10000}", "F"},
		{"uri-template", "{a*:3}", "F"},
		{"uri-template", "{a,}", "F"},
		{"uri-template", "{a b}", "F"},
		{"uri-template", "a b", "F"},
		{"uri-template", "a%zz", "F"},
		{"uri-template", "a%2F", "T"},
		{"uri-template", "caf\u00e9/{x}", "T"},
		{"uri-template", "a|b", "F"},
		{"uri-template", "\xff", "F"},
		{"uri-template", "\U000e0001", "F"},
		{"uri-template", "\U000e1000", "T"},
		{"uri-template", "\U0001fffe", "F"},
		{"byte", "", "T"},
		{"byte", "Zm9vYg==", "T"},
		{"byte", "Zm9vYg", "F"},
		{"byte", "Zm9v\r\nYmFy", "T"},
		{"byte", "Zm9v_-==", "F"},
		{"byte", "Zm9vYh==", "T"},
		{"date-time", "2016-12-31T23:59:60Z", "T"},
		{"date-time", "2016-12-31T23:59:60+01:00", "F"},
		{"date-time", "2020-01-01T00:00:00+01:00", "T"},
		{"date", "2020-02-29", "T"},
		{"date", "2019-02-29", "F"},
		{"time", "+1:00:00Z", "T"},
		{"time", "12:00:00", "F"},
		{"duration", "P1Y2M3DT4H5M6S", "T"},
		{"duration", "P1Y3D", "F"},
		{"duration", "P1W", "T"},
		{"period", "2020-01-01T00:00:00Z/P1D", "T"},
		{"period", "P1D/P1D", "F"},
		{"hostname", "a.-b", "T"},
		{"hostname", "-a.b", "F"},
		{"hostname", "example.com.", "T"},
		{"ipv4", "+1.2.3.4", "T"},
		{"ipv4", "01.2.3.4", "F"},
		{"ipv4", "-0.0.0.0", "T"},
		{"ipv6", "::ffff:1.2.3.4", "T"},
		{"ipv6", "fe80::1%eth0", "F"},
		{"ipv6", "1.2.3.4", "F"},
		{"uuid", "123e4567-e89b-12d3-a456-426614174000", "T"},
		{"uuid", "123e4567e89b12d3a456426614174000", "F"},
		{"json-pointer", "/a~1b", "T"},
		{"json-pointer", "/a~2b", "F"},
		{"relative-json-pointer", "0#", "T"},
		{"relative-json-pointer", "01/a", "F"},
		{"email", "a@b.com", "T"},
		{"email", "\"a@b\"@c.com", "T"},
		{"email", "a@b.com.", "F"},
		{"email", "a..b@c.com", "F"},
		{"email", "anything goes@[1.2.3.4]", "T"},
		{"regex", "a(", "F"},
		{"regex", "(?P<n>x)", "T"},
	}
	return append(cases, lit...)
}

func TestFormatCheckers(t *testing.T) {
	checkers := map[string]formatTestChecker{}
	for _, c := range formatTestCheckers() {
		checkers[c.name] = c
	}
	seen := map[string]int{}
	for _, tc := range formatTestCases() {
		c, ok := checkers[tc.format]
		if !ok {
			t.Fatalf("unknown format %q", tc.format)
		}
		got, ref := c.ours(tc.in), c.ref(tc.in)
		if got != ref {
			t.Errorf("%s(%q) = %v, reference says %v", tc.format, tc.in, got, ref)
		}
		if tc.want != "" {
			if want := tc.want == "T"; got != want || ref != want {
				t.Errorf("%s(%q) = %v (reference %v), want %v", tc.format, tc.in, got, ref, want)
			}
		}
		if ref {
			seen[tc.format+"/T"]++
		} else {
			seen[tc.format+"/F"]++
		}
	}
	// Every format must see both verdicts.
	for name := range checkers {
		switch name {
		case "iri", "uriref", "iri-reference", "ip-address":
			continue
		}
		if seen[name+"/T"] == 0 || seen[name+"/F"] == 0 {
			t.Errorf("%s: table has %d valid and %d invalid inputs; want both", name, seen[name+"/T"], seen[name+"/F"])
		}
	}
}

// TestFormatAliases checks the aliases over every table input.
func TestFormatAliases(t *testing.T) {
	for _, c := range formatTestCheckers() {
		switch c.name {
		case "iri", "uriref", "iri-reference", "ip-address":
		default:
			continue
		}
		for _, tc := range formatTestCases() {
			if got, ref := c.ours(tc.in), c.ref(tc.in); got != ref {
				t.Errorf("%s(%q) = %v, reference says %v", c.name, tc.in, got, ref)
			}
		}
	}
}

func TestFormatAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping in short mode")
	}
	var inputs []string
	for _, tc := range formatTestCases() {
		inputs = append(inputs, tc.in)
	}
	var sink bool
	for _, c := range formatTestCheckers() {
		if c.allocs {
			continue
		}
		f := c.ours
		valid, invalid := 0, 0
		for _, in := range inputs {
			if f(in) {
				valid++
			} else {
				invalid++
			}
			if n := testing.AllocsPerRun(20, func() { sink = f(in) }); n != 0 {
				t.Errorf("%s(%q): %v allocs per run, want 0", c.name, in, n)
			}
		}
		t.Logf("%-22s AllocsPerRun == 0 over %d inputs (%d valid, %d invalid)", c.name, len(inputs), valid, invalid)
	}
	_ = sink
}

func formatTestFuzz(f *testing.F, name string) {
	c := formatTestChecker1(f, name)
	for _, tc := range formatTestCases() {
		f.Add(tc.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, ref := c.ours(s), c.ref(s); got != ref {
			t.Errorf("%s(%q) = %v, reference says %v", name, s, got, ref)
		}
	})
}

func FuzzFormatURI(f *testing.F)          { formatTestFuzz(f, "uri") }
func FuzzFormatURIReference(f *testing.F) { formatTestFuzz(f, "uri-reference") }
func FuzzFormatURITemplate(f *testing.F)  { formatTestFuzz(f, "uri-template") }
func FuzzFormatByte(f *testing.F)         { formatTestFuzz(f, "byte") }
func FuzzFormatDateTime(f *testing.F)     { formatTestFuzz(f, "date-time") }
func FuzzFormatDate(f *testing.F)         { formatTestFuzz(f, "date") }
func FuzzFormatTime(f *testing.F)         { formatTestFuzz(f, "time") }
func FuzzFormatDuration(f *testing.F)     { formatTestFuzz(f, "duration") }
func FuzzFormatPeriod(f *testing.F)       { formatTestFuzz(f, "period") }
func FuzzFormatHostname(f *testing.F)     { formatTestFuzz(f, "hostname") }
func FuzzFormatIPv4(f *testing.F)         { formatTestFuzz(f, "ipv4") }
func FuzzFormatIPv6(f *testing.F)         { formatTestFuzz(f, "ipv6") }
func FuzzFormatUUID(f *testing.F)         { formatTestFuzz(f, "uuid") }
func FuzzFormatJSONPointer(f *testing.F)  { formatTestFuzz(f, "json-pointer") }
func FuzzFormatRelativeJSONPointer(f *testing.F) {
	formatTestFuzz(f, "relative-json-pointer")
}
func FuzzFormatEmail(f *testing.F) { formatTestFuzz(f, "email") }
func FuzzFormatRegex(f *testing.F) { formatTestFuzz(f, "regex") }
