import { z } from 'zod'
import { hasControlCharacters } from '#app/utils/misc.ts'
import { SITE_NAME } from '#app/utils/page-meta.ts'

/**
 * The hero's limited-time offer card (docs/decisions/017: stored, so every visitor sees an admin's edit).
 * Each text is one line without control characters: PostgreSQL cannot keep a NUL in the jsonb that holds it.
 */
export const LimitedTimeOfferSchema = z.object({
	title: z
		.string({ error: 'Title is required' })
		.trim()
		.min(1, 'Title is required')
		.max(120, 'Title must be at most 120 characters')
		.refine((title) => !hasControlCharacters(title), 'Title must not contain control characters'),
	discount: z
		.string({ error: 'Discount is required' })
		.trim()
		.min(1, 'Discount is required')
		.max(160, 'Discount must be at most 160 characters')
		.refine((discount) => !hasControlCharacters(discount), 'Discount must not contain control characters'),
	items: z
		.array(
			z
				.string()
				.trim()
				.min(1, 'Items cannot be empty')
				.max(200, 'Each item must be at most 200 characters')
				.refine((item) => !hasControlCharacters(item), 'Items must not contain control characters'),
			{ error: 'Add at least one item' },
		)
		.min(1, 'Add at least one item')
		.max(10, 'Add at most 10 items'),
	action: z
		.string({ error: 'Action label is required' })
		.trim()
		.min(1, 'Action label is required')
		.max(60, 'Action label must be at most 60 characters')
		.refine((action) => !hasControlCharacters(action), 'Action label must not contain control characters'),
	note: z
		.string()
		.trim()
		.max(300, 'Note must be at most 300 characters')
		.refine((note) => !hasControlCharacters(note), 'Note must not contain control characters')
		.default(''),
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

/** The school's name until an admin saves its details: the name the site has always used. */
export const DEFAULT_SCHOOL_NAME = SITE_NAME

const ADDRESS_MAX_LINES = 6

/**
 * Who the school is, as its receipts say (issue 39 point 9, docs/decisions/050): the name, the postal
 * address (one line per line, blank lines dropped) and the tax id, which a school may not have.
 */
export const SchoolDetailsSchema = z.object({
	name: z
		.string({ error: 'School name is required' })
		.trim()
		.min(1, 'School name is required')
		.max(120, 'School name must be at most 120 characters')
		.refine((name) => !hasControlCharacters(name), 'School name must not contain control characters'),
	address: z
		.string()
		.max(600, 'Address must be at most 600 characters')
		.refine((address) => !hasControlCharacters(address, { lineBreaks: true }), 'Address must not contain control characters')
		.transform((address) =>
			address
				.split(/\r\n|\r|\n/)
				.map((line) => line.replace(/\t/g, ' ').trim())
				.filter(Boolean)
				.join('\n'),
		)
		.refine((address) => address.split('\n').length <= ADDRESS_MAX_LINES, `Address must be at most ${ADDRESS_MAX_LINES} lines`)
		.default(''),
	taxId: z
		.string()
		.trim()
		.max(40, 'Tax ID must be at most 40 characters')
		.refine((taxId) => !hasControlCharacters(taxId), 'Tax ID must not contain control characters')
		.default(''),
})

export type SchoolDetails = z.infer<typeof SchoolDetailsSchema>

/** Shown until an admin saves the school's details: the name alone, no address or tax id to make up. */
export const DEFAULT_SCHOOL_DETAILS: SchoolDetails = { name: DEFAULT_SCHOOL_NAME, address: '', taxId: '' }
