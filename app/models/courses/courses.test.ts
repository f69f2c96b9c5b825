import { expect, test } from 'vitest'
import { courseLengthInWeeks } from './courses.ts'

test('a course runs for the whole weeks between its dates, both days counted; without dates the program’s 8', () => {
	expect(courseLengthInWeeks('2031-05-05', '2031-06-29')).toBe(8)
	expect(courseLengthInWeeks('2031-05-05', '2031-06-01')).toBe(4)
	expect(courseLengthInWeeks('2031-05-05', '2031-05-05')).toBe(1)
	expect(courseLengthInWeeks(null, '2031-06-01')).toBe(8)
	expect(courseLengthInWeeks('2031-05-05', null)).toBe(8)
	expect(courseLengthInWeeks('2031-06-01', '2031-05-05')).toBe(8)
})
