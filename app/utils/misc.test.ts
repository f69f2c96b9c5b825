import { expect, test } from 'vitest'
import { searchText } from './misc.ts'

test('searchText trims, caps and drops control characters, NUL above all', () => {
	expect(searchText(new URLSearchParams({ q: '  ada\u0000 lovelace\t ' }))).toBe('ada  lovelace')
	expect(searchText(new URLSearchParams({ q: 'x'.repeat(500) }))).toHaveLength(200)
	expect(searchText(new URLSearchParams({ q: 'abcdef' }), { maxLength: 3 })).toBe('abc')
	expect(searchText(new URLSearchParams({ to: 'a@example.com', q: 'other' }), { name: 'to' })).toBe('a@example.com')
	expect(searchText(new URLSearchParams())).toBe('')
})
