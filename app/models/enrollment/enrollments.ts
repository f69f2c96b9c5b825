import type { EnrollmentStatus } from '#db/types.ts'

/** The statuses an admin may set on an enrolment, in the order the menu offers them. */
export const ENROLLMENT_STATUS_OPTIONS = ['active', 'pending', 'inactive', 'completed'] as const satisfies readonly EnrollmentStatus[]

/**
 * What a status change takes away, when it takes something (issue 39 point 8): the admin is asked
 * before it, as before a refund. Null for a change that ends no access, frees no seat and revokes no
 * certificate (leaving completed revokes one, docs/decisions/052).
 */
export function statusChangeLoss(from: EnrollmentStatus, to: EnrollmentStatus) {
	if (from === to) return null
	const certificate =
		from === 'completed' ? ' Their certificate, if they have one, is revoked; completing them again issues a new one.' : ''
	const loss = lossOfAccess(from, to)
	if (loss) return `${loss}${certificate}`
	return certificate ? certificate.trim() : null
}

function lossOfAccess(from: EnrollmentStatus, to: EnrollmentStatus) {
	if (to === 'inactive') {
		return from === 'inactive' ? null : 'They lose access to the course, and their seat is offered to the waitlist or goes back on sale.'
	}
	if (to === 'pending' && (from === 'active' || from === 'completed')) {
		return 'They lose access to the course until their enrollment is active again; their seat stays taken.'
	}
	return null
}

/** The form field that says the admin saw what a change takes away. */
export const STATUS_CHANGE_CONFIRMED = 'confirmed'
