package rooms

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// ManifestFile is the list, in Recordings.Dir, of the recordings the
// server wrote there: the disk budget counts and rotates these only.
// A line is "SIZE MTIME NAME" (bytes, Unix nanoseconds, the file's name
// in Dir), appended and synced when a recording is committed, rewritten
// whole when entries are dropped. A file that no longer has the size
// and modification time recorded for it — removed, replaced, written to
// by someone else — is dropped from the manifest and never removed.
const ManifestFile = ".rewind/recordings"

// MaxManifestEntries bounds the manifest (docs/limits.md): when a commit
// would pass it, the entries of files gone or changed are dropped, then
// the oldest recordings, which are then never rotated (logged).
const MaxManifestEntries = 100_000

// maxManifestLine bounds a line of the manifest read back: two numbers
// and a file name of at most 255 bytes. A longer line ends the reading.
const maxManifestLine = 512

// manifestEntry is what the manifest recorded of one recording.
type manifestEntry struct {
	size int64
	mod  int64 // Unix nanoseconds
}

// matches reports whether fi is still the file the entry recorded.
func (m manifestEntry) matches(fi os.FileInfo) bool {
	return fi.Mode().IsRegular() && fi.Size() == m.size && fi.ModTime().UnixNano() == m.mod
}

// validManifestName reports whether name can be a line's name: a file
// directly in Dir, without the separator of the line or a line break.
func validManifestName(name string) bool {
	return name != "" && name != "." && name != ".." && len(name) <= 255 &&
		!strings.ContainsAny(name, " /\\\n\r\x00")
}

func (d *Recordings) manifestPath() string { return filepath.Join(d.Dir, ManifestFile) }

