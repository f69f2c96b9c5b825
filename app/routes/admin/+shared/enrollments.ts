import { href } from 'react-router'
import type { SeatRefusal } from '#app/models/enrollment/seats.server.ts'

export const ENROLLMENTS_PATH = href('/dashboard/admin/enrollments')

/** The list, searched by `query`, with more query parameters when given (`confirm=…`). */
export function enrollmentsPath(query: string, extra?: string) {
	const params = [query ? `q=${encodeURIComponent(query)}` : null, extra ?? null].filter(Boolean)
	return params.length > 0 ? `${ENROLLMENTS_PATH}?${params.join('&')}` : ENROLLMENTS_PATH
}

/** What the admin is told when a seat cannot be given. */
export const refusalMessages: Record<SeatRefusal, string> = {
	'already-enrolled': 'User is already enrolled in this course.',
	'course-full': 'Cannot enroll: Course has reached maximum capacity.',
	'course-not-found': 'Failed to create enrollment',
}
