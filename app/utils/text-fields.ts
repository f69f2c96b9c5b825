import { z } from 'zod'
import { hasControlCharacters } from './misc.ts'

/**
 * A form's text: `label` names it in the messages, `max` is its length in characters; line breaks and
 * tabs are kept only where `lineBreaks` says so, other control characters are refused (PostgreSQL
 * text cannot hold NUL).
 */
type TextRules = { label: string; max: number; lineBreaks?: boolean }

const tooLong = ({ label, max }: TextRules) => `${label} must be at most ${max.toLocaleString('en-US')} characters`
const controlCharacters = ({ label }: TextRules) => `${label} must not contain control characters`

/** A text that may be left empty, trimmed: the caller says what an empty one becomes. */
export function boundedText(rules: TextRules) {
	return z
		.string()
		.trim()
		.max(rules.max, tooLong(rules))
		.refine((text) => !hasControlCharacters(text, { lineBreaks: rules.lineBreaks }), controlCharacters(rules))
}

/** A text that must be filled in, trimmed; `required` is what an empty one is told ('<label> is required'). */
export function requiredText({ required, ...rules }: TextRules & { required?: string }) {
	const missing = required ?? `${rules.label} is required`
	return z
		.string({ error: missing })
		.trim()
		.min(1, missing)
		.max(rules.max, tooLong(rules))
		.refine((text) => !hasControlCharacters(text, { lineBreaks: rules.lineBreaks }), controlCharacters(rules))
}
