package bundle

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
	"time"
)

// Format is how a bundle is packed.
type Format string

// The formats a bundle can take, named by the output file's extension.
const (
	TarGz Format = "tar.gz"
	Zip   Format = "zip"
)

// FormatOf returns the format a file name asks for: .tar.gz or .tgz, or
// .zip; false for any other.
func FormatOf(name string) (Format, bool) {
	switch n := strings.ToLower(name); {
	case strings.HasSuffix(n, ".tar.gz"), strings.HasSuffix(n, ".tgz"):
		return TarGz, true
	case strings.HasSuffix(n, ".zip"):
		return Zip, true
	}
	return "", false
}

// maxEntryBytes bounds one file read out of a bundle, and maxBundleBytes
// all of them: a bundle is read into memory, and a crafted archive must not
// exhaust it.
const (
	maxEntryBytes  = 512 << 20
	maxBundleBytes = 2 << 30
)

// entry is one file of a bundle.
type entry struct {
	name string
	data []byte
}

// pack writes files as an archive of format f. Every entry carries the
// same time, mtime, and fixed permissions, so that the same files always
// pack to the same bytes.
func pack(w io.Writer, f Format, files []entry, mtime time.Time) error {
	switch f {
	case TarGz:
		gz, err := gzip.NewWriterLevel(w, gzip.BestCompression)
		if err != nil {
			return err
		}
		gz.ModTime = mtime
		tw := tar.NewWriter(gz)
		for _, e := range files {
			h := &tar.Header{Name: e.name, Mode: 0o644, Size: int64(len(e.data)), ModTime: mtime, Typeflag: tar.TypeReg, Format: tar.FormatPAX}
			if err := tw.WriteHeader(h); err != nil {
				return err
			}
			if _, err := tw.Write(e.data); err != nil {
				return err
			}
		}
		if err := tw.Close(); err != nil {
			return err
		}
		return gz.Close()
	case Zip:
		zw := zip.NewWriter(w)
		for _, e := range files {
			fw, err := zw.CreateHeader(&zip.FileHeader{Name: e.name, Method: zip.Deflate, Modified: mtime})
			if err != nil {
				return err
			}
			if _, err := fw.Write(e.data); err != nil {
				return err
			}
		}
		return zw.Close()
	}
	return fmt.Errorf("bundle: unknown format %q", f)
}

// unpack reads every file of an archive, telling the format by its first
// bytes. An archive that is cut short, corrupt, or holds anything but
// plain files under clean relative names is an error naming the entry it
// was reading.
func unpack(data []byte) ([]entry, error) {
	switch {
	case bytes.HasPrefix(data, []byte{0x1f, 0x8b}):
		return unpackTarGz(data)
	case bytes.HasPrefix(data, []byte("PK\x03\x04")), bytes.HasPrefix(data, []byte("PK\x05\x06")):
		return unpackZip(data)
	}
	return nil, errors.New("not a bundle: neither a gzip-compressed tar nor a zip archive")
}

func unpackTarGz(data []byte) ([]entry, error) {
	gz, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	tr := tar.NewReader(gz)
	var out []entry
	total := 0
	last := "the archive's start"
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("after %s: truncated or corrupt archive: %w", last, err)
		}
		if h.Typeflag != tar.TypeReg {
			return nil, fmt.Errorf("%s: not a plain file (tar type %q)", h.Name, h.Typeflag)
		}
		if err := checkName(h.Name); err != nil {
			return nil, err
		}
		if h.Size > maxEntryBytes || total+int(h.Size) > maxBundleBytes {
			return nil, fmt.Errorf("%s: %d bytes is more than a bundle may hold", h.Name, h.Size)
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			return nil, fmt.Errorf("%s: truncated or corrupt archive: %w", h.Name, err)
		}
		total += len(b)
		out = append(out, entry{h.Name, b})
		last = h.Name
	}
	// The gzip trailer (its CRC and length) is checked only once the
	// stream is read to its end.
	if _, err := io.Copy(io.Discard, gz); err != nil {
		return nil, fmt.Errorf("after %s: truncated or corrupt archive: %w", last, err)
	}
	return out, nil
}

func unpackZip(data []byte) ([]entry, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		// A zip names its files in a directory at its end: the part a
		// cut archive loses first.
		return nil, fmt.Errorf("the zip's central directory (its end): truncated or corrupt archive: %w", err)
	}
	var out []entry
	total := 0
	for _, f := range zr.File {
		if !f.Mode().IsRegular() {
			return nil, fmt.Errorf("%s: not a plain file", f.Name)
		}
		if err := checkName(f.Name); err != nil {
			return nil, err
		}
		if f.UncompressedSize64 > maxEntryBytes || total+int(f.UncompressedSize64) > maxBundleBytes {
			return nil, fmt.Errorf("%s: %d bytes is more than a bundle may hold", f.Name, f.UncompressedSize64)
		}
		rc, err := f.Open()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Name, err)
		}
		b, err := io.ReadAll(io.LimitReader(rc, maxEntryBytes+1))
		rc.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: truncated or corrupt archive: %w", f.Name, err)
		}
		total += len(b)
		out = append(out, entry{f.Name, b})
	}
	return out, nil
}

// checkName refuses a name that could escape the folder a bundle is
// unpacked into, or that two spellings could share.
func checkName(name string) error {
	if name == "" || strings.HasPrefix(name, "/") || strings.Contains(name, `\`) || path.Clean(name) != name || name == "." ||
		name == ".." || strings.HasPrefix(name, "../") {
		return fmt.Errorf("%q: not a clean relative file name", name)
	}
	return nil
}
