import { z } from 'zod'
import { hasControlCharacters } from './misc.ts'

/** Shared by server and browser: the rules of a name, an e-mail and a password. */
export const MIN_PASSWORD_LENGTH = 8
/** Long enough for any passphrase, short enough that hashing cannot be used to exhaust the server. */
export const MAX_PASSWORD_LENGTH = 200
export const MAX_NAME_LENGTH = 200
/** The longest address SMTP can carry (RFC 5321). */
export const MAX_EMAIL_LENGTH = 254

export const NameSchema = z
	.string({ error: 'Name must be at least 2 characters' })
	.trim()
	.min(2, 'Name must be at least 2 characters')
	.max(MAX_NAME_LENGTH, `Name must be at most ${MAX_NAME_LENGTH} characters`)
	.refine((name) => !hasControlCharacters(name), 'Name must not contain control characters')

export const EmailSchema = z
	.string({ error: 'Please enter a valid email address' })
	.trim()
	.max(MAX_EMAIL_LENGTH, 'Please enter a valid email address')
	.pipe(z.email({ error: 'Please enter a valid email address' }))

export const PASSWORD_TOO_SHORT = `Password must be at least ${MIN_PASSWORD_LENGTH} characters`
const PASSWORD_TOO_LONG = `Password must be at most ${MAX_PASSWORD_LENGTH} characters`

/**
 * A new password: from MIN_PASSWORD_LENGTH to MAX_PASSWORD_LENGTH characters, the one rule of every
 * form that sets one (registration, the waitlist's claim, reset, settings). A form that words the
 * refusal its own way passes its words; the rule stays this one.
 */
export function newPasswordSchema({
	tooShort = PASSWORD_TOO_SHORT,
	tooLong = PASSWORD_TOO_LONG,
}: {
	tooShort?: string
	tooLong?: string
} = {}) {
	return z.string({ error: tooShort }).min(MIN_PASSWORD_LENGTH, tooShort).max(MAX_PASSWORD_LENGTH, tooLong)
}

export const PasswordSchema = newPasswordSchema()

/** A password typed to prove who one is (sign-in, changing it): any length up to the bound hashing allows. */
export function currentPasswordSchema(missing: string) {
	return z.string({ error: missing }).max(MAX_PASSWORD_LENGTH)
}

/**
 * The check that `confirmPassword` repeats the new password, as arguments of an object schema's
 * `.refine(...)`: the error lands on the confirmation field.
 */
export function confirmationMatches(
	message: string,
	field: 'password' | 'newPassword' = 'password',
): [(value: { confirmPassword?: string; password?: string; newPassword?: string }) => boolean, { message: string; path: string[] }] {
	return [(value) => value[field] === value.confirmPassword, { message, path: ['confirmPassword'] }]
}
