package check

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// WriteJSON writes the report as JSON (format "mcpgen-check/1").
func (rep *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(rep)
}

// WriteText writes the report for people: per revision, the failed
// MUSTs, the SHOULD warnings and the rules that could not be judged,
// each with its specification sentence and the exchange; then notes and
// a summary line. verbose lists the rules that passed or were skipped.
func (rep *Report) WriteText(w io.Writer, verbose bool) {
	target := rep.Target.URL
	if target == "" {
		target = "-- " + strings.Join(rep.Target.Command, " ")
	}
	fmt.Fprintf(w, "mcpgen check %s\n", target)
	if rep.Schema != "" {
		fmt.Fprintf(w, "  schema    %s\n", rep.Schema)
	}
	for _, r := range rep.Runs {
		fmt.Fprintln(w)
		if r.Server != nil {
			fmt.Fprintf(w, "  server    %s %s\n", r.Server.Name, r.Server.Version)
		}
		via := r.Via
		if r.DualEra {
			via += "; also answers initialize"
		}
		fmt.Fprintf(w, "  revision  %s (%s)\n", r.Revision, via)
		if len(r.SupportedVersions) > 0 {
			fmt.Fprintf(w, "  versions  %s\n", strings.Join(r.SupportedVersions, ", "))
		}
		if len(r.Declared) > 0 {
			fmt.Fprintf(w, "  declared  %s\n", strings.Join(r.Declared, ", "))
		}
		if r.Aborted != "" {
			fmt.Fprintf(w, "  stopped   %s\n", r.Aborted)
		}
		if len(r.Findings) > 0 {
			fmt.Fprintln(w)
		}
		for _, f := range r.Findings {
			writeFinding(w, f)
		}
		for _, n := range r.Notes {
			fmt.Fprintf(w, "NOTE         %s\n", n)
		}
		if verbose {
			for _, s := range r.Rules {
				if s.Status == Pass || s.Status == Skip {
					line := fmt.Sprintf("%-7s%-5s %s", levelTag(rule(s.Rule).Level), strings.ToUpper(string(s.Status)), s.Rule)
					if s.Reason != "" {
						line += "  (" + s.Reason + ")"
					}
					fmt.Fprintln(w, line)
				}
			}
		}
		fmt.Fprintf(w, "\n%s: %s\n", r.Revision, summaryLine(r.Summary))
	}
	if rep.Client != "" || len(rep.Notes) > 0 {
		fmt.Fprintln(w)
	}
	for _, n := range rep.Notes {
		fmt.Fprintf(w, "NOTE         %s\n", n)
	}
	if rep.Client != "" {
		fmt.Fprintf(w, "NOTE         %s\n", rep.Client)
	}
	if len(rep.Runs) > 1 {
		fmt.Fprintf(w, "\n%d revisions: %s\n", len(rep.Runs), summaryLine(rep.Summary))
	}
}

func levelTag(l Level) string {
	if l == Should {
		return "SHOULD"
	}
	return "MUST"
}

func summaryLine(s Summary) string {
	parts := []string{fmt.Sprintf("%d MUST failed", s.Failed), fmt.Sprintf("%d SHOULD warned", s.Warned)}
	if s.Errors > 0 {
		parts = append(parts, fmt.Sprintf("%d not judged", s.Errors))
	}
	parts = append(parts, fmt.Sprintf("%d passed", s.Passed), fmt.Sprintf("%d skipped", s.Skipped))
	return strings.Join(parts, ", ") + fmt.Sprintf(" (of %d rules that apply)", s.Rules)
}

