// Package contentunion is a golden case: unions chosen by a value inside
// the item. Cert and Event are arrays whose first element names the
// variant (//cborgen:union first), as CDDL writes
// cert = [0, cred] / [1, cred] / [2, cred, pool]; Shape and Msg are maps
// in which one key names it (//cborgen:union key K), wherever it stands.
package contentunion

// Cert is a ledger certificate: [0, cred], [1, cred], [2, cred, pool] or
// [3, pool, epoch?].
//
//cborgen:union first
type Cert interface{ isCert() }

// StakeReg registers a stake credential.
//
//cborgen:case 0
type StakeReg struct {
	_    struct{} `cbor:",toarray"`
	Kind uint8
	Cred []byte
}

// StakeDereg deregisters one.
//
//cborgen:case 1
type StakeDereg struct {
	_    struct{} `cbor:",toarray"`
	Kind uint8
	Cred []byte
}

// Deleg delegates a credential to a pool.
//
//cborgen:case 2
type Deleg struct {
	_    struct{} `cbor:",toarray"`
	Kind uint8
	Cred []byte
	Pool []byte
}

// PoolRetire retires a pool, at an epoch that may be left out.
//
//cborgen:case 3
//cborgen:optional 2
type PoolRetire struct {
	_     struct{} `cbor:",toarray"`
	Kind  uint8
	Pool  []byte
	Epoch uint64
}

func (*StakeReg) isCert()   {}
func (*StakeDereg) isCert() {}
func (*Deleg) isCert()      {}
func (*PoolRetire) isCert() {}

// Event is a change to a store: ["put", key, value] or ["del", key]; a
// reader keeps the kinds it does not know (UnknownEvent).
//
//cborgen:union first
type Event interface{ isEvent() }

// Put sets a key.
//
//cborgen:case "put"
type Put struct {
	_     struct{} `cbor:",toarray"`
	Op    string
	Key   string
	Value int64
}

// Del removes a key.
//
//cborgen:case "del"
type Del struct {
	_   struct{} `cbor:",toarray"`
	Op  string
	Key string
}

// UnknownEvent keeps an event of a kind this version does not know.
//
//cborgen:catchall
type UnknownEvent []byte

func (*Put) isEvent()         {}
func (*Del) isEvent()         {}
func (UnknownEvent) isEvent() {}

// Shape is a map whose "$type" key names its kind, wherever it stands.
//
//cborgen:union key "$type"
type Shape interface{ isShape() }

// Circle is {"$type": "circle", "r": R}.
//
//cborgen:map
//cborgen:case "circle"
type Circle struct {
	Type string  `cbor:"$type"`
	R    float64 `cbor:"r"`
}

// Rect is {"$type": "rect", "w": W, "h": H, "label"?: L}.
//
//cborgen:map
//cborgen:case "rect"
type Rect struct {
	W     float64 `cbor:"w"`
	H     float64 `cbor:"h"`
	Label string  `cbor:"label,omitempty"`
	Type  string  `cbor:"$type"`
}

func (*Circle) isShape() {}
func (*Rect) isShape()   {}

// Msg is a message keyed by integers whose key 0 names its kind; a
// reader keeps the kinds it does not know (UnknownMsg).
//
//cborgen:union key 0
type Msg interface{ isMsg() }

// Ping is {0: 1, 1: seq}.
//
//cborgen:map
//cborgen:case 1
type Ping struct {
	Kind int    `cbor:"0,keyasint"`
	Seq  uint64 `cbor:"1,keyasint"`
}

// Pong is {0: 2, 1: seq, 2: payload}.
//
//cborgen:map
//cborgen:case 2
type Pong struct {
	Kind    int    `cbor:"0,keyasint"`
	Seq     uint64 `cbor:"1,keyasint"`
	Payload []byte `cbor:"2,keyasint"`
}

// UnknownMsg keeps a message of a kind this version does not know.
//
//cborgen:catchall
type UnknownMsg []byte

func (*Ping) isMsg()      {}
func (*Pong) isMsg()      {}
func (UnknownMsg) isMsg() {}

// Ledger holds values of the unions in every position.
type Ledger struct {
	Certs  []Cert
	Events []Event
	Shapes map[string]Shape
	Last   Msg
}
