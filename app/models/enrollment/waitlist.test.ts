import { expect, test } from 'vitest'
import { waitlistJoinedDescription } from './waitlist.ts'

test('the join toast keeps the specification’s launch promise only while no course exists', () => {
	expect(waitlistJoinedDescription({ courseTitle: null, anyCourse: false })).toBe(
		"You've been added to the waitlist! We'll notify you when our programs launch.",
	)
	expect(waitlistJoinedDescription({ courseTitle: null, anyCourse: true })).toBe(
		"You've been added to the waitlist! We'll email you when a new program opens.",
	)
	expect(waitlistJoinedDescription({ courseTitle: 'Spring Cohort', anyCourse: true })).toBe(
		"You've been added to the waitlist for Spring Cohort. We'll email you when a seat opens.",
	)
})
