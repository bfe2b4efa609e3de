package gen

import (
	"strconv"
	"strings"
)

// enumWord is the part of an enum constant's name that comes from a string
// value: the value's words, capitalised like a property name's
// (dark-mode -> DarkMode), after the enum type's name. It never fails,
// so that every string a schema can list gets a constant:
//
//   - the empty string is Empty;
//   - a control character is a word of its ASCII name ("foo\nbar" ->
//     FooLFBar, "foo\rbar" -> FooCRBar, a tab is Tab);
//   - a character outside ASCII is a word of its code point ("é" -> UE9);
//   - a value of punctuation alone spells it out ("+" -> Plus, "..." ->
//     DotDotDot);
//   - the word may start with a digit (the type's name comes first).
//
// Two values with the same word (dark-mode, dark_mode) are an error
// naming both.
func enumWord(v string) string {
	if v == "" {
		return "Empty"
	}
	var b strings.Builder
	for _, r := range v {
		switch {
		case r < 0x20 || r == 0x7f:
			b.WriteString(" " + controlNames[min(int(r), 0x20)] + " ")
		case r >= 0x80:
			b.WriteString(" U" + strings.ToUpper(strconv.FormatInt(int64(r), 16)) + " ")
		default:
			b.WriteRune(r)
		}
	}
	if w := camel(words(b.String())); w != "" {
		return w
	}
	var p strings.Builder
	for _, r := range v {
		if n, ok := punctuationNames[r]; ok {
			p.WriteString(n)
		}
	}
	return p.String()
}

// controlNames are the ASCII names of the control characters (DEL last).
var controlNames = [...]string{"NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS", "Tab", "LF", "VT", "FF", "CR",
	"SO", "SI", "DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB", "CAN", "EM", "SUB", "ESC", "FS", "GS", "RS", "US", "DEL"}

// punctuationNames spell the ASCII characters that are neither letters
// nor digits.
var punctuationNames = map[rune]string{
	' ': "Space", '!': "Bang", '"': "Quote", '#': "Hash", '$': "Dollar", '%': "Percent", '&': "Amp",
	'\'': "Apos", '(': "LParen", ')': "RParen", '*': "Star", '+': "Plus", ',': "Comma", '-': "Minus",
	'.': "Dot", '/': "Slash", ':': "Colon", ';': "Semicolon", '<': "Less", '=': "Equal", '>': "Greater",
	'?': "Question", '@': "At", '[': "LBracket", '\\': "Backslash", ']': "RBracket", '^': "Caret",
	'_': "Underscore", '`': "Backtick", '{': "LBrace", '|': "Pipe", '}': "RBrace", '~': "Tilde",
}
