package webreplay

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"fmt"
	"math/big"
	"net"
	"strings"
	"sync"
	"time"
)

// authority is the server's in-process certificate authority. It mints a
// leaf certificate per SNI name on demand, every one of them for the same
// leaf key pair: the browser is told to accept that one public key (an SPKI
// pin), which then covers every host of the archive, including hosts only
// met while recording.
type authority struct {
	caCert  *x509.Certificate
	caKey   *ecdsa.PrivateKey
	leafKey *ecdsa.PrivateKey
	spki    string // base64(SHA-256(leaf SubjectPublicKeyInfo))
	now     func() time.Time

	mu    sync.Mutex
	certs map[string]*tls.Certificate // by SNI name; "" for clients that send none
}

// Certificates are valid from an hour before they are minted, to tolerate
// clock skew, for a day: longer than any run, short enough that a leaked
// key is useless soon.
const (
	certBackdate = time.Hour
	certLifetime = 24 * time.Hour
)

func newAuthority(now func() time.Time) (*authority, error) {
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("certificate authority key: %w", err)
	}
	leafKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("leaf key: %w", err)
	}
	serial, err := randomSerial()
	if err != nil {
		return nil, err
	}
	t := now()
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: "contractbench replay CA"},
		NotBefore:             t.Add(-certBackdate),
		NotAfter:              t.Add(certLifetime),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
		MaxPathLenZero:        true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &caKey.PublicKey, caKey)
	if err != nil {
		return nil, fmt.Errorf("certificate authority certificate: %w", err)
	}
	caCert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, fmt.Errorf("certificate authority certificate: %w", err)
	}
	spkiDER, err := x509.MarshalPKIXPublicKey(&leafKey.PublicKey)
	if err != nil {
		return nil, fmt.Errorf("leaf public key: %w", err)
	}
	sum := sha256.Sum256(spkiDER)
	return &authority{
		caCert:  caCert,
		caKey:   caKey,
		leafKey: leafKey,
		spki:    base64.StdEncoding.EncodeToString(sum[:]),
		now:     now,
		certs:   make(map[string]*tls.Certificate),
	}, nil
}

// getCertificate is the tls.Config hook: it returns the leaf for the
// client's SNI name, minting it on first use.
func (a *authority) getCertificate(hello *tls.ClientHelloInfo) (*tls.Certificate, error) {
	// Browsers send lower-case names without the root dot, but a client
	// that does not should still get the certificate for the same name.
	name := strings.TrimSuffix(strings.ToLower(hello.ServerName), ".")
	if name != "" {
		if msg := checkHost(name); msg != "" {
			return nil, fmt.Errorf("no certificate for SNI name: %s", msg)
		}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if c, ok := a.certs[name]; ok {
		return c, nil
	}
	c, err := a.mint(name)
	if err != nil {
		return nil, fmt.Errorf("certificate for %q: %w", name, err)
	}
	a.certs[name] = c
	return c, nil
}

// mint signs a leaf for name. A client without SNI connected to the IP
// address, so its leaf names the loopback addresses instead.
func (a *authority) mint(name string) (*tls.Certificate, error) {
	serial, err := randomSerial()
	if err != nil {
		return nil, err
	}
	t := a.now()
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: name},
		NotBefore:    t.Add(-certBackdate),
		NotAfter:     t.Add(certLifetime),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	if name == "" {
		tmpl.Subject.CommonName = "localhost"
		tmpl.DNSNames = []string{"localhost"}
		tmpl.IPAddresses = []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback}
	} else {
		tmpl.DNSNames = []string{name}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, a.caCert, &a.leafKey.PublicKey, a.caKey)
	if err != nil {
		return nil, err
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	return &tls.Certificate{Certificate: [][]byte{der}, PrivateKey: a.leafKey, Leaf: leaf}, nil
}

func randomSerial() (*big.Int, error) {
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 128))
	if err != nil {
		return nil, fmt.Errorf("certificate serial number: %w", err)
	}
	return n, nil
}
