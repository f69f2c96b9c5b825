import { DRAFT_TTL_MS } from '#app/models/enrollment/registration.server.ts'
import { siteCookie } from '#app/utils/cookies.server.ts'

/** The registration wizard's cookie: only the random id of the draft kept server-side. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

function draftCookie() {
	return siteCookie('registration', { maxAgeSeconds: DRAFT_TTL_MS / 1000 })
}

export async function readDraftId(request: Request) {
	const value: unknown = await draftCookie().parse(request.headers.get('Cookie'))
	return typeof value === 'string' && UUID.test(value) ? value : null
}

export function draftCookieHeader(draftId: string) {
	return draftCookie().serialize(draftId)
}

export function clearDraftCookieHeader() {
	return draftCookie().serialize('', { maxAge: 0 })
}
