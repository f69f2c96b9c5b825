import { z } from 'zod'
import { youtubeVideoId } from '#app/models/materials/materials.ts'
import { rowIdSchema } from '#app/utils/row-id.ts'
import { FILE_TOO_LARGE_MESSAGE } from '#app/utils/upload-limit.ts'

/** Above this a video still uploads, with a warning (docs/decisions/008). */
export const RECOMMENDED_VIDEO_MB = 20
/** At most this many files in one upload. */
export const MAX_FILES_PER_UPLOAD = 20

export const ALLOWED_FILES_TEXT =
	'PDF, images (JPEG, PNG, GIF, WebP), videos (MP4, WebM, MOV), Word, Excel and PowerPoint documents, plain text and CSV'

export const UPLOAD_MESSAGES = {
	noCourse: 'No course selected. Please select a course first.',
	weekNumberRequired: 'Week number is required',
	weekNumberMin: 'Week number must be 1 or greater',
	topicRequired: 'Topic is required',
	zoomRequired: 'Please add a Zoom link or uncheck the Zoom link option',
	invalidUrl: 'Please enter a valid URL (starting with https://)',
	invalidYoutube: 'Please enter a valid YouTube URL',
	tooLargeTitle: FILE_TOO_LARGE_MESSAGE,
	generic: 'Failed to upload materials. Please check console for details.',
	success: 'Materials uploaded successfully',
} as const

/** The toast of an upload that carried only the week's details (docs/decisions/046: a topic alone makes a week). */
export function weekSavedMessage(weekNumber: number) {
	return `Week ${weekNumber} saved`
}

export function tooLargeMessage(fileName: string, maxUploadMb: number) {
	return (
		`"${fileName}" is larger than the ${maxUploadMb} MB limit per file. ` +
		'Please upload large recordings to a video hosting service such as YouTube and add the link instead.'
	)
}

export function duplicateFileMessage(fileName: string) {
	return `A file with the name "${fileName}" already exists. Please rename your file and try again.`
}

export function largeVideoWarning(files: Array<{ name: string; sizeBytes: number }>) {
	const list = files.map((file) => `${file.name} (${(file.sizeBytes / (1024 * 1024)).toFixed(1)} MB)`).join(', ')
	return `Large video files (over ${RECOMMENDED_VIDEO_MB} MB) may load slowly for students: ${list}. Consider a video hosting service such as YouTube.`
}

/**
 * A file entry as either side sees it: a File in the browser, or on the server the
 * name of a file already streamed to storage (the server puts those in place of the
 * parts its parser consumed). An empty file input counts as nothing.
 */
export function hasFile(value: unknown): boolean {
	if (Array.isArray(value)) return value.some(hasFile)
	if (typeof value === 'string') return value !== ''
	if (typeof File !== 'undefined' && value instanceof File) return value.name !== '' || value.size > 0
	return false
}

export function isHttpUrl(value: string) {
	try {
		const url = new URL(value)
		return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname.includes('.')
	} catch {
		return false
	}
}

const optionalText = (max: number) =>
	z
		.string()
		.trim()
		.max(max)
		.optional()
		.transform((value) => value || undefined)

/** A week's number and topic as the week's forms take them (the upload form and Edit Week), each with its form's messages. */
export function weekNumberAndTopicFields(messages: {
	weekNumberRequired: string
	/** For an input that is no number. */
	weekNumberNumeric: string
	weekNumberMin: string
	topicRequired: string
}) {
	return {
		weekNumber: z.coerce
			.number({ error: (issue) => (issue.input === undefined ? messages.weekNumberRequired : messages.weekNumberNumeric) })
			.int(messages.weekNumberMin)
			.min(1, messages.weekNumberMin)
			.max(1000, 'Week number must be 1000 or less'),
		topic: z
			.string({ error: messages.topicRequired })
			.trim()
			.min(1, messages.topicRequired)
			.max(300, 'Topic must be at most 300 characters'),
	}
}

/** The fields of the upload form that come before its files; the server checks them before storing a byte. */
export const UploadTargetSchema = z.object({
	courseId: rowIdSchema(UPLOAD_MESSAGES.noCourse),
	// The upload form answers an input that is no number with the range's message.
	...weekNumberAndTopicFields({ ...UPLOAD_MESSAGES, weekNumberNumeric: UPLOAD_MESSAGES.weekNumberMin }),
})

/** The whole upload form, on both sides. A topic alone is enough: files, recordings and links can follow (docs/decisions/046). */
export const UploadSchema = UploadTargetSchema.extend({
	addZoom: z.boolean().optional(),
	zoomLink: optionalText(2000),
	materialFiles: z.unknown().optional(),
	recordingFiles: z.unknown().optional(),
	youtubeUrl: optionalText(2000),
}).superRefine((value, context) => {
	if (value.addZoom) {
		if (!value.zoomLink) context.addIssue({ code: 'custom', path: ['zoomLink'], message: UPLOAD_MESSAGES.zoomRequired })
		else if (!isHttpUrl(value.zoomLink)) context.addIssue({ code: 'custom', path: ['zoomLink'], message: UPLOAD_MESSAGES.invalidUrl })
	}
	if (value.youtubeUrl && !youtubeVideoId(value.youtubeUrl)) {
		context.addIssue({ code: 'custom', path: ['youtubeUrl'], message: UPLOAD_MESSAGES.invalidYoutube })
	}
})

export type UploadValues = z.output<typeof UploadSchema>
