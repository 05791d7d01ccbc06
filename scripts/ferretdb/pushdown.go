// Scriptorium's local patch to FerretDB v1's SQLite backend (scripts/services.sh copies this
// file into internal/backends/sqlite before building).
//
// Upstream pushes a filter down to SQLite only when it is exactly {_id: <string or ObjectId>};
// every other filter reads the whole collection and is matched in memory. This also pushes
// down an `_id` equality that sits beside other conditions, and {_id: {$in: [...]}} with
// string or ObjectId members, as lookups in the `_id` index; every top-level equality to a
// string or ObjectId ({sessionId: "…"}, {turnId: "…", author: "ai"}), which SQLite answers from
// the collection's index on that field when there is one and otherwise in its own scan;
// top-level comparisons with a number or a date ({seq: {$gt: 600}}); and an `$or` whose every
// clause has one of these. So only the matching documents are decoded. It only narrows the
// rows read: the handler still applies the whole filter to each document that comes back
// (find, count, update, delete, findAndModify and aggregate all do), so results are unchanged.

package sqlite

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"time"

	"github.com/FerretDB/FerretDB/internal/backends/sqlite/metadata"
	"github.com/FerretDB/FerretDB/internal/handler/sjson"
	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/must"
)

// maxIDsPushedDown bounds the IN list (SQLite allows 32766 parameters).
const maxIDsPushedDown = 1000

// scriptoriumPushdown returns a WHERE clause and its arguments for the conditions of the filter
// it can push down, or "" when there are none: an `_id` condition (a lookup in the `_id` index),
// top-level equalities to a string, top-level comparisons with a number or a date, and an `$or`
// of filters that each have such a condition (below).
func scriptoriumPushdown(filter *types.Document) (string, []any) {
	conds, args := scriptoriumConditions(filter)
	if len(conds) == 0 {
		return "", nil
	}

	return " WHERE " + strings.Join(conds, " AND "), args
}

// scriptoriumConditions returns the conditions of the filter it can push down, each implied by
// the filter (together they keep a superset of its matches), with their arguments.
func scriptoriumConditions(filter *types.Document) ([]string, []any) {
	if filter == nil {
		return nil, nil
	}

	var conds []string
	var args []any

	if c, a := scriptoriumIDCondition(filter); c != "" {
		conds, args = append(conds, c), append(args, a...)
	}

	for _, key := range filter.Keys() {
		if key == "$or" {
			if c, a := scriptoriumOrCondition(must.NotFail(filter.Get(key))); c != "" {
				conds, args = append(conds, c), append(args, a...)
			}

			continue
		}

		if key == "_id" || !scriptoriumPlainField.MatchString(key) {
			continue
		}

		var c []string
		var a []any

		switch v := must.NotFail(filter.Get(key)).(type) {
		case *types.Document:
			c, a = scriptoriumRangeConditions(key, v)
		case string, types.ObjectID:
			c, a = scriptoriumEqualityCondition(key, v)
		}

		conds, args = append(conds, c...), append(args, a...)
	}

	return conds, args
}

// maxOrClausesPushedDown and maxOrArgsPushedDown bound an `$or` pushed down (its clauses, and
// the SQL parameters of all of them: SQLite allows 32766 in one statement).
const (
	maxOrClausesPushedDown = 64
	maxOrArgsPushedDown    = 2000
)

