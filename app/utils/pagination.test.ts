import { describe, expect, test } from 'vitest'
import { pageNumbers, parsePage, withPage } from './pagination.ts'

describe('pagination', () => {
	test('the page parameter is a positive whole number, else the first page', () => {
		expect(parsePage(new URLSearchParams('page=3'))).toBe(3)
		expect(parsePage('?page=3')).toBe(3)
		for (const value of ['', 'abc', '0', '-1', '1.5', 'Infinity', '99999999999999999999']) {
			expect(parsePage(new URLSearchParams({ page: value })), value).toBe(1)
		}
		expect(parsePage(new URLSearchParams())).toBe(1)
	})

	test('the first page keeps the plain address', () => {
		expect(withPage('/list', 1)).toBe('/list')
		expect(withPage('/list', 4)).toBe('/list?page=4')
		expect(withPage('/list?q=deal', 2)).toBe('/list?q=deal&page=2')
	})

	test('the first, the last and the current page with its neighbours are offered, with gaps marked', () => {
		expect(pageNumbers(1, 1)).toEqual([1])
		expect(pageNumbers(1, 3)).toEqual([1, 2, 3])
		expect(pageNumbers(1, 9)).toEqual([1, 2, null, 9])
		expect(pageNumbers(5, 9)).toEqual([1, null, 4, 5, 6, null, 9])
		expect(pageNumbers(3, 9)).toEqual([1, 2, 3, 4, null, 9])
		expect(pageNumbers(9, 9)).toEqual([1, null, 8, 9])
	})
})