func writeFinding(w io.Writer, f *Finding) {
	page := f.Spec.Page
	if f.Spec.Line > 0 {
		page += ":" + strconv.Itoa(f.Spec.Line)
	}
	derived := ""
	if f.Derived {
		derived = " (derived)"
	}
	fmt.Fprintf(w, "%-7s%-5s %-34s %s%s\n", f.Level, strings.ToUpper(string(f.Status)), f.Rule, page, derived)
	for i, p := range f.Places {
		if i > 0 {
			fmt.Fprintln(w, "      --")
		}
		fmt.Fprintf(w, "      %s: %s\n", p.Step, p.Message)
		if i == 0 {
			fmt.Fprintf(w, "      %q\n", f.Spec.Text)
		}
		if x := p.Exchange; x != nil {
			req := strings.TrimSpace(x.Request.Method + " " + x.Request.Body)
			if req != "" {
				fmt.Fprintf(w, "      > %s\n", oneLine(req))
			}
			resp := x.Response.Body
			if x.Response.Status != 0 {
				ct := x.Response.Headers["Content-Type"]
				resp = strings.TrimSpace(fmt.Sprintf("%d %s %s", x.Response.Status, ct, resp))
			}
			if resp != "" {
				fmt.Fprintf(w, "      < %s\n", oneLine(resp))
			}
		}
	}
	if f.Count > len(f.Places) {
		fmt.Fprintf(w, "      (%d times in all)\n", f.Count)
	}
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 240 {
		s = s[:240] + "..."
	}
	return s
}

// WriteRules writes the rule catalogue: "markdown" (the table of
// docs/check.md), "json", or text.
func WriteRules(w io.Writer, format string) error {
	switch format {
	case "json":
		type src struct {
			Revisions string `json:"revisions"`
			Page      string `json:"page"`
			Line      int    `json:"line,omitempty"`
			Text      string `json:"text"`
		}
		type rl struct {
			ID        string `json:"rule"`
			Level     string `json:"level"`
			Derived   bool   `json:"derived"`
			Revisions string `json:"revisions"`
			Transport string `json:"transport"`
			Call      bool   `json:"needsCall,omitempty"`
			Check     string `json:"check"`
			Sources   []src  `json:"sources"`
		}
		var out []rl
		for _, r := range Rules {
			x := rl{ID: r.ID, Level: r.Level.String(), Derived: r.Derived, Revisions: r.Revs.String(), Transport: string(r.Transport), Call: r.Call, Check: r.Check}
			for _, s := range r.Sources {
				x.Sources = append(x.Sources, src{s.Revs.String(), s.Page, s.Line, s.Text})
			}
			out = append(out, x)
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(out)
	case "markdown":
		fmt.Fprintln(w, "| rule | level | revisions | transport | what is checked | source |")
		fmt.Fprintln(w, "|---|---|---|---|---|---|")
		for _, r := range Rules {
			level := r.Level.String()
			if r.Derived {
				level += " (derived)"
			}
			check := r.Check
			if r.Call {
				check += " (only with `--call`)"
			}
			var srcs []string
			for _, s := range r.Sources {
				ref := s.Page
				if s.Line > 0 {
					ref += ":" + strconv.Itoa(s.Line)
				}
				srcs = append(srcs, "`"+ref+"`")
			}
			fmt.Fprintf(w, "| `%s` | %s | %s | %s | %s | %s |\n", r.ID, level, revsShort(r.Revs), r.Transport, mdEscape(check), strings.Join(srcs, ", "))
		}
		return nil
	}
	width := 0
	for _, r := range Rules {
		width = max(width, len(r.ID))
	}
	for _, r := range Rules {
		level := r.Level.String()
		if r.Derived {
			level += "*"
		}
		fmt.Fprintf(w, "%-*s  %-7s %-5s %-22s %s\n", width, r.ID, level, r.Transport, revsShort(r.Revs), r.Check)
	}
	fmt.Fprintln(w, "(* derived: follows from the sentences cited, not stated in these words)")
	return nil
}

// revsShort writes a revision set briefly.
func revsShort(s revSet) string {
	switch s {
	case all:
		return "all"
	case legacy:
		return "2025-11-25, 2025-06-18"
	}
	return s.String()
}

func mdEscape(s string) string { return strings.ReplaceAll(s, "|", "\\|") }