// loadManifest reads the manifest once (d.mu held). A missing manifest
// is an empty one; a line that does not parse is skipped (logged).
func (d *Recordings) loadManifest() error {
	if d.manifest != nil {
		return nil
	}
	m := map[string]manifestEntry{}
	f, err := os.Open(d.manifestPath())
	if errors.Is(err, os.ErrNotExist) {
		d.manifest = m
		return nil
	}
	if err != nil {
		return fmt.Errorf("recordings: the manifest of the server's recordings: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, maxManifestLine), maxManifestLine)
	line, skipped := 0, 0
	for sc.Scan() {
		line++
		if len(m) >= MaxManifestEntries {
			d.logf("%s: more than %d recordings listed: the rest are not rotated", ManifestFile, MaxManifestEntries)
			break
		}
		name, e, ok := parseManifestLine(sc.Text())
		if !ok {
			skipped++
			continue
		}
		m[name] = e // a name committed again after its file went: the last stands
	}
	if err := sc.Err(); err != nil {
		d.logf("%s, line %d: %v: the rest is not read (those recordings are not rotated)", ManifestFile, line+1, err)
	}
	if skipped > 0 {
		d.logf("%s: %d lines that are not SIZE MTIME NAME skipped", ManifestFile, skipped)
	}
	if fi, err := f.Stat(); err == nil && fi.Size() > 0 {
		last := make([]byte, 1)
		if _, err := f.ReadAt(last, fi.Size()-1); err == nil && last[0] != '\n' {
			d.manifestTorn = true // a crash cut the last append
		}
	}
	d.manifest = m
	return nil
}

// parseManifestLine parses "SIZE MTIME NAME".
func parseManifestLine(s string) (string, manifestEntry, bool) {
	fields := strings.Split(s, " ")
	if len(fields) != 3 || !validManifestName(fields[2]) {
		return "", manifestEntry{}, false
	}
	size, err1 := strconv.ParseInt(fields[0], 10, 64)
	mod, err2 := strconv.ParseInt(fields[1], 10, 64)
	if err1 != nil || err2 != nil || size < 0 {
		return "", manifestEntry{}, false
	}
	return fields[2], manifestEntry{size: size, mod: mod}, true
}

func formatManifestLine(name string, e manifestEntry) string {
	return strconv.FormatInt(e.size, 10) + " " + strconv.FormatInt(e.mod, 10) + " " + name + "\n"
}

// own adds the recording at path, as it is now, to the manifest (d.mu
// held): the disk budget may rotate it from then on.
func (d *Recordings) own(path string) error {
	if err := d.loadManifest(); err != nil {
		return err
	}
	name := filepath.Base(path)
	if !validManifestName(name) {
		return fmt.Errorf("recordings: %q cannot be listed in %s", name, ManifestFile)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("recordings: %w", err)
	}
	e := manifestEntry{size: fi.Size(), mod: fi.ModTime().UnixNano()}
	if _, listed := d.manifest[name]; !listed && len(d.manifest) >= MaxManifestEntries {
		d.manifest[name] = e
		d.pruneManifest()
		return d.writeManifest()
	}
	d.manifest[name] = e
	if err := os.MkdirAll(filepath.Dir(d.manifestPath()), 0o755); err != nil {
		return fmt.Errorf("recordings: %w", err)
	}
	f, err := os.OpenFile(d.manifestPath(), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("recordings: %w", err)
	}
	line := formatManifestLine(name, e)
	if d.manifestTorn {
		line = "\n" + line
	}
	_, err = io.WriteString(f, line)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("recordings: %s: %w", ManifestFile, err)
	}
	d.manifestTorn = false
	return nil
}

// pruneManifest brings the manifest back to MaxManifestEntries (d.mu
// held): the entries of files gone or changed go first, then the oldest.
func (d *Recordings) pruneManifest() {
	d.checkManifest()
	if len(d.manifest) <= MaxManifestEntries {
		return
	}
	names := d.manifestNames()
	for _, name := range names[:len(names)-MaxManifestEntries] {
		delete(d.manifest, name)
		d.logf("%s: dropped from %s (more than %d recordings listed): it will not be rotated", name, ManifestFile, MaxManifestEntries)
	}
}

// manifestNames lists the manifest's names, oldest recording first
// (modification time, then Older or the name).
func (d *Recordings) manifestNames() []string {
	older := d.Older
	if older == nil {
		older = func(a, b string) bool { return a < b }
	}
	names := make([]string, 0, len(d.manifest))
	for name := range d.manifest {
		names = append(names, name)
	}
	sort.Slice(names, func(i, j int) bool {
		a, b := d.manifest[names[i]], d.manifest[names[j]]
		if a.mod != b.mod {
			return a.mod < b.mod
		}
		if older(names[i], names[j]) != older(names[j], names[i]) {
			return older(names[i], names[j])
		}
		return names[i] < names[j]
	})
	return names
}

// checkManifest drops every entry whose file is gone or no longer the
// one recorded (d.mu held), and returns whether it dropped any.
func (d *Recordings) checkManifest() bool {
	dropped := false
	for _, name := range d.manifestNames() {
		fi, err := os.Lstat(filepath.Join(d.Dir, name))
		if err == nil && d.manifest[name].matches(fi) {
			continue
		}
		delete(d.manifest, name)
		dropped = true
		if err == nil {
			d.logf("%s changed since the server recorded it (%s): left alone, no longer rotated", name, describeChange(fi))
		}
	}
	return dropped
}

// describeChange says how fi differs from what the manifest recorded.
func describeChange(fi os.FileInfo) string {
	if !fi.Mode().IsRegular() {
		return "not a regular file"
	}
	return fmt.Sprintf("now %d bytes, modified %s", fi.Size(), fi.ModTime().UTC().Format(time.RFC3339))
}

// writeManifest replaces the manifest by d.manifest (d.mu held), synced
// before it takes the old one's place.
func (d *Recordings) writeManifest() error {
	dir := filepath.Dir(d.manifestPath())
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("recordings: %w", err)
	}
	f, err := os.CreateTemp(dir, "recordings.*.tmp")
	if err != nil {
		return fmt.Errorf("recordings: %w", err)
	}
	defer os.Remove(f.Name()) // after the rename, nothing to remove
	w := bufio.NewWriter(f)
	for _, name := range d.manifestNames() {
		w.WriteString(formatManifestLine(name, d.manifest[name]))
	}
	err = w.Flush()
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), d.manifestPath())
	}
	if err != nil {
		return fmt.Errorf("recordings: %s: %w", ManifestFile, err)
	}
	d.manifestTorn = false
	return nil
}
