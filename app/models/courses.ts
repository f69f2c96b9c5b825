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
	/** What You'll Learn: the course's own list, else the program's. */
	outcomes: string[]
	/** How long it runs, as the course page says it: the course's words, else its schedule's weeks, else the program's. */
	duration: string
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

/** What You'll Learn on a course page that has no list of its own: the program's six topics. */
export const PROGRAM_OUTCOMES = [
	'Business formation: set up the right structure for your investments',
	'Raising capital: fund deals with private money and lenders',
	'Building your team: agents, contractors, lenders and property managers',
	'Deal analysis and ARV: run the numbers and estimate after-repair value',
	'Making the right offer: negotiate with confidence',
	'Finding potential tenants: screen and place reliable renters',
]

/** The course's outcomes, one per line as the admin typed them, else the program's. */
export function courseOutcomes(outcomes: string | null) {
	const own = (outcomes ?? '')
		.split('\n')
		.map((line) => line.trim())
		.filter(Boolean)
	return own.length > 0 ? own : PROGRAM_OUTCOMES
}

/** The program's length as its course page reads it in the specification (docs/decisions 12). */
export const PROGRAM_DURATION = '3 months'

/** The course's own words; else a scheduled course's weeks; else the program's reading. */
export function courseDuration({ durationText, scheduledWeeks }: { durationText: string | null; scheduledWeeks: number | null }) {
	if (durationText) return durationText
	if (scheduledWeeks) return scheduledWeeks === 1 ? '1 week' : `${scheduledWeeks} weeks`
	return PROGRAM_DURATION
}
