import path from 'node:path'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createTestDatabase } from '#tests/support/db.ts'
import { type ColumnTypeFacts, readTableTypes, type TypeMember } from '#tests/support/table-types.ts'

/**
 * db/types.ts is written by hand, for what a generator cannot know (the unions the CHECK
 * constraints allow, the shape of JSON columns, `never` for a column no update may touch, doc
 * comments): this test holds it to the migrated schema, column by column.
 */

/** Tables of the public schema the app never queries through Kysely's types: the migrator's own. The job system keeps its tables in the graphile_worker schema. */
const UNTYPED_TABLES = ['kysely_migration', 'kysely_migration_lock']

/** What the drivers hand back for each SQL type (app/utils/db.server.ts reads `date` as a string and `int8` as a number). */
const READ_AS: Record<string, { kinds: TypeMember['kind'][]; described: string }> = {
	text: { kinds: ['string', 'literal'], described: 'string (or a union of string literals)' },
	varchar: { kinds: ['string', 'literal'], described: 'string (or a union of string literals)' },
	uuid: { kinds: ['string'], described: 'string' },
	date: { kinds: ['string'], described: "a 'YYYY-MM-DD' string" },
	time: { kinds: ['string'], described: "an 'HH:MM:SS' string" },
	int2: { kinds: ['number'], described: 'number' },
	int4: { kinds: ['number'], described: 'number' },
	int8: { kinds: ['number'], described: 'number' },
	bool: { kinds: ['boolean'], described: 'boolean' },
	timestamptz: { kinds: ['Date'], described: 'Date' },
	jsonb: { kinds: ['object', 'unknown'], described: 'an object type or unknown' },
}

type SchemaColumn = { table: string; column: string; type: string; nullable: boolean; defaultValue: string | null }

/** A column as a CHECK prints it: `status`, `"order"`, or a varchar one cast, `(status)::text`. */
const COLUMN = String.raw`(\("?\w+"?\)::text|"?\w+"?)`
/** `status = ANY (ARRAY['a'::text, …])`, as PostgreSQL prints both that and `status IN ('a', …)` (a varchar column's array is cast). */
const ENUMERATION = new RegExp(String.raw`^CHECK \(\(${COLUMN} = ANY \(\(?ARRAY\[(.*)\](?:\)::text\[\])?\)\)\)$`)
/** `status = 'a'::text`: how PostgreSQL prints `status IN ('a')`. */
const SINGLE_VALUE = new RegExp(String.raw`^CHECK \(\(${COLUMN} = ('(?:[^']|'')*'::[\w ]+)\)\)$`)
const LITERAL = /'((?:[^']|'')*)'::[\w ]+/g

