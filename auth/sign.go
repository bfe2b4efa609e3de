package auth

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"net/url"
	"slices"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// signingAlg returns the JWS algorithm for a private key.
func signingAlg(key crypto.Signer) (jose.SignatureAlgorithm, error) {
	switch k := key.(type) {
	case *ecdsa.PrivateKey:
		switch k.Curve {
		case elliptic.P256():
			return jose.ES256, nil
		case elliptic.P384():
			return jose.ES384, nil
		case elliptic.P521():
			return jose.ES512, nil
		}
	case *rsa.PrivateKey:
		return jose.RS256, nil
	case ed25519.PrivateKey:
		return jose.EdDSA, nil
	}
	return "", fmt.Errorf("auth: unsupported signing key %T", key)
}

// clientAssertion returns a private_key_jwt client assertion (RFC 7523
// section 2.2) for c at the authorization server issuer.
func clientAssertion(c *ClientInfo, audience string, now time.Time) (string, error) {
	alg, err := signingAlg(c.Key)
	if err != nil {
		return "", err
	}
	opts := &jose.SignerOptions{}
	if c.KeyID != "" {
		opts = opts.WithHeader("kid", c.KeyID)
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: alg, Key: c.Key}, opts.WithType("JWT"))
	if err != nil {
		return "", err
	}
	claims := jwt.Claims{
		Issuer:   c.ClientID,
		Subject:  c.ClientID,
		Audience: jwt.Audience{audience},
		ID:       randomString(16),
		IssuedAt: jwt.NewNumericDate(now),
		Expiry:   jwt.NewNumericDate(now.Add(2 * time.Minute)),
	}
	return jwt.Signed(signer).Claims(claims).Serialize()
}

// dpopSigner makes DPoP proofs (RFC 9449 section 4).
type dpopSigner struct {
	alg    jose.SignatureAlgorithm
	signer jose.Signer
}

func newDPoPSigner(key crypto.Signer) (*dpopSigner, error) {
	alg, err := signingAlg(key)
	if err != nil {
		return nil, err
	}
	opts := (&jose.SignerOptions{EmbedJWK: true}).WithType("dpop+jwt")
	s, err := jose.NewSigner(jose.SigningKey{Algorithm: alg, Key: key}, opts)
	if err != nil {
		return nil, err
	}
	return &dpopSigner{alg: alg, signer: s}, nil
}

func (d *dpopSigner) acceptedBy(algs []string) bool {
	return slices.Contains(algs, string(d.alg))
}

type dpopClaims struct {
	ID       string           `json:"jti"`
	Method   string           `json:"htm"`
	URI      string           `json:"htu"`
	IssuedAt *jwt.NumericDate `json:"iat"`
	Nonce    string           `json:"nonce,omitempty"`
	ATH      string           `json:"ath,omitempty"`
}

// proof returns a DPoP proof for a request; accessToken, when set, is
// bound through ath.
func (d *dpopSigner) proof(method string, u *url.URL, nonce, accessToken string, now time.Time) (string, error) {
	htu := url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path, RawPath: u.RawPath}
	c := dpopClaims{ID: randomString(16), Method: method, URI: htu.String(), IssuedAt: jwt.NewNumericDate(now), Nonce: nonce}
	if accessToken != "" {
		h := sha256.Sum256([]byte(accessToken))
		c.ATH = base64.RawURLEncoding.EncodeToString(h[:])
	}
	return jwt.Signed(d.signer).Claims(c).Serialize()
}
