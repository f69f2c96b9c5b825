import { z } from 'zod'

/** The hero's limited-time offer card (docs/decisions/017: stored, so every visitor sees an admin's edit). */
export const LimitedTimeOfferSchema = z.object({
	title: z.string({ error: 'Title is required' }).trim().min(1, 'Title is required').max(120, 'Title must be at most 120 characters'),
	discount: z
		.string({ error: 'Discount is required' })
		.trim()
		.min(1, 'Discount is required')
		.max(160, 'Discount must be at most 160 characters'),
	items: z
		.array(z.string().trim().min(1, 'Items cannot be empty').max(200, 'Each item must be at most 200 characters'), {
			error: 'Add at least one item',
		})
		.min(1, 'Add at least one item')
		.max(10, 'Add at most 10 items'),
	action: z
		.string({ error: 'Action label is required' })
		.trim()
		.min(1, 'Action label is required')
		.max(60, 'Action label must be at most 60 characters'),
	note: z.string().trim().max(300, 'Note must be at most 300 characters').default(''),
})

export type LimitedTimeOffer = z.infer<typeof LimitedTimeOfferSchema>

/** Shown until an admin saves or removes the offer. */
export const DEFAULT_LIMITED_TIME_OFFER: LimitedTimeOffer = {
	title: 'Limited Time Offer',
	discount: 'Save $500 when you enroll in the next cohort',
	items: [
		'8 weekly live mentoring sessions',
		'Deal analysis templates and checklists',
		'Small group of no more than 10 investors',
		'Recordings of every class session',
	],
	action: 'Claim Your Spot',
	note: 'Offer ends when the next cohort is full.',
}
