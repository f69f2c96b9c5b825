import { z } from 'zod'
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '#app/utils/user-validation.ts'
import type { WaitlistStatus } from '#db/types.ts'

export const TERMS_MESSAGE = 'You must agree to the terms before claiming your seat'

/** The forms of a place/offer page (/waitlist/places/:token), told apart by `intent`. */
export const PlaceActionSchema = z.discriminatedUnion('intent', [
	z.object({ intent: z.literal('leave') }),
	z.object({ intent: z.literal('decline') }),
	z.object({
		intent: z.literal('claim'),
		agreeToTerms: z.boolean({ error: TERMS_MESSAGE }).refine((agreed) => agreed, TERMS_MESSAGE),
		/** Only when no account has the offer's address: the new account's password. */
		password: z
			.string()
			.min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters`)
			.max(MAX_PASSWORD_LENGTH, `Password must be at most ${MAX_PASSWORD_LENGTH} characters`)
			.optional(),
	}),
])

/** What the admin queue and My Courses call each status. */
export const WAITLIST_STATUS_LABELS: Record<WaitlistStatus, string> = {
	waiting: 'Waiting',
	offered: 'Offered',
	claimed: 'Claimed (paying)',
	enrolled: 'Enrolled',
	expired: 'Offer expired',
	declined: 'Declined',
	left: 'Left',
	removed: 'Removed',
}

export const OfferHoursSchema = z.object({
	intent: z.literal('offer-hours'),
	hours: z.coerce
		.number({ error: 'Enter a number of hours from 1 to 720' })
		.int('Enter a whole number of hours')
		.min(1, 'Enter a number of hours from 1 to 720')
		.max(720, 'Enter a number of hours from 1 to 720'),
})

/**
 * What the join toast promises (issue 39 point 6): the specification's "when our programs launch"
 * only while no course exists; otherwise a seat in the course asked about, or a new program. The
 * same for every address (docs/decisions/041).
 */
export function waitlistJoinedDescription({ courseTitle, anyCourse }: { courseTitle: string | null; anyCourse: boolean }) {
	if (courseTitle) return `You've been added to the waitlist for ${courseTitle}. We'll email you when a seat opens.`
	if (anyCourse) return "You've been added to the waitlist! We'll email you when a new program opens."
	return "You've been added to the waitlist! We'll notify you when our programs launch."
}
