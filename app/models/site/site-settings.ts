import { z } from 'zod'
import { hasControlCharacters } from '#app/utils/misc.ts'
import { SITE_NAME } from '#app/utils/page-meta.ts'
import { boundedText, requiredText } from '#app/utils/text-fields.ts'

/**
 * The hero's limited-time offer card (docs/decisions/017: stored, so every visitor sees an admin's edit).
 * Each text is one line without control characters: PostgreSQL cannot keep a NUL in the jsonb that holds it.
 */
export const LimitedTimeOfferSchema = z.object({
	title: requiredText({ label: 'Title', max: 120 }),
	discount: requiredText({ label: 'Discount', max: 160 }),
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
	action: requiredText({ label: 'Action label', max: 60 }),
	note: boundedText({ label: 'Note', max: 300 }).default(''),
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
	name: requiredText({ label: 'School name', max: 120 }),
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
	taxId: boundedText({ label: 'Tax ID', max: 40 }).default(''),
})

export type SchoolDetails = z.infer<typeof SchoolDetailsSchema>

/** Shown until an admin saves the school's details: the name alone, no address or tax id to make up. */
export const DEFAULT_SCHOOL_DETAILS: SchoolDetails = { name: DEFAULT_SCHOOL_NAME, address: '', taxId: '' }
