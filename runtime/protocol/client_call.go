package protocol

import (
	"context"
	"fmt"

	"github.com/mcpgen/mcpgen/runtime/codec"
)

// A ResultOf is the pointer to a generated result type R: what Request
// decodes a result into and checks against the schema.
type ResultOf[R any] interface {
	*R
	DecodeJSON(d *codec.Decoder)
	Validate() error
}

// Request sends the request m with params p (nil for a method without
// params) through c and returns its result: the body of every generated
// Client method. Params are checked against the schema (unless
// ClientConfig.SkipRequestValidation) and converted when the server speaks
// an older revision of ClientConfig.Older, whose result is then checked
// against that revision's schema and converted back. A result of the
// package's own revision is decoded, may leave out the members of
// m.Defaults (fill, if not nil, gets the set of those missing, bit i for
// m.Defaults[i], and fills what the specification says they are), and is
// checked against the schema unless ClientConfig.SkipResponseValidation.
func Request[R any, PR ResultOf[R]](ctx context.Context, c *ClientCore, m *ClientMethod, p Value, fill func(r PR, missing uint)) (PR, error) {
	b, err := c.encodeParams(m.Name, p)
	if err != nil {
		return nil, err
	}
	raw, err := c.Call(ctx, *m, b)
	if err != nil {
		return nil, err
	}
	if o := c.olderRev(); o != nil {
		v, err := o.ResultFromOlder(m.Name, raw)
		if err != nil {
			return nil, ResultInvalid(m.Name, err)
		}
		r, ok := v.(PR)
		if !ok {
			return nil, ResultInvalid(m.Name, fmt.Errorf("the conversion gave a %T", v))
		}
		return r, nil
	}
	r := PR(new(R))
	var d codec.Decoder
	d.InitShared(raw)
	r.DecodeJSON(&d)
	missing, err := ResultError(m.Name, raw, d.Finish(), m.Defaults...)
	if err != nil {
		return nil, err
	}
	if fill != nil {
		fill(r, missing)
	}
	if !c.cfg.SkipResponseValidation {
		if err := r.Validate(); err != nil {
			return nil, ResultInvalid(m.Name, err)
		}
	}
	return r, nil
}

// Notification sends the notification method with params p (nil for one
// without params) through c, checked and converted as Request does.
func (c *ClientCore) Notification(ctx context.Context, method string, p Value) error {
	b, err := c.encodeParams(method, p)
	if err != nil {
		return err
	}
	return c.Notify(ctx, method, b)
}

// encodeParams encodes the params of a request or notification: converted
// to the older revision the server speaks, if any, otherwise checked
// against the schema (unless the config skips it) and encoded as they are.
func (c *ClientCore) encodeParams(method string, p Value) ([]byte, error) {
	if p == nil {
		return nil, nil
	}
	var b []byte
	var err error
	if o := c.olderRev(); o != nil {
		b, err = o.ParamsToOlder(method, p)
	} else {
		if !c.cfg.SkipRequestValidation {
			if err := p.Validate(); err != nil {
				return nil, ParamsError(method, err)
			}
		}
		b, err = p.AppendJSON(make([]byte, 0, 512))
	}
	if err != nil {
		return nil, ParamsError(method, err)
	}
	return b, nil
}
