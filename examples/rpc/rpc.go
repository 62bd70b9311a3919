// Package rpc is the message set of a small key-value service spoken over a
// stream of CBOR items: a client sends [Request]s, the server answers each
// with a [Response] carrying the same ID.
//
// The messages used to be sent with fxamacker/cbor's default struct encoding,
// a CBOR map keyed by the JSON names the same structs use for the HTTP
// gateway. They are now sent in cbor-gen's array format; servers still accept
// the map form from old clients, because every generated decoder reads both.
package rpc

//go:generate go tool cbor-gen -type Request,Params,GetParams,PutParams,ListParams,Response,Result,Entry,Error

// Method names a remote procedure.
type Method string

// The methods the service offers.
const (
	MethodGet  Method = "kv.get"
	MethodPut  Method = "kv.put"
	MethodList Method = "kv.list"
)

// Consistency is how fresh a read must be.
type Consistency uint8

// The read consistency levels.
const (
	ConsistencyDefault Consistency = iota
	ConsistencyStale
	ConsistencyStrong
)

// TraceID identifies one distributed trace.
type TraceID [16]byte

// Request is the envelope of a call.
type Request struct {
	Version uint8             `json:"v"`
	ID      uint64            `json:"id"`
	Method  Method            `json:"method"`
	Headers map[string]string `json:"headers,omitempty"`
	// Deadline is the time, in Unix milliseconds, after which the client
	// no longer waits for the answer. Nil means no deadline.
	Deadline *int64   `json:"deadline,omitempty"`
	Trace    *TraceID `json:"trace,omitempty"`
	Params   Params   `json:"params"`
	// Peer is the remote address, set by the server on receipt.
	Peer string `json:"-"`
}

// Params holds the arguments of a call: the member for its method is set.
type Params struct {
	Get  *GetParams  `json:"get,omitempty"`
	Put  *PutParams  `json:"put,omitempty"`
	List *ListParams `json:"list,omitempty"`
}

// GetParams are the arguments of kv.get.
type GetParams struct {
	Key         string      `json:"key"`
	Consistency Consistency `json:"consistency,omitempty"`
}

// PutParams are the arguments of kv.put.
type PutParams struct {
	Key   string `json:"key"`
	Value []byte `json:"value"`
	// TTL is the lifetime of the entry in seconds; 0 keeps it forever.
	TTL uint32 `json:"ttl,omitempty"`
	// IfVersion makes the write conditional on the current version.
	IfVersion *uint64 `json:"if_version,omitempty"`
}

// ListParams are the arguments of kv.list.
type ListParams struct {
	Prefix string `json:"prefix"`
	Limit  uint16 `json:"limit,omitempty"`
	Cursor []byte `json:"cursor,omitempty"`
	// Keys asks for the keys only, without sizes and versions.
	Keys bool `json:"keys_only,omitempty"`
}

// Response is the envelope of an answer. Exactly one of Result and Error is
// set.
type Response struct {
	ID     uint64  `json:"id"`
	Result *Result `json:"result,omitempty"`
	Error  *Error  `json:"error,omitempty"`
	// Timing reports the server-side milliseconds spent per stage
	// ("queue", "exec", ...), when the request asked for it.
	Timing map[string]float32 `json:"timing,omitempty"`
}

// Result is the successful outcome of a call.
type Result struct {
	Found   bool    `json:"found,omitempty"`
	Value   []byte  `json:"value,omitempty"`
	Version uint64  `json:"version"`
	Entries []Entry `json:"entries,omitempty"`
	Next    []byte  `json:"next,omitempty"`
}

// Entry describes one key of a kv.list result.
type Entry struct {
	Key     string  `json:"key"`
	Version uint64  `json:"version"`
	Size    int64   `json:"size"`
	Score   float64 `json:"score,omitempty"`
}

// Code classifies an error.
type Code int32

// The error codes. Negative codes are protocol errors, positive ones
// application errors.
const (
	CodeParse          Code = -32700
	CodeInvalidRequest Code = -32600
	CodeNoMethod       Code = -32601
	CodeNotFound       Code = 404
	CodeConflict       Code = 409
	CodeUnavailable    Code = 503
)

// Error is the failed outcome of a call.
type Error struct {
	Code    Code   `json:"code"`
	Message string `json:"message"`
	// RetryAfter is the number of milliseconds to wait before retrying,
	// for errors that may go away.
	RetryAfter *uint32 `json:"retry_after,omitempty"`
	// Fields maps the index of each offending parameter to what is wrong with it.
	Fields map[int]string `json:"fields,omitempty"`
	Data   []byte         `json:"data,omitempty"`
}
