// Scriptorium's local patch to FerretDB v1's SQLite backend (scripts/services.sh copies this
// file into internal/backends/sqlite before building).
//
// Upstream pushes a filter down to SQLite only when it is exactly {_id: <string or ObjectId>};
// every other filter reads the whole collection and is matched in memory. This also pushes
// down an `_id` equality that sits beside other conditions, and {_id: {$in: [...]}} with
// string or ObjectId members, as lookups in the `_id` index. It only narrows the rows read:
// the handler still applies the whole filter to each document that comes back (find, count,
// update, delete, findAndModify and aggregate all do), so results are unchanged.

package sqlite

import (
	"fmt"
	"strings"

	"github.com/FerretDB/FerretDB/internal/backends/sqlite/metadata"
	"github.com/FerretDB/FerretDB/internal/handler/sjson"
	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/must"
)

// maxIDsPushedDown bounds the IN list (SQLite allows 32766 parameters).
const maxIDsPushedDown = 1000

// scriptoriumIDPushdown returns a WHERE clause on the `_id` index and its arguments, or "" when
// the filter has no `_id` condition of a form it handles.
func scriptoriumIDPushdown(filter *types.Document) (string, []any) {
	if filter == nil {
		return "", nil
	}

	v, err := filter.Get("_id")
	if err != nil {
		return "", nil
	}

	switch v := v.(type) {
	case string, types.ObjectID:
		return fmt.Sprintf(` WHERE %s = ?`, metadata.IDColumn), []any{string(must.NotFail(sjson.MarshalSingleValue(v)))}

	case *types.Document:
		if v.Len() != 1 {
			return "", nil
		}

		in, err := v.Get("$in")
		if err != nil {
			return "", nil
		}

		members, ok := in.(*types.Array)
		if !ok || members.Len() == 0 || members.Len() > maxIDsPushedDown {
			return "", nil
		}

		args := make([]any, 0, members.Len())

		for i := 0; i < members.Len(); i++ {
			m := must.NotFail(members.Get(i))

			switch m.(type) {
			case string, types.ObjectID:
				args = append(args, string(must.NotFail(sjson.MarshalSingleValue(m))))
			default:
				return "", nil
			}
		}

		placeholders := strings.TrimSuffix(strings.Repeat("?, ", len(args)), ", ")

		return fmt.Sprintf(` WHERE %s IN (%s)`, metadata.IDColumn, placeholders), args
	}

	return "", nil
}
