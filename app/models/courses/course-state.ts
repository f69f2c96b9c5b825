/**
 * Where a signed-in person stands with one course, so a course page offers what fits
 * (go to the course, finish paying, wait) instead of selling them a seat they have.
 */
export type CourseState =
	| { kind: 'none' }
	/** Active or completed: the course is theirs (completed keeps its materials read-only, docs/decisions/035). */
	| { kind: 'enrolled' }
	/**
	 * Not paid yet: an enrolment an admin marked pending (`canPay` false: the school settles it), or a
	 * checkout started and left unpaid (`canPay` true; `heldUntil` while its seat is still held).
	 */
	| { kind: 'payment-pending'; canPay: boolean; heldUntil: string | null }
	/** An enrolment an admin set to inactive: buying again is refused, so say so. */
	| { kind: 'inactive' }
	/**
	 * A waitlist request with the person's e-mail for this course (ISO date of the request); with a
	 * place in the course's line, its position, or the end of the seat offer it holds (ISO).
	 */
	| { kind: 'waitlisted'; since: string; position: number | null; offerExpiresAt: string | null }

/** A course the user started to pay for, did not pay, and holds no enrolment in. */
export type UnpaidRegistration = { courseId: number; courseTitle: string }

/** Until when the buyer's open checkout holds their seat (ISO), or null (docs/decisions/040). */
export function openCheckoutUntil(state: CourseState) {
	return state.kind === 'payment-pending' && state.canPay ? state.heldUntil : null
}

/** Whether a seat may be bought: not by someone who holds one, nor by one whose enrolment an admin manages. */
export function canBuySeat(state: CourseState) {
	return state.kind === 'none' || state.kind === 'waitlisted' || (state.kind === 'payment-pending' && state.canPay)
}
