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
