package workload

import (
	"fmt"
	"math/rand/v2"

	"github.com/cborgen/cborgen/runtime"
)

// Tags of the records in NewDocument (first come, first served range of
// the IANA registry; the numbers only have to be tags).
const (
	tagRecord   = 40000
	tagLocation = 40001
)

// DocumentRecords is the number of records in NewDocument: about 765 KB.
const DocumentRecords = 1100

// NewDocument returns the encoding of a document of nested tagged maps
// with many text keys, as a service would store or exchange it (a list of
// user records with locations, links, metrics and dates), for the skip and
// validation benchmarks. It is written with the runtime's append functions,
// not a Go type: the shape is what matters. Every item is valid (UTF-8
// text, distinct keys, tags 0-3 with the content RFC 8949 requires).
func NewDocument() []byte {
	rng := rand.New(rand.NewPCG(11, 12))
	var b []byte
	b = runtime.AppendMapHead(b, 4)
	b = runtime.AppendString(b, "version")
	b = runtime.AppendUint(b, 3)
	b = runtime.AppendString(b, "generated")
	b = runtime.AppendTag(b, 0)
	b = runtime.AppendString(b, "2026-11-30T21:00:00Z")
	b = runtime.AppendString(b, "source")
	b = runtime.AppendString(b, "accounts-export")
	b = runtime.AppendString(b, "records")
	b = runtime.AppendArrayHead(b, DocumentRecords)
	for i := 0; i < DocumentRecords; i++ {
		b = appendRecord(b, rng, i)
	}
	return b
}

var (
	docCities    = []string{"Lisboa", "Zürich", "Osaka", "São Paulo", "Reykjavík", "Nairobi", "Montréal", "Kraków"}
	docCountries = []string{"PT", "CH", "JP", "BR", "IS", "KE", "CA", "PL"}
	docTags      = []string{"admin", "beta", "billing", "support", "early-adopter", "partner", "internal", "trial"}
	docMetrics   = []string{"logins", "sessions", "uploads", "downloads", "errors", "api_calls", "invites", "exports"}
)

func appendRecord(b []byte, rng *rand.Rand, i int) []byte {
	b = runtime.AppendTag(b, tagRecord)
	b = runtime.AppendMapHead(b, 17)
	b = runtime.AppendString(b, "id")
	b = runtime.AppendUint(b, uint64(1_000_000+i))
	b = runtime.AppendString(b, "uuid")
	b = runtime.AppendTag(b, 37)
	uuid := make([]byte, 16)
	for j := range uuid {
		uuid[j] = byte(rng.Uint32())
	}
	b = runtime.AppendBytes(b, uuid)
	b = runtime.AppendString(b, "name")
	b = runtime.AppendString(b, fmt.Sprintf("User Number %d", i))
	b = runtime.AppendString(b, "email")
	b = runtime.AppendString(b, fmt.Sprintf("user.%d@example.com", i))
	b = runtime.AppendString(b, "created")
	b = runtime.AppendTag(b, 1)
	b = runtime.AppendInt(b, 1_600_000_000+rng.Int64N(100_000_000))
	b = runtime.AppendString(b, "updated")
	b = runtime.AppendTag(b, 0)
	b = runtime.AppendString(b, fmt.Sprintf("2026-%02d-%02dT%02d:%02d:%02d.%03d+01:00",
		1+rng.IntN(12), 1+rng.IntN(28), rng.IntN(24), rng.IntN(60), rng.IntN(60), rng.IntN(1000)))
	b = runtime.AppendString(b, "active")
	b = runtime.AppendBool(b, rng.IntN(4) != 0)
	b = runtime.AppendString(b, "score")
	b = runtime.AppendFloat64(b, rng.Float64()*100)
	b = runtime.AppendString(b, "tags")
	b = runtime.AppendArrayHead(b, 3)
	for j := 0; j < 3; j++ {
		b = runtime.AppendString(b, docTags[rng.IntN(len(docTags))])
	}
	b = runtime.AppendString(b, "location")
	b = runtime.AppendTag(b, tagLocation)
	b = runtime.AppendMapHead(b, 4)
	c := rng.IntN(len(docCities))
	b = runtime.AppendString(b, "latitude")
	b = runtime.AppendFloat64(b, rng.Float64()*180-90)
	b = runtime.AppendString(b, "longitude")
	b = runtime.AppendFloat64(b, rng.Float64()*360-180)
	b = runtime.AppendString(b, "city")
	b = runtime.AppendString(b, docCities[c])
	b = runtime.AppendString(b, "country")
	b = runtime.AppendString(b, docCountries[c])
	b = runtime.AppendString(b, "links")
	b = runtime.AppendMapHead(b, 2)
	b = runtime.AppendString(b, "self")
	b = runtime.AppendTag(b, 32)
	b = runtime.AppendString(b, fmt.Sprintf("https://api.example.com/v2/users/%d", 1_000_000+i))
	b = runtime.AppendString(b, "avatar")
	b = runtime.AppendTag(b, 32)
	b = runtime.AppendString(b, fmt.Sprintf("https://cdn.example.com/avatars/%x.png", uuid[:8]))
	b = runtime.AppendString(b, "metrics")
	b = runtime.AppendMapHead(b, len(docMetrics))
	for _, m := range docMetrics {
		b = runtime.AppendString(b, m)
		b = runtime.AppendUint(b, uint64(rng.IntN(100_000)))
	}
	b = runtime.AppendString(b, "preferences")
	b = runtime.AppendMapHead(b, 5)
	b = runtime.AppendString(b, "language")
	b = runtime.AppendString(b, "en-GB")
	b = runtime.AppendString(b, "theme")
	b = runtime.AppendString(b, "dark")
	b = runtime.AppendString(b, "newsletter")
	b = runtime.AppendBool(b, rng.IntN(2) == 0)
	b = runtime.AppendString(b, "timezone")
	b = runtime.AppendString(b, "Europe/Lisbon")
	b = runtime.AppendString(b, "page_size")
	b = runtime.AppendUint(b, 50)
	b = runtime.AppendString(b, "balance")
	b = runtime.AppendTag(b, 2)
	b = runtime.AppendBytes(b, []byte{0x01, byte(rng.Uint32()), byte(rng.Uint32()), 0x00, 0x00, 0x00, 0x00, 0x00, 0x00})
	b = runtime.AppendString(b, "notes")
	b = runtime.AppendString(b, "Account migrated from the previous system; verified by the support team.")
	b = runtime.AppendString(b, "parent")
	if i%5 == 0 {
		b = runtime.AppendNull(b)
	} else {
		b = runtime.AppendUint(b, uint64(1_000_000+rng.IntN(i+1)))
	}
	b = runtime.AppendString(b, "flags")
	b = runtime.AppendUint(b, uint64(rng.IntN(1<<16)))
	return b
}
