/**
 * A link to one file that works without a session until it expires: what an online
 * document viewer, which has no cookie of the student's, needs to fetch an Office file
 * when no preview could be made (docs/decisions/028). Signed with HMAC-SHA-256.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'

function signature(secret: string, path: string, expires: number) {
	return createHmac('sha256', secret).update(`${path}\n${expires}`).digest('base64url')
}

/** `path?expires=…&signature=…`, valid for `seconds`. */
export function signedPath(secret: string, path: string, seconds: number, now = Date.now()) {
	const expires = Math.floor(now / 1000) + seconds
	return `${path}?${new URLSearchParams({ expires: String(expires), signature: signature(secret, path, expires) })}`
}

export function isValidSignedPath(secret: string, path: string, query: URLSearchParams, now = Date.now()) {
	const expires = Number(query.get('expires'))
	const given = query.get('signature') ?? ''
	if (!Number.isSafeInteger(expires) || expires * 1000 < now) return false
	const expected = Buffer.from(signature(secret, path, expires))
	const actual = Buffer.from(given)
	return actual.length === expected.length && timingSafeEqual(actual, expected)
}
