import { describe, expect, test } from 'vitest'
import { parseRowId, rowIdSchema } from './row-id.ts'

/** What Number() or a coercing schema would read as an id, but no link or form of the app writes. */
const NOT_IDS = [
	'1e1',
	'12.0',
	' 12',
	'12 ',
	'+12',
	'0x10',
	'012',
	'0',
	'-1',
	'2147483648',
	'１２',
	'1.5',
	'abc',
	'',
	'Infinity',
	'99999999999999999999',
	'-99999999999999999999',
]

describe('parseRowId', () => {
	test('plain digits within PostgreSQL integer range are an id', () => {
		expect(parseRowId('1')).toBe(1)
		expect(parseRowId('2147483647')).toBe(2_147_483_647)
	})

	test.each(NOT_IDS)('%j is not an id', (value) => {
		expect(parseRowId(value)).toBeNull()
	})

	test('only a string is read: a number, null or a missing value is not an id', () => {
		for (const value of [12, null, undefined]) expect(parseRowId(value)).toBeNull()
	})
})

describe('row id schema', () => {
	const schema = rowIdSchema('Please select a course')

	test('an id is accepted as its number', () => {
		expect(schema.parse('1')).toBe(1)
		expect(schema.parse('2147483647')).toBe(2_147_483_647)
	})

	test.each([...NOT_IDS, undefined])('%j fails with the message once', (value) => {
		expect(schema.safeParse(value).error?.issues.map((issue) => issue.message)).toEqual(['Please select a course'])
	})
})
