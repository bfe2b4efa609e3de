// Package textdiff renders a short line diff between two texts, for test
// failures and stale-output reports.
package textdiff

import (
	"fmt"
	"strings"
)

// Unified returns a unified-style diff of a and b with context lines
// around each change, at most maxLines lines of output ("" when equal).
func Unified(nameA, nameB, a, b string, context, maxLines int) string {
	if a == b {
		return ""
	}
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	ops := diff(al, bl)
	var out []string
	out = append(out, "--- "+nameA, "+++ "+nameB)
	// Group edits into hunks with context.
	i := 0
	for i < len(ops) {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		start := max(i-context, 0)
		end := i
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			// Stop after `context` unchanged lines followed by no change soon.
			j := end
			for j < len(ops) && ops[j].kind == ' ' && j-end < 2*context {
				j++
			}
			if j < len(ops) && ops[j].kind != ' ' {
				end = j
				continue
			}
			end = min(end+context, len(ops))
			break
		}
		out = append(out, fmt.Sprintf("@@ line %d @@", ops[start].lineA+1))
		for _, op := range ops[start:end] {
			out = append(out, string(op.kind)+op.text)
		}
		i = end
		if len(out) > maxLines {
			out = append(out[:maxLines], "... (diff truncated)")
			break
		}
	}
	return strings.Join(out, "\n")
}

type op struct {
	kind  byte // ' ', '-', '+'
	text  string
	lineA int
}

// diff is a longest-common-subsequence line diff; inputs are trimmed of
// their common prefix and suffix first so large equal files are cheap.
func diff(a, b []string) []op {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var ops []op
	for i := 0; i < pre; i++ {
		ops = append(ops, op{' ', a[i], i})
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	if len(ma)*len(mb) > 4_000_000 {
		// Too big for the table: show it as a replacement.
		for i, l := range ma {
			ops = append(ops, op{'-', l, pre + i})
		}
		for _, l := range mb {
			ops = append(ops, op{'+', l, pre + len(ma)})
		}
	} else {
		// lcs[i][j] = LCS length of ma[i:], mb[j:].
		lcs := make([][]int32, len(ma)+1)
		for i := range lcs {
			lcs[i] = make([]int32, len(mb)+1)
		}
		for i := len(ma) - 1; i >= 0; i-- {
			for j := len(mb) - 1; j >= 0; j-- {
				if ma[i] == mb[j] {
					lcs[i][j] = lcs[i+1][j+1] + 1
				} else {
					lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
				}
			}
		}
		i, j := 0, 0
		for i < len(ma) || j < len(mb) {
			switch {
			case i < len(ma) && j < len(mb) && ma[i] == mb[j]:
				ops = append(ops, op{' ', ma[i], pre + i})
				i++
				j++
			case j < len(mb) && (i == len(ma) || lcs[i][j+1] >= lcs[i+1][j]):
				ops = append(ops, op{'+', mb[j], pre + i})
				j++
			default:
				ops = append(ops, op{'-', ma[i], pre + i})
				i++
			}
		}
	}
	for i := len(a) - suf; i < len(a); i++ {
		ops = append(ops, op{' ', a[i], i})
	}
	return ops
}
