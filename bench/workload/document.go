package workload

import (
	"fmt"
	"math/rand/v2"

	"github.com/cborgen/cborgen/runtime/genrt"
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
	b = genrt.AppendMapHead(b, 4)
	b = genrt.AppendString(b, "version")
	b = genrt.AppendUint(b, 3)
	b = genrt.AppendString(b, "generated")
	b = genrt.AppendTag(b, 0)
	b = genrt.AppendString(b, "2026-11-30T21:00:00Z")
	b = genrt.AppendString(b, "source")
	b = genrt.AppendString(b, "accounts-export")
	b = genrt.AppendString(b, "records")
	b = genrt.AppendArrayHead(b, DocumentRecords)
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
	b = genrt.AppendTag(b, tagRecord)
	b = genrt.AppendMapHead(b, 17)
	b = genrt.AppendString(b, "id")
	b = genrt.AppendUint(b, uint64(1_000_000+i))
	b = genrt.AppendString(b, "uuid")
	b = genrt.AppendTag(b, 37)
	uuid := make([]byte, 16)
	for j := range uuid {
		uuid[j] = byte(rng.Uint32())
	}
	b = genrt.AppendBytes(b, uuid)
	b = genrt.AppendString(b, "name")
	b = genrt.AppendString(b, fmt.Sprintf("User Number %d", i))
	b = genrt.AppendString(b, "email")
	b = genrt.AppendString(b, fmt.Sprintf("user.%d@example.com", i))
	b = genrt.AppendString(b, "created")
	b = genrt.AppendTag(b, 1)
	b = genrt.AppendInt(b, 1_600_000_000+rng.Int64N(100_000_000))
	b = genrt.AppendString(b, "updated")
	b = genrt.AppendTag(b, 0)
	b = genrt.AppendString(b, fmt.Sprintf("2026-%02d-%02dT%02d:%02d:%02d.%03d+01:00",
		1+rng.IntN(12), 1+rng.IntN(28), rng.IntN(24), rng.IntN(60), rng.IntN(60), rng.IntN(1000)))
	b = genrt.AppendString(b, "active")
	b = genrt.AppendBool(b, rng.IntN(4) != 0)
	b = genrt.AppendString(b, "score")
	b = genrt.AppendFloat64(b, rng.Float64()*100)
	b = genrt.AppendString(b, "tags")
	b = genrt.AppendArrayHead(b, 3)
	for j := 0; j < 3; j++ {
		b = genrt.AppendString(b, docTags[rng.IntN(len(docTags))])
	}
	b = genrt.AppendString(b, "location")
	b = genrt.AppendTag(b, tagLocation)
	b = genrt.AppendMapHead(b, 4)
	c := rng.IntN(len(docCities))
	b = genrt.AppendString(b, "latitude")
	b = genrt.AppendFloat64(b, rng.Float64()*180-90)
	b = genrt.AppendString(b, "longitude")
	b = genrt.AppendFloat64(b, rng.Float64()*360-180)
	b = genrt.AppendString(b, "city")
	b = genrt.AppendString(b, docCities[c])
	b = genrt.AppendString(b, "country")
	b = genrt.AppendString(b, docCountries[c])
	b = genrt.AppendString(b, "links")
	b = genrt.AppendMapHead(b, 2)
	b = genrt.AppendString(b, "self")
	b = genrt.AppendTag(b, 32)
	b = genrt.AppendString(b, fmt.Sprintf("https://api.example.com/v2/users/%d", 1_000_000+i))
	b = genrt.AppendString(b, "avatar")
	b = genrt.AppendTag(b, 32)
	b = genrt.AppendString(b, fmt.Sprintf("https://cdn.example.com/avatars/%x.png", uuid[:8]))
	b = genrt.AppendString(b, "metrics")
	b = genrt.AppendMapHead(b, len(docMetrics))
	for _, m := range docMetrics {
		b = genrt.AppendString(b, m)
		b = genrt.AppendUint(b, uint64(rng.IntN(100_000)))
	}
	b = genrt.AppendString(b, "preferences")
	b = genrt.AppendMapHead(b, 5)
	b = genrt.AppendString(b, "language")
	b = genrt.AppendString(b, "en-GB")
	b = genrt.AppendString(b, "theme")
	b = genrt.AppendString(b, "dark")
	b = genrt.AppendString(b, "newsletter")
	b = genrt.AppendBool(b, rng.IntN(2) == 0)
	b = genrt.AppendString(b, "timezone")
	b = genrt.AppendString(b, "Europe/Lisbon")
	b = genrt.AppendString(b, "page_size")
	b = genrt.AppendUint(b, 50)
	b = genrt.AppendString(b, "balance")
	b = genrt.AppendTag(b, 2)
	b = genrt.AppendBytes(b, []byte{0x01, byte(rng.Uint32()), byte(rng.Uint32()), 0x00, 0x00, 0x00, 0x00, 0x00, 0x00})
	b = genrt.AppendString(b, "notes")
	b = genrt.AppendString(b, "Account migrated from the previous system; verified by the support team.")
	b = genrt.AppendString(b, "parent")
	if i%5 == 0 {
		b = genrt.AppendNull(b)
	} else {
		b = genrt.AppendUint(b, uint64(1_000_000+rng.IntN(i+1)))
	}
	b = genrt.AppendString(b, "flags")
	b = genrt.AppendUint(b, uint64(rng.IntN(1<<16)))
	return b
}
