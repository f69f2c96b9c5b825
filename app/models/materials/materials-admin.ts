import { z } from 'zod'
import { hasFile, isHttpUrl, weekNumberAndTopicFields } from '#app/models/materials/uploads.ts'
import { rowIdSchema } from '#app/utils/row-id.ts'
import { fileField } from '#app/utils/upload-limit.ts'
import type { MaterialCategory, MaterialType } from '#db/types.ts'
import type { ViewerKind } from './materials.ts'

/** New-material rows one save may add. */
export const MAX_NEW_MATERIALS = 20
/** Empty new-material rows shown without JavaScript (with it, 'Add Material' adds rows). */
export const NO_SCRIPT_NEW_ROWS = 2

export const WEEK_MESSAGES = {
	weekNumberRequired: 'Week number is required',
	weekNumberNumeric: 'Week number must be a number',
	weekNumberMin: 'Week number must be 1 or greater',
	topicRequired: 'Topic is required',
	zoomInvalid: 'Please enter a valid URL (starting with https://)',
	titleRequired: 'Title is required',
	fileRequired: 'Please choose a file for the new material',
	success: 'Week and materials updated successfully',
	unchanged: 'Nothing to save: the week and its materials are unchanged.',
} as const

const rowId = rowIdSchema()
const title = z
	.string()
	.trim()
	.max(300, 'Title must be at most 300 characters')
	.optional()
	.transform((value) => value || undefined)
const category = z.enum(['material', 'recording']).default('material')

/**
 * The Edit Week & Materials form, on both sides. In the browser, given the per-file limit, a file
 * over it is refused before the upload starts; the server enforces the limit while streaming.
 */
export function weekEditSchema(maxUploadMb?: number) {
	const file = fileField(maxUploadMb)
	const ExistingMaterialSchema = z
		.object({ id: rowId, title, category, file, delete: z.boolean().optional() })
		.superRefine((value, context) => {
			if (!value.delete && !value.title) context.addIssue({ code: 'custom', path: ['title'], message: WEEK_MESSAGES.titleRequired })
		})

	/** A row with neither title nor file is an unused empty row and is ignored. */
	const NewMaterialSchema = z.object({ title, category, file }).superRefine((value, context) => {
		const withFile = hasFile(value.file)
		if (!value.title && withFile) context.addIssue({ code: 'custom', path: ['title'], message: WEEK_MESSAGES.titleRequired })
		if (value.title && !withFile) context.addIssue({ code: 'custom', path: ['file'], message: WEEK_MESSAGES.fileRequired })
	})

	return z.object({
		...weekNumberAndTopicFields(WEEK_MESSAGES),
		zoomLink: z
			.string()
			.trim()
			.max(2000)
			.optional()
			.transform((value) => value || undefined)
			.refine((value) => value === undefined || isHttpUrl(value), WEEK_MESSAGES.zoomInvalid),
		materials: z.array(ExistingMaterialSchema).default([]),
		newMaterials: z
			.array(NewMaterialSchema)
			.max(MAX_NEW_MATERIALS, `At most ${MAX_NEW_MATERIALS} new materials can be added at once`)
			.default([]),
	})
}

export const WeekEditSchema = weekEditSchema()

export type WeekEditValues = z.output<typeof WeekEditSchema>

/**
 * Whether a valid Edit Week submission leaves the week as it is: same details, every item kept
 * with its title and category, nothing new. (Files are counted by the caller: one chosen is a change.)
 * Without JavaScript, 'Save All Changes' cannot be disabled while nothing changed; this tells.
 */
export function weekEditChangesNothing(week: AdminWeek, value: WeekEditValues) {
	if (value.weekNumber !== week.weekNumber || value.topic !== week.topic || (value.zoomLink ?? null) !== week.zoomLink) return false
	if (value.newMaterials.some((row) => row.title || hasFile(row.file))) return false
	if (value.materials.length !== week.items.length) return false
	return value.materials.every((material) => {
		const item = week.items.find((candidate) => candidate.id === material.id)
		return item && !material.delete && !hasFile(material.file) && material.title === item.title && material.category === item.category
	})
}

export type CourseOption = { id: number; title: string }

export type AdminMaterialItem = {
	id: number
	title: string
	category: MaterialCategory
	type: MaterialType
	kind: ViewerKind
	/** The stored file's name, or null for a link. */
	fileName: string | null
	/** An http(s) link (YouTube) for items without a stored file. */
	link: string | null
	sizeBytes: number | null
}

export type AdminWeek = {
	id: number
	weekNumber: number
	topic: string
	/** The week's own link (what Edit Week shows). */
	zoomLink: string | null
	/** The link its session is joined by: its own, else the course's meeting link (`meetingLinkFor`). */
	meetingLink: string | null
	items: AdminMaterialItem[]
}

/** What 'Show Last SQL' shows: a delete statement as it was sent, and the rows it removed. */
export type DeleteRecord = { sql: string; parameters: unknown[]; result: unknown[] }
