import { z } from 'zod'
import { hasControlCharacters } from '#app/utils/misc.ts'

/** Shared by the forms and their actions. */
export const MAX_MESSAGE_LENGTH = 20_000
export const EMPTY_MESSAGE = 'Please enter a message'

/**
 * An announcement's subject and body: stored apart (decision 29), or, for one written before
 * that, read from its 'subject: message' content, split at the first colon.
 */
export function announcementParts(message: { subject: string | null; content: string }) {
	if (message.subject !== null) return { subject: message.subject, body: message.content }
	const colon = message.content.indexOf(':')
	if (colon === -1) return { subject: message.content.trim(), body: '' }
	return { subject: message.content.slice(0, colon).trim(), body: message.content.slice(colon + 1).trim() }
}

const PREVIEW_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif'])

/** The spec previews jpeg, jpg, gif and png; the type was sniffed from the bytes at upload. */
export function isPreviewable(type: string) {
	return PREVIEW_TYPES.has(type)
}

/** A message's text. Line breaks and tabs are kept; other control characters refused (PostgreSQL text cannot hold NUL). */
export const MessageContentSchema = z
	.string()
	.max(MAX_MESSAGE_LENGTH, 'The message is too long.')
	.refine((content) => !hasControlCharacters(content, { lineBreaks: true }), 'The message must not contain control characters.')
	.default('')
