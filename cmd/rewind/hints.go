package main

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// The wording of the errors that say what to type instead: every
// command's refusal of a flag, a value out of range and a misspelt name
// ends with one of these hints.

// helpHint is the way out every flag error ends with: the command's help.
func helpHint(cmd *cobra.Command) string {
	return fmt.Sprintf("`%s --help` lists its flags", cmd.CommandPath())
}

// outsideRange is the error for flag's value v outside lo..hi for game,
// with a value to give instead.
func outsideRange(flag string, v, lo, hi int, game string) error {
	return usagef("%s %d is outside %d..%d for %s: give a number from %d to %d, such as %s %d", flag, v, lo, hi, game, lo, hi, flag, hi)
}

// didYouMean is "; did you mean X?" for the candidate nearest to s (at
// most two edits away, or one that s begins or that begins with s), ""
// when none is near.
func didYouMean(s string, candidates []string) string {
	best, bestD := "", 3
	for _, c := range candidates {
		d := editDistance(s, c)
		if len(s) >= 3 && (strings.HasPrefix(c, s) || strings.HasPrefix(s, c)) {
			d = min(d, 1)
		}
		if d < bestD {
			best, bestD = c, d
		}
	}
	if best == "" || best == s {
		return ""
	}
	return fmt.Sprintf("; did you mean %s?", best)
}

// editDistance is the Levenshtein distance of a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

var (
	unknownFlag = regexp.MustCompile(`^unknown flag: --(\S+)`)
	badValue    = regexp.MustCompile(`^invalid argument ".*" for "(?:-\w, )?--([^"]+)" flag`)
)

// valueKinds says, per pflag value type, what a flag of that type takes.
var valueKinds = map[string]string{
	"int": "a whole number", "int64": "a whole number", "uint": "a whole number from 0", "uint64": "a whole number from 0",
	"float64": "a number", "duration": "a duration such as 500ms or 2s", "bool": "true or false",
}

// flagError is cobra's refusal of cmd's command line (err) with what to
// type instead: for an unknown flag the nearest of cmd's flags, for a
// value its flag cannot take what the flag takes; and always the
// command's help (helpHint).
func flagError(cmd *cobra.Command, err error) error {
	msg := err.Error()
	hint := ""
	if m := unknownFlag.FindStringSubmatch(msg); m != nil {
		var names []string
		cmd.Flags().VisitAll(func(f *pflag.Flag) {
			if !f.Hidden {
				names = append(names, "--"+f.Name)
			}
		})
		hint = didYouMean("--"+m[1], names)
	} else if m := badValue.FindStringSubmatch(msg); m != nil {
		if f := cmd.Flags().Lookup(m[1]); f != nil {
			if kind, ok := valueKinds[f.Value.Type()]; ok {
				hint = fmt.Sprintf("; --%s takes %s", f.Name, kind)
				if def := f.DefValue; def != "" && f.Value.Type() != "bool" {
					hint += fmt.Sprintf(", such as --%s %s", f.Name, def)
				}
			}
		}
	}
	return &usageError{fmt.Errorf("%w%s; %s", err, hint, helpHint(cmd))}
}
