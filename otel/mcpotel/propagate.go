package mcpotel

import (
	"context"
	"encoding/json"
	"errors"
	"sort"

	"github.com/mcpgen/mcpgen/runtime/codec"
	"github.com/mcpgen/mcpgen/runtime/spec"
	"go.opentelemetry.io/otel/propagation"
)

// MetaCarrier is a propagation.TextMapCarrier over a decoded
// params._meta object: traceparent, tracestate and baggage are string
// members of it. Members that are not strings are invisible to Get.
type MetaCarrier map[string]any

var _ propagation.TextMapCarrier = MetaCarrier(nil)

func (m MetaCarrier) Get(key string) string {
	s, _ := m[key].(string)
	return s
}

func (m MetaCarrier) Set(key, value string) { m[key] = value }

func (m MetaCarrier) Keys() []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Inject writes ctx's trace context (and baggage) into meta.
func Inject(ctx context.Context, prop propagation.TextMapPropagator, meta map[string]any) {
	prop.Inject(ctx, MetaCarrier(meta))
}

// Extract returns ctx with the trace context (and baggage) read from meta.
func Extract(ctx context.Context, prop propagation.TextMapPropagator, meta map[string]any) context.Context {
	return prop.Extract(ctx, MetaCarrier(meta))
}

// paramsCarrier reads the string members of a params' _meta, as JSON,
// without decoding the rest.
type paramsCarrier struct{ meta []byte }

func (c paramsCarrier) Get(key string) string { return jsonString(codec.Lookup(c.meta, key)) }

func (paramsCarrier) Set(string, string) {}

func (c paramsCarrier) Keys() []string {
	var keys []string
	var d codec.Decoder
	d.InitShared(c.meta)
	if d.Peek() != '{' {
		return nil
	}
	d.Object()
	for first := true; d.NextMember(&first); {
		keys = append(keys, d.Key)
		d.Skip()
	}
	return keys
}

// ExtractParams is Extract on a request's params (JSON).
func ExtractParams(ctx context.Context, prop propagation.TextMapPropagator, params json.RawMessage) context.Context {
	meta := codec.Lookup(params, spec.MemberMeta)
	if meta == nil || meta[0] != '{' {
		return ctx
	}
	return prop.Extract(ctx, paramsCarrier{meta})
}

// InjectParams returns params with ctx's trace context (and baggage)
// written into its _meta: the members are added (replacing members of the
// same names), everything else is kept byte for byte; a missing _meta is
// added, and missing params become an object. It returns params unchanged
// when there is nothing to inject, and an error when params or its _meta
// is not a JSON object.
func InjectParams(ctx context.Context, prop propagation.TextMapPropagator, params json.RawMessage) (json.RawMessage, error) {
	fields := propagation.MapCarrier{}
	prop.Inject(ctx, fields)
	if len(fields) == 0 {
		return params, nil
	}
	keys := fields.Keys()
	sort.Strings(keys)
	if i := codec.FirstByte(params); i < 0 || string(params) == "null" {
		params = json.RawMessage(`{}`)
	} else if params[i] != '{' {
		return params, errors.New("mcpotel: params are not a JSON object")
	}
	meta := codec.Lookup(params, spec.MemberMeta)
	if string(meta) == "null" {
		meta = nil
	}
	for _, key := range keys {
		var v codec.Encoder
		v.Str(fields[key])
		var err error
		if meta, err = codec.MetaSet(meta, key, v.Buf); err != nil {
			return params, errors.New("mcpotel: params._meta is not a JSON object: " + err.Error())
		}
	}
	out, err := codec.MetaSet(params, spec.MemberMeta, meta)
	if err != nil {
		return params, errors.New("mcpotel: params are not a JSON object: " + err.Error())
	}
	return out, nil
}
