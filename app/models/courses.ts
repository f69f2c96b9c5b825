/** Seat availability as every page shows it: shared by the server's queries and the badges. */

/** At this many spots left or fewer (but more than none) a course is ALMOST FULL. */
export const ALMOST_FULL_THRESHOLD = 2

export type AvailabilityTone = 'green' | 'orange' | 'red'

export type Availability = {
	taken: number
	spotsLeft: number
	isFull: boolean
	isAlmostFull: boolean
	tone: AvailabilityTone
}

export type CourseWithAvailability = Availability & {
	id: number
	title: string
	description: string
	/** 'YYYY-MM-DD' or null. */
	startDate: string | null
	/** 'YYYY-MM-DD' or null. */
	endDate: string | null
	capacity: number
	/** In cents; 0 is a free course. */
	registrationFee: number
	/** The live sessions, e.g. 'Tuesdays 7 pm ET, 8 sessions from 13 Jan'; null without a weekly schedule. */
	schedule: string | null
	/** ISO timestamp. */
	createdAt: string
	/** ISO timestamp. */
	updatedAt: string
}

export function availabilityOf({ capacity, taken }: { capacity: number; taken: number }): Availability {
	const spotsLeft = Math.max(0, capacity - taken)
	const isFull = spotsLeft === 0
	const isAlmostFull = !isFull && spotsLeft <= ALMOST_FULL_THRESHOLD
	return {
		taken,
		spotsLeft,
		isFull,
		isAlmostFull,
		tone: isFull ? 'red' : isAlmostFull ? 'orange' : 'green',
	}
}

/** The program's length in the specification: 8 weekly sessions. */
export const PROGRAM_WEEKS = 8

/**
 * How many weeks a course runs, from its dates ('YYYY-MM-DD', both days counted), rounded to
 * whole weeks; the program's 8 weeks when a date is missing or they make no sense.
 */
export function courseLengthInWeeks(startDate: string | null, endDate: string | null) {
	if (!startDate || !endDate) return PROGRAM_WEEKS
	const days = (Date.parse(`${endDate}T00:00:00Z`) - Date.parse(`${startDate}T00:00:00Z`)) / 86_400_000 + 1
	if (!Number.isFinite(days) || days < 1) return PROGRAM_WEEKS
	return Math.max(1, Math.round(days / 7))
}
