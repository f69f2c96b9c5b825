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
