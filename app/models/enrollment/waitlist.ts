import { z } from 'zod'
import { ApplyCodeSchema, PromotionCodeFieldSchema } from '#app/models/payments/promotion-codes.ts'
import { rowIdSchema } from '#app/utils/row-id.ts'
import { PasswordSchema } from '#app/utils/user-validation.ts'
import type { WaitlistStatus } from '#db/types.ts'

const TERMS_MESSAGE = 'You must agree to the terms before claiming your seat'

/** The forms of a place/offer page (/waitlist/places/:token), told apart by `intent`. */
export const PlaceActionSchema = z.discriminatedUnion('intent', [
	z.object({ intent: z.literal('leave') }),
	z.object({ intent: z.literal('decline') }),
	z.object({
		intent: z.literal('claim'),
		agreeToTerms: z.boolean({ error: TERMS_MESSAGE }).refine((agreed) => agreed, TERMS_MESSAGE),
		/** Only when no account has the offer's address: the new account's password. */
		password: PasswordSchema.optional(),
		/** The agreement version the page showed (docs/decisions/043). */
		agreementVersion: rowIdSchema().optional(),
		promotionCode: PromotionCodeFieldSchema,
	}),
	// Apply prices a code on the claim form, as on the purchase form: nothing is claimed or created.
	ApplyCodeSchema.extend({ password: z.string().optional() }),
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

/** The program a request names when it is not about one particular course. */
export const DEFAULT_PROGRAM = 'Real Estate Investment Program'

const NAME_MESSAGE = 'Name must be at least 2 characters.'
const EMAIL_MESSAGE = 'Please enter a valid email address.'

export const WaitlistSchema = z.object({
	name: z.string({ error: NAME_MESSAGE }).trim().min(2, NAME_MESSAGE).max(200, 'Name must be at most 200 characters.'),
	email: z
		.string({ error: EMAIL_MESSAGE })
		.trim()
		.max(254, EMAIL_MESSAGE)
		.pipe(z.email({ error: EMAIL_MESSAGE })),
	phone: z.string().trim().max(50, 'Phone number must be at most 50 characters.').optional(),
	message: z.string().trim().max(5000, 'Message must be at most 5,000 characters.').optional(),
	// A course that cannot be read falls back to the general program rather than failing the form.
	courseId: rowIdSchema().optional().catch(undefined),
	returnTo: z.string().max(500).optional(),
})

export type WaitlistCourse = { id: number; title: string }

export function waitlistDescription(course: WaitlistCourse | null) {
	return `Sign up to be notified when our ${course?.title ?? DEFAULT_PROGRAM} becomes available`
}

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

/** A person's place in a course's line, as My Courses and the place page show it. */
export type WaitlistPlace = {
	id: number
	courseId: number
	courseTitle: string
	status: WaitlistStatus
	/** 1 = next in line; null unless waiting. */
	position: number | null
	/** ISO timestamps. */
	joinedAt: string
	offerExpiresAt: string | null
}
