import { describe, expect, test } from 'vitest'
import { rowIdSchema } from './row-id.ts'

describe('row id schema', () => {
	const schema = rowIdSchema('Please select a course')

	test('a positive integer within PostgreSQL integer range is accepted', () => {
		expect(schema.parse('1')).toBe(1)
		expect(schema.parse('2147483647')).toBe(2_147_483_647)
	})

	test.each(['99999999999999999999', '-99999999999999999999', '2147483648', '0', '-1', '1.5', 'abc', '', 'Infinity'])(
		'%j fails with the message once',
		(value) => {
			expect(schema.safeParse(value).error?.issues.map((issue) => issue.message)).toEqual(['Please select a course'])
		},
	)
})