/** The values a CHECK constraint on one column enumerates, or nothing for any other kind of CHECK. */
function enumeration(definition: string): { column: string; values: string[] } | undefined {
	const match = ENUMERATION.exec(definition) ?? SINGLE_VALUE.exec(definition)
	if (!match) return undefined
	return {
		column: match[1]!.replace(/^\(|\)::text$|"/g, ''),
		values: [...match[2]!.matchAll(LITERAL)].map(([, value]) => value!.replaceAll("''", "'")),
	}
}

const has = (members: TypeMember[], ...kinds: TypeMember['kind'][]) => members.some((member) => kinds.includes(member.kind))
const quoted = (values: string[]) => values.map((value) => `'${value}'`).join(', ')

describe('db/types.ts against the migrated schema', () => {
	const types = readTableTypes(path.resolve(import.meta.dirname, '../../db/types.ts'))
	const target = { columns: [] as SchemaColumn[], enumerations: new Map<string, string[]>() }
	let drop: () => Promise<void>

	beforeAll(async () => {
		const database = await createTestDatabase()
		drop = database.drop
		const columns = await sql<SchemaColumn>`
			SELECT c.table_name AS "table", c.column_name AS "column", c.udt_name AS "type",
				c.is_nullable = 'YES' AS nullable,
				CASE WHEN c.is_identity = 'YES' THEN 'identity' ELSE c.column_default END AS "defaultValue"
			FROM information_schema.columns c
			JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
			WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE' AND NOT (c.table_name = ANY (${UNTYPED_TABLES}))
			ORDER BY c.table_name, c.ordinal_position`.execute(database.db)
		target.columns = columns.rows
		const checks = await sql<{ table: string; definition: string }>`
			SELECT conrelid::regclass::text AS "table", pg_get_constraintdef(oid) AS definition
			FROM pg_constraint WHERE contype = 'c' AND connamespace = 'public'::regnamespace`.execute(database.db)
		for (const { table, definition } of checks.rows) {
			const found = enumeration(definition)
			if (found) target.enumerations.set(`${table}.${found.column}`, found.values)
		}
	})
	afterAll(async () => drop?.())

	/** Runs `check` on every column both sides have; it answers a problem or nothing. */
	function problems(check: (column: SchemaColumn, typed: ColumnTypeFacts, name: string) => string | undefined) {
		return target.columns.flatMap((column) => {
			const typed = types.get(column.table)?.get(column.column)
			const name = `${column.table}.${column.column}`
			const problem = typed && check(column, typed, name)
			return problem ? [`${name}: ${problem}`] : []
		})
	}

	test('the Database interface names every table and no other', () => {
		const tables = new Set(target.columns.map((column) => column.table))
		expect([...tables].filter((table) => !types.has(table)).map((table) => `${table}: a table missing from Database`)).toEqual([])
		expect([...types.keys()].filter((table) => !tables.has(table)).map((table) => `${table}: in Database but not in the schema`)).toEqual(
			[],
		)
	})

	test('every column is typed, and every typed column exists', () => {
		const inSchema = new Set(target.columns.map((column) => `${column.table}.${column.column}`))
		const missing = target.columns
			.filter((column) => types.has(column.table) && !types.get(column.table)?.has(column.column))
			.map((column) => `${column.table}.${column.column}: a column missing from its table interface`)
		const extra = [...types].flatMap(([table, columns]) =>
			[...columns.keys()]
				.filter((column) => !inSchema.has(`${table}.${column}`))
				.map((column) => `${table}.${column}: typed but not in the schema`),
		)
		expect([...missing, ...extra]).toEqual([])
	})

	test('a column may be null exactly when its type says so', () => {
		expect(
			problems(({ nullable }, typed) => {
				const typedNullable = has(typed.select, 'null', 'unknown')
				if (nullable && !typedNullable) return `nullable in the database, but ${typed.written} has no null`
				if (!nullable && typedNullable) return `NOT NULL in the database, but ${typed.written} allows null`
				return undefined
			}),
		).toEqual([])
	})

	test('a column the database fills in is optional on insert, and one it cannot fill in is required', () => {
		expect(
			problems(({ nullable, defaultValue }, typed) => {
				const optional = has(typed.insert, 'undefined', 'null', 'unknown')
				if (defaultValue !== null && !optional)
					return `has a default (${defaultValue}), but ${typed.written} makes inserts give it: use Generated<…> or an insert type with undefined`
				if (defaultValue === null && !nullable && optional)
					return `NOT NULL without a default, but ${typed.written} lets an insert leave it out`
				return undefined
			}),
		).toEqual([])
	})

	test('each column is read as the type its SQL type arrives as', () => {
		expect(
			problems(({ type }, typed) => {
				const rule = READ_AS[type]
				if (!rule) return `no rule for the SQL type ${type}: add one to READ_AS`
				const wrong = typed.select.filter((member) => member.kind !== 'null' && !rule.kinds.includes(member.kind))
				return wrong.length > 0 ? `${type} is read as ${rule.described}, but is typed ${typed.written}` : undefined
			}),
		).toEqual([])
	})

	test('a string-literal union lists exactly the values its CHECK constraint allows', () => {
		expect(
			problems((_column, typed, name) => {
				const allowed = target.enumerations.get(name)
				const values = typed.select.flatMap((member) => (member.kind === 'literal' ? [member.value] : []))
				if (!allowed) return values.length > 0 ? `typed as ${quoted(values)}, but no CHECK constraint limits it to those values` : undefined
				if (has(typed.select, 'string', 'unknown', 'other'))
					return `its CHECK allows only ${quoted(allowed)}: type it as that union, not ${typed.written}`
				const missing = allowed.filter((value) => !values.includes(value))
				const extra = values.filter((value) => !allowed.includes(value))
				if (missing.length === 0 && extra.length === 0) return undefined
				return [
					missing.length > 0 ? `the CHECK allows ${quoted(missing)}, missing from the type` : '',
					extra.length > 0 ? `the type has ${quoted(extra)}, which the CHECK refuses` : '',
				]
					.filter(Boolean)
					.join('; ')
			}),
		).toEqual([])
	})
})
