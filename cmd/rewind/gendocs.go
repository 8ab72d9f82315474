package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
	"github.com/spf13/pflag"
)

// commandDocsDir is where the command reference is committed, from the
// project root.
const commandDocsDir = "docs/commands"

// docDefaultAnnotation marks a flag whose default depends on the machine
// (such as the number of CPUs); its value is what the command reference
// prints as the default instead, so the reference is the same on every
// machine.
const docDefaultAnnotation = "rewind_doc_default"

// documentDefault sets the default that the command reference prints for
// the flag name of fs. It does not change the flag's default.
func documentDefault(fs *pflag.FlagSet, name, text string) {
	if err := fs.SetAnnotation(name, docDefaultAnnotation, []string{text}); err != nil {
		panic(err) // a flag defined in this package is missing: a programming error
	}
}

func newGendocsCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "gendocs DIR",
		Short: "Write the command reference (one Markdown file per command) into DIR",
		Long: `gendocs writes the command reference, one Markdown file per command
generated from the commands' own help, into DIR (` + commandDocsDir + ` in this
project; DIR/README.md is the root command's page) and removes every other
.md file there, so DIR holds exactly the reference of this binary. The
output depends on nothing but the commands: no date, no machine-dependent
default.`,
		Hidden: true,
		Args:   cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return writeCommandDocs(cmd.Root(), args[0])
		},
	}
}

// commandDocs returns the Markdown reference of root and every available
// command under it, by file name. Links between the pages are relative
// file names, so they work from any folder holding all the files.
func commandDocs(root *cobra.Command) (map[string][]byte, error) {
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	out := map[string][]byte{}
	var walk func(c *cobra.Command) error
	walk = func(c *cobra.Command) error {
		for _, child := range c.Commands() {
			if !child.IsAvailableCommand() || child.IsAdditionalHelpTopicCommand() {
				continue
			}
			if err := walk(child); err != nil {
				return err
			}
		}
		c.DisableAutoGenTag = true
		restore := documentedDefaults(c)
		defer restore()
		var buf bytes.Buffer
		if err := doc.GenMarkdownCustom(c, &buf, commandDocLink); err != nil {
			return fmt.Errorf("command reference of %q: %w", c.CommandPath(), err)
		}
		out[commandDocFile(c)] = buf.Bytes()
		return nil
	}
	return out, walk(root)
}

// documentedDefaults replaces, for the time of one page, the default of
// every flag of c carrying docDefaultAnnotation; it returns the function
// that puts the real defaults back.
func documentedDefaults(c *cobra.Command) (restore func()) {
	var undo []func()
	c.Flags().VisitAll(func(f *pflag.Flag) {
		if text := f.Annotations[docDefaultAnnotation]; len(text) == 1 {
			real := f.DefValue
			f.DefValue = text[0]
			undo = append(undo, func() { f.DefValue = real })
		}
	})
	return func() {
		for _, u := range undo {
			u()
		}
	}
}

// commandDocFile is the file name of c's page: README.md for the root
// (so the folder opens on it), else the command path joined by "_", as
// cobra/doc links them.
func commandDocFile(c *cobra.Command) string {
	if !c.HasParent() {
		return "README.md"
	}
	return strings.ReplaceAll(c.CommandPath(), " ", "_") + ".md"
}

// commandDocLink maps cobra/doc's link to a page onto commandDocFile's
// name for it.
func commandDocLink(name string) string {
	if !strings.Contains(name, "_") {
		return "README.md"
	}
	return name
}

// writeCommandDocs writes commandDocs(root) into dir, creating it, and
// removes every other .md file in dir.
func writeCommandDocs(root *cobra.Command, dir string) error {
	pages, err := commandDocs(root)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("command reference: %w", err)
	}
	old, err := filepath.Glob(filepath.Join(dir, "*.md"))
	if err != nil {
		return fmt.Errorf("command reference: %w", err)
	}
	for _, f := range old {
		if _, ok := pages[filepath.Base(f)]; !ok {
			if err := os.Remove(f); err != nil {
				return fmt.Errorf("command reference: %w", err)
			}
		}
	}
	names := make([]string, 0, len(pages))
	for name := range pages {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if err := os.WriteFile(filepath.Join(dir, name), pages[name], 0o644); err != nil {
			return fmt.Errorf("command reference: %w", err)
		}
	}
	return nil
}