// scriptoriumOrCondition pushes down {$or: [f1, f2, …]} as (c1) OR (c2) OR …, where each ci is
// what ci's own filter pushes down (so it keeps a superset of fi's matches, and the OR a
// superset of the $or's). A clause with nothing to push down could match any row, so then
// nothing is pushed down. Scriptorium's per-step check of the files a prompt showed whole
// ({$or: [{_id: {$in: …}, versionCount: {$gt: v}}, …]}) reads only the files that moved on,
// instead of decoding every shown file's text.
func scriptoriumOrCondition(v any) (string, []any) {
	clauses, ok := v.(*types.Array)
	if !ok || clauses.Len() == 0 || clauses.Len() > maxOrClausesPushedDown {
		return "", nil
	}

	var ors []string
	var args []any

	for i := 0; i < clauses.Len(); i++ {
		clause, ok := must.NotFail(clauses.Get(i)).(*types.Document)
		if !ok {
			return "", nil
		}

		c, a := scriptoriumConditions(clause)
		if len(c) == 0 {
			return "", nil
		}

		ors, args = append(ors, "("+strings.Join(c, " AND ")+")"), append(args, a...)
		if len(args) > maxOrArgsPushedDown {
			return "", nil
		}
	}

	return "(" + strings.Join(ors, " OR ") + ")", args
}

// scriptoriumEqualityCondition pushes down {f: "s"} (a string or ObjectId), which matches f == "s"
// and arrays holding "s". `->` gives the stored value as JSON text, the form FerretDB's own
// indexes on f are built on; an array's text starts with '[', so the range keeps every array
// for the handler to match.
func scriptoriumEqualityCondition(key string, v any) ([]string, []any) {
	expr := fmt.Sprintf("%s->'%s'", metadata.DefaultColumn, key)
	cond := fmt.Sprintf("(%s = ? OR (%s >= '[' AND %s < '\\'))", expr, expr, expr)

	return []string{cond}, []any{string(must.NotFail(sjson.MarshalSingleValue(v)))}
}

// scriptoriumRangeOps are the comparison operators pushed down for a number or a date, as SQL.
var scriptoriumRangeOps = map[string]string{"$gt": ">", "$gte": ">=", "$lt": "<", "$lte": "<="}

// scriptoriumRangeConditions pushes down {f: {$gt: n, $lte: m, …}} with numbers n, m (a
// session's latest messages by seq) or dates (stored, like numbers, as JSON numbers: Unix
// milliseconds; {deletedAt: {$gte: new Date(0)}}). A stored number (integer or real) must compare as asked;
// an array (which may hold a number that does) or text (how a special double may be stored) is
// kept for the handler; anything else (null, missing, documents, booleans) never matches a
// comparison with a number. It returns nothing unless every operator is one it handles.
func scriptoriumRangeConditions(key string, ops *types.Document) ([]string, []any) {
	if ops.Len() == 0 {
		return nil, nil
	}

	var conds []string
	var args []any

	for _, op := range ops.Keys() {
		sqlOp, ok := scriptoriumRangeOps[op]
		if !ok {
			return nil, nil
		}

		var n any

		switch v := must.NotFail(ops.Get(op)).(type) {
		case int32:
			n = int64(v)
		case int64:
			n = v
		case float64:
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, nil
			}

			n = v
		case time.Time:
			n = v.UnixMilli()
		default:
			return nil, nil
		}

		typ := fmt.Sprintf("json_type(%s, '$.%s')", metadata.DefaultColumn, key)
		conds = append(conds, fmt.Sprintf(
			"(%s IN ('array', 'text') OR (%s IN ('integer', 'real') AND %s->>'%s' %s ?))",
			typ, typ, metadata.DefaultColumn, key, sqlOp,
		))
		args = append(args, n)
	}

	return conds, args
}

// scriptoriumPlainField is a top-level field name that needs no quoting in a JSON path.
var scriptoriumPlainField = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// scriptoriumIDCondition returns a condition on the `_id` index and its arguments, or "" when
// the filter has no `_id` condition of a form it handles.
func scriptoriumIDCondition(filter *types.Document) (string, []any) {
	v, err := filter.Get("_id")
	if err != nil {
		return "", nil
	}

	switch v := v.(type) {
	case string, types.ObjectID:
		return fmt.Sprintf(`%s = ?`, metadata.IDColumn), []any{string(must.NotFail(sjson.MarshalSingleValue(v)))}

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

		return fmt.Sprintf(`%s IN (%s)`, metadata.IDColumn, placeholders), args
	}

	return "", nil
}
