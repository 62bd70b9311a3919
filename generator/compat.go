package generator

import (
	"github.com/cborgen/cborgen/generator/internal/compat"
	"github.com/cborgen/cborgen/generator/internal/finish"
	"github.com/cborgen/cborgen/generator/internal/load"
	"github.com/cborgen/cborgen/generator/internal/model"
	"github.com/cborgen/cborgen/generator/internal/schema"
)

// renderCompat is render for -compat whyrusleeping: the types modelled
// as whyrusleeping/cbor-gen models them, checked against the schema
// record as every run is, and rendered by the compat emitter; finish
// formats and type-checks the output as it does every output.
func renderCompat(l *load.Package, oldRecord []byte, o compat.Options, acceptBreak bool) (*rendering, error) {
	cf, err := compat.Model(l, o)
	if err != nil {
		return nil, err
	}
	r := &rendering{model: cf.SchemaModel()}
	r.schema = schema.Check(r.model, l.OutPath, oldRecord)
	if (r.schema.Breaks != nil || r.schema.Unreadable != nil) && !acceptBreak {
		return r, nil
	}
	src, err := compat.Render(cf, "cbor-gen "+model.Version())
	if err != nil {
		return r, err
	}
	r.source, err = finish.Output(l, src)
	return r, err
}
